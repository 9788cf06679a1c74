#!/usr/bin/perl
use strict; # comment
my $s = 'it\'s' . "say \"hi\" $x @{[ 1 ]}" . `ls -l`;
my @w = qw(a b c); my $q = q{a{b}c}; my $qq = qq[x [y] z];
my $r = qr/ab+c/ix; $s =~ m{^\s+}g; $s =~ s/foo/bar/gr;
$s =~ s{a}{b}e; $s =~ s{a} {b}x; $s =~ s(a)/b/; tr/a-z/A-Z/; $s =~ y!a!b!;
my %h = (s => 1, y => 2, q => 3, qw => 4); print $h{s}, $h{ y }, $o->s(1), $o->q;
sub q { 1 } my $t = m#hash#;
if (/regex/ and split /,/, $x) { $y = $a / $b / 2; $z = $h{x} / 3; }
my $div = length($s) / 2; grep { /x/ } @list; $x //= 5; $y = $x // 0;
print STDERR q<angle <nested>>, qx'cmd';
