#!/bin/sh

test_description='tokstream --max-held: held blobs past the limit go to a spill file

Blobs come before the commits that name them and are held until then
(for good when no source repository can give them again).  Past
--max-held bytes the oldest held contents go to a temporary file, which
is unlinked as soon as it is made; a blob larger than the limit goes
there as its bytes arrive.  The output must not change by a byte, memory
must stay bounded, and no exit may leave the file behind.  A stream read
from a regular file holds its blobs where they are in the file: nothing
is held in memory or spilled, and the output is the same.  The tests of
the spill file feed the stream through a pipe.'

. ./test-lib.sh

# no_files DIR: DIR is empty (no spill file was left there)
no_files () {
	ls -A "$1" >"$1.ls" &&
	test_must_be_empty "$1.ls"
}

# peak_of STATS: the peak memory (KiB) a --stats run printed
peak_of () {
	sed -n "s/^tokstream: peak memory \([0-9]*\) KiB$/\1/p" "$1"
}

# spilled_of STATS: the number of blobs a --stats run spilled
spilled_of () {
	sed -n "s/^tokstream: held at most [0-9]* bytes (--max-held [0-9]*), spilled blobs \([0-9]*\), .*/\1/p" "$1"
}

# import STREAM REPO: a fresh bare REPO made by git fast-import from STREAM;
# prints its refs with their ids (the commit ids of the token history)
import () {
	rm -rf "$2" &&
	git init -q --bare "$2" &&
	git -C "$2" fast-import --quiet <"$1" &&
	git -C "$2" for-each-ref --format="%(objectname) %(refname)"
}

# big_stream SIZE PATH: a stream whose one commit adds SIZE bytes of text at PATH
big_stream () {
	printf "blob\nmark :1\ndata %s\n" "$1" &&
	yes "int x = 1; /* a line of C, repeated */" | head -c "$1" &&
	printf "\ncommit refs/heads/main\nmark :2\ncommitter C O Mitter <c@example.com> 1700000000 +0000\ndata 4\nbig\nM 100644 :1 %s\n\ndone\n" "$2"
}

# start_filter DIR OPTIONS...: tokstream OPTIONS <fifo >live.out in the
# background, with TMPDIR=DIR; its pid in the file pid
start_filter () {
	sf_dir_=$1
	shift
	TMPDIR=$sf_dir_ "$TOKSTREAM" "$@" <fifo >live.out 2>live.err &
	echo $! >pid
}

# wait_for_spill_file PID: until PID has a deleted tokstream-spill-* open (10 s at most)
wait_for_spill_file () {
	wf_i_=0
	until ls -l /proc/$1/fd 2>/dev/null | grep "tokstream-spill-.* (deleted)$"
	do
		wf_i_=$(($wf_i_ + 1))
		test $wf_i_ -lt 100 || return 1
		sleep 0.1
	done
}

test_lazy_prereq PROC '
	test -r /proc/self/status &&
	grep "^VmHWM:" /proc/self/status &&
	test -d /proc/self/fd
'

# a sanitizer or valgrind reserves and keeps memory of its own: no bound on it
test_lazy_prereq NOT_SANITIZED '
	{ test -z "$TOKSTREAM_VALGRIND" || test "$TOKSTREAM_VALGRIND" = 0; } &&
	! grep -q __asan_init "$REPO_ROOT/tokstream"
'

test_expect_success 'setup: a history with many blobs, some named again later under another language' '
	git init -q src &&
	(
		cd src &&
		for i in $(seq 1 40)
		do
			printf "int f%d(int a) { return a * %d; /* step %d */ }\n" $i $i $i >>a.c &&
			printf "def g%d(x):\n    return x + %d\n" $i $i >"p$(($i % 7)).py" &&
			printf "note %d\n" $i >>notes.txt &&
			printf "bin\000ary %d\n" $i >data.bin &&
			if test $(($i % 5)) = 0
			then
				# the same content as a.c, under a language it had not
				# had yet: the held blob is needed again, after its commit
				cp a.c "copy$i.py" &&
				head -c 3000 a.c >"big$i.c"
			fi &&
			git add . &&
			test_tick &&
			git commit -q -m "step $i" || return 1
		done
	) &&
	git -C src fast-export --all --signed-tags=strip --reencode=no >src.export &&
	test $(grep -c "^blob$" src.export) -gt 150
'

test_expect_success 'setup: a stream that holds every blob until the end' '
	# 300 blobs first, then the commits; some without a mark, named by
	# their id (which the filter computes), one in the delimited form
	{
		for i in $(seq 1 300)
		do
			printf "blob\nmark :%d\ndata <<EOF\n" $i &&
			printf "int v%d = %d;\n" $i $i &&
			seq 1 $(($i % 13)) &&
			echo EOF || return 1
		done &&
		seq 1 2000 >markless.txt &&
		printf "blob\ndata %d\n" $(wc -c <markless.txt) &&
		cat markless.txt &&
		printf "\n" &&
		markless=$(git hash-object markless.txt) &&
		for i in $(seq 1 300)
		do
			printf "commit refs/heads/main\nmark :%d\ncommitter C O Mitter <c@example.com> %d +0000\ndata 2\nc\n" \
				$((1000 + $i)) $((1700000000 + $i)) &&
			printf "M 100644 :%d f%d.c\n" $((301 - $i)) $(($i % 17)) &&
			if test $(($i % 50)) = 0
			then
				printf "M 100644 :%d again%d.py\n" $i $i &&
				printf "M 100644 %s markless%d.sh\n" $markless $i
			fi &&
			echo || return 1
		done &&
		echo done
	} >held.export &&
	test $(grep -c "^blob$" held.export) = 301
'

test_expect_success 'a tiny --max-held changes no byte of the output, nor any commit id' '
	mkdir spill &&
	for s in src held
	do
		cat $s.export | TMPDIR=$PWD/spill "$TOKSTREAM" --stats >$s.plain 2>$s.plain.stats &&
		test "$(spilled_of $s.plain.stats)" = 0 &&
		import $s.plain $s-plain.git >$s-plain.refs &&
		test_line_count -gt 0 $s-plain.refs &&
		for limit in 0 1 1k 3k 8k
		do
			cat $s.export |
			TMPDIR=$PWD/spill "$TOKSTREAM" --stats --max-held=$limit >$s.$limit 2>$s.$limit.stats &&
			cat $s.$limit.stats &&
			test "$(spilled_of $s.$limit.stats)" -gt 0 &&
			cmp $s.plain $s.$limit &&
			import $s.$limit $s-$limit.git >$s-$limit.refs &&
			test_cmp $s-plain.refs $s-$limit.refs || return 1
		done || return 1
	done &&
	git -C src-plain.git rev-list --all >ids &&
	test_line_count = 40 ids &&
	git -C held-plain.git rev-list --all >ids &&
	test_line_count = 300 ids &&
	no_files spill
'

# held_of STATS: the most bytes held at once and the --max-held limit a --stats run printed
held_of () {
	sed -n "s/^tokstream: held at most \([0-9]*\) bytes (--max-held \([0-9]*\)), .*/\1 \2/p" "$1"
}

test_expect_success '--stats says how much was held at most, and the limit apart' '
	set -- $(held_of held.3k.stats) &&
	test $# = 2 && test "$1" -gt 0 && test "$1" -le 3072 && test "$2" = 3072 &&
	# every blob held until the end: all of their bytes, far below the default limit
	set -- $(held_of held.plain.stats) &&
	test $# = 2 && test "$1" -gt 3072 && test "$1" -lt "$2"
'

test_expect_success 'with the source at hand (blobs released, read again): the same output' '
	(
		cd src &&
		cat ../src.export |
		TMPDIR=$TRASH_DIRECTORY/spill "$TOKSTREAM" --stats --max-held=0 >../insrc.0 2>../insrc.stats
	) &&
	test "$(spilled_of insrc.stats)" -gt 100 &&
	cmp src.plain insrc.0 &&
	no_files spill
'

test_expect_success 'a saved stream (stdin a regular file) leaves its blobs in the file: none spills, the output is the same' '
	for s in src held
	do
		TMPDIR=$PWD/spill "$TOKSTREAM" --stats --max-held=0 <$s.export >$s.file 2>$s.file.stats &&
		test "$(spilled_of $s.file.stats)" = 0 &&
		cmp $s.plain $s.file || return 1
	done &&
	no_files spill
'

test_expect_success '... also when stdin does not start at the beginning of the file' '
	printf "prefix\n" >offset.export &&
	cat src.export >>offset.export &&
	{
		dd bs=7 count=1 of=/dev/null 2>/dev/null &&
		"$TOKSTREAM" --max-held=0
	} <offset.export >offset.out &&
	cmp src.plain offset.out
'

test_expect_success PROC,NOT_SANITIZED '... and holds none of them in memory, where a pipe holds them all' '
	{
		for i in $(seq 1 40)
		do
			printf "blob\nmark :%d\ndata 2000000\n" $i &&
			yes "int v$i = $i; /* held until the commit */" | head -c 2000000 &&
			echo || return 1
		done &&
		printf "commit refs/heads/main\nmark :100\ncommitter C O Mitter <c@example.com> 1700000000 +0000\ndata 2\nc\n" &&
		for i in $(seq 1 40)
		do
			printf "M 100644 :%d f%d.c\n" $i $i || return 1
		done &&
		printf "\ndone\n"
	} >many.export &&
	"$TOKSTREAM" --stats <many.export >many.file 2>many.file.stats &&
	cat many.export | "$TOKSTREAM" --stats >many.pipe 2>many.pipe.stats &&
	cmp many.file many.pipe &&
	test $(peak_of many.pipe.stats) -gt 78000 &&
	test $(peak_of many.file.stats) -lt 40000
'

test_expect_success 'a stream without blobs (--no-data): each is read from the source when named, the output is the same' '
	git -C src fast-export --all --signed-tags=strip --reencode=no --no-data >src.nodata &&
	! grep "^blob$" src.nodata &&
	cat src.nodata | "$TOKSTREAM" --source=src --stats >src.nodata.out 2>nodata.stats &&
	cat nodata.stats &&
	test "$(spilled_of nodata.stats)" = 0 &&
	import src.nodata.out nodata.git >nodata.refs &&
	test_cmp src-plain.refs nodata.refs
'

test_expect_success '... and a blob larger than --max-held goes through the spill file' '
	cat src.nodata |
	TMPDIR=$PWD/spill "$TOKSTREAM" --source=src --stats --max-held=1k >nodata.1k 2>nodata.1k.stats &&
	test "$(spilled_of nodata.1k.stats)" -gt 0 &&
	cmp src.nodata.out nodata.1k &&
	no_files spill
'

test_expect_success PROC,NOT_SANITIZED '... and holds none of a commit'"'"'s blobs: 40 of 2 MB cost no more than one' '
	git init -q wide &&
	for i in $(seq 1 40)
	do
		yes "int v$i = $i; /* read when its commit names it */" | head -c 2000000 >wide/f$i.c || return 1
	done &&
	git -C wide add . &&
	git -C wide commit -q -m wide &&
	git -C wide fast-export --all --no-data >wide.nodata &&
	git -C wide fast-export --all >wide.full &&
	cat wide.nodata | "$TOKSTREAM" --source=wide --stats >wide.nodata.out 2>wide.stats &&
	cat wide.full | "$TOKSTREAM" >wide.full.out &&
	import wide.full.out wide-full.git >wide-full.refs &&
	import wide.nodata.out wide-nodata.git >wide-nodata.refs &&
	test_cmp wide-full.refs wide-nodata.refs &&
	test $(peak_of wide.stats) -lt 40000
'

# asked_of STATS: "READ AHEAD UNUSED", the blobs a --stats run read from
# the source, how many of them were asked ahead, the answers not used
asked_of () {
	sed -n "s/^tokstream: blobs read from the source \([0-9]*\) ([0-9]* bytes), \([0-9]*\) of them asked ahead, answers asked ahead and not used \([0-9]*\)$/\1 \2 \3/p" "$1"
}

test_expect_success 'a commit of 3,000 files without blobs: they are asked of the source ahead, across input buffers' '
	git init -q many &&
	for d in $(seq 1 30)
	do
		mkdir -p "many/a-directory-with-a-long-name-$d" &&
		for f in $(seq 1 100)
		do
			printf "int f%d_%d;\n" $d $f >"many/a-directory-with-a-long-name-$d/file-$f.c" || return 1
		done || return 1
	done &&
	git -C many add . &&
	git -C many commit -q -m many &&
	git -C many fast-export --all --no-data >many.nodata &&
	test $(wc -c <many.nodata) -gt 200000 &&
	git -C many fast-export --all >many.full &&
	cat many.nodata | "$TOKSTREAM" --source=many --stats >many.nodata.out 2>many.stats &&
	cat many.stats &&
	set -- $(asked_of many.stats) &&
	test "$1" = 3000 &&
	test "$2" -gt 2900 &&
	test "$3" = 0 &&
	cat many.full | "$TOKSTREAM" >many.full.out &&
	import many.full.out many-full.git >many-full.refs &&
	import many.nodata.out many-nodata.git >many-nodata.refs &&
	test_cmp many-full.refs many-nodata.refs
'

test_expect_success 'a wrong guess costs nothing but its answer: lines like M lines in a message, a blob wanted again' '
	git init -q guess &&
	printf "int a;\n" >guess/a.c &&
	git -C guess add a.c &&
	git -C guess commit -q -m first &&
	real=$(git -C guess rev-parse HEAD:a.c) &&
	cp guess/a.c guess/a.py &&
	printf "int b;\n" >guess/b.c &&
	git -C guess add . &&
	# a message whose lines look like M lines: a real blob, a missing one
	printf "second\n\nM 100644 %s x.c\nM 100644 %s y.c\n" $real $(echo 1234567890123456789012345678901234567890) |
	git -C guess commit -q -F - &&
	git -C guess fast-export --all --no-data >guess.nodata &&
	grep "^M 100644 1234567890123456789012345678901234567890 y.c$" guess.nodata &&
	git -C guess fast-export --all >guess.full &&
	cat guess.nodata | "$TOKSTREAM" --source=guess --stats >guess.nodata.out 2>guess.stats &&
	cat guess.stats &&
	set -- $(asked_of guess.stats) &&
	test "$3" -gt 0 &&
	cat guess.full | "$TOKSTREAM" >guess.full.out &&
	import guess.full.out guess-full.git >guess-full.refs &&
	import guess.nodata.out guess-nodata.git >guess-nodata.refs &&
	test_cmp guess-full.refs guess-nodata.refs &&
	git -C guess-nodata.git show HEAD:a.py >a.py.view &&
	"$TOKENIZE" -l python guess/a.py >expect &&
	test_cmp expect a.py.view
'

test_expect_success '--identity with --max-held=0 keeps the source commit ids' '
	TMPDIR=$PWD/spill "$TOKSTREAM" --identity --max-held=0 <src.export >ident.stream &&
	import ident.stream ident.git >ident.refs &&
	git -C src for-each-ref --format="%(objectname) %(refname)" >src.refs &&
	test_cmp src.refs ident.refs
'

test_expect_success 'the spill file is gone after a fatal error' '
	# held blobs spill, then the input ends in the middle of a blob
	printf "blob\nmark :1\ndata 3\nab\nblob\nmark :2\ndata 3\ncd\nblob\nmark :3\ndata 100\nabc" \
		>truncated.export &&
	{ cat truncated.export | test_expect_code 128 env TMPDIR=$PWD/spill "$TOKSTREAM" --max-held=0 \
		>truncated.out 2>err; } &&
	cat err &&
	grep "^tokstream: fatal: line 11: blob: data: end of input after 3 of 100 bytes$" err &&
	! grep "^done$" truncated.out &&
	no_files spill
'

test_expect_success 'the spill file is made only when needed; one that cannot be made is a clear error' '
	cat src.export | TMPDIR=$PWD/no-such-dir "$TOKSTREAM" >nodir.out &&
	cmp src.plain nodir.out &&
	{ cat src.export | test_expect_code 128 env TMPDIR=$PWD/no-such-dir "$TOKSTREAM" --max-held=1k \
		>nodir.out 2>err; } &&
	cat err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: line [0-9]*: blob: cannot create a spill file in .*/no-such-dir.*: No such file or directory$" err &&
	! grep "^done$" nodir.out
'

test_expect_success PROC 'while running, the spill file is open but already unlinked; SIGKILL leaves nothing' '
	mkdir live &&
	mkfifo fifo &&
	start_filter "$PWD/live" --max-held=0 &&
	exec 9>fifo &&
	test_when_finished "exec 9>&-; kill -9 $(cat pid) 2>/dev/null; :" &&
	printf "blob\nmark :1\ndata 5\nabcd\n" >&9 &&
	wait_for_spill_file $(cat pid) &&
	no_files live &&
	kill -9 $(cat pid) &&
	test_expect_code 137 wait $(cat pid) &&
	no_files live
'

test_expect_success 'a 300 MB blob is streamed to the spill file and copied out in pieces' '
	# not a source file: copied unchanged (--keep-other), in pieces
	big_stream 300000000 big.bin |
	TMPDIR=$PWD/spill "$TOKSTREAM" --stats --keep-other --max-held=16m 2>spilled.stats |
	cksum >spilled.sum &&
	big_stream 300000000 big.bin |
	TMPDIR=$PWD/spill "$TOKSTREAM" --stats --keep-other --max-held=1g 2>held.stats |
	cksum >held.sum &&
	cat spilled.stats held.stats &&
	test_cmp held.sum spilled.sum &&
	grep "^tokstream: bytes in 3000001[0-9][0-9], bytes out 3000001[0-9][0-9]$" spilled.stats &&
	test "$(spilled_of spilled.stats)" = 1 &&
	test "$(spilled_of held.stats)" = 0 &&
	no_files spill
'

test_expect_success PROC,NOT_SANITIZED '... and memory stays bounded: 16 MiB of held blobs at most, plus 64 MiB' '
	# held in memory, the blob costs its size: the measure is real
	test $(peak_of held.stats) -gt 280000 &&
	test $(peak_of spilled.stats) -lt $(((16 + 64) * 1024))
'

test_expect_success 'a C file above 512 MiB is treated as binary: dropped, never tokenized' '
	big_stream $((513 * 1024 * 1024)) big.c |
	TMPDIR=$PWD/spill "$TOKSTREAM" --stats --max-held=16m >huge.out 2>huge.stats &&
	cat huge.stats &&
	grep "^tokstream: blobs in 1, token blobs out 0, unchanged blobs out 0, files dropped 1$" huge.stats &&
	grep "^D big.c$" huge.out &&
	test $(wc -c <huge.out) -lt 1000 &&
	no_files spill
'

test_expect_success PROC,NOT_SANITIZED '... and it is never whole in memory' '
	test $(peak_of huge.stats) -lt $(((16 + 64) * 1024))
'

test_expect_success 'a bad --max-held is a usage error' '
	for bad in "" abc 12q -1 1kb 1.5m " 1" 99999999999999999999999 99999999999999999999g
	do
		test_expect_code 129 "$TOKSTREAM" "--max-held=$bad" </dev/null >out 2>err &&
		head -n 1 err &&
		grep "^tokstream: error: --max-held=$bad: not a size (digits, then k, m or g)$" err &&
		grep "^usage: " err &&
		test_must_be_empty out || return 1
	done &&
	test_expect_code 129 "$TOKSTREAM" --max-held </dev/null 2>err &&
	grep "^tokstream: error: --max-held needs a SIZE$" err &&
	for good in 0 4096 10k 3M 2g
	do
		"$TOKSTREAM" --max-held=$good <src.export >good.out &&
		cmp src.plain good.out || return 1
	done &&
	"$TOKSTREAM" --max-held 1k <src.export >good.out &&
	cmp src.plain good.out
'

# (a million files, checked once by hand, takes fast-import about 20 s:
# the suite takes a tenth of it)
test_expect_success 'a commit of 100,000 files: every one gets its view' '
	awk "BEGIN {
		printf \"blob\\nmark :1\\ndata 11\\nint x = 1;\\n\\n\"
		printf \"commit refs/heads/main\\nmark :2\\ncommitter C <c@example.com> 1700000000 +0000\\ndata 4\\nbig\\n\"
		for (i = 0; i < 100000; i++)
			printf \"M 100644 :1 d%03d/f%06d.c\\n\", i % 100, i
		printf \"\\ndone\\n\"
	}" >wide.stream &&
	"$TOKSTREAM" <wide.stream >wide.out &&
	git init -q --bare wide.git &&
	git -C wide.git fast-import --quiet <wide.out &&
	git -C wide.git ls-tree -r main >wide.tree &&
	test_line_count = 100000 wide.tree &&
	test "$(cut -f1 wide.tree | sort -u | wc -l)" = 1 &&
	printf "int x = 1;\n" >one.c &&
	"$TOKENIZE" one.c >expect &&
	git -C wide.git cat-file blob main:d042/f054242.c >actual &&
	test_cmp expect actual
'

test_expect_success '--help lists --max-held' '
	"$TOKSTREAM" --help >help &&
	grep "^    --max-held SIZE  " help
'

test_done
