@Override
@SuppressWarnings("unchecked") @interface Marker {}
class Ops<T extends Comparable<? super T>> {
    Map<String, List<Integer>> m = new HashMap<>();
    void f(int... xs) {
        x >>>= 1; x >>= 1; x <<= 1; y = x >>> 2 >> 1 << 3;
        x += 1; x -= 1; x *= 2; x /= 2; x %= 2; x &= 1; x |= 1; x ^= 1;
        b = a == b != c <= d >= e && f || !g ? h : i;
        i++; i--; ++i; --i; z = ~a & b | c ^ d;
        Runnable r = () -> {}; Function<String, Integer> p = Integer::parseInt;
        String[] s = o.toString().split(",");
        label: for (;;) break label;
    }
}
# ` \
