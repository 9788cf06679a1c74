int a = 1 \
	+ 2;
int b \
= 3;
z = a \\
b;
\
int c;
\
