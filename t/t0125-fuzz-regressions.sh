#!/bin/sh

test_description='tokstream on hostile streams: every fuzz finding, every truncation

Every input the fuzzers ever flagged is kept under t/fuzz/regressions/
(stream-*: stream inputs) and run here: the filter either refuses it with
exit 128, one fatal line and no "done", or its output ends in "done" and
git fast-import accepts it, or refuses it exactly as it refuses the
unfiltered input (an R or C of a path the input never created, a limit
the README states; or what the filter leaves to fast-import, such as a
branch of the destination).  And an input git fast-import accepts is
never refused by tokstream --identity.  And a real
stream cut at every offset, the whole sweep, is always refused cleanly.'

. ./test-lib.sh

# check_streams LIST: each stream input named in LIST is refused cleanly,
# or accepted as git fast-import accepts it
check_streams () {
	while read f
	do
		echo "== ${f##*/}" &&
		rm -rf fi.git raw.git &&
		if "$TOKSTREAM" <"$f" >out 2>err
		then
			test_must_be_empty err &&
			test "$(tail -n 1 out)" = done &&
			git init -q --bare fi.git &&
			if git -C fi.git fast-import --quiet <out 2>fi-err
			then
			echo "accepted by git fast-import"
			else
			# the same refusal, for the same reason, without the filter
			# (a path never created; or what the filter passes for
			# fast-import to judge, such as a branch of the destination)
			cat fi-err &&
			grep "^fatal: " fi-err >why &&
			git init -q --bare raw.git &&
			test_must_fail git -C raw.git fast-import --quiet <"$f" 2>raw-err &&
			grep "^fatal: " raw-err >raw-why &&
			test_cmp raw-why why &&
			echo "refused by git fast-import as the unfiltered input is: $(cat why)"
			fi
		else
			test_expect_code 128 "$TOKSTREAM" <"$f" >out 2>err &&
			test_line_count = 1 err &&
			grep "^tokstream: fatal: " err &&
			! grep "^done$" out &&
			# and the other direction: what fast-import takes, the filter takes
			git init -q --bare raw.git &&
			if git -C raw.git fast-import --quiet <"$f" 2>raw-err
			then
				"$TOKSTREAM" --identity <"$f" >out
			fi
		fi || { echo "FAILED: $f"; return 1; }
	done <"$1"
}

test_expect_success 'every stream finding of the fuzzers: refused cleanly, or accepted as git fast-import accepts it' '
	ls "$TEST_DIRECTORY"/fuzz/regressions/stream-* | grep -v "/stream-open-" >inputs &&
	test_file_not_empty inputs &&
	check_streams inputs
'

# Findings not fixed yet (the filter accepts what git fast-import refuses)
# are kept as stream-open-*: known breakages until they are fixed.
for f in "$TEST_DIRECTORY"/fuzz/regressions/stream-open-*
do
	test -f "$f" || continue
	test_expect_failure "open fuzz finding ${f##*/}: refused cleanly, or accepted as git fast-import accepts it" '
		echo "$f" >inputs &&
		check_streams inputs
	'
done

test_expect_success 'setup: a real exported history with the done feature' '
	git init -q src &&
	(
		cd src &&
		for i in 1 2 3 4
		do
			printf "int f%d(void)\n{\n\treturn %d; /* \"q\" */\n}\n" $i $i >f$i.c &&
			printf "x\000%d\r\n" $i >data$i.bin &&
			printf "def g%d():\n    return \"%d\"\n" $i $i >"sp ace$i.py" &&
			git add . &&
			test_tick &&
			git commit -q -m "commit $i" || return 1
		done &&
		git tag -a -m "a tag" v1 &&
		test_merge_side HEAD~1 &&
		git notes add -m "a note" HEAD~1 &&
		git rm -q f1.c &&
		test_tick &&
		git commit -q -m "delete f1.c"
	) &&
	git -C src fast-export --all --use-done-feature --show-original-ids >export &&
	"$TOKSTREAM" <export >whole &&
	test "$(tail -n 1 whole)" = done &&
	git init -q --bare whole.git &&
	git -C whole.git fast-import --quiet <whole &&
	wc -c <export >size &&
	test $(cat size) -gt 1500
'

test_expect_success 'the stream cut at every offset from 1 byte to all but one: always exit 128, one fatal line, never "done"' '
	size=$(cat size) &&
	off=1 &&
	while test $off -lt $size
	do
		head -c $off export >cut &&
		{ "$TOKSTREAM" <cut >out 2>err; status=$?; true; } &&
		test $status = 128 &&
		{ read -r first && ! read -r second; } <err &&
		case "$first" in
		"tokstream: fatal: "*) true ;;
		*) false ;;
		esac &&
		! grep -q "^done$" out &&
		off=$(($off + 1)) || {
			echo "the stream cut after $off bytes: exit $status" &&
			cat err
			return 1
		}
	done &&
	echo "$(($off - 1)) offsets swept (1 to $(($size - 1)) bytes), every one refused" &&
	test $off = $size
'

test_done
