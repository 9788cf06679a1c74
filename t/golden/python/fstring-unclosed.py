a = f"{never_closed
b = 1
c = f"{x
}"
d = 2
