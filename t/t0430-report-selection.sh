#!/bin/sh
test_description='report: vendored, generated and excluded files out, time windows, identities, progress'
. ./test-lib.sh

# a tree where a vendored library and a generated parser outweigh the project's own code
test_expect_success 'a history with vendored and generated code' '
	git init -q src &&
	mkdir -p src/vendor/zlib src/gen &&
	printf "int main(void)\n{\n\treturn run(1, 2);\n}\n" >src/main.c &&
	printf "Ann New <ann@example.org> <ann@old.example.org>\n" >src/.mailmap &&
	commit_as -C src -a --at="2019-03-01 12:00:00 +0000" --mail=ann@old.example.org "ann old" -m "main" &&
	for i in 1 2 3 4 5 6 7 8 9
	do
		printf "static int z$i(int a, int b) { return a * b + $i; }\n" || return 1
	done >src/vendor/zlib/deflate.c &&
	printf "int vendored_too(void) { return 42; }\n" >src/vendor/zlib/keep.c &&
	printf "vendor/** linguist-vendored\nvendor/zlib/keep.c -linguist-vendored\ngen/*.c linguist-generated=true\n" >src/.gitattributes &&
	commit_as -C src -a --at="2020-06-01 12:00:00 +0000" --mail=vic@example.org Vic -m "vendor zlib" &&
	for i in 1 2 3 4 5 6
	do
		printf "int yy_table_$i[] = { $i, $i, $i, $i };\n" || return 1
	done >src/gen/parse.c &&
	commit_as -C src -a --at="2021-01-01 12:00:00 +0000" --mail=gen@example.org Gen -m "generate the parser" &&
	printf "int run(int a, int b)\n{\n\treturn a + b;\n}\n" >src/run.c &&
	commit_as -C src -a --at="2022-05-01 12:00:00 +0000" --mail=bob@example.org Bob -m "run()" &&
	printf "int run(int a, int b)\n{\n\treturn a - b;\n}\n" >src/run.c &&
	commit_as -C src -a --at="2023-05-01 12:00:00 +0000" --mail=ann@old.example.org "ann old" -m "run(): subtract" &&
	"$TOKSTREAM" convert -q src tok.git
'

# tokens of a file: the lines of its view
view_tokens () {
	git -C tok.git cat-file -p "HEAD:$1" | wc -l | tr -d " "
}

test_expect_success 'vendored and generated files are left out of every figure, and counted' '
	"$TOKSTREAM" report -C tok.git r1 HEAD &&
	sed 1d r1/files.tsv | cut -f1 | sort >actual &&
	printf "main.c\nrun.c\nvendor/zlib/keep.c\n" >expect &&
	test_cmp expect actual &&
	{
		printf "reason\tfiles\ttokens\n" &&
		printf "vendored\t1\t%s\n" $(view_tokens vendor/zlib/deflate.c) &&
		printf "generated\t1\t%s\n" $(view_tokens gen/parse.c)
	} >expect &&
	test_cmp expect r1/left-out.tsv &&
	! grep "^Gen" r1/authors.tsv &&
	grep "^Vic	1	[0-9.]*	[0-9]*	$(view_tokens vendor/zlib/keep.c)	" r1/authors.tsv &&
	grep "Left out of every figure: 2 files" r1/index.html
'

test_expect_success 'their changes leave the commit sizes' '
	id=$(git -C src log --format=%H --grep="^generate the parser\$") &&
	! grep "^$id" r1/commits.tsv &&
	id=$(git -C src log --format=%H --grep="^vendor zlib\$") &&
	grep "^$id	[0-9a-f]*	$(view_tokens vendor/zlib/keep.c)	0	" r1/commits.tsv &&
	id=$(git -C src log --format=%H --grep="^run()\$") &&
	grep "^$id" r1/commits.tsv
'

test_expect_success '--include-vendored puts them back' '
	"$TOKSTREAM" report -C tok.git --include-vendored r2 HEAD &&
	sed 1d r2/files.tsv | cut -f1 | sort >actual &&
	printf "gen/parse.c\nmain.c\nrun.c\nvendor/zlib/deflate.c\nvendor/zlib/keep.c\n" >expect &&
	test_cmp expect actual &&
	printf "reason\tfiles\ttokens\n" >expect &&
	test_cmp expect r2/left-out.tsv &&
	head -n 2 r2/authors.tsv | tail -n 1 | grep "^Vic	" &&
	grep "^Gen	" r2/authors.tsv &&
	! grep "Left out of every figure" r2/index.html &&
	id=$(git -C src log --format=%H --grep="^vendor zlib\$") &&
	grep "^$id	[0-9a-f]*	$(($(view_tokens vendor/zlib/keep.c) + $(view_tokens vendor/zlib/deflate.c)))	0	" r2/commits.tsv
'

test_expect_success '--exclude leaves out what the pathspec selects, counted apart' '
	"$TOKSTREAM" report -C tok.git --exclude=run.c --exclude "vendor/zlib/k*" r3 HEAD &&
	sed 1d r3/files.tsv | cut -f1 >actual &&
	echo main.c >expect &&
	test_cmp expect actual &&
	grep "^excluded	2	$(($(view_tokens run.c) + $(view_tokens vendor/zlib/keep.c)))\$" r3/left-out.tsv &&
	! grep "^Bob" r3/authors.tsv
'

test_expect_success 'files with no view are in no count of what is left out' '
	git clone -q src nsrc &&
	mkdir -p nsrc/tools &&
	echo "no lexer claims this" >nsrc/vendor/zlib/notes.xyz &&
	echo "nor this" >nsrc/tools/data.xyz &&
	printf "int tool(void) { return 7; }\n" >nsrc/tools/tool.c &&
	git -C nsrc add . &&
	commit_as -C nsrc --mail=bob@example.org Bob -m "tools, notes" &&
	"$TOKSTREAM" convert -q nsrc ntok.git &&
	"$TOKSTREAM" report -C ntok.git --exclude=tools n1 HEAD &&
	{
		printf "reason\tfiles\ttokens\n" &&
		printf "excluded\t1\t%s\n" $(git -C ntok.git cat-file -p HEAD:tools/tool.c | wc -l) &&
		printf "vendored\t1\t%s\n" $(view_tokens vendor/zlib/deflate.c) &&
		printf "generated\t1\t%s\n" $(view_tokens gen/parse.c)
	} >expect &&
	test_cmp expect n1/left-out.tsv &&
	sed 1d n1/left-out-files.tsv | cut -f1 | sort >actual &&
	printf "gen/parse.c\ntools/tool.c\nvendor/zlib/deflate.c\n" >expect &&
	test_cmp expect actual &&
	grep "Left out of every figure: 3 files" n1/index.html
'

# age_total DIR: the tokens of the last point of the code age
age_total () {
	awk -F"\t" "NR > 1 { if (\$1 != last) n = 0; last = \$1; n += \$7 } END { print n }" "$1/age.tsv"
}

test_expect_success 'the code age leaves out what every other figure leaves out' '
	size_total=$(awk -F"\t" "\$1 == \"total\" { print \$5 }" r3/size.tsv) &&
	years_total=$(awk -F"\t" "NR > 1 { n += \$4 } END { print n }" r3/years.tsv) &&
	test $size_total = $years_total &&
	test $(age_total r3) = $size_total &&
	test $(age_total r1) = $(awk -F"\t" "\$1 == \"total\" { print \$5 }" r1/size.tsv)
'

test_expect_success 'generated files as Linguist finds them: by name and by their first lines' '
	git clone -q src gsrc &&
	mkdir -p gsrc/web gsrc/api gsrc/node_modules/left &&
	printf "{ \"lockfileVersion\": 3, \"packages\": { \"a\": 1 } }\n" >gsrc/package-lock.json &&
	printf "var a=1;function f(b){return b+a}\n" >gsrc/web/app.min.js &&
	printf "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage api\n\nvar X = 1\n" >gsrc/api/api.pb.go &&
	printf "// Copyright the authors.\n\n// Code generated by stringer; DO NOT EDIT.\n\npackage api\n\nvar Y = 2\n" >gsrc/api/kind.go &&
	printf "/* @generated by the build */\nint table[] = { 1, 2, 3 };\n" >gsrc/table.c &&
	printf "module.exports = 1;\n" >gsrc/node_modules/left/index.js &&
	printf "int hand(void) { return 1; } /* generated code is elsewhere */\n" >gsrc/hand.c &&
	git -C gsrc add -A &&
	git -C gsrc -c user.name=Gen -c user.email=gen@example.org commit -q -m "generated files" &&
	"$TOKSTREAM" convert -q gsrc gtok.git &&
	"$TOKSTREAM" report -C gtok.git -j 1 g1 &&
	sed 1d g1/left-out-files.tsv | cut -f1-3 | sort >actual &&
	cat >expect <<-\EOF &&
	api/api.pb.go	generated by name	.pb.go
	api/kind.go	generated by marker	Code generated ... DO NOT EDIT.
	gen/parse.c	generated	
	node_modules/left/index.js	generated by name	node_modules/
	package-lock.json	generated by name	package-lock.json
	table.c	generated by marker	@generated
	vendor/zlib/deflate.c	vendored	
	web/app.min.js	generated by name	.min.js
	EOF
	test_cmp expect actual &&
	grep "^generated by name	4	" g1/left-out.tsv &&
	grep "^generated by marker	2	" g1/left-out.tsv &&
	sed 1d g1/files.tsv | cut -f1 | sort >files &&
	printf "hand.c\nmain.c\nrun.c\nvendor/zlib/keep.c\n" >expect &&
	test_cmp expect files &&
	test $(age_total g1) = $(awk -F"\t" "\$1 == \"total\" { print \$5 }" g1/size.tsv) &&
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$REPO_ROOT/contrib/schema/report.schema.json" g1/report.json &&
	"$TOKSTREAM" report -C gtok.git -j 1 --include-vendored g2 &&
	test_line_count = 1 g2/left-out-files.tsv &&
	grep "^table.c	" g2/files.tsv
'

# the original id of the commit of gsrc whose subject is $1
gcommit () {
	git -C gsrc log --format=%H --grep="^$1\$"
}

test_expect_success 'the commit sizes leave out generated files by each commit'"'"'s own version of them' '
	printf "/* @generated */\nint big[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };\n" >gsrc/old.c &&
	printf "var x=1;\n" >gsrc/web/old.min.js &&
	git -C gsrc add -A &&
	git -C gsrc -c user.name=Gen -c user.email=gen@example.org commit -q -m "more generated" &&
	git -C gsrc rm -q old.c web/old.min.js package-lock.json &&
	git -C gsrc -c user.name=Gen -c user.email=gen@example.org commit -q -m "generated files gone" &&
	printf "int hand2(void) { return 2; }\n" >gsrc/hand2.c &&
	git -C gsrc add hand2.c && git -C gsrc rm -q table.c &&
	git -C gsrc -c user.name=Hal -c user.email=hal@example.org commit -q -m "hand2, table.c gone" &&
	git -C gsrc update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,sub &&
	git -C gsrc -c user.name=Hal -c user.email=hal@example.org commit -q -m "a submodule" &&
	"$TOKSTREAM" convert -q gsrc gtok.git &&
	"$TOKSTREAM" report -C gtok.git -j 1 g3 &&
	! grep "^$(gcommit "more generated")" g3/commits.tsv &&
	! grep "^$(gcommit "generated files gone")" g3/commits.tsv &&
	grep "^$(gcommit "hand2, table.c gone")	[0-9a-f]*	10	0	10$" g3/commits.tsv &&
	grep "^$(gcommit "generated files")	[0-9a-f]*	11	0	11$" g3/commits.tsv &&
	"$TOKSTREAM" report -C gtok.git -j 1 --exclude=hand2.c g4 &&
	! grep "^$(gcommit "hand2, table.c gone")" g4/commits.tsv
'

test_expect_success '--since and --until keep the commits git log keeps, by its dates' '
	"$TOKSTREAM" report -C tok.git --include-vendored --since=2020-01-01 --until=2022-12-31 r4 HEAD &&
	git -C src log --no-merges --format=%H --since=2020-01-01 --until=2022-12-31 | sort >expect &&
	sed 1d r4/commits.tsv | cut -f1 | sort >actual &&
	test_cmp expect actual &&
	test_line_count = 3 expect &&
	grep "token history since 2020-01-01 until 2022-12-31 change" r4/index.html &&
	"$TOKSTREAM" report -C tok.git --include-vendored r5 HEAD &&
	test_line_count = 6 r5/commits.tsv
'

test_expect_success 'an --exclude that selects no file at REV nor before it is a warning' '
	"$TOKSTREAM" report -C tok.git --exclude=nosuchdir --exclude=main.c --exclude=":!run.c" w1 HEAD 2>err &&
	echo "tokstream: warning: --exclude: pathspec '"'nosuchdir'"' matched no file at HEAD or before it" >expect &&
	test_cmp expect err &&
	grep "^excluded	1	" w1/left-out.tsv &&
	# one that selects files of the history only leaves their changes out: no warning
	git -C nsrc rm -q -r tools &&
	commit_as -C nsrc --mail=bob@example.org Bob -m "no tools" &&
	"$TOKSTREAM" convert -q nsrc ntok.git &&
	"$TOKSTREAM" report -C ntok.git --exclude=tools w2 HEAD 2>err &&
	test_must_be_empty err
'

test_expect_success '--since or --until that is no date is an error, not an empty window' '
	test_expect_code 128 "$TOKSTREAM" report -C tok.git --since=garbage w3 HEAD 2>err &&
	echo "tokstream: fatal: --since: '"'garbage'"' is no date (git log would read it as now)" >expect &&
	test_cmp expect err &&
	test_expect_code 128 "$TOKSTREAM" report -C tok.git --until=foo.bar w3 HEAD 2>err &&
	grep "fatal: --until: '"'foo.bar'"' is no date" err &&
	"$TOKSTREAM" report -C tok.git --since="3 years ago" --until=yesterday w4 HEAD 2>err &&
	test_must_be_empty err
'

test_expect_success 'report.json holds left-out.tsv and the options, and follows its schema' '
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$REPO_ROOT/contrib/schema/report.schema.json" \
		r1/report.json r3/report.json r4/report.json &&
	python3 "$TEST_DIRECTORY/helper/json-agree.py" report r3 &&
	python3 -c "
import json, sys
r = json.load(open(\"r3/report.json\"))
o = r[\"options\"]
assert o[\"exclude\"] == [\"run.c\", \"vendor/zlib/k*\"], o
assert o[\"include_vendored\"] is False and o[\"mailmap\"] is True, o
rows = r[\"tables\"][\"left-out\"][\"rows\"]
assert [x[\"reason\"] for x in rows] == [\"excluded\", \"vendored\", \"generated\"], rows
w = json.load(open(\"r4/report.json\"))[\"options\"]
assert (w[\"since\"], w[\"until\"]) == (\"2020-01-01\", \"2022-12-31\"), w
"
'

test_expect_success 'identities go through .mailmap unless --no-mailmap' '
	grep "^Ann New	" r1/authors.tsv &&
	! grep "^ann old" r1/authors.tsv &&
	"$TOKSTREAM" report -C tok.git --no-mailmap r6 HEAD &&
	grep "^ann old	" r6/authors.tsv &&
	! grep "^Ann New" r6/authors.tsv &&
	"$TOKSTREAM" blame -C tok.git --porcelain main.c >p &&
	grep "^author Ann New\$" p &&
	"$TOKSTREAM" blame -C tok.git --no-mailmap --porcelain main.c >p &&
	grep "^author ann old\$" p
'

test_expect_success 'progress on stderr with --progress, none by default off a terminal' '
	rm -rf tok.git/tokstream/replay tok.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tok.git --replay=always --progress r7 HEAD 2>err &&
	n=$(git -C tok.git rev-list --count HEAD) &&
	tr "\r" "\n" <err | grep "^Replaying commits: 100% ($n/$n), done.\$" &&
	rm -rf tok.git/tokstream/replay tok.git/tokstream/report-cache &&
	"$TOKSTREAM" report -C tok.git --replay=always r8 HEAD 2>err &&
	test_must_be_empty err
'

# One person under three names with one address, one under two names that differ
# only in case, two people GitHub wrote as noreply@github.com, five names on one
# address (an old import's none@none), a bot by name and one by the mailmap.
test_expect_success 'a history of people under several names, and bots' '
	git init -q ppl &&
	printf "helper[bot] <ci@example.org> ci-helper <ci@example.org>\n" >ppl/.mailmap &&
	git -C ppl add .mailmap &&
	pcommit () {
		printf "%s\n" "$3" >"ppl/$4" && git -C ppl add "$4" &&
		GIT_AUTHOR_DATE="2020-01-01 12:00:00 +0000" GIT_COMMITTER_DATE="2020-01-01 12:00:00 +0000" \
		git -C ppl commit -q --author="$1 <$2>" -m "$4"
	} &&
	pcommit "Tj Holowaychuk" tj@vision.example "int a(int x) { return x * 2 + 1; }" tj1.c &&
	pcommit "TJ Holowaychuk" tj@vision.example "int b(void) { return 2; }" tj2.c &&
	pcommit visionmedia tj@vision.example "int c;" tj3.c &&
	pcommit "ann lee" ann@home.example "int d;" ann1.c &&
	pcommit "Ann Lee" ann@work.example "int e, f;" ann2.c &&
	pcommit "Pat One" noreply@github.com "int p;" pat.c &&
	pcommit "Sam Two" noreply@github.com "int s, t;" sam.c &&
	for n in 1 2 3 4 5
	do
		pcommit "user$n" none@none "int n$n;" n$n.c || return 1
	done &&
	pcommit "dependabot[bot]" "49699333+dependabot[bot]@users.noreply.github.com" "int z = 1;" dep.c &&
	pcommit ci-helper ci@example.org "int y = 2, w = 3;" ci.c &&
	"$TOKSTREAM" convert -q ppl ppl.git &&
	"$TOKSTREAM" report -C ppl.git -j 1 p1
'

test_expect_success 'names that share an address or differ only in case are listed, with .mailmap lines' '
	cat >expect <<-\EOF &&
	group	author	name	email	lines	tokens	mailmap
	1	Tj Holowaychuk	Tj Holowaychuk	tj@vision.example	1	15	
	1	Tj Holowaychuk	TJ Holowaychuk	tj@vision.example	1	10	Tj Holowaychuk <tj@vision.example> TJ Holowaychuk <tj@vision.example>
	1	Tj Holowaychuk	visionmedia	tj@vision.example	1	3	Tj Holowaychuk <tj@vision.example> visionmedia <tj@vision.example>
	2	Ann Lee	Ann Lee	ann@work.example	1	5	
	2	Ann Lee	ann lee	ann@home.example	1	3	Ann Lee <ann@work.example> ann lee <ann@home.example>
	EOF
	test_cmp expect p1/identities.tsv &&
	grep "^identity_groups	2\$" p1/summary.tsv &&
	grep "^identity_names	5\$" p1/summary.tsv &&
	grep "^Tj Holowaychuk	1	[0-9.]*	[0-9]*	15	" p1/authors.tsv &&
	grep "^TJ Holowaychuk	1	[0-9.]*	[0-9]*	10	" p1/authors.tsv &&
	grep "^visionmedia	" p1/authors.tsv &&
	grep "5 names look like 2 people" p1/index.html &&
	grep "Tj Holowaychuk &lt;tj@vision.example&gt; visionmedia &lt;tj@vision.example&gt;" p1/index.html
'

test_expect_success '... but not names on a shared address: noreply@github.com, or one many names use' '
	test_line_count = 6 p1/identities.tsv &&
	! grep "Pat One\|Sam Two\|user[1-5]" p1/identities.tsv &&
	grep "^Pat One	" p1/authors.tsv &&
	grep "^Sam Two	" p1/authors.tsv &&
	test $(grep -c "^user[1-5]	" p1/authors.tsv) = 5
'

test_expect_success 'the .mailmap lines merge the names for git too' '
	sed 1d p1/identities.tsv | cut -f7 | grep . >lines &&
	test_line_count = 3 lines &&
	cat ppl/.mailmap lines >merged.mailmap &&
	git -C ppl -c mailmap.file=../merged.mailmap log --format=%aN -- tj1.c tj2.c tj3.c ann1.c ann2.c |
		sort -u >actual &&
	printf "Ann Lee\nTj Holowaychuk\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--merge-identities counts each group as one author in every figure' '
	"$TOKSTREAM" report -C ppl.git -j 1 --merge-identities p2 &&
	grep "^Tj Holowaychuk	3	[0-9.]*	[0-9]*	28	" p2/authors.tsv &&
	grep "^Ann Lee	2	[0-9.]*	[0-9]*	8	" p2/authors.tsv &&
	! grep "^TJ Holowaychuk\|^visionmedia\|^ann lee" p2/authors.tsv p2/top.tsv p2/files.tsv \
		p2/largest-commits.tsv p2/authors-by-kind.tsv &&
	test $(($(grep -c . p1/authors.tsv) - 3)) = $(grep -c . p2/authors.tsv) &&
	grep "^authors_by_tokens	$(($(sed -n "s/^authors_by_tokens	//p" p1/summary.tsv) - 3))\$" p2/summary.tsv &&
	grep "	TJ Holowaychuk	.*	Tj Holowaychuk <tj@vision.example> TJ Holowaychuk" p2/identities.tsv &&
	test $(cut -f7 p2/largest-commits.tsv | grep -c "^Tj Holowaychuk\$") = 3 &&
	grep "count as one each (--merge-identities)" p2/index.html &&
	python3 -c "
import json
o = json.load(open(\"p2/report.json\"))[\"options\"]
assert o[\"merge_identities\"] is True and o[\"include_bots\"] is False, o
"
'

test_expect_success 'bots are out of the people figures, counted and named apart' '
	cat >expect <<-\EOF &&
	bot	lines	line_share	tokens	token_share
	helper[bot]	1	7.14	9	12.33
	dependabot[bot]	1	7.14	5	6.85
	EOF
	test_cmp expect p1/bots.tsv &&
	! grep "bot\]\|ci-helper" p1/authors.tsv p1/top.tsv p1/top-only.tsv p1/files.tsv \
		p1/disagreement.tsv p1/authors-by-kind.tsv &&
	grep "^bots	2\$" p1/summary.tsv &&
	grep "^bot_tokens	14\$" p1/summary.tsv &&
	grep "^bot_token_share	19.18\$" p1/summary.tsv &&
	grep "^authors_by_tokens	12\$" p1/summary.tsv &&
	grep "^ci.c	c	1	1	9	0	0	" p1/files.tsv &&
	grep "Bots (helper\[bot\] and dependabot\[bot\]) own 19.18% of the tokens, left out of the people figures" p1/index.html
'

test_expect_success '--include-bots counts them among the people' '
	"$TOKSTREAM" report -C ppl.git -j 1 --include-bots p3 &&
	grep "^helper\[bot\]	1	7.14	[0-9]*	9	12.33	" p3/authors.tsv &&
	grep "^dependabot\[bot\]	" p3/authors.tsv &&
	grep "^authors_by_tokens	14\$" p3/summary.tsv &&
	test_cmp p1/bots.tsv p3/bots.tsv &&
	grep "counted among the people (--include-bots)" p3/index.html &&
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$REPO_ROOT/contrib/schema/report.schema.json" \
		p1/report.json p2/report.json p3/report.json &&
	python3 "$TEST_DIRECTORY/helper/json-agree.py" report p1 &&
	python3 "$TEST_DIRECTORY/helper/json-agree.py" report p2
'

test_done
