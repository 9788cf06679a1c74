int a; // comment
/* block
  comment */
"str"
#define X \
  1
"unterminated
int b;
"a\
b" cd
