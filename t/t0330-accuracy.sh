#!/bin/sh
test_description='accuracy: generated histories with known authors, and token blame against them'
. ./test-lib.sh

GENERATE=$TEST_DIRECTORY/accuracy/generate.py
SCORE=$TEST_DIRECTORY/accuracy/score.py
REAL=$TEST_DIRECTORY/accuracy/real.py

test_lazy_prereq PYTHON 'python3 -c "import sys; sys.exit(sys.version_info < (3, 8))"'

# A small file of several functions: typed parameters (for const), calls
# of one function several times (for arguments), identifiers used a few
# times (for renames).
write_small_seed () {
	cat >"$1" <<-\EOF
	/* A small table of counters, written for the accuracy tests. */
	#include <stdio.h>

	struct counter {
		int value;
		int limit;
	};

	static int counter_clamp(struct counter *counter, int limit)
	{
		if (counter->value > limit)
			counter->value = limit;
		return counter->value;
	}

	static void counter_bump(struct counter *counter, int step)
	{
		counter->value += step;
		counter_clamp(counter, counter->limit);
	}

	static void counter_reset(struct counter *counter, int limit)
	{
		counter->value = 0;
		counter->limit = limit;
		counter_clamp(counter, limit);
	}

	int main(int argc, char **argv)
	{
		struct counter counter;
		int i;

		counter_reset(&counter, 10);
		for (i = 1; i < argc; i++)
			counter_bump(&counter, i);
		printf("%d\n", counter_clamp(&counter, 5));
		return argv[0] == NULL;
	}
	EOF
}

# A long file of N short functions, all alike: short repeating lines,
# where a diff with a cost cut-off loses its way.
write_long_seed () {
	awk -v n="$2" 'BEGIN {
		for (i = 1; i <= n; i++) {
			printf "/* step %d */\n", i
			printf "static int step%d(struct state *s, int n)\n{\n", i
			printf "\tif (s->count > n) {\n\t\ts->count = n;\n\t}\n"
			printf "\treturn s->count;\n}\n\n"
		}
	}' >"$1"
}

write_donor () {
	cat >"$1" <<-\EOF
	static long parse_number(const char *text, int *ok)
	{
		long value = 0;
		*ok = 0;
		while (*text >= '0' && *text <= '9') {
			value = value * 10 + (*text - '0');
			text++;
			*ok = 1;
		}
		return value;
	}

	static unsigned hash_name(const char *name)
	{
		unsigned h = 5381;
		while (*name)
			h = h * 33 + (unsigned char)*name++;
		return h;
	}
	EOF
}

# generate NAME SEEDS KINDS COMMITS [EDITS]: history NAME (repository
# NAME, NAME.truth, NAME.log, token repository NAME.tokens); the donor
# functions come from $DONORS (default donors)
generate () {
	python3 "$GENERATE" --seeds "$2" --donors "${DONORS:-donors}" --out "$1" \
		--truth "$1.truth" --log "$1.log" --kinds "$3" \
		--commits "$4" --edits "${5:-1-1}" --seed 7 &&
	"$TOKSTREAM" convert -q "$1" "$1.tokens"
}

# truth_of NAME PATH: "INDEX COMMIT ALSO" for every token of PATH
truth_of () {
	awk -F'\t' -v p="$2" '$1 == p {print $2, $5, $6}' "$1.truth"
}

# view_of NAME PATH [REV]: the token view of PATH at REV in NAME
view_of () {
	git -C "$1" show "${3:-HEAD}:$2" >view-input.c &&
	"$TOKENIZE" view-input.c
}

# new_tokens NAME PATH: the tokens of PATH that the truth credits to
# commits after the first, one per line, as the view writes them
new_tokens () {
	first=$(git -C "$1" rev-list --max-parents=0 HEAD) &&
	view_of "$1" "$2" >view-now &&
	truth_of "$1" "$2" | awk -v f="$first" '$2 != f {print $1}' >new-index &&
	awk 'NR == FNR {want[$1] = 1; next} FNR in want' new-index view-now
}

# old_tokens NAME PATH: the view less the tokens new_tokens prints
old_tokens () {
	first=$(git -C "$1" rev-list --max-parents=0 HEAD) &&
	view_of "$1" "$2" >view-now &&
	truth_of "$1" "$2" | awk -v f="$first" '$2 != f {print $1}' >new-index &&
	awk 'NR == FNR {want[$1] = 1; next} !(FNR in want)' new-index view-now
}

# blame_mismatches NAME PATH: the tokens whose commit in tokstream blame
# is neither the truth's nor one it names as equally right; also any
# token at another position than the truth's
blame_mismatches () {
	"$TOKSTREAM" blame -C "$1.tokens" --porcelain "$2" |
	awk 'NF == 4 && $1 ~ /^[0-9]+$/ && length($4) == 40 {print $1, $2, $4}' >blamed &&
	awk -F'\t' -v p="$2" '$1 == p {print $3, $4, $5, $6}' "$1.truth" >truth-lines &&
	test_line_count = $(wc -l <truth-lines) blamed &&
	paste -d" " truth-lines blamed | awk '{
		ok = ($1 == $5 && $2 == $6) && ($3 == $7 || index("," $4 ",", "," $7 ","))
		if (!ok) print "token " NR ": truth " $0
	}'
}

# positions_agree NAME PATH: tokenize --positions of the final file gives
# the positions the truth gives
positions_agree () {
	git -C "$1" show "HEAD:$2" >final.c &&
	"$TOKENIZE" --positions final.c | cut -f1 | tr : " " >tokenized &&
	awk -F'\t' -v p="$2" '$1 == p {print $3, $4}' "$1.truth" >truth-positions &&
	test_cmp truth-positions tokenized
}

test_expect_success PYTHON 'seeds and donors' '
	mkdir small long donors &&
	write_small_seed small/counter.c &&
	write_long_seed long/steps.c 400 &&
	write_donor donors/parse.c &&
	test_line_count = 3600 long/steps.c
'

test_expect_success PYTHON 'the generator is deterministic' '
	python3 "$GENERATE" --seeds small --donors donors --out d1 --truth d1.truth --seed 3 --commits 6 &&
	python3 "$GENERATE" --seeds small --donors donors --out d2 --truth d2.truth --seed 3 --commits 6 &&
	test_cmp d1.truth d2.truth &&
	git -C d1 rev-parse HEAD >h1 && git -C d2 rev-parse HEAD >h2 &&
	test_cmp h1 h2 &&
	test $(git -C d1 rev-list --count HEAD) = 6 &&
	python3 "$GENERATE" --seeds small --donors donors --out d3 --truth d3.truth --seed 4 --commits 6 &&
	! test_cmp d1.truth d3.truth
'

test_expect_success PYTHON 'whitespace sweeps: every token keeps the first commit' '
	generate ws long ws 4 &&
	test $(wc -l <ws.log) = 4 &&
	git -C ws diff --stat HEAD~3 HEAD >stat && test_file_not_empty stat &&
	git -C ws diff -w HEAD~3 HEAD >wdiff && test_must_be_empty wdiff &&
	view_of ws steps.c HEAD~3 >before && view_of ws steps.c >after &&
	test_cmp before after &&
	first=$(git -C ws rev-list --max-parents=0 HEAD) &&
	truth_of ws steps.c | awk -v f="$first" "\$2 != f" >moved && test_must_be_empty moved &&
	truth_of ws steps.c >truth && test_line_count = $(wc -l <after) truth &&
	positions_agree ws steps.c
'

test_expect_success PYTHON 'whitespace sweeps: token blame is the truth' '
	blame_mismatches ws steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 're-wrapped lines: same view, first commit' '
	generate wrap small wrap 3 &&
	git -C wrap diff --stat HEAD~2 HEAD >stat && test_file_not_empty stat &&
	view_of wrap counter.c HEAD~2 >before && view_of wrap counter.c >after &&
	test_cmp before after &&
	new_tokens wrap counter.c >new && test_must_be_empty new &&
	positions_agree wrap counter.c &&
	blame_mismatches wrap counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'const insertions: exactly the new const tokens are new' '
	generate const small const 3 &&
	new_tokens const counter.c >new &&
	test_file_not_empty new &&
	sort -u new >kinds && echo const >expect && test_cmp expect kinds &&
	view_of const counter.c HEAD~2 >before && old_tokens const counter.c >rest &&
	test_cmp before rest &&
	sed -n "/^const$/p" before >c0 && sed -n "/^const$/p" rest >c1 && test_cmp c0 c1 &&
	positions_agree const counter.c
'

test_expect_success PYTHON 'const insertions: token blame is the truth' '
	blame_mismatches const counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'argument insertions: the commas and arguments added are new' '
	generate arg small arg 2 &&
	sed -n "s/.*argument \([a-zA-Z0-9]*\) added to \([0-9]*\) calls.*/\1 \2/p" arg.log >what &&
	read arg calls <what &&
	new_tokens arg counter.c >new &&
	grep -c "^$arg$" new >n && echo $calls >expect && test_cmp expect n &&
	view_of arg counter.c HEAD~1 >before && old_tokens arg counter.c >rest &&
	test_cmp before rest &&
	blame_mismatches arg counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'renames: exactly the renamed tokens are new' '
	generate rename small rename 2 &&
	sed -n "s/.*renamed \([A-Za-z_0-9]*\) to \([A-Za-z_0-9]*\) (\([0-9]*\) tokens).*/\1 \2 \3/p" rename.log >what &&
	read old new n <what &&
	new_tokens rename counter.c >newtok &&
	test_line_count = $n newtok &&
	sort -u newtok >names && echo $new >expect && test_cmp expect names &&
	view_of rename counter.c HEAD~1 >before &&
	test $(grep -c "^$old$" before) = $n &&
	! grep "^$old$" newtok &&
	positions_agree rename counter.c &&
	blame_mismatches rename counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a function written in a long file: the donor tokens, nothing else' '
	generate add long func_add 2 &&
	new_tokens add steps.c >new &&
	"$TOKENIZE" donors/parse.c >donor-view &&
	# the new tokens are one donor function, whole
	second=$(grep -n "^static$" donor-view | sed -n "2s/:.*//p") &&
	head -n $(($second - 1)) donor-view >f1 &&
	tail -n +$second donor-view >f2 &&
	{ test_cmp f1 new || test_cmp f2 new; } &&
	view_of add steps.c HEAD~1 >before && old_tokens add steps.c >rest &&
	test_cmp before rest
'

test_expect_success PYTHON 'functions written in several places of a long file: token blame is the truth' '
	mkdir donors4 &&
	write_donor donors4/parse.c &&
	cat >donors4/more.c <<-\EOF &&
	static int skip_blanks(const char **p)
	{
		int n = 0;
		while (**p == 0x20 || **p == 0x09) {
			(*p)++;
			n++;
		}
		return n;
	}

	static void clear_table(struct table *t, size_t size)
	{
		size_t i;
		for (i = 0; i < size; i++)
			t->slot[i] = NULL;
		t->used = 0;
	}
	EOF
	DONORS=donors4 generate adds long func_add 5 &&
	test $(grep -c "func_add steps.c" adds.log) = 4 &&
	blame_mismatches adds steps.c >bad && test_must_be_empty bad
'

# Three functions of 60 statements alike, 1279 tokens each, each its own
# text (the generator writes a donor's function once: twice would be a copy)
write_big_donor () {
	awk -v n=60 'BEGIN {
		for (f = 1; f <= 3; f++) {
			printf "static int run_all%d(struct state *s, int n)\n{\n", f
			for (i = 1; i <= n; i++)
				printf "\tif (s->count > %d) {\n\t\ts->count = step%d(s, n);\n\t}\n", i, 100 * f + i
			printf "\treturn s->count;\n}\n\n"
		}
	}' >"$1"
}

# view_blame_mismatches NAME PATH: as blame_mismatches, from git blame
# --minimal of the view in NAME.tokens (line i of the view is token i)
view_blame_mismatches () {
	git -C "$1.tokens" blame --minimal --line-porcelain HEAD -- "$2" |
	awk "length(\$1) == 40 && \$1 ~ /^[0-9a-f]+\$/ && NF >= 3 {print \$1}" >view-commits &&
	awk "NR == FNR {orig[\$2] = \$1; next} {print orig[\$1]}" \
		"$1.tokens/tokstream/commit-map" view-commits >blamed &&
	truth_of "$1" "$2" >truth-lines &&
	test_line_count = $(wc -l <truth-lines) blamed &&
	paste -d" " truth-lines blamed | awk '{
		if ($2 != $4 && !index("," $3 ",", "," $4 ",")) print "token " $0
	}'
}

test_expect_success PYTHON 'three large functions written in one commit of a long file: the truth' '
	mkdir bigdonor && write_big_donor bigdonor/all.c &&
	DONORS=bigdonor generate big long func_add 2 3-3 &&
	grep "commit 2 .*: func_add .*; func_add .*; func_add " big.log &&
	"$TOKENIZE" bigdonor/all.c >donor-view &&
	test_line_count = $((3 * 1279)) donor-view &&
	sort donor-view >expect &&
	new_tokens big steps.c >new &&
	sort new >actual &&
	test_cmp expect actual &&
	view_of big steps.c HEAD~1 >before && old_tokens big steps.c >rest &&
	test_cmp before rest &&
	# an exact diff of the views finds it: the truth is within reach
	view_blame_mismatches big steps.c >bad && test_must_be_empty bad
'

# git blame with its default diff gives up on the best alignment when the
# changes are large, and credits old tokens to the new functions.
test_expect_success PYTHON 'three large functions written in one commit of a long file: token blame is the truth' '
	blame_mismatches big steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a function deleted: the rest keeps the first commit' '
	generate del small func_del 2 &&
	new_tokens del counter.c >new && test_must_be_empty new &&
	view_of del counter.c HEAD~1 >before && view_of del counter.c >after &&
	test $(wc -l <after) -lt $(wc -l <before) &&
	blame_mismatches del counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'statements wrapped in an if: only if ( c ) { and } are new' '
	generate wrapif small func_wrap_if 2 &&
	new_tokens wrapif counter.c >new &&
	tr "\n" " " <new >line &&
	grep -E "^if \( [a-z]+ \) \{ \} $" line &&
	view_of wrapif counter.c HEAD~1 >before && old_tokens wrapif counter.c >rest &&
	test_cmp before rest &&
	blame_mismatches wrapif counter.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'moves between files: same tokens, all of the first commit' '
	mkdir two && write_small_seed two/a.c && write_long_seed two/b.c 40 &&
	generate movef two func_move_file 2 &&
	grep "moved to" movef.log &&
	cat two/a.c two/b.c >both.c && "$TOKENIZE" both.c | sort >before &&
	{ view_of movef a.c && view_of movef b.c; } | sort >after &&
	test_cmp before after &&
	new_tokens movef a.c >new1 && new_tokens movef b.c >new2 &&
	test_must_be_empty new1 && test_must_be_empty new2
'

test_expect_success PYTHON 'moves between files: token blame is the truth' '
	blame_mismatches movef a.c >bad1 && blame_mismatches movef b.c >bad2 &&
	test_must_be_empty bad1 && test_must_be_empty bad2
'

test_expect_success PYTHON 'a move within a long file: token blame is the truth' '
	generate move long func_move 2 &&
	grep "moved from" move.log &&
	new_tokens move steps.c >new && test_must_be_empty new &&
	blame_mismatches move steps.c >bad && test_must_be_empty bad
'

test_expect_success PYTHON 'a feature history: the truth matches tokenize, score.py scores it' '
	generate mixed long func_add,func_rewrite,func_wrap_if,rename,const,ws 8 1-3 &&
	positions_agree mixed steps.c &&
	test_expect_code 1 python3 "$SCORE" --threshold 100.1 mixed mixed.truth >table &&
	grep "^token blame " table &&
	grep "^git blame view --minimal " table &&
	grep "^line blame -w -M " table &&
	grep "^FAIL: token blame right for .* below the threshold 100.100%" table
'

test_expect_success PYTHON 'score.py: a history blamed right passes, a wrong truth fails' '
	python3 "$SCORE" --threshold 100 const const.truth >table &&
	grep "^token blame .* 100.000%" table &&
	grep "^PASS" table &&
	# credit every token to the last commit instead: no method is right
	last=$(git -C const rev-parse HEAD) &&
	awk -F"\t" -v OFS="\t" -v c="$last" "/^#/ {print; next} {\$5 = c; \$6 = \"-\"; print}" const.truth >wrong.truth &&
	test_expect_code 1 python3 "$SCORE" const wrong.truth >table &&
	grep "^FAIL" table
'

test_expect_success PYTHON 'real.py: a history where token and line blame agree' '
	python3 "$REAL" const >real-out &&
	grep "^TOTAL " real-out >total &&
	awk "{exit !(\$3 == 0)}" total &&
	grep "^PASS: 0.000%" real-out
'

# The shape of lua's lprefix.h: a line inserted above one that begins with
# the same tokens; git blame of the view pairs the old tokens with the
# new line, so the old line gets tokens newer than itself.
test_expect_success PYTHON 'real.py: no token newer than its line where lines begin alike' '
	git init -q alike &&
	printf "#if !defined(A)\n#define A 1\n#endif\n" >alike/x.c &&
	git -C alike add x.c && git -C alike commit -qm one &&
	test_tick &&
	printf "#if !defined(B)\n\n#if !defined(A)\n#define A 1\n#endif\n\n#endif\n" >alike/x.c &&
	git -C alike commit -qam two &&
	python3 "$REAL" alike >real-out &&
	grep "^TOTAL " real-out >total &&
	awk "{exit !(\$3 == 0)}" total
'

test_done
