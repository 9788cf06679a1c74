#region Operators
#if DEBUG && !RELEASE
#define TRACE
#endif
x ??= y ?? z?.w;
f = (a) => a::b;
p->q >>>= 2; r >>= 1; s >>> 3;
t = u?.5:1;
v = list[1..^1];
n = 1_000_000UL + 0xFF_FF + 0b1010_1010 + 1.5e-3f + 2.0m + 3d + .5 + 1.ToString();
@int = @"s" + @if;
a <<= 1; b != c; d >= e && f || !g;
#endregion
