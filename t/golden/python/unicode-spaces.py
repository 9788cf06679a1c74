# Python takes no Unicode white space: U+00A0 is an error (python -m tokenize: ERRORTOKEN)
x = 1
print(été)
