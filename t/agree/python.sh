#!/bin/sh
# Agreement of the Python lexer with Python's own tokenize module.
#
# usage: [PYTHON=python3.12] sh t/agree/python.sh [DIR...]
#        (from the repository root, after make)
#
# By default the corpus is the standard library of $PYTHON (python3 on
# PATH unless set: $PYTHON -c 'import sysconfig;
# print(sysconfig.get_paths()["stdlib"])'), site-packages excepted; each
# DIR given is a corpus of its own.  Every .py file is tokenized twice
# (t/agree/python-compare.py does the work):
#   - by tokenize.tokenize() of $PYTHON, skipping NEWLINE, NL, INDENT,
#     DEDENT, COMMENT, ENCODING and ENDMARKER (Python 3.11's tokenize gives
#     an f-string as one STRING token, as tokstream does; from 3.12 on it
#     splits f-strings, and the harness joins the pieces back into one
#     token, so a 3.12 or later $PYTHON checks the PEP 701 rules too);
#   - by `tokenize/tokenize -l python --exact-comments FILE`, minus its
#     comment tokens.
# The two lists are aligned with difflib, so one disagreement does not count
# the rest of the file as wrong: identical = Python's tokens in matching
# blocks, agreement = identical / Python's token count.  Files Python itself
# cannot tokenize are skipped and counted.  Prints, per corpus, files,
# tokens, identical, agreement % and the most common mismatches.  Takes
# about 40 s for the 3.11 standard library on 2 cores.  Exits 1 when the
# agreement is below 99.9%, 2 when it cannot run.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKENIZE=${TOKENIZE:-$root/tokenize/tokenize}
[ -x "$TOKENIZE" ] || { echo "python.sh: build first ($TOKENIZE missing)" >&2; exit 2; }
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null || { echo "python.sh: no $PYTHON" >&2; exit 2; }
[ $# -gt 0 ] || set -- "$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
echo "python $("$PYTHON" -c 'import platform; print(platform.python_version())')"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agree-py.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# a private copy, so that a rebuild during the run cannot pull it away
cp "$TOKENIZE" "$tmp/tokenize"
TOKENIZE=$tmp/tokenize
"$PYTHON" "$here/python-compare.py" "$TOKENIZE" 20 "$@" | tee "$tmp/report"
pct=$(sed -n 's/^agreement: *\([0-9.]*\)%$/\1/p' "$tmp/report")
awk -v p="$pct" 'BEGIN { exit !(p >= 99.9) }'
