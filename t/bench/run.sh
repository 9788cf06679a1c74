#!/bin/bash
# make bench: the speed measures of tokstream, each against its pair, in one run.
#
#   make bench [BENCH_RUNS=N] [CORPUS="kernel /path/to/repo.git ..."]
#   bash t/bench/run.sh             (from anywhere, after make)
#
# Every measure is a pair of commands run on the same input: the pairs are
# interleaved (run 1 of every pair, then run 2 of every pair, ...), the two
# sides of a pair alternate which goes first, and the ratio is taken run by
# run, so that load from other jobs on this shared machine hits both sides
# of a ratio alike.  The table shows medians over the runs: the figure, its
# pair, the median of the run-by-run ratios with their range, the target,
# and whether it is met.  It exits 0 when a target is missed: this is a
# benchmark, not a test.  CPU time is user + system of the command and all
# its children (getrusage), wall time from bash's $EPOCHREALTIME.
#
# The measures:
#   lex-*     tokenize/tokenize over a corpus of real code against
#             `tr -s '[:space:]' '\n'` over the same bytes concatenated into
#             one file beforehand, in two pairs.  "One stream": tokenize -l
#             LANG and tr read the same file, the files one after the other,
#             each without a "#!" first line and ending in a newline (so
#             that the stream lexes to the files' tokens but their
#             hashbangs, which is checked): lexing against splitting on
#             whitespace, nothing else apart.  "File by file": tokenize is
#             given the files by name (its language comes from the name),
#             tr their plain concatenation, so tokenize also pays the open,
#             fstat, read and close of each file.  Corpora: the C and header files
#             of a Linux tree ($KERNEL_SRC, default /var/tmp/linux-source-6.1,
#             when it is unpacked there), /usr/include, the Python standard
#             library, the JDK's lib/src.zip (the first JDK under
#             /usr/lib/jvm whose src.zip is a real file), /usr/lib/node_modules.
#             A missing corpus is skipped with the line that installs it.
#   e2e       for each history: `tokstream convert --stats SRC DEST`
#             against the same fast-export piped unchanged into git
#             fast-import (fresh DEST each time), wall time and CPU time.
#   filter    in that same convert run, as its --stats tells (from
#             getrusage and wait4): the filter's own CPU time (without the
#             git cat-file it runs to read the blobs, which is Git's work,
#             as fast-export's is) against git fast-import's.
#   filter-inline  the filter in the pipeline with the blobs inline:
#             `git fast-export` of the history with its blobs and without
#             their ids (so that the filter names each blob itself) |
#             tokstream --source=SRC | git fast-import: the filter's own
#             CPU time, as its --stats tells, against fast-import's (bash's
#             `times` in the subshell that ran it).
#   mem       in that same run, the filter's peak resident set (VmHWM)
#             against the largest commit's new blobs (the blobs of a full
#             export that precede one commit) + 64 MiB.
#   report    `tokstream report` of the converted history (no cache: it
#             is removed before each run), wall time, against the plain
#             approach: a shell loop of `git blame --porcelain HEAD` of
#             every file the report blames, in the source and in the
#             token repository.  Above 2,000 such files the loop blames
#             every Kth (K = files / 2,000, rounded up) and its times are
#             multiplied by K.
#   report-later  a report at HEAD with the cache that a report at
#             HEAD~$BENCH_LATER (default 10) left, against a report at
#             HEAD from nothing, wall time: what a later revision costs.
#   blame     `tokstream blame --porcelain` of the $BENCH_BLAME_FILES
#             (default 3) largest files at HEAD that have a view, against
#             `git blame --porcelain` of the same files in the source,
#             wall time: with the whole tree's state at HEAD that the
#             report left in DEST (blame), and without it (blame-cold:
#             each file through its own history).
#   scale-*   for each history in BENCH_SCALE (paths of git repositories;
#             converted once, untimed): a whole-tree `report` from nothing
#             (no cache, no state in DEST), whose median wall time is held
#             to 300 s, beside Git's own walk of every commit's changes
#             (`git log -m --raw -M` of HEAD, the least that any pass over
#             the whole history costs), and against `convert` of the same
#             history from nothing, and its peak memory (target 2 GiB;
#             the Linux history CORPUS=kernel builds is one when named:
#             BENCH_SCALE=$BENCH_DIR/kernel-history.git); the same report
#             at HEAD after one at HEAD~$BENCH_LATER against it; and
#             `html` of the whole tree, from nothing and at a later
#             revision, the same way.
#   first-blame-*  for each history in BENCH_BLAME (paths of git
#             repositories, e.g. a clone of pytest; converted once,
#             untimed, with no attribution state): `tokstream blame
#             --porcelain` of its 3 largest files with a view and of the
#             one with the most commits, the first blame after a plain
#             convert (no state in DEST), against `git blame -w -C` of
#             the same files, wall time, target 2.0; the same with -w on
#             both sides (first-blame-w), and with the history's own
#             .git-blame-ignore-revs, when it has one, configured as
#             blame.ignoreRevsFile for both (first-blame-ignore); and the
#             peak resident set of the largest tokstream blame (its git
#             commands included), target 512 MiB.
#   settings  with BENCH_GIT_CONFIG, for each history: the copy with
#             those settings against the copy with Git's defaults, CPU
#             time, and the size of the packs each side wrote (in the
#             rates below the table); no target, it informs the choice.
# Histories: always a mirror clone of this project's own history, made at
# the start so that commits others make meanwhile do not change it; and
# the histories named in CORPUS: `kernel` is the Linux point-release
# history of t/bench/kernel-history.sh, built in $BENCH_DIR on first use
# (downloading $KERNEL_VERSIONS with apt-get download, about 140 MB each)
# and reused after; any other word is the path of a git repository.  With
# `kernel` and no unpacked tree at $KERNEL_SRC, the newest release of that
# history is the C lexing corpus.
#
# Environment: BENCH_RUNS (default 5), BENCH_DIR (default
# /var/tmp/tokstream-bench: scratch space, the built kernel history, and
# bench-DATE.txt with the table and the raw figures of each run),
# CORPUS, KERNEL_SRC, KERNEL_VERSIONS, BENCH_LEX (0: no lexing measures,
# the histories only), BENCH_REPORT (0: no report measure),
# BENCH_SCALE (histories for the scale-* measures only), BENCH_BLAME
# (histories for the first-blame-* measures only),
# BENCH_GIT_CONFIG ("KEY=VALUE ...", e.g. "pack.depth=0": Git settings
# given, through GIT_CONFIG_COUNT, to both sides of the end-to-end pair,
# so to convert's fast-import and the copy's alike).
# Needs git and python3 (apt-get install -y git python3); unzip, if there,
# unpacks the JDK sources (python3 does otherwise).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TOKSTREAM=$root/tokstream
TOKENIZE=$root/tokenize/tokenize
runs=${BENCH_RUNS:-5}
with_report=${BENCH_REPORT:-1}
later_step=${BENCH_LATER:-10}
blame_files=${BENCH_BLAME_FILES:-3}
dir=${BENCH_DIR:-/var/tmp/tokstream-bench}
corpus=${CORPUS:-}
kernel_src=${KERNEL_SRC:-/var/tmp/linux-source-6.1}
kernel_versions=${KERNEL_VERSIONS:-6.1.170-3 6.1.176-1 6.1.187-1 6.1.190-1 6.1.192-3}
export_opts=(--all --signed-tags=strip --tag-of-filtered-object=rewrite --reencode=no
	--show-original-ids --mark-tags --use-done-feature)
# the same without the blobs' ids: the plain pipeline of the filter
inline_export_opts=(--all --signed-tags=strip --tag-of-filtered-object=rewrite --reencode=no
	--mark-tags --use-done-feature)
import_cmd=(git -c fastimport.unpackLimit=0 fast-import --quiet --force --done)
# BENCH_GIT_CONFIG as the environment that gives it to every git command
# of a side (Git 2.31 and later read GIT_CONFIG_COUNT)
git_config=${BENCH_GIT_CONFIG:-}
config_env=
n_config=0
for kv in $git_config; do
	case $kv in
	*\'*) echo "bench: BENCH_GIT_CONFIG: '$kv' has a quote" >&2; exit 2 ;;
	[A-Za-z]*.*=*) ;;
	*) echo "bench: BENCH_GIT_CONFIG: '$kv' is not KEY=VALUE" >&2; exit 2 ;;
	esac
	config_env="$config_env GIT_CONFIG_KEY_$n_config='${kv%%=*}' GIT_CONFIG_VALUE_$n_config='${kv#*=}'"
	n_config=$((n_config + 1))
done
[ "$n_config" = 0 ] || config_env="env GIT_CONFIG_COUNT=$n_config$config_env "

missing=
command -v git >/dev/null || missing="$missing git (apt-get install -y git);"
command -v python3 >/dev/null || missing="$missing python3 (apt-get install -y python3);"
if [ -n "$missing" ]; then
	echo "bench: missing:$missing" >&2
	exit 2
fi
for p in "$TOKSTREAM" "$TOKENIZE"; do
	[ -x "$p" ] || { echo "bench: $p is not built (make)" >&2; exit 2; }
done
case $runs in ''|*[!0-9]*|0) echo "bench: BENCH_RUNS must be a positive number" >&2; exit 2 ;; esac

mkdir -p "$dir"
s=$(mktemp -d "$dir/run.XXXXXX")
trap 'rm -rf "$s"' EXIT
# Copies, so that a rebuild in this checkout during the run (others work
# here too) changes neither the programs measured nor the runs' results.
mkdir "$s/bin"
cp "$TOKSTREAM" "$TOKENIZE" "$s/bin/"
# the commit they were copied at, not the one checked out when the run ends
built_at=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes in the working tree)')
TOKSTREAM=$s/bin/tokstream
TOKENIZE=$s/bin/tokenize
results=$s/results      # ID SIDE RUN WALL CPU RSS_KB
: >"$results"
measures=()             # IDs in table order
declare -A label fig_a fig_b target kind bytes files lexlang
note() { echo "bench: $*" >&2; }

# timed ID SIDE RUN 'COMMAND' -- runs COMMAND, records its wall and CPU time.
# The CPU time is what bash's `times` reports for the children of a
# subshell that ran only COMMAND: getrusage, to the millisecond (the filter
# of a small history takes a few hundredths of a second, below the 10 ms of
# /usr/bin/time's format; a wrapper process such as python's would add its
# own pre-exec cost and memory to the child's).
timed() {
	local t0 t1 c
	t0=$EPOCHREALTIME
	c=$( (eval "$4" >/dev/null || exit 1; times) | tail -1) || {
		note "failed: $4"
		exit 1
	}
	t1=$EPOCHREALTIME
	record "$1" "$2" "$3" "$t0" "$t1" "$c"
}

# record ID SIDE RUN T0 T1 'TIMES' -- a result line from the wall clock at
# the start and the end and the children's line of `times`.
record() {
	echo "$1 $2 $3 $4 $5 $6" | awk '{
		cpu = 0
		for (i = 6; i <= 7; i++) { split($i, m, /[ms]/); cpu += m[1] * 60 + m[2] }
		printf "%s %s %s %.4f %.4f 0\n", $1, $2, $3, $5 - $4, cpu
	}' >>"$results"
}

# timed_pair ID RUN 'A' 'B' -- both sides of a pair, A first in odd runs,
# B first in even ones, so that neither always runs on a warmer machine.
timed_pair() {
	if [ $(($2 % 2)) = 1 ]; then
		timed "$1" a "$2" "$3"; timed "$1" b "$2" "$4"
	else
		timed "$1" b "$2" "$4"; timed "$1" a "$2" "$3"
	fi
}

# ---- lexing corpora ----
lex_corpus() {           # ID LANG LABEL DIR FIND-PREDICATES...
	local id=$1 lang=$2 what=$3 top=$4
	shift 4
	local k n ns tf ts dropped
	find "$top" \( -name site-packages -o -name dist-packages \) -prune -o -type f \( "$@" \) -print0 | sort -z >"$s/$id.files"
	files[$id]=$(tr -dc '\0' <"$s/$id.files" | wc -c)
	if [ "${files[$id]}" = 0 ]; then
		note "$what: no files under $top, skipped"
		return
	fi
	xargs -0 cat <"$s/$id.files" >"$s/$id.once"
	# The one stream: each file without a "#!" first line (valid only at
	# the start of a file, a hashbang within a stream would lex as code)
	# and ending in a newline (so that no token runs on into the next file).
	xargs -0 sed -s '1{/^#!/d}' <"$s/$id.files" >"$s/$id.once-stream"
	n=$(stat -c %s "$s/$id.once")
	ns=$(stat -c %s "$s/$id.once-stream")
	# Every file must be claimed by the lexer meant, or the pair measures nothing.
	tf=$(xargs -0 "$TOKENIZE" <"$s/$id.files" 2>"$s/$id.err" | wc -l)
	if [ -s "$s/$id.err" ]; then
		note "$what: tokenize complained:"
		head -3 "$s/$id.err" >&2
		exit 1
	fi
	# ... and the stream must be the same work: the tokens of the files
	# but their hashbangs (a comment, one token each).
	ts=$("$TOKENIZE" -l "$lang" <"$s/$id.once-stream" | wc -l)
	dropped=$(xargs -0 awk 'FNR == 1 && /^#!/' <"$s/$id.files" | wc -l)
	if [ "$ts" != $((tf - dropped)) ]; then
		note "$what: the one stream lexes to $ts tokens, the files to $tf less $dropped hashbangs"
		exit 1
	fi
	# A small corpus is taken K times over (at least 100 MB in all), so that
	# each side runs long enough to measure.
	k=$(( (100000000 + n - 1) / n ))
	: >"$s/$id.list"
	: >"$s/$id.cat"
	: >"$s/$id.stream"
	for _ in $(seq "$k"); do
		cat "$s/$id.files" >>"$s/$id.list"
		cat "$s/$id.once" >>"$s/$id.cat"
		cat "$s/$id.once-stream" >>"$s/$id.stream"
	done
	rm -f "$s/$id.once" "$s/$id.once-stream"
	bytes[$id]=$((n * k))
	# Two pairs: the same bytes as tr's, in one stream (the measure as
	# the issue sets it: lexing against splitting on whitespace), and
	# the files by name (with the open, fstat, read and close of each).
	local what_n="$what ($(printf "%'d" "${files[$id]}") files, $(awk -v b="$n" 'BEGIN { printf "%.0f", b / 1e6 }') MB$([ "$k" = 1 ] || echo ", taken $k times"))"
	measures+=("$id-stream" "$id")
	label[$id-stream]="lexing $what_n, one stream"
	label[$id]="lexing $what_n, file by file"
	bytes[$id-stream]=$((ns * k))
	lexlang[$id-stream]=$lang
	fig_a[$id-stream]="tokenize -l $lang CPU s"
	fig_a[$id]="tokenize FILE... CPU s"
	for m in "$id-stream" "$id"; do
		fig_b[$m]="tr -s CPU s"
		target[$m]=1.0
		kind[$m]=cpu
	done
}

run_lex() {              # ID RUN
	local id=$1 r=$2 a
	local in=$s/$id.cat
	case $id in
	*-stream)
		in=$s/${id%-stream}.stream
		a="'$TOKENIZE' -l '${lexlang[$id]}' <'$in' >/dev/null" ;;
	*) a="xargs -0 '$TOKENIZE' <'$s/$id.list' >/dev/null" ;;
	esac
	local b="tr -s '[:space:]' '\\n' <'$in' >/dev/null"
	timed_pair "$id" "$r" "$a" "$b"
}

# ---- histories ----
histories=()
declare -A src largest commits sample
add_history() {          # NAME GITDIR
	local h=$1 g=$2
	histories+=("$h")
	src[$h]=$g
	commits[$h]=$(git -C "$g" rev-list --count --all)
	# The blobs the filter holds at once: those before one commit in the stream.
	git -C "$g" fast-export "${export_opts[@]}" >"$s/$h.stream"
	largest[$h]=$(python3 - "$s/$h.stream" <<-'EOF'
		import sys
		f = open(sys.argv[1], 'rb')
		held = largest = 0
		in_blob = False
		for line in iter(f.readline, b''):
		    if line.startswith(b'blob'):
		        in_blob = True
		    elif line.startswith(b'commit '):
		        largest = max(largest, held)
		        held = 0
		        in_blob = False
		    elif line.startswith((b'tag ', b'reset ')):
		        in_blob = False
		    elif line.startswith(b'data '):
		        n = int(line[5:])
		        if in_blob:
		            held += n
		            in_blob = False
		        f.seek(n, 1)
		print(max(largest, held))
	EOF
	)
	bytes[$h]=$(stat -c %s "$s/$h.stream")
	rm -f "$s/$h.stream"
	local desc="$h (${commits[$h]} commits, $(awk -v b="${bytes[$h]}" 'BEGIN { printf "%.0f", b / 1e6 }') MB stream)"
	measures+=("filter-$h" "filter-inline-$h" "e2e-wall-$h" "e2e-cpu-$h" "mem-$h")
	[ "$with_report" = 0 ] || measures+=("report-$h" "report-later-$h" "blame-$h" "blame-cold-$h")
	if [ -n "$config_env" ]; then
		measures+=("settings-$h")
		define_measure "settings-$h" "fast-import settings $git_config, $h" \
			"copy CPU s, $git_config" "copy CPU s, defaults" "" cpu
	fi
	define_measure "report-$h" "report, wall, $h" \
		"report wall s" "plain git blame loop wall s" 0.10 wall
	define_measure "report-later-$h" "report at a later revision, wall, $h" \
		"report after one at HEAD~$later_step s" "report from nothing s" 0.10 wall
	define_measure "blame-$h" "blame of the $blame_files largest files, the state a report left in DEST, wall, $h" \
		"tokstream blame s" "git blame s" 2.0 wall
	define_measure "blame-cold-$h" "blame of the same files, no state in DEST (each file's own history), wall, $h" \
		"tokstream blame s" "git blame s" 2.0 wall
	define_measure "filter-$h" "filter, $desc" "tokstream CPU s" "fast-import CPU s" 0.10 cpu
	define_measure "filter-inline-$h" "filter, blobs inline without their ids, $h" \
		"tokstream CPU s" "fast-import CPU s" 0.10 cpu
	define_measure "e2e-wall-$h" "end to end, wall, $h" "convert wall s" "export\|import wall s" 1.0 wall
	define_measure "e2e-cpu-$h" "end to end, CPU, $h" "convert CPU s" "export\|import CPU s" 1.0 cpu
	define_measure "mem-$h" \
		"memory, $h (largest commit's new blobs $(awk -v b="${largest[$h]}" 'BEGIN { printf "%.1f", b / 1048576 }') MiB)" \
		"tokstream peak RSS MiB" "new blobs + 64 MiB" 1.0 rss
}

# add_scale NAME GITDIR: a history for the scale-* measures, converted once
add_scale() {
	local h=$1 g=$2
	scales+=("$h")
	src[$h]=$g
	commits[$h]=$(git -C "$g" rev-list --count HEAD)
	note "converting $h (${commits[$h]} commits) for the scale measures"
	"$TOKSTREAM" convert -q "$g" "$s/$h.scale.git"
	measures+=("scale-report-$h" "scale-report-rss-$h" "scale-report-convert-$h" "scale-report-later-$h" "scale-html-$h"
		"scale-html-later-$h")
	define_measure "scale-report-$h" "whole-tree report from nothing, wall, $h (${commits[$h]} commits; target: the median)" \
		"report s" "git log -m --raw -M s" 300 wallabs
	define_measure "scale-report-rss-$h" "the same report's peak memory (with its git commands), $h" \
		"tokstream report peak RSS MiB" "the target's 2 GiB" 2048 rssabs
	define_measure "scale-report-convert-$h" "the same report against convert of the same history, wall, $h" \
		"report s" "convert s" 1.0 wall
	define_measure "scale-report-later-$h" "whole-tree report at HEAD after one at HEAD~$later_step, wall, $h" \
		"report at the later revision s" "report from nothing s" 0.10 wall
	define_measure "scale-html-$h" "whole-tree html from nothing, wall, $h (target: the median)" \
		"html s" "git log -m --raw -M s" 300 wallabs
	define_measure "scale-html-later-$h" "whole-tree html at HEAD after one at HEAD~$later_step, wall, $h" \
		"html at the later revision s" "html from nothing s" 0.10 wall
}

# run_scale NAME RUN: the scale measures of one history.  The "from
# nothing" side of each later-revision pair is the from-nothing run of
# the same round, recorded twice rather than run twice.
run_scale() {
	local h=$1 r=$2 g=${src[$1]} d=$s/$1.scale.git earlier
	local walk="git -C '$g' log -m --raw -M --no-abbrev --format=%H HEAD"
	local fresh="rm -rf '$d/tokstream/report-cache' '$d/tokstream/html-cache' '$d/tokstream/replay' '$s/sout'"
	earlier=$(git -C "$g" rev-parse --verify -q "HEAD~$later_step") || earlier=HEAD
	for cmd in report html; do
		# GNU time around the report: the largest of it and its children
		timed_pair "scale-$cmd-$h" "$r" "$fresh && /usr/bin/time -o '$s/$cmd.rss' -f %M '$TOKSTREAM' $cmd -C '$d' '$s/sout'" "$walk"
		awk -v from="scale-$cmd-$h" -v to="scale-$cmd-later-$h" -v r="$r" \
			'$1 == from && $2 == "a" && $3 == r { print to, "b", r, $4, $5, $6 }' "$results" >>"$results"
		if [ $cmd = report ]; then
			echo "scale-report-rss-$h a $r 0 0 $(tail -n 1 "$s/report.rss")" >>"$results"
			# the report's run of this round against a convert from nothing
			awk -v from="scale-report-$h" -v to="scale-report-convert-$h" -v r="$r" \
				'$1 == from && $2 == "a" && $3 == r { print to, "a", r, $4, $5, $6 }' "$results" >>"$results"
			timed "scale-report-convert-$h" b "$r" "rm -rf '$s/cout.git' && '$TOKSTREAM' convert -q '$g' '$s/cout.git'"
			rm -rf "$s/cout.git"
		fi
		eval "$fresh" && "$TOKSTREAM" $cmd -C "$d" "$s/sout" "$earlier" >/dev/null
		timed "scale-$cmd-later-$h" a "$r" "'$TOKSTREAM' $cmd -C '$d' '$s/sout'"
	done
	rm -rf "$s/sout"
}

# add_first_blame NAME GIT-DIR: a history for the first-blame measures.
# A clone of it, so that its blame.ignoreRevsFile can be set, and its
# conversion; the files: the 3 largest with a view, and the one with the
# most commits.
add_first_blame() {
	local h=$1 g=$2 c=$s/$1.blame-src
	blames+=("$h")
	git clone -q --no-checkout "$g" "$c"
	src[$h]=$c
	commits[$h]=$(git -C "$c" rev-list --count HEAD)
	note "converting $h (${commits[$h]} commits) for the first-blame measures"
	"$TOKSTREAM" convert -q "$c" "$s/$h.blame.git"
	git -C "$c" ls-tree -r -l HEAD | awk -F'\t' '$1 ~ /^100(644|755) blob / { split($1, f, " "); print f[4] "\t" $2 }' |
		sort -k1,1nr | cut -f2- >"$s/$h.by-size"
	git -C "$s/$h.blame.git" ls-tree -r --name-only HEAD | sort >"$s/$h.with-view"
	grep -Fx -f "$s/$h.with-view" "$s/$h.by-size" | head -n 3 >"$s/$h.first-files" || true
	git -C "$c" log --format= --name-only HEAD | sort | uniq -c | sort -k1,1nr | sed 's/^ *[0-9]* //' |
		grep -Fx -f "$s/$h.with-view" | grep -Fxv -f "$s/$h.first-files" | head -n 1 >>"$s/$h.first-files" || true
	note "$h: first blame of $(tr '\n' ' ' <"$s/$h.first-files")"
	measures+=("first-blame-$h" "first-blame-w-$h")
	define_measure "first-blame-$h" "first blame after convert, wall, $h (${commits[$h]} commits, $(wc -l <"$s/$h.first-files") files)" \
		"tokstream blame s" "git blame -w -C s" 2.0 wall
	define_measure "first-blame-w-$h" "the same with -w, wall, $h" "tokstream blame -w s" "git blame -w -C s" 2.0 wall
	if git -C "$c" cat-file -e HEAD:.git-blame-ignore-revs 2>/dev/null; then
		git -C "$c" show HEAD:.git-blame-ignore-revs >"$s/$h.ignore-revs"
		measures+=("first-blame-ignore-$h")
		define_measure "first-blame-ignore-$h" "the same with its .git-blame-ignore-revs configured, wall, $h" \
			"tokstream blame s" "git blame -w -C s" 2.0 wall
	fi
	measures+=("first-blame-rss-$h")
	define_measure "first-blame-rss-$h" "first blame's peak memory (with its git commands), $h" \
		"tokstream blame peak RSS MiB" "the target's 512 MiB" 512 rssabs
}

# run_first_blame NAME RUN: each pair with no attribution state in DEST
run_first_blame() {
	local h=$1 r=$2 c=${src[$1]} d=$s/$1.blame.git f peak=0 m
	local fresh="rm -rf '$d/tokstream/replay'"
	local each="while IFS= read -r f; do"
	local files="done <'$s/$h.first-files'"
	git -C "$c" config --unset-all blame.ignoreRevsFile || :
	timed_pair "first-blame-$h" "$r" "$fresh && $each '$TOKSTREAM' blame -C '$d' --porcelain \"\$f\" >/dev/null || exit 1; $files" \
		"$each git -C '$c' blame -w -C --porcelain HEAD -- \"\$f\" >/dev/null || exit 1; $files"
	timed_pair "first-blame-w-$h" "$r" "$fresh && $each '$TOKSTREAM' blame -C '$d' -w --porcelain \"\$f\" >/dev/null || exit 1; $files" \
		"$each git -C '$c' blame -w -C --porcelain HEAD -- \"\$f\" >/dev/null || exit 1; $files"
	if [ -f "$s/$h.ignore-revs" ]; then
		git -C "$c" config blame.ignoreRevsFile "$s/$h.ignore-revs"
		timed_pair "first-blame-ignore-$h" "$r" "$fresh && $each '$TOKSTREAM' blame -C '$d' --porcelain \"\$f\" >/dev/null || exit 1; $files" \
			"$each git -C '$c' blame -w -C --porcelain HEAD -- \"\$f\" >/dev/null || exit 1; $files"
		git -C "$c" config --unset-all blame.ignoreRevsFile
	fi
	# the peak resident set of the largest of them, its git commands
	# included (GNU time: the largest of the process and its children)
	while IFS= read -r f; do
		m=$( { /usr/bin/time -f '%M' "$TOKSTREAM" blame -C "$d" --porcelain "$f" >/dev/null; } 2>&1 | tail -1)
		[ "$m" -le "$peak" ] || peak=$m
	done <"$s/$h.first-files"
	echo "first-blame-rss-$h a $r 0 0 $peak" >>"$results"
}

# define_measure ID LABEL FIGURE PAIR-FIGURE TARGET KIND: how the table shows ID
define_measure() {
	label[$1]=$2
	fig_a[$1]=$3
	fig_b[$1]=$4
	target[$1]=$5
	kind[$1]=$6
}

# stat_of FILE SED-EXPRESSION: the number a --stats line gives
stat_of() {
	local v
	v=$(sed -n "$2" "$1")
	[ -n "$v" ] || { note "no such line in $1: $2"; cat "$1" >&2; exit 1; }
	echo "$v"
}

run_history() {          # NAME RUN
	local h=$1 r=$2 g=${src[$1]} st=$s/conv.stats
	local conv="$config_env'$TOKSTREAM' convert --stats '$g' '$s/conv.git' 2>'$st'"
	local copy
	copy=$(copy_cmd "$g" "$s/copy.git" "$config_env")
	rm -rf "$s/conv.git" "$s/copy.git"
	timed_pair "e2e-$h" "$r" "$conv" "$copy"
	echo "pack-conv-$h a $r 0 0 $(pack_kib "$s/conv.git")" >>"$results"
	echo "pack-copy-$h a $r 0 0 $(pack_kib "$s/copy.git")" >>"$results"
	if [ -n "$config_env" ]; then
		local plain
		plain=$(copy_cmd "$g" "$s/plain.git" "")
		rm -rf "$s/copy.git"
		timed_pair "settings-$h" "$r" "$copy" "$plain"
		echo "pack-plain-$h a $r 0 0 $(pack_kib "$s/plain.git")" >>"$results"
		rm -rf "$s/plain.git"
	fi
	# the stages of that convert run, each on its own (ID SIDE RUN 0 CPU RSS)
	local stages own git_run peak out fetched
	stages=$(stat_of "$st" 's/^tokstream convert: cpu: git fast-export \([0-9.]*\) s, filter \([0-9.]*\) s, git fast-import \([0-9.]*\) s$/\1 \2 \3/p')
	own=$(stat_of "$st" 's/^tokstream: cpu \([0-9.]*\) s, git commands it ran \([0-9.]*\) s$/\1 \2/p')
	peak=$(stat_of "$st" 's/^tokstream: peak memory \([0-9]*\) KiB$/\1/p')
	out=$(stat_of "$st" 's/^tokstream: bytes in [0-9]*, bytes out \([0-9]*\)$/\1/p')
	fetched=$(stat_of "$st" 's/^tokstream: blobs read from the source [0-9]* (\([0-9]*\) bytes), .*/\1/p')
	set -- $stages $own
	{
		echo "filter-$h a $r 0 $4 0"
		echo "filter-$h b $r 0 $3 0"
		echo "mem-$h a $r 0 0 $peak"
		echo "export-$h a $r 0 $1 0"
		echo "catfile-$h a $r 0 $5 0"
		echo "tokens-$h a $r 0 0 $out"
		echo "fetched-$h a $r 0 0 $fetched"
	} >>"$results"
	run_inline "$h" "$r"
	[ "$with_report" = 0 ] || run_report "$h" "$r"
	rm -rf "$s/conv.git" "$s/copy.git"
}

# run_inline NAME RUN: fast-export with the blobs inline | the filter |
# fast-import; the filter's own CPU time against fast-import's
run_inline() {
	local h=$1 r=$2 g=${src[$1]} st=$s/inline.stats c own
	rm -rf "$s/inline.git"
	git init -q --bare "$s/inline.git"
	c=$(git -C "$g" fast-export "${inline_export_opts[@]}" |
		"$TOKSTREAM" --source="$g" --stats 2>"$st" |
		(cd "$s/inline.git" && "${import_cmd[@]}" && times) | tail -1)
	own=$(stat_of "$st" 's/^tokstream: cpu \([0-9.]*\) s, git commands it ran [0-9.]* s$/\1/p')
	echo "filter-inline-$h a $r 0 $own 0" >>"$results"
	echo "$c" | awk -v id="filter-inline-$h" -v r="$r" '{
		cpu = 0
		for (i = 1; i <= 2; i++) { split($i, m, /[ms]/); cpu += m[1] * 60 + m[2] }
		printf "%s b %s 0 %.4f 0\n", id, r, cpu
	}' >>"$results"
	rm -rf "$s/inline.git"
}

# copy_cmd SRC DEST ENV: the command that copies SRC's history unchanged
# into a new DEST through fast-export | fast-import, fast-import run
# under ENV (a prefix such as $config_env, or nothing)
copy_cmd() {
	echo "git init -q --bare '$2' && git -C '$1' fast-export ${export_opts[*]} | (cd '$2' && $3${import_cmd[*]})"
}

# pack_kib GITDIR: the size of its packs, KiB
pack_kib() {
	du -sk "$1/objects/pack" | cut -f1
}

# plain_blame SRC DEST LIST: git blame of every file of LIST in both
plain_blame() {
	local f
	while IFS= read -r f; do
		git -C "$1" blame --porcelain HEAD -- "$f" >/dev/null || return 1
		git -C "$2" blame --porcelain HEAD -- "$f" >/dev/null || return 1
	done <"$3"
}

# run_report NAME RUN, with $s/conv.git converted: the report against the plain loop
run_report() {
	local h=$1 r=$2 g=${src[$1]} n k
	if [ ! -f "$s/$h.blame-list" ]; then
		# the files the report blames: regular files of the source that have a view
		git -C "$g" ls-tree -r HEAD | awk -F'\t' '$1 ~ /^100(644|755) blob / { print $2 }' | sort >"$s/$h.src-files"
		git -C "$s/conv.git" ls-tree -r --name-only HEAD | sort >"$s/$h.token-files"
		comm -12 "$s/$h.src-files" "$s/$h.token-files" | grep -v -e '^\.mailmap$' -e '/\.mailmap$' \
			-e '\.gitignore$' -e '\.gitattributes$' -e '\.gitmodules$' >"$s/$h.all-files" || true
		n=$(wc -l <"$s/$h.all-files")
		k=$(( (n + 1999) / 2000 ))
		[ "$k" -ge 1 ] || k=1
		awk -v k="$k" 'NR % k == 1 || k == 1' "$s/$h.all-files" >"$s/$h.blame-list"
		sample[$h]=$k
		label[report-$h]="report, wall, $h ($(printf "%'d" "$n") files$([ "$k" = 1 ] || echo "; the plain loop blames every ${k}th, times $k"))"
	fi
	local rep="rm -rf '$s/conv.git/tokstream/report-cache' '$s/conv.git/tokstream/replay' '$s/rout' && '$TOKSTREAM' report -C '$s/conv.git' '$s/rout'"
	local plain="plain_blame '$g' '$s/conv.git' '$s/$h.blame-list'"
	timed_pair "report-$h" "$r" "$rep" "$plain"
	# the plain loop's figures for the whole tree
	awk -v id="report-$h" -v r="$r" -v k="${sample[$h]}" \
		'$1 == id && $2 == "b" && $3 == r { $4 *= k; $5 *= k } { print }' "$results" >"$s/results.new"
	mv "$s/results.new" "$results"
	rm -rf "$s/rout"

	# A report at a later revision, with the cache and the replay state a
	# report of an earlier one left, against a report of it from nothing.
	# They are saved once and put back before each run of the later side.
	local earlier
	earlier=$(git -C "$g" rev-parse --verify -q "HEAD~$later_step") || earlier=
	if [ -n "$earlier" ]; then
		if [ ! -d "$s/$h.earlier" ]; then
			rm -rf "$s/conv.git/tokstream/report-cache" "$s/conv.git/tokstream/replay" "$s/rout"
			"$TOKSTREAM" report -C "$s/conv.git" "$s/rout" "$earlier" >/dev/null
			mkdir "$s/$h.earlier"
			cp -a "$s/conv.git/tokstream/report-cache" "$s/conv.git/tokstream/replay" "$s/$h.earlier/"
		fi
		timed_pair "report-later-$h" "$r" \
			"rm -rf '$s/conv.git/tokstream/report-cache' '$s/conv.git/tokstream/replay' '$s/rout' && cp -a '$s/$h.earlier/report-cache' '$s/$h.earlier/replay' '$s/conv.git/tokstream/' && '$TOKSTREAM' report -C '$s/conv.git' '$s/rout'" \
			"$rep"
		rm -rf "$s/rout"
	fi

	# tokstream blame against git blame of the original, on the largest
	# files (by bytes at HEAD) that have a view: long files with long
	# histories are where a diff of views costs most
	if [ ! -f "$s/$h.blame-big" ]; then
		git -C "$g" ls-tree -r -l HEAD | awk -F'\t' '$1 ~ /^100(644|755) blob / { split($1, f, " "); print f[4] "\t" $2 }' |
			sort -k1,1nr | cut -f2- >"$s/$h.by-size"
		grep -Fx -f "$s/$h.all-files" "$s/$h.by-size" | head -n "$blame_files" >"$s/$h.blame-big" || true
	fi
	local tblame="while IFS= read -r f; do '$TOKSTREAM' blame -C '$s/conv.git' --porcelain \"\$f\" HEAD >/dev/null || exit 1; done <'$s/$h.blame-big'"
	local gblame="while IFS= read -r f; do git -C '$g' blame --porcelain HEAD -- \"\$f\" >/dev/null || exit 1; done <'$s/$h.blame-big'"
	# the report pairs above leave the whole tree's state at HEAD in DEST
	timed_pair "blame-$h" "$r" "$tblame" "$gblame"
	timed_pair "blame-cold-$h" "$r" "rm -rf '$s/conv.git/tokstream/replay' && $tblame" "$gblame"
}

# ---- set up ----
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
note "preparing corpora in $s"

for w in $corpus; do
	if [ "$w" = kernel ] && [ ! -d "$dir/kernel-history.git" ]; then
		note "building the kernel point-release history ($kernel_versions)"
		# shellcheck disable=SC2086
		bash "$here/kernel-history.sh" --fetch "$dir/kernel-history.git" $kernel_versions
	fi
done
if [ ! -d "$kernel_src" ] && [ -d "$dir/kernel-history.git" ] && [[ " $corpus " = *" kernel "* ]]; then
	kernel_src=$s/linux
	mkdir -p "$kernel_src"
	git --git-dir="$dir/kernel-history.git" archive main | tar -x -C "$kernel_src"
fi

if [ "${BENCH_LEX:-1}" != 0 ]; then
	if [ -d "$kernel_src" ]; then
		lex_corpus lex-c-linux c "C, Linux $(sed -n 's/^SUBLEVEL = /6.1./p' "$kernel_src/Makefile" 2>/dev/null) .c .h" "$kernel_src" -name '*.c' -o -name '*.h'
	else
		note "no Linux tree at $kernel_src: C lexing on /usr/include only (apt-get install -y linux-source-6.1 && tar -C /var/tmp -xJf /usr/src/linux-source-6.1.tar.xz, or CORPUS=kernel)"
	fi
	lex_corpus lex-c-include c "C, /usr/include .h" /usr/include -name '*.h'
	# The standard library of python3 on PATH, as t/agree/python.sh takes it.
	pystdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
	lex_corpus lex-python python "Python, $pystdlib" "$pystdlib" -name '*.py'
	jdk_zip=
	for z in /usr/lib/jvm/*/lib/src.zip; do
		if [ -f "$z" ] && [ -r "$(readlink -f "$z")" ]; then
			jdk_zip=$(readlink -f "$z")
			break
		fi
	done
	if [ -n "$jdk_zip" ]; then
		mkdir -p "$s/jdk"
		if command -v unzip >/dev/null; then
			unzip -q "$jdk_zip" '*.java' -d "$s/jdk"
		else
			python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2], [n for n in z.namelist() if n.endswith(".java")])' "$jdk_zip" "$s/jdk"
		fi
		lex_corpus lex-java java "Java, $(echo "$jdk_zip" | sed 's|/usr/lib/jvm/||; s|/lib/src.zip||')" "$s/jdk" -name '*.java'
	else
		note "no JDK sources: Java lexing skipped (apt-get install -y openjdk-17-source)"
	fi
	if [ -d /usr/lib/node_modules ]; then
		lex_corpus lex-js javascript "JavaScript, /usr/lib/node_modules" /usr/lib/node_modules -name '*.js' -o -name '*.mjs' -o -name '*.cjs'
	else
		note "no /usr/lib/node_modules: JavaScript lexing skipped (apt-get install -y npm)"
	fi

fi

git clone -q --mirror "$root" "$s/own.git"
add_history tokstream "$s/own.git"
for w in $corpus; do
	case $w in
	kernel) add_history linux-6.1-releases "$dir/kernel-history.git" ;;
	*)
		git -C "$w" rev-parse --git-dir >/dev/null 2>&1 || { note "CORPUS: $w is not a git repository"; exit 2; }
		add_history "$(basename "$w" .git)" "$(cd "$w" && pwd)"
		;;
	esac
done

blames=()
for w in ${BENCH_BLAME:-}; do
	git -C "$w" rev-parse --git-dir >/dev/null 2>&1 || { note "BENCH_BLAME: $w is not a git repository"; exit 2; }
	add_first_blame "$(basename "$w" .git)" "$(cd "$w" && pwd)"
done

scales=()
for w in ${BENCH_SCALE:-}; do
	git -C "$w" rev-parse --git-dir >/dev/null 2>&1 || { note "BENCH_SCALE: $w is not a git repository"; exit 2; }
	add_scale "$(basename "$w" .git)" "$(cd "$w" && pwd)"
done

# ---- the runs ----
for r in $(seq 1 "$runs"); do
	note "run $r of $runs"
	for id in "${measures[@]}"; do
		case $id in lex-*) run_lex "$id" "$r" ;; esac
	done
	for h in "${histories[@]}"; do
		run_history "$h" "$r"
	done
	for h in "${blames[@]}"; do
		run_first_blame "$h" "$r"
	done
	for h in "${scales[@]}"; do
		run_scale "$h" "$r"
	done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table ----
# Pairs the two sides of each run (e2e-wall and e2e-cpu share the e2e
# runs); medians of values and of run-by-run ratios.
table() {
	for id in "${measures[@]}"; do
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "${kind[$id]}" "${target[$id]}" "${fig_a[$id]}" "${fig_b[$id]}" "${label[$id]}"
	done | awk -F'\t' -v results="$results" -v runs="$runs" -v largest_file="$s/largest" '
	function median(list,   n, v, i, j, t) {
		n = split(list, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	function range(list,   n, v, i, lo, hi) {
		n = split(list, v, " "); lo = hi = v[1]
		for (i = 2; i <= n; i++) { if (v[i] + 0 < lo + 0) lo = v[i]; if (v[i] + 0 > hi + 0) hi = v[i] }
		return sprintf("%.3f-%.3f", lo, hi)
	}
	BEGIN {
		while ((getline line < largest_file) > 0) {
			split(line, f, " ")
			largest[f[1]] = f[2]
		}
		while ((getline line < results) > 0) {
			split(line, f, " ")
			wall[f[1], f[2], f[3]] = f[4]; cpu[f[1], f[2], f[3]] = f[5]; rss[f[1], f[2], f[3]] = f[6]
		}
		printf "| measure | figure | median | pair | median | ratio (median, range) | target | met |\n"
		printf "|---|---|---|---|---|---|---|---|\n"
	}
	{
		id = $1; k = $2; tgt = $3; sa = sb = rl = ""
		src = id; sub(/^e2e-(wall|cpu)-/, "e2e-", src)
		for (r = 1; r <= runs; r++) {
			if (k == "rssabs") {
				a = rss[src, "a", r] / 1024; b = tgt
			} else if (k == "rss") {
				h = id; sub(/^mem-/, "", h)
				a = rss[src, "a", r] / 1024; b = largest[h] / 1048576 + 64
			} else if (k == "wall" || k == "wallabs") {
				a = wall[src, "a", r]; b = wall[src, "b", r]
			} else {
				a = cpu[src, "a", r]; b = cpu[src, "b", r]
			}
			sa = sa " " a; sb = sb " " b; rl = rl " " (b > 0 ? a / b : 0)
		}
		mr = median(rl)
		# wallabs (rssabs): the target holds the median wall time (peak MiB) of the figure itself
		held = k == "wallabs" || k == "rssabs" ? median(sa) : mr
		printf "| %s | %s | %.3f | %s | %.3f | %.3f (%s) | %s | %s |\n", $6, $4, median(sa), $5, median(sb), mr, range(rl),
			tgt == "" ? "-" : "<= " tgt (k == "wallabs" ? " s" : k == "rssabs" ? " MiB" : ""), tgt == "" ? "-" : held <= tgt ? "yes" : "**no**"
	}'
}
for h in "${histories[@]}"; do echo "$h ${largest[$h]}"; done >"$s/largest"
out=$dir/bench-$(date -u +%Y%m%d-%H%M%S).txt
{
	echo "tokstream bench, $started, $runs runs, $(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), load average $load_start at the start, $load_end at the end"
	echo "tokstream at $built_at"
	[ -z "$config_env" ] || echo "Git settings of both sides of the end-to-end pairs: $git_config"
	echo
	table
	echo
	echo "Rates (medians), for the scale estimate:"
	for id in "${measures[@]}"; do
		case $id in lex-*)
			awk -v id="$id" -v b="${bytes[$id]}" -v l="${label[$id]}" '$1 == id && $2 == "a" { print $5 }' "$results" | sort -n |
				awk -v b="${bytes[$id]}" -v l="${label[$id]}" '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "  %s: tokenize %.1f MB/s of CPU\n", l, b / m / 1e6 }'
			awk -v id="$id" '$1 == id && $2 == "b" { print $5 }' "$results" | sort -n |
				awk -v b="${bytes[$id]}" '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "      tr -s %.1f MB/s of CPU\n", b / m / 1e6 }'
			;;
		esac
	done
	for h in "${histories[@]}"; do
		med() { awk -v id="$1" -v side="$2" -v col="$3" '$1 == id && $2 == side { print $col }' "$results" | sort -n |
			awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
		echo "  $h: packs written (KiB, medians): convert $(med "pack-conv-$h" a 6), the copy $(med "pack-copy-$h" a 6)$([ -z "$config_env" ] || echo " (both with $git_config), the copy with the defaults $(med "pack-plain-$h" a 6)")"
		ex=$(med "export-$h" a 5); fi=$(med "filter-$h" a 5); im=$(med "filter-$h" b 5)
		cf=$(med "catfile-$h" a 5); tok=$(med "tokens-$h" a 6); fb=$(med "fetched-$h" a 6)
		awk -v h="$h" -v c="${commits[$h]}" -v sb="${bytes[$h]}" -v tb="$tok" -v fb="$fb" -v ex="$ex" -v fi="$fi" -v cf="$cf" -v im="$im" '
		function rate(x, t) { return x / 1e6 / (t > 0 ? t : 1e-9) }
		BEGIN {
			printf "  %s: %d commits, a full export %.1f MB; in convert: blobs read %.1f MB, tokens out %.1f MB\n", h, c, sb / 1e6, fb / 1e6, tb / 1e6
			printf "      CPU in convert: fast-export --no-data %.2f s; git cat-file %.2f s (%.1f MB/s of blobs); the filter %.2f s (%.1f MB/s of blobs, %.1f commits/s); fast-import %.2f s (%.1f MB/s of tokens)\n",
				ex, cf, rate(fb, cf), fi, rate(fb, fi), c / (fi > 0 ? fi : 1e-9), im, rate(tb, im)
		}'
	done
	echo
	echo "Raw figures (ID SIDE RUN WALL CPU RSS_KB; side a is the figure, b its pair):"
	sed 's/^/  /' "$results"
} >"$out"
sed '/^Raw figures/,$d' "$out"
echo "(table and raw figures kept in $out)"
