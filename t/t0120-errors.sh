#!/bin/sh

test_description='tokstream errors: exit 128, one clear line, no "done"

A broken stream must never look finished: the filter dies with status 128
and one "tokstream: fatal: line N: COMMAND: ..." line on stderr, and its
output has no "done" line, so that git fast-import (which the filter asks
for "feature done") rejects what came before.  Usage errors exit 129.'

. ./test-lib.sh

# expect_fatal LINE COMMAND MESSAGE [OPTIONS]: tokstream OPTIONS <in exits
# 128 with one line "tokstream: fatal: line LINE: COMMAND: ...MESSAGE..."
# (no "COMMAND: " when COMMAND is empty) and writes no "done"
expect_fatal () {
	ef_line_=$1 ef_cmd_=$2 ef_msg_=$3 &&
	shift 3 &&
	test_expect_code 128 "$TOKSTREAM" "$@" <in >out 2>err &&
	cat err &&
	test_line_count = 1 err &&
	if test -n "$ef_cmd_"
	then
		grep "^tokstream: fatal: line $ef_line_: $ef_cmd_: " err
	else
		grep "^tokstream: fatal: line $ef_line_: " err
	fi &&
	grep -F -e "$ef_msg_" err &&
	! grep "^done$" out
}

commit_header='commit refs/heads/main\nmark :2\ncommitter C O Mitter <c@example.com> 1700000000 +0000\ndata 2\nm\n'

test_expect_success 'a well-formed stream succeeds (the control)' '
	printf "blob\nmark :1\ndata 3\nab\n$commit_header" >in &&
	printf "M 100644 :1 a.c\n" >>in &&
	"$TOKSTREAM" <in >out 2>err &&
	test_must_be_empty err &&
	tail -n 1 out >last &&
	echo done >expect &&
	test_cmp expect last
'

test_expect_success 'truncated data' '
	printf "blob\nmark :1\ndata 10\nabc" >in &&
	expect_fatal 3 blob "end of input after 3 of 10 bytes"
'

test_expect_success 'a data count beyond the end of the input' '
	printf "blob\nmark :1\ndata 100000\nabc\n$commit_header" >in &&
	rest=$(sed 1,3d in | wc -c) &&
	test $rest -gt 50 &&
	expect_fatal 3 blob "end of input after $rest of 100000 bytes"
'

test_expect_success 'a negative data count' '
	printf "blob\nmark :1\ndata -1\na\n" >in &&
	expect_fatal 3 blob "invalid count '"'"'-1'"'"'"
'

test_expect_success 'non-numeric data counts' '
	for count in abc +1 0x10 "1 " " 1" ""
	do
		printf "blob\nmark :1\ndata %s\na\n" "$count" >in &&
		expect_fatal 3 blob "count" || return 1
	done
'

test_expect_success 'a data count of 2^64 - 1' '
	printf "blob\nmark :1\ndata 18446744073709551615\nabc\n" >in &&
	expect_fatal 3 blob "end of input after 4 of 18446744073709551615 bytes"
'

test_expect_success 'a data count beyond 2^64' '
	printf "blob\nmark :1\ndata 99999999999999999999999\nabc\n" >in &&
	expect_fatal 3 blob "count '"'"'99999999999999999999999'"'"' is too large" &&
	printf "blob\nmark :1\ndata 18446744073709551616\nabc\n" >in &&
	expect_fatal 3 blob "is too large"
'

test_expect_success 'a delimited data without its delimiter' '
	printf "blob\nmark :1\ndata <<EOF\nabc\nEOFX\n" >in &&
	expect_fatal 3 blob "end of input before the delimiter '"'"'EOF'"'"'"
'

test_expect_success 'an undefined mark: refused where its content is needed, left to fast-import elsewhere' '
	printf "$commit_header" >in &&
	printf "M 100644 :7 a.c\n" >>in &&
	expect_fatal 6 commit "mark :7 is not defined: a blob of an earlier run cannot be tokenized" &&
	# fast-import may have these from a marks file of its command line
	printf "$commit_header" >in &&
	printf "from :9\n" >>in &&
	"$TOKSTREAM" <in >out &&
	grep "^from :9$" out &&
	printf "tag v1\nfrom :3\ntagger T <t@example.com> 1700000000 +0000\ndata 0\n" >in &&
	"$TOKSTREAM" <in >out &&
	grep "^from :3$" out &&
	printf "$commit_header" >in &&
	printf "M 100644 :7 a.c\n" >>in &&
	"$TOKSTREAM" --identity <in >out &&
	grep "^M 100644 :7 a.c$" out
'

test_expect_success 'a redefined mark: the last definition counts, as in fast-import' '
	printf "blob\nmark :1\ndata 1\na\nblob\nmark :1\ndata 1\nb\n$commit_header" >in &&
	printf "M 100644 :1 a.txt\n" >>in &&
	"$TOKSTREAM" --keep-other <in >out &&
	git init -q --bare redef.git &&
	git -C redef.git fast-import --quiet <out &&
	echo b >expect &&
	git -C redef.git show main:a.txt >actual &&
	test_cmp expect actual
'

test_expect_success '"from" naming a blob mark' '
	printf "blob\nmark :1\ndata 1\na\n$commit_header" >in &&
	printf "from :1\n" >>in &&
	expect_fatal 10 commit ":1 names a blob, not a commit" &&
	printf "blob\nmark :1\ndata 1\na\n$commit_header" >in &&
	printf "merge :1\n" >>in &&
	expect_fatal 10 commit ":1 names a blob, not a commit"
'

test_expect_success '"alias" to what only fast-import can resolve; to a branch the stream made' '
	printf "$commit_header" >in &&
	printf "alias\nmark :3\nto 0:3\n" >>in &&
	"$TOKSTREAM" <in >out &&
	grep "^to 0:3$" out &&
	printf "$commit_header" >in &&
	printf "alias\nmark :3\nto refs/heads/main\n" >>in &&
	printf "reset refs/heads/copy\nfrom :3\n" >>in &&
	"$TOKSTREAM" <in >out 2>err &&
	test_must_be_empty err &&
	git init -q --bare alias.git &&
	git -C alias.git fast-import --quiet <out &&
	test "$(git -C alias.git rev-parse copy)" = "$(git -C alias.git rev-parse main)"
'

test_expect_success 'a file command naming a commit mark as its content' '
	printf "$commit_header" >in &&
	printf "M 100644 :2 a.c\n" >>in &&
	expect_fatal 6 commit "mark :2 is not a blob"
'

test_expect_success 'unknown commands' '
	printf "frobnicate\n" >in &&
	expect_fatal 1 frobnicate "unknown command '"'"'frobnicate'"'"'" &&
	printf "blob\nmark :1\ndata 1\na\n\nbolb\n" >in &&
	expect_fatal 6 bolb "unknown command '"'"'bolb'"'"'" &&
	printf "$commit_header" >in &&
	printf "M 100644 inline a.c\ndata 1\na\nX no such file command\n" >>in &&
	expect_fatal 9 X "unknown command '"'"'X no such file command'"'"'"
'

test_expect_success 'lines of megabytes: one short fatal line each' '
	awk "BEGIN { for (i = 0; i < 4 * 1024 * 1024; i++) printf \"x\"; print \"\" }" >in &&
	expect_fatal 1 "x\{40\}" "unknown command" &&
	test $(wc -c <err) -lt 400 &&
	{ printf "commit refs/heads/main\nmark :2\ncommitter " &&
	  awk "BEGIN { for (i = 0; i < 3 * 1024 * 1024; i++) printf \"n\"; print \" 1700000000 +0000\" }"; } >in &&
	expect_fatal 3 commit "committer" &&
	test $(wc -c <err) -lt 400
'

test_expect_success 'unknown commit headers' '
	printf "commit refs/heads/main\nmark :1\nfrobnicator F <f@example.com> 1 +0000\ncommitter C <c@example.com> 1 +0000\ndata 0\n" >in &&
	expect_fatal 3 commit "expected '"'"'committer'"'"', got '"'"'frobnicator F" &&
	printf "commit refs/heads/main\ncommitter C <c@example.com> 1 +0000\nbogus header\ndata 0\n" >in &&
	expect_fatal 3 commit "expected '"'"'data'"'"', got '"'"'bogus header'"'"'" &&
	printf "commit refs/heads/main\nauthor A <a@example.com> 1 +0000\nauthor A <a@example.com> 1 +0000\ncommitter C <c@example.com> 1 +0000\ndata 0\n" >in &&
	expect_fatal 3 commit "expected '"'"'committer'"'"'"
'

test_expect_success 'identities and dates: refused where git fast-import refuses them, passed where it takes them' '
	for ident in "C <c@example.com> 1700000000 +1401" \
		"C <c@example.com> 1700000000 +1200100" \
		"C <c@example.com> 18446744073709551616 +0000" \
		"C <c@example.com> 1700000000 +18446744073709551616" \
		"C <c@example.com> 1700000000 0000" \
		"C <c@example.com> 1700000000 +" \
		"C <c@example.com> x1700000000 +0000"
	do
		printf "commit refs/heads/main\ncommitter %s\ndata 0\n" "$ident" >in &&
		expect_fatal 2 commit "committer: invalid date" --date-format=raw &&
		rm -rf raw.git && git init -q --bare raw.git &&
		test_must_fail git -C raw.git fast-import --quiet <in 2>/dev/null || return 1
	done &&
	for ident in "C <c@example.com>1700000000 +0000" \
		"C c@example.com> 1700000000 +0000" \
		"C<c@example.com> 1700000000 +0000"
	do
		printf "commit refs/heads/main\ncommitter %s\ndata 0\n" "$ident" >in &&
		expect_fatal 2 commit "committer: " &&
		expect_fatal 2 commit "committer: " --date-format=rfc2822 &&
		rm -rf raw.git && git init -q --bare raw.git &&
		test_must_fail git -C raw.git fast-import --quiet <in 2>/dev/null || return 1
	done &&
	for ident in "C <c@example.com> 1700000000 +1400" \
		"C <c@example.com> 1700000000 -1400" \
		"C <c@example.com> 1700000000 +0000000001400" \
		"C <c@example.com> 18446744073709551615 +0000" \
		"<c@example.com> 0 -0000"
	do
		printf "commit refs/heads/main\ncommitter %s\ndata 0\n" "$ident" >in &&
		"$TOKSTREAM" --date-format=raw <in >out 2>err &&
		test_must_be_empty err &&
		rm -rf ok.git && git init -q --bare ok.git &&
		git -C ok.git fast-import --quiet <out || return 1
	done
'

test_expect_success 'told no date format, the filter leaves dates to fast-import, which may have been told one' '
	# fast-import alone is given the format (raw-permissive, rfc2822);
	# the command line overrides the stream'"'"'s feature date-format
	for ident in "C <c@example.com> 1234567890 +051800" \
		"C <c@example.com> 1700000000 +1401" \
		"C <c@example.com> Tue, 14 Nov 2023 22:13:20 +0000"
	do
		case $ident in
		*,*) format=rfc2822 ;;
		*) format=raw-permissive ;;
		esac &&
		for feature in "" "feature date-format=raw\n"
		do
			printf "${feature}commit refs/heads/main\ncommitter %s\ndata 0\n" "$ident" >in &&
			"$TOKSTREAM" <in >out 2>err &&
			test_must_be_empty err &&
			rm -rf alone.git && git init -q --bare alone.git &&
			git -C alone.git fast-import --quiet --date-format=$format <out &&
			rm -rf raw.git && git init -q --bare raw.git &&
			test_must_fail git -C raw.git fast-import --quiet <out 2>/dev/null || return 1
		done || return 1
	done &&
	# and fast-import alone given --done: an input that ends with done passes
	printf "blob\nmark :1\ndata 1\na\ndone\n" >in &&
	"$TOKSTREAM" <in >out &&
	rm -rf done.git && git init -q --bare done.git &&
	git -C done.git fast-import --quiet --done <out
'

test_expect_success 'bad file modes and paths' '
	printf "$commit_header" >in &&
	printf "M 100640 inline a.c\ndata 0\n" >>in &&
	expect_fatal 6 commit "invalid mode '"'"'100640'"'"'" &&
	printf "$commit_header" >in &&
	printf "M 10064x inline a.c\ndata 0\n" >>in &&
	expect_fatal 6 commit "invalid mode '"'"'10064x'"'"'" &&
	printf "$commit_header" >in &&
	printf "M 100644 inline \"a.c\" b\ndata 0\n" >>in &&
	expect_fatal 6 commit "garbage after the path"
'

# fast-import 2.39 takes a path that starts with a quote but does not
# unquote (no closing quote, a bad escape) as the bytes it is, and reads
# a mode as an octal number: the filter must read both the same way.
test_expect_success 'a path that does not unquote is literal, a mode is octal' '
	printf "blob\nmark :1\ndata 2\nx\n" >in &&
	printf "$commit_header" >>in &&
	printf "M 0100644 :1 \"a.c\nM 644 :1 \"b\\\\q.c\nR \"a.c c d.c\nD \"b\\\\q.c\ndone\n" >>in &&
	cat in &&
	git init -q --bare raw.git &&
	git -C raw.git fast-import --quiet <in &&
	git -C raw.git ls-tree -r --name-only main >expect &&
	echo "c d.c" >want &&
	test_cmp want expect &&
	"$TOKSTREAM" --keep-other <in >out &&
	rm -rf fi.git && git init -q --bare fi.git &&
	git -C fi.git fast-import --quiet <out &&
	git -C fi.git ls-tree -r --name-only main >actual &&
	test_cmp expect actual
'

# (the code of a test runs in this shell: it sees $command)
for command in cat-blob ls get-mark
do
	test_expect_success "the back-channel command $command" '
		msg="'"'"'$command'"'"' needs fast-import'"'"'s back channel" &&
		printf "%s :1\n" $command >in &&
		expect_fatal 1 $command "$msg" &&
		printf "$commit_header" >in &&
		printf "%s :1\n" $command >>in &&
		expect_fatal 6 commit "$msg" &&
		printf "feature %s\n" $command >in &&
		expect_fatal 1 feature "$msg"
	'
done

test_expect_success 'a stream that asked for "feature done" ends without "done"' '
	printf "feature done\nblob\nmark :1\ndata 1\na\n" >in &&
	expect_fatal 6 "" "end of input without '"'"'done'"'"'"
'

test_expect_success 'a command line cut off at the end of the input' '
	printf "blob\nmark :1\ndata 1\na\ncommit refs/he" >in &&
	expect_fatal 5 "" "in the middle of the line '"'"'commit refs/he'"'"'" &&
	printf "blob\nmark :1" >in &&
	expect_fatal 2 blob "in the middle of the line '"'"'mark :1'"'"'" &&
	printf "$commit_header" >in &&
	printf "M 100644 :1 a.c" >>in &&
	expect_fatal 6 commit "in the middle of the line '"'"'M 100644 :1 a.c'"'"'" &&
	printf "feature done\ndone" >in &&
	expect_fatal 2 "" "in the middle of the line '"'"'done'"'"'"
'

test_expect_success 'commands that end too early' '
	printf "blob\nmark :1\n" >in &&
	expect_fatal 3 blob "end of input before the blob" &&
	printf "commit refs/heads/main\ncommitter C <c@example.com> 1 +0000\n" >in &&
	expect_fatal 3 commit "end of input before the commit message" &&
	printf "tag v1\n" >in &&
	expect_fatal 2 tag "expected '"'"'from'"'"', got '"'"'end of input'"'"'" &&
	printf "$commit_header" >in &&
	printf "M 100644 inline a.c\n" >>in &&
	expect_fatal 7 commit "end of input before inline data"
'

test_expect_success 'feature and option after data commands' '
	printf "blob\nmark :1\ndata 1\na\noption git quiet\n" >in &&
	expect_fatal 5 option "option command after data commands" &&
	printf "blob\nmark :1\ndata 1\na\nfeature done\ndone\n" >in &&
	expect_fatal 5 feature "feature command after data commands"
'

test_expect_success 'a rename across languages (export with -M)' '
	printf "blob\nmark :1\ndata 4\nx y\n$commit_header" >in &&
	printf "M 100644 :1 notes.xyz\n\ncommit refs/heads/main\ncommitter C <c@example.com> 2 +0000\ndata 0\nR notes.xyz notes.c\n" >>in &&
	expect_fatal 15 commit "export without -M and -C"
'

test_expect_success 'a NUL byte in a command line (fast-import would read it cut short)' '
	printf "commit refs/heads\000/main\nmark :1\ncommitter C <c@example.com> 1 +0000\ndata 0\n" >in &&
	expect_fatal 1 "" "NUL byte in the command line" &&
	printf "$commit_header" >in &&
	printf "M 100644 inline a\000b.c\ndata 0\n" >>in &&
	expect_fatal 6 commit "NUL byte in the command line"
'

test_expect_success 'a ref that would be the directory of another, or under one: refused, as fast-import refuses it at the end' '
	one="mark :1\ncommitter C <c@example.com> 1 +0000\ndata 0\n\n" &&
	printf "commit refs/heads/a\n$one" >in &&
	printf "commit refs/heads/a/b\nmark :2\ncommitter C <c@example.com> 1 +0000\ndata 0\nfrom :1\n" >>in &&
	expect_fatal 6 commit "ref '"'"'refs/heads/a/b'"'"' would be under ref '"'"'refs/heads/a'"'"' of the stream" &&
	printf "commit refs/heads/a/b\n$one" >in &&
	printf "reset refs/heads/a\nfrom :1\n" >>in &&
	expect_fatal 7 reset "ref '"'"'refs/heads/a'"'"' would be the directory of other refs of the stream" &&
	printf "commit refs/heads/main\n$one" >in &&
	printf "tag v1/rc\nfrom :1\ndata 0\ntag v1\nfrom :1\ndata 0\n" >>in &&
	expect_fatal 9 tag "ref '"'"'refs/tags/v1'"'"' would be the directory of other refs of the stream" &&
	# a branch and a tag of one name do not meet; a reset without from frees its name
	printf "commit refs/heads/a\n$one" >in &&
	printf "tag a\nfrom :1\ndata 0\nreset refs/heads/a\n\n" >>in &&
	printf "commit refs/heads/a/b\nmark :2\ncommitter C <c@example.com> 1 +0000\ndata 0\nfrom :1\n\ndone\n" >>in &&
	"$TOKSTREAM" <in >out &&
	git init -q --bare refs.git &&
	git -C refs.git fast-import --quiet <out &&
	git -C refs.git for-each-ref --format="%(refname)" >actual &&
	test_write_lines refs/heads/a/b refs/tags/a >expect &&
	test_cmp expect actual
'

test_expect_success 'usage errors exit 129' '
	for args in --frobnicate "--lang=nosuchlanguage:x" --lang "--lang=c" --source "--source=" \
		--import-state --export-state -x
	do
		test_expect_code 129 "$TOKSTREAM" $args </dev/null >out 2>err &&
		cat err &&
		grep "^tokstream: error: " err &&
		grep "^usage: " err &&
		test_must_be_empty out || return 1
	done
'

test_expect_success 'setup: an exported history with the done feature' '
	git init -q src &&
	(
		cd src &&
		for i in 1 2 3 4 5 6
		do
			printf "int f%d(void)\n{\n\treturn %d;\n}\n" $i $i >f$i.c &&
			printf "x\000%d\n" $i >data$i.bin &&
			echo "notes $i" >notes.xyz &&
			git add . &&
			test_tick &&
			git commit -q -m "commit $i" || return 1
		done &&
		git tag -a -m "a tag" v1 &&
		test_merge_side HEAD~2
	) &&
	git -C src fast-export --all --use-done-feature >export &&
	head -n 1 export >first &&
	echo "feature done" >expect &&
	test_cmp expect first &&
	"$TOKSTREAM" <export >whole &&
	test "$(tail -n 1 whole)" = done &&
	test $(wc -c <export) -gt 2000
'

test_expect_success 'the stream cut at every 97th byte: always 128, never "done"' '
	size=$(wc -c <export) &&
	off=97 &&
	runs=0 &&
	while test $off -lt $size
	do
		head -c $off export >cut &&
		test_expect_code 128 "$TOKSTREAM" <cut >out 2>err &&
		test_line_count = 1 err &&
		grep "^tokstream: fatal: line [0-9]*: " err &&
		! grep "^done$" out &&
		off=$(($off + 97)) &&
		runs=$(($runs + 1)) || {
			echo "the stream cut after $off bytes"
			return 1
		}
	done &&
	test $runs -gt 20 &&
	# one byte short: the LF of "done"
	head -c $(($size - 1)) export >cut &&
	test_expect_code 128 "$TOKSTREAM" <cut >out 2>err &&
	! grep "^done$" out
'

test_done
