#!/bin/sh

test_description='the shared helpers: sizes that do not fit

st_add() and st_mult() (tokenize/usage.h) die with one fatal line where a
size of an allocation would wrap around, and so does ALLOC_GROW.  Through
t/helper/test-wrapper.'

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

test_done
