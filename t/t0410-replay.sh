#!/bin/sh

test_description='the forward replay gives every line the commit git blame gives it

report blames every file at once by replaying the history forwards
(contrib/replay.c) instead of running git blame file by file.  Here
both run on histories made to be hard: merges that take one side, the
other side or both, merges identical to their second parent, octopus
and criss-cross merges, renames on one side of a merge and on both,
paths swapped by renames, files deleted and brought back, type changes,
empty files, files without a last newline, CR line ends, NUL bytes and
odd names; then a history of 300 random commits on random branches.
For every file at the tip the replay must name, line by line, the
commits git blame --porcelain names, with and without -w.'

. ./test-lib.sh

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

test_done
