#!/bin/sh
# Agreement of the JavaScript lexer with a production tokenizer.
#
# usage: sh t/agree/javascript.sh [DIR...]     (default: /usr/lib/node_modules)
#
# Every .js .mjs .cjs file under DIR (by default the JavaScript shipped with
# Node.js: npm's own sources and their dependencies, a large body of real
# code) is tokenized twice:
#   - by acorn's tokenizer, installed from the npm registry at run time into
#     a temporary directory outside the repository (`npm install acorn`,
#     removed on exit, never committed), called as
#     acorn.tokenizer(src, {ecmaVersion: "latest", sourceType: "module",
#     allowHashBang: true, locations: false}), or with sourceType "script"
#     when the module reading fails; each token is its source text
#     src.slice(tok.start, tok.end).  acorn gives a template literal as
#     several tokens (` template ${ code } template `): those are reassembled
#     into one span, from the opening backquote to the matching closing one,
#     because tokstream keeps a template literal as one token
#     (t/agree/javascript-acorn.js);
#   - by `tokenize/tokenize -l javascript --exact-comments FILE`, minus its
#     comment tokens (acorn gives none).
# The two token lists are aligned with Python's difflib, so one disagreement
# does not count the rest of the file as wrong (t/agree/javascript-compare.py).
# identical = tokens in matching blocks; agreement = identical / acorn's
# token count.  Files acorn cannot tokenize in either mode are skipped and
# counted.  Prints files, tokens, identical, agreement % and the most common
# mismatches.  Exits 1 when the agreement is below 99.9%.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKENIZE=${TOKENIZE:-$root/tokenize/tokenize}
[ -x "$TOKENIZE" ] || { echo "javascript.sh: build first ($TOKENIZE missing)" >&2; exit 2; }
[ $# -gt 0 ] || set -- /usr/lib/node_modules

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agree-js.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$tmp" && npm install --silent --no-audit --no-fund acorn >/dev/null 2>&1) || {
	echo "javascript.sh: npm install acorn failed (no registry?)" >&2
	exit 2
}
echo "acorn $(node -p "require('$tmp/node_modules/acorn/package.json').version")"

find "$@" -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) | LC_ALL=C sort >"$tmp/files"
node "$here/javascript-acorn.js" "$tmp" <"$tmp/files" >"$tmp/acorn.jsonl"
python3 "$here/javascript-compare.py" "$TOKENIZE" 25 <"$tmp/acorn.jsonl" | tee "$tmp/report"
pct=$(sed -n 's/^agreement: *\([0-9.]*\)%$/\1/p' "$tmp/report")
awk -v p="$pct" 'BEGIN { exit !(p >= 99.9) }'
