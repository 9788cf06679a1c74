#!/bin/sh
test_description='blame --json and report.json: valid, documented, and the same as the other outputs'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-blame.sh

# The schemas' checker and the comparisons are in Python (t/helper/json-*.py).
test_lazy_prereq PYTHON 'python3 -c "import json, decimal, pty"'

SCHEMA=$REPO_ROOT/contrib/schema

# valid SCHEMA DOC...: the documents are strict JSON and follow contrib/schema/SCHEMA.schema.json
valid () {
	schema=$1 && shift &&
	python3 "$TEST_DIRECTORY/helper/json-schema.py" "$SCHEMA/$schema.schema.json" "$@"
}

agree () {
	python3 "$TEST_DIRECTORY/helper/json-agree.py" "$@"
}


# The history: three authors of tokens, a comment of two lines (a token
# over two lines), a rename, so that a commit's filename is not the path
# blamed, and a fourth author who only re-indents a line (a line, no token).
test_expect_success 'a history of four authors and a rename' '
	git init -q src &&
	printf "/* Sums two numbers,\n   returning the total. */\nint add(int a, int b)\n{\n\treturn a + b;\n}\n" >src/sum.c &&
	commit_as -C src -a Alice -m "add()" &&
	sed "s/int b)/long b)/" src/sum.c >tmp && mv tmp src/sum.c &&
	commit_as -C src -a Bob -m "add(): take a long" &&
	git -C src mv sum.c add.c &&
	printf "int twice(int x)\n{\n\treturn add(x, x);\n}\n" >>src/add.c &&
	commit_as -C src -a Carol -m "rename to add.c; twice()" &&
	sed "s/^	return a + b;/    return a + b;/" src/add.c >tmp && mv tmp src/add.c &&
	commit_as -C src -a Dave -m "indent with spaces" &&
	"$TOKSTREAM" convert -q src tokens.git &&
	"$TOKSTREAM" blame -C tokens.git --porcelain add.c >porcelain &&
	"$TOKSTREAM" blame -C tokens.git --json add.c >blame.json
'

# refused_when SED-SCRIPT MESSAGE: blame.json edited by SED-SCRIPT breaks
# the schema, and the checker says MESSAGE
refused_when () {
	sed "$1" blame.json >broken.json &&
	! cmp -s blame.json broken.json &&
	test_must_fail valid blame broken.json >out &&
	grep "$2" out
}

test_expect_success PYTHON 'the schema checker refuses what breaks a schema' '
	valid blame blame.json &&
	refused_when "s/\"version\": 1/\"version\": 2/" "/version: 2 is not 1" &&
	refused_when "s/\"line\": 1,/\"line\": 1.0,/" "/tokens/0/line: number where integer is wanted" &&
	refused_when "s/\"summary\": [^,]*, //" "member .summary. is missing" &&
	refused_when "s/\"line\": 1,/\"line\": 1, \"class\": 1,/" "member .class. is not in the schema" &&
	printf "{\"version\": 1, \"version\": 1}" >twice.json &&
	test_must_fail valid blame twice.json >out &&
	grep "appears twice" out &&
	printf "{\"a\": NaN}" >nan.json &&
	test_must_fail valid blame nan.json &&
	printf "{\"minItems\": 1}" >unknown.schema.json &&
	test_must_fail python3 "$TEST_DIRECTORY/helper/json-schema.py" unknown.schema.json blame.json 2>err &&
	grep "keyword .minItems. is not supported" err
'

test_expect_success PYTHON 'blame --json follows its schema' '
	valid blame blame.json
'

test_expect_success PYTHON 'blame --json carries what --porcelain carries, token by token, commit by commit' '
	agree blame porcelain blame.json &&
	python3 - blame.json <<-\EOF
	import json, sys
	doc = json.load(open(sys.argv[1]))
	assert doc["path"] == "add.c", doc["path"]
	names = {c["author"]: c for c in doc["commits"].values()}
	assert sorted(names) == ["Alice", "Bob", "Carol"], names
	# the comment is one token over two lines; Alice wrote it in sum.c
	assert doc["tokens"][0]["length"] == 47, doc["tokens"][0]
	assert doc["tokens"][1]["line"] == 3, doc["tokens"][1]
	assert names["Alice"]["filename"] == "sum.c", names["Alice"]
	assert names["Carol"]["filename"] == "add.c", names["Carol"]
	assert names["Bob"]["summary"] == "add(): take a long"
	assert isinstance(names["Bob"]["author_time"], int)
	EOF
'

test_expect_success PYTHON 'agreement is checked: a changed token or commit detail is found' '
	sed "s/\"column\": 1,/\"column\": 2,/" blame.json >moved.json &&
	test_must_fail agree blame porcelain moved.json &&
	sed "s/\"summary\": \"add(): take a long\"/\"summary\": \"x\"/" blame.json >resumed.json &&
	test_must_fail agree blame porcelain resumed.json
'

# A commit that git commit would not write (it turns bytes that are not
# UTF-8 into Latin-1 letters): made with hash-object, with control
# characters, a sequence cut short, U+2028, a character outside the BMP
# and a file name that is not UTF-8.
test_expect_success 'a commit whose author, summary and file name are not all UTF-8' '
	git init -q odd &&
	name=$(printf "caf\351.c") &&
	printf "int x = 1; /* caf\351 */\nchar *s = \"\377\376\001\";\n" >"odd/$name" &&
	git -C odd add "$name" &&
	tree=$(git -C odd write-tree) &&
	{
		printf "tree %s\n" "$tree" &&
		printf "author Jos\351 \001Ctl \"Q\" \\\\ \342\202x \342\200\250 \360\237\230\200 <j\177@example.org> 1700000000 +0100\n" &&
		printf "committer C <c@example.org> 1700000000 +0100\n\n" &&
		printf "sum\001mary\ttab \"q\" \\\\ \351\177 end\n"
	} >commit.raw &&
	commit=$(git -C odd hash-object -t commit -w --stdin <commit.raw) &&
	git -C odd update-ref HEAD "$commit" &&
	"$TOKSTREAM" convert -q odd odd.git &&
	"$TOKSTREAM" blame -C odd.git --porcelain "$name" >odd-porcelain &&
	"$TOKSTREAM" blame -C odd.git --json "$name" >odd.json
'

test_expect_success PYTHON 'such bytes still give valid JSON, U+FFFD for what is not UTF-8' '
	valid blame odd.json &&
	agree blame odd-porcelain odd.json &&
	python3 - odd.json <<-\EOF
	import json, sys
	raw = open(sys.argv[1], "rb").read()
	doc = json.loads(raw.decode("utf-8"))
	(c,) = doc["commits"].values()
	assert c["author"] == "Jos\ufffd \x01Ctl \"Q\" \\ \ufffdx \u2028 \U0001F600", repr(c["author"])
	assert c["author_mail"] == "<j\x7f@example.org>", repr(c["author_mail"])
	assert c["summary"] == "sum\x01mary\ttab \"q\" \\ \ufffd\x7f end", repr(c["summary"])
	assert c["filename"] == doc["path"] == "caf\ufffd.c", repr(c["filename"])
	# control characters escaped, the string literal of three odd bytes is one token of 5 bytes
	assert b"\\u0001" in raw and b"\\u007f" in raw and b"\\u2028" in raw, raw
	assert [t["length"] for t in doc["tokens"] if t["line"] == 2][-2] == 5, doc["tokens"]
	EOF
'

test_expect_success '--json with --porcelain is a usage error' '
	test_expect_code 129 "$TOKSTREAM" blame -C tokens.git --json --porcelain add.c >out 2>err &&
	test_must_be_empty out &&
	grep "json and --porcelain cannot be used together" err &&
	grep "^usage: tokstream blame" err
'

test_expect_success PYTHON 'blame --json starts no pager, even on a terminal' '
	cat >on-tty.py <<-\EOF &&
	import os, pty, sys
	pid, fd = pty.fork()
	if pid == 0:
	    os.execvp(sys.argv[1], sys.argv[1:])
	out = b""
	while True:
	    try:
	        chunk = os.read(fd, 65536)
	    except OSError:
	        break
	    if not chunk:
	        break
	    out += chunk
	_, status = os.waitpid(pid, 0)
	sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
	sys.exit(os.waitstatus_to_exitcode(status))
	EOF
	write_script pager <<-\EOF &&
	echo paged >>pager-ran
	cat
	EOF
	GIT_PAGER="$PWD/pager" python3 on-tty.py "$TOKSTREAM" blame -C tokens.git --color=never add.c >terminal &&
	test_path_is_file pager-ran &&
	rm pager-ran &&
	GIT_PAGER="$PWD/pager" python3 on-tty.py "$TOKSTREAM" blame -C tokens.git --json add.c >tty.json &&
	test_path_is_missing pager-ran &&
	test_cmp blame.json tty.json
'

test_expect_success 'report writes report.json beside its TSV files' '
	"$TOKSTREAM" report -C tokens.git --top=5 --min-tokens=1 -j 1 whole &&
	test_path_is_file whole/report.json &&
	grep "<a href=\"report.json\">report.json</a>" whole/index.html
'

test_expect_success PYTHON 'report.json follows its schema' '
	valid report whole/report.json
'

test_expect_success PYTHON 'every TSV has its table in report.json, with the same rows and values' '
	agree report whole
'

test_expect_success PYTHON 'agreement is checked: a missing table, a row or a value that differs is found' '
	mkdir -p changed &&
	cp whole/*.tsv changed/ &&
	sed "/\"years\": {/,/^    },/d" whole/report.json >changed/report.json &&
	test_must_fail agree report changed >out-missing &&
	grep "years.tsv" out-missing &&
	sed "s/\"line_share\": 40.00,/\"line_share\": 40.0,/" whole/report.json >changed/report.json &&
	test_must_fail agree report changed >out-digits &&
	grep "authors.tsv row 1, line_share: .40.00. against Decimal(.40.0.)" out-digits &&
	sed "s/\"author\": \"Alice\"/\"author\": \"Alicia\"/" whole/report.json >changed/report.json &&
	test_must_fail agree report changed &&
	cp whole/report.json changed/ &&
	printf "x\t1\t2\n" >>changed/churn-histogram.tsv &&
	test_must_fail agree report changed >out-row &&
	grep "churn-histogram.tsv: 8 rows against 7" out-row
'

test_expect_success PYTHON 'report.json has typed values: integers, numbers, strings, null for "-" and ""' '
	python3 - whole/report.json <<-\EOF
	import decimal, json, sys
	doc = json.load(open(sys.argv[1]), parse_float=decimal.Decimal)
	t = doc["tables"]
	authors = {r["author"]: r for r in t["authors"]["rows"]}
	assert sorted(authors) == ["Alice", "Bob", "Carol", "Dave"], authors
	# Dave re-indented a line: a line and no token, so no rank by tokens
	assert authors["Dave"]["tokens"] == 0 and authors["Dave"]["token_rank"] is None, authors["Dave"]
	assert type(authors["Dave"]["lines"]) is int and type(authors["Dave"]["line_rank"]) is int
	assert all(isinstance(r["token_share"], decimal.Decimal) for r in t["authors"]["rows"])
	# three authors by tokens, four by lines: the fourth row has no author by tokens
	top = t["top"]["rows"]
	assert len(top) == 4 and top[3]["by_tokens"] is None and top[3]["token_share"] is None, top
	assert isinstance(top[3]["by_lines"], str), top
	size = t["size"]["rows"]
	assert size[-1]["language"] == "total" and type(size[-1]["tokens"]) is int, size
	assert isinstance(size[-1]["tokens_per_code_line"], decimal.Decimal), size
	figures = {r["figure"]: r["value"] for r in t["summary"]["rows"]}
	assert figures["verdict"] in ("same", "different") and type(figures["files"]) is int, figures
	assert isinstance(figures["distance"], decimal.Decimal), figures
	sizes = {r["figure"]: r for r in t["commit-sizes"]["rows"]}
	assert sizes["median_changed"]["share"] is None, sizes
	assert list(t)[0] == "summary" and t["summary"]["file"] == "summary.tsv", list(t)
	EOF
'

test_expect_success PYTHON 'report.json says what the report is of' '
	git -C src rev-parse HEAD >expect-rev &&
	bob=$(git -C src rev-list --author=Bob HEAD) &&
	token=$(awk -v id="$(cat expect-rev)" "\$1 == id { print \$2 }" tokens.git/tokstream/commit-map) &&
	"$TOKSTREAM" report -C tokens.git --no-moves --ignore-rev "$bob" -j 1 narrow HEAD "*.c" &&
	valid report narrow/report.json &&
	agree report narrow &&
	python3 - whole/report.json narrow/report.json "$(cat expect-rev)" "$token" "$bob" <<-\EOF
	import json, sys
	whole, narrow = (json.load(open(f)) for f in sys.argv[1:3])
	rev, token, bob = sys.argv[3:6]
	for doc in whole, narrow:
	    assert doc["version"] == 2
	    assert doc["revision"] == rev and doc["revision_name"] == "HEAD", doc["revision"]
	    assert doc["token_revision"] == token, doc["token_revision"]
	    assert doc["source"].endswith("/src"), doc["source"]
	    assert type(doc["engine"]["revision"]) is int and doc["engine"]["revision"] >= 1
	assert whole["pathspec"] == [] and narrow["pathspec"] == ["*.c"], (whole["pathspec"], narrow["pathspec"])
	assert whole["engine"]["min_move"] == 12 and narrow["engine"]["min_move"] == 0
	assert whole["engine"]["ignored_revisions"] == [] and narrow["engine"]["ignored_revisions"] == [bob]
	assert whole["options"]["top"] == 5 and narrow["options"]["top"] == 20
	EOF
'

test_expect_success PYTHON 'report.json of a history that is not all UTF-8 is valid JSON' '
	"$TOKSTREAM" report -C odd.git --min-tokens=1 -j 1 odd-out &&
	valid report odd-out/report.json &&
	agree report odd-out &&
	python3 - odd-out/report.json <<-\EOF
	import json, sys
	doc = json.load(open(sys.argv[1]))
	files = doc["tables"]["files"]["rows"]
	assert [f["path"] for f in files] == ["caf\ufffd.c"], files
	assert files[0]["top_by_tokens"].startswith("Jos\ufffd \x01Ctl"), files
	EOF
'

test_done
