#!/bin/sh
# Agreement of the Perl lexer (lexers/perl.c) with PPI, the Perl
# tokenizer that Perl::Critic and Perl::Tidy's friends are built on.
#
# usage: sh t/agree/perl.sh [DIR...]     (default: /usr/share/perl/5.36,
#                                         Perl's own library)
#
# Needs PPI (Debian's libppi-perl); as root the script installs it with
# apt-get when it is missing.  Every .pm .pl .t file under DIR is tokenized
# twice:
#   - by PPI::Tokenizer (t/agree/perl-tokens.pl), its tokens adjusted to
#     tokstream's documented choices (see the top of that file: whitespace
#     dropped, here-document bodies as tokens of their own, labels split,
#     __END__ and the rest as one token);
#   - by `tokenize -l perl --exact-comments FILE`.
# The lists are aligned with GNU diff (t/agree/perl-php-compare.py);
# agreement = identical tokens / PPI's count.  PPI is itself a heuristic
# tokenizer (Perl cannot be lexed without running it), so some of the
# differences are PPI's mistakes; the script exits 1 below 99%.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKENIZE=${TOKENIZE:-$root/tokenize/tokenize}
[ -x "$TOKENIZE" ] || { echo "perl.sh: build first ($TOKENIZE missing)" >&2; exit 2; }
if ! perl -MPPI -e 1 2>/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "perl.sh: installing libppi-perl" >&2
		apt-get install -y --no-install-recommends libppi-perl >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  apt-get install -y --no-install-recommends libppi-perl >/dev/null 2>&1; } || true
	fi
	perl -MPPI -e 1 2>/dev/null || { echo "perl.sh: PPI is needed (apt-get install libppi-perl)" >&2; exit 2; }
fi
[ $# -gt 0 ] || set -- /usr/share/perl/5.36

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agree-perl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "PPI $(perl -MPPI -e 'print $PPI::VERSION')"
find -L "$@" -type f \( -name '*.pm' -o -name '*.pl' -o -name '*.t' \) | LC_ALL=C sort >"$tmp/files"
perl "$here/perl-tokens.pl" <"$tmp/files" >"$tmp/reference"
python3 "$here/perl-php-compare.py" "$TOKENIZE" perl "$tmp/reference" 40 | tee "$tmp/report"
pct=$(sed -n 's/^agreement: *\([0-9.]*\)%$/\1/p' "$tmp/report")
awk -v p="$pct" 'BEGIN { exit !(p >= 99) }'
