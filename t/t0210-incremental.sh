#!/bin/sh

test_description='tokstream convert: incremental updates, interruptions, the lock

Running convert again after the source changed must process only what is
new and give exactly the repository a fresh conversion of the new source
gives: the same refs to the object id, the same reachable commits, the
same map for them.  A run killed at any point must leave DEST as it was
or as the run would have left it, and the next run must finish the work.
One run at a time: a second run on the same DEST is refused while the
first holds the lock; a lock whose process is gone is taken over.'

. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-convert.sh

REAL_GIT=$(command -v git)

# same_as_fresh SRC DEST: DEST equals a fresh conversion of SRC
same_as_fresh () {
	rm -rf fresh.git &&
	"$TOKSTREAM" convert --quiet "$1" fresh.git &&
	same_as "$1" fresh.git "$2"
}

# update SRC DEST: an incremental run with --stats; leaves the filter's
# commit count in the file commits
update () {
	"$TOKSTREAM" convert --stats "$1" "$2" 2>stats &&
	sed -n "s/^tokstream: commits \([0-9]*\), .*/\1/p" stats >commits &&
	test_line_count = 1 commits
}

# commit_file FILE TEXT MESSAGE (in the current directory's repository)
commit_file () {
	printf "%s\n" "$2" >>"$1" &&
	git add "$1" &&
	commit_as - -m "$3"
}

test_expect_success 'setup: a source and its conversion' '
	git init -q -b main src &&
	(
		cd src &&
		commit_file a.c "int a;" "a.c" &&
		commit_file b.py "b = 1" "b.py" &&
		git tag -a v1 -m "v1" &&
		git checkout -q -b side &&
		commit_file s.sh "echo side" "side" &&
		git checkout -q main &&
		commit_file a.c "int a2;" "a2" &&
		git merge -q --no-ff -m "merge side" side &&
		git notes add -m "note one" HEAD~1
	) &&
	"$TOKSTREAM" convert --quiet src inc.git &&
	same_as_fresh src inc.git
'

test_expect_success 'a second run with no change changes nothing and converts no commit' '
	refs inc.git >before &&
	cp inc.git/tokstream/commit-map map-before &&
	update src inc.git &&
	echo 0 >expect &&
	test_cmp expect commits &&
	refs inc.git >after &&
	test_cmp before after &&
	test_cmp map-before inc.git/tokstream/commit-map &&
	grep "blobs in 0," stats &&
	same_as_fresh src inc.git
'

test_expect_success 'new commits on a branch: only they are converted' '
	(
		cd src &&
		commit_file a.c "int a3;" "a3" &&
		commit_file c.c "int c;" "c.c"
	) &&
	update src inc.git &&
	echo 2 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git
'

test_expect_success 'a new branch with a commit, a new branch on an old commit, new tags' '
	(
		cd src &&
		git checkout -q -b topic main~1 &&
		commit_file t.py "t = 2" "topic" &&
		git checkout -q main &&
		git branch old-point main~2 &&
		git tag -a v2 -m "v2 on an old commit" main~3 &&
		git tag light-new topic
	) &&
	update src inc.git &&
	echo 1 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git &&
	test "$(git -C inc.git cat-file -t refs/tags/v2)" = tag
'

test_expect_success 'a lost branch and a lost tag disappear from DEST' '
	git -C src branch -D old-point &&
	git -C src tag -d light-new &&
	update src inc.git &&
	echo 0 >expect &&
	test_cmp expect commits &&
	test_must_fail git -C inc.git rev-parse --verify -q refs/heads/old-point &&
	test_must_fail git -C inc.git rev-parse --verify -q refs/tags/light-new &&
	same_as_fresh src inc.git
'

test_expect_success 'a branch force-pushed back to an older commit' '
	git -C src update-ref refs/heads/topic "$(git -C src rev-parse topic~2)" &&
	update src inc.git &&
	echo 0 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git
'

test_expect_success 'a branch rewritten with a new commit (amended tip)' '
	(
		cd src &&
		git checkout -q side &&
		echo "echo rewritten" >s.sh &&
		git add s.sh &&
		test_tick &&
		git commit -q --amend -m "side, rewritten" &&
		git checkout -q main
	) &&
	update src inc.git &&
	echo 1 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git
'

test_expect_success 'new commits that bring back old contents, copy them and rename them' '
	(
		cd src &&
		git show main~4:a.c >a.c &&
		cp b.py b-copy.py &&
		git mv c.c renamed.h &&
		git add a.c b-copy.py &&
		test_tick &&
		git commit -q -m "old content back, a copy, a rename" &&
		git rm -q b.py &&
		test_tick &&
		git commit -q -m "delete b.py"
	) &&
	update src inc.git &&
	echo 2 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git &&
	"$TOKENIZE" src/a.c >expect &&
	git -C inc.git cat-file blob main:a.c >actual &&
	test_cmp expect actual
'

test_expect_success 'a new note, and HEAD moved to another branch' '
	git -C src notes add -m "note two" main &&
	git -C src symbolic-ref HEAD refs/heads/side &&
	update src inc.git &&
	echo 1 >expect &&
	test_cmp expect commits &&
	test "$(git -C inc.git symbolic-ref HEAD)" = refs/heads/side &&
	same_as_fresh src inc.git &&
	git -C src symbolic-ref HEAD refs/heads/main
'

test_expect_success 'several changes at once, and a run after a run after a run' '
	(
		cd src &&
		commit_file a.c "int many1;" "many 1" &&
		git branch -D topic &&
		git tag -d v1 &&
		git tag -a v1 -m "v1 moved" HEAD &&
		git checkout -q -b fresh-branch HEAD~2 &&
		commit_file f.c "int f;" "fresh branch" &&
		git checkout -q main
	) &&
	update src inc.git &&
	echo 2 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git &&
	update src inc.git &&
	update src inc.git &&
	echo 0 >expect &&
	test_cmp expect commits &&
	same_as_fresh src inc.git
'

# Every commit, the updates' too, is in DEST's commit-graph with its
# changed-path filter, which a blame's git rev-list -- PATH reads.
test_expect_success 'the commit-graph holds every commit of DEST with its changed-path filter' '
	git -C inc.git commit-graph verify &&
	GIT_TRACE2_EVENT="$PWD/trace" git -C inc.git rev-list --all -- a.c >/dev/null &&
	grep "\"category\":\"bloom\"" trace >bloom &&
	grep "\"filter_not_present\":0," bloom &&
	grep "\"definitely_not\":[1-9]" bloom
'

test_expect_success 'only the current generation is kept, and no staging or lock is left' '
	ls inc.git/tokstream >actual &&
	test_write_lines commit-map current "$(readlink inc.git/tokstream/current)" >expect &&
	test_cmp expect actual
'

# A DEST converted before convert ran git fast-export --no-data has its
# filter state from a stream that carried the blobs: a git on PATH that
# drops --no-data makes one.
test_expect_success 'a DEST made from an export with the blobs in it updates from one without' '
	mkdir bin-data &&
	write_script bin-data/git <<-EOF &&
	test "\$1" = fast-export || exec "$REAL_GIT" "\$@"
	for a
	do
		shift
		test "\$a" = --no-data || set -- "\$@" "\$a"
	done
	exec "$REAL_GIT" "\$@"
	EOF
	git clone -q src data-src &&
	PATH="$TRASH_DIRECTORY/bin-data:$PATH" "$TOKSTREAM" convert --stats data-src data.git 2>stats &&
	grep "^tokstream: blobs in [1-9][0-9]*, " stats &&
	(
		cd data-src &&
		commit_file new.py "n = 1" "new.py" &&
		git mv new.py renamed.py &&
		test_tick &&
		git commit -q -m "rename new.py"
	) &&
	update data-src data.git &&
	echo 2 >expect &&
	test_cmp expect commits &&
	grep "^tokstream: blobs in 0, token blobs out 1, " stats &&
	same_as_fresh data-src data.git
'

# The interruption tests: a larger history, and a git on PATH that can
# kill the conversion (its whole process group) or hold it at a chosen
# command.
test_expect_success 'setup: a larger history (600 commits of 4 files) and only its first half converted' '
	long_history_repo big &&
	convert_first_half big before.git &&
	cp -R before.git after.git &&
	"$TOKSTREAM" convert --quiet big after.git &&
	same_as_fresh big after.git
'

# check_killed DEST BEFORE AFTER: DEST is in state BEFORE or AFTER
check_killed () {
	state_of "$1" >state.now &&
	if cmp -s "$2" state.now
	then
		echo "killed: as before"
	elif cmp -s "$3" state.now
	then
		echo "killed: as after"
	else
		echo "DEST is neither as before nor as after the run:" &&
		diff -u "$2" state.now | head -20 &&
		return 1
	fi
}

# finish_after_kill SRC DEST REF: the next run completes and equals REF,
# a conversion of SRC that equals a fresh one
finish_after_kill () {
	"$TOKSTREAM" convert --quiet "$1" "$2" &&
	same_as "$1" "$3" "$2"
}

test_expect_success 'setup: the states before and after the update' '
	state_of before.git >state.before &&
	state_of after.git >state.after &&
	! cmp -s state.before state.after &&
	cp -R before.git timing.git &&
	start=$(date +%s%N) &&
	"$TOKSTREAM" convert --quiet big timing.git &&
	run_ms=$(( ($(date +%s%N) - start) / 1000000 )) &&
	echo "an update takes $run_ms ms" &&
	test "$run_ms" -gt 100
'

# (at 150% the run is over: DEST is as after it)
for fraction in 10 35 60 70 85 97 150
do
	test_expect_success "an update killed (SIGKILL, whole group) at $fraction% of its time" '
		rm -rf killed.git &&
		cp -R before.git killed.git &&
		in_background setsid "$TOKSTREAM" convert --quiet big killed.git &&
		pid=$(cat bg.pid) &&
		sleep $(awk "BEGIN { print $run_ms * $fraction / 100000 }") &&
		kill_group $pid &&
		{ wait $pid; true; } &&
		check_killed killed.git state.before state.after &&
		finish_after_kill big killed.git after.git
	'
done

# A git that counts nothing but matches its arguments against the
# pattern in git-kill (kill the process group before running), git-kill-after
# (kill it after running) or git-pause (wait for the file go, then run).
test_expect_success 'setup: a git that kills or pauses the conversion at a command' '
	mkdir bin &&
	write_script bin/git <<-EOF &&
	pat_kill=\$(cat "$TRASH_DIRECTORY/git-kill" 2>/dev/null)
	pat_kill_after=\$(cat "$TRASH_DIRECTORY/git-kill-after" 2>/dev/null)
	pat_pause=\$(cat "$TRASH_DIRECTORY/git-pause" 2>/dev/null)
	if test -n "\$pat_kill"
	then
		case "\$*" in
		\$pat_kill) kill -KILL 0 ;;
		esac
	fi
	if test -n "\$pat_pause"
	then
		case "\$*" in
		\$pat_pause)
			echo \$\$ >"$TRASH_DIRECTORY/paused"
			while ! test -f "$TRASH_DIRECTORY/go"
			do
				sleep 0.05
			done
			;;
		esac
	fi
	if test -n "\$pat_kill_after"
	then
		case "\$*" in
		\$pat_kill_after)
			"$REAL_GIT" "\$@"
			kill -KILL 0
			;;
		esac
	fi
	exec "$REAL_GIT" "\$@"
	EOF
	echo "version*" >git-kill &&
	test_expect_code 137 setsid env PATH="$TRASH_DIRECTORY/bin:$PATH" git version &&
	rm git-kill &&
	echo "version" >git-kill-after &&
	test_expect_code 137 setsid env PATH="$TRASH_DIRECTORY/bin:$PATH" git version >out &&
	grep "git version" out &&
	rm git-kill-after &&
	PATH="$TRASH_DIRECTORY/bin:$PATH" git version >out &&
	grep "git version" out
'

# convert_killed_at WHEN PATTERN DEST: convert small into DEST, the git of
# bin/ killing the run at the git command matching PATTERN (WHEN: kill or
# kill-after); the run must die of SIGKILL
convert_killed_at () {
	echo "$2" >"git-$1" &&
	test_when_finished "rm -f git-$1" &&
	{
		PATH="$TRASH_DIRECTORY/bin:$PATH" setsid "$TOKSTREAM" convert --quiet small "$3"
		test $? = 137 || { echo "the run was not killed"; false; }
	} &&
	rm "git-$1"
}

# kill_at WHEN PATTERN: kill an update of killed.git at the git command
# matching PATTERN (WHEN: kill or kill-after), check and finish
kill_at () {
	rm -rf killed.git &&
	cp -R small-before.git killed.git &&
	convert_killed_at "$1" "$2" killed.git &&
	check_killed killed.git small-state.before small-state.after &&
	finish_after_kill small killed.git small-after.git
}

test_expect_success 'setup: a small update to kill at every git command' '
	git clone -q --bare src small &&
	git -C small update-ref refs/heads/main main~1 &&
	"$TOKSTREAM" convert --quiet small small-before.git &&
	git -C small update-ref refs/heads/main "$(git -C src rev-parse main)" &&
	git -C small branch gone main~2 &&
	cp -R small-before.git small-after.git &&
	"$TOKSTREAM" convert --quiet small small-after.git &&
	same_as_fresh small small-after.git &&
	state_of small-before.git >small-state.before &&
	state_of small-after.git >small-state.after &&
	! cmp -s small-state.before small-state.after
'

for point in \
	'kill rev-parse --absolute-git-dir --is-shallow-repository -q --verify HEAD^{commit}' \
	'kill symbolic-ref -q HEAD' \
	'kill rev-parse --absolute-git-dir --is-bare-repository' \
	'kill init --quiet --bare *staging.git' \
	'kill fast-export *' \
	'kill -c fastimport.unpackLimit=0 -c pack.depth=0 fast-import *' \
	'kill-after fast-export *' \
	'kill-after -c fastimport.unpackLimit=0 -c pack.depth=0 fast-import *' \
	'kill for-each-ref --format=%(objectname) %(objecttype) %(refname)' \
	'kill-after for-each-ref --format=%(objectname) %(objecttype) %(refname)' \
	'kill for-each-ref --format=%(objectname) %(refname) refs/tokstream/' \
	'kill-after for-each-ref --format=%(objectname) %(refname) refs/tokstream/'
do
	test_expect_success "an update killed at: $point" '
		kill_at "${point%% *}" "${point#* }"
	'
done

# check_first_killed DEST: a first conversion into DEST was killed: DEST
# is missing, or a repository without refs, current and map
check_first_killed () {
	if test -e "$1"
	then
		git -C "$1" rev-parse --is-bare-repository >bare &&
		echo true >expect &&
		test_cmp expect bare &&
		test -z "$(git -C "$1" for-each-ref)" &&
		test_path_is_missing "$1/tokstream/current" &&
		test_path_is_missing "$1/tokstream/commit-map"
	fi
}

test_expect_success 'a first conversion killed early leaves no refs and no map' '
	rm -rf first.git timing-first.git &&
	start=$(date +%s%N) &&
	"$TOKSTREAM" convert --quiet big timing-first.git &&
	first_ms=$(( ($(date +%s%N) - start) / 1000000 )) &&
	in_background setsid "$TOKSTREAM" convert --quiet big first.git &&
	pid=$(cat bg.pid) &&
	# its refs are set before half its time: the repack comes after
	sleep $(awk "BEGIN { print $first_ms / 10000 }") &&
	kill_group $pid &&
	{ wait $pid; true; } &&
	check_first_killed first.git &&
	finish_after_kill big first.git after.git
'

for point in 'kill init --quiet --bare *first.git.tokstream-init' \
	'kill-after init --quiet --bare *first.git.tokstream-init' \
	'kill-after fast-export *' 'kill for-each-ref --format=%(objectname) %(objecttype) %(refname)'
do
	test_expect_success "a first conversion killed at: $point" '
		rm -rf first.git &&
		convert_killed_at "${point%% *}" "${point#* }" first.git &&
		check_first_killed first.git &&
		finish_after_kill small first.git small-after.git &&
		test_path_is_missing first.git.tokstream-init
	'
done

test_expect_success 'a first conversion killed in its repack is whole; the next run repacks' '
	rm -rf first.git &&
	convert_killed_at kill "-c repack.writeBitmaps=false repack *" first.git &&
	test_must_fail git -C first.git config tokstream.packedObjects &&
	state_of first.git >killed.state &&
	state_of small-after.git >expect &&
	test_cmp expect killed.state &&
	"$TOKSTREAM" convert --quiet small first.git &&
	git -C first.git config tokstream.packedObjects &&
	same_as_fresh small first.git &&
	git -C first.git fsck --no-progress --strict
'

test_expect_success 'the refs live in the generation: packed-refs is a link through current' '
	test "$(readlink small-after.git/packed-refs)" = tokstream/current/packed-refs &&
	test -z "$(find small-after.git/refs -type f)"
'

test_expect_success 'setup: a DEST whose refs are loose (as git update-ref leaves them)' '
	rm -rf loose.git &&
	cp -R small-before.git loose.git &&
	rm loose.git/packed-refs &&
	grep -v "^#" small-before.git/tokstream/current/packed-refs >refs-list &&
	while read oid name
	do
		git -C loose.git update-ref $name $oid || return 1
	done <refs-list &&
	git -C loose.git update-ref refs/heads/stray main &&
	git -C loose.git update-ref refs/tokstream/mine main &&
	test_path_is_missing loose.git/packed-refs &&
	test -n "$(find loose.git/refs -type f)" &&
	state_of loose.git >loose-state.before
'

for point in 'kill pack-refs --all --prune' 'kill-after pack-refs --all --prune'
do
	test_expect_success "loose refs: an update killed at: $point leaves the refs as they were" '
		rm -rf killed.git &&
		cp -R loose.git killed.git &&
		echo "${point#* }" >"git-${point%% *}" &&
		test_when_finished "rm -f git-${point%% *}" &&
		{
			PATH="$TRASH_DIRECTORY/bin:$PATH" setsid "$TOKSTREAM" convert --quiet small killed.git
			test $? = 137 || { echo "the run was not killed"; false; }
		} &&
		rm "git-${point%% *}" &&
		state_of killed.git >state.now &&
		test_cmp loose-state.before state.now
	'
done

test_expect_success 'loose refs: a run killed inside git pack-refs leaves its lock; the next run goes on' '
	rm -rf killed.git &&
	cp -R loose.git killed.git &&
	sh -c "echo \$\$" >killed.git/tokstream/lock &&
	echo stale >killed.git/packed-refs.lock &&
	"$TOKSTREAM" convert --quiet small killed.git &&
	test_path_is_missing killed.git/packed-refs.lock &&
	refs small-after.git >expect &&
	refs killed.git | grep -v " refs/tokstream/" >actual &&
	test_cmp expect actual
'

test_expect_success 'loose refs: the update folds them in, drops the stray one, keeps refs/tokstream/' '
	"$TOKSTREAM" convert --quiet small loose.git &&
	test "$(readlink loose.git/packed-refs)" = tokstream/current/packed-refs &&
	test -z "$(find loose.git/refs -type f)" &&
	test_must_fail git -C loose.git rev-parse -q --verify refs/heads/stray &&
	git -C loose.git rev-parse -q --verify refs/tokstream/mine &&
	git -C loose.git for-each-ref --format="%(refname)" refs/tokstream/ >actual &&
	echo refs/tokstream/mine >expect &&
	test_cmp expect actual &&
	refs small-after.git >expect &&
	refs loose.git | grep -v " refs/tokstream/" >actual &&
	test_cmp expect actual
'

test_expect_success 'git gc and git update-ref in DEST write through the link' '
	git -C loose.git update-ref refs/heads/by-hand main &&
	git -C loose.git gc -q &&
	test "$(readlink loose.git/packed-refs)" = tokstream/current/packed-refs &&
	grep " refs/heads/by-hand$" loose.git/tokstream/current/packed-refs &&
	"$TOKSTREAM" convert --quiet small loose.git &&
	test_must_fail git -C loose.git rev-parse -q --verify refs/heads/by-hand &&
	git -C loose.git fsck --no-progress
'

test_expect_success 'a second run on the same DEST is refused while the first runs' '
	rm -rf locked.git go paused &&
	cp -R small-before.git locked.git &&
	echo "fast-export *" >git-pause &&
	test_when_finished "rm -f git-pause; touch go" &&
	in_background env PATH="$TRASH_DIRECTORY/bin:$PATH" "$TOKSTREAM" convert --quiet small locked.git 2>first-err &&
	first=$(cat bg.pid) &&
	for i in $(seq 200)
	do
		test -f paused && break
		sleep 0.05
	done &&
	test_path_is_file paused &&
	test_path_is_file locked.git/tokstream/lock &&
	test "$(cat locked.git/tokstream/lock)" = $first &&
	test_expect_code 128 "$TOKSTREAM" convert --quiet small locked.git 2>err &&
	grep "another conversion (process $first) is updating" err &&
	grep "locked.git/tokstream/lock" err &&
	touch go &&
	wait $first &&
	test_must_be_empty first-err &&
	same_as_fresh small locked.git &&
	test_path_is_missing locked.git/tokstream/lock
'

test_expect_success 'a lock left by a process that is gone is taken over' '
	rm -rf stale.git &&
	cp -R small-before.git stale.git &&
	sh -c "echo \$\$" >stale.git/tokstream/lock &&
	dead=$(cat stale.git/tokstream/lock) &&
	! kill -0 $dead 2>/dev/null &&
	"$TOKSTREAM" convert --quiet small stale.git &&
	test_path_is_missing stale.git/tokstream/lock &&
	same_as_fresh small stale.git
'

test_expect_success 'a lock whose process is alive is respected, whatever the process' '
	rm -rf live.git &&
	cp -R small-before.git live.git &&
	in_background sleep 60 &&
	live=$(cat bg.pid) &&
	test_when_finished "kill $live" &&
	echo $live >live.git/tokstream/lock &&
	state_of live.git >expect &&
	readlink live.git/tokstream/current >>expect &&
	test_expect_code 128 "$TOKSTREAM" convert --quiet small live.git 2>err &&
	grep "another conversion (process $live)" err &&
	test "$(cat live.git/tokstream/lock)" = $live &&
	state_of live.git >actual &&
	readlink live.git/tokstream/current >>actual &&
	test_cmp expect actual
'

test_expect_success 'the filter takes --export-state FILE and --import-state FILE as with =' '
	git -C small fast-export --all --signed-tags=strip --reencode=no >small.stream &&
	"$TOKSTREAM" --export-state=state.eq <small.stream >out.eq &&
	"$TOKSTREAM" --export-state state.sp <small.stream >out.sp &&
	test_cmp out.eq out.sp &&
	test_cmp state.eq state.sp &&
	test -s state.sp &&
	"$TOKSTREAM" --import-state=state.eq </dev/null >next.eq &&
	"$TOKSTREAM" --import-state state.sp </dev/null >next.sp &&
	test_cmp next.eq next.sp
'

test_done
