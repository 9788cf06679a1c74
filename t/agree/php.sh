#!/bin/sh
# Agreement of the PHP lexer (lexers/php.c) with PHP's own tokenizer.
#
# usage: sh t/agree/php.sh [DIR...]
#    (default: /usr/share/php and the PHP of the Google Cloud SDK's App
#    Engine under /usr/lib/google-cloud-sdk, where they exist)
#
# Needs php-cli (token_get_all); as root the script installs it with
# apt-get when it is missing.  More code to measure on: apt-get install
# php-pear php-twig php-league-commonmark php-phpseclib3 (into
# /usr/share/php).
#
# Every .php .phtml .inc file under DIR is tokenized twice:
#   - by `php -d short_open_tag=1 t/agree/php-tokens.php`, which runs
#     token_get_all() and adjusts its tokens to tokstream's documented
#     choices (see the top of that file: strings with interpolation and
#     heredocs reassembled into one token, inline HTML split into words,
#     whitespace dropped);
#   - by `tokenize -l php --exact-comments FILE`.
# The lists are aligned with GNU diff (t/agree/perl-php-compare.py);
# agreement = identical tokens / token_get_all's count.  Known, deliberate
# difference: "<?xml" is inline markup for tokstream, an open tag for PHP
# with short_open_tag on.  Exits 1 below 99.9%.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKENIZE=${TOKENIZE:-$root/tokenize/tokenize}
[ -x "$TOKENIZE" ] || { echo "php.sh: build first ($TOKENIZE missing)" >&2; exit 2; }
if ! command -v php >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "php.sh: installing php-cli" >&2
		apt-get install -y --no-install-recommends php-cli >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 &&
			  apt-get install -y --no-install-recommends php-cli >/dev/null 2>&1; } || true
	fi
	command -v php >/dev/null 2>&1 || { echo "php.sh: php-cli is needed (apt-get install php-cli)" >&2; exit 2; }
fi
if [ $# -eq 0 ]; then
	for d in /usr/share/php /usr/lib/google-cloud-sdk/platform/google_appengine; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	[ $# -gt 0 ] || { echo "php.sh: no PHP corpus found; name a DIR" >&2; exit 2; }
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agree-php.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "php $(php -r 'echo PHP_VERSION;')"
find "$@" -type f \( -name '*.php' -o -name '*.phtml' -o -name '*.inc' \) | LC_ALL=C sort >"$tmp/files"
php -d short_open_tag=1 -d memory_limit=-1 "$here/php-tokens.php" <"$tmp/files" >"$tmp/reference"
python3 "$here/perl-php-compare.py" "$TOKENIZE" php "$tmp/reference" 25 | tee "$tmp/report"
pct=$(sed -n 's/^agreement: *\([0-9.]*\)%$/\1/p' "$tmp/report")
awk -v p="$pct" 'BEGIN { exit !(p >= 99.9) }'
