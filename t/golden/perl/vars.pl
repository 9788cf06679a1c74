package Foo::Bar;
our @ISA = ('Exporter'); $::x = $Foo::Bar::y + $#array + $#{$ref} + $#$ref;
my %h = %$ref; my @a = @{$ref}; my $c = &$code(1) + &func; local *FH = *STDOUT;
print "${name} ${^WARNING_BITS} $_ $0 $1 $10 $& $/ $$ $$x $^W @_ @ARGV %ENV $@ $!";
$x = $y % 2; $m = $a & $b; $p = $a * $b ** 2; $p **= 2; $a ||= 1; $b &&= 2;
$c = $a <=> $b; $d = $a =~ /x/ && $b !~ /y/; @r = (1..10); f(...); $o->{k}->[0];
$n = 1_000 + 0x1F + 0b101 + 017 + 1.5e-3 + .5 + v5.36.0 + 1.2.3 + v1;
if (-e $file && -d "$dir" && -f _) { $z = $x - $y - -1 }
sub proto ($$;@) { } sub sig ($x, $y) { } my $f = sub ($) { 1 };
print <STDIN>, <$fh>, <>, <<>>; $z = $x < $y; $w = $a << 2;
$x = -1 + -foo - $y-1; print "-" x4, "=" x 2; $s x= 2; @l = $r->@*; $n = $r->$#*;
$path =~ s,/,::,g; my @f = qw,a b,; my @g = map { s,x,y,r } @f;
sub block {
}
%h = (); *alias = \&block;
my ($k, $v) = ($h{s}, $h{y});
