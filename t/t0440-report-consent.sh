#!/bin/sh
test_description='report: consent (provenance for relicensing) and knowledge at risk, every figure known'
. ./test-lib.sh

test_lazy_prereq PYTHON 'python3 -c "import json, decimal"'

# The history (the tokens that survive at HEAD, people's only, 222 in all):
#   Ann   2015-03-01  lib/core.c: 150 tokens (as ann@old.example.org, mailmapped to ann@example.org)
#   bot   2016-01-01  app/deps.c: 9 tokens, a bot's: out of every figure here
#   Ben   2023-09-01  lib/util.c: 30 tokens, app/cli.c: 21 tokens
#   Cat   2024-01-01  app/main.c: 21 tokens
#   Ben   2024-05-01  tmp.c, which Dee removes: Ben's newest commit, none of it survives
#   Dee   2024-06-01  removes tmp.c (HEAD: the date --departed-after counts back from)
test_expect_success 'a history whose consent and knowledge figures are known' '
	git init -q src &&
	mkdir -p src/lib src/app &&
	declarations core 50 >src/lib/core.c &&
	printf "Ann <ann@example.org> <ann@old.example.org>\n" >src/.mailmap &&
	commit_as -C src -a --at="2015-03-01 12:00:00 +0000" --mail=ann@old.example.org Ann -m "core" &&
	declarations dep 3 >src/app/deps.c &&
	commit_as -C src -a --at="2016-01-01 12:00:00 +0000" --mail=bot@example.org "dependabot[bot]" -m "deps" &&
	declarations util 10 >src/lib/util.c &&
	declarations cli 7 >src/app/cli.c &&
	commit_as -C src -a --at="2023-09-01 12:00:00 +0000" --mail=ben@example.org Ben -m "util, cli" &&
	declarations main 7 >src/app/main.c &&
	commit_as -C src -a --at="2024-01-01 12:00:00 +0000" --mail=cat@example.org Cat -m "main" &&
	declarations tmp 5 >src/tmp.c &&
	commit_as -C src -a --at="2024-05-01 12:00:00 +0000" --mail=ben@example.org Ben -m "tmp" &&
	rm src/tmp.c &&
	commit_as -C src -a --at="2024-06-01 12:00:00 +0000" --mail=dee@example.org Dee -m "no tmp" &&
	"$TOKSTREAM" convert -q src tok.git &&
	"$TOKSTREAM" report -C tok.git --min-tokens=1 -j 1 out HEAD
'

test_expect_success 'consent.tsv: the people in the order of consent, their addresses and commits' '
	ann=$(git -C src log --format=%H --author=Ann) &&
	ben=$(git -C src log --format=%H --grep="^util, cli\$") &&
	cat=$(git -C src log --format=%H --author=Cat) &&
	{
		printf "rank\tauthor\taddresses\ttokens\ttoken_share\tcumulative_share\tfiles\t" &&
		printf "first_commit\tfirst_date\tlast_commit\tlast_date\tfirst_time\tlast_time\n" &&
		printf "1\tAnn\tann@example.org, ann@old.example.org\t150\t67.57\t67.57\t1\t" &&
		printf "$ann\t2015-03-01\t$ann\t2015-03-01\t1425211200\t1425211200\n" &&
		printf "2\tBen\tben@example.org\t51\t22.97\t90.54\t2\t$ben\t2023-09-01\t$ben\t2023-09-01\t" &&
		printf "1693569600\t1693569600\n" &&
		printf "3\tCat\tcat@example.org\t21\t9.46\t100.00\t1\t$cat\t2024-01-01\t$cat\t2024-01-01\t" &&
		printf "1704110400\t1704110400\n"
	} >expect &&
	test_cmp expect out/consent.tsv
'

test_expect_success 'consent-files.tsv: what each author leaves to rewrite, file by file' '
	cat >expect <<-\EOF &&
	path	author	tokens	token_share
	app/cli.c	Ben	21	100.00
	app/main.c	Cat	21	100.00
	lib/core.c	Ann	150	100.00
	lib/util.c	Ben	30	100.00
	EOF
	test_cmp expect out/consent-files.tsv
'

# 90% of 222 is 199.8: Ann and Ben hold 201; 99% (219.78) needs Cat too
test_expect_success 'consent-cover.tsv: the fewest authors for 90, 99 and 100%, overall and per directory' '
	cat >expect <<-\EOF &&
	directory	tokens	authors	authors_for_90	authors_for_99	authors_for_100
	.	222	3	2	3	3
	lib	180	2	2	2	2
	app	42	2	2	2	2
	EOF
	test_cmp expect out/consent-cover.tsv
'

test_expect_success 'the page says what a token'"'"'s author is, and gives the cover' '
	grep "<h2 id=\"consent\">7. Consent</h2>" out/index.html &&
	grep "A token.s author is who introduced it to this history" out/index.html &&
	grep "the consent of 2 of the 3 authors covers 90%, of 3 99%, of all 3 100%" out/index.html &&
	grep "<a href=\"consent-files.tsv\">" out/index.html
'

# the default, one year: Ann (2015) has departed; Ben (tmp.c, 2024-05) and Cat (2024-01) have not
test_expect_success 'knowledge.tsv: orphaned tokens and truck factors of every directory' '
	cat >expect <<-\EOF &&
	directory	files	tokens	orphaned_tokens	orphaned_share	authors	departed_authors	truck_factor	active_truck_factor	top_author	top_author_share
	.	5	222	150	67.57	3	1	1	0	Ann	67.57
	lib	2	180	150	83.33	2	1	1	0	Ann	83.33
	app	3	42	0	0.00	2	0	2	2	Ben	50.00
	EOF
	test_cmp expect out/knowledge.tsv
'

test_expect_success 'knowledge-files.tsv and knowledge-authors.tsv' '
	cat >expect <<-\EOF &&
	path	tokens	orphaned_tokens	orphaned_share	authors	departed_authors	truck_factor	active_truck_factor	top_author	top_author_share
	lib/core.c	150	150	100.00	1	1	1	0	Ann	100.00
	lib/util.c	30	0	0.00	1	0	1	1	Ben	100.00
	app/cli.c	21	0	0.00	1	0	1	1	Ben	100.00
	app/main.c	21	0	0.00	1	0	1	1	Cat	100.00
	app/deps.c	0	0	0.00	0	0	-	-		-
	EOF
	test_cmp expect out/knowledge-files.tsv &&
	ann=$(git -C src log --format=%H --author=Ann) &&
	ben=$(git -C src log --format=%H --grep="^tmp\$") &&
	cat=$(git -C src log --format=%H --author=Cat) &&
	{
		printf "author\ttokens\ttoken_share\tlast_commit\tlast_date\tdeparted\n" &&
		printf "Ann\t150\t67.57\t$ann\t2015-03-01\tyes\n" &&
		printf "Ben\t51\t22.97\t$ben\t2024-05-01\tno\n" &&
		printf "Cat\t21\t9.46\t$cat\t2024-01-01\tno\n"
	} >expect &&
	test_cmp expect out/knowledge-authors.tsv
'

# everyone of the history, tokens or none: Ben's newest commit is tmp.c's, Dee owns nothing
test_expect_success 'history-authors.tsv: every name of the history, its addresses and newest commit' '
	git -C src log --format="%H %aN" >commits &&
	{
		printf "author\taddresses\tlast_commit\tlast_date\tlast_time\n" &&
		printf "Ann\tann@example.org, ann@old.example.org\t%s\t2015-03-01\t1425211200\n" \
			"$(sed -n "s/ Ann\$//p" commits)" &&
		printf "Ben\tben@example.org\t%s\t2024-05-01\t1714564800\n" "$(sed -n "s/ Ben\$//p" commits | head -n 1)" &&
		printf "Cat\tcat@example.org\t%s\t2024-01-01\t1704110400\n" "$(sed -n "s/ Cat\$//p" commits)" &&
		printf "Dee\tdee@example.org\t%s\t2024-06-01\t1717243200\n" "$(sed -n "s/ Dee\$//p" commits)" &&
		printf "dependabot[bot]\tbot@example.org\t%s\t2016-01-01\t1451649600\n" \
			"$(sed -n "s/ dependabot\[bot\]\$//p" commits)"
	} >expect &&
	test_cmp expect out/history-authors.tsv
'

test_expect_success 'the page ranks the directories at risk' '
	grep "<h2 id=\"knowledge\">8. Knowledge at risk</h2>" out/index.html &&
	grep "1 of the 3 authors with tokens has departed; their tokens, 67.57% of the people.s, are <em>orphaned</em>" out/index.html &&
	grep "older than the revision.s commit date (2024-06-01): older than 2023-06-02\." out/index.html &&
	grep "<h3>The directories with the most orphaned tokens</h3><table><tr><th>directory</th>.*</tr>\$" out/index.html &&
	grep "^<tr><td>lib</td>" out/index.html
'

# 90 days: Cat (2024-01-01) has departed too, Ben not: his newest commit counts, though none of it survives
test_expect_success '--departed-after: a shorter time orphans more' '
	"$TOKSTREAM" report -C tok.git --departed-after=3m --min-tokens=1 -j 1 out3m HEAD &&
	cat >expect <<-\EOF &&
	directory	files	tokens	orphaned_tokens	orphaned_share	authors	departed_authors	truck_factor	active_truck_factor	top_author	top_author_share
	.	5	222	171	77.03	3	2	1	0	Ann	67.57
	lib	2	180	150	83.33	2	1	1	0	Ann	83.33
	app	3	42	21	50.00	2	1	2	1	Ben	50.00
	EOF
	test_cmp expect out3m/knowledge.tsv &&
	"$TOKSTREAM" report -C tok.git --departed-after=10y --min-tokens=1 -j 1 out10y HEAD &&
	cut -f1,4,5,8,9 out10y/knowledge.tsv >actual &&
	printf "directory\torphaned_tokens\torphaned_share\ttruck_factor\tactive_truck_factor\n" >expect &&
	printf ".\t0\t0.00\t1\t1\nlib\t0\t0.00\t1\t1\napp\t0\t0.00\t2\t2\n" >>expect &&
	test_cmp expect actual &&
	grep "older than 2014-06-04\. 0 of the 3 authors with tokens have departed" out10y/index.html
'

test_expect_success 'a bad --departed-after is a usage error' '
	for d in 1 y 1x 1.5y -1y 1yy 1Y " 1y" 99999999999d
	do
		test_expect_code 129 "$TOKSTREAM" report -C tok.git --departed-after="$d" bad HEAD 2>err &&
		grep "departed-after takes a number and a unit" err || return 1
	done &&
	test_path_is_missing bad
'

# era 1: Alice 2001; era 2, its own repository: Bob 2015 (the seam is a graft in the line repository)
test_expect_success 'a stitched history: an older era'"'"'s authors and their commits are found across the seam' '
	git init -q old &&
	declarations old 4 >old/s.c &&
	git -C old add s.c &&
	GIT_AUTHOR_DATE="2001-01-01 12:00:00 +0000" GIT_COMMITTER_DATE="2001-01-01 12:00:00 +0000" \
		git -C old commit -q --author="Alice <alice@example.org>" -m "s.c" &&
	git init -q new &&
	{ declarations old 4 && declarations new 2; } >new/s.c &&
	git -C new add s.c &&
	GIT_AUTHOR_DATE="2015-01-01 12:00:00 +0000" GIT_COMMITTER_DATE="2015-01-01 12:00:00 +0000" \
		git -C new commit -q --author="Bob <bob@example.org>" -m "s.c, again" &&
	"$TOKSTREAM" convert -q old new stitched.git &&
	"$TOKSTREAM" report -C stitched.git --min-tokens=1 -j 1 sout &&
	alice=$(git -C old rev-parse HEAD) bob=$(git -C new rev-parse HEAD) &&
	{
		printf "author\ttokens\ttoken_share\tlast_commit\tlast_date\tdeparted\n" &&
		printf "Alice\t12\t66.67\t$alice\t2001-01-01\tyes\n" &&
		printf "Bob\t6\t33.33\t$bob\t2015-01-01\tno\n"
	} >expect &&
	test_cmp expect sout/knowledge-authors.tsv &&
	grep "^1	Alice	alice@example.org	12	66.67	66.67	1	$alice	2001-01-01	" sout/consent.tsv
'

test_expect_success PYTHON 'report.json holds the new tables and follows its schema' '
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$REPO_ROOT/contrib/schema/report.schema.json" \
		out/report.json &&
	python3 "$TEST_DIRECTORY/helper/json-agree.py" report out &&
	python3 - out/report.json out3m/report.json <<-\EOF
	import json, sys
	one, three = (json.load(open(f)) for f in sys.argv[1:3])
	assert one["options"]["departed_after"] == "1y" and three["options"]["departed_after"] == "3m"
	assert one["revision_time"] == 1717243200, one["revision_time"]
	cover = one["tables"]["consent-cover"]["rows"][0]
	assert cover == {"directory": ".", "tokens": 222, "authors": 3, "authors_for_90": 2,
	                 "authors_for_99": 3, "authors_for_100": 3}, cover
	files = {r["path"]: r for r in one["tables"]["knowledge-files"]["rows"]}
	assert files["app/deps.c"]["truck_factor"] is None and files["app/deps.c"]["top_author"] is None
	EOF
'

test_done
