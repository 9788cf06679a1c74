#!/bin/sh

test_description='git blame on token views attributes tokens, not lines

Alice writes a C function, Bob re-indents it (tabs to spaces, a comment
re-wrapped, a parameter list split: whitespace only), Carol changes one
argument, Dave adds one "const".  In the token repository git blame
credits Alice with every token but Carol'"'"'s argument and Dave'"'"'s
const; Bob owns nothing.  Line-level blame of the original, beside it,
credits Bob with the lines he re-indented.'

. ./test-lib.sh

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

test_done
