#!/bin/sh
test_description='tokstream report: lines against tokens, every figure known by construction'
. ./test-lib.sh

# The history (author dates in four years):
#   Alice 2001  adds a.c (14 tokens, 5 lines) and b.py (11 tokens, 3 lines), and a .mailmap
#   Bob   2010  re-indents a.c line 4 (a tab becomes spaces): a line, no token
#   carol 2020  a.c: "int f" becomes "long f", one token for one (mailmapped to Carol)
#   Dave  2020  b.py: "return y * 2" becomes "return y": removes 2 tokens, takes the line
#   Erin  2021  on a side branch, b.py: adds "z = 1" (3 tokens, 1 line)
#   Alice 2021  merges the side branch (a merge: no commit size)
test_expect_success 'a history whose every figure is known' '
	git init -q src &&
	printf "/* comment */\nint f(int x)\n{\n\treturn x + 1;\n}\n" >src/a.c &&
	printf "# note\ndef g(y):\n    return y * 2\n" >src/b.py &&
	printf "Carol <carol@example.org> <carol@old.example.org>\n" >src/.mailmap &&
	git -C src add a.c b.py .mailmap &&
	commit_as -C src --at=2001-06-01T12:00:00Z --mail=alice@example.org Alice -m "a.c, b.py" &&
	printf "/* comment */\nint f(int x)\n{\n    return x + 1;\n}\n" >src/a.c &&
	git -C src add a.c &&
	commit_as -C src --at=2010-03-01T12:00:00Z --mail=bob@example.org Bob -m "whitespace sweep" &&
	printf "/* comment */\nlong f(int x)\n{\n    return x + 1;\n}\n" >src/a.c &&
	git -C src add a.c &&
	commit_as -C src --at=2020-05-01T12:00:00Z --mail=carol@old.example.org carol \
		-m "f() returns a long" &&
	printf "# note\ndef g(y):\n  return y\n" >src/b.py &&
	git -C src add b.py &&
	commit_as -C src --at=2020-07-01T12:00:00Z --mail=dave@example.org Dave -m "g(): no doubling" &&
	git -C src checkout -q -b side &&
	printf "# note\ndef g(y):\n  return y\nz = 1\n" >src/b.py &&
	git -C src add b.py &&
	commit_as -C src --at=2021-02-01T12:00:00Z --mail=erin@example.org Erin -m "z" &&
	git -C src checkout -q main &&
	GIT_AUTHOR_DATE=2021-03-01T12:00:00Z GIT_COMMITTER_DATE=2021-03-01T12:00:00Z \
		git -C src merge -q --no-ff -m "merge side" side &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 -j 1 --stats out 2>stats &&
	grep "; 2 blamed, 0 from the cache;" stats &&
	grep "^tokstream report: wall time: setup [0-9.]* s, files listed [0-9.]* s, .*, report written [0-9.]* s$" stats
'

test_expect_success 'size: tokens against non-blank, non-comment lines' '
	cat >expect <<-\EOF &&
	language	files	lines	code_lines	tokens	comment_tokens	tokens_per_code_line
	c	1	5	4	14	1	3.50
	python	1	4	3	12	1	4.00
	total	2	9	7	26	2	3.71
	EOF
	test_cmp expect out/size.tsv
'

test_expect_success 'people: every author by lines and by tokens, mailmapped' '
	cat >expect <<-\EOF &&
	author	lines	line_share	line_rank	tokens	token_share	token_rank
	Alice	5	55.56	1	22	84.62	1
	Erin	1	11.11	5	3	11.54	2
	Carol	1	11.11	3	1	3.85	3
	Bob	1	11.11	2	0	0.00	-
	Dave	1	11.11	4	0	0.00	-
	EOF
	test_cmp expect out/authors.tsv &&
	# the name as the commit wrote it is nowhere; her addresses (consent.tsv) are hers
	! grep "carol[^@]" out/*.tsv out/index.html
'

test_expect_success 'people: the top N side by side, and who is in only one list' '
	cat >expect <<-\EOF &&
	rank	by_tokens	token_share	its_line_rank	by_lines	line_share	its_token_rank
	1	Alice	84.62	1	Alice	55.56	1
	2	Erin	11.54	5	Bob	11.11	-
	3	Carol	3.85	3	Carol	11.11	3
	EOF
	test_cmp expect out/top.tsv &&
	cat >expect <<-\EOF &&
	author	in_top_by	rank	share	other_rank	other_share
	Erin	tokens	2	11.54	5	11.11
	Bob	lines	2	11.11	-	0.00
	EOF
	test_cmp expect out/top-only.tsv &&
	printf "era\tsource\tlines\tline_share\ttokens\ttoken_share\n1\t%s\t9\t100.00\t26\t100.00\n" \
		"$(pwd)/src" >expect &&
	test_cmp expect out/eras.tsv
'

test_expect_success 'year of origin by lines and by tokens' '
	cat >expect <<-\EOF &&
	year	lines	line_share	tokens	token_share
	2001	5	55.56	22	84.62
	2010	1	11.11	0	0.00
	2020	2	22.22	1	3.85
	2021	1	11.11	3	11.54
	EOF
	test_cmp expect out/years.tsv
'

# Token commits that change a.c or b.py, merges left out: Alice +25, carol +1 -1,
# Dave -2, Erin +3 (Bob changed no token: his commit is not there; .mailmap is no token file)
test_expect_success 'commit sizes in tokens, churn, histograms' '
	cat >expect <<-\EOF &&
	figure	value	share
	commits	4	100.00
	added_le_3_and_removed_le_3	3	75.00
	only_removed	1	25.00
	added_1_and_removed_1	1	25.00
	changed_le_10	3	75.00
	median_changed	2.5	-
	churn_zero	1	25.00
	churn_1_to_10	1	25.00
	churn_negative	1	25.00
	EOF
	test_cmp expect out/commit-sizes.tsv &&
	grep -v "	0	0.00$" out/changed-histogram.tsv >actual &&
	printf "bucket\tcommits\tshare\n2\t2\t50.00\n3\t1\t25.00\n11-30\t1\t25.00\n" >expect &&
	test_cmp expect actual &&
	grep -v "	0	0.00$" out/churn-histogram.tsv >actual &&
	printf "bucket\tcommits\tshare\n-10..-1\t1\t25.00\n0\t1\t25.00\n1..10\t1\t25.00\n11..100\t1\t25.00\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the largest commits, with their original ids' '
	alice=$(git -C src rev-list --author=Alice --no-merges main) &&
	erin=$(git -C src rev-list --author=Erin main) &&
	carol=$(git -C src rev-list --author=carol main) &&
	{
		printf "rank\toriginal\ttoken\tadded\tremoved\tchanged\tauthor\tdate\tsummary\n" &&
		printf "1\t%s\t%s\t25\t0\t25\tAlice\t2001-06-01\ta.c, b.py\n" $alice $("$TOKSTREAM" map -C tokens.git $alice) &&
		printf "2\t%s\t%s\t3\t0\t3\tErin\t2021-02-01\tz\n" $erin $("$TOKSTREAM" map -C tokens.git $erin) &&
		printf "3\t%s\t%s\t1\t1\t2\tCarol\t2020-05-01\tf() returns a long\n" $carol $("$TOKSTREAM" map -C tokens.git $carol)
	} >expect &&
	test_cmp expect out/largest-commits.tsv
'

test_expect_success 'every commit with its size, newest first' '
	{
		printf "original\ttoken\tadded\tremoved\tchanged\n" &&
		for c in $(git -C src rev-list --no-merges main)
		do
			t=$("$TOKSTREAM" map -C tokens.git $c) &&
			git -C tokens.git diff-tree -r --root --no-commit-id --numstat --histogram $t -- "*.c" "*.py" >ns &&
			test -s ns || continue
			awk -v o=$c -v t=$t "{ a += \$1; r += \$2 } END { printf \"%s\\t%s\\t%d\\t%d\\t%d\\n\", o, t, a, r, a + r }" ns
		done
	} >expect &&
	test_cmp expect out/commits.tsv
'

# a.c by lines: Alice 3/5, Bob 1/5, Carol 1/5; by tokens: Alice 13/14, Carol 1/14:
# distance (|13/14-3/5| + |1/14-1/5| + 1/5) / 2 = 23/70.  b.py: Alice 2/4, Dave 1/4,
# Erin 1/4 against Alice 9/12, Erin 3/12: 1/4.  All: 69/234.
test_expect_success 'where lines and tokens disagree: distances and both distributions' '
	cat >expect <<-\EOF &&
	path	language	lines	code_lines	tokens	authors_by_lines	authors_by_tokens	top_by_lines	top_line_share	top_by_tokens	top_token_share	distance	moved_tokens	moves_distance
	a.c	c	5	4	14	3	2	Alice	60.00	Alice	92.86	32.86	0	0.00
	b.py	python	4	3	12	3	2	Alice	50.00	Alice	75.00	25.00	0	0.00
	EOF
	test_cmp expect out/files.tsv &&
	cat >expect <<-\EOF &&
	rank	path	distance	author	lines	line_share	tokens	token_share	tokens_with_moves	token_share_with_moves	moves_distance
	1	a.c	32.86	Alice	3	60.00	13	92.86	13	92.86	0.00
	1	a.c	32.86	Carol	1	20.00	1	7.14	1	7.14	0.00
	1	a.c	32.86	Bob	1	20.00	0	0.00	0	0.00	0.00
	2	b.py	25.00	Alice	2	50.00	9	75.00	9	75.00	0.00
	2	b.py	25.00	Erin	1	25.00	3	25.00	3	25.00	0.00
	2	b.py	25.00	Dave	1	25.00	0	0.00	0	0.00	0.00
	EOF
	test_cmp expect out/disagreement.tsv &&
	grep "^distance	29.49$" out/summary.tsv
'

test_expect_success 'the oldest code: functions by tokens of the oldest commit' '
	cat >expect <<-\EOF &&
	rank	path	function	line	tokens	oldest_tokens	oldest_share
	1	a.c	f	2	12	12	100.00
	2	b.py	g	2	7	7	100.00
	EOF
	test_cmp expect out/oldest-functions.tsv
'

test_expect_success 'the oldest code is code: past a first commit that owns only prose' '
	git init -q prose &&
	printf "The project.\n\nIt adds numbers.\n" >prose/README.txt &&
	git -C prose add README.txt &&
	commit_as -C prose --at=2001-01-01T12:00:00Z --mail=alice@example.org Alice -m readme &&
	printf "int main(void)\n{\n\treturn 0;\n}\n" >prose/main.c &&
	git -C prose add main.c &&
	commit_as -C prose --at=2002-01-01T12:00:00Z --mail=bob@example.org Bob -m main &&
	printf "int add(int a, int b)\n{\n\treturn a + b;\n}\n" >>prose/main.c &&
	git -C prose add main.c &&
	commit_as -C prose --at=2003-01-01T12:00:00Z --mail=carol@example.org Carol -m add &&
	"$TOKSTREAM" convert -q prose prose.git &&
	"$TOKSTREAM" report -C prose.git -j 1 prose-out &&
	cat >expect <<-\EOF &&
	rank	path	function	line	tokens	oldest_tokens	oldest_share
	1	main.c	main	1	9	9	100.00
	EOF
	test_cmp expect prose-out/oldest-functions.tsv &&
	grep "^oldest_commit	$(git -C prose rev-parse HEAD~2)$" prose-out/summary.tsv &&
	grep "^oldest_code_commit	$(git -C prose rev-parse HEAD~1)$" prose-out/summary.tsv &&
	grep "owns none inside a function: its tokens are in <code>README.txt</code> (7)" prose-out/index.html &&
	grep "The oldest code in functions is from <span class=\"id\">$(git -C prose rev-parse --short=12 HEAD~1)</span> by Bob of 2002-01-01" prose-out/index.html &&
	! grep "No function holds" prose-out/index.html &&
	"$TOKSTREAM" report -C prose.git -j 1 prose-text HEAD README.txt &&
	test_line_count = 1 prose-text/oldest-functions.tsv &&
	grep "no file of the selection holds a function as tokstream finds them" prose-text/index.html
'

test_expect_success 'the summary states the story in numbers' '
	alice=$(git -C src rev-list --author=Alice --no-merges main) &&
	cat >expect <<-EOF &&
	figure	value
	commits	4
	commits_changed_le_10	75.00
	median_changed	2.5
	files	2
	lines	9
	code_lines	7
	tokens	26
	tokens_per_code_line	3.71
	code_tokens	26
	prose_tokens	0
	prose_token_share	0.00
	authors_by_lines	5
	authors_by_tokens	3
	bots	0
	bot_lines	0
	bot_tokens	0
	bot_token_share	0.00
	identity_groups	0
	identity_names	0
	top	3
	top_in_both	2
	top_same_rank	2
	distance	29.49
	distance_with_moves	29.49
	moved_tokens	0
	moved_token_share	0.00
	moves_distance	0.00
	oldest_era_line_share	100.00
	oldest_era_token_share	100.00
	oldest_commit	$alice
	oldest_commit_line_share	55.56
	oldest_commit_token_share	84.62
	oldest_code_commit	$alice
	most_disagreeing_distance	32.86
	verdict	different
	EOF
	test_cmp expect out/summary.tsv &&
	grep "Lines and tokens tell different stories here" out/index.html &&
	grep "5 authors appear in blame by lines, 3 by tokens" out/index.html &&
	grep "Of the top 3 by tokens, 2 are also in the top 3 by lines, 2 at the same rank" out/index.html &&
	grep "Erin (5 by lines, 2 by tokens)" out/index.html &&
	grep "Only in the top 3 by tokens: Erin. Only in the top 3 by lines: Bob." out/index.html &&
	grep "29.49% of the code changes hands" out/index.html &&
	grep "The oldest commit still holds 5 lines (55.56%) and 22 tokens (84.62%)" out/index.html &&
	! grep "Most of this selection is prose" out/index.html
'

# Wendy 2001: README.rst, 14 tokens in 3 lines; Wendy 2002: doc/usage.md, 14 tokens in 4
# lines ("=====" is five); Carl 2003: add.c, 16 tokens in 4 lines, and a blank line and
# "Carl was here." (4 tokens) at the end of README.rst
test_expect_success 'prose apart from code: when documentation holds most tokens, the story says so' '
	git init -q docs &&
	mkdir docs/doc &&
	printf "Install it with pip.\n\nThen run the tests, all of them.\n" >docs/README.rst &&
	git -C docs add README.rst &&
	commit_as -C docs --at=2001-01-01T12:00:00Z --mail=wendy@example.org Wendy -m readme &&
	printf "Usage\n=====\n\nCall add() with two numbers.\n" >docs/doc/usage.md &&
	git -C docs add doc/usage.md &&
	commit_as -C docs --at=2002-01-01T12:00:00Z --mail=wendy@example.org Wendy -m usage &&
	printf "int add(int a, int b)\n{\n\treturn a + b;\n}\n" >docs/add.c &&
	printf "\nCarl was here.\n" >>docs/README.rst &&
	git -C docs add add.c README.rst &&
	commit_as -C docs --at=2003-01-01T12:00:00Z --mail=carl@example.org Carl -m add &&
	"$TOKSTREAM" convert -q docs docs.git &&
	"$TOKSTREAM" report -C docs.git -j 1 docs-out &&
	cat >expect <<-\EOF &&
	kind	files	lines	code_lines	tokens	token_share	authors_by_lines	authors_by_tokens	top_by_tokens	top_token_share
	code	1	4	4	16	33.33	1	1	Carl	100.00
	prose	2	9	6	32	66.67	2	2	Wendy	87.50
	EOF
	test_cmp expect docs-out/kinds.tsv &&
	cat >expect <<-\EOF &&
	kind	author	lines	line_share	line_rank	tokens	token_share	token_rank
	code	Carl	4	100.00	1	16	100.00	1
	prose	Wendy	7	77.78	1	28	87.50	1
	prose	Carl	2	22.22	2	4	12.50	2
	EOF
	test_cmp expect docs-out/authors-by-kind.tsv &&
	grep "^prose_token_share	66.67\$" docs-out/summary.tsv &&
	grep "<b>Most of this selection is prose:</b> 66.67% of its tokens are documentation" docs-out/index.html &&
	grep "<b>code</b>: 1 file, 4 lines, 16 tokens; 1 author by lines, 1 by tokens, the most tokens Carl.s (100.00%)" docs-out/index.html &&
	grep "<b>prose</b>: 2 files, 9 lines, 32 tokens; 2 authors by lines, 2 by tokens, the most tokens Wendy.s (87.50%)" docs-out/index.html &&
	cat >expect <<-\EOF &&
	kind	files	lines	code_lines	tokens	token_share	authors_by_lines	authors_by_tokens	top_by_tokens	top_token_share
	code	2	9	7	26	100.00	5	3	Alice	84.62
	prose	0	0	0	0	0.00	0	0		
	EOF
	test_cmp expect out/kinds.tsv
'

test_expect_success 'the page is self-contained and holds the SVG charts' '
	test_path_is_file out/index.html &&
	! grep -i "<script" out/index.html &&
	! grep -i -E "https?:|src=|url\(|@import|<link" out/index.html &&
	test $(grep -o "<svg class=\"chart\"" out/index.html | wc -l) -eq 6 &&
	grep "aria-label=\"Share of the code by year of origin\"" out/index.html &&
	grep "aria-label=\"Tokens alive by year of origin (100%: [0-9]*, the most at any point)\"" out/index.html &&
	grep "<title>2001, by tokens: 84.62%</title>" out/index.html &&
	grep "aria-label=\"Commits by tokens changed (added + removed)\"" out/index.html &&
	grep "aria-label=\"Commits by churn (tokens added minus removed)\"" out/index.html
'

test_expect_success 'a second run takes every file from the cache, which it leaves alone' '
	(cd tokens.git/tokstream/report-cache && find . -type f | sort | xargs cksum) >before &&
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 --stats out2 2>stats &&
	grep "; 0 blamed, 2 from the cache;" stats &&
	(cd tokens.git/tokstream/report-cache && find . -type f | sort | xargs cksum) >after &&
	test_cmp before after &&
	for f in out/*; do test_cmp "$f" "out2/${f#out/}" || return 1; done
'

test_expect_success 'without the cache, -j 2 gives the same report' '
	rm -rf tokens.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 -j 2 --stats out3 2>stats &&
	grep "; 2 blamed, 0 from the cache;" stats &&
	for f in out/*; do test_cmp "$f" "out3/${f#out/}" || return 1; done
'

test_expect_success 'a report of a later revision blames only the files that changed' '
	printf "# note\ndef g(y):\n  return y\nz = 1\nw = 2\n" >src/b.py &&
	git -C src add b.py &&
	commit_as -C src --at=2022-01-01T12:00:00Z --mail=frank@example.org Frank -m "w" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 --stats out4 2>stats &&
	grep "; 1 blamed, 1 from the cache;" stats &&
	grep "^2022	1	10.00	3	10.34$" out4/years.tsv &&
	grep "^commits	5	100.00$" out4/commit-sizes.tsv &&
	grep "^churn_1_to_10	2	40.00$" out4/commit-sizes.tsv &&
	# the older revision again: all from the cache
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 --stats out5 main^ 2>stats &&
	grep "; 0 blamed, 2 from the cache;" stats &&
	for f in out/*.tsv; do test_cmp "$f" "out5/${f#out/}" || return 1; done
'

test_expect_success 'the replay of a later revision starts where the last one ended' '
	rm -rf tokens.git/tokstream/report-cache tokens.git/tokstream/replay &&
	"$TOKSTREAM" report -C tokens.git --replay=always --top=3 --min-tokens=1 early main^ &&
	early=$("$TOKSTREAM" map -C tokens.git $(git -C src rev-parse main^)) &&
	sed -n "/^commits /{n;p;q;}" tokens.git/tokstream/replay/tokens >tip &&
	test "$(cut -c1-40 tip)" = "$early" &&
	test "$(sed -n "/^commits /{n;p;q;}" tokens.git/tokstream/replay/lines | cut -c1-40)" = "$(git -C src rev-parse main^)" &&
	"$TOKSTREAM" report -C tokens.git --replay=always --top=3 --min-tokens=1 later main &&
	test "$(sed -n "/^commits /{n;p;q;}" tokens.git/tokstream/replay/tokens | cut -c1-40)" = \
		"$("$TOKSTREAM" map -C tokens.git $(git -C src rev-parse main))" &&
	rm -rf tokens.git/tokstream/report-cache tokens.git/tokstream/replay &&
	"$TOKSTREAM" report -C tokens.git --replay=always --top=3 --min-tokens=1 fresh main &&
	for f in fresh/*.tsv; do test_cmp "$f" "later/${f#fresh/}" || return 1; done &&
	for f in out4/*.tsv; do test_cmp "$f" "later/${f#out4/}" || return 1; done
'

test_expect_success '-w: line blame ignores the whitespace sweep, token blame never saw it' '
	"$TOKSTREAM" report -C tokens.git -w --top=3 --min-tokens=1 outw main^ &&
	! grep "^Bob	" outw/authors.tsv &&
	grep "^Alice	6	66.67	1	22	84.62	1$" outw/authors.tsv &&
	grep "^Bob	1	11.11	2	0	0.00	-$" out/authors.tsv
'

test_expect_success 'a pathspec selects files for blame and for commit sizes' '
	"$TOKSTREAM" report -C tokens.git --top=3 --min-tokens=1 out6 main^ a.c &&
	grep "^total	1	5	4	14	1	3.50$" out6/size.tsv &&
	# Alice +14, carol +1 -1
	grep "^commits	2	100.00$" out6/commit-sizes.tsv &&
	grep "^median_changed	8.0	-$" out6/commit-sizes.tsv
'

# era 1: Alice 2001 writes s.c; era 2 (its own repository) starts with Bob 2015
# re-indenting line 1, changing "1" to "2" and adding "int b;"
test_expect_success 'a stitched history: line blame crosses the seam too; era shares' '
	git init -q old &&
	printf "int a;\nint f(void)\n{\n\treturn 1;\n}\n" >old/s.c &&
	git -C old add s.c &&
	commit_as -C old --at=2001-01-01T12:00:00Z --mail=alice@example.org Alice -m "s.c" &&
	git init -q new &&
	printf "  int a;\nint f(void)\n{\n\treturn 2;\n}\nint b;\n" >new/s.c &&
	git -C new add s.c &&
	commit_as -C new --at=2015-01-01T12:00:00Z --mail=bob@example.org Bob -m "s.c, again" &&
	"$TOKSTREAM" convert -q old new stitched.git &&
	"$TOKSTREAM" report -C stitched.git --min-tokens=1 sout &&
	printf "era\tsource\tlines\tline_share\ttokens\ttoken_share\n1\t%s\t3\t50.00\t12\t75.00\n2\t%s\t3\t50.00\t4\t25.00\n" \
		"$(pwd)/old" "$(pwd)/new" >expect &&
	test_cmp expect sout/eras.tsv &&
	grep "^oldest_era_line_share	50.00$" sout/summary.tsv &&
	grep "^oldest_era_token_share	75.00$" sout/summary.tsv &&
	printf "rank\tpath\tfunction\tline\ttokens\toldest_tokens\toldest_share\n1\ts.c\tf\t2\t9\t8\t88.89\n" >expect &&
	test_cmp expect sout/oldest-functions.tsv &&
	grep "The oldest era holds 50.00% of the lines and 75.00% of the tokens" sout/index.html &&
	grep "aria-label=\"Share of the code by era\"" sout/index.html
'

test_expect_success 'hostile author names, paths and messages are escaped' '
	git init -q evil &&
	printf "int x;\n" >"evil/<i>&\"q'\''.c" &&
	printf "int y;\n" >"evil/tab	name.c" &&
	git -C evil add . &&
	commit_as -C evil --at=2019-01-01T12:00:00Z --mail=eveohara@example.org \
		"Eve \"&\" O'\''Hara" -m "</table><script>alert(1)</script>" &&
	"$TOKSTREAM" convert -q evil evil.git &&
	"$TOKSTREAM" report -C evil.git --min-tokens=1 eout &&
	! grep -i "<script" eout/index.html &&
	! grep "<i>" eout/index.html &&
	! grep "</table><script>" eout/index.html &&
	grep "&lt;i&gt;&amp;&quot;q&#39;.c" eout/index.html &&
	grep "Eve &quot;&amp;&quot; O&#39;Hara" eout/index.html &&
	grep "&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;" eout/index.html &&
	grep "^tab\\\\tname.c	c	1	1	3	" eout/files.tsv &&
	test $(wc -l <eout/files.tsv) -eq 3
'

test_expect_success 'the --lang options of the conversion apply' '
	git init -q lang &&
	printf "int x = 1;\n" >lang/a.foo &&
	git -C lang add a.foo &&
	commit_as -C lang --at=2005-01-01T12:00:00Z --mail=alice@example.org Alice -m a &&
	"$TOKSTREAM" convert -q --lang=c:*.foo lang lang.git &&
	"$TOKSTREAM" report -C lang.git lout &&
	grep "^c	1	1	1	5	0	5.00$" lout/size.tsv
'

test_expect_success 'a symbolic link named like a source file has no view: skipped, not fatal' '
	git init -q links &&
	printf "int x;\n" >links/a.c &&
	ln -s a.c links/link.c &&
	git -C links add a.c link.c &&
	commit_as -C links --at=2005-01-01T12:00:00Z --mail=alice@example.org Alice -m a &&
	"$TOKSTREAM" convert -q links links.git &&
	"$TOKSTREAM" report -C links.git --stats kout 2>stats &&
	grep "1 files, 0 without a view; 1 blamed" stats &&
	grep "^total	1	1	1	3	0	3.00$" kout/size.tsv &&
	test_expect_code 128 "$TOKSTREAM" blame -C links.git link.c 2>err &&
	grep "keeps it unchanged" err
'

# report_both DEST OUTDIR REV [OPTIONS]: the report of REV by one replay
# of each history and by git blame file by file, each without a cache
report_both () {
	dest=$1 out=$2 rev=$3 &&
	shift 3 &&
	rm -rf "$dest/tokstream/report-cache" "$out.replay" "$out.git" &&
	"$TOKSTREAM" report -C "$dest" --replay=always --stats "$@" "$out.replay" $rev 2>stats.replay &&
	grep "blamed by one replay of each history" stats.replay &&
	rm -rf "$dest/tokstream/report-cache" &&
	"$TOKSTREAM" report -C "$dest" --replay=never --stats "$@" "$out.git" $rev 2>stats.git &&
	grep "blamed by the history of each file by tokens, git blame of each file by lines" stats.git
}

test_expect_success 'one replay of each history gives the report git blame file by file gives' '
	report_both tokens.git both HEAD --top=3 --min-tokens=1 &&
	diff -r both.replay both.git &&
	report_both tokens.git bothw main^ -w --top=3 --min-tokens=1 &&
	diff -r bothw.replay bothw.git &&
	# the replays and the commit sizes in threads (-j 3), or one after the other
	for j in 1 3
	do
		rm -rf tokens.git/tokstream/report-cache &&
		"$TOKSTREAM" report -C tokens.git --replay=always -j $j --top=3 --min-tokens=1 both.j$j HEAD 2>err &&
		diff -r both.replay both.j$j || return 1
	done &&
	report_both stitched.git boths HEAD --min-tokens=1 &&
	diff -r boths.replay boths.git &&
	report_both evil.git bothe HEAD --min-tokens=1 &&
	diff -r bothe.replay bothe.git
'

test_expect_success 'an ignored revision: git blame by lines for the files it made, the replay for the rest' '
	sweep=$(git -C src rev-list -1 --grep="whitespace sweep" main) &&
	report_both tokens.git bothi HEAD --ignore-rev "$sweep" --top=3 --min-tokens=1 &&
	grep "git blame by lines where an ignored revision made the file" stats.replay &&
	diff -r bothi.replay bothi.git &&
	# the sweep ignored: its re-indented line is Alice'"'"'s, as git blame says
	grep "^Alice	" bothi.replay/authors.tsv >alice &&
	git -C src blame --line-porcelain --ignore-rev "$sweep" HEAD -- a.c >blamed &&
	test "$(grep -c "^author Alice" blamed)" -ge 4
'

test_expect_success 'a report with other options keeps the default state, its own beside it' '
	rm -rf tokens.git/tokstream/replay tokens.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git --replay=always -j 1 --min-tokens=1 dflt HEAD &&
	cp tokens.git/tokstream/replay/tokens default.state &&
	cp tokens.git/tokstream/replay/lines default.lines &&
	"$TOKSTREAM" report -C tokens.git --replay=always -w -j 1 --min-tokens=1 ws HEAD &&
	test_cmp default.lines tokens.git/tokstream/replay/lines &&
	test_cmp default.state tokens.git/tokstream/replay/tokens &&
	ls tokens.git/tokstream/replay | grep "^lines-" >others &&
	test_line_count = 1 others &&
	rm -f tokens.git/tokstream/replay/tokens-* &&
	"$TOKSTREAM" report -C tokens.git --replay=always --no-moves -j 1 --min-tokens=1 nomoves HEAD &&
	test_cmp default.state tokens.git/tokstream/replay/tokens &&
	ls tokens.git/tokstream/replay | grep "^tokens-" >others &&
	test_line_count = 1 others &&
	# blame finds each: the state way dies where none fits
	(cd src && TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C ../tokens.git --porcelain a.c) >/dev/null &&
	(cd src && TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C ../tokens.git --no-moves --porcelain a.c) >/dev/null &&
	test_must_fail env TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame -C tokens.git --min-move=3 a.c 2>err &&
	# the newest two other states are kept
	"$TOKSTREAM" report -C tokens.git --replay=always --min-move=5 -j 1 --min-tokens=1 mm HEAD &&
	"$TOKSTREAM" report -C tokens.git --replay=always --min-move=7 -j 1 --min-tokens=1 mm7 HEAD &&
	ls tokens.git/tokstream/replay | grep "^tokens-" >others &&
	test_line_count = 2 others &&
	test_cmp default.state tokens.git/tokstream/replay/tokens
'

test_expect_success '-M needs git blame for lines: only the tokens are replayed' '
	rm -rf tokens.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git -M --replay=always --stats --min-tokens=1 outm 2>stats &&
	grep "blamed by one replay of the token history, git blame of each file by lines" stats
'

test_expect_success 'the page says what the two counts compare: like with like, moves on one side, or neither' '
	grep "Like is compared with like: neither count follows moved or copied code" dflt/index.html >said &&
	grep -q "<code>git blame</code>.s without <code>-M</code> and <code>-C</code>, the tokens those the engine gives without moves" said &&
	grep -q "(runs of at least 12 tokens)" said &&
	grep -q "runs of at least 5 tokens" mm/index.html &&
	grep "Tokens follow moved and copied code (runs of at least 12 tokens" outm/index.html >said &&
	grep -q "lines follow moves within a file only" said &&
	grep -q "Neither count follows moved or copied code" nomoves/index.html &&
	! grep -q "Tokens follow moved" nomoves/index.html
'

say_if_no_browser

test_expect_success BROWSER 'in Chromium: the charts are drawn, nothing loads or runs, hostile names show as text' '
	report_in_browser --page out/index.html \
		--chart "Share of the code by year of origin" \
		--chart "Commits by tokens changed (added + removed)" \
		--chart "Commits by churn (tokens added minus removed)" &&
	report_in_browser --page sout/index.html --chart "Share of the code by era" &&
	report_in_browser --page eout/index.html --chart "Share of the code by year of origin" \
		--text "Eve \"&\" O'"'"'Hara" --text "</table><script>alert(1)</script>" &&
	test_file_not_empty shots/report.png &&
	! report_in_browser --page out/index.html --chart "no such chart"
'

# numstat_of DEST: "TOKEN-ID ADDED REMOVED" of every non-merge commit by
# git log --numstat of the token repository, views only (the .mailmap
# and binary views left out), as commit sizes count them
numstat_of () {
	git -C "$1" log --no-merges --numstat --format="commit %H" |
	awk "/^commit / { if (id) print id, a, r; id = \$2; a = r = 0; next }
	     NF == 3 && \$1 != \"-\" && \$3 != \".mailmap\" && \$3 != \".gitattributes\" { a += \$1; r += \$2 }
	     END { if (id) print id, a, r }" | sort
}

# sizes_of OUTDIR: the same from the report's largest commits
sizes_of () {
	awk -F"\t" "NR > 1 { print \$3, \$4, \$5 }" "$1/largest-commits.tsv" | sort
}

# root_history DIR [ATTRIBUTES]: two commits, the root with a C file whose
# view holds a NUL in its first 8000 bytes (binary to git diff; the file
# is not: 9000 newlines come first), an empty file, a .mailmap and, if
# given, a .gitattributes holding ATTRIBUTES
root_history () {
	git init -q "$1" &&
	printf "int a;\n" >"$1/a.c" &&
	{ yes "" | head -n 9000 && printf "char *s = \"nul\\000in a string\";\nint x;\n"; } >"$1/late-nul.c" &&
	: >"$1/empty.c" &&
	printf "x = 1\ny = 2\n" >"$1/b.py" &&
	printf "Root <root@example.org>\n" >"$1/.mailmap" &&
	if test -n "$2"
	then
		printf "%s\n" "$2" >"$1/.gitattributes"
	fi &&
	git -C "$1" add . &&
	commit_as -C "$1" --at=2001-01-01T00:00:00Z --mail=root@example.org Root -m root &&
	printf "int a, b;\n" >"$1/a.c" &&
	git -C "$1" add . &&
	commit_as -C "$1" --at=2002-01-01T00:00:00Z --mail=root@example.org Root -m second
}

# view_sizes_of DEST: "COMMIT ADDED 0" for the two commits of root_history:
# the root adds every token of its files, the second ", b" to a.c
view_sizes_of () {
	root=$(git -C "$1" rev-parse HEAD~1) &&
	n=0 &&
	for f in a.c b.py empty.c late-nul.c
	do
		n=$(($n + $(git -C "$1" show "$root:$f" | wc -l))) || return 1
	done &&
	{ echo "$root $n 0" && echo "$(git -C "$1" rev-parse HEAD) 2 0"; } | sort
}

test_expect_success 'the size of a root commit is every token of its files, binary to git diff or not' '
	root_history rootsrc &&
	"$TOKSTREAM" convert -q rootsrc root.git &&
	git -C root.git log --numstat --format= >numstat &&
	grep "^-	-	late-nul.c$" numstat &&
	grep "^0	0	empty.c$" numstat &&
	view_sizes_of root.git >expect &&
	grep " 18 0$" expect &&
	"$TOKSTREAM" report -C root.git --top=5 --min-tokens=1 rootout &&
	sizes_of rootout >actual &&
	test_cmp expect actual
'

test_expect_success '... also with a .gitattributes in the root that git diff may honour' '
	root_history rootattr "*.py -diff" &&
	"$TOKSTREAM" convert -q rootattr rootattr.git &&
	git -C rootattr.git cat-file -e HEAD~1:.gitattributes &&
	view_sizes_of rootattr.git >expect &&
	"$TOKSTREAM" report -C rootattr.git --top=5 --min-tokens=1 rootattrout &&
	sizes_of rootattrout >actual &&
	test_cmp expect actual
'

# packs_in DEST: the number of entry packs in DEST's report cache
packs_in () {
	ls "$1/tokstream/report-cache" | grep -c "^entries-.*\.pack$"
}

test_expect_success 'the cache: one pack per worker and report, merged past 16' '
	git init -q packsrc &&
	printf "int a;\n" >packsrc/a.c &&
	printf "int b;\n" >packsrc/b.c &&
	git -C packsrc add . &&
	commit_as -C packsrc --at=2001-01-01T00:00:00Z --mail=pat@example.org Pat -m "a, b" &&
	"$TOKSTREAM" convert -q packsrc pack.git &&
	"$TOKSTREAM" report -C pack.git -j 2 --min-tokens=1 pout &&
	test "$(packs_in pack.git)" = 2 &&
	for i in $(seq 1 15)
	do
		printf "int a%d;\n" $i >>packsrc/a.c &&
		git -C packsrc add . &&
		commit_as -C packsrc --at=2002-01-01T00:00:00Z --mail=pat@example.org Pat -m "a $i" &&
		"$TOKSTREAM" convert -q packsrc pack.git &&
		"$TOKSTREAM" report -C pack.git -j 1 --min-tokens=1 --stats pout 2>stats &&
		grep "; 1 blamed, 1 from the cache;" stats || return 1
	done &&
	test "$(packs_in pack.git)" = 1 &&
	"$TOKSTREAM" report -C pack.git --min-tokens=1 --stats pout2 2>stats &&
	grep "; 0 blamed, 2 from the cache;" stats &&
	diff -r pout pout2 &&
	rm -rf pack.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C pack.git --min-tokens=1 pout3 &&
	diff -r pout pout3
'

test_expect_success '... a killed worker'"'"'s temporary pack is no entry; a corrupt pack is a clear error' '
	printf "0123456789012345678901234567890123456789 99999\nshort" \
		>pack.git/tokstream/report-cache/tmp-entries-abcdef &&
	"$TOKSTREAM" report -C pack.git --min-tokens=1 pout4 &&
	diff -r pout pout4 &&
	cp pack.git/tokstream/report-cache/tmp-entries-abcdef pack.git/tokstream/report-cache/entries-abcdef.pack &&
	test_expect_code 128 "$TOKSTREAM" report -C pack.git --min-tokens=1 pout5 2>err &&
	grep "^tokstream: fatal: .*/entries-abcdef.pack: a corrupt pack (remove it, or the whole cache directory)$" err &&
	rm pack.git/tokstream/report-cache/entries-abcdef.pack
'

test_expect_success 'a pathspec means what it means to git; one that matches nothing is an error' '
	mkdir -p src/sub &&
	printf "int g(void)\n{\n\treturn 2;\n}\n" >src/sub/g.c &&
	git -C src add sub/g.c &&
	commit_as -C src --at=2023-01-01T12:00:00Z --mail=gail@example.org Gail -m "sub/g.c" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	# a glob crosses directories, as in git
	"$TOKSTREAM" report -C tokens.git --min-tokens=1 glob main "*.c" &&
	tail -n +2 glob/files.tsv | cut -f1 | sort >actual &&
	git -C src ls-files "*.c" | sort >expect &&
	test_line_count = 2 expect &&
	test_cmp expect actual &&
	# exclusion magic
	"$TOKSTREAM" report -C tokens.git --min-tokens=1 excl main ":!a.c" &&
	tail -n +2 excl/files.tsv | cut -f1 | sort >actual &&
	git -C src ls-files ":!a.c" ":!.mailmap" | sort >expect &&
	test_cmp expect actual &&
	test_expect_code 128 "$TOKSTREAM" report -C tokens.git none main "*.zzz" 2>err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: pathspec .\*\.zzz. matched no file at main$" err &&
	test_path_is_missing none &&
	test_expect_code 128 "$TOKSTREAM" html -C tokens.git hnone main "*.zzz" 2>err &&
	grep "matched no file at main$" err &&
	test_path_is_missing hnone &&
	"$TOKSTREAM" html -C tokens.git hglob main "*.c" >/dev/null 2>&1 &&
	test_path_is_file hglob/sub/g.c.html &&
	test_path_is_missing hglob/b.py.html
'

test_expect_success 'usage errors' '
	test_expect_code 129 "$TOKSTREAM" report -C tokens.git 2>err &&
	grep "no OUTDIR" err &&
	for j in 0 257 -1 x 2x ""
	do
		test_expect_code 129 "$TOKSTREAM" report -C tokens.git -j "$j" x 2>err &&
		grep "^tokstream: error: -j takes a number from 1 to 256, not .$j.$" err || return 1
	done &&
	test_expect_code 129 "$TOKSTREAM" report -C tokens.git -j2x x 2>err &&
	test_expect_code 129 "$TOKSTREAM" report --nosuch x 2>err &&
	test_expect_code 128 "$TOKSTREAM" report -C tokens.git x nosuchrev 2>err
'

test_done
