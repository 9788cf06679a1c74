#!/bin/sh

test_description='the tokenize command

Options, reading stdin and files, choosing the language from the path,
--lang overrides, binary files and "#!" lines.'

. ./test-lib.sh

test_expect_success 'setup' '
	printf "int a = b+1; /*  two   spaces */\n" >a.c &&
	test_write_lines int a = b + 1 ";" "/* two spaces */" >a.expect &&
	printf "x->y\n" >b.c &&
	test_write_lines x "->" y >b.expect
'

test_expect_success 'reading stdin needs -l (usage error 129 and a message)' '
	test_expect_code 129 "$TOKENIZE" <a.c >out 2>err &&
	test_must_be_empty out &&
	grep "reading stdin needs -l LANG" err &&
	grep "^usage: tokenize" err
'

test_expect_success '-l c, -lc and --language=c read stdin' '
	"$TOKENIZE" -l c <a.c >actual &&
	test_cmp a.expect actual &&
	"$TOKENIZE" -lc <a.c >actual &&
	test_cmp a.expect actual &&
	"$TOKENIZE" --language=c <a.c >actual &&
	test_cmp a.expect actual &&
	"$TOKENIZE" --language c - <a.c >actual &&
	test_cmp a.expect actual
'

test_expect_success 'an unknown language is a usage error' '
	test_expect_code 129 "$TOKENIZE" -l no-such-language <a.c 2>err &&
	grep "unknown language .no-such-language." err &&
	test_expect_code 129 "$TOKENIZE" --language=no-such-language a.c 2>err &&
	test_expect_code 129 "$TOKENIZE" --lang=no-such-language:*.c a.c 2>err &&
	grep "unknown language" err &&
	test_expect_code 129 "$TOKENIZE" -l none <a.c 2>err &&
	test_expect_code 129 "$TOKENIZE" -l 2>err &&
	grep "needs a language" err
'

test_expect_success 'unknown options and malformed --lang are usage errors; -h is not' '
	test_expect_code 129 "$TOKENIZE" --no-such-option a.c 2>err &&
	grep "unknown option" err &&
	test_expect_code 129 "$TOKENIZE" --lang=c a.c 2>err &&
	grep "expected LANG:GLOB" err &&
	test_expect_code 129 "$TOKENIZE" --lang 2>err &&
	"$TOKENIZE" -h >out &&
	grep "^usage: tokenize" out
'

test_expect_success '--list lists c and c++, one language a line' '
	"$TOKENIZE" --list >list &&
	cut -f1 list >names &&
	grep -x c names &&
	grep -x "c++" names &&
	test "$(sort names | uniq -d)" = "" &&
	! grep -v "	" list
'

test_expect_success 'every language --list names can lex stdin' '
	"$TOKENIZE" --list | cut -f1 >names &&
	test_line_count -gt 1 names &&
	while read lang
	do
		printf "x = 1\n" >in &&
		"$TOKENIZE" -l "$lang" <in >out &&
		test -s out || { echo "language $lang failed"; return 1; }
	done <names
'

test_expect_success 'a file is lexed by the language of its extension' '
	"$TOKENIZE" a.c >actual &&
	test_cmp a.expect actual
'

test_expect_success 'a missing file is an error, and the other files are still done' '
	test_must_fail "$TOKENIZE" no-such-file.c >out 2>err &&
	grep "cannot open .no-such-file.c." err &&
	test_must_be_empty out &&
	test_must_fail "$TOKENIZE" no-such-file.c a.c >out 2>err &&
	test_cmp a.expect out
'

test_expect_success 'the views of several files are concatenated, in order' '
	"$TOKENIZE" a.c b.c >actual &&
	cat a.expect b.expect >expect &&
	test_cmp expect actual &&
	"$TOKENIZE" b.c a.c >actual &&
	cat b.expect a.expect >expect &&
	test_cmp expect actual
'

test_expect_success 'a file no language claims is skipped with a warning' '
	cp a.c x.foo &&
	"$TOKENIZE" x.foo >out 2>err &&
	test_must_be_empty out &&
	grep "no language claims .x.foo., skipped" err
'

test_expect_success '--lang=c:*.foo lexes x.foo as C' '
	"$TOKENIZE" --lang=c:*.foo x.foo >actual 2>err &&
	test_cmp a.expect actual &&
	test_must_be_empty err &&
	"$TOKENIZE" --lang "c:*.foo" x.foo >actual &&
	test_cmp a.expect actual
'

test_expect_success '--lang=none:*.c skips C files' '
	"$TOKENIZE" --lang=none:*.c a.c b.c >out 2>err &&
	test_must_be_empty out &&
	"$TOKENIZE" --lang=none:a.c a.c b.c >out &&
	test_cmp b.expect out
'

test_expect_success 'the last matching --lang wins' '
	"$TOKENIZE" --lang=none:*.c --lang=c:a.c a.c >actual &&
	test_cmp a.expect actual &&
	"$TOKENIZE" --lang=c:a.c --lang=none:*.c a.c >out 2>err &&
	test_must_be_empty out &&
	"$TOKENIZE" --lang=none:*.foo --lang=c:x.* --lang=none:*.bar x.foo >actual &&
	test_cmp a.expect actual
'

test_expect_success '-l overrides the path and --lang' '
	"$TOKENIZE" -l c x.foo >actual &&
	test_cmp a.expect actual &&
	"$TOKENIZE" -l c --lang=none:*.c a.c >actual &&
	test_cmp a.expect actual
'

test_expect_success 'a binary file (NUL in the first 8000 bytes) is not lexed without -l' '
	printf "int x;\000\n" >bin.c &&
	"$TOKENIZE" bin.c >out 2>err &&
	test_must_be_empty out &&
	grep "skipped" err &&
	"$TOKENIZE" -l c bin.c >actual &&
	printf "int\nx\n;\n\000\n" >expect &&
	test_cmp expect actual &&
	{
		awk "BEGIN { for (i = 0; i < 7990; i++) printf \"x\" }" &&
		printf "\000"
	} >late-nul.c &&
	"$TOKENIZE" late-nul.c >out 2>err &&
	test_must_be_empty out &&
	{
		awk "BEGIN { for (i = 0; i < 8000; i++) printf \"x\" }" &&
		printf "\000"
	} >later-nul.c &&
	"$TOKENIZE" later-nul.c >out &&
	test_line_count = 2 out
'

test_expect_success 'no language claims a file without extension or "#!" line' '
	printf "print(1)\n" >script &&
	"$TOKENIZE" script >out 2>err &&
	test_must_be_empty out &&
	grep "no language claims .script." err
'

test_expect_success 'Ruby claims the names and extensions Linguist gives it' '
	printf "x = %%w[a b]\n" >in.rb &&
	"$TOKENIZE" in.rb >expect &&
	test_line_count = 3 expect &&
	for f in config.ru app.builder v.rabl v.jbuilder x.podspec t.thor \
		Gemfile Rakefile Guardfile Vagrantfile Podfile .irbrc
	do
		cp in.rb "$f" &&
		"$TOKENIZE" "$f" >actual 2>err &&
		test_must_be_empty err &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'an extension wins over a "#!" line' '
	printf "#!/usr/bin/env python3\nx = 1\n" >shebang.c &&
	"$TOKENIZE" shebang.c >actual &&
	"$TOKENIZE" -l c shebang.c >expect &&
	test_cmp expect actual &&
	head -n 2 actual >first &&
	test_write_lines "#" "!" >expect &&
	test_cmp expect first
'

test_lazy_prereq PYTHON_LEXER '
	"$TOKENIZE" --list | grep -q "^python	"
'

test_expect_success PYTHON_LEXER 'a "#!/usr/bin/env python3" file is lexed as Python' '
	printf "#!/usr/bin/env python3\nprint(\"hi\")  # greet\n" >py-script &&
	"$TOKENIZE" py-script >actual 2>err &&
	test_must_be_empty err &&
	"$TOKENIZE" -l python py-script >expect &&
	test_cmp expect actual &&
	grep "^# greet" actual &&
	printf "#!/usr/bin/python3.11 -u\nx = 1\n" >py2 &&
	"$TOKENIZE" py2 >actual &&
	"$TOKENIZE" -l python py2 >expect &&
	test_cmp expect actual &&
	test -s actual
'

test_expect_success '.C and .H are C++ (in --list), and --positions works on them' '
	"$TOKENIZE" --list >list &&
	grep "^c++	.* \.C[ ;]" list &&
	grep "^c++	.* \.H[ ;]" list &&
	! grep "^c	.* \.C[ ;]" list &&
	! grep "^c	.* \.H[ ;]" list &&
	printf "class A {\n  int x::y;\n};\n" >A.C &&
	cp A.C A.H &&
	printf "1:1\tclass\n1:7\tA\n1:9\t{\n2:3\tint\n2:7\tx\n2:8\t::\n2:10\ty\n2:11\t;\n3:1\t}\n3:2\t;\n" >expect &&
	"$TOKENIZE" --positions A.C >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	"$TOKENIZE" --positions A.H >actual &&
	test_cmp expect actual
'

test_expect_success 'an extension not listed is still matched ignoring case' '
	cp b.c B.CPP &&
	"$TOKENIZE" B.CPP >actual &&
	test_cmp b.expect actual
'

test_expect_success '--exact-comments keeps the whitespace of comments' '
	"$TOKENIZE" --exact-comments a.c >actual &&
	test_write_lines int a = b + 1 ";" "/*  two   spaces */" >expect &&
	test_cmp expect actual
'

test_expect_success '--positions counts lines and byte columns, per file' '
	printf "a\n\tbb /* x\ny */ c\n" >p.c &&
	printf "1:1\ta\n2:2\tbb\n2:5\t/* x y */\n3:6\tc\n" >expect &&
	"$TOKENIZE" --positions p.c >actual &&
	test_cmp expect actual &&
	cat expect expect >expect2 &&
	"$TOKENIZE" --positions p.c p.c >actual &&
	test_cmp expect2 actual
'

test_expect_success '-- ends the options' '
	cp a.c ./-l &&
	"$TOKENIZE" -l c -- -l >actual &&
	test_cmp a.expect actual
'

test_expect_success 'a file of 256 KiB and more (mapped, not read) has the view of the same bytes piped' '
	# exactly 262144 bytes: 8192 lines of 32, the last token at the last byte
	awk "BEGIN { for (i = 0; i < 8192; i++) printf \"int v%04d = 0x%08x; /* c */%s\", i, i, (i < 8191 ? \"\\n\" : \"x\") }" >big.c &&
	test $(wc -c <big.c) = 262144 &&
	tail -c 1 big.c | grep -q x &&
	cat big.c | "$TOKENIZE" -l c >expect &&
	test $(wc -l <expect) = $((8192 * 6 + 1)) &&
	"$TOKENIZE" big.c >actual &&
	test_cmp expect actual &&
	"$TOKENIZE" -l c <big.c >actual &&
	test_cmp expect actual &&
	cat a.expect expect a.expect >expect3 &&
	"$TOKENIZE" a.c big.c a.c >actual &&
	test_cmp expect3 actual
'

test_expect_success 'a big file on stdin, its first line already read, has the view of the rest' '
	tail -n +2 big.c | "$TOKENIZE" -l c >expect &&
	test $(wc -l <expect) = $((8191 * 6 + 1)) &&
	{ read -r first && "$TOKENIZE" -l c; } <big.c >actual &&
	test_cmp expect actual
'

test_done
