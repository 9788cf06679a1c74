#!/bin/sh
# make fuzz: build the libFuzzer harnesses with clang and run each for
# FUZZ_SECONDS (default 60) on seed corpora made from the test fixtures.
# FUZZ_SECONDS=0 (make fuzz-replay, as CI runs it) fuzzes nothing: each
# harness runs every input of its seed corpus once, and the checks below
# run on that corpus alone, so that a run on a given commit always ends
# the same way.
# Fails on the first finding; the crashing input is kept under
# t/fuzz/findings/ (git ignores it): copy it to t/fuzz/regressions/ as
# stream-WHAT (t/t0125-fuzz-regressions.sh runs each) or lexers-WHAT;
# the corpora start from them, so every later run replays them.
#
#   make fuzz                      # every harness, 60 s each
#   make fuzz FUZZ_SECONDS=30      # a short run
#   make fuzz-replay               # the kept corpus only, as CI runs it
#   FUZZ_HARNESSES=lexers make fuzz
#
# After the stream fuzzer, both directions are checked on its grown
# corpus: an input the filter accepts must give a stream git fast-import
# accepts (or refuses as it refuses the input itself: what only it can
# judge, such as a branch of the destination, passes the filter); and an
# input git fast-import accepts must not be refused by tokstream
# --identity (the same command line on both: none).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
seconds=${FUZZ_SECONDS:-60}
harnesses=${FUZZ_HARNESSES:-"lexers stream"}
CC=${FUZZ_CC:-clang}
work=$(mktemp -d "${TMPDIR:-/tmp}/tokstream-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p t/fuzz/findings

flags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
# the sources of the Makefile's object lists, as make expands them
make_var () {
	printf 'print-fuzz-var:\n\t@echo $(%s)\n' "$1" | make -s -f Makefile -f - print-fuzz-var |
		sed 's/\.o\>/.c/g'
}
lib=$(make_var LIB_OBJS)

seed_lexers () {
	mkdir -p "$1"
	./tokenize/tokenize --list | cut -f1 >"$work/langs"
	i=0
	for f in t/golden/*/* t/fuzz/seeds/lexers/*; do
		[ -f "$f" ] || continue
		case $f in *.view|*.positions|*.exact) continue ;; esac
		d=$(basename "$(dirname "$f")")
		idx=$(grep -n -x "$d" "$work/langs" | cut -d: -f1)
		[ -n "$idx" ] || idx=1
		{ printf "\\$(printf %o $((idx - 1)))"; cat "$f"; } >"$1/seed$i"
		i=$((i + 1))
	done
	# the lexer findings, their language byte first already
	for f in t/fuzz/regressions/lexers-*; do
		[ -f "$f" ] && cp "$f" "$1/"
	done
}

seed_stream () {
	mkdir -p "$1"
	for f in t/fixtures/streams/* t/fuzz/seeds/stream/* t/fuzz/regressions/stream-*; do
		[ -f "$f" ] && cp "$f" "$1/"
	done
	# a real stream: this project's own recent history
	git fast-export --signed-tags=strip --reencode=no --show-original-ids \
		--use-done-feature HEAD~3..HEAD >"$1/own-history" 2>/dev/null || true
}

status=0
for h in $harnesses; do
	echo "== fuzz-$h: building"
	case $h in
	lexers) $CC $flags -o "$work/fuzz-$h" t/fuzz/fuzz-lexers.c $lib ;;
	stream) objs=$(make_var TOKSTREAM_OBJS)
		$CC $flags -DTOKSTREAM_FUZZ -o "$work/fuzz-$h" t/fuzz/fuzz-stream.c $objs $lib ;;
	*) echo "unknown harness $h" >&2; exit 2 ;;
	esac
	# die() exits the real program; in the stream harness it jumps back over
	# the parser's local buffers, which a leak check would then report
	leaks=1
	[ "$h" = stream ] && leaks=0
	"seed_$h" "$work/corpus-$h"
	if [ "$seconds" = 0 ]; then
		echo "== fuzz-$h: replaying $(ls "$work/corpus-$h" | wc -l) seeds, no fuzzing"
		budget=-runs=0
	else
		echo "== fuzz-$h: $seconds s on $(ls "$work/corpus-$h" | wc -l) seeds"
		budget=-max_total_time=$seconds
	fi
	if ! ASAN_OPTIONS="detect_leaks=$leaks${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$work/fuzz-$h" "$budget" -timeout=10 -max_len=65536 \
		-rss_limit_mb=4096 -close_fd_mask=2 -print_final_stats=1 -detect_leaks=$leaks \
		-artifact_prefix="t/fuzz/findings/$h-" "$work/corpus-$h" >"$work/log-$h" 2>&1; then
		tail -n 40 "$work/log-$h"
		echo "fuzz-$h: FINDING (kept under t/fuzz/findings/)"
		status=1
	else
		grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "$work/log-$h" || true
		if [ "$seconds" = 0 ]; then
			echo "fuzz-$h: no finding in the seeds"
		else
			echo "fuzz-$h: no finding in $seconds s"
		fi
	fi
	if [ "$h" = stream ]; then
		# what the filter accepted, git fast-import must accept too
		# The one refusal the filter cannot foresee: R or C of a path that
		# the input never created; only fast-import's trees know (a limit
		# the README states).  Those are counted apart.
		accepted=0 rejected=0 treeless=0 judged=0
		for f in $(ls "$work/corpus-$h" | head -n 300); do
			rm -rf "$work/repo" "$work/raw" && git init -q --bare "$work/repo" && git init -q --bare "$work/raw"
			git -C "$work/raw" fast-import --quiet <"$work/corpus-$h/$f" >/dev/null 2>"$work/raw-err" &&
				raw_ok=1 || raw_ok=0
			# the other direction: what fast-import takes, the filter takes
			if [ $raw_ok = 1 ] && ! ./tokstream --identity <"$work/corpus-$h/$f" >/dev/null 2>"$work/f-err"; then
				cp "$work/corpus-$h/$f" "t/fuzz/findings/stream-filter-refuses-$f"
				echo "fuzz-stream: the filter refuses corpus input $f, which git fast-import accepts:"
				sed -n '1,3s/^/fuzz-stream:   /p' "$work/f-err"
				status=1
			fi
			if ./tokstream <"$work/corpus-$h/$f" >"$work/out" 2>/dev/null; then
				if git -C "$work/repo" fast-import --quiet <"$work/out" >/dev/null 2>"$work/fi-err"; then
					accepted=$((accepted + 1))
				# C: a path of any bytes, not only valid UTF-8, matches .
				elif LC_ALL=C grep -q "^fatal: Path .* not in branch$" "$work/fi-err"; then
					treeless=$((treeless + 1))
				# passed for fast-import to judge, and judged as the input is
				elif [ $raw_ok = 0 ] && [ "$(grep "^fatal: " "$work/fi-err")" = "$(grep "^fatal: " "$work/raw-err")" ]; then
					judged=$((judged + 1))
				else
					cp "$work/corpus-$h/$f" "t/fuzz/findings/stream-fast-import-rejects-$f"
					echo "fuzz-stream: git fast-import rejects the output for corpus input $f:"
					sed -n '1,3s/^/fuzz-stream:   /p' "$work/fi-err"
					status=1
				fi
			else
				rejected=$((rejected + 1))
			fi
		done
		echo "fuzz-stream: of the corpus, $accepted outputs accepted by git fast-import, $rejected inputs refused with a fatal error, $treeless renaming or copying a path the input never created, $judged passed and refused by git fast-import as the input is"
	fi
done
exit $status
