#!/bin/sh
test_description='token blame: git blame on the token views, and tokstream blame, exact
where line blame is not'
. ./test-lib.sh

. "$TEST_DIRECTORY"/lib-blame.sh

# git blame on token views attributes tokens, not lines
#
# Alice writes a C function, Bob re-indents it (tabs to spaces, a comment
# re-wrapped, a parameter list split: whitespace only), Carol changes one
# argument, Dave adds one "const".  In the token repository git blame
# credits Alice with every token but Carol's argument and Dave's
# const; Bob owns nothing.  Line-level blame of the original, beside it,
# credits Bob with the lines he re-indented.
test_section views
# blame_authors REPO REV PATH: "AUTHOR<TAB>LINE" for every line, from
# git blame --porcelain (which names a commit's author only once)
blame_authors () {
	git -C "$1" blame --porcelain "$2" -- "$3" >porcelain &&
	awk '
		/^[0-9a-f]+ [0-9]+ [0-9]+/ { sha = $1; next }
		/^author / { author[sha] = substr($0, 8); next }
		/^\t/ { print author[sha] "\t" substr($0, 2) }
	' porcelain
}

test_expect_success 'setup: four authors, one function' '
	git init -q src &&
	(
		cd src &&
		printf "%s\n" \
			"/* Scale a value by a factor, rounding toward zero as C does. */" \
			"int scale(int value, int factor)" \
			"{" \
			"	int result = multiply(value, factor, 10);" \
			"	if (result < 0)" \
			"		result = 0;" \
			"	return result;" \
			"}" >scale.c &&
		commit_as -a --mail=alice@example.com Alice -m "Alice writes scale()" &&

		printf "%s\n" \
			"/* Scale a value by a factor,"\
			"   rounding toward zero as C does. */" \
			"int scale(int value," \
			"          int factor)" \
			"{" \
			"    int result = multiply(value, factor, 10);" \
			"    if (result < 0)" \
			"        result = 0;" \
			"    return result;" \
			"}" >scale.c &&
		commit_as -a --mail=bob@example.com Bob -m "Bob re-indents scale()" &&

		sed "s/factor, 10)/factor, 100)/" scale.c >tmp &&
		mv tmp scale.c &&
		commit_as -a --mail=carol@example.com Carol -m "Carol changes one argument" &&

		sed "s/^int scale(int value,/int scale(const int value,/" scale.c >tmp &&
		mv tmp scale.c &&
		commit_as -a --mail=dave@example.com Dave -m "Dave adds const"
	) &&
	# Bob changes whitespace only, on most lines
	git -C src show HEAD~3:scale.c | tr -d " \t\n" >alice.squeezed &&
	git -C src show HEAD~2:scale.c | tr -d " \t\n" >bob.squeezed &&
	test_cmp alice.squeezed bob.squeezed &&
	git -C src diff --numstat HEAD~3 HEAD~2 >bob.stat &&
	printf "8\t6\tscale.c\n" >expect &&
	test_cmp expect bob.stat &&
	git -C src diff --stat HEAD~2 HEAD~1 >carol.stat &&
	grep "1 insertion(+), 1 deletion(-)" carol.stat
'

test_expect_success 'convert to tokens' '
	git init -q --bare tok &&
	git -C src fast-export --all --signed-tags=strip --reencode=no >export &&
	"$TOKSTREAM" <export >stream &&
	git -C tok fast-import --quiet <stream &&
	git -C tok log --format=%an main >authors &&
	printf "Dave\nCarol\nBob\nAlice\n" >expect &&
	test_cmp expect authors &&
	git -C tok cat-file blob main~2:scale.c >view.bob &&
	git -C tok cat-file blob main~3:scale.c >view.alice &&
	test_cmp view.alice view.bob &&
	"$TOKENIZE" src/scale.c >expect &&
	git -C tok cat-file blob main:scale.c >actual &&
	test_cmp expect actual
'

test_expect_success 'token blame after Carol: all Alice'"'"'s but the changed argument' '
	blame_authors tok main~1 scale.c >actual &&
	git -C tok cat-file blob main~1:scale.c >view &&
	test $(wc -l <view) -gt 25 &&
	test $(grep -c "^100$" view) = 1 &&
	awk "{ print (\$0 == \"100\" ? \"Carol\" : \"Alice\") \"\\t\" \$0 }" view >expect &&
	test_cmp expect actual &&
	grep "^Carol	100$" actual &&
	! grep "^Bob	" actual &&
	test $(grep -c "^Carol	" actual) = 1
'

test_expect_success 'line blame of the original, beside it, credits Bob with the re-indented lines' '
	blame_authors src main~1 scale.c >lines &&
	cat lines &&
	grep "^Bob	/\* Scale a value by a factor,$" lines &&
	grep "^Bob	          int factor)$" lines &&
	grep "^Bob	    return result;$" lines &&
	grep "^Carol	    int result = multiply(value, factor, 100);$" lines &&
	test $(grep -c "^Bob	" lines) -ge 7 &&
	# the token view of the same revision: Bob has none of it
	blame_authors tok main~1 scale.c >tokens &&
	! grep "^Bob	" tokens
'

test_expect_success 'a one-token change is its author'"'"'s and nothing else' '
	blame_authors tok main scale.c >actual &&
	git -C tok cat-file blob main:scale.c >view &&
	test $(grep -c "^const$" view) = 1 &&
	awk "{ a = \"Alice\"; if (\$0 == \"100\") a = \"Carol\"; if (\$0 == \"const\") a = \"Dave\"; print a \"\\t\" \$0 }" view >expect &&
	test_cmp expect actual &&
	grep "^Dave	const$" actual &&
	test $(grep -c "^Dave	" actual) = 1 &&
	# the neighbours of const stay Alice'"'"'s
	grep -A1 "^Dave	const$" actual | tail -n 1 >next &&
	printf "Alice\tint\n" >expect &&
	test_cmp expect next &&
	grep -B1 "^Dave	const$" actual | head -n 1 >prev &&
	printf "Alice\t(\n" >expect &&
	test_cmp expect prev
'

test_expect_success 'the comment is one token, Alice'"'"'s, though Bob re-wrapped it' '
	grep "^Alice	/\* Scale a value by a factor, rounding toward zero as C does\. \*/$" actual &&
	git -C tok show main~2 --stat --format= -- scale.c >bob.stat &&
	test_must_be_empty bob.stat
'

# tokstream blame: exact token attribution where line blame is not
test_section blame
test_expect_success 'a history whose every token has a known author' '
	git init -q src &&
	printf "/* Compute the sum of two numbers,\n   returning their total. */\nint add(int a, int b)\n{\n\tint sum = a + b;\n\treturn sum;\n}\n" >src/add.c &&
	commit_as -C src -a Alice -m "add()" &&
	printf "/* Compute the sum of two numbers, returning their total. */\nint add(int a, int b)\n{\n    int sum = a + b;\n    return sum;\n}\n" >src/add.c &&
	commit_as -C src -a Bob -m "Re-indent with spaces, re-wrap the comment" &&
	sed "s/int b)/long b)/" src/add.c >tmp && mv tmp src/add.c &&
	commit_as -C src -a Carol -m "add(): take a long" &&
	sed "s/    int sum/    const int sum/" src/add.c >tmp && mv tmp src/add.c &&
	commit_as -C src -a Dave -m "add(): sum is const" &&
	"$TOKSTREAM" convert -q src tokens.git
'

test_expect_success 'token blame credits each token to the one who wrote it' '
	"$TOKSTREAM" blame -C tokens.git --porcelain add.c >porcelain &&
	git -C src show HEAD:add.c >add.c &&
	token_authors add.c <porcelain >actual &&
	cat >expect-tokens <<-\EXPECT &&
	/* Compute the sum of two numbers, returning their total. */ Alice
	int Alice
	add Alice
	( Alice
	int Alice
	a Alice
	, Alice
	long Carol
	b Alice
	) Alice
	{ Alice
	const Dave
	int Alice
	sum Alice
	= Alice
	a Alice
	+ Alice
	b Alice
	; Alice
	return Alice
	sum Alice
	; Alice
	} Alice
	EXPECT
	test_cmp expect-tokens actual
'

test_expect_success 'porcelain gives LINE COL LENGTH ID, and the details once per commit' '
	grep -c "^author " porcelain >count &&
	echo 3 >expect && test_cmp expect count &&
	head -n 1 porcelain >first &&
	alice=$(git -C src rev-list --author=Alice HEAD) &&
	echo "1 1 60 $alice" >expect && test_cmp expect first &&
	grep "^summary add(): take a long$" porcelain &&
	grep "^filename add.c$" porcelain
'

test_expect_success 'line blame (git blame -w -M) is wrong for tokens that token blame gets right' '
	git -C src blame -w -M --line-porcelain HEAD -- add.c >lines &&
	awk "/^author /{a=substr(\$0,8)} /^\t/{print a}" lines >line-authors &&
	# the tokens of each line, with the author git blame gives the line
	"$TOKENIZE" --positions add.c | cut -d: -f1 >token-lines &&
	awk "NR==FNR{who[NR]=\$0; next} {print who[\$1]}" line-authors token-lines >by-lines &&
	# the truth is the expected list of the test above
	awk "{print \$NF}" expect-tokens >truth &&
	awk "{print \$NF}" actual >by-tokens &&
	paste -d" " truth by-tokens by-lines >both &&
	right_tokens=$(awk "\$1==\$2{n++} END{print n+0}" both) &&
	right_lines=$(awk "\$1==\$3{n++} END{print n+0}" both) &&
	total=$(wc -l <both) &&
	echo "# token blame right: $right_tokens of $total; line blame (-w -M) right: $right_lines of $total" &&
	test "$right_tokens" -eq "$total" &&
	test "$right_lines" -lt "$total" &&
	# the comment re-wrapped by Bob is his by lines, Alice'\''s by tokens
	sed -n 1p line-authors >who && echo Bob >expect && test_cmp expect who
'

test_expect_success 'the default output shows the file with a gutter and a legend' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never add.c >out &&
	grep "int add(int a, long b)" out &&
	carol=$(git -C src rev-list -1 --author=Carol HEAD | cut -c1-8) &&
	alice=$(git -C src rev-list -1 --author=Alice HEAD | cut -c1-8) &&
	grep "^$alice Alice *+1 *2  int add(int a, long b)$" out &&
	grep "$carol.* 1 token " out &&
	! grep "$(printf "\033")" out
'

test_expect_success '--color=always colours tokens; --line shows git blame beside' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=always --line add.c >out &&
	grep "$(printf "\033")\\[38;5;" out &&
	carol=$(git -C src rev-list -1 --author=Carol HEAD | cut -c1-8) &&
	grep "^$carol " out
'

test_expect_success '--by=author groups the legend by author' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --by=author add.c >out &&
	grep "^Alice .* 21 tokens" out
'

# The gutter's owner: line 1 is Alice's 5 tokens in one commit and
# Bob's 8 in two of 4 (Bob is the main author, though Alice's commit is
# the largest); line 2 is a tie of 2 tokens each, Alice's then Bob's
# (the newer wins).
test_expect_success 'the gutter names the main author and the newer of a tie, as html does' '
	git init -q own &&
	echo "int v = x;" >own/own.c && echo "a;" >>own/own.c &&
	commit_as -C own -a Alice -m one &&
	printf "int v = x + y1 + y2;\na + b;\n" >own/own.c &&
	commit_as -C own -a Bob -m two &&
	printf "int v = x + y1 + y2 + z1 + z2;\na + b;\n" >own/own.c &&
	commit_as -C own -a Bob -m three &&
	"$TOKSTREAM" convert -q own own.git &&
	two=$(git -C own rev-parse HEAD~1 | cut -c1-8) &&
	three=$(git -C own rev-parse HEAD | cut -c1-8) &&
	cat >expect <<-EOF &&
	$three Bob          +1      1  int v = x + y1 + y2 + z1 + z2;
	$two Bob          +1      2  a + b;
	EOF
	for by in commit author
	do
		"$TOKSTREAM" blame -C own.git --no-pager --color=never --by=$by own.c >out &&
		sed -n "/^\$/q;p" out >actual &&
		test_cmp expect actual || return 1
	done &&
	"$TOKSTREAM" html -C own.git site &&
	sed -n "s/.*<tr id=\"L\([0-9]*\)\"[^>]*><td class=\"g\"><span class=\"ga c[0-9]*\">\([^<]*\)<\/span> <span class=\"gc c[0-9]*\">\([0-9a-f]*\)<.*/\1 \2 \3/p" \
		site/own.c.html >html &&
	cat >expect <<-EOF &&
	1 Bob $(echo $three | cut -c1-7)
	2 Bob $(echo $two | cut -c1-7)
	EOF
	test_cmp expect html
'

test_expect_success 'the legend says "1 token", its share in line with the others' '
	for by in commit author
	do
		"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --by=$by add.c >out &&
		sed "1,/^\$/d" out >legend &&
		grep "^[^ ].* 1 token    4\.3%" legend &&
		! grep "[^0-9]1 tokens" legend &&
		# the shares end in the same column
		awk "{ print index(\$0, \"%\") }" legend | sort -u >columns &&
		test_line_count = 1 columns || return 1
	done
'

test_expect_success 'errors: unknown revision, file without a view, not a token repository' '
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git add.c nosuchrev 2>err &&
	grep "tokstream: fatal: .nosuchrev. is not a revision" err &&
	echo data >src/notes.xyz && git -C src add notes.xyz && git -C src commit -qm notes &&
	"$TOKSTREAM" convert -q src tokens.git &&
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git notes.xyz 2>err &&
	grep "no lexer claims it" err &&
	test_expect_code 128 "$TOKSTREAM" blame -C src add.c 2>err &&
	grep "fatal" err &&
	test_expect_code 129 "$TOKSTREAM" blame -C tokens.git 2>err
'

test_expect_success 'a directory as PATH is called a directory, a missing PATH missing at REV' '
	mkdir -p src/dir &&
	echo "int in_dir;" >src/dir/f.c &&
	git -C src add dir/f.c &&
	git -C src commit -qm dir &&
	"$TOKSTREAM" convert -q src tokens.git &&
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git dir 2>err &&
	echo "tokstream: fatal: '"'"'dir'"'"' is a directory at HEAD: blame takes a file (html and report take directories)" >expect &&
	test_cmp expect err &&
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git dir/f.c HEAD~1 2>err &&
	echo "tokstream: fatal: '"'"'dir/f.c'"'"' does not exist at HEAD~1" >expect &&
	test_cmp expect err
'

test_expect_success 'a second revision is refused, whatever the first one is' '
	for first in HEAD HEAD~1
	do
		test_expect_code 129 "$TOKSTREAM" blame -C tokens.git add.c $first HEAD~1 2>err &&
		grep "^tokstream: error: too many arguments" err || return 1
	done
'

test_expect_success 'identities go through the source'\''s .mailmap, kept unchanged in the token tree' '
	printf "Carol Lewis <carol@lewis.example> Carol <Carol@example.org>\n" >src/.mailmap &&
	git -C src add .mailmap && git -C src commit -qm mailmap &&
	"$TOKSTREAM" convert -q src tokens.git &&
	git -C tokens.git show HEAD:.mailmap >mailmap &&
	test_cmp src/.mailmap mailmap &&
	"$TOKSTREAM" blame -C tokens.git --porcelain add.c >porcelain &&
	grep "^author Carol Lewis$" porcelain &&
	grep "^author-mail <carol@lewis.example>$" porcelain &&
	! grep "^author Carol$" porcelain
'

test_expect_success '-C after PATH still means --moves, with a deprecation warning' '
	"$TOKSTREAM" blame -C tokens.git --porcelain add.c >expect &&
	"$TOKSTREAM" blame -C tokens.git --porcelain add.c -C >actual 2>err &&
	test_cmp expect actual &&
	grep "^tokstream: warning: -C after PATH means --moves" err &&
	"$TOKSTREAM" blame -C tokens.git --porcelain --moves add.c >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

esc=$(printf "\033")

# body <OUT: the file's lines of blame's terminal output, the legend left out
body () {
	sed -n "/^\$/q;p"
}

# uncoloured <OUT: the output without its colours
uncoloured () {
	sed "s/$esc\[[0-9;]*m//g"
}

test_expect_success 'a history with tokens that hold an empty line' '
	printf "def twice(x):\n    \"\"\"Double x.\n\n    Returns twice x.\n    \"\"\"\n    return x * 2\n" >src/twice.py &&
	printf "/* Half of x.\n\n   Rounds toward zero. */\nint half(int x)\n{\n\treturn x / 2;\n}\n" >src/half.c &&
	commit_as -C src -a Erin -m "twice() and half()" &&
	printf "def twice(x):\n    \"\"\"Double x.\n\n    Returns twice x.\n    \"\"\"\n    y = x * 2\n    return y\n" >src/twice.py &&
	sed "s|x / 2|x >> 1|" src/half.c >tmp && mv tmp src/half.c &&
	commit_as -C src -a Frank -m "twice(): name the result; half(): shift" &&
	"$TOKSTREAM" convert -q src tokens.git
'

test_expect_success 'after a token that holds an empty line, every line is shown once and coloured' '
	for f in twice.py half.c
	do
		"$TOKSTREAM" blame -C tokens.git --no-pager --color=always $f >out &&
		body <out >lines &&
		test_line_count = $(wc -l <src/$f) lines &&
		# past the gutter, nothing but blanks is left out of a colour
		cut -c34- lines |
		sed -e "s/$esc\[38;5;[0-9]*m[^$esc]*$esc\[m//g" -e "/^[[:space:]]*\$/d" >uncovered &&
		test_must_be_empty uncovered || return 1
	done
'

test_expect_success 'after a token that holds an empty line, each token has its commit'\''s colour' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=always twice.py >out &&
	erin=$(sed -n "s/^$esc\[38;5;\([0-9]*\)m#####.* Erin .*/\1/p" out) &&
	frank=$(sed -n "s/^$esc\[38;5;\([0-9]*\)m#####.* Frank .*/\1/p" out) &&
	test -n "$erin" && test -n "$frank" && test "$erin" != "$frank" &&
	body <out >lines &&
	sed -n 4p lines >line4 &&
	grep -F "$esc[38;5;${erin}m    Returns twice x.$esc[m" line4 &&
	sed -n 6p lines >line6 &&
	grep -F "$esc[38;5;${frank}my$esc[m $esc[38;5;${frank}m=$esc[m $esc[38;5;${erin}mx$esc[m" line6 &&
	sed -n 7p lines >line7 &&
	grep -F "$esc[38;5;${frank}mreturn$esc[m $esc[38;5;${frank}my$esc[m" line7
'

test_expect_success 'after a token that holds an empty line, the gutter names each line'\''s own commits' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=always twice.py >out &&
	erin=$(git -C src rev-list -1 --author=Erin HEAD | cut -c1-8) &&
	frank=$(git -C src rev-list -1 --author=Frank HEAD | cut -c1-8) &&
	body <out | uncoloured >lines &&
	# the empty line inside the docstring is the docstring'\''s
	grep "^$erin Erin  *3  \$" lines &&
	grep "^$erin Erin  *4      Returns twice x.\$" lines &&
	grep "^$erin Erin  *+1  *6      y = x \* 2\$" lines &&
	grep "^$frank Frank  *7      return y\$" lines &&
	# and html'"'"'s gutter the same
	"$TOKSTREAM" html -C tokens.git site-twice HEAD twice.py &&
	grep "<tr id=\"L3\"[^>]*><td class=\"g\"><span class=\"ga c[0-9]*\">Erin</span> <span class=\"gc c[0-9]*\">$(echo $erin | cut -c1-7)<" \
		site-twice/twice.py.html
'

test_expect_success 'a history whose authors'\'' names are not ASCII' '
	anders="Anders Hovmöller Jönsson" &&
	hanako="Ms 山田花子さん" &&
	zoe=$(printf "Zoe\314\210 Faure") &&
	echo "int a = 1;" >src/names.c &&
	commit_as -C src -a --mail=someone@example.org "$anders" -m "a" &&
	echo "int b = 2;" >>src/names.c &&
	commit_as -C src -a --mail=someone@example.org "$hanako" -m "b" &&
	echo "int c = 3;" >>src/names.c &&
	commit_as -C src -a --mail=someone@example.org "$zoe" -m "c" &&
	"$TOKSTREAM" convert -q src tokens.git
'

test_expect_success 'the gutter cuts and pads names by columns, not bytes' '
	a=$(git -C src rev-parse HEAD~2 | cut -c1-8) &&
	h=$(git -C src rev-parse HEAD~1 | cut -c1-8) &&
	z=$(git -C src rev-parse HEAD | cut -c1-8) &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never names.c >out &&
	body <out >actual &&
	# twelve columns: ö whole, wide characters two columns each, a wide
	# one that would reach the thirteenth left out, combining marks none
	cat >expect <<-EOF &&
	$a Anders Hovmö         1  int a = 1;
	$h Ms 山田花子          2  int b = 2;
	$z $zoe            3  int c = 3;
	EOF
	test_cmp expect actual
'

test_expect_success 'the legend cuts and pads names by columns, not bytes' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never names.c >out &&
	grep "^[0-9a-f]\{10\} [0-9-]* Anders Hovmöller Jön      5 tokens" out &&
	grep "^[0-9a-f]\{10\} [0-9-]* Ms 山田花子さん           5 tokens" out &&
	grep "^[0-9a-f]\{10\} [0-9-]* $zoe                 5 tokens" out &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --by=author names.c >out &&
	grep "^Anders Hovmöller Jönsson            5 tokens" out &&
	grep "^Ms 山田花子さん                     5 tokens" out &&
	grep "^$zoe                           5 tokens" out
'

test_expect_success 'emoji take two columns, marks of other scripts none; a long name widens the author legend' '
	hrvoje="Hrvoje Šimić" &&
	long="Hrvoje Šimić-Aleksandrović Petrović" &&
	emma="Emma 🦄" &&
	dev=$(printf "Dev \340\244\246\340\245\207\340\244\265") &&
	echo "int d = 4;" >src/wide.c &&
	commit_as -C src -a --mail=someone@example.org "$hrvoje" -m "d" &&
	echo "int e = 5;" >>src/wide.c &&
	commit_as -C src -a --mail=someone@example.org "$long" -m "e" &&
	echo "int f = 6;" >>src/wide.c &&
	commit_as -C src -a --mail=someone@example.org "$emma" -m "f" &&
	echo "int g = 7;" >>src/wide.c &&
	commit_as -C src -a --mail=someone@example.org "$dev" -m "g" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never wide.c >out &&
	body <out | cut -c10- >actual &&
	# Emma, a space and a wide emoji: 7 columns; "Dev", a space, two
	# Devanagari letters and a vowel sign of none: 6
	cat >expect <<-EOF &&
	Hrvoje Šimić         1  int d = 4;
	Hrvoje Šimić         2  int e = 5;
	Emma 🦄              3  int f = 6;
	$dev               4  int g = 7;
	EOF
	test_cmp expect actual &&
	grep "^[0-9a-f]\{10\} [0-9-]* Hrvoje Šimić-Aleksan      5 tokens" out &&
	grep "^[0-9a-f]\{10\} [0-9-]* Emma 🦄                   5 tokens" out &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --by=author wide.c >out &&
	sed "1,/^\$/d" out >actual &&
	# the names 35 columns wide, as the longest, then " %6d"
	cat >expect <<-EOF &&
	$dev                                   5 tokens  25.0%
	Emma 🦄                                  5 tokens  25.0%
	Hrvoje Šimić                             5 tokens  25.0%
	Hrvoje Šimić-Aleksandrović Petrović      5 tokens  25.0%
	EOF
	test_cmp expect actual
'

test_expect_success 'a name that is not UTF-8 is shown with U+FFFD, not as broken UTF-8' '
	git init -q broken &&
	echo "int a = 1;" >broken/x.c &&
	git -C broken add x.c &&
	tree=$(git -C broken write-tree) &&
	# git commit would take the name for Latin-1 and convert it
	printf "tree %s\nauthor Anders Hovm\303 <anders@example.org> 1112911993 +0000\ncommitter Anders Hovm\303 <anders@example.org> 1112911993 +0000\n\nx.c\n" $tree >commit &&
	c=$(git -C broken hash-object -t commit -w --stdin <commit) &&
	git -C broken update-ref HEAD $c &&
	"$TOKSTREAM" convert -q broken broken.git &&
	"$TOKSTREAM" blame -C broken.git --no-pager --color=never x.c >out &&
	c=$(echo $c | cut -c1-8) &&
	replacement=$(printf "\357\277\275") &&
	grep "^$c Anders Hovm$replacement         1  int a = 1;\$" out &&
	grep "^$c[0-9a-f]* [0-9-]* Anders Hovm$replacement   " out &&
	! grep "$(printf "\303")" out
'

test_expect_success '--by=author lists the authors by their tokens, ties by name' '
	echo "long g = 1 + 2;" >src/sorted.c &&
	commit_as -C src -a Gina -m "g" &&
	echo "int h = 1;" >>src/sorted.c &&
	commit_as -C src -a Hal -m "h" &&
	echo "int i = 2;" >>src/sorted.c &&
	commit_as -C src -a Hal -m "i" &&
	echo "long j = 1 + 2;" >>src/sorted.c &&
	commit_as -C src -a Ivy -m "j" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=always --by=author sorted.c >out &&
	sed "1,/^\$/d" out | uncoloured | awk "{print \$2, \$3}" >actual &&
	# Hal'\''s commits are the smallest, Hal the largest author
	test_write_lines "Hal 10" "Gina 7" "Ivy 7" >expect &&
	test_cmp expect actual &&
	# the colours still follow the authors
	hal=$(sed -n "s/^$esc\[38;5;\([0-9]*\)m#####$esc\[m Hal .*/\1/p" out) &&
	test -n "$hal" &&
	body <out | sed -n 2p >line2 &&
	grep -F "$esc[38;5;${hal}mint$esc[m" line2
'

test_expect_success 'a history of two functions by two authors, for -L and --date' '
	rm -rf src tokens.git &&
	git init -q src &&
	printf "int first(int a)\n{\n\treturn a;\n}\n\nstatic int\nsecond(int b)\n{\n\treturn b * 2;\n}\n" >src/two.c &&
	commit_as -C src -a Alice -m "two functions" &&
	sed "s/return b \* 2;/return b * 3;/" src/two.c >tmp && mv tmp src/two.c &&
	commit_as -C src -a Bob -m "second: times three" &&
	"$TOKSTREAM" convert -q src tokens.git
'

# records <PORCELAIN: the token records only, not the commit details
records () {
	awk "NF == 4 && \$1 ~ /^[0-9]+\$/"
}

test_expect_success '-L START,END shows those lines, and counts their tokens only' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never -L 8,9 two.c >out &&
	body <out >lines &&
	test_line_count = 2 lines &&
	grep "^[0-9a-f]\{8\} Alice  *  8  {$" lines &&
	grep "^[0-9a-f]\{8\} Alice  *+1  *9  	return b \* 3;$" lines &&
	sed "1,/^\$/d" out >legend &&
	test_line_count = 2 legend &&
	grep " Bob  *1 token   16.7%  second: times three$" legend &&
	grep " Alice  *5 tokens  83.3%  two functions$" legend
'

test_expect_success '-L in --porcelain and --json: the records of those lines only' '
	"$TOKSTREAM" blame -C tokens.git --porcelain two.c | records >all &&
	awk "\$1 >= 8 && \$1 <= 9" all >expect &&
	"$TOKSTREAM" blame -C tokens.git --porcelain -L 8,9 two.c | records >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" blame -C tokens.git --json -L 8,9 two.c >json &&
	grep -c "\"line\": " json >count &&
	wc -l <expect | tr -d " " >expect-count &&
	test_cmp expect-count count
'

test_expect_success '-L START,+N, START,-N, START and ,END as git blame takes them' '
	for spec in "8,+2 8,9" "9,-2 8,9" "9,8 8,9" "9 9,10" ",2 1,2" "10,99 10,10"
	do
		set -- $spec &&
		"$TOKSTREAM" blame -C tokens.git --porcelain -L $1 two.c | records >actual &&
		"$TOKSTREAM" blame -C tokens.git --porcelain -L $2 two.c | records >expect &&
		test_file_not_empty expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '-L :FUNCNAME is the function, from its type to its closing brace; a regex too' '
	"$TOKSTREAM" blame -C tokens.git --porcelain -L 6,10 two.c | records >expect &&
	"$TOKSTREAM" blame -C tokens.git --porcelain -L :second two.c | records >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" blame -C tokens.git --porcelain -L ":^sec" two.c | records >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never -L :first two.c >out &&
	body <out | sed "s/^.* \([0-9]\)  .*/\1/" >numbers &&
	test_write_lines 1 2 3 4 >expect &&
	test_cmp expect numbers
'

test_expect_success 'several -L: the lines of each, in the order of the file' '
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never -L :second -L 1,1 two.c >out &&
	body <out | sed "s/^.* \([0-9]*\)  .*/\1/" >numbers &&
	test_write_lines 1 6 7 8 9 10 >expect &&
	test_cmp expect numbers
'

test_expect_success '-L past the end, or of no such function, is an error that says so' '
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git -L 11 two.c 2>err &&
	echo "tokstream: fatal: -L 11: '"'"'two.c'"'"' has only 10 lines" >expect &&
	test_cmp expect err &&
	test_expect_code 128 "$TOKSTREAM" blame -C tokens.git -L :third two.c 2>err &&
	echo "tokstream: fatal: -L :third: no function of that name in '"'"'two.c'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 129 "$TOKSTREAM" blame -C tokens.git -L 3,x two.c 2>err &&
	grep "^tokstream: error: -L takes START,END, .*, not .3,x.$" err
'

test_expect_success '--date=FORMAT puts the date of each line'"'"'s commit in the gutter, as git log writes it' '
	alice=$(git -C src rev-list -1 --author=Alice HEAD) &&
	for format in short unix iso relative "format:%Y/%m/%d" default
	do
		"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --date="$format" -L 9,9 two.c >out &&
		date=$(git -C src log -1 --date="$format" --format=%ad $alice) &&
		body <out >line &&
		grep -F "Alice        $date +1 " line || return 1
	done &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --color=never --date=unix two.c >out &&
	date=$(git -C src log -1 --date=unix --format=%ad $alice) &&
	grep -F "Alice        $date " out >first &&
	grep "^[0-9a-f]\{8\} Alice  *$date  *1  int first(int a)$" first
'

test_expect_success '--date takes Git'"'"'s formats only' '
	test_expect_code 129 "$TOKSTREAM" blame -C tokens.git --date=yesterday two.c 2>err &&
	grep "^tokstream: error: --date takes relative, local, iso, .*, not .yesterday.$" err &&
	# every format the README names, in the message
	for f in relative local iso iso-strict rfc short raw human unix default format:STRFTIME
	do
		grep "[ ,]$f[ ,]" err || return 1
	done &&
	"$TOKSTREAM" blame -C tokens.git --no-pager --date=iso-local --date=short-local two.c >/dev/null
'

test_done
