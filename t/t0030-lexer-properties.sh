#!/bin/sh

test_description='properties every lexer must have

For every language tokenize --list names, over every file under t/golden
and over random inputs: tokenize exits 0, no view line is empty, and
every byte of the input that is not whitespace is in the view, once and
in order: walking the --exact-comments --positions view, each token
starts at its LINE:COL, its text is the input bytes from there (LF and CR
written as \n and \r), tokens do not overlap, and what lies between them
is whitespace or a line continuation (a backslash, maybe blanks, and
a newline: LF, CR LF or a lone CR, as clang takes it); whitespace is the
ASCII blanks, and for the languages that take them the Unicode spaces
their lexers name (lexers/README.md), but for no other language.  Then a coarse
guard against quadratic lexing: inputs of N and 4N bytes of a
pathological pattern must not take more than 8 times as long (and more
than a second).

The random inputs come from a fixed seed (TEST_SEED to change it; the
seed is printed), so a failure can be reproduced.'

. ./test-lib.sh

seed=${TEST_SEED:-5489}
say "# random inputs from seed $seed (set TEST_SEED to change it)"

# Built with the sanitizers (make SANITIZE=1 test), every run of tokenize
# costs several times as much to start and to lex, and this script's
# 33,000 runs would take most of an hour: there every lexer sees the
# golden files of its own language, the fuzz findings and the first 40
# random inputs, and the timing guard is skipped (it would time the
# sanitizer).  The plain build runs all of it.
if test -n "$TOKSTREAM_SANITIZE"
then
	say "# sanitizer build: each lexer gets its own golden files, the fuzz findings and 40 random inputs; the timing guard is skipped (make test runs them all)"
else
	test_set_prereq PLAIN_BUILD
fi

# gen-random.pl SEED COUNT DIR: COUNT files of random lengths 0..4000, the
# odd ones of random bytes, the even ones of random pieces of syntax.
cat >gen-random.pl <<\EOF
use strict;
use warnings;
my ($seed, $count, $dir) = @ARGV;
srand($seed);
my @pieces = ('/*', '*/', '//', '"', "'", '`', '\\', "\n", "\r\n", "\r",
	' ', "\t", "\f", 'R"(', ')"', 'R"x(', ')x"', 'u8"', "L'", 'x', 'abc',
	'1', '0x1F', '1e+5', '.', '..', '...', '#', '##', '<', '>', '<<',
	'<<=', '$', '${', '$(', '{', '}', '(', ')', '[', ']', '[[', ']]', '"""',
	"'''", '<!--', '-->', '<?php', '?>', '<?', '@', '%', '%>', '=', '==',
	'=>', ':', '::', ';', ',', '-', '--', '+', '*', '!', '?', '&', '|',
	'^', '~', "\0", "\xc3\xa9", "\xe2\x98\x83", "\xff", "\x80", 'EOF',
	"<<EOF\n", "<<-'EOF'\n", "\nEOF\n", 'if', 'end', 'r"', 'f"', 'b\'',
	'q{', 'qq(', 's/', '/x', 'm/', '=begin', '=end', '=pod', '=cut',
	'\\n', '\\"', "\\'", "\\\n", "\\\r\n", '--[[', '--[==[', ']==]', '%{',
	'@"', '$"', '"""\n', '{{', '}}', 'dnl ', '`x`', '#!', '#!/bin/sh',
	'/**/', '-->', '<![CDATA[', ']]>', '<script>', '</script>', '<style>',
	"\x0b", '0b', '0o', '1_000', "1'000", '.5', '5.', '1.5e-3f', 'ull',
	'#{', '%w[', '%r{', '%q(', '?"', ':"', ':sym', 'key:', '<<~EOS', "\nEOS\n", 'def', '__END__',
	"\xc2\xa0", "\xc2\x85", "\xc2\xaa", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\x8e",
	"\xe2\x80\x80", "\xe2\x82\xac", "\xe3\x80\x80", "\xef\xbb\xbf", "\xef\xbc\xa1");
for my $i (1 .. $count) {
	my $len = int(rand(4001));
	my $s = '';
	if ($i % 2) {
		$s .= chr(int(rand(256))) while length($s) < $len;
	} else {
		$s .= $pieces[int(rand(@pieces))] while length($s) < $len;
		$s = substr($s, 0, $len);
	}
	my $f = sprintf("%s/random-%03d", $dir, $i);
	open(my $fh, '>:raw', $f) or die "$f: $!";
	print $fh $s;
	close($fh) or die "$f: $!";
}
EOF

# check-views.pl [--folded] TOKENIZE LANG FILE...: the properties of the
# views of FILE... lexed as LANG; prints what is wrong and exits 1 if
# anything is.  With --folded, the view with folded comments is checked
# too (it must have as many tokens, none of them empty).
cat >check-views.pl <<\EOF
use strict;
use warnings;
my $with_folded = @ARGV && $ARGV[0] eq '--folded' ? shift(@ARGV) : 0;
my ($tokenize, $lang, @args) = @ARGV;
my $problems = 0;
my @files;

# An argument @LIST stands for the file names in LIST, one a line.
for my $a (@args) {
	if ($a =~ /\A@(.*)\z/s) {
		open(my $fh, '<', $1) or die "$1: $!";
		chomp(my @names = <$fh>);
		push(@files, @names);
	} else {
		push(@files, $a);
	}
}

sub esc {
	my ($s) = @_;
	$s = substr($s, 0, 60) . '...' if length($s) > 60;
	$s =~ s/([^\x20-\x7e])/sprintf('\\x%02x', ord($1))/ge;
	return $s;
}

sub problem {
	my ($file, $what) = @_;
	print "$lang: $file: $what\n" if $problems < 30;
	$problems++;
}

sub view_of {
	my ($file, @opts) = @_;
	my $pid = open(my $fh, '-|');
	die "fork: $!" unless defined $pid;
	if (!$pid) {
		exec($tokenize, @opts, '-l', $lang, $file) or die "exec $tokenize: $!";
	}
	binmode($fh);
	local $/;
	my $out = <$fh>;
	$out = '' unless defined $out;
	close($fh);
	my $st = $?;
	if ($st) {
		problem($file, sprintf("tokenize %s exited with status %d (signal %d)",
			join(' ', @opts, '-l', $lang), $st >> 8, $st & 127));
		return undef;
	}
	if ($out ne '' && substr($out, -1) ne "\n") {
		problem($file, "the view (@opts) does not end with a newline");
	}
	my @lines = split(/\n/, $out, -1);
	pop(@lines);
	for my $i (0 .. $#lines) {
		if ($lines[$i] eq '') {
			problem($file, "line " . ($i + 1) . " of the view (@opts) is empty");
			last;
		}
	}
	return $out;
}

# The Unicode white space each language takes (lexers/README.md), in UTF-8.
my $zs = qr/\xc2\xa0|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xaf]|\xe2\x81\x9f|\xe3\x80\x80/;
my $lsps = qr/\xe2\x80[\xa8\xa9]/;
my %uspace = (
	javascript => qr/$zs|$lsps|\xef\xbb\xbf/,
	typescript => qr/$zs|$lsps|\xef\xbb\xbf/,
	csharp => qr/$zs|$lsps|\xef\xbb\xbf|\xc2\x85/,
	rust => qr/$lsps|\xc2\x85|\xe2\x80[\x8e\x8f]/,
);
my $uspace = $uspace{$lang} || qr/(?!)/;

sub only_blanks {
	my ($gap) = @_;
	$gap =~ s/\\[ \t\x0b\f]*(?:\r\n?|\n)//g;
	$gap =~ s/$uspace//g;
	return $gap !~ /[^ \t\n\x0b\f\r]/;
}

for my $file (@files) {
	open(my $in, '<:raw', $file) or die "$file: $!";
	local $/;
	my $src = <$in>;
	$src = '' unless defined $src;
	close($in);

	my $pos = view_of($file, '--exact-comments', '--positions');
	my $exact = view_of($file, '--exact-comments');
	my $folded = $with_folded ? view_of($file) : $exact;
	next unless defined $pos && defined $exact && defined $folded;

	(my $stripped = $pos) =~ s/^\d+:\d+\t//mg;
	problem($file, "the --positions view is not the view with positions")
		unless $stripped eq $exact;
	problem($file, "folding comments changed the number of tokens")
		unless ($exact =~ tr/\n//) == ($folded =~ tr/\n//);

	my @line_start = (0);
	push(@line_start, pos($src)) while $src =~ /\n/g;
	my ($cur, $n, $count, $broken) = (0, length($src), 0, 0);
	for my $line (split(/\n/, $pos)) {
		$count++;
		$broken = 1;
		my ($l, $c, $text) = $line =~ /\A(\d+):(\d+)\t(.*)\z/s;
		if (!defined $text) {
			problem($file, "token $count: no LINE:COL in " . esc($line));
			last;
		}
		if ($l < 1 || $l > @line_start || $c < 1) {
			problem($file, "token $count: position $l:$c is outside the input");
			last;
		}
		my $at = $line_start[$l - 1] + $c - 1;
		if ($at < $cur) {
			problem($file, "token $count at $l:$c starts inside the token before it");
			last;
		}
		my $gap = substr($src, $cur, $at - $cur);
		if (!only_blanks($gap)) {
			problem($file, "token $count at $l:$c: bytes before it are in no token: " . esc($gap));
			last;
		}
		if ($text eq '') {
			problem($file, "token $count at $l:$c is empty");
			last;
		}
		if ($text =~ /\A(?:[ \t\x0b\f]|$uspace)/ ||
		    $text =~ /\A\\[nr]/ && substr($src, $at, 1) ne '\\') {
			problem($file, "token $count at $l:$c starts with whitespace: " . esc($text));
			last;
		}
		my ($i, $k, $tl) = (0, $at, length($text));
		while ($i < $tl) {
			my $b = $k < $n ? substr($src, $k, 1) : undef;
			my $e = !defined $b ? undef : $b eq "\n" ? '\n' : $b eq "\r" ? '\r' : $b;
			if (!defined $e || substr($text, $i, length($e)) ne $e) {
				problem($file, "token $count at $l:$c is " . esc($text) .
					" but the input there is " . esc(substr($src, $at, $tl)));
				last;
			}
			$i += length($e);
			$k++;
		}
		last if $i < $tl;
		$cur = $k;
		$broken = 0;
	}
	problem($file, "bytes after the last token are in no token: " . esc(substr($src, $cur)))
		if !$broken && !only_blanks(substr($src, $cur));
}
print "$lang: ... and ", $problems - 30, " more problems\n" if $problems > 30;
print "$lang: ", scalar(@files), " files checked\n";
exit($problems ? 1 : 0);
EOF

# linear-time.pl TOKENIZE LANG SMALL BIG...: times tokenize on each pair
# of files (BIG four times as long as SMALL), the best of two runs (of
# five when it looks bad).  Linear lexing takes at most about 4 times as
# long on BIG; quadratic, 16 times, and seconds to minutes.  It fails when
# BIG takes over 8 times as long as SMALL and over 1 s (the floor keeps
# the noise of a loaded machine out), or a run takes over 60 s.
cat >linear-time.pl <<\EOF
use strict;
use warnings;
use Time::HiRes qw(time);
my ($tokenize, $lang, @pairs) = @ARGV;
my $bad = 0;

# The best wall-clock time of $runs runs (undef and the status if one fails).
sub timed {
	my ($file, $runs, $best) = @_;
	for (1 .. $runs) {
		my $t0 = time();
		my $pid = fork();
		die "fork: $!" unless defined $pid;
		if (!$pid) {
			open(STDOUT, '>', '/dev/null') or die;
			alarm(60);
			exec($tokenize, '-l', $lang, $file) or die "exec: $!";
		}
		waitpid($pid, 0);
		my $st = $?;
		my $t = time() - $t0;
		return (undef, $st) if $st;
		$best = $t if !defined $best || $t < $best;
	}
	return ($best, 0);
}

sub ratio {
	my ($ts, $tb) = @_;
	return $tb / ($ts > 0.001 ? $ts : 0.001);
}

sub looks_bad {
	my ($ts, $tb) = @_;
	return ratio($ts, $tb) > 8 && $tb > 1.0;
}

while (@pairs) {
	my ($small, $big) = splice(@pairs, 0, 2);
	my ($ts, $st) = timed($small, 2);
	my $tb;
	($tb, $st) = timed($big, 2) unless $st;
	if (!$st && looks_bad($ts, $tb)) {
		($ts, $st) = timed($small, 3, $ts);
		($tb, $st) = timed($big, 3, $tb) unless $st;
	}
	if ($st) {
		printf("%s: %s or %s: tokenize failed (status %d, signal %d%s)\n",
			$lang, $small, $big, $st >> 8, $st & 127,
			($st & 127) == 14 ? ': over 60 s' : '');
		$bad++;
		next;
	}
	my $verdict = looks_bad($ts, $tb) ? 'NOT LINEAR' : 'ok';
	printf("%s: %s %.4f s, %s %.4f s, ratio %.1f: %s\n", $lang, $small, $ts,
		$big, $tb, ratio($ts, $tb), $verdict);
	$bad++ if $verdict ne 'ok';
}
exit($bad ? 1 : 0);
EOF

# The pathological inputs: each pattern repeated to 512 KiB and to 2 MiB.
cat >patterns.pl <<\EOF
use strict;
use warnings;
my %patterns = (
	'comment-open' => '/*', 'dquote' => '"', 'squote' => "'",
	'raw-open' => 'R"(', 'splice' => "\\\n", 'backslash' => '\\',
	'triple-quote' => '"""', 'backquote' => '`', 'html-comment' => '<!--',
	'brackets' => '[[', 'subst' => '$(', 'heredoc' => "<<A\n",
	'lt' => '<', 'brace' => '{', 'hash' => '#', 'slash' => '/',
	'line-comment' => "//\n", 'dollar-brace' => '${',
	'nbsp' => "a\xc2\xa0", 'lead-bytes' => "\xe2\x80", 'nbsp-comment' => "//\xc2\xa0",
	# a guess that fails (Ruby's "puts /re/" and "foo %w(x)" that do
	# not close) and interpolations that nest without end
	'guess-slash' => 'a /b ', 'guess-percent' => 'x %w(', 'interpolation' => '"#{"#{',
);
for my $name (sort keys %patterns) {
	for my $size ([small => 512 * 1024], [big => 2048 * 1024]) {
		my $p = $patterns{$name};
		my $s = $p x int($size->[1] / length($p) + 1);
		open(my $fh, '>:raw', "patterns/$name.$size->[0]") or die;
		print $fh substr($s, 0, $size->[1]);
		close($fh) or die;
	}
	print "$name\n";
}
EOF

test_expect_success 'setup: the inputs' '
	mkdir random patterns &&
	perl gen-random.pl "$seed" 200 random &&
	ls random >list &&
	test_line_count = 200 list &&
	perl patterns.pl >pattern-names &&
	test_line_count -gt 4 pattern-names &&
	find "$TEST_DIRECTORY/golden" -type f | sort >golden-files &&
	test_line_count -gt 10 golden-files &&
	"$TOKENIZE" --list | cut -f1 >languages &&
	grep -x c languages &&
	mkdir findings &&
	for f in "$TEST_DIRECTORY"/fuzz/regressions/lexers-*
	do
		# the first byte chose the harness'"'"'s language: every lexer gets the rest
		tail -c +2 "$f" >"findings/${f##*/}" || return 1
	done &&
	ls findings >list &&
	test_line_count -gt 1 list
'

test_expect_success 'the random inputs are the same for the same seed' '
	mkdir again &&
	perl gen-random.pl "$seed" 200 again &&
	cat random/* >one &&
	cat again/* >two &&
	cmp one two &&
	mkdir other &&
	perl gen-random.pl $(($seed + 1)) 200 other &&
	cat other/* >three &&
	! cmp -s one three
'

test_expect_success 'the view checker finds a dropped byte, a changed byte and a wrong position' '
	mkdir fake &&
	write_script fake/tokenize <<-\EOF &&
	# Stands in for tokenize: the view FAKE_VIEW names, whatever the file.
	case "$*" in
	*--positions*) cat "$FAKE_VIEW.positions" ;;
	*--exact-comments*) cat "$FAKE_VIEW" ;;
	*) cat "$FAKE_VIEW.folded" 2>/dev/null || cat "$FAKE_VIEW" ;;
	esac
	EOF
	printf "ab cd\nef\n" >in &&
	test_write_lines ab cd ef >good &&
	printf "1:1\tab\n1:4\tcd\n2:1\tef\n" >good.positions &&
	FAKE_VIEW=good perl check-views.pl fake/tokenize c in &&
	test_write_lines ab ef >dropped &&
	printf "1:1\tab\n2:1\tef\n" >dropped.positions &&
	test_must_fail env FAKE_VIEW=dropped perl check-views.pl fake/tokenize c in >out &&
	grep "bytes before it are in no token:  cd" out &&
	test_write_lines ab cX ef >changed &&
	printf "1:1\tab\n1:4\tcX\n2:1\tef\n" >changed.positions &&
	test_must_fail env FAKE_VIEW=changed perl check-views.pl fake/tokenize c in >out &&
	grep "token 2 at 1:4 is cX" out &&
	printf "1:1\tab\n1:3\tcd\n2:1\tef\n" >moved.positions &&
	cp good moved &&
	test_must_fail env FAKE_VIEW=moved perl check-views.pl fake/tokenize c in >out &&
	grep "token 2 at 1:3" out &&
	test_write_lines ab "" ef >empty &&
	printf "1:1\tab\n1:4\t\n2:1\tef\n" >empty.positions &&
	test_must_fail env FAKE_VIEW=empty perl check-views.pl fake/tokenize c in >out &&
	grep "is empty" out &&
	test_write_lines ab " cd" ef >blank &&
	printf "1:1\tab\n1:3\t cd\n2:1\tef\n" >blank.positions &&
	test_must_fail env FAKE_VIEW=blank perl check-views.pl fake/tokenize c in >out &&
	grep "token 2 at 1:3 starts with whitespace" out &&
	cp good more &&
	cp good.positions more.positions &&
	test_write_lines ab cd ef extra >more.folded &&
	FAKE_VIEW=more perl check-views.pl fake/tokenize c in &&
	test_must_fail env FAKE_VIEW=more perl check-views.pl --folded fake/tokenize c in >out &&
	grep "folding comments changed the number of tokens" out &&
	cp good unpositioned &&
	printf "1:1\tab\n2:1\tef\n" >unpositioned.positions &&
	test_must_fail env FAKE_VIEW=unpositioned perl check-views.pl fake/tokenize c in >out &&
	grep "the --positions view is not the view with positions" out &&
	printf "ab cd" >short &&
	test_must_fail env FAKE_VIEW=good perl check-views.pl fake/tokenize c short >out &&
	grep "token 3: position 2:1 is outside the input" out
'

test_expect_success 'the view checker takes Unicode white space only in the languages that have it' '
	printf "a\302\240b\n" >nbsp &&
	test_write_lines a b >nbsp-split &&
	printf "1:1\ta\n1:4\tb\n" >nbsp-split.positions &&
	FAKE_VIEW=nbsp-split perl check-views.pl fake/tokenize javascript nbsp &&
	test_must_fail env FAKE_VIEW=nbsp-split perl check-views.pl fake/tokenize c nbsp >out &&
	grep "bytes before it are in no token: \\\\xc2\\\\xa0" out &&
	printf "1:1\ta\n1:2\t\302\240b\n" >nbsp-glued.positions &&
	printf "a\n\302\240b\n" >nbsp-glued &&
	test_must_fail env FAKE_VIEW=nbsp-glued perl check-views.pl fake/tokenize javascript nbsp >out &&
	grep "starts with whitespace" out
'

# The fake "quadratic" lexer grows as the fourth power, so that a loaded
# machine adding a fraction of a second to every run cannot hide it.
test_expect_success 'the timing check tells a quadratic lexer from a linear one' '
	mkdir timing &&
	write_script timing/quadratic <<-\EOF &&
	for f; do :; done
	sleep $(wc -c <"$f" | awk "{ x = \$1 / 524288; print 0.02 * x * x * x * x }")
	EOF
	write_script timing/linear <<-\EOF &&
	for f; do :; done
	sleep $(wc -c <"$f" | awk "{ print 0.1 * \$1 / 524288 }")
	EOF
	perl linear-time.pl timing/linear c patterns/brace.small patterns/brace.big >out &&
	grep "ratio [1-5]\.[0-9]: ok" out &&
	test_must_fail perl linear-time.pl timing/quadratic c patterns/brace.small patterns/brace.big >out &&
	grep "NOT LINEAR" out
'

for lang in $("$TOKENIZE" --list | cut -f1)
do
	test_expect_success PLAIN_BUILD "$lang: every byte of the golden files, of random inputs and of the fuzz findings is in the view, in order" '
		perl check-views.pl --folded "$TOKENIZE" "$lang" @golden-files &&
		perl check-views.pl "$TOKENIZE" "$lang" random/* findings/*
	'
	test_expect_success !PLAIN_BUILD "$lang: every byte of its golden files, of 40 random inputs and of the fuzz findings is in the view, in order" '
		awk -v dir="$TEST_DIRECTORY/golden/$lang/" "index(\$0, dir) == 1" golden-files >own-golden &&
		perl check-views.pl --folded "$TOKENIZE" "$lang" @own-golden &&
		perl check-views.pl "$TOKENIZE" "$lang" random/random-0[0-3]? random/random-040 findings/*
	'
done

for lang in $("$TOKENIZE" --list | cut -f1)
do
	test_expect_success PLAIN_BUILD "$lang: linear time on pathological inputs" '
		pairs= &&
		for name in $(cat pattern-names)
		do
			pairs="$pairs patterns/$name.small patterns/$name.big"
		done &&
		perl linear-time.pl "$TOKENIZE" "$lang" $pairs
	'
done

test_done
