#!/bin/sh

test_description='tokstream map: commit ids between a repository and its token repository

map reads DEST/tokstream/commit-map and prints, for each full or
abbreviated id, its counterpart either way; it refuses ids that are not
4 to 40 hex digits, ids the map lacks, abbreviations of several commits,
and a DEST without a map.'

. ./test-lib.sh

test_expect_success 'setup: a history of 1000 commits and its token repository' '
	awk "BEGIN {
		t = 1112911993
		for (i = 1; i <= 1000; i++) {
			msg = \"commit \" i \"\\n\"
			body = \"int v\" i \" = \" i \";\\n\"
			printf \"commit refs/heads/main\\nmark :%d\\n\", i
			printf \"committer C O Mitter <committer@example.com> %d +0000\\n\", t + 60 * i
			printf \"data %d\\n%s\", length(msg), msg
			if (i > 1)
				printf \"from :%d\\n\", i - 1
			printf \"M 100644 inline f%d.c\\ndata %d\\n%s\\n\", i % 7, length(body), body
		}
	}" >stream &&
	git init -q -b main src &&
	git -C src fast-import --quiet <stream &&
	git -C src branch side main~500 &&
	"$TOKSTREAM" convert --quiet src dest.git &&
	cp dest.git/tokstream/commit-map map &&
	test_line_count = 1000 map
'

test_expect_success 'every original id gives its token id, and every token id its original' '
	cut -d" " -f1 map >origs &&
	cut -d" " -f2 map >toks &&
	"$TOKSTREAM" map -C dest.git $(cat origs) >actual &&
	test_cmp toks actual &&
	"$TOKSTREAM" map -C dest.git $(cat toks) >actual &&
	test_cmp origs actual
'

test_expect_success 'the token id of a branch tip is the tip of that branch in DEST' '
	test "$("$TOKSTREAM" map -C dest.git $(git -C src rev-parse side))" = \
		"$(git -C dest.git rev-parse side)" &&
	test "$("$TOKSTREAM" map -C dest.git $(git -C dest.git rev-parse main))" = \
		"$(git -C src rev-parse main)"
'

test_expect_success 'several ids, of both kinds, give one line each, in order' '
	o=$(sed -n 10p origs) && t=$(sed -n 20p toks) && o2=$(sed -n 30p origs) &&
	"$TOKSTREAM" map -C dest.git $o $t $o2 >actual &&
	{ sed -n 10p toks && sed -n 20p origs && sed -n 30p toks; } >expect &&
	test_cmp expect actual
'

# The prefixes of length 4 of all 2000 ids, and how many ids each starts.
test_expect_success 'setup: four-digit prefixes that are unique and that are not' '
	cat origs toks | cut -c1-4 | sort | uniq -c >prefixes &&
	awk "\$1 == 1 { print \$2 }" prefixes >unique4 &&
	awk "\$1 > 1 { print \$2 }" prefixes >shared4 &&
	test_file_not_empty unique4 &&
	test_file_not_empty shared4
'

test_expect_success 'an id abbreviated to 4 hex digits, when it is unique' '
	for p in $(head -n 20 unique4)
	do
		full=$(grep "^$p" origs toks | head -n 1 | cut -d: -f2) &&
		"$TOKSTREAM" map -C dest.git $p >actual &&
		"$TOKSTREAM" map -C dest.git $full >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'abbreviations of 7 and 12 digits, and upper-case hex' '
	o=$(sed -n 500p origs) && t=$(sed -n 500p toks) &&
	test "$("$TOKSTREAM" map -C dest.git $(echo $o | cut -c1-7))" = $t &&
	test "$("$TOKSTREAM" map -C dest.git $(echo $t | cut -c1-12))" = $o &&
	test "$("$TOKSTREAM" map -C dest.git $(echo $o | tr a-f A-F))" = $t
'

test_expect_success 'an abbreviation of several commits is ambiguous (exit 128)' '
	p=$(head -n 1 shared4) &&
	test_expect_code 128 "$TOKSTREAM" map -C dest.git $p >out 2>err &&
	grep "$p: ambiguous" err &&
	test_must_be_empty out
'

test_expect_success 'an id the map lacks is an error (exit 128)' '
	test_expect_code 128 "$TOKSTREAM" map -C dest.git 0000000000000000000000000000000000000000 2>err &&
	grep "0000000000000000000000000000000000000000: no such commit in the commit map" err &&
	blob=$(git -C dest.git rev-parse main:f1.c) &&
	test_expect_code 128 "$TOKSTREAM" map -C dest.git $blob 2>err &&
	grep "no such commit" err
'

test_expect_success 'an unknown id among good ones fails the command' '
	o=$(sed -n 1p origs) &&
	test_expect_code 128 "$TOKSTREAM" map -C dest.git $o ffffffffffffffffffffffffffffffffffffffff 2>err &&
	grep "no such commit" err
'

test_expect_success 'what is neither an id nor a revision of the source is an error (exit 128)' '
	for bad in abc nosuchbranch HEAD~5000 "12 34" 0123456789abcdef0123456789abcdef012345678 g123 ""
	do
		test_expect_code 128 "$TOKSTREAM" map -C dest.git "$bad" 2>err &&
		grep "is neither a commit id nor a revision of .*/src.$" err || return 1
	done
'

test_expect_success 'a revision of the source maps to its token commit, as its id does' '
	for rev in main HEAD~1 side side^ main~999
	do
		"$TOKSTREAM" map -C dest.git $(git -C src rev-parse "$rev") >expect &&
		"$TOKSTREAM" map -C dest.git "$rev" >actual &&
		test_cmp expect actual || return 1
	done &&
	git -C dest.git rev-parse main~1 >expect &&
	"$TOKSTREAM" map -C dest.git main~1 >actual &&
	test_cmp expect actual
'

test_expect_success 'a DEST that is no token repository is an error naming it (exit 128)' '
	git init -q --bare plain.git &&
	test_expect_code 128 "$TOKSTREAM" map -C plain.git 1234 2>err &&
	grep "plain.git. is no token repository, and records none" err &&
	git init -q worktree &&
	test_expect_code 128 "$TOKSTREAM" map -C worktree 1234 2>err &&
	grep "worktree. is no token repository, and records none" err
'

test_expect_success 'a DEST that is no repository is an error (exit 128)' '
	mkdir nothing &&
	test_expect_code 128 "$TOKSTREAM" map -C nothing 1234 2>err &&
	grep "nothing. is not a git repository" err &&
	test_expect_code 128 "$TOKSTREAM" map -C no-such-dir 1234 2>err &&
	grep "no-such-dir" err
'

test_expect_success 'no id, a -C without its directory, an unknown option: usage errors (exit 129)' '
	test_expect_code 129 "$TOKSTREAM" map -C dest.git 2>err &&
	grep "no id given" err &&
	grep "usage: tokstream map" err &&
	test_expect_code 129 "$TOKSTREAM" map -C 2>err &&
	grep "usage: tokstream map" err &&
	test_expect_code 129 "$TOKSTREAM" map --bogus 1234 2>err &&
	grep "unknown option" err
'

test_expect_success '-h prints the usage on stdout and succeeds' '
	"$TOKSTREAM" map -h >out &&
	grep "usage: tokstream map" out
'

test_expect_success 'without -C, DEST is the current directory' '
	o=$(sed -n 7p origs) &&
	(cd dest.git && "$TOKSTREAM" map $o) >actual &&
	sed -n 7p toks >expect &&
	test_cmp expect actual
'

test_expect_success 'after an update the map translates the new commits, and still the old' '
	git -C src commit-tree -p main -m "one more" "$(git -C src rev-parse main^{tree})" >new &&
	git -C src update-ref refs/heads/main "$(cat new)" &&
	"$TOKSTREAM" convert --quiet src dest.git &&
	test "$("$TOKSTREAM" map -C dest.git $(cat new))" = "$(git -C dest.git rev-parse main)" &&
	o=$(sed -n 3p origs) &&
	test "$("$TOKSTREAM" map -C dest.git $o)" = "$(sed -n 3p toks)"
'

test_expect_success 'with --identity an id is its own counterpart, and not ambiguous' '
	"$TOKSTREAM" convert --quiet --identity src same.git &&
	main=$(git -C src rev-parse main) &&
	test "$(git -C same.git rev-parse main)" = $main &&
	test "$("$TOKSTREAM" map -C same.git $main)" = $main &&
	test "$("$TOKSTREAM" map -C same.git $(echo $main | cut -c1-8))" = $main
'

test_done
