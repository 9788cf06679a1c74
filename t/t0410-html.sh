#!/bin/sh
test_description='tokstream html: a self-contained, escaped, incremental site of token blame'
. ./test-lib.sh

URL='https://example.org/commit/%H'

# The pages' mtimes, ctimes and inodes: a rewrite (write and rename) changes them.
page_stamps () {
	stat -c '%n %i %Y %Z' "$@"
}

# index_tokens INDEX NAME: the token count the index gives for NAME.
index_tokens () {
	sed -n "s|.*>$2</a></td><td class=\"num\">\([0-9]*\)</td>.*|\1|p" "$1"
}

# gutter PAGE N: the text of line N's gutter (its tags taken away).
gutter () {
	sed -n "s|.*<tr id=\"L$2\"[^>]*><td class=\"g\">\(.*\)</td><td class=\"ln\">.*|\1|p" "$1" |
	sed "s/<[^>]*>//g"
}

# index_row INDEX NAME: the row of an index that links to NAME.
index_row () {
	sed "s|</tr>|&\n|g" "$1" | grep ">$2</a></td>"
}

# check_bars INDEX: every bar of the index is as wide as the shares of its
# row's tokens (the title of each segment tells its tokens), and they add
# up to the row's tokens.
check_bars () {
	sed "s|</tr>|&\n|g" "$1" | grep "<div class=\"bar\">" >bar-rows &&
	awk '{
		total = $0; sub(/^.*<\/a><\/td><td class="num">/, "", total); sub(/<.*/, "", total)
		rest = $0; sum = 0
		while (match(rest, /width:[0-9.]*%[^"]*" title="[^"]*: [0-9]+ tokens?, /)) {
			seg = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
			w = seg; sub(/^width:/, "", w); sub(/%.*/, "", w)
			n = seg; sub(/ tokens?, $/, "", n); sub(/.*: /, "", n)
			sum += n; d = w - 100 * n / total
			if (d > 0.001 || d < -0.001) { print "width " w "% for " n " of " total ": " $0; bad = 1 }
		}
		if (sum != total) { print "the shares add up to " sum ", not " total ": " $0; bad = 1 }
	} END { if (!NR) print "no bar in '"$1"'"; exit bad || !NR }' bar-rows
}

test_expect_success 'a history: A writes add(), B re-indents it, C changes one argument, A documents it' '
	git init -q src &&
	printf "int add(int a, int b)\n{\n\treturn a + b;\n}\n" >src/add.c &&
	git -C src add add.c &&
	commit_as -C src A -m "add(): the sum of two ints" &&
	printf "int add(int a, int b)\n{\n    return a + b;\n}\n" >src/add.c &&
	git -C src add add.c &&
	commit_as -C src B -m "Re-indent with spaces" &&
	sed "s/int b)/long b)/" src/add.c >tmp && mv tmp src/add.c &&
	mkdir src/sub &&
	printf "def double(x):\n    return 2 * x\n\n\nprint(double(21))\n" >src/sub/x.py &&
	git -C src add add.c sub/x.py &&
	commit_as -C src C -m "add(): take a long" &&
	{ printf "/* add: the sum of a and b */\n" && cat src/add.c; } >tmp && mv tmp src/add.c &&
	git -C src add add.c &&
	commit_as -C src A -m "add(): document it" &&
	"$TOKSTREAM" convert -q src tokens.git
'

test_expect_success 'html writes a page per file and an index per directory' '
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" out 2>err &&
	test_must_be_empty err &&
	test_path_is_file out/index.html &&
	test_path_is_file out/add.c.html &&
	test_path_is_file out/sub/index.html &&
	test_path_is_file out/sub/x.py.html &&
	test_path_is_file out/.tokstream/pages &&
	find out -name "*.html" | sort >actual &&
	test_write_lines out/add.c.html out/index.html out/sub/index.html out/sub/x.py.html >expect &&
	test_cmp expect actual
'

test_expect_success 'a file page shows the source in its layout, each token an element of its commit' '
	grep "<tr id=\"L2\"><td class=\"g\">.*</td><td class=\"ln\"><a href=\"#L2\">2</a></td><td><a class=\"t c[0-9]*\" href=\"[^\"]*\">int</a> <a class=\"t c[0-9]*\" href=\"[^\"]*\">add</a>" out/add.c.html &&
	grep "<tr id=\"L4\"[^>]*><td class=\"g\">.*</td><td class=\"ln\"><a href=\"#L4\">4</a></td><td>    <a class=\"t c[0-9]*\" href=\"[^\"]*\">return</a>" out/add.c.html &&
	grep -o "<a class=\"t c[0-9]*\"" out/add.c.html >spans &&
	"$TOKENIZE" src/add.c >view &&
	test_line_count = $(wc -l <view) spans &&
	grep "<span id=\"by\">" out/add.c.html &&
	grep "<button value=\"commit\">" out/add.c.html &&
	grep "<div id=\"tip\" hidden>" out/add.c.html &&
	grep "<aside id=\"side\"><h2 id=\"legend-title\">Authors</h2><input id=\"legend-filter\" type=\"search\"" out/add.c.html &&
	grep "<tbody id=\"legend-rows\"><tr><td><span class=\"sw\" style=\"background:#[0-9a-f]*\"></span></td><td class=\"label\">A</td><td class=\"num\">16</td><td class=\"num\">94.1%</td></tr>" out/add.c.html &&
	grep "<canvas id=\"map\" hidden" out/add.c.html &&
	c=$(git -C src rev-parse HEAD~1) &&
	grep "{id:\"$c\",a:\"C\",d:\"[0-9-]*\",t:[0-9]*,n:1,s:\"add(): take a long\"}" out/add.c.html &&
	! grep "a:\"B\"" out/add.c.html
'

test_expect_success 'the gutter names each line'"'"'s main author, its commit and +N others' '
	a1=$(git -C src rev-list --reverse HEAD | head -n 1) &&
	a2=$(git -C src rev-parse HEAD) &&
	test $(git -C src log -1 --format=%an $a1) = A &&
	test $(git -C src log -1 --format=%an $a2) = A &&
	short1=$(echo $a1 | cut -c1-7) &&
	short2=$(echo $a2 | cut -c1-7) &&
	echo "A $short2" >expect && gutter out/add.c.html 1 >actual && test_cmp expect actual &&
	echo "A $short1 +1" >expect && gutter out/add.c.html 2 >actual && test_cmp expect actual &&
	echo "A $short1" >expect && gutter out/add.c.html 4 >actual && test_cmp expect actual &&
	grep "<tr id=\"L2\"><td class=\"g\"><span class=\"ga c[0-9]*\">A</span> <a class=\"gc c[0-9]*\" href=\"https://example.org/commit/$a1\">$short1</a> <span class=\"gn\">+1</span></td>" out/add.c.html &&
	grep "<tr id=\"L4\" class=\"same\">" out/add.c.html &&
	echo "C $(git -C src rev-parse --short=7 HEAD~1)" >expect &&
	gutter out/sub/x.py.html 1 >actual && test_cmp expect actual &&
	echo >expect && gutter out/sub/x.py.html 3 >actual && test_cmp expect actual
'

test_expect_success 'every line has its anchor L<n>, and its number links to it' '
	n=$(wc -l <src/add.c) &&
	test $n = 5 &&
	for i in $(seq 1 $n)
	do
		grep "<tr id=\"L$i\"[^>]*><td class=\"g\">.*</td><td class=\"ln\"><a href=\"#L$i\">$i</a></td><td>" out/add.c.html ||
		return 1
	done &&
	grep -o "<tr id=\"L[0-9]*\"" out/add.c.html >anchors &&
	test_line_count = $n anchors
'

test_expect_success '--commit-url: every token is a link to its own commit' '
	sed -n "s/^{id:\"\([0-9a-f]\{40\}\)\".*/\1/p" out/add.c.html >ids &&
	test_line_count = 3 ids &&
	grep -o "<a class=\"t c[0-9]*\" href=\"[^\"]*\">" out/add.c.html |
	sed "s/.*class=\"t c\([0-9]*\)\" href=\"\([^\"]*\)\".*/\1 \2/" >links &&
	"$TOKENIZE" src/add.c >view &&
	test_line_count = $(wc -l <view) links &&
	awk "NR == FNR { id[NR - 1] = \$0; next } \$2 != \"https://example.org/commit/\" id[\$1] { print; bad = 1 } END { exit bad }" ids links &&
	c=$(git -C src log -1 --format=%H --author=C) &&
	grep "<a class=\"t c[0-9]*\" href=\"https://example.org/commit/$c\">long</a>" out/add.c.html
'

test_expect_success 'without --commit-url tokens and gutter ids are spans, no links' '
	"$TOKSTREAM" html -C tokens.git out-nourl &&
	! grep "<a class=\"t" out-nourl/add.c.html &&
	! grep "href=\"https:" out-nourl/add.c.html &&
	grep -o "<span class=\"t c[0-9]*\">" out-nourl/add.c.html >spans &&
	test_line_count = $("$TOKENIZE" src/add.c | wc -l) spans &&
	grep "<tr id=\"L2\"><td class=\"g\"><span class=\"ga c[0-9]*\">A</span> <span class=\"gc c[0-9]*\">[0-9a-f]\{7\}</span> <span class=\"gn\">+1</span></td>" out-nourl/add.c.html
'

test_expect_success 'pages are self-contained: no external script, style, font or URL' '
	for f in out/index.html out/add.c.html out/sub/index.html out/sub/x.py.html
	do
		! grep -i "<script[^>]*src" $f &&
		! grep -i "<link" $f &&
		! grep -i "@import\|url(" $f &&
		{ grep -o "[a-z]*://[^\"<> ]*" $f || :; } >urls &&
		if test $f = out/add.c.html || test $f = out/sub/x.py.html
		then
			# the template (for the script) and the links it gives, to commits
			sed "s|^https://example.org/commit/[0-9a-f]\{40\}\$|a link to a commit|" urls | sort -u >actual &&
			test_write_lines "$URL" "a link to a commit" | sort >expect &&
			test_cmp expect actual || return 1
		else
			test_must_be_empty urls || return 1
		fi
	done
'

test_expect_success 'the function table names add and who owns how much of it' '
	grep "<h2>Functions</h2>" out/add.c.html &&
	grep -o "<tr><td>[^<]*</td><td class=\"num\"><a href=\"#L[0-9]*\">[0-9]*</a></td><td class=\"num\">[0-9]*</td><td>[^<]*</td></tr>" out/add.c.html >fn &&
	echo "<tr><td>add</td><td class=\"num\"><a href=\"#L2\">2</a></td><td class=\"num\">15</td><td>A 93.3%, C 6.7%</td></tr>" >expect &&
	test_cmp expect fn &&
	grep -o "<tr><td>double</td><td class=\"num\"><a href=\"#L1\">1</a></td><td class=\"num\">[0-9]*</td><td>C 100.0%</td></tr>" out/sub/x.py.html
'

test_expect_success 'indexes list files and directories with their tokens, contributors and top contributors' '
	add=$("$TOKENIZE" src/add.c | wc -l) &&
	py=$("$TOKENIZE" src/sub/x.py | wc -l) &&
	test $add -gt 10 && test $py -gt 10 &&
	echo $add >expect && index_tokens out/index.html add.c >actual && test_cmp expect actual &&
	echo $py >expect && index_tokens out/index.html sub/ >actual && test_cmp expect actual &&
	echo $py >expect && index_tokens out/sub/index.html x.py >actual && test_cmp expect actual &&
	grep "<a href=\"add.c.html\">add.c</a></td><td class=\"num\">$add</td><td class=\"num\">2</td><td>A 94.1%, C 5.9%</td>" out/index.html &&
	grep "<a href=\"sub/index.html\">sub/</a></td><td class=\"num\">$py</td><td class=\"num\">1</td><td>C 100.0%</td>" out/index.html &&
	grep "<a href=\"x.py.html\">x.py</a>" out/sub/index.html &&
	grep "<a href=\"../index.html\">top</a>" out/sub/x.py.html &&
	grep " / <a href=\"index.html\">sub</a> / <b>x.py</b>" out/sub/x.py.html
'

test_expect_success 'the top index names the repository, REV and its commit; the others do not' '
	id=$(git -C src rev-parse HEAD | cut -c1-12) &&
	grep "<title>src at HEAD - tokstream</title>" out/index.html &&
	grep "<main><p>The token blame of <b>$(cd src && pwd -P)</b> at <b>HEAD</b> ($id).</p>" out/index.html &&
	grep "<title>sub - tokstream</title>" out/sub/index.html &&
	! grep "The token blame of" out/sub/index.html &&
	"$TOKSTREAM" html -C tokens.git top-ps HEAD~1 -- "*.py" &&
	id=$(git -C src rev-parse HEAD~1 | cut -c1-12) &&
	grep "<title>src at HEAD~1 - tokstream</title>" top-ps/index.html &&
	grep "at <b>HEAD~1</b> ($id), of <code>\*.py</code>.</p>" top-ps/index.html
'

test_expect_success 'indexes show each entry'"'"'s author shares as a stacked bar' '
	index_row out/index.html add.c >row &&
	grep "<td><div class=\"bar\"><span style=\"width:94.118%;background:#[0-9a-f]\{6\}\" title=\"A: 16 tokens, 94.1%\"></span><span style=\"width:5.882%;background:#[0-9a-f]\{6\}\" title=\"C: 1 token, 5.9%\"></span></div></td></tr>" row &&
	index_row out/index.html sub/ >row &&
	grep "<td><div class=\"bar\"><span style=\"width:100.000%;background:#[0-9a-f]\{6\}\" title=\"C: [0-9]* tokens, 100.0%\"></span></div></td></tr>" row &&
	grep "<ul class=\"authors\"><li><span class=\"sw\" style=\"background:#[0-9a-f]\{6\}\"></span> C [0-9.]*%</li><li><span class=\"sw\" style=\"background:#[0-9a-f]\{6\}\"></span> A [0-9.]*%</li></ul>" out/index.html &&
	check_bars out/index.html &&
	check_bars out/sub/index.html
'

test_lazy_prereq TTY 'script -qec true /dev/null'

test_expect_success '--progress: "Building pages" as git shows progress, in place, then ", done."' '
	"$TOKSTREAM" html -C tokens.git --progress prog-out 2>err &&
	test_path_is_file prog-out/sub/x.py.html &&
	cr=$(printf "\r") &&
	grep "$cr" err &&
	tr "\r" "\n" <err >lines &&
	test_write_lines "Building pages:  50% (1/2)" "Building pages: 100% (2/2)" \
		"Building pages: 100% (2/2), done." >expect &&
	test_cmp expect lines &&
	"$TOKSTREAM" html -C tokens.git --progress -j 2 prog-out-j2 2>err &&
	tr "\r" "\n" <err >lines &&
	tail -n 1 lines >last &&
	echo "Building pages: 100% (2/2), done." >expect &&
	test_cmp expect last &&
	! grep -v "^Building pages: [ 0-9]\{3\}% ([0-9]/2)" lines &&
	# nothing to build: nothing to show
	"$TOKSTREAM" html -C tokens.git --progress prog-out 2>err &&
	test_must_be_empty err
'

test_expect_success '--no-progress, and stderr no terminal, show no progress' '
	"$TOKSTREAM" html -C tokens.git --progress --no-progress noprog-out 2>err &&
	test_must_be_empty err &&
	"$TOKSTREAM" html -C tokens.git noprog-out2 2>err &&
	test_must_be_empty err
'

test_expect_success TTY 'progress by default when stderr is a terminal' '
	script -qec "\"$TOKSTREAM\" html -C tokens.git tty-out" /dev/null >tty.log &&
	test_path_is_file tty-out/add.c.html &&
	grep "Building pages: 100% (2/2), done." tty.log &&
	script -qec "\"$TOKSTREAM\" html -C tokens.git --no-progress tty-out2" /dev/null >tty.log &&
	test_path_is_file tty-out2/add.c.html &&
	! grep "Building" tty.log
'

test_expect_success 'a second run with nothing changed rewrites no page' '
	page_stamps out/add.c.html out/sub/x.py.html >before &&
	cp out/add.c.html add.c.html.1 &&
	sleep 1 &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" out &&
	page_stamps out/add.c.html out/sub/x.py.html >after &&
	test_cmp before after &&
	test_cmp add.c.html.1 out/add.c.html
'

test_expect_success 'after a new commit and convert, only the changed file is rebuilt' '
	page_stamps out/add.c.html >add-before &&
	page_stamps out/sub/x.py.html >py-before &&
	sed "s/2 \* x/x + x/" src/sub/x.py >tmp && mv tmp src/sub/x.py &&
	git -C src add sub/x.py &&
	commit_as -C src D -m "double(): add, do not multiply" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	sleep 1 &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" out &&
	page_stamps out/add.c.html >add-after &&
	page_stamps out/sub/x.py.html >py-after &&
	test_cmp add-before add-after &&
	! test_cmp py-before py-after &&
	grep "a:\"D\"" out/sub/x.py.html &&
	py=$("$TOKENIZE" src/sub/x.py | wc -l) &&
	echo $py >expect && index_tokens out/sub/index.html x.py >actual && test_cmp expect actual &&
	grep "<td class=\"num\">2</td><td>C [0-9.]*%, D [0-9.]*%</td>" out/sub/index.html
'

test_expect_success 'a page that was removed, or other options, rebuild the pages' '
	rm out/add.c.html &&
	page_stamps out/sub/x.py.html >py-before &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" out &&
	test_path_is_file out/add.c.html &&
	page_stamps out/sub/x.py.html >py-after &&
	test_cmp py-before py-after &&
	sleep 1 &&
	"$TOKSTREAM" html -C tokens.git --by=commit out &&
	page_stamps out/sub/x.py.html >py-after &&
	! test_cmp py-before py-after &&
	grep "var BY=\"commit\",URLT=null;" out/sub/x.py.html
'

test_expect_success '-j 2 builds the same site, byte for byte, as -j 1' '
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" -j 1 out-j1 &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" -j 2 out-j2 &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" -j3 out-j3 &&
	diff -r out-j1 out-j2 &&
	diff -r out-j1 out-j3 &&
	test_path_is_file out-j2/sub/x.py.html &&
	ls -a out-j2/.tokstream >actual &&
	test_write_lines . .. pages >expect &&
	test_cmp expect actual
'

test_expect_success 'a file or a directory gone from the tree takes its page and its index along' '
	git clone -q src gone-src &&
	mkdir -p gone-src/old/deeper &&
	printf "int old(void);\n" >gone-src/old/deeper/o.c &&
	printf "int kept(void);\n" >gone-src/kept.c &&
	git -C gone-src add . &&
	commit_as -C gone-src A -m "old/ and kept.c" &&
	"$TOKSTREAM" convert -q gone-src gone.git &&
	"$TOKSTREAM" html -C gone.git gone-out &&
	test_path_is_file gone-out/old/deeper/o.c.html &&
	test_path_is_file gone-out/old/index.html &&
	echo mine >gone-out/sub/notes.txt &&
	git -C gone-src rm -q -r old sub/x.py &&
	commit_as -C gone-src A -m "old/ and x.py go" &&
	"$TOKSTREAM" convert -q gone-src gone.git &&
	# a PATHSPEC lists a part of the tree: nothing is taken away
	"$TOKSTREAM" html -C gone.git gone-out HEAD kept.c &&
	test_path_is_file gone-out/old/deeper/o.c.html &&
	"$TOKSTREAM" html -C gone.git gone-out &&
	test_path_is_missing gone-out/old &&
	test_path_is_missing gone-out/sub/x.py.html &&
	test_path_is_missing gone-out/sub/index.html &&
	test_path_is_file gone-out/sub/notes.txt &&
	find gone-out -name "*.html" | sort >actual &&
	test_write_lines gone-out/add.c.html gone-out/index.html gone-out/kept.c.html >expect &&
	test_cmp expect actual &&
	! grep "old/\|x\.py" gone-out/index.html
'

# long_c STAGE: lib/long.c after STAGE commits: 300 lines by Alice, of
# which Bob rewrites the second half (2) and lines 10 and 20 grow, token by
# token, by Bob (2), Carol (3) and Alice again (4).
long_c () {
	awk -v stage=$1 'BEGIN {
		for (i = 1; i <= 300; i++)
			if (i == 10)
				print (stage >= 3 ? "int m = p + q + r + s;" : stage >= 2 ? "int m = p + q + r;" : "int m = p;")
			else if (i == 20)
				print (stage >= 4 ? "int k = p + q + r + s + t + u;" : stage >= 2 ? "int k = p + q + r + s;" : "int k = p;")
			else if (i > 150 && stage >= 2)
				print "double d" i " = " i ".5;"
			else
				print "int v" i " = " i ";"
	}'
}

test_expect_success 'a longer history: a page longer than a window, three authors, a deeper directory' '
	git init -q long &&
	mkdir -p long/lib/deep &&
	long_c 1 >long/lib/long.c && git -C long add . && commit_as -C long Alice -m "long.c: 300 lines" &&
	long_c 2 >long/lib/long.c && git -C long add . && commit_as -C long Bob -m "long.c: doubles" &&
	long_c 3 >long/lib/long.c && printf "int more(void) { return 1; }\n" >long/lib/deep/more.c &&
	git -C long add . && commit_as -C long Carol -m "more.c, and an s" &&
	long_c 4 >long/lib/long.c && git -C long add . && commit_as -C long Alice -m "long.c: t and u" &&
	"$TOKSTREAM" convert -q long long.git &&
	"$TOKSTREAM" html -C long.git --commit-url="$URL" long-out &&
	test_path_is_file long-out/lib/long.c.html &&
	test_path_is_file long-out/lib/deep/more.c.html
'

test_expect_success 'the gutter: the author of most tokens wins, with the most of theirs; +N counts the others' '
	a1=$(git -C long rev-parse --short=7 HEAD~3) &&
	b2=$(git -C long rev-parse --short=7 HEAD~2) &&
	# line 10: Alice 5 tokens, Bob 4, Carol 2
	echo "Alice $a1 +2" >expect && gutter long-out/lib/long.c.html 10 >actual && test_cmp expect actual &&
	# line 20: Alice 5 + 4 in two commits, Bob 6 in one: Alice, with her 5
	echo "Alice $a1 +1" >expect && gutter long-out/lib/long.c.html 20 >actual && test_cmp expect actual &&
	echo "Alice $a1" >expect && gutter long-out/lib/long.c.html 100 >actual && test_cmp expect actual &&
	# line 200: Bob rewrote it, but "=" and ";" are still by Alice
	echo "Bob $b2 +1" >expect && gutter long-out/lib/long.c.html 200 >actual && test_cmp expect actual &&
	grep -o "<tr id=\"L[0-9]*\"" long-out/lib/long.c.html >anchors &&
	test_line_count = 300 anchors
'

test_expect_success 'a subdirectory'"'"'s bar adds up the shares of all its files' '
	index_row long-out/index.html lib/ >row &&
	grep -o "title=\"[^\"]*\"" row >actual &&
	index_row long-out/lib/index.html long.c >rows &&
	index_row long-out/lib/index.html deep/ >>rows &&
	grep -o "title=\"[^\"]*: [0-9]* tokens\?" rows | sed "s/title=\"//; s/ tokens\?$//" |
	awk -F": " "{ n[\$1] += \$2; total += \$2 } END { for (a in n) printf \"%s %d %.1f\\n\", a, n[a], 100 * n[a] / total }" |
	sort -k2,2nr >expect-shares &&
	test_line_count = 3 expect-shares &&
	sed "s/title=\"\(.*\): \([0-9]*\) tokens\?, \([0-9.]*\)%\"/\1 \2 \3/" actual >shares &&
	test_cmp expect-shares shares &&
	check_bars long-out/index.html &&
	check_bars long-out/lib/index.html &&
	check_bars long-out/lib/deep/index.html
'

test_expect_success 'a directory of more authors than colours: the rest are "others", grey' '
	git init -q many &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		printf "int f$i(void);\n" >many/f$i.c &&
		git -C many add f$i.c &&
		commit_as -C many "Author$i" -m "f$i.c" || return 1
	done &&
	printf "int shared(void);\n" >>many/f1.c &&
	git -C many add f1.c && commit_as -C many Author12 -m "f1.c: shared" &&
	"$TOKSTREAM" convert -q many many.git &&
	"$TOKSTREAM" html -C many.git many-out &&
	grep -o "<li>" many-out/index.html >legend &&
	test_line_count = 11 legend &&
	grep "<li><span class=\"sw\" style=\"background:#[0-9a-f]\{6\}\"></span> Author12 15.4%</li>" many-out/index.html &&
	grep "<li><span class=\"sw\" style=\"background:#ccc\"></span> 2 others [0-9.]*%</li>" many-out/index.html &&
	# ties go by name: Author8 and Author9 are the two beyond the ten colours
	index_row many-out/index.html f9.c >row &&
	grep "<div class=\"bar\"><span class=\"others\" style=\"width:100.000%\" title=\"1 other: 6 tokens, 100.0%\"></span></div>" row &&
	check_bars many-out/index.html
'

# index_head INDEX: the "N tokens, M contributors" an index opens with, as "N M".
index_head () {
	sed -n "s|.*<p>\([0-9]*\) tokens, \([0-9]*\) contributors*</p>.*|\1 \2|p" "$1"
}

test_expect_success 'a file of 300 authors: every index sums up all of them, as the report does' '
	git init -q crowd &&
	mkdir crowd/lib &&
	printf "int base;\n" >crowd/lib/all.c &&
	printf "int other;\n" >crowd/top.c &&
	git -C crowd add . && commit_as -C crowd Author0 -m "base" &&
	i=1 &&
	while test $i -le 300
	do
		printf "int v$i;\n" >>crowd/lib/all.c &&
		git -C crowd add lib/all.c &&
		git -C crowd -c user.name=A$i -c user.email=a$i@example.org commit -q \
			--author="Author$i <a$i@example.org>" -m "v$i" || return 1
		i=$((i + 1))
	done &&
	"$TOKSTREAM" convert -q crowd crowd.git &&
	"$TOKSTREAM" html -C crowd.git crowd-out &&
	echo "903 301" >expect &&
	index_head crowd-out/lib/index.html >actual &&
	test_cmp expect actual &&
	index_row crowd-out/lib/index.html all.c >row &&
	grep "<td class=\"num\">903</td><td class=\"num\">301</td>" row &&
	echo "906 301" >expect &&
	index_head crowd-out/index.html >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" report -C crowd.git -j 1 crowd-report &&
	grep "^tokens	906$" crowd-report/summary.tsv &&
	grep "^authors_by_tokens	301$" crowd-report/summary.tsv &&
	"$TOKSTREAM" html -C crowd.git crowd-out &&
	index_head crowd-out/index.html >actual &&
	test_cmp expect actual
'

test_expect_success 'bots are no contributors: the indexes count them apart, as the report does' '
	git init -q botty &&
	printf "int mine;\n" >botty/a.c &&
	git -C botty add a.c && commit_as -C botty Author1 -m "mine" &&
	printf "int deps = 1;\n" >botty/b.c &&
	git -C botty add b.c &&
	git -C botty -c user.name=x -c user.email=x@example.org commit -q \
		--author="dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>" -m deps &&
	"$TOKSTREAM" convert -q botty botty.git &&
	"$TOKSTREAM" html -C botty.git botty-out &&
	grep "<p>8 tokens, 1 contributor and 1 bot</p>" botty-out/index.html &&
	index_row botty-out/index.html b.c >row &&
	grep "<td class=\"num\">5</td><td class=\"num\">0</td><td>dependabot\[bot\] 100.0%</td>" row &&
	"$TOKSTREAM" report -C botty.git -j 1 botty-report &&
	grep "^authors_by_tokens	1$" botty-report/summary.tsv &&
	grep "^bots	1$" botty-report/summary.tsv
'

test_expect_success 'the ten largest authors of a page have ten colours, the rest one grey' '
	grep -o "<span class=\"sw\" style=\"background:[^\"]*\"></span></td><td class=\"label\">[^<]*" \
		crowd-out/lib/all.c.html | sed "s/.*background:\([^\"]*\).*label\">/\1 /" >swatches &&
	test_line_count = 301 swatches &&
	head -n 10 swatches | cut -d" " -f1 | sort -u >top &&
	test_line_count = 10 top &&
	sed 1,10d swatches | cut -d" " -f1 | sort -u >rest &&
	echo "#999" >expect &&
	test_cmp expect rest &&
	! grep -x "#999" top &&
	grep "i<P.length?P\[i\]:OTHERS" crowd-out/lib/all.c.html &&
	grep "<li><span class=\"sw\" style=\"background:#ccc\"></span> 291 others" crowd-out/lib/index.html
'

# Hostile content: everything from the repository is escaped.  Git keeps
# no "<" or ">" in a name (it drops them), so names carry quotes,
# ampersands and backslashes; messages, contents and paths carry markup.
EVIL_FILE='<b>evil</b>.c'
EVIL_MSG='</script><img src=x onerror=alert(2)>'
EVIL_XSS='"</script><script>window.__xss=1</script>'
EVIL_NAME2='Eve "&amp;'"'"' \ Mallory'
EVIL_QUOTE='" onmouseover="window.__xss=1;".c'

test_expect_success 'a hostile repository: markup in names, messages, contents and paths' '
	git init -q evil &&
	mkdir "evil/<b>evil<" &&
	printf "/* <!-- a comment --> */\nchar *s = \"</script><script>alert(3)</script>\";\nint f(void) { return 1; }\n" >"evil/$EVIL_FILE" &&
	git -C evil add . &&
	test_tick &&
	GIT_AUTHOR_NAME="<script>alert(1)</script>" git -C evil commit -q -m "$EVIL_MSG" &&
	printf "char *t = \"<script>window.__xss=1</script>\"; /* </script><script>window.__xss=2</script> */\nint g(void) { return 2; }\n" >>"evil/$EVIL_FILE" &&
	printf "int x; /* %s */\n" "<img src=x onerror=window.__xss=3>" >"evil/$EVIL_QUOTE" &&
	printf "int hash;\n" >"evil/a#1.c" &&
	printf "int query;\n" >"evil/q?.c" &&
	printf "int percent;\n" >"evil/50%.c" &&
	git -C evil add . &&
	test_tick &&
	GIT_AUTHOR_NAME=$EVIL_NAME2 git -C evil commit -q -F - <<-EOF &&
	$EVIL_XSS<!--

	body </textarea><svg onload=alert(4)>
	EOF
	git -C evil log --format=%an >names &&
	test_write_lines "$EVIL_NAME2" "scriptalert(1)/script" >expect &&
	test_cmp expect names &&
	"$TOKSTREAM" convert -q evil evil.git &&
	"$TOKSTREAM" html -C evil.git --commit-url="https://example.org/c/%H?x=\"</script><script>alert(5)</script>" evil-out &&
	test_path_is_file "evil-out/$EVIL_FILE.html" &&
	test_path_is_file "evil-out/$EVIL_QUOTE.html" &&
	test_path_is_file "evil-out/<b>evil</index.html"
'

test_expect_success 'no byte of it reaches a page raw; the escaped forms are there' '
	page="evil-out/$EVIL_FILE.html" &&
	for f in "$page" "evil-out/$EVIL_QUOTE.html" evil-out/index.html "evil-out/<b>evil</index.html"
	do
		! grep "<script>alert" "$f" &&
		! grep "<script>window" "$f" &&
		! grep "<img" "$f" &&
		! grep "<svg" "$f" &&
		! grep "<!--" "$f" &&
		! grep "<b>evil" "$f" &&
		! grep "onmouseover=\"" "$f" &&
		test $(grep -c "<script>" "$f") -le 1 || return 1
	done &&
	grep "&quot;&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;&quot;" "$page" &&
	grep "/\* &lt;!-- a comment --&gt; \*/" "$page" &&
	grep "s:\"\\\\u003c/script\\\\u003e\\\\u003cimg src=x onerror=alert(2)\\\\u003e\"" "$page" &&
	grep "a:\"scriptalert(1)/script\"" "$page" &&
	grep "a:\"Eve \\\\\"\\\\u0026amp;'"'"' \\\\\\\\ Mallory\"" "$page" &&
	grep "s:\"\\\\\"\\\\u003c/script\\\\u003e\\\\u003cscript\\\\u003ewindow.__xss=1\\\\u003c/script\\\\u003e\\\\u003c!--\"" "$page" &&
	grep "URLT=\"https://example.org/c/%H?x=\\\\\"\\\\u003c/script\\\\u003e" "$page" &&
	grep "<title>&lt;b&gt;evil&lt;/b&gt;.c - tokstream</title>" "$page" &&
	grep "Eve &quot;&amp;amp;&#39; \\\\ Mallory" "$page" &&
	grep "Eve &quot;&amp;amp;&#39; \\\\ Mallory" evil-out/index.html &&
	grep "&quot; onmouseover=&quot;window.__xss=1;&quot;.c</a>" evil-out/index.html &&
	grep "&lt;img src=x onerror=window.__xss=3&gt;" "evil-out/$EVIL_QUOTE.html"
'

test_expect_success 'links of the indexes are URLs: a name with #, ? or % links to its page' '
	grep "<a href=\"a%231.c.html\">a#1.c</a>" evil-out/index.html &&
	grep "<a href=\"q%3F.c.html\">q?.c</a>" evil-out/index.html &&
	grep "<a href=\"50%25.c.html\">50%.c</a>" evil-out/index.html &&
	grep "<a href=\"%3Cb%3Eevil%3C/index.html\">&lt;b&gt;evil&lt;/</a>" evil-out/index.html &&
	grep "<a href=\"b%3E.c.html\">b&gt;.c</a>" "evil-out/<b>evil</index.html"
'

test_expect_success 'a symbolic link in OUTDIR is refused, and nothing is written through it' '
	mkdir elsewhere &&
	mkdir out-link &&
	ln -s "$TRASH_DIRECTORY/elsewhere" out-link/sub &&
	test_expect_code 128 "$TOKSTREAM" html -C tokens.git out-link 2>err &&
	grep "^tokstream: fatal: refusing to write through .out-link/sub.: not a directory of our own" err &&
	ls -A elsewhere >listing &&
	test_must_be_empty listing &&
	test -h out-link/sub &&
	rm -rf out-link && mkdir out-link &&
	ln -s "$TRASH_DIRECTORY/elsewhere" out-link/sub &&
	test_must_fail "$TOKSTREAM" html -C tokens.git -j 2 out-link 2>err &&
	grep "refusing to write through .out-link/sub." err &&
	ls -A elsewhere >listing &&
	test_must_be_empty listing
'

test_expect_success 'a symbolic link for the cache directory is refused before anything is written' '
	rm -rf out-link && mkdir out-link &&
	ln -s "$TRASH_DIRECTORY/elsewhere" out-link/.tokstream &&
	test_must_fail "$TOKSTREAM" html -C tokens.git -j 2 out-link 2>err &&
	grep "out-link/.tokstream" err &&
	ls -A elsewhere >listing &&
	test_must_be_empty listing &&
	ls -A out-link >listing &&
	echo .tokstream >expect &&
	test_cmp expect listing
'

test_expect_success 'a symbolic link where a page or a cache file goes is replaced, never followed' '
	echo precious >victim &&
	cp victim victim.orig &&
	rm -rf out-link && mkdir out-link out-link/.tokstream &&
	ln -s ../victim out-link/add.c.html &&
	ln -s ../../victim out-link/.tokstream/pages &&
	ln -s ../../victim out-link/.tokstream/pages.0 &&
	ln -s ../../victim out-link/.tokstream/pages.1 &&
	"$TOKSTREAM" html -C tokens.git -j 2 out-link &&
	test_cmp victim.orig victim &&
	test_path_is_file out-link/add.c.html && ! test -h out-link/add.c.html &&
	test_path_is_file out-link/.tokstream/pages && ! test -h out-link/.tokstream/pages &&
	"$TOKSTREAM" html -C tokens.git -j 1 out-link &&
	ln -s ../../victim out-link/.tokstream/pages.0 &&
	"$TOKSTREAM" html -C tokens.git -j 1 out-link &&
	test_cmp victim.orig victim &&
	ls -A out-link/.tokstream >listing &&
	echo pages >expect &&
	test_cmp expect listing
'

test_tmpfs_prereq
test -z "$tmpfs_reason" ||
	test_skip 'a full disk as OUTDIR: one fatal line naming the file, no temporary file left' "$tmpfs_reason"

test_expect_success TMPFS 'a full disk as OUTDIR: one fatal line naming the file, no temporary file left' '
	test_when_finished "umount full-out 2>/dev/null; true" &&
	"$TOKSTREAM" html -C tokens.git -j 1 whole-out &&
	kb=$(du -sk whole-out | cut -f1) &&
	mkdir full-out &&
	failures=0 &&
	for pct in 1 25 50 75
	do
		mount -t tmpfs -o size=$(($kb * $pct / 100 + 4))k tmpfs full-out &&
		if "$TOKSTREAM" html -C tokens.git -j 1 full-out 2>err
		then
			echo "  ${pct}%: no error, the disk was large enough"
		else
			status=$? &&
			cat err &&
			test $status = 128 &&
			test_line_count = 1 err &&
			grep "^tokstream: fatal: cannot write .full-out/.*: No space left on device\$" err &&
			! grep "\.tmp[0-9]" err &&
			find full-out -name "*.tmp[0-9]*" >leftover &&
			test_must_be_empty leftover &&
			failures=$(($failures + 1))
		fi &&
		umount full-out || return 1
	done &&
	test $failures -ge 2
'

say_if_no_browser

test_expect_success BROWSER 'in Chromium: tip, colours, gutter, links, legend, minimap, anchors, bars; nothing hostile runs' '
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" browser-out &&
	"$TOKSTREAM" html -C evil.git evil-browser-out &&
	mkdir -p "$TEST_DIRECTORY/out" &&
	c=$(git -C src log -1 --format=%H --author=C) &&
	a1=$(git -C src log --reverse --format=%H --author=A | head -n 1) &&
	a2=$(git -C src log -1 --format=%H --author=A) &&
	test $a1 != $a2 &&
	status=0 &&
	{ node "$TEST_DIRECTORY/browser/check-page.js" \
		--page "$TRASH_DIRECTORY/browser-out/add.c.html" \
		--index "$TRASH_DIRECTORY/browser-out/index.html" \
		--index "$TRASH_DIRECTORY/browser-out/sub/index.html" \
		--tip-token long --tip-summary "add(): take a long" --tip-author C --tip-id $c \
		--other-token add \
		--commit-tokens "/* add: the sum of a and b */" --commit-tokens int \
		--legend-author A \
		--legend-tokens "/* add: the sum of a and b */ int add ( int a , b ) { return a + b ; }" \
		--url "https://example.org/commit/$c" --url-template "$URL" \
		--gutter "1=A $(echo $a2 | cut -c1-7)" --gutter "2=A $(echo $a1 | cut -c1-7) +1" \
		--long "$TRASH_DIRECTORY/long-out/lib/long.c.html" \
		--long-gutter "10=Alice $(git -C long rev-parse --short=7 HEAD~3) +2" \
		--long-gutter "200=Bob $(git -C long rev-parse --short=7 HEAD~2) +1" \
		--filter bob --filter-keeps Bob --map-line 250 --anchor-line 120 \
		--bars "$TRASH_DIRECTORY/long-out/index.html" --bars "$TRASH_DIRECTORY/long-out/lib/index.html" \
		--bars "$TRASH_DIRECTORY/browser-out/index.html" --bars "$TRASH_DIRECTORY/many-out/index.html" \
		--crowd "$TRASH_DIRECTORY/crowd-out/lib/all.c.html" \
		--hostile "$TRASH_DIRECTORY/evil-browser-out/$EVIL_FILE.html" \
		--hostile "$TRASH_DIRECTORY/evil-browser-out/$EVIL_QUOTE.html" \
		--hostile-summary "$EVIL_XSS<!--" --hostile-summary "$EVIL_MSG" \
		--hostile-text "\"</script><script>alert(3)</script>\"" \
		--index "$TRASH_DIRECTORY/evil-browser-out/index.html" \
		--index "$TRASH_DIRECTORY/evil-browser-out/<b>evil</index.html" \
		--shots "$TEST_DIRECTORY/out" >browser.log 2>&1 || status=$?; } &&
	cat browser.log &&
	test $status = 0 &&
	! grep "^FAIL" browser.log &&
	grep "^ok - hovering A.s row marks exactly their tokens" browser.log &&
	grep "^ok - by commit: the ten largest have ten colours" browser.log &&
	grep "^# all checks passed" browser.log &&
	test_path_is_file "$TEST_DIRECTORY/out/t0410-add.png" &&
	test_path_is_file "$TEST_DIRECTORY/out/t0410-commit-colours.png" &&
	test_path_is_file "$TEST_DIRECTORY/out/t0410-file.png" &&
	test_path_is_file "$TEST_DIRECTORY/out/t0410-dir.png"
'

test_expect_success 'a merge that brings an older change of a file in rebuilds its page' '
	git -C src checkout -q -b older &&
	sed "s/return a + b;/return b + a;/" src/add.c >tmp && mv tmp src/add.c &&
	git -C src add add.c &&
	GIT_COMMITTER_DATE="2001-01-01 00:00:00 +0000" GIT_AUTHOR_DATE="2001-01-01 00:00:00 +0000" \
		git -C src commit -q --author="E <e@example.org>" -m "add(): b + a" &&
	git -C src checkout -q - &&
	page_stamps out/add.c.html >add-before &&
	test_tick &&
	git -C src merge -q --no-ff --no-edit older &&
	grep "return b + a;" src/add.c &&
	"$TOKSTREAM" convert -q src tokens.git &&
	sleep 1 &&
	"$TOKSTREAM" html -C tokens.git --commit-url="$URL" out &&
	page_stamps out/add.c.html >add-after &&
	! test_cmp add-before add-after &&
	grep "a:\"E\"" out/add.c.html
'

test_done
