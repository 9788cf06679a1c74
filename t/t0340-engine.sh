#!/bin/sh
test_description='the attribution engine: its diff, merges, renames, moves, ignored revisions'
. ./test-lib.sh

. "$TEST_DIRECTORY"/lib-blame.sh

test_lazy_prereq PYTHON 'python3 -c "import sys; sys.exit(sys.version_info < (3, 8))"'

# functions F L: functions fF..fL of the same shape, 23 tokens each: a long file of repeating tokens
functions () {
	i=$1 && while test $i -le $2
	do
		printf "int f%d(int a, int b)\n{\n\tint s = a + b;\n\treturn s * %d;\n}\n\n" $i $i || return 1
		i=$((i + 1))
	done
}

test_expect_success 'a large insertion in several places of a long file: added tokens equal the true count' '
	functions 1 300 >old.c &&
	{ functions 1 100 && functions 1001 1020 && functions 101 200 &&
	  functions 2001 2020 && functions 201 300; } >new.c &&
	"$TOKENIZE" --positions old.c >old.pos &&
	"$TOKENIZE" --positions new.c >new.pos &&
	"$TEST_DIRECTORY/helper/test-tokdiff" --positions old.pos new.pos >diff &&
	# 40 functions of 23 tokens, nothing removed
	echo "+920 -0" >expect &&
	head -n 1 diff >actual &&
	test_cmp expect actual
'

test_expect_success 'history: functions added, moved to another file, renamed, merged' '
	git init -q src &&
	functions 1 60 >src/a.c &&
	commit_as -C src -a Alice -m "a.c" &&
	{ functions 1 30 && functions 501 503 && functions 31 60; } >src/a.c &&
	commit_as -C src -a Bob -m "three functions in the middle" &&
	{ functions 1 10 && functions 21 30 && functions 501 503 && functions 31 60; } >src/a.c &&
	functions 11 20 | sed "s/int s = a + b;/const int s = a + b;/" >src/b.c &&
	commit_as -C src -a Carol -m "f11..f20 move to b.c, one const each" &&
	git -C src mv b.c c.c &&
	commit_as -C src -a Dave -m "b.c is c.c" &&
	git -C src checkout -q -b side &&
	functions 701 701 >>src/c.c &&
	commit_as -C src -a Erin -m "f701 on a side branch" &&
	git -C src checkout -q main &&
	functions 801 801 >>src/a.c &&
	commit_as -C src -a Fred -m "f801" &&
	test_tick &&
	git -C src -c user.name=Gina -c user.email=gina@example.org merge -q --no-edit side &&
	"$TOKSTREAM" convert -q src tokens.git
'

test_expect_success 'tokens inserted in a long file are their author'"'"'s, the rest the first commit'"'"'s' '
	"$TOKSTREAM" blame -C tokens.git --porcelain a.c >porcelain &&
	git -C src show HEAD:a.c >a.c &&
	token_authors a.c <porcelain >actual &&
	grep -c " Bob$" actual >bob &&
	echo 69 >expect && test_cmp expect bob &&
	grep -c " Fred$" actual >fred &&
	echo 23 >expect && test_cmp expect fred &&
	grep -c " Alice$" actual >alice &&
	echo $((50 * 23)) >expect && test_cmp expect alice
'

# blame of one file finds moves within it, from the files it was renamed
# from, and from the other files the moving commit changed, as the
# whole-tree replay (html, report) does.
test_expect_success 'moved to another file and renamed: only the inserted const is new' '
	"$TOKSTREAM" blame -C tokens.git --porcelain c.c >porcelain &&
	git -C src show HEAD:c.c >c.c &&
	token_authors c.c <porcelain >actual &&
	grep -c "^const Carol$" actual >carol &&
	echo 10 >expect && test_cmp expect carol &&
	test $(grep -c " Carol$" actual) = 10 &&
	test $(grep -c " Erin$" actual) = 23 &&
	test $(grep -c " Alice$" actual) = 230 &&
	# the file of the commit a token comes from, as git blame names it:
	# Carol wrote her consts into b.c, which Dave renamed to c.c
	grep "^filename " porcelain | sort -u >names &&
	test_write_lines "filename a.c" "filename b.c" "filename c.c" >expect &&
	test_cmp expect names
'

test_expect_success '--no-moves: the moved function is the mover'"'"'s' '
	"$TOKSTREAM" blame -C tokens.git --porcelain --no-moves c.c >porcelain &&
	token_authors c.c <porcelain >actual &&
	test $(grep -c " Carol$" actual) = 240
'

test_expect_success 'a merge takes the side'"'"'s tokens from the side, the rest from the first parent' '
	"$TOKSTREAM" blame -C tokens.git --porcelain c.c >porcelain &&
	merge=$(git -C src rev-parse HEAD) &&
	test "$(git -C src rev-parse HEAD^2)" = "$(git -C src rev-parse side)" &&
	! grep -q " $merge\$" porcelain &&
	git -C src show HEAD:c.c >c.c &&
	token_authors c.c <porcelain >actual &&
	test $(grep -c " Erin$" actual) = 23
'

test_expect_success 'an ignored revision: a renamed identifier is the old one'"'"'s' '
	sed "s/f5(/five(/" src/a.c >tmp && mv tmp src/a.c &&
	commit_as -C src -a Hal -m "rename f5" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" blame -C tokens.git --porcelain a.c >porcelain &&
	git -C src show HEAD:a.c >a.c &&
	token_authors a.c <porcelain >actual &&
	grep "^five Hal$" actual &&
	hal=$(git -C src rev-parse HEAD) &&
	"$TOKSTREAM" blame -C tokens.git --porcelain --ignore-rev $hal a.c >porcelain &&
	token_authors a.c <porcelain >actual &&
	grep "^five Alice$" actual &&
	! grep -q " Hal$" actual &&
	echo "$hal # the rename" >revs &&
	"$TOKSTREAM" blame -C tokens.git --porcelain --ignore-revs-file revs a.c >porcelain2 &&
	test_cmp porcelain porcelain2 &&
	git -C src config blame.ignoreRevsFile ../revs &&
	"$TOKSTREAM" blame -C tokens.git --porcelain a.c >porcelain3 &&
	test_cmp porcelain porcelain3 &&
	"$TOKSTREAM" blame -C tokens.git --porcelain --ignore-revs-file "" a.c >porcelain4 &&
	token_authors a.c <porcelain4 >actual &&
	grep "^five Hal$" actual
'

test_expect_success 'blame of one file and the whole-tree replay agree' '
	git -C src config --unset blame.ignoreRevsFile &&
	"$TOKSTREAM" html -C tokens.git -j 1 site >/dev/null 2>&1 &&
	"$TOKSTREAM" report -C tokens.git --replay=always --min-tokens=1 rep.replay &&
	rm -rf tokens.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git --replay=never --min-tokens=1 rep.file &&
	test_cmp rep.replay/authors.tsv rep.file/authors.tsv
'

# count AUTHOR FILE-OF-TOKEN-AUTHORS: how many tokens AUTHOR has
count () {
	grep -c " $1\$" "$2" || :
}

test_expect_success 'an octopus merge, a merge identical to its side, a copy: each token its author'"'"'s' '
	git init -q -b main oct &&
	(
		cd oct &&
		functions 1 40 >a.c &&
		git add a.c && commit_as -a Alice -m "a.c" &&
		git checkout -q -b b1 && functions 201 201 >b.c &&
		git add b.c && commit_as -a Bob -m "b.c" &&
		git checkout -q -b b2 main && functions 301 301 >c.c &&
		git add c.c && commit_as -a Carol -m "c.c" &&
		git checkout -q main && functions 401 401 >>a.c &&
		commit_as -a Dave -m "f401" &&
		test_tick &&
		git -c user.name=Gina -c user.email=gina@example.org merge -q --no-edit b1 b2 &&
		test "$(git rev-list --min-parents=3 --count HEAD)" = 1 &&
		git checkout -q -b s &&
		{ functions 1 20 && functions 501 501 && functions 21 40 && functions 401 401; } >a.c &&
		commit_as -a Erin -m "f501 in the middle" &&
		git checkout -q main &&
		test_tick &&
		git -c user.name=Hal -c user.email=hal@example.org merge -q --no-ff --no-edit s &&
		# a copy is found in the files its commit changes, as git blame -C finds it
		functions 1 10 | sed "1s/^int/const int/" >d.c &&
		functions 601 601 >>a.c &&
		commit_as -a Fay -m "d.c: a copy of f1..f10, one const; f601"
	) &&
	"$TOKSTREAM" convert -q oct oct.tokens &&
	for f in a.c b.c c.c d.c
	do
		"$TOKSTREAM" blame -C oct.tokens --porcelain $f >p.$f &&
		token_authors oct/$f <p.$f >who.$f || return 1
	done &&
	# 23 tokens a function
	test "$(count Alice who.a.c)" = $((40 * 23)) &&
	test "$(count Dave who.a.c)" = 23 &&
	test "$(count Erin who.a.c)" = 23 &&
	test "$(count Fay who.a.c)" = 23 &&
	test "$(wc -l <who.a.c)" = $((43 * 23)) &&
	test "$(count Bob who.b.c)" = 23 && test "$(wc -l <who.b.c)" = 23 &&
	test "$(count Carol who.c.c)" = 23 && test "$(wc -l <who.c.c)" = 23 &&
	# the copy keeps its authors; the const inserted into it is the copier'"'"'s
	test "$(count Alice who.d.c)" = $((10 * 23)) &&
	test "$(count Fay who.d.c)" = 1 &&
	grep "^const Fay$" who.d.c &&
	# the merges own nothing
	! grep -e " Gina$" -e " Hal$" who.a.c who.b.c who.c.c who.d.c
'

test_expect_success 'blame from the whole tree'"'"'s state in DEST: what the file'"'"'s own history gives' '
	rm -rf tokens.git/tokstream/replay tokens.git/tokstream/report-cache &&
	for f in a.c c.c
	do
		"$TOKSTREAM" blame -C tokens.git --porcelain $f >cold.$f || return 1
	done &&
	test_path_is_missing tokens.git/tokstream/replay/tokens &&
	"$TOKSTREAM" report -C tokens.git --replay=always --min-tokens=1 rep.cp &&
	test_path_is_file tokens.git/tokstream/replay/tokens &&
	for f in a.c c.c
	do
		# read from the state at the tip: no walk of the history
		TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C tokens.git --porcelain $f >warm.$f &&
		test_cmp cold.$f warm.$f || return 1
	done
'

test_expect_success 'convert brings that state to the new tip' '
	functions 901 902 >>src/a.c &&
	commit_as -C src -a Ivy -m "f901, f902" &&
	"$TOKSTREAM" convert src tokens.git 2>err &&
	grep "attribution state in .* follows HEAD" err &&
	tip=$(git -C tokens.git rev-parse HEAD) &&
	test "$(sed -n "/^commits /{n;p;q;}" tokens.git/tokstream/replay/tokens | cut -c1-40)" = "$tip" &&
	TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C tokens.git --porcelain a.c >warm &&
	token_authors src/a.c <warm >actual &&
	test "$(grep -c " Ivy$" actual)" = 46 &&
	mv tokens.git/tokstream/replay replay.saved &&
	"$TOKSTREAM" blame -C tokens.git --porcelain a.c >cold &&
	test_cmp cold warm
'

test_expect_success 'convert --attribute makes that state; a later convert keeps it at HEAD' '
	"$TOKSTREAM" convert -q --attribute src made.git &&
	test_path_is_file made.git/tokstream/replay/tokens &&
	test "$(sed -n "/^commits /{n;p;q;}" made.git/tokstream/replay/tokens | cut -c1-40)" = \
		"$(git -C made.git rev-parse HEAD)" &&
	TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C made.git --porcelain a.c >made &&
	test_cmp cold made &&
	functions 903 903 >>src/a.c &&
	commit_as -C src -a Ivy -m "f903" &&
	"$TOKSTREAM" convert -q src made.git &&
	test "$(sed -n "/^commits /{n;p;q;}" made.git/tokstream/replay/tokens | cut -c1-40)" = \
		"$(git -C made.git rev-parse HEAD)"
'

# tokens FILE: the token records of a blame --porcelain, "LINE COL LENGTH COMMIT"
tokens () {
	grep -E "^[0-9]+ [0-9]+ [0-9]+ [0-9a-f]{40}$" "$1"
}

test_expect_success PYTHON 'setup: moves, copies, renames, topics forked from old commits, merges, a reformatting' '
	python3 "$TEST_DIRECTORY/helper/mixed-history.py" mix --commits 200 &&
	test "$(git -C mix rev-list --merges --count HEAD)" -ge 20 &&
	git -C mix config blame.ignoreRevsFile .git-blame-ignore-revs &&
	"$TOKSTREAM" convert -q mix mix.git
'

# one_answer OPTIONS...: for every file, the walk back through its
# history gives what the whole-tree pass (run for the first file, which
# leaves its state) and that state (for the others) give
one_answer () {
	rm -rf mix.git/tokstream/replay &&
	files=$(git -C mix ls-tree -r --name-only HEAD | grep "\.c$") &&
	test -n "$files" &&
	first=true &&
	for f in $files
	do
		if $first
		then
			(cd mix && TOKSTREAM_TEST_BLAME=tree "$TOKSTREAM" blame -C ../mix.git --porcelain "$@" $f) >tree.out
		else
			(cd mix && TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C ../mix.git --porcelain "$@" $f) >tree.out
		fi &&
		first=false &&
		test -n "$(ls mix.git/tokstream/replay | grep "^tokens")" &&
		(cd mix && TOKSTREAM_TEST_BLAME=walk "$TOKSTREAM" blame -C ../mix.git --porcelain "$@" $f) >walk.out &&
		tokens tree.out >tree.tokens &&
		tokens walk.out >walk.tokens &&
		test -s walk.tokens &&
		test_cmp tree.tokens walk.tokens &&
		# and the file each token came from (renames and moves followed)
		grep "^filename " walk.out >walk.files &&
		grep "^filename " tree.out >tree.files &&
		test_cmp tree.files walk.files || return 1
	done
}

test_expect_success PYTHON 'one answer: the walk, the whole-tree pass and its state agree, with the ignore file' '
	one_answer &&
	grep "^key .* ignore [0-9a-f]" mix.git/tokstream/replay/tokens
'

test_expect_success PYTHON 'one answer with -w, --no-moves, --min-move, --ignore-rev, and no ignore file' '
	one_answer -w &&
	one_answer --no-moves &&
	one_answer --min-move=5 &&
	one_answer --ignore-rev HEAD~3 &&
	one_answer --ignore-revs-file ""
'

test_expect_success PYTHON 'the state at an older commit goes forward over topics forked before it' '
	rm -rf mix.git/tokstream/replay &&
	n=$(git -C mix rev-list --first-parent --count HEAD) &&
	old=$(git -C mix rev-list --first-parent HEAD | sed -n "$((n / 2))p") &&
	# some commit since has a parent older than the state: a topic forked before it
	git -C mix rev-list HEAD ^$old >since &&
	git -C mix rev-list --parents HEAD ^$old | tr " " "\n" | sort -u >named &&
	test -n "$(sort since | comm -13 - named | grep -v $old)" &&
	f=$(git -C mix ls-tree -r --name-only HEAD | grep "\.c$" | head -n 1) &&
	(cd mix && TOKSTREAM_TEST_BLAME=tree "$TOKSTREAM" blame -C ../mix.git --porcelain $f $old) >/dev/null &&
	test_path_is_file mix.git/tokstream/replay/tokens &&
	(cd mix && GIT_TRACE="$TRASH_DIRECTORY/trace.fwd" TOKSTREAM_TEST_BLAME=tree \
		"$TOKSTREAM" blame -C ../mix.git --porcelain $f) >/dev/null &&
	# one git log, of the commits since the state only
	test "$(grep -c "git log --reverse" trace.fwd)" = 1 &&
	grep "git log --reverse.* \^[0-9a-f]\{40\} --\$" trace.fwd &&
	for f in $(git -C mix ls-tree -r --name-only HEAD | grep "\.c$")
	do
		(cd mix && TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C ../mix.git --porcelain $f) >fwd.out &&
		(cd mix && TOKSTREAM_TEST_BLAME=walk "$TOKSTREAM" blame -C ../mix.git --porcelain $f) >walk.out &&
		tokens fwd.out >fwd.tokens &&
		tokens walk.out >walk.tokens &&
		test_cmp fwd.tokens walk.tokens || return 1
	done
'

test_expect_success PYTHON 'a replay that unloads every idle version after each commit: the same state and report' '
	rm -rf mix.git/tokstream/replay mix.git/tokstream/report-cache &&
	(cd mix && "$TOKSTREAM" report -C ../mix.git --stats ../loaded HEAD) 2>loaded.stats &&
	grep "token replay: 0 versions unloaded" loaded.stats &&
	mv mix.git/tokstream/replay loaded.state &&
	rm -rf mix.git/tokstream/report-cache &&
	(cd mix && TOKSTREAM_TEST_REPLAY_BYTES=0 "$TOKSTREAM" report -C ../mix.git --stats ../unloaded HEAD) 2>unloaded.stats &&
	unloaded=$(sed -n "s/.*token replay: \([0-9]*\) versions unloaded.*/\1/p" unloaded.stats) &&
	echo "$unloaded versions unloaded" &&
	test "$unloaded" -gt 100 &&
	test_cmp loaded.state/tokens mix.git/tokstream/replay/tokens &&
	for f in loaded/*.tsv
	do
		test_cmp $f unloaded/${f#loaded/} || return 1
	done
'

test_done
