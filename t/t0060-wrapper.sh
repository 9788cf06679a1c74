#!/bin/sh

test_description='the shared helpers: sizes that do not fit, files written whole

st_add() and st_mult() (tokenize/usage.h) die with one fatal line where a
size of an allocation would wrap around, and so does ALLOC_GROW; a file
written by write_atomic() (tokenize/wrapper.c) is there whole, and a
write that fails leaves the old file and no temporary one, with one fatal
line naming the file.  run_workers() (tokenize/run-command.c) runs each
worker once, loses none of their output and writes none of what its caller
buffered twice; at the first worker that fails it stops the others and fails.
A strvec (tokenize/strvec.c) holds copies of what was pushed, in order,
however many, and its v is NULL-terminated after every operation.
Through t/helper/test-wrapper.'

. ./test-lib.sh

WRAPPER=$TEST_DIRECTORY/helper/test-wrapper

# the sizes below are of a 64-bit size_t
test_lazy_prereq SIZE_T_64 '
	test "$("$WRAPPER" size-max)" = 18446744073709551615
'

# expect_overflow OP A B: test-wrapper OP A B dies with one "size_t
# overflow" line naming the operands
expect_overflow () {
	test_expect_code 128 "$WRAPPER" "$@" >out 2>err &&
	cat err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "^test-wrapper: fatal: size_t overflow: $2 [+*] $3\$" err
}

test_expect_success SIZE_T_64 'st_add and st_mult: what fits is the sum and the product' '
	max=$("$WRAPPER" size-max) &&
	test "$("$WRAPPER" st-add 2 3)" = 5 &&
	test "$("$WRAPPER" st-add "$max" 0)" = "$max" &&
	test "$("$WRAPPER" st-mult 6 7)" = 42 &&
	test "$("$WRAPPER" st-mult 0 "$max")" = 0 &&
	test "$("$WRAPPER" st-mult "$max" 1)" = "$max" &&
	test "$("$WRAPPER" st-mult 4294967296 4294967295)" = 18446744069414584320
'

test_expect_success SIZE_T_64 'st_add and st_mult: what does not fit dies, never wraps around' '
	max=$("$WRAPPER" size-max) &&
	expect_overflow st-add "$max" 1 &&
	expect_overflow st-add 1 "$max" &&
	expect_overflow st-mult "$max" 2 &&
	expect_overflow st-mult 4294967296 4294967296
'

test_expect_success SIZE_T_64 'ALLOC_GROW: a count whose size wraps around dies, not a short array' '
	test "$("$WRAPPER" alloc-grow 100)" = 100 &&
	test "$("$WRAPPER" alloc-grow 1)" = 16 &&
	# 2^60 + 1 elements of 16 bytes: 2^64 + 16 bytes, 16 once wrapped
	test_expect_code 128 "$WRAPPER" alloc-grow 1152921504606846977 >out 2>err &&
	cat err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep "^test-wrapper: fatal: size_t overflow: 1152921504606846977 \* 16\$" err
'

test_expect_success 'strvec: an empty vector is NULL-terminated, and a pop leaves it empty' '
	echo 0 >expect &&
	"$WRAPPER" strvec >actual &&
	test_cmp expect actual &&
	"$WRAPPER" strvec pop >actual &&
	test_cmp expect actual
'

test_expect_success 'strvec: push, pushf, pushl and pushv append copies, in order' '
	cat >expect <<-\EOF &&
	9
	one
	<two:1>
	three
	four
	five
	six
	seven
	eight

	EOF
	"$WRAPPER" strvec push=one pushf=two pushl=three,four,five pushl=six \
		pushv=seven,eight push= >actual &&
	test_cmp expect actual
'

test_expect_success 'strvec: pushes far past the first allocation keep every string' '
	seq 1 1000 >strings &&
	{ echo 1000 && cat strings; } >expect &&
	"$WRAPPER" strvec $(sed "s/^/push=/" strings) >actual &&
	test_cmp expect actual
'

test_expect_success 'strvec: pop drops the last string; a cleared vector is empty and takes more' '
	printf "2\na\nb\n" >expect &&
	"$WRAPPER" strvec push=a push=b push=c pop >actual &&
	test_cmp expect actual &&
	printf "0\n" >expect &&
	"$WRAPPER" strvec push=a push=b clear >actual &&
	test_cmp expect actual &&
	printf "2\n<c:0>\nd\n" >expect &&
	"$WRAPPER" strvec push=a push=b clear pushf=c push=d >actual &&
	test_cmp expect actual &&
	printf "1\ne\n" >expect &&
	"$WRAPPER" strvec push=a pop pop push=e >actual &&
	test_cmp expect actual
'

test_expect_success 'write_atomic: the file whole, replacing the one there, through no symlink' '
	printf "old\n" >file &&
	printf "new\nand more\n" >expect &&
	"$WRAPPER" write-atomic file <expect &&
	test_cmp expect file &&
	echo precious >victim &&
	ln -s victim link &&
	"$WRAPPER" write-atomic link <expect &&
	! test -h link &&
	test_cmp expect link &&
	echo precious >expect-victim &&
	test_cmp expect-victim victim &&
	ls >listing &&
	! grep "\.tmp" listing
'

test_expect_success 'run_workers: each worker once, output neither lost nor written twice' '
	"$WRAPPER" run-workers 3 >out &&
	cat >expect <<-\EOF &&
	before the workers
	worker 0 of 3
	worker 1 of 3
	worker 2 of 3
	EOF
	sort out >actual &&
	test_cmp expect actual &&
	"$WRAPPER" run-workers 1 >out &&
	printf "before the workers\nworker 0 of 1 in-process\n" >expect &&
	test_cmp expect out
'

# workers_fail HOW: worker 1 of 4 fails (HOW: exit or signal) once
# worker 0 has printed its line and workers 2 and 3 have started their
# sleep; run_workers fails at once, with the sleepers stopped (gone, and
# no marker of a sleep finished) and worker 0's line kept
workers_fail () {
	rm -rf w && mkdir w &&
	test_when_finished "kill \$(cat w/pid.* 2>/dev/null) 2>/dev/null; true" &&
	test_expect_code 128 "$WRAPPER" run-workers-failing $1 w >w/out 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^test-wrapper: fatal: run_workers failed\$" err &&
	test -s w/pid.2 &&
	test -s w/pid.3 &&
	for pid in $(cat w/pid.2 w/pid.3)
	do
		! kill -0 $pid 2>/dev/null || return 1
	done &&
	! test -e w/marker.2 &&
	! test -e w/marker.3 &&
	printf "before the workers\nworker 0 done\n" >expect &&
	test_cmp expect w/out
}

test_expect_success 'run_workers: a worker that exits non-zero stops the others, loses no output' '
	workers_fail exit
'

test_expect_success 'run_workers: a worker killed by a signal stops the others, loses no output' '
	workers_fail signal
'

test_tmpfs_prereq
test -z "$tmpfs_reason" ||
	test_skip 'write_atomic on a full disk: the old file, no temporary one, one fatal line' "$tmpfs_reason"

test_expect_success TMPFS 'write_atomic on a full disk: the old file, no temporary one, one fatal line' '
	test_when_finished "umount disk 2>/dev/null; true" &&
	mkdir disk &&
	mount -t tmpfs -o size=64k tmpfs disk &&
	echo old >disk/file &&
	echo old >expect &&
	awk "BEGIN { for (i = 0; i < 4096; i++) print \"a line of the new file, too long for the disk\" }" >big &&
	test_expect_code 128 "$WRAPPER" write-atomic disk/file <big 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^test-wrapper: fatal: cannot write .disk/file.: No space left on device\$" err &&
	test_cmp expect disk/file &&
	ls -A disk >listing &&
	echo file >expect-listing &&
	test_cmp expect-listing listing
'

test_done
