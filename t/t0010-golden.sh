#!/bin/sh

test_description='golden views

Every source file t/golden/LANG/NAME.EXT is tokenized as tokenize picks
its language from its path, and the view must equal NAME.EXT.view; where
NAME.EXT.positions or NAME.EXT.exact exist beside it, the views of
tokenize --positions and --exact-comments must equal them.'

. ./test-lib.sh

golden=$TEST_DIRECTORY/golden

# test_golden SUFFIX [OPTION]: compare the view of $src (with OPTION) with
# $src$SUFFIX; tokenize must also say nothing (a file no language claims
# is skipped with a warning and an empty view).
test_golden () {
	"$TOKENIZE" $2 "$src" >actual 2>err &&
	test_cmp "$src$1" actual &&
	test_must_be_empty err
}

count=0
for src in "$golden"/*/*
do
	test -f "$src" || continue
	case "$src" in
	*.view|*.positions|*.exact)
		continue
		;;
	esac
	count=$(($count + 1))
	name=${src#$golden/}
	test_expect_success "$name" '
		test_path_is_file "$src.view" &&
		test_golden .view
	'
	if test -f "$src.positions"
	then
		test_expect_success "$name --positions" '
			test_golden .positions --positions
		'
	fi
	if test -f "$src.exact"
	then
		test_expect_success "$name --exact-comments" '
			test_golden .exact --exact-comments
		'
	fi
done

test_expect_success 'there are golden files' '
	test $count -gt 0
'

test_expect_success 'every .view, .positions and .exact file has its source beside it' '
	for f in "$golden"/*/*.view "$golden"/*/*.positions "$golden"/*/*.exact
	do
		test -f "$f" || continue
		test_path_is_file "${f%.*}" || return 1
	done
'

test_done
