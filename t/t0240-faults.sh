#!/bin/sh

test_description='tokstream convert under faults: random kills, a full disk, a partial clone

A conversion killed with SIGKILL (its whole process group) at random
points, first conversions and updates alike, and run again: DEST always
ends identical, to the commit id, to an uninterrupted conversion.  A full
disk (a small tmpfs as DEST) gives one clear fatal line, leaves DEST as it
was, and the next run with space completes it.  A partial clone that
lacks objects is refused, naming the object, without fetching anything.

The kill points come from a seed printed as a "# random kills" line,
1006 unless TOKSTREAM_FAULT_SEED=N gives another (TOKSTREAM_FAULT_SEED=$(date +%s)
explores), so that a run of the suite kills where the last one did;
TOKSTREAM_FAULT_KILLS=N sets how many kills must land inside a run
(default 24).'

. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-convert.sh

# check_first_state DEST: a first conversion into DEST was stopped:
# DEST is missing, or a repository without refs, current and map, or
# the whole conversion (as ref.git), its lock and staging repository
# left when the stop came after the switch to the new generation, before
# the cleanup (the next run removes them)
check_first_state () {
	if test -e "$1/tokstream/current"
	then
		echo "stopped: the conversion was complete" &&
		same_history big ref.git "$1" &&
		ls "$1/tokstream" | grep -v -x -e lock -e staging.git >leftover &&
		test_write_lines commit-map current "$(readlink "$1/tokstream/current")" >expect-leftover &&
		test_cmp expect-leftover leftover
	elif test -e "$1"
	then
		echo "stopped: DEST made, nothing in it" &&
		git -C "$1" rev-parse --is-bare-repository >bare &&
		echo true >expect &&
		test_cmp expect bare &&
		test -z "$(git -C "$1" for-each-ref)" &&
		test_path_is_missing "$1/tokstream/commit-map"
	else
		echo "stopped: no DEST"
	fi
}

# check_update_state DEST: an update of DEST was stopped: DEST is as
# before.git or as after an uninterrupted update (timing.git)
check_update_state () {
	state_of "$1" >state.now &&
	if cmp -s state.before state.now
	then
		echo "stopped: as before"
	elif cmp -s state.ref state.now
	then
		echo "stopped: as after"
	else
		echo "DEST is neither as before nor as after the run:" &&
		diff -u state.before state.now | head -20 &&
		return 1
	fi
}

# check_state MODE DEST: check_first_state or check_update_state, as MODE
# (first or update) says which run was stopped
check_state () {
	if test "$1" = first
	then
		check_first_state "$2"
	else
		check_update_state "$2"
	fi
}

test_expect_success 'setup: a long history (600 commits of 4 files), converted whole and its first half' '
	long_history_repo big &&
	start=$(date +%s%N) &&
	"$TOKSTREAM" convert --quiet big ref.git &&
	echo $(( ($(date +%s%N) - start) / 1000000 )) >first.ms &&
	test "$(git -C ref.git rev-list --count main)" = 600 &&
	convert_first_half big before.git &&
	cp -R before.git timing.git &&
	start=$(date +%s%N) &&
	"$TOKSTREAM" convert --quiet big timing.git &&
	echo $(( ($(date +%s%N) - start) / 1000000 )) >update.ms &&
	same_as big ref.git timing.git &&
	state_of before.git >state.before &&
	state_of timing.git >state.ref &&
	! cmp -s state.before state.ref &&
	echo "a first conversion takes $(cat first.ms) ms, an update $(cat update.ms) ms" &&
	test $(cat first.ms) -gt 200 &&
	test $(cat update.ms) -gt 100
'

fault_seed=${TOKSTREAM_FAULT_SEED:-1006}
fault_kills=${TOKSTREAM_FAULT_KILLS:-24}
say "# random kills: seed $fault_seed (TOKSTREAM_FAULT_SEED=$fault_seed reproduces the kill points)"

# kill_run MS FRACTION: start a conversion of big into k.git in a new
# process group, SIGKILL the group after FRACTION of MS milliseconds;
# the file landed says whether the kill hit the run (1) or it had ended (0)
kill_run () {
	kr_delay_=$(awk "BEGIN { printf \"%.3f\", $1 * $2 / 1000 }") &&
	in_background setsid "$TOKSTREAM" convert --quiet big k.git 2>kill-err &&
	kr_pid_=$(cat bg.pid) &&
	sleep $kr_delay_ &&
	{ kill_group $kr_pid_ >/dev/null; true; } &&
	{ wait $kr_pid_; kr_status_=$?; true; } &&
	# the killed group's git commands may still be dying, writing into
	# DEST: the next run must not start (or remove DEST) before they are gone
	kr_tries_=0 &&
	while kill -0 -$kr_pid_ 2>/dev/null && test $kr_tries_ -lt 200
	do
		sleep 0.05 && kr_tries_=$(($kr_tries_ + 1)) || return 1
	done &&
	case $kr_status_ in
	137) echo 1 >landed && echo "  killed after ${kr_delay_} s ($2 of $1 ms)" ;;
	0) echo 0 >landed && echo "  the run had ended before ${kr_delay_} s ($2 of $1 ms)" ;;
	*) echo "  the run failed with $kr_status_:" && cat kill-err && return 1 ;;
	esac
}

test_expect_success "SIGKILL at random points, at least 20 kills inside runs; DEST always ends as the uninterrupted conversion" '
	landed_total=0 tries=0 &&
	while test $landed_total -lt $fault_kills && test $tries -lt $((2 * $fault_kills))
	do
		tries=$(($tries + 1)) &&
		set -- $(awk -v s=$fault_seed -v k=$tries "BEGIN {
			srand((s + 7919 * k) % 2147483647)
			printf \"%s %.3f %.3f %.3f\\n\", rand() < 0.5 ? \"first\" : \"update\", rand(), rand(), rand()
		}") &&
		mode=$1 frac=$2 again=$3 frac2=$4 &&
		echo "run $tries (seed $fault_seed): $mode" &&
		if test $mode = first
		then
			rm -rf k.git && ms=$(cat first.ms)
		else
			rm -rf k.git && cp -R before.git k.git && ms=$(cat update.ms)
		fi &&
		kill_run $ms $frac &&
		landed_total=$(($landed_total + $(cat landed))) &&
		check_state $mode k.git &&
		# about one time in three the run after a kill is killed too
		if test $(cat landed) = 1 && awk "BEGIN { exit !($again < 0.33) }"
		then
			echo "  the next run killed too" &&
			kill_run $ms $frac2 &&
			landed_total=$(($landed_total + $(cat landed))) &&
			check_state $mode k.git
		fi &&
		"$TOKSTREAM" convert --quiet big k.git &&
		same_as big ref.git k.git || {
			echo "FAILED at run $tries of seed $fault_seed (TOKSTREAM_FAULT_SEED=$fault_seed)"
			return 1
		}
	done &&
	echo "$landed_total kills inside a run, in $tries runs" &&
	echo $landed_total >kills-landed &&
	test $landed_total -ge 20
'

# The full disk: a small tmpfs mounted as DEST's file system.
test_tmpfs_prereq
test -z "$tmpfs_reason" ||
	test_skip 'a full disk (a small tmpfs as DEST): a clear error, the next run completes' "$tmpfs_reason"

# full_disk_run MODE KB: convert big into disk/d.git on a tmpfs of KB KiB
# (MODE first: no DEST yet; update: a copy of before.git); when it fails,
# one clear fatal line and DEST as it was; then the tmpfs grows and the
# next run completes DEST as ref.git.  Counts failures in full-failures.
full_disk_run () {
	mkdir -p disk &&
	mount -t tmpfs -o size=${2}k tmpfs disk &&
	if test $1 = update
	then
		cp -R before.git disk/d.git
	fi &&
	if "$TOKSTREAM" convert --quiet big disk/d.git 2>err
	then
		echo "  $1 on ${2} KiB: no error, the disk was large enough"
	else
		status=$? &&
		echo "  $1 on ${2} KiB: exit $status" &&
		cat err &&
		test $status = 128 &&
		tail -n 1 err >last &&
		grep "^tokstream: fatal: " last &&
		grep -E "is full|No space left on device" last &&
		test_path_is_missing disk/d.git/tokstream/lock &&
		find disk -name "*.tmp[0-9]*" >leftover &&
		test_must_be_empty leftover &&
		if test $1 = update
		then
			check_update_state disk/d.git &&
			state_of disk/d.git >state.now &&
			test_cmp state.before state.now
		else
			check_first_state disk/d.git
		fi &&
		echo $(($(cat full-failures) + 1)) >full-failures
	fi &&
	mount -o remount,size=$((4 * $(du -sk ref.git | cut -f1) + 4096))k disk &&
	"$TOKSTREAM" convert --quiet big disk/d.git &&
	same_as big ref.git disk/d.git &&
	umount disk
}

test_expect_success TMPFS 'a full disk in a first conversion, at several sizes: a clear error, the next run completes' '
	test_when_finished "umount disk 2>/dev/null; true" &&
	echo 0 >full-failures &&
	kb=$(du -sk ref.git | cut -f1) &&
	for pct in 3 10 25 50 75 90 100 150
	do
		full_disk_run first $(($kb * $pct / 100 + 4)) || return 1
	done &&
	echo "$(cat full-failures) of 8 sizes failed for want of space" &&
	test $(cat full-failures) -ge 4
'

test_expect_success TMPFS 'a full disk in an update: a clear error, DEST as it was, the next run completes' '
	test_when_finished "umount disk 2>/dev/null; true" &&
	echo 0 >full-failures &&
	before_kb=$(du -sk before.git | cut -f1) &&
	grow_kb=$(($(du -sk ref.git | cut -f1) - $before_kb)) &&
	test $grow_kb -gt 0 &&
	for pct in 5 25 50 100 200
	do
		full_disk_run update $(($before_kb + 64 + $grow_kb * $pct / 100)) || return 1
	done &&
	echo "$(cat full-failures) of 5 sizes failed for want of space" &&
	test $(cat full-failures) -ge 2
'

test_expect_success 'setup: a source that allows partial clones, and its conversion' '
	git init -q -b main psrc &&
	(
		cd psrc &&
		for i in 1 2 3
		do
			printf "int f%d(void) { return %d; }\n" $i $i >f$i.c &&
			git add f$i.c &&
			test_tick &&
			git commit -q -m "f$i" || return 1
		done &&
		git config uploadpack.allowFilter true &&
		git config uploadpack.allowAnySHA1InWant true
	) &&
	"$TOKSTREAM" convert --quiet psrc pref.git
'

test_expect_success 'a partial clone missing blobs: refused, naming the object, nothing fetched, no DEST' '
	git clone -q --bare --filter=blob:none "file://$TRASH_DIRECTORY/psrc" partial.git &&
	git -C partial.git rev-list --objects --all --missing=print | sed -n "s/^?//p" | sort >missing-before &&
	test_line_count = 3 missing-before &&
	test_expect_code 128 "$TOKSTREAM" convert --quiet partial.git pdest.git 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: source .partial.git. is a partial clone and lacks object [0-9a-f]\{40\}" err &&
	oid=$(sed -n "s/.* lacks object \([0-9a-f]*\).*/\1/p" err) &&
	grep -x "$oid" missing-before &&
	git -C partial.git rev-list --objects --all --missing=print | sed -n "s/^?//p" | sort >missing-after &&
	test_cmp missing-before missing-after &&
	test_path_is_missing pdest.git
'

test_expect_success 'a partial clone whose promisor is gone: the same clear error' '
	mv psrc psrc.away &&
	test_when_finished "mv psrc.away psrc" &&
	test_expect_code 128 "$TOKSTREAM" convert --quiet partial.git pdest.git 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "is a partial clone and lacks object" err &&
	test_path_is_missing pdest.git
'

test_expect_success 'a partial clone that has every object converts as the full source does' '
	git -C partial.git rev-list --objects --all --missing=print | sed -n "s/^?//p" >missing &&
	git -C partial.git cat-file --batch-check <missing >fetched &&
	test_line_count = 3 fetched &&
	test -z "$(git -C partial.git rev-list --objects --all --missing=print | grep "^?")" &&
	"$TOKSTREAM" convert --quiet partial.git pdest.git &&
	refs pref.git >expect &&
	refs pdest.git >actual &&
	test_cmp expect actual
'

test_done
