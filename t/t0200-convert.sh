#!/bin/sh

test_description='tokstream convert: a token repository from a git repository

convert runs git fast-export, the filter and git fast-import itself, with
no shell between, into a bare DEST: this checks the commit map (every
source commit once, each token commit with the same message, identities
and parents), the refs (branches, annotated and lightweight tags, notes,
HEAD), the trees (token views of the files, renames and deletions), paths
with spaces, quotes and a leading dash, the recorded filter options, the
progress display, and the errors for bad sources and destinations.'

. ./test-lib.sh

# map_tok ORIG MAPFILE: the token commit of ORIG
map_tok () {
	awk -v o="$1" '$1 == o { print $2 }' "$2"
}

# refs REPO: refname, type and target of every ref, one a line
refs () {
	git -c safe.directory="*" -C "$1" for-each-ref --format='%(refname) %(objecttype) %(objectname)'
}

SRC='-weird dir'
DEST="dest 'q' \"dq\".git"

# src_commit LINE MESSAGE: a commit in the source that appends LINE to
# src/main.c
src_commit () {
	(
		cd "./$SRC" &&
		echo "$1" >>src/main.c &&
		git add src/main.c &&
		commit_as - -m "$2"
	)
}

test_expect_success 'setup: a history with branches, a merge, tags, renames, deletions, notes' '
	git init -q -b trunk "./$SRC" &&
	(
		cd "./$SRC" &&
		mkdir src lib &&
		printf "int main(void)\n{\n\treturn 0;\n}\n" >src/main.c &&
		printf "/* a b */\nint ab = 1;\n" >"lib/a b.c" &&
		printf "s = \"quoted\"  # q\n" >"q\"uote.py" &&
		printf "int old_one;\n" >old.c &&
		printf "int lead;\n" >./-lead.c &&
		printf "\001\000\002binary" >data.bin &&
		printf "free text\n" >notes.unknown &&
		git add . &&
		test_tick &&
		git commit -q -m "first: the files" &&
		printf "int helper(int x) { return x + 1; }\n" >>src/main.c &&
		git add src/main.c &&
		test_tick &&
		git commit -q -m "second: a helper" &&
		test_tick &&
		git tag -a v1.0 -m "release 1.0" &&
		git checkout -q -b "topic/feature" &&
		printf "def feature():\n    return 42\n" >feature.py &&
		git add feature.py &&
		test_tick &&
		git commit -q -m "feature: a python file" &&
		git checkout -q trunk &&
		git mv "lib/a b.c" "lib/renamed b.c" &&
		git rm -q old.c &&
		test_tick &&
		git commit -q -m "rename a b.c, delete old.c" &&
		git tag light &&
		test_tick &&
		git merge -q --no-ff -m "merge the feature" "topic/feature" &&
		test_tick &&
		git notes add -m "a note on the merge" HEAD &&
		test_tick &&
		git tag -a nested -m "a tag of a tag" v1.0 &&
		git branch side HEAD~1
	) &&
	git -C "./$SRC" rev-list --all >all-commits &&
	test_line_count = 6 all-commits
'

test_expect_success 'convert creates a bare DEST from a source whose path has a space and a leading dash' '
	"$TOKSTREAM" convert --quiet "./$SRC" "$DEST" 2>err &&
	test_must_be_empty err &&
	test "$(git -C "$DEST" rev-parse --is-bare-repository)" = true &&
	git -C "$DEST" fsck --no-progress --strict 2>fsck-err &&
	test_must_be_empty fsck-err
'

test_expect_success 'the source path is taken as a path after --, even with a leading dash' '
	"$TOKSTREAM" convert --quiet -- "$SRC" dashdash.git &&
	refs "$DEST" >expect &&
	refs dashdash.git >actual &&
	test_cmp expect actual
'

test_expect_success 'a source path with a leading dash and no -- is not taken for an option' '
	test_expect_code 129 "$TOKSTREAM" convert "$SRC" notmade.git 2>err &&
	grep "unknown option .-weird dir." err &&
	test_path_is_missing notmade.git
'

test_expect_success 'convert into an existing empty bare repository' '
	git init -q --bare empty.git &&
	"$TOKSTREAM" convert --quiet "./$SRC" empty.git &&
	refs "$DEST" >expect &&
	refs empty.git >actual &&
	test_cmp expect actual
'

test_expect_success 'convert into a bare repository that has refs: DEST mirrors the source' '
	git clone -q --bare "./$SRC" has-refs.git &&
	git -C has-refs.git update-ref refs/heads/foreign trunk &&
	"$TOKSTREAM" convert --quiet "./$SRC" has-refs.git &&
	refs "$DEST" >expect &&
	refs has-refs.git >actual &&
	test_cmp expect actual &&
	test "$(readlink has-refs.git/packed-refs)" = tokstream/current/packed-refs &&
	test -z "$(find has-refs.git/refs -type f)"
'

test_expect_success 'commit-map is a symlink into the current generation' '
	test -h "$DEST/tokstream/commit-map" &&
	test -h "$DEST/tokstream/current" &&
	test "$(readlink "$DEST/tokstream/commit-map")" = current/commit-map &&
	gen=$(readlink "$DEST/tokstream/current") &&
	test -d "$DEST/tokstream/$gen" &&
	test_cmp "$DEST/tokstream/$gen/commit-map" "$DEST/tokstream/commit-map"
'

test_expect_success 'the map has one line ORIGINAL TOKEN per source commit, full ids' '
	cp "$DEST/tokstream/commit-map" map &&
	! grep -v "^[0-9a-f]\{40\} [0-9a-f]\{40\}$" map &&
	cut -d" " -f1 map | sort >orig &&
	sort all-commits >expect &&
	test_cmp expect orig &&
	cut -d" " -f2 map | sort -u >tok &&
	test_line_count = 6 tok
'

test_expect_success 'each token commit has the message, author and committer of its original' '
	while read orig tok
	do
		test "$(git -C "$DEST" cat-file -t $tok)" = commit &&
		git -C "./$SRC" log -1 --format="%an <%ae> %ad%n%cn <%ce> %cd%n%B" $orig >expect &&
		git -C "$DEST" log -1 --format="%an <%ae> %ad%n%cn <%ce> %cd%n%B" $tok >actual &&
		test_cmp expect actual || return 1
	done <map
'

test_expect_success 'each token commit has the token commits of its original parents, in order' '
	while read orig tok
	do
		for p in $(git -C "./$SRC" rev-parse $orig^@)
		do
			map_tok $p map || return 1
		done >expect &&
		git -C "$DEST" rev-parse $tok^@ >actual &&
		test_cmp expect actual || return 1
	done <map
'

test_expect_success 'DEST has the same ref names as the source' '
	git -C "./$SRC" for-each-ref --format="%(refname)" >expect &&
	git -C "$DEST" for-each-ref --format="%(refname)" >actual &&
	test_cmp expect actual &&
	grep "^refs/notes/commits$" actual &&
	grep "^refs/heads/topic/feature$" actual
'

test_expect_success 'branches and lightweight tags point at the token commits of theirs' '
	for r in refs/heads/trunk refs/heads/side refs/heads/topic/feature refs/tags/light
	do
		test "$(git -C "$DEST" cat-file -t $r)" = commit &&
		test "$(git -C "$DEST" rev-parse $r)" = \
			"$(map_tok $(git -C "./$SRC" rev-parse $r) map)" || return 1
	done
'

test_expect_success 'annotated tags are tag objects with the message and tagger, on the token commit' '
	for t in v1.0 nested
	do
		test "$(git -C "$DEST" cat-file -t refs/tags/$t)" = tag &&
		test "$(git -C "$DEST" rev-parse refs/tags/$t^{commit})" = \
			"$(map_tok $(git -C "./$SRC" rev-parse refs/tags/$t^{commit}) map)" &&
		git -C "./$SRC" for-each-ref --format="%(taggername) %(taggerdate:raw) %(contents)" refs/tags/$t >expect &&
		git -C "$DEST" for-each-ref --format="%(taggername) %(taggerdate:raw) %(contents)" refs/tags/$t >actual &&
		test_cmp expect actual || return 1
	done &&
	git -C "$DEST" cat-file -p refs/tags/nested >nested &&
	grep "^type tag$" nested &&
	grep "^object $(git -C "$DEST" rev-parse refs/tags/v1.0)$" nested
'

test_expect_success 'the notes ref is there, on the token commit of its original' '
	test "$(git -C "$DEST" rev-parse refs/notes/commits)" = \
		"$(map_tok $(git -C "./$SRC" rev-parse refs/notes/commits) map)"
'

test_expect_success 'a note is attached to the token commit, though fast-export names it by the original id' '
	echo "a note on the merge" >expect &&
	git -C "$DEST" notes show trunk >actual &&
	test_cmp expect actual
'

test_expect_success 'HEAD of DEST names the branch HEAD of the source names' '
	test "$(git -C "$DEST" symbolic-ref HEAD)" = refs/heads/trunk
'

test_expect_success 'the trees hold token views of the files, renames and deletions applied' '
	git -C "$DEST" ls-tree -r -z --name-only trunk | tr "\000" "\n" >actual &&
	test_write_lines ./-lead.c feature.py "lib/renamed b.c" "q\"uote.py" src/main.c | sed "s|^\./||" >expect &&
	test_cmp expect actual &&
	(
		cd "./$SRC" &&
		for f in ./-lead.c feature.py "lib/renamed b.c" "q\"uote.py" src/main.c
		do
			"$TOKENIZE" "$f" >../expect &&
			git -C "../$DEST" cat-file blob "trunk:${f#./}" >../actual &&
			test_cmp ../expect ../actual || return 1
		done
	) &&
	git -C "$DEST" ls-tree -r -z --name-only v1.0 | tr "\000" "\n" >actual &&
	test_write_lines ./-lead.c "lib/a b.c" old.c "q\"uote.py" src/main.c | sed "s|^\./||" >expect &&
	test_cmp expect actual
'

test_expect_success 'a file no lexer claims and a binary file are dropped by default' '
	git -C "$DEST" ls-tree -r --name-only trunk >files &&
	! grep -e notes.unknown -e data.bin files
'

test_expect_success 'the filter options are recorded in DEST/tokstream/current/config' '
	"$TOKSTREAM" convert --quiet --lang=python:*.unknown --keep-other "./$SRC" opts.git &&
	cat opts.git/tokstream/current/config >config &&
	grep "^option --lang=python:\*\.unknown$" config &&
	grep "^option --keep-other$" config &&
	! grep "^option" "$DEST/tokstream/current/config" &&
	git -C opts.git cat-file blob trunk:data.bin >actual &&
	git -C "./$SRC" cat-file blob trunk:data.bin >expect &&
	test_cmp expect actual &&
	"$TOKENIZE" -l python "./$SRC/notes.unknown" >expect &&
	git -C opts.git cat-file blob trunk:notes.unknown >actual &&
	test_cmp expect actual
'

test_expect_success 'an update without options reuses the recorded ones' '
	(
		cd "./$SRC" &&
		printf "x = 1 + 2\n" >more.unknown &&
		printf "\000\377" >more.bin &&
		git add more.unknown more.bin &&
		test_tick &&
		git commit -q -m "more files of both kinds"
	) &&
	"$TOKSTREAM" convert --quiet "./$SRC" opts.git &&
	test_write_lines x = 1 + 2 >expect &&
	git -C opts.git cat-file blob trunk:more.unknown >actual &&
	test_cmp expect actual &&
	git -C opts.git cat-file blob trunk:more.bin >actual &&
	printf "\000\377" >expect &&
	cmp expect actual &&
	grep "^option --keep-other$" opts.git/tokstream/current/config
'

test_expect_success 'the same options given again are accepted' '
	"$TOKSTREAM" convert --quiet --lang=python:*.unknown --keep-other "./$SRC" opts.git
'

test_expect_success 'other options on an update are refused: convert afresh' '
	refs opts.git >before &&
	readlink opts.git/tokstream/current >gen-before &&
	test_expect_code 128 "$TOKSTREAM" convert --exact-comments "./$SRC" opts.git 2>err &&
	grep "other options" err &&
	grep "convert afresh" err &&
	test_expect_code 128 "$TOKSTREAM" convert --keep-other "./$SRC" opts.git 2>err &&
	grep "convert afresh" err &&
	refs opts.git >after &&
	test_cmp before after &&
	readlink opts.git/tokstream/current >gen-after &&
	test_cmp gen-before gen-after
'

test_expect_success 'a bad --lang is a usage error before anything is made' '
	test_expect_code 129 "$TOKSTREAM" convert --lang=nosuchlanguage:*.x "./$SRC" badlang.git 2>err &&
	grep nosuchlanguage err &&
	test_path_is_missing badlang.git
'

test_expect_success 'the separate form --lang LANG:GLOB is recorded as --lang=LANG:GLOB' '
	"$TOKSTREAM" convert --quiet --lang python:*.unknown "./$SRC" sep.git &&
	grep "^option --lang=python:\*\.unknown$" sep.git/tokstream/current/config &&
	"$TOKENIZE" -l python "./$SRC/notes.unknown" >expect &&
	git -C sep.git cat-file blob trunk:notes.unknown >actual &&
	test_cmp expect actual
'

test_expect_success '--progress shows commits N/M on stderr even when it is not a terminal' '
	"$TOKSTREAM" convert --progress "./$SRC" progress.git 2>err &&
	n=$(git -C "./$SRC" rev-list --all --count) &&
	grep "commits [0-9]*/$n " err &&
	grep "commits $n/$n .*done" err
'

test_expect_success '--progress on an update counts only the new commits' '
	src_commit "int two_more;" "one more" &&
	src_commit "int three_more;" "two more" &&
	"$TOKSTREAM" convert --progress "./$SRC" progress.git 2>err &&
	grep "commits 2/2 .*done" err
'

test_expect_success 'without --progress and without a terminal there is no progress display' '
	"$TOKSTREAM" convert "./$SRC" noprogress.git 2>err &&
	! grep "commits [0-9]*/" err &&
	# the source keeps its first DEST: the one warning of a second DEST
	sed "/^tokstream: warning: tokstream.dest of .* stays /d" err >others &&
	test_line_count = 1 others &&
	grep "commits from 1 source" others
'

test_expect_success '--quiet: nothing on stderr but warnings, on a fresh conversion and on an update' '
	"$TOKSTREAM" convert --quiet --progress "./$SRC" quiet.git 2>err &&
	sed "/^tokstream: warning: tokstream.dest of .* stays /d" err >others &&
	test_must_be_empty others &&
	src_commit "int quiet;" "quiet" &&
	"$TOKSTREAM" convert --quiet "./$SRC" quiet.git 2>err &&
	test_must_be_empty err &&
	test "$(git -C quiet.git rev-list --count trunk)" = "$(git -C "./$SRC" rev-list --count trunk)"
'

test_lazy_prereq SCRIPT_PTY '
	script -qec true /dev/null
'

test_expect_success SCRIPT_PTY 'progress is shown by default when stderr is a terminal' '
	script -qec "\"$TOKSTREAM\" convert \"./$SRC\" tty.git" /dev/null >out &&
	grep "commits [0-9]*/[0-9]*" out
'

test_expect_success 'a source that is not a git repository: a clear error, nothing made' '
	mkdir not-a-repo &&
	test_expect_code 128 "$TOKSTREAM" convert not-a-repo made.git 2>err &&
	grep "not-a-repo.* is not a git repository" err &&
	test_path_is_missing made.git &&
	test_expect_code 128 "$TOKSTREAM" convert no-such-dir made.git 2>err &&
	grep "no-such-dir" err &&
	test_path_is_missing made.git
'

test_expect_success 'a shallow clone as source: a clear error naming it' '
	git clone -q --depth 1 "file://$TRASH_DIRECTORY/$SRC" shallow &&
	test "$(git -C shallow rev-parse --is-shallow-repository)" = true &&
	test_expect_code 128 "$TOKSTREAM" convert shallow made.git 2>err &&
	grep "shallow.*shallow clone" err &&
	test_path_is_missing made.git
'

test_expect_success 'a non-bare repository as DEST: a clear error, DEST untouched' '
	git init -q nonbare &&
	test_expect_code 128 "$TOKSTREAM" convert "./$SRC" nonbare 2>err &&
	grep "nonbare.* is not a bare repository" err &&
	test_path_is_missing nonbare/.git/tokstream &&
	test_path_is_missing nonbare/tokstream &&
	test -z "$(git -C nonbare for-each-ref)"
'

test_expect_success 'a DEST that exists and is no repository: a clear error' '
	mkdir plain-dir &&
	echo text >plain-dir/file &&
	test_expect_code 128 "$TOKSTREAM" convert "./$SRC" plain-dir 2>err &&
	grep "plain-dir.* is neither a git repository nor empty" err &&
	test_path_is_missing plain-dir/tokstream &&
	echo text >plain-file &&
	test_expect_code 128 "$TOKSTREAM" convert "./$SRC" plain-file 2>err &&
	grep "plain-file" err
'

test_expect_success 'setup: a converted DEST, then a new source commit' '
	"$TOKSTREAM" convert --quiet "./$SRC" ro.git &&
	src_commit "int ro;" "for the read-only DEST" &&
	refs ro.git >ro-before &&
	readlink ro.git/tokstream/current >ro-gen-before
'

# as_nobody CMD...: CMD as the user nobody, who may read the sources root owns
as_nobody () {
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0="*" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# check_read_only DIR PATTERN: convert into DIR fails with an error
# matching PATTERN, DIR unchanged
check_read_only () {
	test_expect_code 128 $as "$TOKSTREAM" convert "./$SRC" "$1" 2>err &&
	grep "$2" err &&
	refs "$1" >after &&
	test_cmp ro-before after &&
	readlink "$1/tokstream/current" >gen-after &&
	test_cmp ro-gen-before gen-after
}

if test "$(id -u)" != 0
then
	as=
	test_set_prereq CAN_CHMOD
elif as_nobody true 2>/dev/null
then
	# root writes through chmod -w: the DEST is nobody's, converted by nobody
	as=as_nobody
	test_set_prereq CAN_CHMOD
else
	test_skip 'a read-only DEST (chmod -w): a clear error, DEST unchanged' \
		'running as root, which writes through chmod -w, and setpriv cannot run as nobody'
fi

test_expect_success CAN_CHMOD 'a read-only DEST (chmod -R a-w): a clear error, DEST unchanged' '
	cp -R ro.git chmod.git &&
	{ test -z "$as" || chown -R 65534:65534 chmod.git; } &&
	chmod -R a-w chmod.git &&
	check_read_only chmod.git "cannot write in .*chmod.git/tokstream.*Permission denied" &&
	chmod -R u+w chmod.git
'

test_expect_success CAN_CHMOD 'a DEST whose pack directory is read-only fails late and stays as it was' '
	chmod a-w chmod.git/objects/pack &&
	check_read_only chmod.git "cannot move .* to .*chmod.git/objects/pack/pack-.*Permission denied" &&
	test_path_is_missing chmod.git/tokstream/lock &&
	chmod u+w chmod.git/objects/pack &&
	$as "$TOKSTREAM" convert --quiet "./$SRC" chmod.git &&
	test "$(git -c safe.directory="*" -C chmod.git rev-parse trunk)" = \
		"$(map_tok $(git -C "./$SRC" rev-parse trunk) chmod.git/tokstream/commit-map)"
'

test_lazy_prereq RO_MOUNT '
	mkdir d &&
	unshare -m sh -c "mount --bind -o ro d d && ! touch d/x 2>/dev/null"
'

test_expect_success RO_MOUNT 'a DEST on a read-only mount: a clear error, DEST unchanged' '
	test_expect_code 128 unshare -m sh -c "mount --bind -o ro ro.git ro.git && exec \"\$0\" convert \"./\$1\" ro.git" \
		"$TOKSTREAM" "$SRC" 2>err &&
	grep "cannot write.*Read-only file system" err &&
	refs ro.git >after &&
	test_cmp ro-before after &&
	readlink ro.git/tokstream/current >gen-after &&
	test_cmp ro-gen-before gen-after &&
	test_path_is_missing ro.git/tokstream/lock
'

test_expect_success 'the DEST that was refused converts once writable' '
	"$TOKSTREAM" convert --quiet "./$SRC" ro.git &&
	test "$(git -C ro.git rev-parse trunk)" = \
		"$(map_tok $(git -C "./$SRC" rev-parse trunk) ro.git/tokstream/commit-map)"
'

test_expect_success '--max-held reaches the filter (every blob spills), changes no ref, and is not recorded' '
	"$TOKSTREAM" convert -q "./$SRC" plain-held.git &&
	TMPDIR=$PWD/spill-dir &&
	mkdir "$TMPDIR" &&
	export TMPDIR &&
	"$TOKSTREAM" convert --stats --max-held=0 "./$SRC" held0.git 2>stats &&
	unset TMPDIR &&
	grep "^tokstream: held at most 0 bytes (--max-held 0), spilled blobs [1-9][0-9]*, " stats &&
	refs plain-held.git >expect &&
	refs held0.git >actual &&
	test_cmp expect actual &&
	! grep -r "max-held" held0.git/tokstream/current held0.git/tokstream/gen-*/config &&
	test_expect_code 129 "$TOKSTREAM" convert --max-held=lots "./$SRC" bad-held.git 2>err &&
	grep "^tokstream: error: --max-held takes a size (digits, then k, m or g), not .lots.$" err &&
	test_path_is_missing bad-held.git
'

test_expect_success 'blobs come from SRC, not the export, and DEST is the filter over a full export' '
	git init -q -b main blob-tags &&
	(
		cd blob-tags &&
		printf "int kept;\n" >kept.c &&
		git add kept.c &&
		test_tick &&
		git commit -q -m "kept.c" &&
		test_tick &&
		git tag -a -m "a tag of a committed blob" committed-blob HEAD:kept.c &&
		test_tick &&
		git tag -a -m "a tag of a blob in no commit" loose-blob \
			$(printf "in no commit\n" | git hash-object -w --stdin)
	) &&
	"$TOKSTREAM" convert --stats blob-tags blob-tags.git 2>stats &&
	grep "^tokstream: blobs in 0, token blobs out 1, unchanged blobs out 2, " stats &&
	grep "^tokstream convert: cpu: git fast-export [0-9.]* s, filter [0-9.]* s, git fast-import [0-9.]* s$" stats &&
	git init -q --bare blob-tags-ref.git &&
	git -C blob-tags fast-export --all --signed-tags=strip --tag-of-filtered-object=rewrite \
		--reencode=no --show-original-ids --mark-tags --use-done-feature >full.stream &&
	grep "^blob$" full.stream &&
	"$TOKSTREAM" --source=blob-tags <full.stream >tok.stream &&
	git -C blob-tags-ref.git fast-import --quiet --done <tok.stream &&
	refs blob-tags-ref.git >expect &&
	refs blob-tags.git | grep -v "^refs/tokstream/" >actual &&
	test_cmp expect actual &&
	echo "in no commit" >expect &&
	git -C blob-tags.git cat-file blob loose-blob^{} >actual &&
	test_cmp expect actual
'

NODELTA='no deltas "q" \b.git'

test_expect_success 'the settings of DEST are fast-import'"'"'s: pack.depth=0 there, no deltas' '
	git init -q -b main deltas &&
	(
		cd deltas &&
		seq 1 3000 | sed "s/.*/int v&;/" >a.c &&
		git add a.c &&
		test_tick &&
		git commit -q -m one &&
		echo "int w;" >>a.c &&
		test_tick &&
		git commit -q -a -m two
	) &&
	"$TOKSTREAM" convert -q deltas with-deltas.git &&
	git verify-pack -v with-deltas.git/objects/pack/*.idx >verify &&
	grep "^chain length = 1: [1-9][0-9]* objects*$" verify &&
	git init -q --bare "$NODELTA" &&
	git -C "$NODELTA" config pack.depth 0 &&
	"$TOKSTREAM" convert -q deltas "$NODELTA" &&
	git verify-pack -v "$NODELTA"/objects/pack/*.idx >verify &&
	grep "^non delta: " verify &&
	! grep "^chain length" verify &&
	refs with-deltas.git >expect &&
	refs "$NODELTA" >actual &&
	test_cmp expect actual
'

# object_kind PACK-IDX OID: "whole" or "delta", as the pack stores OID
object_kind () {
	git verify-pack -v "$1" | awk -v oid="$2" '$1 == oid { print (NF > 5 ? "delta" : "whole") }'
}

test_expect_success 'a first conversion repacks DEST: newest versions whole, older ones deltas on them' '
	git init -q -b main versions &&
	seq 1 2000 | sed "s/.*/int v&;/" >versions/a.c &&
	git -C versions add a.c &&
	commit_as -C versions Alice -m one &&
	echo "int w;" >>versions/a.c &&
	commit_as -C versions -a Bob -m two &&
	echo "int x;" >>versions/a.c &&
	commit_as -C versions -a Carol -m three &&
	"$TOKSTREAM" convert -q versions versions.git &&
	ls versions.git/objects/pack/*.pack >packs &&
	test_line_count = 1 packs &&
	idx=$(ls versions.git/objects/pack/*.idx) &&
	test "$(object_kind $idx $(git -C versions.git rev-parse main:a.c))" = whole &&
	test "$(object_kind $idx $(git -C versions.git rev-parse main~2:a.c))" = delta &&
	test "$(git -C versions.git config tokstream.packedObjects)" = \
		"$(git -C versions.git count-objects -v | sed -n "s/^in-pack: //p")"
'

test_expect_success 'a small update adds a pack; one that doubles DEST repacks it, unreachable objects kept' '
	packed=$(git -C versions.git config tokstream.packedObjects) &&
	echo "int y;" >>versions/a.c &&
	commit_as -C versions -a Dave -m four &&
	"$TOKSTREAM" convert -q versions versions.git &&
	ls versions.git/objects/pack/*.pack >packs &&
	test_line_count = 2 packs &&
	test "$(git -C versions.git config tokstream.packedObjects)" = "$packed" &&
	# a blob no ref reaches stays through the repack
	loose=$(echo "int unreachable;" | git -C versions.git hash-object -w --stdin) &&
	for i in 1 2 3 4 5 6 7 8
	do
		echo "int z$i;" >versions/z$i.c &&
		git -C versions add z$i.c &&
		commit_as -C versions Erin -m "z$i" || return 1
	done &&
	"$TOKSTREAM" convert -q versions versions.git &&
	ls versions.git/objects/pack/*.pack >packs &&
	test_line_count = 1 packs &&
	test "$(git -C versions.git config tokstream.packedObjects)" -gt "$packed" &&
	git -C versions.git cat-file -e $loose &&
	# and the next update goes on from the marks
	echo "int last;" >>versions/a.c &&
	commit_as -C versions -a Alice -m last &&
	"$TOKSTREAM" convert -q versions versions.git &&
	git -C versions.git log --format=%s -1 main >actual &&
	echo last >expect &&
	test_cmp expect actual
'

test_expect_success 'gc.auto=0 in DEST: no repack, and fast-import made no deltas' '
	git init -q --bare no-gc.git &&
	git -C no-gc.git config gc.auto 0 &&
	"$TOKSTREAM" convert -q versions no-gc.git &&
	test_must_fail git -C no-gc.git config tokstream.packedObjects &&
	git verify-pack -v no-gc.git/objects/pack/*.idx >verify &&
	! grep "^chain length" verify &&
	refs versions.git >expect &&
	refs no-gc.git >actual &&
	test_cmp expect actual
'

test_expect_success 'every DEST made here passes git fsck' '
	for d in "$DEST" dashdash.git opts.git sep.git progress.git quiet.git ro.git blob-tags.git \
		with-deltas.git "$NODELTA" versions.git no-gc.git
	do
		git -C "$d" fsck --no-progress --strict 2>fsck-err &&
		test_must_be_empty fsck-err || return 1
	done
'

test_expect_success 'an update reuses more recorded options than it has arguments' '
	git init -q many &&
	echo "int a;" >many/a.c &&
	echo "plain text" >many/b.txt &&
	git -C many add . &&
	test_tick &&
	git -C many commit -q -m one &&
	"$TOKSTREAM" convert -q --keep-other --exact-comments --lang c:*.txt \
		--lang=python:*.pyx --lang=c:*.inc many many.git &&
	echo "int b;" >>many/a.c &&
	test_tick &&
	git -C many commit -q -a -m two &&
	"$TOKSTREAM" convert many many.git 2>err &&
	grep -c "^option " many.git/tokstream/current/config >count &&
	echo 5 >expect &&
	test_cmp expect count &&
	git -C many.git show HEAD:b.txt >view &&
	printf "plain\ntext\n" >expect &&
	test_cmp expect view
'

test_expect_success 'convert into an empty directory makes DEST there' '
	mkdir empty-dir &&
	"$TOKSTREAM" convert -q "./$SRC" empty-dir 2>/dev/null &&
	"$TOKSTREAM" convert -q "./$SRC" not-yet.git 2>/dev/null &&
	refs not-yet.git >expect &&
	refs empty-dir >actual &&
	test_cmp expect actual
'

test_expect_success 'a DEST that is a directory of files but no repository is one line of our own' '
	mkdir full-dir &&
	echo x >full-dir/file &&
	test_expect_code 128 "$TOKSTREAM" convert -q "./$SRC" full-dir 2>err &&
	echo "tokstream: fatal: '"'"'full-dir'"'"' is neither a git repository nor empty: DEST is a bare repository (convert makes it when it does not exist, or in an empty directory)" >expect &&
	test_cmp expect err &&
	test_expect_code 128 "$TOKSTREAM" convert -q "./$SRC" full-dir/file 2>err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: .full-dir/file. is not a directory" err
'

test_lazy_prereq PROC 'test -r /proc/$$/stat && command -v setsid'

# slow_import DIR: a git in DIR/bin whose fast-import writes the process
# group of the conversion into DIR/importing, then waits to be killed
slow_import () {
	real_git=$(command -v git) &&
	mkdir -p "$1/bin" &&
	write_script "$1/bin/git" <<-EOF
	case "\$*" in
	*fast-import*)
		cut -d" " -f5 /proc/\$\$/stat >"$(pwd)/$1/importing.tmp" &&
		mv "$(pwd)/$1/importing.tmp" "$(pwd)/$1/importing" &&
		exec sleep 600 ;;
	esac
	exec "$real_git" "\$@"
	EOF
}

# interrupt_convert DIR SRC DEST: convert SRC into DEST with DIR's git,
# Ctrl-C (SIGINT to the process group) once fast-import runs; its
# stderr in DIR/err, its exit status in DIR/status
interrupt_convert () {
	(
		PATH="$(pwd)/$1/bin:$PATH" &&
		export PATH &&
		setsid "$TOKSTREAM" convert "$2" "$3" 2>"$1/err"
		echo $? >"$1/status"
	) &
	tries=0 &&
	while ! test -f "$1/importing" && test $tries -lt 300
	do
		sleep 0.1 &&
		tries=$((tries + 1))
	done &&
	kill -INT -"$(cat "$1/importing")" &&
	wait
}

test_expect_success PROC 'Ctrl-C during convert says so, and that DEST is as it was' '
	git init -q ints &&
	echo "int a;" >ints/a.c &&
	git -C ints add a.c &&
	test_tick &&
	git -C ints commit -q -m one &&
	"$TOKSTREAM" convert -q ints ints.git &&
	refs ints.git >before &&
	echo "int b;" >>ints/a.c &&
	test_tick &&
	git -C ints commit -q -a -m two &&
	slow_import int1 &&
	interrupt_convert int1 ints ints.git &&
	echo 130 >expect &&
	test_cmp expect int1/status &&
	grep "^tokstream: interrupted: .ints.git. is as it was before this run; run tokstream convert again to convert$" int1/err &&
	! grep -v "^tokstream: interrupted: " int1/err &&
	refs ints.git >after &&
	test_cmp before after &&
	"$TOKSTREAM" convert -q ints ints.git &&
	git -C ints.git log --format=%s -1 >subject &&
	echo two >expect &&
	test_cmp expect subject
'

test_expect_success PROC 'Ctrl-C during a first convert says DEST holds no conversion yet' '
	slow_import int2 &&
	interrupt_convert int2 ints ints-new.git &&
	echo 130 >expect &&
	test_cmp expect int2/status &&
	grep "^tokstream: interrupted: .ints-new.git. holds no conversion yet; run tokstream convert again to convert$" int2/err &&
	! grep -v "^tokstream: interrupted: " int2/err
'

test_done
