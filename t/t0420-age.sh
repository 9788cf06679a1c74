#!/bin/sh
test_description='tokstream report: the code age over time, every figure known by construction'
. ./test-lib.sh

# The history, main first-parent line A B C D M F (tokens, lines):
#   A 2001-06  a.c "int a;" (3, 1), b.c "int b;" "int c;" (6, 2), link.c a
#              symbolic link (no view); tags v1 (annotated) and nested (a tag of v1)
#   B 2005-03  b.c: "int c;" becomes "long c;": 1 token and the line; tag v2
#   C 2005-09  d.c "int d = 1;" (5, 1)
#   E 2007-02  on the branch side, from C: e.c "int e;" (3, 1)
#   D 2010-01  removes a.c; d.c: "1" becomes "2": 1 token and the line; tag v3
#   W 2011-01  on the branch wip, from D, never merged: w.c; tag wip-only
#   M 2010-06  merges side: e.c comes with E's origins; tag v4
#   F 2012-06  b.c: "b" becomes "bb": 1 token and the line; HEAD, no tag
#              (blobtag names a blob: no point)
test_expect_success 'a history of known dates, with tags' '
	git init -q src &&
	printf "int a;\n" >src/a.c &&
	printf "int b;\nint c;\n" >src/b.c &&
	ln -s a.c src/link.c &&
	git -C src add . && commit_as -C src --at=2001-06-01T12:00:00Z - -m A &&
	git -C src -c user.name=Ann -c user.email=ann@example.org tag -a -m v1 v1 &&
	git -C src -c user.name=Ann -c user.email=ann@example.org -c advice.nestedTag=false \
		tag -a -m nested nested v1 &&
	printf "int b;\nlong c;\n" >src/b.c &&
	git -C src add . && commit_as -C src --at=2005-03-01T12:00:00Z - -m B && git -C src tag v2 &&
	printf "int d = 1;\n" >src/d.c &&
	git -C src add . && commit_as -C src --at=2005-09-01T12:00:00Z - -m C &&
	git -C src checkout -q -b side &&
	printf "int e;\n" >src/e.c &&
	git -C src add . && commit_as -C src --at=2007-02-01T12:00:00Z - -m E &&
	git -C src checkout -q main &&
	git -C src rm -q a.c && printf "int d = 2;\n" >src/d.c &&
	git -C src add . && commit_as -C src --at=2010-01-01T12:00:00Z - -m D && git -C src tag v3 &&
	git -C src checkout -q -b wip &&
	printf "int w;\n" >src/w.c &&
	git -C src add . && commit_as -C src --at=2011-01-01T12:00:00Z - -m W && git -C src tag wip-only &&
	git -C src checkout -q main &&
	GIT_AUTHOR_DATE=2010-06-01T12:00:00Z GIT_COMMITTER_DATE=2010-06-01T12:00:00Z \
		git -C src -c user.name=Ann -c user.email=ann@example.org merge -q --no-ff -m M side &&
	git -C src tag v4 &&
	printf "int bb;\nlong c;\n" >src/b.c &&
	git -C src add . && commit_as -C src --at=2012-06-01T12:00:00Z - -m F &&
	git -C src tag blobtag HEAD:b.c &&
	"$TOKSTREAM" convert -q src tokens.git 2>/dev/null &&
	"$TOKSTREAM" report -C tokens.git -j 1 out &&
	test_path_is_file out/age.tsv
'

# ids EXPECT.IN: the placeholders @A@... of the expected table as commit ids
ids () {
	sed -e "s/@A@/$(git -C src rev-parse v1^{commit})/" \
	    -e "s/@B@/$(git -C src rev-parse v2)/" \
	    -e "s/@C@/$(git -C src rev-parse main~3)/" \
	    -e "s/@D@/$(git -C src rev-parse v3)/" \
	    -e "s/@M@/$(git -C src rev-parse v4)/" \
	    -e "s/@F@/$(git -C src rev-parse main)/" \
	    -e "s/@f@/$(git -C src rev-parse main | cut -c1-7)/" "$1"
}

test_expect_success 'at each tag of the history and at REV, by year of origin' '
	cat >expect.in <<-\EOF &&
	sample	date	commit	year	lines	line_share	tokens	token_share
	nested	2001-06-01	@A@	2001	3	100.00	9	100.00
	v1	2001-06-01	@A@	2001	3	100.00	9	100.00
	v2	2005-03-01	@B@	2001	2	66.67	8	88.89
	v2	2005-03-01	@B@	2005	1	33.33	1	11.11
	v3	2010-01-01	@D@	2001	1	33.33	5	45.45
	v3	2010-01-01	@D@	2005	1	33.33	5	45.45
	v3	2010-01-01	@D@	2010	1	33.33	1	9.09
	v4	2010-06-01	@M@	2001	1	25.00	5	35.71
	v4	2010-06-01	@M@	2005	1	25.00	5	35.71
	v4	2010-06-01	@M@	2007	1	25.00	3	21.43
	v4	2010-06-01	@M@	2010	1	25.00	1	7.14
	@f@	2012-06-01	@F@	2001	0	0.00	4	28.57
	@f@	2012-06-01	@F@	2005	1	25.00	5	35.71
	@f@	2012-06-01	@F@	2007	1	25.00	3	21.43
	@f@	2012-06-01	@F@	2010	1	25.00	1	7.14
	@f@	2012-06-01	@F@	2012	1	25.00	1	7.14
	EOF
	ids expect.in >expect &&
	test_cmp expect out/age.tsv &&
	"$TOKSTREAM" report -C tokens.git -j 1 --every=tag out-tag &&
	test_cmp expect out-tag/age.tsv
'

# last_point DIR: the rows of the last point of DIR/age.tsv as years.tsv has them
last_point () {
	echo "year	lines	line_share	tokens	token_share" &&
	awk -F"	" -v OFS="	" -v last="$(tail -n 1 "$1/age.tsv" | cut -f1)" \
		"NR > 1 && \$1 == last { print \$4, \$5, \$6, \$7, \$8 }" "$1/age.tsv"
}

test_expect_success 'the last point is REV: the figures of years.tsv' '
	last_point out >actual &&
	test_cmp out/years.tsv actual
'

test_expect_success '--every=year: the last commit of each year on the first-parent line' '
	cat >expect.in <<-\EOF &&
	sample	date	commit	year	lines	line_share	tokens	token_share
	2001	2001-06-01	@A@	2001	3	100.00	9	100.00
	2005	2005-09-01	@C@	2001	2	50.00	8	57.14
	2005	2005-09-01	@C@	2005	2	50.00	6	42.86
	2010	2010-06-01	@M@	2001	1	25.00	5	35.71
	2010	2010-06-01	@M@	2005	1	25.00	5	35.71
	2010	2010-06-01	@M@	2007	1	25.00	3	21.43
	2010	2010-06-01	@M@	2010	1	25.00	1	7.14
	2012	2012-06-01	@F@	2001	0	0.00	4	28.57
	2012	2012-06-01	@F@	2005	1	25.00	5	35.71
	2012	2012-06-01	@F@	2007	1	25.00	3	21.43
	2012	2012-06-01	@F@	2010	1	25.00	1	7.14
	2012	2012-06-01	@F@	2012	1	25.00	1	7.14
	EOF
	ids expect.in >expect &&
	"$TOKSTREAM" report -C tokens.git -j 2 --every=year yout &&
	test_cmp expect yout/age.tsv &&
	last_point yout >actual &&
	test_cmp yout/years.tsv actual
'

test_expect_success 'a pathspec and an older REV: only their files, REV the last point' '
	cat >expect.in <<-\EOF &&
	sample	date	commit	year	lines	line_share	tokens	token_share
	nested	2001-06-01	@A@	2001	2	100.00	6	100.00
	v1	2001-06-01	@A@	2001	2	100.00	6	100.00
	v2	2005-03-01	@B@	2001	1	50.00	5	83.33
	v2	2005-03-01	@B@	2005	1	50.00	1	16.67
	v3	2010-01-01	@D@	2001	1	50.00	5	83.33
	v3	2010-01-01	@D@	2005	1	50.00	1	16.67
	EOF
	ids expect.in >expect &&
	"$TOKSTREAM" report -C tokens.git -j 1 pout v3 "b*.c" &&
	test_cmp expect pout/age.tsv &&
	last_point pout >actual &&
	test_cmp pout/years.tsv actual
'

# The counts of the points are kept in report-cache/age-*; the replays'
# state in replay/.  A point before the state's tip is in no replay from
# it: the replay must then start from the first commit.
test_expect_success 'after an earlier report of an older REV: the same as from nothing' '
	rm -rf tokens.git/tokstream/report-cache tokens.git/tokstream/replay &&
	"$TOKSTREAM" report -C tokens.git -j 2 cout v3 &&
	test_path_is_file tokens.git/tokstream/replay/tokens &&
	test_path_is_file tokens.git/tokstream/replay/lines &&
	"$TOKSTREAM" report -C tokens.git -j 2 --stats cout 2>stats &&
	grep "^tokstream report: code age: 6 points, counted by the report.s replays$" stats &&
	test_cmp out/age.tsv cout/age.tsv &&
	"$TOKSTREAM" report -C tokens.git -j 2 --stats cout1 2>stats &&
	grep "^tokstream report: code age: 6 points, counted by nothing (all from the cache)$" stats &&
	test_cmp out/age.tsv cout1/age.tsv
'

test_expect_success 'a state past the points and no counts kept: the same as from nothing' '
	rm tokens.git/tokstream/report-cache/age-* &&
	"$TOKSTREAM" report -C tokens.git -j 1 --stats cout2 2>stats &&
	grep "counted by replays of their own$" stats &&
	test_cmp out/age.tsv cout2/age.tsv &&
	rm -rf tokens.git/tokstream/report-cache &&
	test_path_is_file tokens.git/tokstream/replay/tokens &&
	"$TOKSTREAM" report -C tokens.git -j 2 --stats cout3 2>stats &&
	grep "counted by the report.s replays$" stats &&
	test_cmp out/age.tsv cout3/age.tsv &&
	rm -rf tokens.git/tokstream/report-cache tokens.git/tokstream/replay &&
	"$TOKSTREAM" report -C tokens.git -j 1 cout4 v3 &&
	rm -rf tokens.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git -j 1 cout5 &&
	test_cmp out/age.tsv cout5/age.tsv
'

# v4 merges a branch that forked before v3: a replay at v4 cannot start
# from v3's state, while one at HEAD can start from v4's
test_expect_success 'the tip of the state is a point: counted from the state' '
	rm -rf tokens.git/tokstream/report-cache tokens.git/tokstream/replay &&
	"$TOKSTREAM" report -C tokens.git -j 1 v4out v4 &&
	v4=$(git -C src rev-parse v4) &&
	grep -v "^$v4 " tokens.git/tokstream/report-cache/age-* >kept &&
	! test_cmp kept tokens.git/tokstream/report-cache/age-* >/dev/null &&
	cp kept tokens.git/tokstream/report-cache/age-* &&
	"$TOKSTREAM" report -C tokens.git -j 1 --stats v4out2 2>stats &&
	grep "counted by the report.s replays$" stats &&
	test_cmp out/age.tsv v4out2/age.tsv
'

test_expect_success 'the page: a stacked area chart by tokens and one by lines' '
	grep -q "<h3 id=\"age\">Code age over time</h3>" out/index.html &&
	grep -q "aria-label=\"Share of the tokens by year of origin over time\"" out/index.html &&
	grep -q "aria-label=\"Share of the lines by year of origin over time\"" out/index.html &&
	# five years of origin: an area each in the two charts and in the burndown
	grep -o "<polygon " out/index.html >polygons &&
	test_line_count = 15 polygons &&
	grep -q "<a href=\"age.tsv\">" out/index.html
'

# 2001 held 9 tokens at A (nested, v1), 8 at v2, 5 at v3 and v4, 4 at F:
# half of its 9 were gone between v4 (5) and F (4), half-way in time
# (2011-06-01 less half a day), 10 years after A.  2005 held 1 at v2 and
# 5 from v3 on: not yet halved, 2.4 years after v3 at F.
test_expect_success 'survival: each year'"'"'s tokens at each point, and its half-life' '
	cat >expect.in <<-\EOF &&
	year	sample	date	commit	tokens	share_of_peak
	2001	nested	2001-06-01	@A@	9	100.00
	2001	v1	2001-06-01	@A@	9	100.00
	2001	v2	2005-03-01	@B@	8	88.89
	2001	v3	2010-01-01	@D@	5	55.56
	2001	v4	2010-06-01	@M@	5	55.56
	2001	@f@	2012-06-01	@F@	4	44.44
	2005	v2	2005-03-01	@B@	1	20.00
	2005	v3	2010-01-01	@D@	5	100.00
	EOF
	ids expect.in >expect &&
	head -n 9 out/survival.tsv >actual &&
	test_cmp expect actual &&
	cat >expect.in <<-\EOF &&
	year	peak_tokens	peak_sample	peak_date	tokens_now	share_now	half_gone_sample	half_life_years
	2001	9	nested	2001-06-01	4	44.44	@f@	10.00
	2005	5	v3	2010-01-01	5	100.00		
	EOF
	ids expect.in >expect &&
	head -n 3 out/half-lives.tsv >actual &&
	test_cmp expect actual &&
	grep -q "<h3 id=\"survival\">Survival</h3>" out/index.html &&
	grep -q "aria-label=\"Tokens alive by year of origin (100%: 14, the most at any point)\"" out/index.html &&
	grep -q "<td class=\"n\">more than 2.4</td>" out/index.html
'

test_expect_success 'with -M the lines are git blame'"'"'s: the code age is by tokens only' '
	"$TOKSTREAM" report -C tokens.git -j 1 -M mout &&
	grep "^$(git -C src rev-parse main | cut -c1-7)	2012-06-01	[0-9a-f]*	2012	-	-	1	7.14$" mout/age.tsv &&
	grep -q "aria-label=\"Share of the tokens by year of origin over time\"" mout/index.html &&
	! grep -q "aria-label=\"Share of the lines by year" mout/index.html
'

# Two maintained lines: 1.x forks from main at R, main goes on (2.0 ... 2.2,
# each adding a file), 1.x gets fixes (1.1 ... 1.3) dated between main's
# tags and main merges 1.x twice.  By date the tags alternate between two
# very different trees; along main's first-parent line they do not.
test_expect_success 'two maintained lines: the points follow REV'"'"'s first-parent line' '
	git init -q -b main two &&
	lcommit () {
		GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" \
		git -C two -c user.name=Ann -c user.email=ann@example.org commit -q -m "$2"
	} &&
	printf "int r;\n" >two/r.c && git -C two add . && lcommit 2001-01-01T00:00:00Z R &&
	git -C two tag 1.0 &&
	git -C two branch one &&
	i=0 &&
	for d in 2002 2004 2006
	do
		printf "int m$i[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };\n" >two/m$i.c &&
		git -C two add . && lcommit $d-01-01T00:00:00Z "m$i" && git -C two tag 2.$i &&
		i=$((i + 1)) || return 1
	done &&
	git -C two checkout -q one &&
	i=1 &&
	for d in 2003 2005 2007
	do
		printf "int r$i;\n" >>two/r.c &&
		git -C two add . && lcommit $d-01-01T00:00:00Z "fix $i" && git -C two tag 1.$i &&
		i=$((i + 1)) || return 1
	done &&
	git -C two checkout -q main &&
	GIT_AUTHOR_DATE=2008-01-01T00:00:00Z GIT_COMMITTER_DATE=2008-01-01T00:00:00Z \
		git -C two -c user.name=Ann -c user.email=ann@example.org merge -q --no-ff -m "merge 1.2" 1.2 &&
	GIT_AUTHOR_DATE=2009-01-01T00:00:00Z GIT_COMMITTER_DATE=2009-01-01T00:00:00Z \
		git -C two -c user.name=Ann -c user.email=ann@example.org merge -q --no-ff -m "merge 1.3" 1.3 &&
	"$TOKSTREAM" convert -q two two.git &&
	"$TOKSTREAM" report -C two.git -j 1 two-out &&
	awk -F"\t" "NR > 1 { if (\$1 != last) { if (last != \"\") print last, day, n; n = 0 }
		last = \$1; day = \$2; n += \$7 } END { print last, day, n }" two-out/age.tsv >points &&
	cat >expect <<-EOF &&
	1.0 2001-01-01 3
	2.0 2002-01-01 30
	2.1 2004-01-01 57
	2.2 2006-01-01 84
	1.2 +1 2008-01-01 90
	1.3 2009-01-01 93
	EOF
	test_cmp expect points &&
	grep "in the order of its first-parent line" two-out/index.html
'

test_expect_success 'a long table of points is summed up on the page, whole in age.tsv' '
	git init -q -b main many &&
	i=1 &&
	while test $i -le 60
	do
		printf "int v$i;\n" >>many/v.c && git -C many add v.c &&
		GIT_AUTHOR_DATE="2001-01-01T00:00:$((i / 10))$((i % 10))Z" \
		GIT_COMMITTER_DATE="2001-01-01T00:00:$((i / 10))$((i % 10))Z" \
			git -C many -c user.name=Ann -c user.email=ann@example.org commit -q -m "v$i" &&
		git -C many tag t$i && i=$((i + 1)) || return 1
	done &&
	"$TOKSTREAM" convert -q many many.git &&
	"$TOKSTREAM" report -C many.git -j 1 many-out &&
	cut -f1 many-out/age.tsv | sed 1d | uniq >all &&
	test_line_count = 60 all &&
	grep "The table shows one point in 3 of the 60, and the last;" many-out/index.html &&
	sed -n "/id=\"age\"/,/<\/table>/p" many-out/index.html | grep -o "<tr><td>t[0-9]*</td>" >rows &&
	test_line_count = 21 rows &&
	grep "<tr><td>t60</td>" rows
'

test_expect_success '--every takes tag or year' '
	test_expect_code 129 "$TOKSTREAM" report -C tokens.git --every=month eout 2>err &&
	grep "every takes tag or year, not .month." err &&
	test_path_is_missing eout
'

test_done
