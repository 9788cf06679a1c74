#!/bin/sh
# Agreement of the Java lexer with javac's own scanner.
#
# usage: sh t/agree/java.sh [MODULE...]   (from the repository root, after make)
#
# The corpus is the JDK's own sources, lib/src.zip, of the first JDK that
# has both bin/javac and a lib/src.zip: $JAVA_HOME, then the JDK of the
# javac on PATH, then /usr/lib/jvm/* (Debian's openjdk-17 ships src.zip only
# with openjdk-17-source; where that is missing another JDK's is used, and
# its own javac scans its own sources).  The MODULEs given (e.g. java.base),
# or by default every module, are unzipped into a temporary directory
# (removed on exit).  Every .java file is tokenized twice:
#   - by javac's scanner (com.sun.tools.javac.parser.ScannerFactory, the
#     JavaTokenizer behind JavacParser), through t/agree/JavaTokens.java,
#     compiled at run time into the temporary directory with
#     --add-exports jdk.compiler/com.sun.tools.javac.{parser,util,file};
#     each token is its exact source text, from its start to its end
#     position (javac has no comment tokens);
#   - by `tokenize/tokenize -l java --exact-comments FILE`, minus its
#     comment tokens.
# The two lists are aligned with difflib (t/agree/java-compare.py), so one
# disagreement does not count the rest of the file as wrong: identical =
# javac's tokens in matching blocks, agreement = identical / javac's token
# count.  Files javac reports errors in are skipped and counted.  Prints
# files, tokens, identical, agreement % and the most common mismatches.
# Takes about a minute for all of JDK 25's 15,000 files on 2 cores.  Exits 1
# when the agreement is below 99.9%, 2 when it cannot run.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKENIZE=${TOKENIZE:-$root/tokenize/tokenize}
[ -x "$TOKENIZE" ] || { echo "java.sh: build first ($TOKENIZE missing)" >&2; exit 2; }

jdk=
path_jdk=
if command -v javac >/dev/null; then
	path_jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
fi
for d in ${JAVA_HOME:-} $path_jdk /usr/lib/jvm/*; do
	if [ -x "$d/bin/javac" ] && [ -x "$d/bin/java" ] && [ -f "$d/lib/src.zip" ]; then
		jdk=$d
		break
	fi
done
[ -n "$jdk" ] || { echo "java.sh: no JDK with bin/javac and lib/src.zip" >&2; exit 2; }
command -v unzip >/dev/null || { echo "java.sh: no unzip" >&2; exit 2; }
echo "jdk $jdk ($("$jdk/bin/javac" -version 2>&1))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/agree-java.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# a private copy, so that a rebuild during the run cannot pull it away
cp "$TOKENIZE" "$tmp/tokenize"
TOKENIZE=$tmp/tokenize
exports="--add-exports jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
	--add-exports jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
	--add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED"
mkdir "$tmp/classes" "$tmp/src"
# shellcheck disable=SC2086
"$jdk/bin/javac" $exports -d "$tmp/classes" "$here/JavaTokens.java"
if [ $# -gt 0 ]; then
	for m in "$@"; do
		unzip -q -o "$jdk/lib/src.zip" "$m/*" -d "$tmp/src"
	done
	corpus="$jdk/lib/src.zip: $*"
else
	unzip -q -o "$jdk/lib/src.zip" -d "$tmp/src"
	corpus="$jdk/lib/src.zip: every module"
fi
find "$tmp/src" -type f -name '*.java' | LC_ALL=C sort >"$tmp/files"
# shellcheck disable=SC2086
"$jdk/bin/java" $exports -cp "$tmp/classes" JavaTokens <"$tmp/files" >"$tmp/tokens"
python3 "$here/java-compare.py" "$TOKENIZE" 20 "$corpus" <"$tmp/tokens" | tee "$tmp/report"
pct=$(sed -n 's/^agreement: *\([0-9.]*\)%$/\1/p' "$tmp/report")
awk -v p="$pct" 'BEGIN { exit !(p >= 99.9) }'
