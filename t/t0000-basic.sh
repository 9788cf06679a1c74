#!/bin/sh

test_description='the test library itself

Runs small test scripts with test-lib.sh and checks their TAP output and
exit status, so that a broken test library shows as failing here rather
than as every other script passing.'

. ./test-lib.sh

# run_sub_test_lib_test NAME [OPTION...] <BODY: write NAME/NAME.sh (the
# body after the test-lib line), run it with its trash directory inside
# NAME/, its TAP output in NAME/out and its stderr in NAME/err; returns
# its exit status.
run_sub_test_lib_test () {
	sub_name_=$1
	shift
	mkdir "$sub_name_" &&
	{
		printf '#!/bin/sh\ntest_description="sub-test %s"\n' "$sub_name_" &&
		printf '. "$TEST_DIRECTORY"/test-lib.sh\n' &&
		cat
	} >"$sub_name_/$sub_name_.sh" &&
	chmod +x "$sub_name_/$sub_name_.sh" &&
	(
		cd "$sub_name_" &&
		TEST_OUTPUT_DIRECTORY=$(pwd) &&
		export TEST_DIRECTORY TEST_OUTPUT_DIRECTORY &&
		unset TEST_KEEP TEST_CHAIN_LINT &&
		./"$sub_name_.sh" "$@" >out 2>err
	)
}

# check_sub_test_lib_test NAME <EXPECTED: NAME/out must equal EXPECTED
# (each line of which may start with "> " to keep its leading blanks).
check_sub_test_lib_test () {
	sed -e 's/^> //' >"$1/expect" &&
	test_cmp "$1/expect" "$1/out"
}

test_expect_success 'the trash directory is the current directory and HOME' '
	test "$(pwd)" = "$TEST_OUTPUT_DIRECTORY/trash.t0000-basic" &&
	test "$HOME" = "$(pwd)" &&
	test "$TRASH_DIRECTORY" = "$(pwd)" &&
	test_path_is_file "$TEST_DIRECTORY/t0000-basic.sh" &&
	test_path_is_file .gitconfig
'

test_expect_success 'TOKENIZE and TOKSTREAM name the built programs; the root is first on PATH' '
	test "$TOKENIZE" = "$(cd "$TEST_DIRECTORY/.." && pwd -P)/tokenize/tokenize" &&
	test "$TOKSTREAM" = "$(cd "$TEST_DIRECTORY/.." && pwd -P)/tokstream" &&
	test -x "$TOKENIZE" &&
	test "${PATH%%:*}" = "$(cd "$TEST_DIRECTORY/.." && pwd -P)"
'

test_expect_success 'test code runs in the shell of the script (no subshell)' '
	variable_from_a_test=set-here
'

test_expect_success '... so a later test sees what an earlier one set' '
	test "$variable_from_a_test" = set-here
'

test_expect_success 'a passing test is reported as ok and the trash directory is removed' '
	run_sub_test_lib_test passing <<-\EOF &&
	test_expect_success "passing test" "true"
	test_done
	EOF
	check_sub_test_lib_test passing <<-\EOF &&
	ok 1 - passing test
	# passed all 1 test(s)
	1..1
	EOF
	test_path_is_dir passing &&
	test_path_is_missing passing/trash.passing
'

test_expect_success 'a failing test is reported as not ok with its code, and the script fails' '
	test_expect_code 1 run_sub_test_lib_test failing <<-\EOF &&
	test_expect_success "passing test" "true"
	test_expect_success "failing test" "
		echo some output &&
		false
	"
	test_expect_success "another passing test" "true"
	test_done
	EOF
	check_sub_test_lib_test failing <<-EOF &&
	ok 1 - passing test
	not ok 2 - failing test
	#	
	#	echo some output &&
	#	false
	#	
	# --- output of the test ---
	# > some output
	ok 3 - another passing test
	# failed 1 among 3 test(s); trash directory kept: $(pwd)/failing/trash.failing
	1..3
	EOF
	test_path_is_dir failing/trash.failing
'

test_expect_success 'prove counts a failing sub-test as a failure' '
	test_expect_code 1 run_sub_test_lib_test proved <<-\EOF &&
	test_expect_success "failing test" "false"
	test_done
	EOF
	(
		cd proved &&
		TEST_OUTPUT_DIRECTORY=$(pwd) &&
		export TEST_DIRECTORY TEST_OUTPUT_DIRECTORY &&
		test_must_fail prove ./proved.sh >../prove.out 2>&1
	) &&
	grep "Failed 1/1 subtests" prove.out
'

test_expect_success 'the exit status of the code decides, not its output' '
	test_expect_code 1 run_sub_test_lib_test status <<-\EOF &&
	test_expect_success "prints but fails" "echo ok; (exit 3)"
	test_expect_success "prints to stderr but succeeds" "echo error >&2 && true"
	test_done
	EOF
	grep "^not ok 1 - prints but fails" status/out &&
	grep "^ok 2 - prints to stderr but succeeds" status/out
'

test_expect_success 'a broken &&-chain fails the test, unless --no-chain-lint' '
	cat >chain.body <<-\EOF &&
	test_expect_success "broken chain" "
		false
		true
	"
	test_done
	EOF
	test_expect_code 1 run_sub_test_lib_test chain <chain.body &&
	grep "^not ok 1 - broken chain" chain/out &&
	grep "broken &&-chain" chain/out &&
	run_sub_test_lib_test nolint --no-chain-lint <chain.body &&
	grep "^ok 1 - broken chain" nolint/out
'

test_expect_success 'test_expect_failure: a known breakage is TODO, a fixed one is reported' '
	run_sub_test_lib_test todo <<-\EOF &&
	test_expect_failure "still broken" "false"
	test_expect_failure "now fixed" "true"
	test_done
	EOF
	check_sub_test_lib_test todo <<-\EOF
	not ok 1 - still broken # TODO known breakage
	ok 2 - now fixed # TODO known breakage vanished
	# 1 known breakage(s) vanished; please update test(s)
	# still have 1 known breakage(s)
	# passed all 2 test(s)
	1..2
	EOF
'

test_expect_success 'test_skip shows its title and reason; a skip without reason is a bug' '
	run_sub_test_lib_test skip <<-\EOF &&
	test_skip "a skipped test" "the reason, shown"
	test_expect_success "a test after it" "true"
	test_done
	EOF
	check_sub_test_lib_test skip <<-\EOF &&
	ok 1 # skip a skipped test (the reason, shown)
	ok 2 - a test after it
	# passed all 2 test(s)
	1..2
	EOF
	test_must_fail run_sub_test_lib_test noreason <<-\EOF &&
	test_skip "a skipped test" ""
	test_done
	EOF
	grep "bug in the test script" noreason/err
'

test_expect_success 'prerequisites: lazy ones run once; a missing one is a visible skip' '
	run_sub_test_lib_test prereq <<-\EOF &&
	test_lazy_prereq HAVE "echo evaluated >>\"\$HOME/count\" && true"
	test_lazy_prereq LACK "false"
	test_set_prereq SET
	test_expect_success HAVE "needs HAVE" "true"
	test_expect_success HAVE,LACK "needs HAVE and LACK" "false"
	test_expect_success !LACK "needs no LACK" "true"
	test_expect_success !HAVE "needs no HAVE" "false"
	test_expect_success SET "needs SET" "true"
	test_expect_success "HAVE was evaluated once" "
		test_have_prereq HAVE &&
		! test_have_prereq LACK &&
		test_line_count = 1 \"\$HOME/count\"
	"
	test_done
	EOF
	check_sub_test_lib_test prereq <<-\EOF
	ok 1 - needs HAVE
	ok 2 # skip needs HAVE and LACK (missing LACK)
	ok 3 - needs no LACK
	ok 4 # skip needs no HAVE (missing !HAVE)
	ok 5 - needs SET
	ok 6 - HAVE was evaluated once
	# passed all 6 test(s)
	1..6
	EOF
'

test_expect_success 'test_must_fail accepts a failure, not a success, a signal or a missing command' '
	test_must_fail false &&
	test_must_fail sh -c "exit 129" &&
	! test_must_fail true 2>err &&
	grep "command succeeded" err &&
	! test_must_fail sh -c "kill -9 \$\$" 2>err &&
	grep "died by signal 9" err &&
	! test_must_fail sh -c "kill -TERM \$\$" 2>err &&
	grep "died by signal 15" err &&
	! test_must_fail ./no-such-command-here 2>err &&
	grep "command not found" err &&
	test_must_fail ok=success true
'

test_expect_success 'test_expect_code wants exactly the code' '
	test_expect_code 3 sh -c "exit 3" &&
	test_expect_code 0 true &&
	! test_expect_code 4 sh -c "exit 3" 2>err &&
	grep "exited with 3, we wanted 4" err &&
	! test_expect_code 1 true 2>err
'

test_expect_success 'test_line_count and test_cmp can fail' '
	test_write_lines a b c >three &&
	test_line_count = 3 three &&
	test_line_count -gt 2 three &&
	! test_line_count = 2 three >out &&
	grep "line count for three !=" out &&
	test_write_lines a b c >same &&
	test_cmp three same &&
	test_write_lines a B c >other &&
	! test_cmp three other >diff &&
	grep "^-b" diff &&
	grep "^+B" diff &&
	: >empty &&
	test_must_be_empty empty &&
	! test_must_be_empty three >out &&
	test_path_is_missing nothing-here &&
	! test_path_is_file nothing-here >out
'

test_expect_success 'test_when_finished runs its cleanup after a passing or a failing test' '
	test_expect_code 1 run_sub_test_lib_test cleanup <<-\EOF &&
	test_expect_success "passing" "
		test_when_finished \"rm -f one\" &&
		: >one
	"
	test_expect_success "failing" "
		test_when_finished \"rm -f two\" &&
		: >two &&
		false
	"
	test_expect_success "both were removed" "
		test_path_is_missing one &&
		test_path_is_missing two
	"
	test_done
	EOF
	grep "^ok 1 - passing" cleanup/out &&
	grep "^not ok 2 - failing" cleanup/out &&
	grep "^ok 3 - both were removed" cleanup/out
'

test_expect_success 'test_section: the tests after it start in a directory of their own' '
	run_sub_test_lib_test section <<-\EOF &&
	test_expect_success "before any section: the trash directory" "
		test \"\$(pwd)\" = \"\$TRASH_DIRECTORY\" &&
		mkdir elsewhere && cd elsewhere && : >top
	"
	test_section first
	test_expect_success "in first, whatever the last test left" "
		test \"\$(pwd)\" = \"\$TRASH_DIRECTORY/first\" &&
		: >same-name && cd ..
	"
	test_expect_success "still in first" "
		test \"\$(pwd)\" = \"\$TRASH_DIRECTORY/first\" &&
		test_path_is_file same-name
	"
	test_section second
	test_expect_success "in second: the same name is another file" "
		test \"\$(pwd)\" = \"\$TRASH_DIRECTORY/second\" &&
		test_path_is_missing same-name &&
		test_path_is_file ../elsewhere/top
	"
	test_done
	EOF
	grep "^# first\$" section/out &&
	grep "^# second\$" section/out &&
	grep "^ok 4 - in second" section/out &&
	! grep "^not ok" section/out
'

test_expect_success '--debug and TEST_KEEP=1 keep the trash directory of a passing script' '
	run_sub_test_lib_test debug --debug <<-\EOF &&
	test_expect_success "leaves a file" ": >left-behind"
	test_done
	EOF
	test_path_is_file debug/trash.debug/left-behind &&
	cat >keep.body <<-\EOF &&
	test_expect_success "leaves a file" ": >left-behind"
	test_done
	EOF
	run_sub_test_lib_test nokeep <keep.body &&
	test_path_is_missing nokeep/trash.nokeep &&
	mkdir keep &&
	cp nokeep/nokeep.sh keep/keep.sh &&
	(
		cd keep &&
		TEST_OUTPUT_DIRECTORY=$(pwd) TEST_KEEP=1 &&
		export TEST_DIRECTORY TEST_OUTPUT_DIRECTORY TEST_KEEP &&
		./keep.sh >out 2>err
	) &&
	test_path_is_file keep/trash.keep/left-behind
'

test_expect_success '--immediate stops at the first failure' '
	test_expect_code 1 run_sub_test_lib_test immediate --immediate <<-\EOF &&
	test_expect_success "first fails" "false"
	test_expect_success "never run" "true"
	test_done
	EOF
	grep "^not ok 1 - first fails" immediate/out &&
	! grep "never run" immediate/out
'

test_expect_success '--verbose shows the output of passing tests' '
	run_sub_test_lib_test verbose --verbose <<-\EOF &&
	test_expect_success "talks" "echo visible-output"
	test_done
	EOF
	grep "^visible-output" verbose/out &&
	run_sub_test_lib_test quiet <<-\EOF &&
	test_expect_success "talks" "echo visible-output"
	test_done
	EOF
	! grep visible-output quiet/out
'

test_expect_success 'an exit without test_done is reported as fatal' '
	test_must_fail run_sub_test_lib_test early <<-\EOF &&
	test_expect_success "passing" "true"
	exit 0
	EOF
	grep "FATAL: Unexpected exit with code 0" early/err
'

test_expect_success 'the environment is hermetic' '
	test "$LC_ALL" = C &&
	test "$TZ" = UTC &&
	test "$GIT_CONFIG_NOSYSTEM" = 1 &&
	test "$GIT_AUTHOR_NAME" = "A U Thor" &&
	test "$GIT_AUTHOR_EMAIL" = author@example.com &&
	test "$GIT_COMMITTER_NAME" = "C O Mitter" &&
	test "$GIT_COMMITTER_EMAIL" = committer@example.com &&
	test "$(git config init.defaultBranch)" = main &&
	(
		GIT_DIR=/nowhere/.git GIT_WORK_TREE=/nowhere &&
		export GIT_DIR GIT_WORK_TREE &&
		run_sub_test_lib_test env <<-\EOF
		test_expect_success "no GIT_ variable from outside" "
			test -z \"\$GIT_DIR\" &&
			test -z \"\$GIT_WORK_TREE\"
		"
		test_done
		EOF
	) &&
	grep "^ok 1 - no GIT_ variable from outside" env/out
'

test_expect_success 'git finds no repository above the trash directory' '
	mkdir not-a-repo &&
	(
		cd not-a-repo &&
		test_must_fail git rev-parse --git-dir 2>err &&
		grep "not a git repository" err
	)
'

test_expect_success 'git init gives branch main; commits are reproducible' '
	git init -q one &&
	test "$(git -C one symbolic-ref HEAD)" = refs/heads/main &&
	echo content >one/file &&
	git -C one add file &&
	git -C one commit -q -m first &&
	sleep 1 &&
	git init -q two &&
	echo content >two/file &&
	git -C two add file &&
	git -C two commit -q -m first &&
	test "$(git -C one rev-parse HEAD)" = "$(git -C two rev-parse HEAD)" &&
	git -C one log -1 --format="%an <%ae> %ad|%cn <%ce> %cd" --date=raw >actual &&
	echo "A U Thor <author@example.com> 1112911993 -0700|C O Mitter <committer@example.com> 1112911993 -0700" >expect &&
	test_cmp expect actual
'

test_expect_success 'test_tick moves both dates on by 60 seconds' '
	test "$GIT_AUTHOR_DATE" = "1112911993 -0700" &&
	test_tick &&
	test "$GIT_AUTHOR_DATE" = "1112912053 -0700" &&
	test "$GIT_COMMITTER_DATE" = "1112912053 -0700" &&
	test_tick &&
	test "$GIT_COMMITTER_DATE" = "1112912113 -0700"
'

test_done
