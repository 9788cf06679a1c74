int main(void)
{
	/* two
	   lines */ return "a\
b";
}
