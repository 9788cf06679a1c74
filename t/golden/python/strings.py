a = 'single' "double" '' ""
b = r'\d+' R"\w" u'x' U"y" b'\x00' B"z"
c = rb'1' rB"2" Rb'3' RB"4" br'5' bR"6" Br'7' BR"8"
d = 'it\'s' "say \"hi\"" r'\'' r"\"" '\\' "tab\tend"
e = f'x' F"y" fr'z' fR"w" Fr'v' FR"u" rf't' rF"s" Rf'q' RF"p"
f = xr'not a prefix' ur'nor this' bu'nor' _b'no'
g = '''triple
single ' and '' inside'''
h = """triple "double"
"" still inside \""" and this
"""
i = 'continued \
on the next line'
j = b"""bytes
triple"""
k = 'unterminated
l = "after it"
