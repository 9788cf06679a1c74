#!/bin/sh

test_description='tokstream token mode: every file becomes its token view

A fixture history with C files and others goes through the filter; the
token repository must have the same commits (messages, identities, dates,
parents) and in each of them the view of every file a lexer claims, as
tokenize writes it, files Git reads itself unchanged, symlinks and
gitlinks unchanged, and nothing else unless --keep-other.'

. ./test-lib.sh

STREAMS="$TEST_DIRECTORY/fixtures/streams"

# convert SRC DEST [OPTIONS]: the whole history of SRC, in token form, into DEST
convert () {
	convert_src_=$1 convert_dst_=$2 &&
	shift 2 &&
	rm -rf "$convert_dst_" &&
	git init -q --bare "$convert_dst_" &&
	git -C "$convert_src_" fast-export --all --signed-tags=strip --reencode=no >"$convert_dst_.export" &&
	"$TOKSTREAM" "$@" <"$convert_dst_.export" >"$convert_dst_.stream" &&
	git -C "$convert_dst_" fast-import --quiet <"$convert_dst_.stream"
}

# subject_map REPO: "id subject" of every commit
subject_map () {
	git -C "$1" log --all --format='%H %s'
}

# token_commit TOKREPO SUBJECT: the id of the commit with that subject
token_commit () {
	git -C "$1" log --all --format='%H %s' | sed -n "s/^\([0-9a-f]*\) $2\$/\1/p"
}

# shape REPO: every commit's subject with the subjects of its parents
shape () {
	subject_map "$1" >map.$$ &&
	git -C "$1" rev-list --all --parents |
	awk 'NR == FNR { id = $1; $1 = ""; s[id] = substr($0, 2); next }
	     { line = s[$1] " <-"; for (i = 2; i <= NF; i++) line = line " [" s[$i] "]"; print line }' \
		map.$$ - | sort &&
	rm -f map.$$
}

# path_of PATH: the file name that PATH, C-quoted or not as ls-tree writes it, names
path_of () {
	case "$1" in
	\"*\")
		po_=${1#\"} &&
		po_=${po_%\"} &&
		printf "$(printf "%s" "$po_" | sed -e "s/%/%%/g" -e "s/\\\\\"/\"/g")"
		;;
	*)
		printf "%s" "$1"
		;;
	esac
}

# expected_tree SRC COMMIT DIR KEEP TOKENIZE-OPTIONS...: the ls-tree lines the
# token tree of COMMIT must have, and in DIR/views the views its files must
# have, computed with tokenize from the source files
expected_tree () {
	et_src_=$1 et_commit_=$2 et_dir_=$3 et_keep_=$4 &&
	shift 4 &&
	rm -rf "$et_dir_" &&
	mkdir -p "$et_dir_/files" "$et_dir_/views" &&
	git -C "$et_src_" ls-tree -r "$et_commit_" >"$et_dir_/ls" &&
	while IFS="	" read -r et_info_ et_path_
	do
		set -- $et_info_ "$@" &&
		et_mode_=$1 et_type_=$2 et_oid_=$3 &&
		shift 3 &&
		et_file_=$(path_of "$et_path_") &&
		case "$et_mode_,$et_file_" in
		120000,*|160000,*|*,.mailmap|*,.gitmodules|*,.gitattributes|*/.gitattributes)
			echo "$et_mode_ $et_type_ $et_oid_	$et_path_"
			continue
			;;
		esac &&
		mkdir -p "$et_dir_/files/$(dirname "$et_file_")" &&
		git -C "$et_src_" cat-file blob $et_oid_ >"$et_dir_/files/$et_file_" &&
		(
			cd "$et_dir_/files" &&
			"$TOKENIZE" "$@" "$et_file_"
		) >"$et_dir_/view" 2>"$et_dir_/err" || return 1
		if grep "no language claims" "$et_dir_/err" >/dev/null
		then
			test -z "$et_keep_" ||
			echo "$et_mode_ $et_type_ $et_oid_	$et_path_"
		else
			mkdir -p "$et_dir_/views/$(dirname "$et_path_")" &&
			mv "$et_dir_/view" "$et_dir_/views/$et_path_" &&
			echo "$et_mode_ blob VIEW	$et_path_"
		fi || return 1
	done <"$et_dir_/ls"
}

# check_tree SRC TOKREPO SUBJECT KEEP TOKENIZE-OPTIONS...: the token commit
# with that subject has exactly the expected tree
check_tree () {
	ct_src_=$1 ct_tok_=$2 ct_subject_=$3 ct_keep_=$4 &&
	shift 4 &&
	ct_scommit_=$(token_commit "$ct_src_" "$ct_subject_") &&
	ct_tcommit_=$(token_commit "$ct_tok_" "$ct_subject_") &&
	test -n "$ct_scommit_" && test -n "$ct_tcommit_" &&
	expected_tree "$ct_src_" $ct_scommit_ exp "$ct_keep_" "$@" >exp.ls &&
	git -C "$ct_tok_" ls-tree -r $ct_tcommit_ >tok.ls &&
	# views are compared by content, below; the rest by id
	while IFS="	" read -r ct_info_ ct_path_
	do
		if test -f "exp/views/$ct_path_"
		then
			echo "${ct_info_%% *} blob VIEW	$ct_path_"
		else
			echo "$ct_info_	$ct_path_"
		fi
	done <tok.ls >tok.cmp &&
	test_cmp exp.ls tok.cmp &&
	while IFS="	" read -r ct_info_ ct_path_
	do
		if test -f "exp/views/$ct_path_"
		then
			git -C "$ct_tok_" cat-file blob "$ct_tcommit_:$(path_of "$ct_path_")" >tok.view &&
			test_cmp "exp/views/$ct_path_" tok.view || return 1
		fi
	done <tok.ls
}

# check_all SRC TOKREPO KEEP TOKENIZE-OPTIONS...: check_tree for every commit
# but those of notes (their trees are named by the ids of the notes'' commits)
check_all () {
	ca_src_=$1 ca_tok_=$2 ca_keep_=$3 &&
	shift 3 &&
	git -C "$ca_src_" log --exclude="refs/notes/*" --all --format=%s >subjects &&
	test_file_not_empty subjects &&
	while read -r ca_subject_
	do
		check_tree "$ca_src_" "$ca_tok_" "$ca_subject_" "$ca_keep_" "$@" || {
			echo "in the commit '$ca_subject_'"
			return 1
		}
	done <subjects
}

test_expect_success 'setup: a history of C files and others, by three authors' '
	git init -q src &&
	(
		cd src &&
		cat >f.c <<-\EOF &&
		#include "inc/f.h"

		/* add   one,	loudly */
		int add_one(int a)
		{
			return a + 1;
		}
		EOF
		mkdir inc sub &&
		printf "int add_one(int a);\n" >inc/f.h &&
		printf "x\000y\n" >data.bin &&
		echo "some notes" >notes.xyz &&
		echo "Alice <alice@example.com> <alice@old.example.com>" >.mailmap &&
		echo "*.c diff=cpp" >.gitattributes &&
		echo "* -text" >sub/.gitattributes &&
		echo "not a mailmap here" >sub/.mailmap &&
		ln -s f.c link.c &&
		ln -s inc link-dir &&
		printf "#!/usr/bin/env python3\nprint(\"hi\")\n" >tool &&
		chmod +x tool &&
		git add . &&
		git update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,lib &&
		printf "[submodule \"lib\"]\n\tpath = lib\n\turl = ./lib\n" >.gitmodules &&
		git add .gitmodules &&
		commit_as --mail=Alice@example.com Alice -m "C files, data, notes, links and a submodule" &&

		sed -e "s/a + 1/a + 2/" f.c >f.c.new &&
		mv f.c.new f.c &&
		printf "int add_one(int a);\n" >g.h &&
		cp f.c f.cpp &&
		printf "int exe(void) { return 1; }\n" >exe.c &&
		chmod +x exe.c &&
		git add f.c g.h f.cpp exe.c &&
		commit_as --mail=Bob@example.com Bob -m "add two, a header again and the same source as C++" &&

		git checkout -q -b side &&
		echo "int side(void);" >>inc/f.h &&
		printf "int x = 1;\n" >x.c &&
		git add inc/f.h x.c &&
		commit_as --mail=Carol@example.com Carol -m "on the side" &&

		git checkout -q main &&
		echo "more notes" >>notes.xyz &&
		git add notes.xyz &&
		git rm -q --cached data.bin &&
		rm data.bin &&
		commit_as --mail=Alice@example.com Alice -m "notes grow, data goes" &&
		test_tick &&
		git merge -q --no-edit -m "merge the side" side &&

		printf "int x = 1;\000 binary now\n" >x.c &&
		git add x.c &&
		commit_as --mail=Bob@example.com Bob -m "x.c becomes binary" &&
		git rm -q link.c &&
		commit_as --mail=Carol@example.com Carol -m "the C symlink goes" &&
		git tag -a -m "the first release" v1 &&
		git tag light HEAD~2
	) &&
	git -C src rev-list --all >commits &&
	test_line_count = 7 commits
'

test_expect_success 'conversion succeeds' '
	convert src tok &&
	git -C tok fsck --no-progress &&
	grep "^M 120000 " tok.export
'

test_expect_success 'commits map one to one: messages, identities, dates, order' '
	git -C src log --all --format="%an %ae %ad %cn %ce %cd %s" --topo-order >expect &&
	git -C tok log --all --format="%an %ae %ad %cn %ce %cd %s" --topo-order >actual &&
	test_line_count = 7 actual &&
	test_cmp expect actual &&
	git -C src log --all --format="%B%x00" --topo-order >expect &&
	git -C tok log --all --format="%B%x00" --topo-order >actual &&
	test_cmp expect actual
'

test_expect_success 'the parent structure is the same' '
	shape src >expect &&
	shape tok >actual &&
	test_cmp expect actual &&
	grep "^merge the side <- \[notes grow, data goes\] \[on the side\]$" actual &&
	git -C src for-each-ref --format="%(refname) %(objecttype)" >expect &&
	git -C tok for-each-ref --format="%(refname) %(objecttype)" >actual &&
	test_cmp expect actual &&
	test "$(git -C tok cat-file tag v1 | sed -n "\$p")" = "the first release" &&
	test "$(git -C tok log -1 --format=%s light)" = "merge the side"
'

test_expect_success 'every tree: views of claimed files, Git files and links kept, others dropped' '
	check_all src tok ""
'

test_expect_success 'the views are the tokenize output of the original (spot check)' '
	c=$(token_commit tok "add two, a header again and the same source as C++") &&
	git -C tok cat-file blob $c:f.c >actual &&
	git -C src show $(token_commit src "add two, a header again and the same source as C++"):f.c >f.c &&
	"$TOKENIZE" f.c >expect &&
	test_cmp expect actual &&
	grep "^add_one$" actual &&
	grep "^2$" actual &&
	grep "^/\* add one, loudly \*/$" actual &&
	git -C tok ls-tree $c >tree &&
	grep "^100755 blob [0-9a-f]*	exe.c$" tree &&
	git -C tok cat-file blob $c:tool >tool.view &&
	grep "^print$" tool.view
'

test_expect_success 'unclaimed files are dropped by default' '
	git -C tok log --all --format= --name-only >paths &&
	! grep "^data.bin$" paths &&
	! grep "^notes.xyz$" paths &&
	! grep "^sub/.mailmap$" paths &&
	grep "^f.c$" paths
'

test_expect_success '--keep-other keeps them, unchanged' '
	convert src keep --keep-other &&
	check_all src keep t &&
	c=$(token_commit keep "C files, data, notes, links and a submodule") &&
	test $(git -C keep rev-parse $c:data.bin) = $(git -C src rev-parse "$(token_commit src "C files, data, notes, links and a submodule")":data.bin) &&
	git -C keep cat-file blob $c:f.c >view &&
	grep "^add_one$" view
'

test_expect_success '.mailmap, .gitmodules and .gitattributes are kept unchanged' '
	for f in .mailmap .gitmodules .gitattributes sub/.gitattributes
	do
		test $(git -C tok rev-parse main:$f) = $(git -C src rev-parse main:$f) || return 1
	done &&
	git -C tok ls-tree main lib >lib &&
	echo "160000 commit 1111111111111111111111111111111111111111	lib" >expect &&
	test_cmp expect lib
'

test_expect_success 'symlinks stay symlinks with the same target' '
	c=$(token_commit tok "merge the side") &&
	git -C tok ls-tree $c link.c link-dir >actual &&
	git -C src ls-tree $(token_commit src "merge the side") link.c link-dir >expect &&
	test_cmp expect actual &&
	grep "^120000 blob" actual &&
	test "$(git -C tok cat-file blob $c:link.c)" = f.c
'

test_expect_success 'a blob that becomes binary at a path is deleted from the token tree' '
	c=$(token_commit tok "merge the side") &&
	git -C tok cat-file blob $c:x.c >view &&
	grep "^int$" view &&
	c=$(token_commit tok "x.c becomes binary") &&
	test_must_fail git -C tok cat-file -e $c:x.c &&
	git -C tok diff-tree --name-status $c^ $c >diff &&
	printf "D\tx.c\n" >expect &&
	test_cmp expect diff &&
	grep "^D x.c$" tok.stream
'

test_expect_success '--lang=none:*.c drops C files' '
	convert src nonec --lang=none:*.c &&
	check_all src nonec "" --lang=none:*.c &&
	git -C nonec ls-tree -r --name-only main >paths &&
	! grep "\.c$" paths &&
	grep "^inc/f.h$" paths &&
	grep "^f.cpp$" paths &&
	grep "^link-dir$" paths
'

test_expect_success '--lang=c:*.xyz tokenizes .xyz files' '
	convert src xyz "--lang=c:*.xyz" &&
	check_all src xyz "" "--lang=c:*.xyz" &&
	git -C xyz cat-file blob main:notes.xyz >actual &&
	git -C src show main:notes.xyz >notes.xyz &&
	"$TOKENIZE" -l c notes.xyz >expect &&
	test_cmp expect actual &&
	printf "some\nnotes\nmore\nnotes\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--exact-comments keeps the whitespace inside comments' '
	convert src exact --exact-comments &&
	check_all src exact "" --exact-comments &&
	git -C exact cat-file blob main:f.c >actual &&
	printf "/* add   one,\tloudly */\n" >expect &&
	grep -F -x -f expect actual &&
	git -C tok cat-file blob main:f.c >folded &&
	! grep -F -x -f expect folded
'

test_expect_success 'the same blob under two paths of one language is tokenized once' '
	git init -q dup &&
	(
		cd dup &&
		printf "int same(void) { return 7; }\n" >a.c &&
		cp a.c b.h &&
		mkdir d &&
		cp a.c d/c.c &&
		git add . &&
		commit_as --mail=Alice@example.com Alice -m one
	) &&
	git -C dup fast-export --all >dup.export &&
	"$TOKSTREAM" --stats <dup.export >dup.stream 2>stats &&
	grep "^tokstream: blobs in 1, token blobs out 1," stats &&
	tokens=$("$TOKENIZE" dup/a.c | wc -l) &&
	test $tokens = 10 &&
	grep "^tokstream: c  *files 1, tokens $tokens$" stats &&
	test $(grep -c "^blob$" dup.stream) = 1
'

test_expect_success 'under two languages, twice' '
	(
		cd dup &&
		cp a.c a.cpp &&
		git add a.cpp &&
		commit_as --mail=Bob@example.com Bob -m two
	) &&
	git -C dup fast-export --all >dup.export &&
	"$TOKSTREAM" --stats <dup.export >dup.stream 2>stats &&
	grep "^tokstream: blobs in 1, token blobs out 2," stats &&
	grep "^tokstream: c  *files 1, tokens 10$" stats &&
	grep "^tokstream: c++  *files 1, tokens 10$" stats &&
	test $(grep -c "^blob$" dup.stream) = 2
'

test_expect_success 'a rename that changes the language: a clear error with -M, fine without' '
	git init -q ren &&
	(
		cd ren &&
		printf "int renamed;\n" >notes.xyz &&
		printf "int kept;\n" >a.c &&
		git add . &&
		commit_as --mail=Alice@example.com Alice -m "before the rename" &&
		git mv notes.xyz notes.c &&
		git mv a.c b.c &&
		commit_as --mail=Bob@example.com Bob -m "the rename"
	) &&
	git -C ren fast-export -M --all >ren-M.export &&
	grep "^R notes.xyz notes.c$" ren-M.export &&
	test_expect_code 128 "$TOKSTREAM" <ren-M.export >out 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: line [0-9]*: commit: renaming .notes.xyz. to .notes.c. " err &&
	grep "export without -M and -C" err &&
	! grep "^done$" out &&
	convert ren ren-tok &&
	git -C ren-tok cat-file blob main:notes.c >actual &&
	printf "int\nrenamed\n;\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a rename within one language passes through with -M' '
	sed -n "/^R /p" ren-M.export >renames &&
	grep "^R a.c b.c$" renames &&
	git -C ren fast-export -M --all | sed "/^R notes.xyz notes.c$/d" >ren-M2.export &&
	"$TOKSTREAM" <ren-M2.export >ren-M2.stream &&
	grep "^R a.c b.c$" ren-M2.stream &&
	git init -q --bare ren-M2 &&
	git -C ren-M2 fast-import --quiet <ren-M2.stream &&
	git -C ren-M2 cat-file blob main:b.c >actual &&
	printf "int\nkept\n;\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'paths with a newline: each is known whole, not by its first line' '
	git init -q nl &&
	(
		cd nl &&
		printf "data\n" >"$(printf "x\ndata.unknownext")" &&
		printf "int kept;\n" >"$(printf "x\nsrc.c")" &&
		git add . &&
		commit_as --mail=Alice@example.com Alice -m "two files under one first line" &&
		git mv "$(printf "x\ndata.unknownext")" z.unknownext &&
		git mv "$(printf "x\nsrc.c")" y.c &&
		commit_as --mail=Bob@example.com Bob -m "both renamed"
	) &&
	git -C nl fast-export -M --all >nl.export &&
	grep "^R \"x\\\\ndata.unknownext\" z.unknownext$" nl.export &&
	grep "^R \"x\\\\nsrc.c\" y.c$" nl.export &&
	"$TOKSTREAM" <nl.export >nl.stream &&
	# the dropped file has no view to rename: its new path is deleted
	grep "^D z.unknownext$" nl.stream &&
	git init -q --bare nl-tok &&
	git -C nl-tok fast-import --quiet <nl.stream &&
	git -C nl-tok ls-tree --name-only main >actual &&
	echo y.c >expect &&
	test_cmp expect actual
'

test_expect_success 'gpgsig headers are dropped, signatures at the end of tag messages removed' '
	"$TOKSTREAM" <"$STREAMS/signed.stream" >signed.out &&
	! grep -a "gpgsig" signed.out &&
	! grep -a "BEGIN PGP SIGNATURE-----$" signed.out &&
	! grep -a "BEGIN SSH SIGNATURE" signed.out &&
	git init -q --bare signed &&
	git -C signed fast-import --quiet <signed.out &&
	git -C signed cat-file commit main~1 >c1 &&
	! grep "^gpgsig" c1 &&
	test "$(git -C signed log -1 --format=%s main~1)" = "a signed commit" &&
	git -C signed cat-file commit main >c2 &&
	grep "^encoding UTF-8$" c2 &&
	git -C signed cat-file tag v1 | sed "1,/^$/d" >msg1 &&
	printf "version 1\n\nThe line below is not a signature:\n  -----BEGIN PGP SIGNATURE----- (quoted)\n" >expect &&
	test_cmp expect msg1 &&
	git -C signed cat-file tag v2 | sed "1,/^$/d" >msg2 &&
	echo "an SSH-signed tag" >expect &&
	test_cmp expect msg2 &&
	git -C signed cat-file tag v3 | sed "1,/^$/d" >msg3 &&
	echo "not signed" >expect &&
	test_cmp expect msg3 &&
	git -C signed cat-file blob main:main.c >view &&
	grep "^main$" view
'

test_expect_success '--stats prints commits, blobs, bytes and per-language counts' '
	"$TOKSTREAM" --stats <tok.export >stats.stream 2>stats &&
	cat stats &&
	commits=$(git -C src rev-list --all | wc -l) &&
	tags=$(grep -c "^tag " tok.export) &&
	grep "^tokstream: commits $commits, tags $tags, resets [0-9]*$" stats &&
	blobs=$(grep -c "^blob$" tok.export) &&
	views=$(grep -c "^mark :[0-9]\{13,\}$" stats.stream) &&
	test $views -gt 5 &&
	grep "^tokstream: blobs in $blobs, token blobs out $views, unchanged blobs out [0-9]*, files dropped [0-9]*$" stats &&
	grep "^tokstream: bytes in $(wc -c <tok.export), bytes out $(wc -c <stats.stream)$" stats &&
	grep "^tokstream: c  *files [0-9]*, tokens [0-9]*$" stats &&
	grep "^tokstream: c++  *files 1, tokens [0-9]*$" stats &&
	grep "^tokstream: python  *files 1, tokens [0-9]*$" stats &&
	# the files and tokens of all languages add up to the views written
	sed -n "s/^tokstream: [^ ]*  *files \([0-9]*\), tokens \([0-9]*\)$/\1 \2/p" stats >counts &&
	test $(awk "{ f += \$1 } END { print f }" counts) = $views &&
	grep "^tokstream: cpu [0-9]*\.[0-9][0-9][0-9] s, git commands it ran [0-9]*\.[0-9][0-9][0-9] s$" stats &&
	cmp stats.stream tok.stream
'

test_expect_success '--progress reports on stderr; --quiet silences progress and stats' '
	"$TOKSTREAM" --progress <tok.export >progress.stream 2>progress &&
	cmp progress.stream tok.stream &&
	grep "^tokstream: .*7 commits.*done\.$" progress &&
	"$TOKSTREAM" --stats --progress --quiet <tok.export >quiet.stream 2>quiet &&
	cmp quiet.stream tok.stream &&
	test_must_be_empty quiet &&
	"$TOKSTREAM" <tok.export >plain.stream 2>plain &&
	test_must_be_empty plain
'

test_expect_success '"feature done" is the first line and "done" the last' '
	head -n 1 tok.stream >first &&
	echo "feature done" >expect &&
	test_cmp expect first &&
	tail -n 1 tok.stream >last &&
	echo done >expect &&
	test_cmp expect last &&
	test $(grep -c "^feature done$" tok.stream) = 1 &&
	! grep "^feature done$" tok.export
'

test_expect_success 'input with "feature done" keeps it once, where it was' '
	git -C src fast-export --all --use-done-feature >done.export &&
	head -n 1 done.export >first &&
	echo "feature done" >expect &&
	test_cmp expect first &&
	"$TOKSTREAM" <done.export >done.stream &&
	test $(grep -c "^feature done$" done.stream) = 1 &&
	test_cmp tok.stream done.stream &&
	printf "option git quiet\nfeature done\nreset refs/heads/x\nfrom 1111111111111111111111111111111111111111\n\ndone\n" >opt.export &&
	"$TOKSTREAM" <opt.export >opt.stream &&
	printf "option git quiet\nfeature done\nreset refs/heads/x\nfrom 1111111111111111111111111111111111111111\ndone\n" >expect &&
	test_cmp expect opt.stream
'

test_expect_success 'fast-export --no-data: blobs read from the repository in the current directory' '
	git -C src fast-export --all --signed-tags=strip --reencode=no --no-data >nodata.export &&
	grep "^M 100644 [0-9a-f]\{40\} f.c$" nodata.export &&
	! grep "^blob$" nodata.export &&
	(
		cd src &&
		"$TOKSTREAM" <../nodata.export >../nodata.stream
	) &&
	git init -q --bare nodata &&
	git -C nodata fast-import --quiet <nodata.stream &&
	git -C tok for-each-ref >expect &&
	git -C nodata for-each-ref >actual &&
	test_cmp expect actual
'

test_expect_success 'fast-export --no-data: blobs read with --source=GITDIR' '
	"$TOKSTREAM" --source=src/.git <nodata.export >source.stream &&
	test_cmp nodata.stream source.stream &&
	"$TOKSTREAM" --source src <nodata.export >source2.stream &&
	test_cmp nodata.stream source2.stream
'

test_expect_success 'fast-export --no-data without a source: a clear error' '
	test_expect_code 128 "$TOKSTREAM" <nodata.export >out 2>err &&
	cat err &&
	grep "^tokstream: fatal: line [0-9]*: commit: object [0-9a-f]\{40\} is not in the stream" err &&
	grep -e "--source=GITDIR" err &&
	test $(grep -c "^tokstream: fatal" err) = 1 &&
	! grep "^done$" out &&
	git init -q empty &&
	test_expect_code 128 "$TOKSTREAM" --source=empty <nodata.export >out 2>err &&
	grep "^tokstream: fatal: .*is not in the stream, nor in the source repository empty" err &&
	! grep "^done$" out
'

for stream in delimited inline copy-rename misc comments signed
do
	test_expect_success "hand-written stream $stream.stream converts to tokens" '
		git init -q --bare plain-'$stream' &&
		if test '$stream' != signed
		then
			git -C plain-'$stream' fast-import --quiet <"$STREAMS/'$stream'.stream"
		fi &&
		# a commit named by its id exists only in the unfiltered import: by mark here
		sed "s/^merge 306e2e70074a63c8c3aa2ef074ddf26622ce56f5$/merge :10/" \
			"$STREAMS/'$stream'.stream" >'$stream'.input &&
		"$TOKSTREAM" --source=plain-'$stream' <'$stream'.input >tok-'$stream'.stream &&
		tail -n 1 tok-'$stream'.stream >last &&
		echo done >expect &&
		test_cmp expect last &&
		git init -q --bare tok-'$stream' &&
		git -C tok-'$stream' fast-import --quiet <tok-'$stream'.stream &&
		test $(git -C tok-'$stream' rev-list --all | wc -l) = $(grep -c "^commit " "$STREAMS/'$stream'.stream") &&
		if test '$stream' != signed
		then
			check_all plain-'$stream' tok-'$stream' ""
		fi
	'
done

test_expect_success 'hand-written streams: inline data and trees named by id become views' '
	git -C tok-inline cat-file blob main:program.c >actual &&
	printf "int main(void) { return 0; }\n" >program.c &&
	"$TOKENIZE" program.c >expect &&
	test_cmp expect actual &&
	git -C tok-inline ls-tree -r main >tree &&
	grep "^120000 blob [0-9a-f]*	link$" tree &&
	test "$(git -C tok-inline notes show main~1)" = "a first note" &&
	git -C tok-misc ls-tree -r side >tree &&
	grep "	copy-of-dir/x.c$" tree &&
	grep "	dir/x.c$" tree &&
	git -C tok-misc cat-file blob side:copy-of-dir/x.c >actual &&
	printf "int\nx\n;\n" >expect &&
	test_cmp expect actual &&
	git -C tok-misc cat-file blob side:dir/x.c >actual &&
	test_cmp expect actual &&
	grep "^160000 commit 1111111111111111111111111111111111111111	sub$" tree
'

test_expect_success 'a rename or copy of a dropped file moves nothing and leaves no view' '
	cat >dropped.stream <<-\EOF &&
	blob
	mark :1
	data 4
	bin

	blob
	mark :2
	data 12
	int x = 1;

	commit refs/heads/main
	mark :3
	committer C O Mitter <c@example.com> 1700000000 +0000
	data 2
	a
	M 100644 :1 notes.xyz
	M 100644 :2 other.c

	commit refs/heads/main
	mark :4
	committer C O Mitter <c@example.com> 1700000060 +0000
	data 2
	b
	from :3
	C notes.xyz copy.xyz
	R notes.xyz moved.xyz

	done
	EOF
	"$TOKSTREAM" <dropped.stream >dropped.out &&
	grep "^D moved.xyz$" dropped.out &&
	grep "^D copy.xyz$" dropped.out &&
	! grep "^[RC] " dropped.out &&
	git init -q --bare dropped.git &&
	git -C dropped.git fast-import --quiet <dropped.out &&
	git -C dropped.git ls-tree -r --name-only main >tree &&
	echo other.c >expect &&
	test_cmp expect tree
'

test_expect_success 'notes follow their commits into the token repository, and a removed note goes' '
	git init -q notes-src &&
	echo "int a;" >notes-src/a.c &&
	git -C notes-src add a.c && git -C notes-src commit -qm one &&
	git -C notes-src notes add -m "first note" &&
	echo "int b;" >>notes-src/a.c &&
	git -C notes-src commit -qam two &&
	git -C notes-src notes add -m "second note" &&
	git -C notes-src notes add -m "a note to remove" HEAD~1 -f &&
	git -C notes-src notes remove HEAD~1 &&
	git -C notes-src notes add -m "a note kept" HEAD~1 &&
	git -C notes-src fast-export --all --show-original-ids --reencode=no >notes.stream &&
	"$TOKSTREAM" <notes.stream >notes.out &&
	grep "^N :" notes.out &&
	git init -q --bare notes.git &&
	git -C notes.git fast-import --quiet <notes.out &&
	git -C notes.git notes show main >actual &&
	echo "second note" >expect && test_cmp expect actual &&
	git -C notes.git notes show main~1 >actual &&
	echo "a note kept" >expect && test_cmp expect actual &&
	git -C notes.git notes list >list &&
	test_line_count = 2 list
'

test_done
