a = f"{x}" f'{x!r}' f"{x=}" f"{x:>10}" f"{x:{width}.{prec}}"
b = f"{{literal}} {x} }}"
c = f"{d['key']}" f'{d["key"]}'
d = f"{d["key"]}" f'{d['key']}'
e = f"{f"{f"{1}"}"}"
g = f"{'\n'.join(lines)}"
h = f"\N{BULLET} {x}" rf"\N{x}" fr'\{x}'
i = f"{x:%Y-%m-%d}" f"{ {'a': 1}['a'] }" f"{(lambda y: y)(1)}"
j = f"""multi
{x}
line"""
k = f"""{
    x  # a comment inside the field
}"""
l = f"{', '.join([
    'one',  # brackets let the field span lines
    'two',
])}"
o = f"{x  # 3.12: even a single-quoted f-string's field may span lines
}"
m = f"unterminated {x}
n = f"{x} after"
