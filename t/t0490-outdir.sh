#!/bin/sh

test_description='tokstream html and report write nothing outside OUTDIR

Whatever paths a repository holds (".." and "." components, a name with
a slash that makes it absolute, a name that climbs out) and whatever
symbolic links OUTDIR holds, html and report write only under OUTDIR
(and DEST'"'"'s own cache): every other file of the trash directory is
byte for byte as before.  git itself refuses such trees (fsck, and the
filter refuses ".." components), so they are made by hand, in the source
and in DEST, and joined by a line of the commit map.'

. ./test-lib.sh

# snapshot FILE: every file outside out*/ and d.git/ with its content
# hash, but for the scratch files of the tests (err, status, listing,
# other, found, expect, snapshot.*); and the names beside the trash
# directory that the hostile paths would make
snapshot () {
	{ ls -A .. | grep -E "^(escape|x\.c)" || true; } >beside &&
	test_must_be_empty beside &&
	find . -path ./d.git -prune -o -path "./out*" -prune -o -type f -print | grep -v -E "^\./(err|status|listing|other|found|expect|beside|snapshot\..*)$" | sort | while read f
	do
		printf "%s %s\n" "$(git hash-object "$f")" "$f" || return 1
	done >"$1"
}

# evil_tree REPO BLOB: a tree with ok.c and hostile names, all holding BLOB
evil_tree () {
	et_sub_=$(printf "100644 blob %s\tx.c\n" "$2" | git -C "$1" mktree) &&
	et_ok_=$(printf "100644 blob %s\tok.c\n040000 tree %s\t..\n040000 tree %s\t.\n" "$2" "$et_sub_" "$et_sub_" |
		git -C "$1" mktree) &&
	# names with a slash, which git mktree refuses: raw tree bytes
	{
		printf "100644 %s/escape-abs.c\000" "$TRASH_DIRECTORY" &&
		printf "%s" "$2" | sed "s/../\\\\x&/g" | xargs -0 printf &&
		printf "100644 ../../escape-rel.c\000" &&
		printf "%s" "$2" | sed "s/../\\\\x&/g" | xargs -0 printf
	} >raw-entries &&
	git -C "$1" cat-file tree "$et_ok_" >ok-tree &&
	cat raw-entries ok-tree >evil-tree &&
	git -C "$1" hash-object --literally -t tree -w --stdin <evil-tree
}

test_expect_success 'setup: a source, its conversion, and a hostile commit in both' '
	git init -q -b main s &&
	printf "int ok(void)\n{\n\treturn 1;\n}\n" >s/ok.c &&
	git -C s add ok.c &&
	test_tick &&
	git -C s commit -q -m ok &&
	"$TOKSTREAM" convert --quiet s d.git &&
	st=$(evil_tree s $(git -C s rev-parse main:ok.c)) &&
	git -C s ls-tree -r --name-only $st >names &&
	grep -x "\.\./x\.c" names &&
	grep -x "\./x\.c" names &&
	grep -x "$TRASH_DIRECTORY/escape-abs\.c" names &&
	grep -x "\.\./\.\./escape-rel\.c" names &&
	test_tick &&
	sc=$(echo hostile | git -C s commit-tree -p main $st) &&
	dt=$(evil_tree d.git $(git -C d.git rev-parse main:ok.c)) &&
	dc=$(echo hostile | git -C d.git commit-tree -p main $dt) &&
	echo "$sc $dc" >>d.git/tokstream/commit-map &&
	echo $sc >evil-rev
'

test_expect_success 'html: the hostile paths are skipped with a warning; nothing is written outside OUTDIR' '
	snapshot snapshot.before &&
	"$TOKSTREAM" html -C d.git out $(cat evil-rev) 2>err &&
	cat err &&
	for p in ../x.c ./x.c "$TRASH_DIRECTORY/escape-abs.c" ../../escape-rel.c
	do
		grep -F "'"'"'$p'"'"': a path that could leave OUTDIR; skipped" err || return 1
	done &&
	test_path_is_file out/ok.c.html &&
	test_path_is_missing escape-abs.c.html &&
	test_path_is_missing x.c.html &&
	test_path_is_missing ../escape-rel.c.html &&
	find out -name "*x.c*" -o -name "*escape*" >found &&
	test_must_be_empty found &&
	snapshot snapshot.after &&
	test_cmp snapshot.before snapshot.after
'

test_expect_success 'html with symbolic links in OUTDIR pointing out: refused or replaced, never followed' '
	mkdir outside &&
	echo precious >outside/victim &&
	snapshot snapshot.before &&
	mkdir out-links &&
	ln -s "$TRASH_DIRECTORY/outside/victim" out-links/ok.c.html &&
	ln -s "$TRASH_DIRECTORY/outside/victim" out-links/index.html &&
	"$TOKSTREAM" html -C d.git out-links $(cat evil-rev) 2>err &&
	! test -h out-links/ok.c.html &&
	! test -h out-links/index.html &&
	snapshot snapshot.after &&
	test_cmp snapshot.before snapshot.after
'

test_expect_success 'report on the hostile commit: only OUTDIR/index.html is written' '
	snapshot snapshot.before &&
	{ "$TOKSTREAM" report -C d.git out-report $(cat evil-rev) 2>err; echo $? >status; } &&
	cat err &&
	case $(cat status) in
	0) test_path_is_file out-report/index.html ;;
	128) grep "^tokstream: fatal: " err ;;
	*) false ;;
	esac &&
	{ ls -A out-report >listing 2>/dev/null || : >listing; } &&
	{ grep -v -x "index.html" listing >other || true; } &&
	test_must_be_empty other &&
	snapshot snapshot.after &&
	test_cmp snapshot.before snapshot.after
'

test_expect_success 'report with OUTDIR/index.html a symbolic link out: replaced, never followed' '
	snapshot snapshot.before &&
	mkdir out-rlink &&
	ln -s "$TRASH_DIRECTORY/outside/victim" out-rlink/index.html &&
	"$TOKSTREAM" report -C d.git out-rlink main 2>err &&
	test_path_is_file out-rlink/index.html &&
	! test -h out-rlink/index.html &&
	snapshot snapshot.after &&
	test_cmp snapshot.before snapshot.after &&
	echo precious >expect &&
	test_cmp expect outside/victim
'

test_done
