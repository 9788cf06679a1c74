# The test library, in the style of Git's t/test-lib.sh.
#
# A test script sets test_description, sources this file from t/ (". ./test-lib.sh"),
# runs tests with test_expect_success and ends with test_done.  The output
# is TAP, so `prove ./t0000-basic.sh` runs a script.  See t/README.
#
# Options a test script takes:
#   -v, --verbose        show the output of the tests (it is captured and
#                        shown only for failing tests otherwise)
#   -d, --debug          keep the trash directory even when all tests pass
#   -i, --immediate      stop at the first failing test
#   -x, --trace          trace the test code (set -x) into its output
#   --no-chain-lint      do not check the &&-chains of the tests
#   -h, --help           print test_description and exit

# Where the tests are (absolute), and where their trash directories go.
if test -z "$TEST_DIRECTORY"
then
	TEST_DIRECTORY=$(pwd -P)
else
	TEST_DIRECTORY=$(cd "$TEST_DIRECTORY" && pwd -P) || exit 1
fi
if ! test -f "$TEST_DIRECTORY/test-lib.sh"
then
	echo >&2 "error: TEST_DIRECTORY ($TEST_DIRECTORY) has no test-lib.sh; run the tests from t/"
	exit 1
fi
if test -z "$TEST_OUTPUT_DIRECTORY"
then
	TEST_OUTPUT_DIRECTORY=$TEST_DIRECTORY
else
	TEST_OUTPUT_DIRECTORY=$(cd "$TEST_OUTPUT_DIRECTORY" && pwd -P) || exit 1
fi

REPO_ROOT=$(cd "$TEST_DIRECTORY/.." && pwd -P)
TOKSTREAM=$REPO_ROOT/tokstream
TOKENIZE=$REPO_ROOT/tokenize/tokenize
PATH=$REPO_ROOT:$PATH
export PATH

this_test=${0##*/}
this_test=${this_test%.sh}
TRASH_DIRECTORY=$TEST_OUTPUT_DIRECTORY/trash.$this_test

# Options.
verbose= debug= immediate= trace= help=
chain_lint=${TEST_CHAIN_LINT-t}
test "$chain_lint" = 0 && chain_lint=
test "$TEST_KEEP" = 1 && debug=t
while test $# -gt 0
do
	case "$1" in
	-v|--verbose) verbose=t ;;
	-d|--debug) debug=t ;;
	-i|--immediate) immediate=t ;;
	-x|--trace) trace=t ;;
	--chain-lint) chain_lint=t ;;
	--no-chain-lint) chain_lint= ;;
	-h|--help) help=t ;;
	*) echo >&2 "error: unknown test option '$1'"; exit 1 ;;
	esac
	shift
done

if test -n "$help"
then
	printf '%s\n' "$test_description"
	exit 0
fi

# A hermetic environment, as Git's test-lib makes it.
LC_ALL=C
LANG=C
TZ=UTC
export LC_ALL LANG TZ
unset LANGUAGE LC_CTYPE CDPATH XDG_CONFIG_HOME GREP_OPTIONS
for test_var_ in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
do
	unset "$test_var_"
done
GIT_CONFIG_NOSYSTEM=1
GIT_ATTR_NOSYSTEM=1
GIT_CEILING_DIRECTORIES=$TEST_OUTPUT_DIRECTORY
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL=committer@example.com
GIT_MERGE_AUTOEDIT=no
GIT_PAGER=cat
PAGER=cat
EDITOR=:
export GIT_CONFIG_NOSYSTEM GIT_ATTR_NOSYSTEM GIT_CEILING_DIRECTORIES \
	GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	GIT_MERGE_AUTOEDIT GIT_PAGER PAGER EDITOR

# Fixed dates; test_tick moves them on by 60 seconds.
test_tick=1112911993
GIT_AUTHOR_DATE="$test_tick -0700"
GIT_COMMITTER_DATE="$test_tick -0700"
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE

test_tick () {
	test_tick=$(($test_tick + 60))
	GIT_COMMITTER_DATE="$test_tick -0700"
	GIT_AUTHOR_DATE="$test_tick -0700"
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}

# commit_as [-C REPO] [-a] [--at=DATE] [--mail=EMAIL] NAME [GIT-COMMIT-OPTIONS...]:
# the tests' commit helper.  It commits in REPO (default: the current
# directory) with NAME <EMAIL> as the author; the committer stays the
# library's, C O Mitter <committer@example.com>.
#   -C REPO       the repository to commit in
#   -a            stage every change of REPO's work tree first (git add -A);
#                 without it, what is staged is committed
#   --at=DATE     author and commit at DATE (any date git reads), leaving
#                 test_tick alone; without it, at the next test_tick
#   --mail=EMAIL  the author's address; the default is NAME@example.org
#   NAME          the author's name; "-" keeps the library's author,
#                 A U Thor <author@example.com> (and takes no --mail)
# The rest are options of git commit (-m MESSAGE, --allow-empty, ...),
# which runs quietly (-q).
commit_as () {
	commit_as_repo_=. commit_as_all_= commit_as_at_= commit_as_mail_=
	while test $# -gt 0
	do
		case "$1" in
		-C)
			test $# -ge 2 || BUG "commit_as: -C needs a repository"
			commit_as_repo_=$2
			shift
			;;
		-a) commit_as_all_=t ;;
		--at=*) commit_as_at_=${1#--at=} ;;
		--mail=*) commit_as_mail_=${1#--mail=} ;;
		*) break ;;
		esac
		shift
	done
	test $# -ge 1 || BUG "commit_as: no author NAME"
	case "$1" in
	-?*) BUG "commit_as: '$1' is not an author NAME (the options come first)" ;;
	-)
		test -z "$commit_as_mail_" || BUG "commit_as: the author - takes no --mail"
		commit_as_name_=$GIT_AUTHOR_NAME
		commit_as_mail_=$GIT_AUTHOR_EMAIL
		;;
	*)
		commit_as_name_=$1
		commit_as_mail_=${commit_as_mail_:-$1@example.org}
		;;
	esac
	shift
	if test -n "$commit_as_all_"
	then
		git -C "$commit_as_repo_" add -A || return 1
	fi
	if test -z "$commit_as_at_"
	then
		test_tick
		commit_as_at_=$GIT_COMMITTER_DATE
	fi
	GIT_AUTHOR_NAME=$commit_as_name_ GIT_AUTHOR_EMAIL=$commit_as_mail_ \
	GIT_AUTHOR_DATE=$commit_as_at_ GIT_COMMITTER_DATE=$commit_as_at_ \
	git -C "$commit_as_repo_" commit -q "$@"
}

# declarations PREFIX N: N lines "int PREFIX_I;" on stdout, 3 tokens each,
# no run of them like another file's: files of known token counts
declarations () {
	declarations_i_=1
	while test $declarations_i_ -le $2
	do
		echo "int $1_$declarations_i_;" &&
		declarations_i_=$((declarations_i_ + 1)) || return 1
	done
}

# test_merge_side FORK: in the repository of the current directory, fork
# a branch "side" at FORK, commit side.c on it, and merge it into main,
# so that a fixture's history has a merge.
test_merge_side () {
	git checkout -q -b side "$1" &&
	echo side >side.c &&
	git add side.c &&
	commit_as - -m side &&
	git checkout -q main &&
	test_tick &&
	git merge -q --no-edit side
}

# File descriptors: 1 is the TAP stream, 7 the original stderr; the code
# of a test writes to 3 (its stdout) and 4 (its stderr).
exec 7>&2
test_output_file_=
if test -n "$verbose"
then
	exec 3>&1 4>&2
else
	test_output_file_=${TMPDIR:-/tmp}/tokstream-test-output.$this_test.$$
	: >"$test_output_file_" || exit 1
	exec 3>>"$test_output_file_" 4>&3
fi

test_count=0
test_success=0
test_failure=0
test_fixed=0
test_broken=0
test_skipped=0
test_exit_ok_=

say () {
	printf '%s\n' "$*"
}

error () {
	say >&7 "error: $*"
	test_exit_ok_=t
	exit 1
}

BUG () {
	error "bug in the test script: $*"
}

test_atexit_ () {
	test_code_=$?
	test -n "$test_output_file_" && rm -f "$test_output_file_"
	test -n "$test_valgrind_dir_" && rm -rf "$test_valgrind_dir_"
	if test -n "$test_exit_ok_"
	then
		exit $test_code_
	fi
	say >&7 "FATAL: Unexpected exit with code $test_code_"
	say "# FATAL: unexpected exit with code $test_code_ after $test_count test(s)"
	exit 1
}
trap 'test_atexit_' EXIT
trap 'exit $?' INT TERM HUP

# The trash directory: fresh for every run.
case "$this_test" in
''|*/*) BUG "cannot tell the test's name from \$0 ($0)" ;;
esac
if test -e "$TRASH_DIRECTORY"
then
	rm -rf "$TRASH_DIRECTORY" 2>/dev/null ||
	{ chmod -R u+rwx "$TRASH_DIRECTORY" && rm -rf "$TRASH_DIRECTORY"; } ||
	error "cannot remove the old trash directory $TRASH_DIRECTORY"
fi
mkdir -p "$TRASH_DIRECTORY" || error "cannot create $TRASH_DIRECTORY"
HOME=$TRASH_DIRECTORY
export HOME
printf '[init]\n\tdefaultBranch = main\n' >"$HOME/.gitconfig" ||
	error "cannot write $HOME/.gitconfig"
cd "$TRASH_DIRECTORY" || error "cannot enter $TRASH_DIRECTORY"
test_start_dir_=$TRASH_DIRECTORY

if ! test -x "$TOKENIZE"
then
	say "Bail out! $TOKENIZE is not built: run make first"
	test_exit_ok_=t
	exit 1
fi

# TOKSTREAM_VALGRIND=1: $TOKSTREAM runs under valgrind's memcheck.  Any
# memcheck error makes it exit 126, which no test accepts (test_must_fail
# and test_expect_code refuse it, and a success expected is not one), and
# memcheck's report goes to its stderr.  The wrapper lives outside the
# trash directory; the tests that call tokstream through PATH, and the
# children convert starts, are not wrapped.
test_valgrind_dir_=
if test -n "$TOKSTREAM_VALGRIND" && test "$TOKSTREAM_VALGRIND" != 0
then
	command -v valgrind >/dev/null 2>&1 || {
		say "Bail out! TOKSTREAM_VALGRIND is set and valgrind is not on PATH"
		test_exit_ok_=t
		exit 1
	}
	test_valgrind_dir_=${TMPDIR:-/tmp}/tokstream-valgrind.$this_test.$$
	mkdir -p "$test_valgrind_dir_" &&
	printf '#!/bin/sh\nexec valgrind -q --tool=memcheck --error-exitcode=126 --leak-check=no --track-origins=no --trace-children=no "%s" "$@"\n' \
		"$REPO_ROOT/tokstream" >"$test_valgrind_dir_/tokstream" &&
	chmod +x "$test_valgrind_dir_/tokstream" ||
		error "cannot write the valgrind wrapper in $test_valgrind_dir_"
	TOKSTREAM=$test_valgrind_dir_/tokstream
fi

# Prerequisites.
satisfied_prereq_=' '
unsatisfied_prereq_=' '
lazy_prereqs_=' '

test_prereq_name_ok_ () {
	case "$1" in
	''|*[!A-Za-z0-9_]*) BUG "bad prerequisite name '$1'" ;;
	esac
}

test_set_prereq () {
	test_prereq_name_ok_ "$1"
	satisfied_prereq_="$satisfied_prereq_$1 "
}

# test_tmpfs_prereq: sets the prerequisite TMPFS when a small tmpfs can
# be mounted here (a full disk on demand; root only), else tmpfs_reason
# to why not, for test_skip
test_tmpfs_prereq () {
	tmpfs_reason=
	if test "$(id -u)" != 0
	then
		tmpfs_reason="not root: mount -t tmpfs needs root"
	elif ! { mkdir -p tmpfs-probe && mount -t tmpfs -o size=64k tmpfs tmpfs-probe 2>mount-err; }
	then
		tmpfs_reason="mount -t tmpfs failed: $(head -n 1 mount-err)"
	else
		umount tmpfs-probe && rmdir tmpfs-probe && test_set_prereq TMPFS
	fi
}

# test_lazy_prereq NAME 'code': NAME holds when code succeeds; the code
# runs once, on first use, in a subshell inside a scratch directory.
test_lazy_prereq () {
	test $# = 2 || BUG "test_lazy_prereq needs NAME and CODE"
	test_prereq_name_ok_ "$1"
	lazy_prereqs_="$lazy_prereqs_$1 "
	eval "test_prereq_code_$1=\$2"
}

test_eval_lazy_prereq_ () {
	test_prereq_dir_=$TRASH_DIRECTORY/prereq-test-dir-$1
	mkdir -p "$test_prereq_dir_" || return 1
	eval "test_prereq_script_=\$test_prereq_code_$1"
	(
		cd "$test_prereq_dir_" &&
		eval "$test_prereq_script_"
	) </dev/null >&3 2>&4
	test_prereq_ret_=$?
	rm -rf "$test_prereq_dir_"
	return $test_prereq_ret_
}

# test_have_prereq A,B,!C: true when A and B hold and C does not; sets
# test_missing_prereq_ to those that stop it.
test_have_prereq () {
	test_missing_prereq_=
	test_prereq_ok_=t
	test_save_ifs_=$IFS
	IFS=,
	set -- $1
	IFS=$test_save_ifs_
	for test_prereq_
	do
		test_negative_=
		case "$test_prereq_" in
		!*) test_negative_=t; test_prereq_=${test_prereq_#!} ;;
		esac
		test_prereq_name_ok_ "$test_prereq_"
		case "$satisfied_prereq_$unsatisfied_prereq_" in
		*" $test_prereq_ "*) ;;
		*)
			case "$lazy_prereqs_" in
			*" $test_prereq_ "*)
				if test_eval_lazy_prereq_ "$test_prereq_"
				then
					satisfied_prereq_="$satisfied_prereq_$test_prereq_ "
				else
					unsatisfied_prereq_="$unsatisfied_prereq_$test_prereq_ "
				fi
				;;
			esac
			;;
		esac
		case "$satisfied_prereq_" in
		*" $test_prereq_ "*) test_has_=t ;;
		*) test_has_= ;;
		esac
		if { test -n "$test_has_" && test -z "$test_negative_"; } ||
		   { test -z "$test_has_" && test -n "$test_negative_"; }
		then
			:
		else
			test_prereq_ok_=
			test_missing_prereq_="${test_missing_prereq_:+$test_missing_prereq_,}${test_negative_:+!}$test_prereq_"
		fi
	done
	test -n "$test_prereq_ok_"
}

# Running one test.
test_eval_inner_ () {
	eval "
		test -n \"\$trace\" && set -x
		$1"
}

test_eval_ () {
	{
		test_eval_inner_ "$1" </dev/null >&3 2>&4
		test_eval_ret_=$?
		test -n "$trace" && set +x
	} 2>/dev/null
	return $test_eval_ret_
}

test_when_finished () {
	test -n "$test_in_test_" ||
		BUG "test_when_finished must be called inside a test"
	test_cleanup_="{ $*
		} && (exit \"\$test_run_ret_\"); test_run_ret_=\$?; $test_cleanup_"
}

test_show_failure_ () {
	printf '%s\n' "$1" | sed -e 's/^/#	/'
	if test -n "$test_output_file_" && test -s "$test_output_file_"
	then
		test_lines_=$(wc -l <"$test_output_file_")
		if test "$test_lines_" -gt 200
		then
			say "# --- output of the test (last 200 of $test_lines_ lines) ---"
		else
			say "# --- output of the test ---"
		fi
		tail -n 200 "$test_output_file_" | sed -e 's/^/# > /'
	fi
}

# test_section NAME: the tests after it start in a directory of their
# own, NAME in the trash directory, so that the parts of a script that
# tests one area from several sides keep their files apart.
test_section () {
	test -z "$test_in_test_" || BUG "test_section must be called outside a test"
	mkdir -p "$TRASH_DIRECTORY/$1" || error "cannot create $TRASH_DIRECTORY/$1"
	test_start_dir_=$TRASH_DIRECTORY/$1
	cd "$test_start_dir_" || error "cannot enter $test_start_dir_"
	say "# $1"
}

# Runs the code; returns 0 when it succeeded, 1 when it failed, 2 when
# its &&-chain is broken.
test_run_ () {
	test_in_test_=t
	cd "$test_start_dir_" || BUG "cannot enter $test_start_dir_"
	test_cleanup_=:
	test -n "$test_output_file_" && : >"$test_output_file_"
	test_lint_ret_=117
	if test -n "$chain_lint"
	then
		( test_eval_ "(exit 117) && $1" )
		test_lint_ret_=$?
	fi
	if test "$test_lint_ret_" != 117
	then
		test -n "$test_output_file_" && : >"$test_output_file_"
		echo >&4 "broken &&-chain: a command of this test can fail without failing the test (or a here-document runs away); join every command with &&"
		test_in_test_=
		return 2
	fi
	test_eval_ "$1"
	test_run_ret_=$?
	if test "$test_cleanup_" != :
	then
		test_eval_ "$test_cleanup_"
	fi
	test_in_test_=
	cd "$test_start_dir_" 2>/dev/null
	test "$test_run_ret_" = 0
}

test_skip_missing_prereq_ () {
	test_count=$(($test_count + 1))
	test_skipped=$(($test_skipped + 1))
	say "ok $test_count # skip $1 (missing $test_missing_prereq_)"
}

# test_start_ WHAT [PREREQ] TITLE BODY: count the test and run its body,
# or report it skipped when a prerequisite is missing (returns 1). Sets
# test_title_ and test_body_ for the caller, and test_ret_ to the body's
# exit code.
test_start_ () {
	test_what_=$1
	shift
	test_prereq_=
	test $# = 3 && { test_prereq_=$1; shift; }
	test $# = 2 || BUG "not 2 or 3 parameters to $test_what_"
	test_title_=$1
	test_body_=$2
	if test -n "$test_prereq_" && ! test_have_prereq "$test_prereq_"
	then
		test_skip_missing_prereq_ "$test_title_"
		return 1
	fi
	test_count=$(($test_count + 1))
	test -n "$verbose" && say >&3 "running $this_test.$test_count ($test_what_) '$test_title_': $test_body_"
	test_run_ "$test_body_"
	test_ret_=$?
	return 0
}

# test_failed_: the test just run failed; with --immediate, stop here
test_failed_ () {
	test_failure=$(($test_failure + 1))
	say "not ok $test_count - $test_title_"
	test_show_failure_ "$test_body_"
	if test -n "$immediate"
	then
		say "# stopped at the first failure (--immediate); trash directory kept: $TRASH_DIRECTORY"
		test_exit_ok_=t
		exit 1
	fi
}

test_expect_success () {
	test_start_ test_expect_success "$@" || return 0
	if test $test_ret_ = 0
	then
		test_success=$(($test_success + 1))
		say "ok $test_count - $test_title_"
	else
		test_failed_
	fi
	return 0
}

test_expect_failure () {
	test_start_ test_expect_failure "$@" || return 0
	case $test_ret_ in
	0)
		test_fixed=$(($test_fixed + 1))
		say "ok $test_count - $test_title_ # TODO known breakage vanished" ;;
	2)
		test_failed_ ;;	# a broken &&-chain is no known breakage
	*)
		test_broken=$(($test_broken + 1))
		say "not ok $test_count - $test_title_ # TODO known breakage" ;;
	esac
	return 0
}

# test_skip TITLE REASON: a test that is not run, and why.
test_skip () {
	test $# = 2 || BUG "test_skip needs TITLE and REASON"
	test -n "$2" || BUG "test_skip '$1' without a reason"
	test_count=$(($test_count + 1))
	test_skipped=$(($test_skipped + 1))
	say "ok $test_count # skip $1 ($2)"
}

test_done () {
	test_exit_ok_=t
	test -n "$test_output_file_" && rm -f "$test_output_file_"
	test -n "$test_valgrind_dir_" && rm -rf "$test_valgrind_dir_"
	test $test_fixed = 0 ||
		say "# $test_fixed known breakage(s) vanished; please update test(s)"
	test $test_broken = 0 ||
		say "# still have $test_broken known breakage(s)"
	if test $test_failure = 0
	then
		say "# passed all $test_count test(s)"
		say "1..$test_count"
		if test -z "$debug"
		then
			cd "$TEST_OUTPUT_DIRECTORY" &&
			{
				rm -rf "$TRASH_DIRECTORY" 2>/dev/null ||
				{ chmod -R u+rwx "$TRASH_DIRECTORY" && rm -rf "$TRASH_DIRECTORY"; }
			} || error "cannot remove the trash directory $TRASH_DIRECTORY"
		fi
		exit 0
	fi
	say "# failed $test_failure among $test_count test(s); trash directory kept: $TRASH_DIRECTORY"
	say "1..$test_count"
	exit 1
}

# Helpers for the code of tests.

# test_cmp EXPECTED ACTUAL
test_cmp () {
	test $# = 2 || BUG "test_cmp needs 2 arguments"
	diff -u "$@"
}

# test_must_fail [ok=success,sigpipe] CMD...: CMD must fail, and not by
# dying of a signal nor by not being found.
test_must_fail () {
	case "$1" in
	ok=*) test_mf_ok_=,${1#ok=},; shift ;;
	*) test_mf_ok_= ;;
	esac
	"$@"
	test_mf_code_=$?
	if test $test_mf_code_ = 0
	then
		case "$test_mf_ok_" in
		*,success,*) return 0 ;;
		esac
		echo >&2 "test_must_fail: command succeeded: $*"
		return 1
	elif test $test_mf_code_ = 141
	then
		case "$test_mf_ok_" in
		*,sigpipe,*) return 0 ;;
		esac
		echo >&2 "test_must_fail: died by signal 13: $*"
		return 1
	elif test $test_mf_code_ -gt 129 && test $test_mf_code_ -le 192
	then
		echo >&2 "test_must_fail: died by signal $(($test_mf_code_ - 128)): $*"
		return 1
	elif test $test_mf_code_ = 127
	then
		echo >&2 "test_must_fail: command not found: $*"
		return 1
	elif test $test_mf_code_ = 126
	then
		echo >&2 "test_must_fail: valid-command returned 126: $*"
		return 1
	fi
	return 0
}

# test_expect_code N CMD...: CMD must exit with status N.
test_expect_code () {
	test_want_code_=$1
	shift
	"$@"
	test_ec_code_=$?
	test $test_ec_code_ = "$test_want_code_" && return 0
	echo >&2 "test_expect_code: command exited with $test_ec_code_, we wanted $test_want_code_: $*"
	return 1
}

# test_line_count OP N FILE, e.g. test_line_count = 3 out
test_line_count () {
	test $# = 3 || BUG "not 3 parameters to test_line_count"
	if ! test "$(wc -l <"$3")" "$1" "$2"
	then
		echo "test_line_count: line count for $3 !$1 $2"
		cat "$3"
		return 1
	fi
}

test_must_be_empty () {
	test $# = 1 || BUG "test_must_be_empty needs 1 argument"
	test_path_is_file "$1" &&
	if test -s "$1"
	then
		echo "'$1' is not empty, it contains:"
		cat "$1"
		return 1
	fi
}

test_file_not_empty () {
	test $# = 1 || BUG "test_file_not_empty needs 1 argument"
	test -s "$1" || { echo "'$1' is empty or missing"; return 1; }
}

test_path_is_file () {
	test $# = 1 || BUG "test_path_is_file needs 1 argument"
	test -f "$1" || { echo "File $1 doesn't exist"; return 1; }
}

test_path_is_dir () {
	test $# = 1 || BUG "test_path_is_dir needs 1 argument"
	test -d "$1" || { echo "Directory $1 doesn't exist"; return 1; }
}

test_path_is_missing () {
	test $# = 1 || BUG "test_path_is_missing needs 1 argument"
	if test -e "$1"
	then
		echo "Path exists: $1"
		ls -ld "$1"
		return 1
	fi
}

# test_write_lines A B C: one argument per line.
test_write_lines () {
	printf '%s\n' "$@"
}

# write_script FILE [INTERPRETER] <body: a script with a #! line, executable.
write_script () {
	{
		echo "#!${2:-/bin/sh}" &&
		cat
	} >"$1" &&
	chmod +x "$1"
}

# The real browser of t0410 and t0400: headless Chromium driven by
# playwright-core, from t/browser/node_modules (npm install --prefix
# t/browser --no-save --no-audit --no-fund playwright-core, with
# PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
test_lazy_prereq BROWSER '
	test -x /usr/bin/chromium &&
	(cd "$TEST_DIRECTORY/browser" && node -e "require(\"playwright-core\")") >/dev/null 2>&1
'

# say_if_no_browser: says, visibly, why the browser tests will skip
say_if_no_browser () {
	test_have_prereq BROWSER ||
	say "# BROWSER missing: needs /usr/bin/chromium and playwright-core in t/browser/node_modules" \
		"(PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix t/browser --no-save --no-audit --no-fund playwright-core)"
}

# report_in_browser --page FILE [--chart LABEL]... [--text T]...: the
# checks of t/browser/check-report.js on a report's page, its log shown
# when one fails
report_in_browser () {
	if node "$TEST_DIRECTORY/browser/check-report.js" --shots shots "$@" >browser.log 2>&1
	then
		grep "^# all checks passed" browser.log
	else
		cat browser.log
		return 1
	fi
}
