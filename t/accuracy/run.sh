#!/bin/sh
# make accuracy: how often token blame names the commit that wrote a token.
#
#  1. A generated history (generate.py) from large real C files of curl,
#     with functions written from redis files, by several authors, scored
#     against its truth (score.py).
#  2. A real history, lua's, token blame against git blame -w (real.py).
#
# The sources come from Git mirrors (bare repositories) under
# ACCURACY_MIRROR (default /work/.mirror: curl+curl/repo, redis+redis/repo,
# lua+lua/repo); a part whose mirror is missing is skipped, visibly.
# Settings (environment): ACCURACY_COMMITS (default 80), ACCURACY_SEED
# (default 1), ACCURACY_THRESHOLD (default 99.5), ACCURACY_KEEP=1 keeps the
# scratch directory.  Exits 1 when a measure misses its target.

set -u
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/../.." && pwd -P)
mirror=${ACCURACY_MIRROR:-/work/.mirror}
commits=${ACCURACY_COMMITS:-80}
seed=${ACCURACY_SEED:-1}
threshold=${ACCURACY_THRESHOLD:-99.5}
python=${PYTHON:-python3}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tokstream-accuracy.XXXXXX") || exit 2
if test "${ACCURACY_KEEP:-0}" = 1
then
	echo "scratch directory kept: $scratch"
else
	trap 'rm -rf "$scratch"' EXIT
	trap 'exit 2' INT TERM HUP
fi

generated=skipped
real=skipped

# show_file REPO PATH: a file of a bare mirror at its HEAD
show_file () {
	git --git-dir="$1" show "HEAD:$2"
}

# verdict RC SCRIPT: pass or FAIL as a measure's exit code says; a script
# that could not measure stops the run
verdict () {
	case $1 in
	0) echo pass ;;
	1) echo FAIL ;;
	*) echo "$2 failed (exit $1)" >&2; return 2 ;;
	esac
}

echo "== generated history =="
curl=$mirror/curl+curl/repo
redis=$mirror/redis+redis/repo
if test -d "$curl" && test -d "$redis"
then
	mkdir "$scratch/seeds" "$scratch/donors" &&
	for f in lib/http.c lib/ftp.c lib/multi.c
	do
		show_file "$curl" "$f" >"$scratch/seeds/${f##*/}" || exit 2
	done &&
	for f in src/t_zset.c src/networking.c
	do
		show_file "$redis" "$f" >"$scratch/donors/${f##*/}" || exit 2
	done &&
	echo "seeds (curl $(git --git-dir="$curl" rev-parse --short HEAD)): $(cd "$scratch/seeds" && wc -l * | tail -n 1 | awk '{print $1}') lines in $(ls "$scratch/seeds" | tr '\n' ' ')" &&
	echo "donors (redis $(git --git-dir="$redis" rev-parse --short HEAD)): $(ls "$scratch/donors" | tr '\n' ' ')" &&
	echo "generating $commits commits (seed $seed) ..." &&
	"$python" "$here/generate.py" --seeds "$scratch/seeds" \
		--donors "$scratch/donors" --out "$scratch/gen" \
		--truth "$scratch/gen.truth" --log "$scratch/gen.log" \
		--commits "$commits" --seed "$seed" || exit 2
	echo "edits: $(cut -d: -f2- "$scratch/gen.log" | tr ';' '\n' |
		awk 'NR > 1 {print $1}' | sort | uniq -c |
		awk '{printf "%s%s %d", sep, $2, $1; sep=", "}')"
	"$python" "$here/score.py" --threshold "$threshold" --per-file --worst 8 \
		"$scratch/gen" "$scratch/gen.truth"
	generated=$(verdict $? score.py) || exit 2
else
	echo "SKIPPED: no mirror of curl and redis under $mirror"
fi

echo
echo "== real history: lua =="
lua=$mirror/lua+lua/repo
if test -d "$lua"
then
	git clone -q --bare "$lua" "$scratch/lua.git" || exit 2
	"$python" "$here/real.py" --dest "$scratch/lua.tokens" "$scratch/lua.git"
	real=$(verdict $? real.py) || exit 2
else
	echo "SKIPPED: no mirror of lua at $lua"
fi

echo
echo "accuracy: generated history: $generated; real history (lua): $real"
test "$generated" != FAIL && test "$real" != FAIL
