cat <<A <<B <<C <<D <<E <<F <<G <<H <<I
A body
A
B body
B
C body
C
D body
D
E body
E
F body
F
G body
G
H body
H
I is lexed as words
I
