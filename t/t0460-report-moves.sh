#!/bin/sh
test_description='tokstream report: lines against tokens like with like, what moves change a figure'
. ./test-lib.sh

# The history:
#   Alice  a.c: add() and sub(), 31 tokens each; c.c: mul(), 16 tokens
#   Bob    copies a.c to copy.c (62 tokens) and adds a comment to a.c (1 token)
#   Carol  moves sub() from a.c to the end of c.c (31 tokens, 8 lines with the blank one)
# With moves the engine gives copy.c and sub() to Alice; without, Bob owns
# copy.c and Carol sub(), as git blame (no -C) gives their lines: 93 of the
# 141 tokens change hands.
test_expect_success 'a file copied, a function moved to another file' '
	git init -q src &&
	cat >src/a.c <<-\EOF &&
	int add(int a, int b)
	{
		int total = a + b;
		if (total > 100)
			total = 100;
		return total;
	}

	int sub(int a, int b)
	{
		int diff = a - b;
		if (diff < 0)
			diff = 0;
		return diff;
	}
	EOF
	printf "int mul(int a, int b)\n{\n\treturn a * b;\n}\n" >src/c.c &&
	git -C src add a.c c.c &&
	commit_as -C src --at=2020-01-01T12:00:00Z Alice -m "a.c, c.c" &&
	cp src/a.c src/copy.c &&
	echo "/* see copy.c */" >>src/a.c &&
	git -C src add a.c copy.c &&
	commit_as -C src --at=2021-01-01T12:00:00Z Bob -m "copy a.c" &&
	sed -n "1,8p;16p" src/a.c >tmp &&
	{ echo && sed -n "9,15p" src/a.c; } >>src/c.c &&
	mv tmp src/a.c &&
	git -C src add a.c c.c &&
	commit_as -C src --at=2022-01-01T12:00:00Z Carol -m "sub() to c.c" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	# a copy of DEST before any report: no state, no cache
	cp -R tokens.git fresh.git &&
	cp -R tokens.git never.git &&
	"$TOKSTREAM" report -C tokens.git --replay=always --min-tokens=1 -j 1 dflt &&
	"$TOKSTREAM" report -C tokens.git --replay=always --no-moves --min-tokens=1 -j 1 nomoves
'

test_expect_success 'by default lines and tokens compare like with like: a copy is its copier'"'"'s both ways' '
	cut -f1,5,12- dflt/files.tsv >actual &&
	cat >expect <<-\EOF &&
	path	tokens	distance	moved_tokens	moves_distance
	a.c	32	7.99	0	0.00
	c.c	47	0.71	31	65.96
	copy.c	62	0.00	62	100.00
	EOF
	test_cmp expect actual &&
	grep "Like is compared with like" dflt/index.html
'

test_expect_success 'the default distances are those of --no-moves' '
	cut -f1,12 dflt/files.tsv >expect &&
	cut -f1,12 nomoves/files.tsv >actual &&
	test_cmp expect actual &&
	grep "^distance	" dflt/summary.tsv >expect &&
	grep "^distance	" nomoves/summary.tsv >actual &&
	test_cmp expect actual
'

# moves_figures DIR: the lines-and-tokens distances and what moves change, of DIR's summary
moves_figures () {
	grep -E "^(distance|distance_with_moves|moved_tokens|moved_token_share|moves_distance)	" "$1/summary.tsv"
}

test_expect_success 'what moves change: the moved tokens, their share, the distance they make' '
	moves_figures dflt >actual &&
	cat >expect <<-\EOF &&
	distance	0.24
	distance_with_moves	65.96
	moved_tokens	93
	moved_token_share	65.96
	moves_distance	65.96
	EOF
	test_cmp expect actual &&
	cat >expect <<-\EOF &&
	author	tokens	token_share	tokens_without_moves	token_share_without_moves	difference
	Alice	140	99.29	47	33.33	93
	Bob	1	0.71	63	44.68	-62
	Carol	0	0.00	31	21.99	-31
	EOF
	test_cmp expect dflt/moves.tsv &&
	grep "Moves give 93 tokens (65.96% of the selection" dflt/index.html &&
	# the other figures keep moves: Carol owns lines, and no token
	grep "^Carol	8	[0-9.]*	[0-9]*	0	0.00	-$" dflt/authors.tsv
'

test_expect_success 'the disagreement table has the tokens compared and those with moves' '
	grep "	c.c	" dflt/disagreement.tsv >actual &&
	cat >expect <<-\EOF &&
	2	c.c	0.71	Alice	4	33.33	16	34.04	47	100.00	65.96
	2	c.c	0.71	Carol	8	66.67	31	65.96	0	0.00	65.96
	EOF
	test_cmp expect actual
'

test_expect_success '--no-moves: moves change nothing' '
	grep -E "^(moved_tokens|moves_distance)	" nomoves/summary.tsv >actual &&
	printf "moved_tokens\t0\nmoves_distance\t0.00\n" >expect &&
	test_cmp expect actual &&
	grep "moves change nothing" nomoves/index.html
'

test_expect_success '-M compares the lines with the tokens as the engine gives them' '
	"$TOKSTREAM" report -C tokens.git -M --min-tokens=1 -j 1 outm &&
	grep "^distance	" outm/summary.tsv >actual &&
	grep "^distance_with_moves	" outm/summary.tsv | sed "s/_with_moves//" >expect &&
	test_cmp expect actual &&
	grep "^copy.c	.*	100.00	62	100.00$" outm/files.tsv
'

test_expect_success 'blamed file by file (--replay=never), the same figures' '
	"$TOKSTREAM" report -C never.git --replay=never --stats --min-tokens=1 -j 1 never 2>stats &&
	grep "blamed by the history of each file by tokens" stats &&
	for f in summary files moves disagreement authors
	do
		test_cmp dflt/$f.tsv never/$f.tsv || return 1
	done
'

test_expect_success 'a saved state at an older commit, taken forward: the figures of a report from nothing' '
	"$TOKSTREAM" report -C fresh.git --replay=always --min-tokens=1 -j 1 older HEAD~1 &&
	# the copy is in the state, its owners with their mover
	grep "^moved [1-9]" fresh.git/tokstream/replay/tokens &&
	rm -rf fresh.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C fresh.git --replay=always --progress --min-tokens=1 -j 1 later 2>progress &&
	# one commit replayed, from the state
	tr "\r" "\n" <progress | grep "^Replaying commits: 100% (1/1), done" &&
	! tr "\r" "\n" <progress | grep "(3/3)" &&
	for f in summary files moves disagreement authors
	do
		test_cmp dflt/$f.tsv later/$f.tsv || return 1
	done
'

test_expect_success 'an ignored commit that moves code: replay and walk agree on the movers' '
	carol=$(git -C src rev-parse HEAD) &&
	rm -rf tokens.git/tokstream/report-cache never.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tokens.git --replay=always --ignore-rev $carol --min-tokens=1 -j 1 ign &&
	"$TOKSTREAM" report -C never.git --replay=never --ignore-rev $carol --min-tokens=1 -j 1 ign-never &&
	for f in summary files moves disagreement
	do
		test_cmp ign/$f.tsv ign-never/$f.tsv || return 1
	done
'

test_expect_success 'report --merge combines what moves change exactly' '
	mkdir reports &&
	cp -R dflt reports/one &&
	cp -R dflt reports/two &&
	"$TOKSTREAM" report --merge merged reports/one reports/two &&
	moves_figures merged >actual &&
	cat >expect <<-\EOF &&
	distance	0.24
	distance_with_moves	65.96
	moved_tokens	186
	moved_token_share	65.96
	moves_distance	65.96
	EOF
	test_cmp expect actual &&
	grep "^Bob	2	0.71	126	44.68	-124$" merged/moves.tsv &&
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$TEST_DIRECTORY/../contrib/schema/report.schema.json" \
		dflt/report.json merged/report.json
'

test_done
