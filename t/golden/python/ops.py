x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2; x @= m
x &= 1; x |= 1; x ^= 1; x <<= 1; x >>= 1
a ** b // c << d >> e <= f >= g == h != i < j > k
~a & b | c ^ d @ e - f + g * h / i % j
def f(a, *args, b=1, **kw) -> int: ...
if (n := len(a)) > 10: pass
x[1:2, ::3]; o.attr; {k: v}; (a,); a. b
$ ? ! `
