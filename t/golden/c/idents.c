int main(void) { return 0; }
static const unsigned long long größe = sizeof(int);
_Bool $dollar ünïcödé_x1 x_9 __func__ _Alignas auto register;
struct naïve { char π; } s; typedef enum { A1, B_2 } e_t;
ab�cd � x�
