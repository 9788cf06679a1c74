f = (a, b) => a ?? b;
a ??= b; a ||= b; a &&= b;
x >>>= 1; x >>= 2; x <<= 3; x >>> 4; x >> 5; x << 6;
y **= 2; y ** 3; y *= 4;
z = a?.b?.[c]?.(d);
t = c?.5:1;
u = [...xs, ...ys];
a === b !== c == d != e;
a <= b >= c < d > e;
i++; --j; a += 1; a -= 1; a %= 2; a ^= 3; a |= 4; a &= 5;
!a ~b; a ? b : c;
@decorator class K { #priv = 1; get #x() { return this.#priv; } static { } }
obj.#priv in obj;
