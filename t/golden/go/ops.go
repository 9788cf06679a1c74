package main

func f(xs ...int) {
	x := 1
	x += 2; x -= 3; x *= 4; x /= 5; x %= 6
	x &= 7; x |= 8; x ^= 9; x <<= 1; x >>= 2; x &^= 3
	y := x &^ 1 | 2 & 3 ^ 4 << 5 >> 6
	ch <- v; v = <-ch; ok := a && b || !c
	x++; x--
	_ = a == b && a != b && a < b && a <= b && a > b && a >= b
	g(xs...)
	var _ [2]int = [...]int{1, 2}
	type T[P ~int | ~string] struct{ f func() }
	s := t.f; u := m[k]; _ = s[1:2:3]
}
