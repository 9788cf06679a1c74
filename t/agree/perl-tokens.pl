#!/usr/bin/perl
# Helper of t/agree/perl.sh: PPI::Tokenizer's tokens turned into the token
# list tokstream's Perl lexer should give.  Reads file names (one a line)
# on stdin; for each writes "\x01FILE name" and then one token a line, LF
# and CR inside a token written as \n and \r as the view writes them.  The
# adjustments, each one a documented choice of lexers/perl.c:
#   - whitespace tokens are dropped, and the whitespace PPI keeps around a
#     comment (the indentation of a comment on its own line, the newline
#     after it) or at the end of a POD block is trimmed;
#   - a here-document's body, which PPI keeps inside the HereDoc token, is
#     a token of its own, taken from the source: from the line after the
#     operator's through the terminator, without the whitespace it starts
#     with, placed where the newline ending the operator's line is;
#   - a label "FOO:" is the word FOO and ":";
#   - "__END__" or "__DATA__" and everything after it is one token, trimmed.
use strict;
use warnings;
use PPI::Tokenizer;

sub esc { my $t = shift; $t =~ s/\n/\\n/g; $t =~ s/\r/\\r/g; return $t }
sub trim { my $t = shift; $t =~ s/\s+\z//; return $t }
sub trim2 { my $t = shift; $t =~ s/\r?\n\z//; $t =~ s/\A\s+//; return $t }

binmode STDOUT;
while (my $path = <STDIN>) {
	chomp $path;
	open my $fh, '<:raw', $path or next;
	my $src = do { local $/; <$fh> };
	close $fh;
	my $tok = PPI::Tokenizer->new(\$src) or next;
	my $all = eval { $tok->all_tokens } or next;
	print "\x01FILE $path\n";
	my $off = 0;          # where the next token's content is in $src
	my @pending;          # HereDoc tokens waiting for the end of their line
	my $rest;             # after __END__ / __DATA__
	for my $t (@$all) {
		my $c = $t->content;
		if (defined $rest) {
			$rest .= $c;
			next;
		}
		if (@pending && ($t->isa('PPI::Token::Whitespace') || $t->isa('PPI::Token::Comment'))
		    && (my $i = index($c, "\n")) >= 0) {
			# the bodies lie between this token's first newline and its rest
			my $b = $off + $i + 1;
			print esc(trim2($c)), "\n" if $t->isa('PPI::Token::Comment') && trim2($c) ne '';
			for my $h (@pending) {
				my $term = $h->terminator;
				my $ind = $h->{_indented};
				my $start = $b;
				my $end = length $src;
				while ($b < length $src) {
					my $nl = index($src, "\n", $b);
					my $line = substr($src, $b, ($nl < 0 ? length($src) : $nl) - $b);
					$line =~ s/\r\z//;
					my $test = $line;
					$test =~ s/^[ \t]+// if $ind;
					if ($test eq $term) {
						$end = $b + length $line;
						$b = $nl < 0 ? length $src : $nl + 1;
						last;
					}
					$b = $nl < 0 ? length $src : $nl + 1;
				}
				my $body = substr($src, $start, $end - $start);
				$body =~ s/\A\s+//;
				print esc($body), "\n" if $body ne '';
			}
			@pending = ();
			# $b is past the terminator's newline; the rest of $c follows it
			$off = $b + length($c) - $i - 1;
			next;
		}
		$off += length $c;
		next if $t->isa('PPI::Token::Whitespace');
		if ($t->isa('PPI::Token::HereDoc')) {
			push @pending, $t;
			print esc($c), "\n";
		} elsif ($t->isa('PPI::Token::Separator')) {
			$rest = $c;
		} elsif ($t->isa('PPI::Token::Label') && $c =~ /\A(.*?)(\s*):\z/s) {
			print esc($1), "\n:\n";
		} elsif ($t->isa('PPI::Token::Comment')) {
			print esc(trim2($c)), "\n";
		} elsif ($t->isa('PPI::Token::Pod')) {
			print esc(trim($c)), "\n";
		} else {
			print esc($c), "\n";
		}
	}
	print esc(trim($rest)), "\n" if defined $rest;
}
