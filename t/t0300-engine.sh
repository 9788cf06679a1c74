#!/bin/sh
test_description='the attribution engine: its diff, merges, renames, moves and ignored
revisions; the forward replay against git blame; accuracy on generated
histories with known authors'
. ./test-lib.sh

. "$TEST_DIRECTORY"/lib-blame.sh

test_lazy_prereq PYTHON 'python3 -c "import sys; sys.exit(sys.version_info < (3, 8))"'

# the attribution engine: its diff, merges, renames, moves, ignored revisions
test_section engine
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

# tokens_changed OLD NEW: "+ADDED -REMOVED" by the engine's diff, anchored on lines
tokens_changed () {
	"$TOKENIZE" --positions "$1" >"$1.pos" &&
	"$TOKENIZE" --positions "$2" >"$2.pos" &&
	"$TEST_DIRECTORY/helper/test-tokdiff" --positions "$1.pos" "$2.pos" >diff &&
	head -n 1 diff
}

# a block rewritten: the statements of the new one share only ") ;" and
# the like with the old, and those are not kept; a line edited keeps its
# "=" and ";" between the two tokens replaced on each side
test_expect_success 'a rewritten block keeps no coincidental "(" or ";"; an edited line keeps its "=" and ";"' '
	printf "int f(int a)\n{\n\tif (Curl_getdate_capped(v, &k->timeofdoc))\n\t\tk->timeofdoc = 0;\n\tif (data->set.get_filetime)\n\t\tdata->info.filetime = k->timeofdoc;\n\treturn 0;\n}\n" >old.c &&
	printf "int f(int a)\n{\n\tserverAssert(sptr != NULL);\n\tvstr = lpGetValue(sptr, &vlen, &vlong);\n\treturn 0;\n}\n" >new.c &&
	# four lines (35 tokens) replaced by two (19): none of the "(", "&",
	# "=" and ";" they share is kept (without the cleanup: +14 -30)
	echo "+19 -35" >expect &&
	tokens_changed old.c new.c >actual &&
	test_cmp expect actual &&
	printf "int v = 1;\n" >old.c &&
	printf "double d = 1.5;\n" >new.c &&
	echo "+3 -3" >expect &&
	tokens_changed old.c new.c >actual &&
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
	trace=$(pwd)/trace.fwd &&
	(cd mix && GIT_TRACE="$trace" TOKSTREAM_TEST_BLAME=tree \
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

# the forward replay gives every line the commit git blame gives it
#
# report blames every file at once by replaying the history forwards
# (contrib/replay.c) instead of running git blame file by file.  Here
# both run on histories made to be hard: merges that take one side, the
# other side or both, merges identical to their second parent, octopus
# and criss-cross merges, renames on one side of a merge and on both,
# paths swapped by renames, files deleted and brought back, type changes,
# empty files, files without a last newline, CR line ends, NUL bytes and
# odd names; then a history of 300 random commits on random branches.
# For every file at the tip the replay must name, line by line, the
# commits git blame --porcelain names, with and without -w.
test_section replay
REPLAY=$REPO_ROOT/t/helper/test-replay

# blame_all DIR REV [-w]: "PATH COMMIT" for every line of every file at
# REV, by git blame, into expect; by the replay, into actual
blame_all () {
	git -C "$1" ls-tree -r -z --name-only "$2" | tr "\0" "\n" >files &&
	: >expect &&
	while IFS= read -r f
	do
		git -C "$1" blame $3 --porcelain "$2" -- "$f" >porcelain &&
		F="$f" awk "length(\$1) == 40 && \$1 ~ /^[0-9a-f]+\$/ && NF >= 3 { print ENVIRON[\"F\"] \" \" \$1 }" \
			porcelain >>expect || return 1
	done <files &&
	tr "\n" "\0" <files | xargs -0 "$REPLAY" $3 "$1" "$2" >actual
}

# edit FILE LINE TEXT: replace line LINE of FILE with TEXT
edit () {
	awk -v n="$2" -v t="$3" "NR == n { print t; next } { print }" "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

# merge_any BRANCH ours|theirs: merge, settling any conflict with one side
# (what cannot be settled stays as git left it, markers and all)
merge_any () {
	test_tick &&
	git merge -q --no-edit "$1" >/dev/null 2>&1 ||
	{
		git checkout -q "--$2" . 2>/dev/null
		commit_as -a --at="$GIT_COMMITTER_DATE" - --no-edit -m "merge $1"
	}
}

test_expect_success 'setup: merges, renames and odd files' '
	git init -q -b main hard &&
	(
		cd hard &&
		test_write_lines a b c d e f g h i j >f.c &&
		test_write_lines 1 2 3 4 5 >g.c &&
		test_write_lines x y z >"name with spaces" &&
		printf "no last newline" >nonl &&
		printf "cr\r\nline\r\nends\r\n" >crlf &&
		printf "nul\000byte\nsecond\n" >nul &&
		: >empty &&
		commit_as -a - -m root &&

		git checkout -q -b side &&
		edit f.c 2 B && edit g.c 5 FIVE &&
		commit_as -a - -m "side: two edits" &&
		git mv g.c renamed-on-side.c &&
		commit_as -a - -m "side: a rename" &&

		git checkout -q main &&
		edit f.c 9 I && echo k >>f.c &&
		printf "no last newline, edited" >nonl &&
		commit_as -a - -m "main: edits" &&
		git merge -q --no-edit side &&
		edit f.c 5 merged-E &&
		commit_as -a - -m "main: after the merge" &&

		git checkout -q -b ident main~1 &&
		edit f.c 1 A &&
		commit_as -a - -m "ident: one edit" &&
		git checkout -q main &&
		git merge -q -s ours --no-edit ident &&
		git checkout -q -b ident2 main~1 && edit f.c 10 J && commit_as -a - -m "ident2: one edit" &&
		git checkout -q main &&
		git merge -q --no-commit -s ours ident2 &&
		git read-tree -u --reset ident2 &&
		commit_as -a - -m "a merge identical to its second parent" &&
		test "$(git rev-parse HEAD^{tree})" = "$(git rev-parse ident2^{tree})" &&

		git checkout -q -b o1 main && echo o1 >>f.c && commit_as -a - -m o1 &&
		git checkout -q -b o2 main && echo o2 >o2.c && commit_as -a - -m o2 &&
		git checkout -q -b o3 main && echo o3 >o3.c && edit "name with spaces" 2 Y && commit_as -a - -m o3 &&
		git checkout -q main &&
		git merge -q --no-edit o1 o2 o3 &&

		git checkout -q -b x1 main && edit f.c 3 x1-C && commit_as -a - -m x1 &&
		git checkout -q -b x2 main && edit f.c 7 x2-G && commit_as -a - -m x2 &&
		git checkout -q x1 && git merge -q --no-edit x2 &&
		git checkout -q x2 && git merge -q --no-edit x1~1 && edit f.c 8 x2-H && commit_as -a - -m "x2: more" &&
		git checkout -q main && git merge -q --no-edit x1 &&
		git merge -q --no-edit x2 &&

		git mv f.c tmp.c && git mv renamed-on-side.c f.c && git mv tmp.c renamed-on-side.c &&
		commit_as -a - -m "swap two files by renames" &&
		git rm -q o2.c && commit_as -a - -m "delete o2.c" &&
		echo o2 >o2.c && commit_as -a - -m "bring o2.c back" &&
		rm o3.c && ln -s f.c o3.c && commit_as -a - -m "o3.c becomes a link" &&
		echo "now text" >empty && commit_as -a - -m "the empty file gets a line" &&
		test_write_lines "	indented" tail >>crlf && commit_as -a - -m "crlf: lines" &&
		sed -e "s/^	indented/        indented/" crlf >crlf.new && mv crlf.new crlf &&
		commit_as -a - -m "crlf: tabs to spaces" &&
		printf "quoted\n" >"a \"quoted\" \\\\ name" &&
		printf "tab\n" >"$(printf "tab\tname")" &&
		printf "utf8\n" >"caf$(printf "\303\251")" &&
		commit_as -a - -m "odd names" &&
		git checkout -q -b both main~3 &&
		git mv nul nul-renamed && commit_as -a - -m "both: rename" &&
		git checkout -q main && git mv nul nul-renamed-too && commit_as -a - -m "main: rename" &&
		merge_any both ours &&
		commit_as -a - --allow-empty -m "an empty commit"
	) &&
	test "$(git -C hard rev-list --merges --count HEAD)" -ge 8
'

test_expect_success 'every line of every file: the replay names git blame'"'"'s commit' '
	blame_all hard HEAD &&
	test_line_count -gt 30 expect &&
	test "$(awk "{ print \$NF }" expect | sort -u | wc -l)" -ge 8 &&
	test_cmp expect actual
'

test_expect_success 'the same with -w, where the whitespace sweep is no change' '
	blame_all hard HEAD -w &&
	test_cmp expect actual &&
	mv actual actual.w &&
	blame_all hard HEAD &&
	! cmp -s actual actual.w
'

test_expect_success 'an older revision and a side branch, not only the tip' '
	blame_all hard main~4 &&
	test_cmp expect actual &&
	blame_all hard side &&
	test_cmp expect actual
'

test_expect_success 'a second root merged in (a link, odd names, CR, no last newline): the same' '
	# the files of a root commit come from git ls-tree, not from a diff
	(
		cd hard &&
		git checkout -q --orphan other &&
		git rm -rqf . &&
		printf "x\ny\n" >"other \"quoted\" name" &&
		printf "tab\nname\n" >"$(printf "other\ttab")" &&
		printf "last" >other-nonl &&
		: >other-empty &&
		ln -s other-nonl other-link &&
		printf "a\r\nb\r\n" >other-crlf &&
		printf "nul\000\n\n\n" >other-nul &&
		commit_as -a - -m "another root" &&
		printf "last, edited\nmore" >other-nonl &&
		edit other-crlf 1 A &&
		commit_as -a - -m "other: edits" &&
		git checkout -q main &&
		test_tick &&
		git merge -q --no-edit --allow-unrelated-histories other &&
		edit f.c 2 after-the-roots &&
		commit_as -a - -m "after the second root"
	) &&
	test "$(git -C hard rev-list --max-parents=0 HEAD | wc -l)" = 2 &&
	blame_all hard HEAD &&
	test_cmp expect actual &&
	grep -c "^other" actual >n &&
	test "$(cat n)" -ge 10 &&
	blame_all hard other &&
	test_cmp expect actual
'

test_expect_success 'setup: 300 random commits on random branches, merged at random' '
	git init -q -b main random &&
	(
		cd random &&
		seed=12345 &&
		rand () {
			seed=$(( (seed * 1103515245 + 12345) % 2147483648 )) &&
			r=$(( seed / 65536 % $1 ))
		} &&
		for i in 0 1 2 3 4 5
		do
			awk -v i=$i "BEGIN { for (k = 1; k <= 30; k++) print \"file \" i \" line \" k }" >file$i.c || return 1
		done &&
		commit_as -a - -m root &&
		branches=main &&
		n=0 &&
		while test $n -lt 300
		do
			rand 10 &&
			if test $r -eq 0
			then
				b=b$n && git checkout -q -b $b && branches="$branches $b"
			elif test $r -eq 1
			then
				rand 6 && f=file$r.c &&
				rand 9 && g=file$r-moved.c &&
				if test -f $f && ! test -f $g
				then
					git mv $f $g
				fi
			elif test $r -le 3
			then
				set -- $branches && rand $# && shift $r &&
				rand 2 &&
				if test $r = 0
				then
					merge_any $1 ours
				else
					merge_any $1 theirs
				fi
			else
				set -- $(ls *.c) && rand $# && shift $r && f=$1 &&
				lines=$(wc -l <$f) &&
				rand $((lines + 1)) &&
				edit $f $r "commit $n line $r" &&
				rand 3 &&
				if test $r -eq 0
				then
					sed -e "s/^/ /" $f >$f.new && mv $f.new $f
				fi
			fi &&
			commit_as -a - --allow-empty -m "commit $n" &&
			if test $((n % 7)) -eq 6
			then
				set -- $branches && rand $# && shift $r &&
				git checkout -q $1
			fi &&
			n=$((n + 1)) || return 1
		done &&
		git checkout -q main &&
		for b in $branches
		do
			merge_any $b ours || return 1
		done
	) &&
	test "$(git -C random rev-list --merges --count main)" -ge 20
'

test_expect_success 'the random history: the replay names git blame'"'"'s commit, with and without -w' '
	blame_all random main &&
	test_line_count -gt 150 expect &&
	test_cmp expect actual &&
	blame_all random main -w &&
	test_cmp expect actual
'

# replay_files DIR REV [OPTIONS]: the replay of every file at REV into OUT,
# "replayed N" into count
replay_files () {
	git -C "$1" ls-tree -r -z --name-only "$2" >files0 &&
	xargs -0 "$REPLAY" $3 "$1" "$2" <files0 >out 2>count
}

# advances_alone DIR BASE TIP: from BASE's checkpoint, the replay of TIP
# goes through the commits since BASE only, looks no file back, and gives
# every line the commit a replay from the first commit gives it
advances_alone () {
	replay_files "$1" "$3" &&
	mv out full.advance &&
	rm -f cp &&
	replay_files "$1" "$2" --checkpoint=cp &&
	replay_files "$1" "$3" --checkpoint=cp &&
	test "$(sed -n 1p count)" = "replayed $(git -C "$1" rev-list --count "$3" ^"$2")" &&
	test "$(sed -n 2p count)" = "looked back 0" &&
	test_cmp full.advance out
}

test_expect_success 'a replay from a checkpoint goes through the commits since, and ends as one from the start' '
	# later: main, two commits, and a branch forked after main merged in
	(
		cd random &&
		git checkout -q -b later main &&
		edit file1.c 2 "later line" && commit_as -a - -m "later 1" &&
		git checkout -q -b topic &&
		echo "topic line" >>file2.c && commit_as -a - -m "topic" &&
		git checkout -q later &&
		edit file3.c 1 "later again" && commit_as -a - -m "later 2" &&
		merge_any topic ours &&
		git checkout -q main
	) &&
	replay_files random later &&
	mv out full &&
	test "$(sed -n 1p count)" = "replayed $(git -C random rev-list --count later)" &&
	rm -f cp &&
	replay_files random main --checkpoint=cp &&
	test -f cp &&
	replay_files random later --checkpoint=cp &&
	test_cmp full out &&
	test "$(sed -n 1p count)" = "replayed 4" &&
	test "$(git -C random rev-list --count later ^main)" = 4 &&
	# the same tip again: nothing to replay
	replay_files random later --checkpoint=cp &&
	test_cmp full out &&
	test "$(sed -n 1p count)" = "replayed 0"
'

test_expect_success 'from checkpoints all along the history, merges and all: the same lines' '
	for n in 3 17 40
	do
		rm -f cp &&
		replay_files random main~$n --checkpoint=cp &&
		replay_files random later --checkpoint=cp &&
		test_cmp full out || return 1
	done &&
	# and with -w, whose checkpoint is not the one without
	replay_files random later -w &&
	mv out full-w &&
	replay_files random main "-w --checkpoint=cp" &&
	replay_files random later "-w --checkpoint=cp" &&
	test_cmp full-w out &&
	test "$(sed -n 1p count)" = "replayed 4"
'

test_expect_success 'a branch forked before the checkpoint: only its commit, its parent from git blame' '
	first=$(git -C random rev-list --max-parents=0 main | head -n 1) &&
	(
		cd random &&
		git checkout -q -b forked $first &&
		echo "forked" >>file1.c && commit_as -a - -m "forked" &&
		git checkout -q main
	) &&
	replay_files random forked &&
	mv out forked.full &&
	rm -f cp &&
	replay_files random main --checkpoint=cp &&
	replay_files random forked --checkpoint=cp &&
	test "$(sed -n 1p count)" = "replayed 1" &&
	test_cmp forked.full out
'

test_expect_success 'a checkpoint on a release branch keeps the fork point the main line grows from' '
	# rel forks from main~3 and is tagged; main goes on, then merges rel back
	(
		cd random &&
		git checkout -q -b rel main~3 &&
		edit file1.c 1 "release notes" && git rm -q file2.c && commit_as -a - -m "prepare release" &&
		git checkout -q -b grown main &&
		edit file3.c 2 "main goes on" && commit_as -a - -m "main after the fork" &&
		merge_any rel theirs &&
		edit file1.c 3 "after the merge" && commit_as -a - -m "after the release" &&
		git checkout -q main
	) &&
	advances_alone random rel grown
'

test_expect_success 'a branch forked after the checkpoint was written: its parent looked back, the same lines' '
	rm -f cp &&
	replay_files random main --checkpoint=cp &&
	(
		cd random &&
		git checkout -q -b late main~6 &&
		edit file1.c 2 "late topic" && commit_as -a - -m "late topic" &&
		git checkout -q main
	) &&
	replay_files random late &&
	mv out late.full &&
	replay_files random late --checkpoint=cp &&
	test "$(sed -n 1p count)" = "replayed 1" &&
	test "$(sed -n 2p count)" != "looked back 0" &&
	test_cmp late.full out
'

test_expect_success 'an older tip, a damaged checkpoint: from the start' '
	rm -f cp &&
	# an older tip: an ancestor of the checkpoint
	replay_files random main --checkpoint=cp &&
	replay_files random main~5 --checkpoint=cp &&
	test "$(sed -n 1p count)" = "replayed $(git -C random rev-list --count main~5)" &&
	header=$(head -n 1 cp) &&
	printf "%s\nkey test\ncommits 1\nnonsense\n" "$header" >cp &&
	replay_files random later --checkpoint=cp &&
	test_cmp full out &&
	grep "warning: the replay checkpoint .* is damaged" count &&
	grep "replayed $(git -C random rev-list --count later)" count
'

test_expect_success 'the fork point HEAD grows from is kept before smaller ones of other branches' '
	# a mirror line (every file differs from main: an id line of its own)
	# forked at the root; main takes it in, goes on to T, then takes it in
	# again after T: a later pass at HEAD needs the mirror'"'"'s fork point,
	# which differs from T in every file, while branches off T~1 differ little
	git init -q -b main forks &&
	(
		cd forks &&
		for i in $(seq 70)
		do
			test_write_lines "main $i" body "end $i" >f$i.c || return 1
		done &&
		commit_as -a - -m root &&
		git checkout -q -b mirror &&
		for i in $(seq 70)
		do
			edit f$i.c 1 "mirror $i" || return 1
		done &&
		commit_as -a - -m "mirror: ids" &&
		git checkout -q main &&
		for i in $(seq 70)
		do
			edit f$i.c 3 "main end $i" || return 1
		done &&
		commit_as -a - -m "main: ends" &&
		merge_any mirror ours &&
		test "$(git diff --name-only mirror HEAD | wc -l)" = 70 &&
		edit f2.c 2 "main two" && commit_as -a - -m "main: T~1" &&
		for b in b1 b2 b3
		do
			git checkout -q -b $b main &&
			edit f3.c 3 "$b" && commit_as -a - -m "$b" &&
			git checkout -q main || return 1
		done &&
		edit f4.c 2 "main T" && commit_as -a - -m "main: T" &&
		git tag T &&
		for b in b1 b2 b3
		do
			git checkout -q -b $b-late T~1 &&
			edit f5.c 3 "$b late" && edit f6.c 3 "$b late" && commit_as -a - -m "$b late" &&
			git checkout -q main || return 1
		done &&
		git checkout -q mirror &&
		edit f7.c 3 "mirror later" && commit_as -a - -m "mirror: later" &&
		git checkout -q main &&
		merge_any mirror ours &&
		test "$(git rev-parse HEAD^2)" = "$(git rev-parse mirror)"
	) &&
	advances_alone forks T main
'

# A merge's lines come from its combined patch (git log -c), split into
# a patch against each parent; a file that patch calls binary, and one a
# side renamed, take git diff of their blobs instead.
test_expect_success 'merges that differ from every parent: binary, renamed, octopus' '
	git init -q -b main merges &&
	(
		cd merges &&
		printf "a\000\nb\nc\nd\ne\n" >bin &&
		test_write_lines 1 2 3 4 5 6 7 8 >moved &&
		test_write_lines p q r s t u >oct &&
		commit_as -a - -m root &&
		git checkout -q -b x &&
		printf "a\000\nB\nc\nd\ne\n" >bin &&
		git mv moved renamed &&
		edit renamed 2 "x: two" &&
		commit_as -a - -m "x: edits, a rename" &&
		git checkout -q main &&
		printf "a\000\nb\nc\nd\nE\n" >bin &&
		edit moved 7 "main: seven" &&
		commit_as -a - -m "main: edits" &&
		test_tick &&
		! git merge -q --no-edit x >/dev/null 2>&1 &&
		printf "a\000\nB\nc\nd\nE\nmerged\n" >bin &&
		test_write_lines 1 "x: two" 3 4 5 6 "main: seven" 8 "merged" >renamed &&
		git add -A . &&
		git commit -q --no-edit &&
		test "$(git rev-parse HEAD^2)" = "$(git rev-parse x)" &&
		for b in o1 o2 o3
		do
			git checkout -q -b $b main~1 &&
			edit oct $(echo $b | tr -d o) "$b" &&
			commit_as -a - -m $b || return 1
		done &&
		git checkout -q main &&
		git merge -q --no-commit -s ours o1 o2 o3 >/dev/null 2>&1 &&
		test_write_lines p o1 o2 o3 "" octopus u >oct &&
		git add oct &&
		git commit -q -m octopus &&
		test "$(git rev-list --count --min-parents=4 HEAD)" = 1
	) &&
	blame_all merges main &&
	test_cmp expect actual &&
	grep -c "^renamed $(git -C merges rev-parse main~1)$" actual >count &&
	echo 1 >expected && test_cmp expected count &&
	blame_all merges main -w &&
	test_cmp expect actual
'

test_expect_success 'a path that is no file at the tip is an error, and a bad revision dies cleanly' '
	test_must_fail "$REPLAY" hard HEAD no-such-file 2>err &&
	grep "no-such-file" err &&
	test_must_fail "$REPLAY" hard no-such-rev f.c 2>err &&
	grep "fatal:" err
'

# accuracy: generated histories with known authors, and token blame against them
test_section accuracy
GENERATE=$TEST_DIRECTORY/accuracy/generate.py
SCORE=$TEST_DIRECTORY/accuracy/score.py
REAL=$TEST_DIRECTORY/accuracy/real.py


# A small file of several functions: typed parameters (for const), calls
# of one function several times (for arguments), identifiers used a few
# times (for renames).
write_small_seed () {
	cat >"$1" <<-\EOF
	/* A small table of counters, written for the accuracy tests. */
	#include <stdio.h>

	struct counter {
		int value;
		int limit;
	};

	static int counter_clamp(struct counter *counter, int limit)
	{
		if (counter->value > limit)
			counter->value = limit;
		return counter->value;
	}

	static void counter_bump(struct counter *counter, int step)
	{
		counter->value += step;
		counter_clamp(counter, counter->limit);
	}

	static void counter_reset(struct counter *counter, int limit)
	{
		counter->value = 0;
		counter->limit = limit;
		counter_clamp(counter, limit);
	}

	int main(int argc, char **argv)
	{
		struct counter counter;
		int i;

		counter_reset(&counter, 10);
		for (i = 1; i < argc; i++)
			counter_bump(&counter, i);
		printf("%d\n", counter_clamp(&counter, 5));
		return argv[0] == NULL;
	}
	EOF
}

# A long file of N short functions, all alike: short repeating lines,
# where a diff with a cost cut-off loses its way.
write_long_seed () {
	awk -v n="$2" 'BEGIN {
		for (i = 1; i <= n; i++) {
			printf "/* step %d */\n", i
			printf "static int step%d(struct state *s, int n)\n{\n", i
			printf "\tif (s->count > n) {\n\t\ts->count = n;\n\t}\n"
			printf "\treturn s->count;\n}\n\n"
		}
	}' >"$1"
}

write_donor () {
	cat >"$1" <<-\EOF
	static long parse_number(const char *text, int *ok)
	{
		long value = 0;
		*ok = 0;
		while (*text >= '0' && *text <= '9') {
			value = value * 10 + (*text - '0');
			text++;
			*ok = 1;
		}
		return value;
	}

	static unsigned hash_name(const char *name)
	{
		unsigned h = 5381;
		while (*name)
			h = h * 33 + (unsigned char)*name++;
		return h;
	}
	EOF
}

# generate NAME SEEDS KINDS COMMITS [EDITS]: history NAME (repository
# NAME, NAME.truth, NAME.log, token repository NAME.tokens); the donor
# functions come from $DONORS (default donors)
generate () {
	python3 "$GENERATE" --seeds "$2" --donors "${DONORS:-donors}" --out "$1" \
		--truth "$1.truth" --log "$1.log" --kinds "$3" \
		--commits "$4" --edits "${5:-1-1}" --seed 7 &&
	"$TOKSTREAM" convert -q "$1" "$1.tokens"
}

# truth_of NAME PATH: "INDEX COMMIT ALSO" for every token of PATH
truth_of () {
	awk -F'\t' -v p="$2" '$1 == p {print $2, $5, $6}' "$1.truth"
}

# view_of NAME PATH [REV]: the token view of PATH at REV in NAME
view_of () {
	git -C "$1" show "${3:-HEAD}:$2" >view-input.c &&
	"$TOKENIZE" view-input.c
}

# new_tokens NAME PATH: the tokens of PATH that the truth credits to
# commits after the first, one per line, as the view writes them
new_tokens () {
	first=$(git -C "$1" rev-list --max-parents=0 HEAD) &&
	view_of "$1" "$2" >view-now &&
	truth_of "$1" "$2" | awk -v f="$first" '$2 != f {print $1}' >new-index &&
	awk 'NR == FNR {want[$1] = 1; next} FNR in want' new-index view-now
}

# old_tokens NAME PATH: the view less the tokens new_tokens prints
old_tokens () {
	first=$(git -C "$1" rev-list --max-parents=0 HEAD) &&
	view_of "$1" "$2" >view-now &&
	truth_of "$1" "$2" | awk -v f="$first" '$2 != f {print $1}' >new-index &&
	awk 'NR == FNR {want[$1] = 1; next} !(FNR in want)' new-index view-now
}

# blame_mismatches NAME PATH: the tokens whose commit in tokstream blame
# is neither the truth's nor one it names as equally right; also any
# token at another position than the truth's
blame_mismatches () {
	"$TOKSTREAM" blame -C "$1.tokens" --porcelain "$2" |
	awk 'NF == 4 && $1 ~ /^[0-9]+$/ && length($4) == 40 {print $1, $2, $4}' >blamed &&
	awk -F'\t' -v p="$2" '$1 == p {print $3, $4, $5, $6}' "$1.truth" >truth-lines &&
	test_line_count = $(wc -l <truth-lines) blamed &&
	paste -d" " truth-lines blamed | awk '{
		ok = ($1 == $5 && $2 == $6) && ($3 == $7 || index("," $4 ",", "," $7 ","))
		if (!ok) print "token " NR ": truth " $0
	}'
}

# positions_agree NAME PATH: tokenize --positions of the final file gives
# the positions the truth gives
positions_agree () {
	git -C "$1" show "HEAD:$2" >final.c &&
	"$TOKENIZE" --positions final.c | cut -f1 | tr : " " >tokenized &&
	awk -F'\t' -v p="$2" '$1 == p {print $3, $4}' "$1.truth" >truth-positions &&
	test_cmp truth-positions tokenized
}

test_expect_success PYTHON 'seeds and donors' '
	mkdir small long donors &&
	write_small_seed small/counter.c &&
	write_long_seed long/steps.c 400 &&
	write_donor donors/parse.c &&
	test_line_count = 3600 long/steps.c
'

test_expect_success PYTHON 'the generator is deterministic' '
	python3 "$GENERATE" --seeds small --donors donors --out d1 --truth d1.truth --seed 3 --commits 6 &&
	python3 "$GENERATE" --seeds small --donors donors --out d2 --truth d2.truth --seed 3 --commits 6 &&
	test_cmp d1.truth d2.truth &&
	git -C d1 rev-parse HEAD >h1 && git -C d2 rev-parse HEAD >h2 &&
	test_cmp h1 h2 &&
	test $(git -C d1 rev-list --count HEAD) = 6 &&
	python3 "$GENERATE" --seeds small --donors donors --out d3 --truth d3.truth --seed 4 --commits 6 &&
	! test_cmp d1.truth d3.truth
'

test_expect_success PYTHON 'whitespace sweeps: every token keeps the first commit' '
	generate ws long ws 4 &&
	test $(wc -l <ws.log) = 4 &&
	git -C ws diff --stat HEAD~3 HEAD >stat && test_file_not_empty stat &&
	git -C ws diff -w HEAD~3 HEAD >wdiff && test_must_be_empty wdiff &&
	view_of ws steps.c HEAD~3 >before && view_of ws steps.c >after &&
	test_cmp before after &&
	first=$(git -C ws rev-list --max-parents=0 HEAD) &&
	truth_of ws steps.c | awk -v f="$first" "\$2 != f" >moved && test_must_be_empty moved &&
	truth_of ws steps.c >truth && test_line_count = $(wc -l <after) truth &&
	positions_agree ws steps.c
'

test_expect_success PYTHON 'whitespace sweeps: token blame is the truth' '
	blame_mismatches ws steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 're-wrapped lines: same view, first commit' '
	generate wrap small wrap 3 &&
	git -C wrap diff --stat HEAD~2 HEAD >stat && test_file_not_empty stat &&
	view_of wrap counter.c HEAD~2 >before && view_of wrap counter.c >after &&
	test_cmp before after &&
	new_tokens wrap counter.c >new && test_must_be_empty new &&
	positions_agree wrap counter.c &&
	blame_mismatches wrap counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'const insertions: exactly the new const tokens are new' '
	generate const small const 3 &&
	new_tokens const counter.c >new &&
	test_file_not_empty new &&
	sort -u new >kinds && echo const >expect && test_cmp expect kinds &&
	view_of const counter.c HEAD~2 >before && old_tokens const counter.c >rest &&
	test_cmp before rest &&
	sed -n "/^const$/p" before >c0 && sed -n "/^const$/p" rest >c1 && test_cmp c0 c1 &&
	positions_agree const counter.c
'

test_expect_success PYTHON 'const insertions: token blame is the truth' '
	blame_mismatches const counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'argument insertions: the commas and arguments added are new' '
	generate arg small arg 2 &&
	sed -n "s/.*argument \([a-zA-Z0-9]*\) added to \([0-9]*\) calls.*/\1 \2/p" arg.log >what &&
	read arg calls <what &&
	new_tokens arg counter.c >new &&
	grep -c "^$arg$" new >n && echo $calls >expect && test_cmp expect n &&
	view_of arg counter.c HEAD~1 >before && old_tokens arg counter.c >rest &&
	test_cmp before rest &&
	blame_mismatches arg counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'renames: exactly the renamed tokens are new' '
	generate rename small rename 2 &&
	sed -n "s/.*renamed \([A-Za-z_0-9]*\) to \([A-Za-z_0-9]*\) (\([0-9]*\) tokens).*/\1 \2 \3/p" rename.log >what &&
	read old new n <what &&
	new_tokens rename counter.c >newtok &&
	test_line_count = $n newtok &&
	sort -u newtok >names && echo $new >expect && test_cmp expect names &&
	view_of rename counter.c HEAD~1 >before &&
	test $(grep -c "^$old$" before) = $n &&
	! grep "^$old$" newtok &&
	positions_agree rename counter.c &&
	blame_mismatches rename counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a function written in a long file: the donor tokens, nothing else' '
	generate add long func_add 2 &&
	new_tokens add steps.c >new &&
	"$TOKENIZE" donors/parse.c >donor-view &&
	# the new tokens are one donor function, whole
	second=$(grep -n "^static$" donor-view | sed -n "2s/:.*//p") &&
	head -n $(($second - 1)) donor-view >f1 &&
	tail -n +$second donor-view >f2 &&
	{ test_cmp f1 new || test_cmp f2 new; } &&
	view_of add steps.c HEAD~1 >before && old_tokens add steps.c >rest &&
	test_cmp before rest
'

test_expect_success PYTHON 'functions written in several places of a long file: token blame is the truth' '
	mkdir donors4 &&
	write_donor donors4/parse.c &&
	cat >donors4/more.c <<-\EOF &&
	static int skip_blanks(const char **p)
	{
		int n = 0;
		while (**p == 0x20 || **p == 0x09) {
			(*p)++;
			n++;
		}
		return n;
	}

	static void clear_table(struct table *t, size_t size)
	{
		size_t i;
		for (i = 0; i < size; i++)
			t->slot[i] = NULL;
		t->used = 0;
	}
	EOF
	DONORS=donors4 generate adds long func_add 5 &&
	test $(grep -c "func_add steps.c" adds.log) = 4 &&
	blame_mismatches adds steps.c >bad && test_must_be_empty bad
'

# Three functions of 60 statements alike, 1279 tokens each, each its own
# text (the generator writes a donor's function once: twice would be a copy)
write_big_donor () {
	awk -v n=60 'BEGIN {
		for (f = 1; f <= 3; f++) {
			printf "static int run_all%d(struct state *s, int n)\n{\n", f
			for (i = 1; i <= n; i++)
				printf "\tif (s->count > %d) {\n\t\ts->count = step%d(s, n);\n\t}\n", i, 100 * f + i
			printf "\treturn s->count;\n}\n\n"
		}
	}' >"$1"
}

# view_blame_mismatches NAME PATH: as blame_mismatches, from git blame
# --minimal of the view in NAME.tokens (line i of the view is token i)
view_blame_mismatches () {
	git -C "$1.tokens" blame --minimal --line-porcelain HEAD -- "$2" |
	awk "length(\$1) == 40 && \$1 ~ /^[0-9a-f]+\$/ && NF >= 3 {print \$1}" >view-commits &&
	awk "NR == FNR {orig[\$2] = \$1; next} {print orig[\$1]}" \
		"$1.tokens/tokstream/commit-map" view-commits >blamed &&
	truth_of "$1" "$2" >truth-lines &&
	test_line_count = $(wc -l <truth-lines) blamed &&
	paste -d" " truth-lines blamed | awk '{
		if ($2 != $4 && !index("," $3 ",", "," $4 ",")) print "token " $0
	}'
}

test_expect_success PYTHON 'three large functions written in one commit of a long file: the truth' '
	mkdir bigdonor && write_big_donor bigdonor/all.c &&
	DONORS=bigdonor generate big long func_add 2 3-3 &&
	grep "commit 2 .*: func_add .*; func_add .*; func_add " big.log &&
	"$TOKENIZE" bigdonor/all.c >donor-view &&
	test_line_count = $((3 * 1279)) donor-view &&
	sort donor-view >expect &&
	new_tokens big steps.c >new &&
	sort new >actual &&
	test_cmp expect actual &&
	view_of big steps.c HEAD~1 >before && old_tokens big steps.c >rest &&
	test_cmp before rest &&
	# an exact diff of the views finds it: the truth is within reach
	view_blame_mismatches big steps.c >bad && test_must_be_empty bad
'

# git blame with its default diff gives up on the best alignment when the
# changes are large, and credits old tokens to the new functions.
test_expect_success PYTHON 'three large functions written in one commit of a long file: token blame is the truth' '
	blame_mismatches big steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a function deleted: the rest keeps the first commit' '
	generate del small func_del 2 &&
	new_tokens del counter.c >new && test_must_be_empty new &&
	view_of del counter.c HEAD~1 >before && view_of del counter.c >after &&
	test $(wc -l <after) -lt $(wc -l <before) &&
	blame_mismatches del counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'statements wrapped in an if: only if ( c ) { and } are new' '
	generate wrapif small func_wrap_if 2 &&
	new_tokens wrapif counter.c >new &&
	tr "\n" " " <new >line &&
	grep -E "^if \( [a-z]+ \) \{ \} $" line &&
	view_of wrapif counter.c HEAD~1 >before && old_tokens wrapif counter.c >rest &&
	test_cmp before rest &&
	blame_mismatches wrapif counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'moves between files: same tokens, all of the first commit' '
	mkdir two && write_small_seed two/a.c && write_long_seed two/b.c 40 &&
	generate movef two func_move_file 2 &&
	grep "moved to" movef.log &&
	cat two/a.c two/b.c >both.c && "$TOKENIZE" both.c | sort >before &&
	{ view_of movef a.c && view_of movef b.c; } | sort >after &&
	test_cmp before after &&
	new_tokens movef a.c >new1 && new_tokens movef b.c >new2 &&
	test_must_be_empty new1 && test_must_be_empty new2
'

test_expect_success PYTHON 'moves between files: token blame is the truth' '
	blame_mismatches movef a.c >bad1 && blame_mismatches movef b.c >bad2 &&
	test_must_be_empty bad1 && test_must_be_empty bad2
'

test_expect_success PYTHON 'a move within a long file: token blame is the truth' '
	generate move long func_move 2 &&
	grep "moved from" move.log &&
	new_tokens move steps.c >new && test_must_be_empty new &&
	blame_mismatches move steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a feature history: the truth matches tokenize, score.py scores it' '
	generate mixed long func_add,func_rewrite,func_wrap_if,rename,const,ws 8 1-3 &&
	positions_agree mixed steps.c &&
	test_expect_code 1 python3 "$SCORE" --threshold 100.1 mixed mixed.truth >table &&
	grep "^token blame " table &&
	grep "^git blame view --minimal " table &&
	grep "^line blame -w -M " table &&
	grep "^FAIL: token blame right for .* below the threshold 100.100%" table
'

test_expect_success PYTHON 'score.py: a history blamed right passes, a wrong truth fails' '
	python3 "$SCORE" --threshold 100 const const.truth >table &&
	grep "^token blame .* 100.000%" table &&
	grep "^PASS" table &&
	# credit every token to the last commit instead: no method is right
	last=$(git -C const rev-parse HEAD) &&
	awk -F"\t" -v OFS="\t" -v c="$last" "/^#/ {print; next} {\$5 = c; \$6 = \"-\"; print}" const.truth >wrong.truth &&
	test_expect_code 1 python3 "$SCORE" const wrong.truth >table &&
	grep "^FAIL" table
'

test_expect_success PYTHON 'real.py: a history where token and line blame agree' '
	python3 "$REAL" const >real-out &&
	grep "^TOTAL " real-out >total &&
	awk "{exit !(\$3 == 0)}" total &&
	grep "^PASS: 0.000%" real-out
'

# The shape of lua's lprefix.h: a line inserted above one that begins with
# the same tokens; git blame of the view pairs the old tokens with the
# new line, so the old line gets tokens newer than itself.
test_expect_success PYTHON 'real.py: no token newer than its line where lines begin alike' '
	git init -q alike &&
	printf "#if !defined(A)\n#define A 1\n#endif\n" >alike/x.c &&
	git -C alike add x.c && git -C alike commit -qm one &&
	test_tick &&
	printf "#if !defined(B)\n\n#if !defined(A)\n#define A 1\n#endif\n\n#endif\n" >alike/x.c &&
	git -C alike commit -qam two &&
	python3 "$REAL" alike >real-out &&
	grep "^TOTAL " real-out >total &&
	awk "{exit !(\$3 == 0)}" total
'

test_done
