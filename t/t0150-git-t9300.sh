#!/bin/sh

test_description='Git'"'"'s own fast-import tests through the filter

Git'"'"'s t/t9300-fast-import.sh (of the Git source in $TOKSTREAM_GIT_SRC,
built as far as its tests need: make compat does it) runs three times
against the installed git: with the input of every git fast-import it
starts fed through cat, then through "tokstream --identity" given the
options of fast-import that it mirrors (--import-marks,
--import-marks-if-exists, --date-format, --done; see t/compat/git), then
through "tokstream --identity" given none of them, as in a pipeline whose
user gives them to fast-import alone.  Through cat every test must pass;
through the filter every one but those that no filter between two
processes can pass, listed below with the reason, and given no option,
one more.  Without Git'"'"'s source the tests are skipped, saying so.'

. ./test-lib.sh

src=${TOKSTREAM_GIT_SRC:-}
why=
if test -z "$src"
then
	why="TOKSTREAM_GIT_SRC names no Git source tree (make compat, see README)"
elif ! test -f "$src/t/t9300-fast-import.sh"
then
	why="no t/t9300-fast-import.sh in TOKSTREAM_GIT_SRC=$src"
elif ! test -x "$src/t/helper/test-tool" || ! test -d "$src/templates/blt" ||
	! test -f "$src/GIT-BUILD-OPTIONS"
then
	why="the Git source in $src is not built for its tests (make compat builds it)"
fi
if test -n "$why"
then
	test_skip 'through cat, git fast-import passes every test of t9300' "$why"
	test_skip 'through tokstream --identity, every t9300 test passes but those no filter can pass' "$why"
	test_skip 'through tokstream --identity given none of fast-import'"'"'s options, the same but one' "$why"
	test_done
fi

# The tests of t9300 that no filter can pass, with the reason.
cat >expected-failures <<-\EOF
A: tag blob by sha1	ls: the back channel
N: read and copy directory	ls: the back channel
N: empty directory reads as missing	ls: the back channel
N: copy root directory by tree hash	its branch N4 is made by the two tests before
R: feature ls supported	ls: the back channel
R: feature cat-blob supported	cat-blob: the back channel
R: print old blob	cat-blob: the back channel
R: in-stream cat-blob-fd not respected	cat-blob: the back channel
R: print mark for new blob	get-mark: the back channel
R: print new blob	cat-blob: the back channel
R: print new blob by sha1	cat-blob: the back channel
R: print two blobs to stdout	cat-blob: the back channel
R: copy using cat-file	cat-blob: the back channel
R: print blob mid-commit	cat-blob: the back channel
R: print staged blob within commit	cat-blob: the back channel
S: filemodify with garbage after mark must fail	checks fast-import's wording of the refusal
S: filemodify with garbage after inline must fail	checks fast-import's wording of the refusal
S: filemodify with garbage after sha1 must fail	checks fast-import's wording of the refusal
S: notemodify with garbage after mark dataref must fail	checks fast-import's wording of the refusal
S: notemodify with garbage after inline dataref must fail	checks fast-import's wording of the refusal
S: notemodify with garbage after sha1 dataref must fail	checks fast-import's wording of the refusal
S: notemodify with garbage after mark commit-ish must fail	checks fast-import's wording of the refusal
S: from with garbage after mark must fail	checks fast-import's wording of the refusal
S: merge with garbage after mark must fail	checks fast-import's wording of the refusal
S: tag with garbage after mark must fail	checks fast-import's wording of the refusal
S: cat-blob with garbage after mark must fail	cat-blob: the back channel
S: ls with garbage after mark must fail	ls: the back channel
S: ls with garbage after sha1 must fail	ls: the back channel
T: ls root tree	ls: the back channel
W: get-mark & empty orphan commit with no newlines	get-mark: the back channel
W: get-mark & empty orphan commit with one newline	get-mark: the back channel
W: get-mark & empty orphan commit with ugly second newline	get-mark: the back channel
EOF

# Given none of the options, fast-import alone gets --done, --date-format
# and --import-marks.  The filter takes every date and mark it then cannot
# judge, but it still ends every whole input with "done" (all or nothing,
# README), so one more test cannot pass: its input lacks a "done" that
# fast-import --done alone requires.
awk -F '\t' '{ print } $1 == "R: print staged blob within commit" {
	print "R: feature done means terminating \"done\" is mandatory\tfast-import --done alone: the filter ends every whole input with done (all or nothing), so fast-import cannot see that the input had none"
}' expected-failures >expected-failures-alone

# run_t9300 NAME FILTER [MIRROR]: Git's t9300 with FILTER in front of
# fast-import; its TAP in NAME.tap, the titles of its failures in
# NAME.failed
run_t9300 () {
	real_git=$(command -v git) &&
	wrapper="$TEST_DIRECTORY/compat" &&
	root="$TRASH_DIRECTORY/$1.trash" &&
	(
		cd "$src/t" &&
		unset TEST_DIRECTORY TRASH_DIRECTORY TEST_OUTPUT_DIRECTORY &&
		COMPAT_REAL_GIT=$real_git COMPAT_FILTER=$2 COMPAT_MIRROR=$3 \
		GIT_TEST_INSTALLED=$wrapper ./t9300-fast-import.sh --root="$root"
	) >"$1.tap" 2>"$1.err"
	sed -n "s/^not ok [0-9]* - //p" "$1.tap" >"$1.failed" &&
	echo "$1: $(grep -c "^ok " "$1.tap") passed, $(wc -l <"$1.failed") failed"
}

test_expect_success 'through cat, git fast-import passes every test of t9300' '
	{ run_t9300 cat cat || true; } &&
	grep "^1\.\.[0-9]" cat.tap &&
	test_must_be_empty cat.failed &&
	test $(grep -c "^ok " cat.tap) -ge 195
'

test_expect_success 'through tokstream --identity, every t9300 test passes but those no filter can pass' '
	{ run_t9300 filter "\"$TOKSTREAM\" --identity" 1 || true; } &&
	grep "^1\.\.[0-9]" filter.tap &&
	cut -f1 expected-failures >expect &&
	test_cmp expect filter.failed &&
	test $(grep -c "^ok " filter.tap) = $(($(grep -c "^ok " cat.tap) - $(wc -l <expect)))
'

test_expect_success 'through tokstream --identity given none of fast-import'"'"'s options, the same but one' '
	{ run_t9300 alone "\"$TOKSTREAM\" --identity" || true; } &&
	grep "^1\.\.[0-9]" alone.tap &&
	cut -f1 expected-failures-alone >expect &&
	test_cmp expect alone.failed &&
	test $(grep -c "^ok " alone.tap) = $(($(grep -c "^ok " cat.tap) - $(wc -l <expect)))
'

test_done
