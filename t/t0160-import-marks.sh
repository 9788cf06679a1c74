#!/bin/sh

test_description='the filter in an incremental pipeline of another exporter

An exporter other than git fast-export (hg-fast-export, cvs2git, svn
converters) runs incrementally with marks files: git fast-import reads
and writes one (--import-marks, --export-marks), and the next run'"'"'s
stream names commits of the last run by mark, and branches the
destination already has.  The filter is given the same --import-marks
and --date-format as fast-import, and must take what fast-import takes.'

. ./test-lib.sh

# ident WHO: a raw identity line body
ident () {
	echo "$1 <$1@example.com> 1700000000 +0000"
}

test_expect_success 'setup: two runs of an exporter that keeps its marks' '
	cat >run1 <<-EOF &&
	blob
	mark :1
	data <<END
	int main(void) { }
	END

	commit refs/heads/main
	mark :2
	author $(ident ann)
	committer $(ident ann)
	data <<END
	first
	END
	M 100644 :1 main.c

	reset refs/heads/first
	from :2

	EOF
	cat >run2 <<-EOF
	blob
	mark :3
	data <<END
	int main(void) { return f(); }
	END

	commit refs/heads/main
	mark :4
	committer $(ident bob)
	data <<END
	second
	END
	from :2
	M 100644 :3 main.c

	commit refs/heads/side
	mark :5
	committer $(ident cy)
	data <<END
	side
	END
	from refs/heads/first
	merge :4
	D main.c

	EOF
'

# import DEST RUN [FILTER-OPTIONS]: one run of the pipeline, marks on both sides
import () {
	dest=$1 run=$2 &&
	shift 2 &&
	"$TOKSTREAM" --import-marks-if-exists="$dest.marks" "$@" <"$run" >"$run.out" &&
	git -C "$dest" fast-import --quiet --import-marks-if-exists=../"$dest.marks" \
		--export-marks=../"$dest.marks" <"$run.out"
}

test_expect_success 'a two-step import: the second names the first run by mark and by branch' '
	git init -q --bare tok.git &&
	import tok.git run1 &&
	grep "^:2 " tok.git.marks &&
	import tok.git run2 &&
	git -C tok.git rev-parse main~1 >expect &&
	git -C tok.git rev-parse side^1 >actual &&
	test_cmp expect actual &&
	git -C tok.git rev-parse main side^2 | uniq >tips &&
	test_line_count = 1 tips &&
	git -C tok.git show main:main.c >view &&
	grep "^return$" view &&
	git -C tok.git log --format=%s main >log &&
	test_write_lines second first >expect &&
	test_cmp expect log
'

test_expect_success 'the same two steps without the filter give the same shape of history' '
	git init -q --bare raw.git &&
	git -C raw.git fast-import --quiet --export-marks=../raw.marks <run1 &&
	git -C raw.git fast-import --quiet --import-marks=../raw.marks <run2 &&
	git -C raw.git log --format=%s --graph side >expect &&
	git -C tok.git log --format=%s --graph side >actual &&
	test_cmp expect actual
'

test_expect_success 'with --identity the two steps give the very commits of the plain import' '
	git init -q --bare id.git &&
	import id.git run1 --identity &&
	import id.git run2 --identity &&
	git -C raw.git rev-parse main side >expect &&
	git -C id.git rev-parse main side >actual &&
	test_cmp expect actual
'

test_expect_success 'a blob of an earlier run named by mark: copied by --identity, a clear error when it must be tokenized' '
	cat >run3 <<-EOF &&
	commit refs/heads/main
	mark :6
	committer $(ident dee)
	data <<END
	third
	END
	from :4
	M 100644 :1 old.c

	EOF
	import id.git run3 --identity &&
	git -C id.git rev-parse main:old.c main~2:main.c >ids &&
	test $(uniq ids | wc -l) = 1 &&
	test_expect_code 128 "$TOKSTREAM" --import-marks=tok.git.marks <run3 >out 2>err &&
	test_line_count = 1 err &&
	grep "mark :1 is not defined: a blob of an earlier run cannot be tokenized" err &&
	! grep "^done$" out
'

test_expect_success 'a marks file that holds the blob: read from --source and tokenized' '
	git init -q src &&
	printf "int main(void) { }\n" >src/main.c &&
	blob=$(git -C src hash-object -w main.c) &&
	printf ":1 %s\n" $blob >src.marks &&
	"$TOKSTREAM" --import-marks=src.marks --source=src/.git <run3 >out &&
	grep "^M 100644 :[0-9]* old.c$" out &&
	grep "^main$" out
'

test_expect_success '--import-marks of a missing file is an error, --import-marks-if-exists is not' '
	test_expect_code 128 "$TOKSTREAM" --import-marks=nothing.marks <run1 >out 2>err &&
	grep "cannot read the marks file .nothing.marks." err &&
	"$TOKSTREAM" --import-marks-if-exists=nothing.marks <run1 >out &&
	test "$(tail -n 1 out)" = done
'

test_expect_success 'dates under --date-format=rfc2822 pass as fast-import takes them' '
	cat >rfc <<-EOF &&
	commit refs/heads/rfc
	committer eve <eve@example.com> Tue, 14 Nov 2023 22:13:20 +0000
	data <<END
	rfc
	END

	EOF
	test_expect_code 128 "$TOKSTREAM" --date-format=raw <rfc >out 2>err &&
	grep "invalid date" err &&
	"$TOKSTREAM" <rfc >out &&
	test "$(tail -n 1 out)" = done &&
	"$TOKSTREAM" --date-format=rfc2822 <rfc >out &&
	git init -q --bare rfc.git &&
	git -C rfc.git fast-import --quiet --date-format=rfc2822 <out &&
	git -C rfc.git log -1 --format=%ct rfc >actual &&
	echo 1700000000 >expect &&
	test_cmp expect actual &&
	test_expect_code 128 "$TOKSTREAM" --date-format=nonsense <rfc 2>err &&
	grep "unknown date format" err
'

test_done
