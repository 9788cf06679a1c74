<?php
$a === $b; $a !== $b; $a <=> $b; $a ??= $b ?? $c; $o?->m();
$p **= 2 ** 3; f(...$args); A::b(); $o->c = ['k' => 1]; $s .= 'x';
$i = (int) $x + ( string )$y + (float)$z + (Foo) $w;
$n = 1_000 + 0x1F_FF + 0b1010 + 0o17 + 017 + 1.5e-3 + .5 + 1. + 1E3 + 1__0;
$a <<= 1; $a >>= 1; $a <> $b; $a && $b || !$c; $a++; --$b; @$e;
echo 1 ?>
trailing <b>html</b>
<?php echo 'unterminated
