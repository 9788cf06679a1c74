#!/bin/sh

test_description='tokstream --identity reproduces every object id of a history

With --identity the filter copies every blob unchanged, so a fast-export
stream that goes through it into an empty repository must give the very
same commits, tags and notes as the repository it came from: one changed
byte anywhere (a header, a message, a path, a mode, a parent) changes an
id.  Histories are built with git here; hand-written streams in
fixtures/streams/ use the forms fast-export never emits, and are compared
with what git fast-import makes of them unfiltered.'

. ./test-lib.sh

STREAMS="$TEST_DIRECTORY/fixtures/streams"

# A fixed clock, one minute per tick, so ids do not depend on the run.
tick_time=1700000000
tick () {
	tick_time=$((tick_time + 60))
	GIT_AUTHOR_DATE="$tick_time +0100"
	GIT_COMMITTER_DATE="$tick_time +0100"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# refs, commits and every reachable object of repository $1, to compare
snapshot () {
	git -C "$1" for-each-ref --format='%(objectname) %(objecttype) %(refname)' &&
	echo "--- rev-list --all --parents" &&
	git -C "$1" rev-list --all --parents &&
	echo "--- rev-list --all --objects" &&
	git -C "$1" rev-list --all --objects | sort
}

# count_is N FILE: FILE has N lines
count_is () {
	test $(wc -l <"$2") = "$1" || {
		echo "$2 has $(wc -l <"$2") lines, not $1"
		return 1
	}
}

# import stream file $1 into a new bare repository $2 (unfiltered)
import () {
	rm -rf "$2" &&
	git init -q --bare "$2" &&
	git -C "$2" fast-import --quiet <"$1"
}

# the stream through tokstream --identity, checking the exit status
identity () {
	"$TOKSTREAM" --identity <"$1" >"$2"
}

# Python lists a stream's commands other than blobs, feature done and done,
# blank lines dropped, to show that the filter changes nothing else.
cat >commands.py <<\EOF
import sys

TOP = (b"blob", b"commit ", b"tag ", b"reset ", b"alias", b"checkpoint",
       b"progress ", b"feature ", b"option ", b"done")

# Comment lines are left out: where they sit is checked apart.
def records(buf):
    i, recs = 0, []
    while i < len(buf):
        j = buf.index(b"\n", i)
        line, i = buf[i:j], j + 1
        if not line or line.startswith(b"#"):
            continue
        if line.startswith(b"data "):
            arg = line[5:]
            if arg.startswith(b"<<"):
                delim = arg[2:]
                end = buf.index(b"\n" + delim + b"\n", i - 1)
                payload, i = buf[i:end + 1], end + 1 + len(delim) + 1
            else:
                n = int(arg)
                payload, i = buf[i:i + n], i + n
            # both forms of data, as the exact count form
            recs[-1].append(b"data %d\n" % len(payload) + payload)
        elif not recs or line.startswith(TOP):
            recs.append([line])
        else:
            recs[-1].append(line)
    return [r for r in recs
            if r[0] not in (b"blob", b"feature done", b"done")]

out = sys.stdout.buffer
for r in records(open(sys.argv[1], "rb").read()):
    out.write(b"\n".join(r) + b"\n\n")
EOF

test_expect_success 'setup: a history with every kind of object, path and header' '
	git init -q -b main src &&
	(
		cd src &&
		tick &&
		echo hello >a.txt &&
		printf "#!/bin/sh\necho hi\n" >run.sh &&
		chmod +x run.sh &&
		printf "int main(void) { return 0; }\n" >main.c &&
		git add . &&
		git commit -q -m initial &&

		tick &&
		ln -s a.txt link &&
		mkdir "dir with space" &&
		echo q >"dir with space/f \"q\" \\b.txt" &&
		echo nl >"$(printf "new\nline")" &&
		echo tab >"$(printf "a\tb")" &&
		echo latin >"$(printf "caf\351")" &&
		printf "\000\001\002" >data.bin &&
		git add . &&
		git commit -q -m "odd paths, a symlink, binary data" &&

		tick &&
		git checkout -q -b side &&
		echo side >side.txt &&
		git add side.txt &&
		git commit -q -m side &&
		tick &&
		git checkout -q -b third main &&
		echo third >third.txt &&
		git add third.txt &&
		git commit -q -m third &&
		tick &&
		git checkout -q main &&
		echo main >main.txt &&
		git add main.txt &&
		git commit -q -m "main moves on" &&
		tick &&
		git merge -q --no-edit side third &&
		test $(git rev-list --parents -1 HEAD | wc -w) = 4 &&
		tick &&
		git checkout -q -b two side &&
		git merge -q --no-edit -m "a two-parent merge" third &&
		git checkout -q main &&

		tick &&
		git mv a.txt renamed.txt &&
		git commit -q -m rename &&
		tick &&
		git rm -q main.txt &&
		git commit -q -m delete &&
		tick &&
		chmod -x run.sh &&
		git commit -q -a -m "not executable any more" &&

		tick &&
		git update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,sub &&
		printf "[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n" >.gitmodules &&
		git add .gitmodules &&
		git commit -q -m "a submodule" &&

		tick &&
		printf "caf\351 cr\350me\n\nLatin-1 bytes in the message\n" >msg &&
		git -c i18n.commitEncoding=ISO-8859-1 commit -q --allow-empty -F msg &&
		git cat-file commit HEAD >raw &&
		grep "^encoding ISO-8859-1" raw &&
		tick &&
		git commit -q --allow-empty -m "an empty commit" &&
		tick &&
		git commit -q --allow-empty --allow-empty-message -m "" &&
		tick &&
		GIT_AUTHOR_NAME="Ünïcödé Ñame" GIT_AUTHOR_EMAIL= \
			git commit -q --allow-empty -m "an empty email" &&

		# identities git commit refuses, written as raw objects
		printf "tree %s\nparent %s\nauthor  <nobody@example.com> 1700001000 +1400\ncommitter Q. \"Quote\" O'"'"'Brien <q@ex ample.com> 0 -1200\n\nraw identities\n" \
			$(git rev-parse HEAD^{tree} HEAD) >raw &&
		weird=$(git hash-object -t commit -w raw) &&
		git update-ref refs/heads/weird $weird &&

		tick &&
		git tag -a -m "an annotated tag" v1 &&
		git tag light HEAD~3 &&
		git tag -a -m "a tag of a blob" blob-tag HEAD:renamed.txt &&
		tick &&
		git notes add -m "a note" HEAD~2 &&
		git notes add -m "another note" HEAD~5
	) &&
	git -C src fsck --no-progress &&
	test $(git -C src rev-list --all | wc -l) -ge 16
'

test_expect_success 'identity round trip of the fixture history reproduces every id' '
	git -C src fast-export --all --signed-tags=strip --reencode=no >export &&
	"$TOKSTREAM" --identity <export >filtered &&
	git init -q --bare dst &&
	git -C dst fast-import --quiet <filtered &&
	snapshot src >expect &&
	snapshot dst >actual &&
	test_cmp expect actual &&
	git -C dst fsck --no-progress
'

test_expect_success 'the one-line pipeline of the usage works as written' '
	git init -q --bare dst2 &&
	(
		cd src &&
		git fast-export --all --signed-tags=strip --reencode=no |
		"$TOKSTREAM" --identity |
		git -C ../dst2 fast-import --quiet
	) &&
	git -C src rev-list --all >expect &&
	git -C dst2 rev-list --all >actual &&
	test_cmp expect actual
'

test_expect_success 'the fixture covers what it claims' '
	# a failing export or a poor fixture would make the round trip vacuous
	git -C dst cat-file -p v1 | grep "^type commit" &&
	test $(git -C dst cat-file -t blob-tag) = tag &&
	git -C dst ls-tree -r main >tree &&
	grep "^120000 blob .*	link$" tree &&
	grep "^160000 commit 1111111111111111111111111111111111111111	sub$" tree &&
	grep "^100644 blob .*	\"caf\\\\351\"$" tree &&
	grep "^100644 blob .*	\"new\\\\nline\"$" tree &&
	grep "^100644 blob .*	\"dir with space/f \\\\\"q\\\\\" \\\\\\\\b.txt\"$" tree &&
	git -C dst ls-tree main~6 >tree6 &&
	grep "^100755 blob .*	run.sh$" tree6 &&
	git -C dst notes list >notes &&
	count_is 2 notes &&
	git -C dst rev-list --min-parents=3 --all >octopus &&
	count_is 1 octopus &&
	git -C dst rev-list --min-parents=2 --max-parents=2 --all >merge2 &&
	count_is 1 merge2 &&
	git -C dst cat-file commit main~3 | grep "^encoding ISO-8859-1" &&
	git -C dst cat-file commit weird | grep "^author  <nobody@example.com> 1700001000 +1400$"
'

if command -v python3 >/dev/null 2>&1
then
	test_expect_success 'everything but blobs passes through byte for byte' '
		python3 commands.py export >expect &&
		python3 commands.py filtered >actual &&
		test_cmp expect actual &&
		grep -a "^#" export | sort >expect &&
		grep -a "^#" filtered | sort >actual &&
		test_cmp expect actual &&
		python3 commands.py export | grep "^commit " >commits &&
		test $(wc -l <commits) = $(git -C src rev-list --all | wc -l)
	'
else
	test_skip 'everything but blobs passes through byte for byte' 'python3 is not installed'
fi

test_expect_success 'every input commit yields one output commit' '
	grep -c "^commit " export >expect &&
	grep -c "^commit " filtered >actual &&
	test_cmp expect actual &&
	grep -c "^blob$" export >expect &&
	grep -c "^blob$" filtered >actual &&
	test_cmp expect actual
'

test_expect_success 'a tag of a tag (fast-export --mark-tags) round trips' '
	# git fast-export names an inner tag after the outer ref (a bug of
	# its own), so the inner tag here bears the name of the ref to be
	# reproducible at all
	(
		cd src &&
		tick &&
		git tag -a -m "inner" nested main &&
		git tag -f -a -m "outer" nested nested
	) &&
	test "$(git -C src cat-file -p nested | sed -n "s/^type //p")" = tag &&
	git -C src fast-export --all --signed-tags=strip --reencode=no --mark-tags >export-tags &&
	identity export-tags filtered-tags &&
	import filtered-tags dst-tags &&
	snapshot src >expect &&
	snapshot dst-tags >actual &&
	test_cmp expect actual
'

test_expect_success 'identity round trip of this project'"'"'s own history' '
	if git -C "$TEST_DIRECTORY/.." rev-parse --git-dir >/dev/null 2>&1
	then
		git clone -q --mirror "$TEST_DIRECTORY/.." project.git &&
		git -C project.git fast-export --all --signed-tags=strip --reencode=no >project &&
		identity project project-filtered &&
		import project-filtered project-dst &&
		snapshot project.git >expect &&
		snapshot project-dst >actual &&
		test_cmp expect actual
	else
		echo "no project repository around the tests: nothing to compare"
	fi
'

# Hand-written streams: unfiltered into one repository, through the filter
# into another; the two must be the same.
for stream in delimited inline copy-rename misc comments
do
	test_expect_success "hand-written stream $stream.stream: identity gives the same ids" '
		import "$STREAMS/'$stream'.stream" plain-'$stream' &&
		identity "$STREAMS/'$stream'.stream" filtered-'$stream' &&
		import filtered-'$stream' ided-'$stream' &&
		snapshot plain-'$stream' >expect &&
		snapshot ided-'$stream' >actual &&
		test_cmp expect actual &&
		test -s expect &&
		tail -n 1 filtered-'$stream' >last &&
		echo done >done &&
		test_cmp done last
	'
done

test_expect_success 'the hand-written streams use the forms they are for' '
	grep "^data <<" "$STREAMS/delimited.stream" &&
	grep "^M 644 inline " "$STREAMS/inline.stream" &&
	grep "^M 755 inline " "$STREAMS/inline.stream" &&
	grep "^M 120000 inline " "$STREAMS/inline.stream" &&
	grep "^N inline " "$STREAMS/inline.stream" &&
	grep "^R " "$STREAMS/copy-rename.stream" &&
	grep "^C " "$STREAMS/copy-rename.stream" &&
	grep "^deleteall$" "$STREAMS/copy-rename.stream" &&
	grep "^alias$" "$STREAMS/misc.stream" &&
	grep "^checkpoint$" "$STREAMS/misc.stream" &&
	grep "^progress " "$STREAMS/misc.stream" &&
	grep "^option git quiet$" "$STREAMS/misc.stream" &&
	grep "^feature done$" "$STREAMS/misc.stream" &&
	grep "^done$" "$STREAMS/misc.stream" &&
	grep "^M 040000 " "$STREAMS/misc.stream" &&
	grep "^M 160000 " "$STREAMS/misc.stream" &&
	grep "^encoding " "$STREAMS/misc.stream" &&
	grep "^merge [0-9a-f]\{40\}$" "$STREAMS/misc.stream" &&
	grep "^# " "$STREAMS/misc.stream" &&
	test $(grep -c "^#" "$STREAMS/comments.stream") -gt 20 &&
	test $(git -C plain-misc rev-list --all | wc -l) = 5 &&
	git -C plain-misc ls-tree -r side >tree &&
	grep "	copy-of-dir/x.c$" tree
'

if command -v python3 >/dev/null 2>&1
then
	test_expect_success 'hand-written streams: all but blobs pass through byte for byte' '
		for s in delimited inline copy-rename misc comments
		do
			python3 commands.py "$STREAMS/$s.stream" >expect-$s &&
			python3 commands.py filtered-$s >actual-$s &&
			test_cmp expect-$s actual-$s &&
			grep -a "^#" "$STREAMS/$s.stream" | sort >expect-$s &&
			grep -a "^#" filtered-$s | sort >actual-$s &&
			test_cmp expect-$s actual-$s || return 1
		done
	'
else
	test_skip 'hand-written streams: all but blobs pass through byte for byte' 'python3 is not installed'
fi

test_expect_success 'blobs without marks, referenced by object name' '
	printf "hello\n" >hello &&
	printf "int x = 1;\n" >x.c &&
	h=$(git hash-object hello) &&
	x=$(git hash-object x.c) &&
	{
		printf "blob\ndata 6\nhello\n\n" &&
		printf "blob\ndata %d\n" $(wc -c <x.c) && cat x.c &&
		printf "commit refs/heads/main\ncommitter C <c@example.com> 1700000000 +0000\ndata 7\nby oid\n" &&
		printf "M 100644 %s hello.txt\n" $h &&
		printf "M 100644 %s src/x.c\n" $x &&
		printf "M 100755 %s copy/x.c\n\n" $x &&
		printf "tag blob-by-oid\nfrom %s\ntagger T <t@example.com> 1700000000 +0000\ndata 0\n" $h
	} >by-oid.stream &&
	import by-oid.stream plain-oid &&
	identity by-oid.stream filtered-oid &&
	import filtered-oid ided-oid &&
	snapshot plain-oid >expect &&
	snapshot ided-oid >actual &&
	test_cmp expect actual &&
	test $(git -C ided-oid rev-parse main:hello.txt) = $h &&
	test $(git -C ided-oid rev-parse main:src/x.c) = $x
'

test_expect_success 'an empty stream gives an empty import' '
	"$TOKSTREAM" --identity </dev/null >out &&
	printf "feature done\ndone\n" >expect &&
	test_cmp expect out &&
	import out empty &&
	git -C empty for-each-ref >refs &&
	count_is 0 refs
'

test_done
