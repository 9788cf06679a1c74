#!/bin/sh

test_description='tokstream convert OLDEST ... NEWEST: histories stitched across eras

Three repositories hold one project in three eras: a tarball era with a
commit per release, a middle era and the newest one; a file of era 1 is
gone in era 2.  convert stitches them: the root of each later era gets
the token commit of the earlier era tip as its parent, its tree is its
own, blame reaches across the seams, the older eras refs go under
refs/eras/K/ and their tags into refs/tags.  Updates take new commits of
the newest era and refuse changes of older ones.  The filter --graft
does the same by hand.'

. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-convert.sh

# map_tok ORIG [MAPFILE]: the token commit of ORIG
map_tok () {
	awk -v o="$1" '$1 == o { print $2 }' "${2:-dest.git/tokstream/commit-map}"
}

# same_stitch DEST FRESH: the same refs, HEAD, reachable commits and map
same_stitch () {
	refs "$2" >expect &&
	refs "$1" >actual &&
	test_cmp expect actual &&
	git -C "$2" symbolic-ref HEAD >expect &&
	git -C "$1" symbolic-ref HEAD >actual &&
	test_cmp expect actual &&
	git -C "$2" rev-list --all | sort >expect &&
	git -C "$1" rev-list --all | sort >actual &&
	test_cmp expect actual &&
	reachable_map "$2" >expect &&
	reachable_map "$1" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: era 1, the tarballs: one commit per release' '
	git init -q -b master e1 &&
	(
		cd e1 &&
		printf "int era_one_token;\nint shared(void) { return 1; }\n" >kernel.c &&
		printf "int only_in_era_one;\n" >old.c &&
		commit_as -a - -m "release 0.01" &&
		git tag -a v0.01 -m "0.01" &&
		printf "int second_release;\n" >>kernel.c &&
		commit_as -a - -m "release 0.02" &&
		git tag -a v0.02 -m "0.02" &&
		git checkout -q -b fixes HEAD~1 &&
		printf "int fix;\n" >>old.c &&
		commit_as -a - -m "a fix for 0.01" &&
		git checkout -q master
	)
'

test_expect_success 'setup: era 2 starts from the end of era 1, without old.c' '
	git init -q -b master e2 &&
	git -C e1 show master:kernel.c >e2/kernel.c &&
	(
		cd e2 &&
		printf "int era_two_token;\n" >>kernel.c &&
		printf "int new_in_era_two;\n" >new.c &&
		commit_as -a - -m "era 2 begins" &&
		git tag bk-start &&
		printf "int era_two_more;\n" >>kernel.c &&
		commit_as -a - -m "era 2 goes on" &&
		git tag -a v1.0 -m "1.0" &&
		git tag -a shared -m "the tag of era 2"
	)
'

test_expect_success 'setup: era 3, the newest, starts from the end of era 2' '
	git init -q -b main e3 &&
	git -C e2 archive master | tar -x -C e3 &&
	(
		cd e3 &&
		printf "int era_three_token;\n" >>kernel.c &&
		commit_as -a - -m "era 3 begins" &&
		git checkout -q -b topic &&
		printf "x = 3\n" >tool.py &&
		commit_as -a - -m "a topic" &&
		git checkout -q main &&
		printf "int era_three_more;\n" >>new.c &&
		commit_as -a - -m "era 3 goes on" &&
		git tag -a v2.0 -m "2.0" &&
		git tag -a shared -m "the tag of era 3"
	) &&
	git -C e1 rev-list --all >all && git -C e2 rev-list --all >>all &&
	git -C e3 rev-list --all >>all &&
	test_line_count = 8 all
'

test_expect_success 'convert E1 E2 E3 DEST stitches the three' '
	"$TOKSTREAM" convert --quiet e1 e2 e3 dest.git &&
	git -C dest.git fsck --no-progress --strict 2>fsck-err &&
	test_must_be_empty fsck-err
'

test_expect_success 'the map has every commit of the three eras, once' '
	cut -d" " -f1 dest.git/tokstream/commit-map | sort >actual &&
	sort all >expect &&
	test_cmp expect actual
'

test_expect_success 'the root of era 2 has the token commit of the tip of era 1 as its only parent' '
	root2=$(git -C e2 rev-list --max-parents=0 master) &&
	git -C dest.git rev-parse "$(map_tok $root2)^@" >actual &&
	map_tok $(git -C e1 rev-parse master) >expect &&
	test_cmp expect actual
'

test_expect_success 'the root of era 3 has the token commit of the tip of era 2 as its only parent' '
	root3=$(git -C e3 rev-list --max-parents=0 main) &&
	git -C dest.git rev-parse "$(map_tok $root3)^@" >actual &&
	map_tok $(git -C e2 rev-parse master) >expect &&
	test_cmp expect actual
'

test_expect_success 'the roots of the later eras keep their own trees: old.c is gone in era 2' '
	root2=$(git -C e2 rev-list --max-parents=0 master) &&
	git -C dest.git ls-tree --name-only "$(map_tok $root2)" >actual &&
	git -C e2 ls-tree --name-only $root2 >expect &&
	test_cmp expect actual &&
	! grep old.c actual &&
	git -C dest.git ls-tree --name-only "$(map_tok $root2)^" >era1 &&
	grep old.c era1 &&
	git -C e2 show $root2:kernel.c | "$TOKENIZE" -l c >expect &&
	git -C dest.git show "$(map_tok $root2):kernel.c" >actual &&
	test_cmp expect actual
'

test_expect_success 'the newest era first-parent history goes back to the first release' '
	n1=$(git -C e1 rev-list --count master) &&
	n2=$(git -C e2 rev-list --count master) &&
	n3=$(git -C e3 rev-list --count main) &&
	test "$(git -C dest.git rev-list --count main)" = $(($n1 + $n2 + $n3)) &&
	git -C dest.git rev-list --max-parents=0 --all >roots &&
	map_tok $(git -C e1 rev-list --max-parents=0 master) >expect &&
	test_cmp expect roots
'

# blamed TOKEN: the commit git blame in DEST gives the line (token) TOKEN of kernel.c
blamed () {
	git -C dest.git blame --root -l -s main -- kernel.c >blame &&
	grep " $1\$" blame | cut -d" " -f1
}

test_expect_success 'blame in DEST attributes tokens to the era that wrote them' '
	test "$(blamed era_one_token)" = "$(map_tok $(git -C e1 rev-parse master~1))" &&
	test "$(blamed shared)" = "$(map_tok $(git -C e1 rev-parse master~1))" &&
	test "$(blamed second_release)" = "$(map_tok $(git -C e1 rev-parse master))" &&
	test "$(blamed era_two_token)" = "$(map_tok $(git -C e2 rev-parse master~1))" &&
	test "$(blamed era_two_more)" = "$(map_tok $(git -C e2 rev-parse master))" &&
	test "$(blamed era_three_token)" = "$(map_tok $(git -C e3 rev-parse main~1))"
'

test_expect_success 'the branches of DEST are those of the newest era' '
	git -C e3 for-each-ref --format="%(refname)" refs/heads >expect &&
	git -C dest.git for-each-ref --format="%(refname)" refs/heads >actual &&
	test_cmp expect actual &&
	test "$(git -C dest.git rev-parse main)" = "$(map_tok $(git -C e3 rev-parse main))" &&
	test "$(git -C dest.git rev-parse topic)" = "$(map_tok $(git -C e3 rev-parse topic))" &&
	test "$(git -C dest.git symbolic-ref HEAD)" = refs/heads/main
'

test_expect_success 'the branches of the older eras are under refs/eras/K/' '
	git -C dest.git for-each-ref --format="%(refname)" refs/eras >actual &&
	test_write_lines refs/eras/1/heads/fixes refs/eras/1/heads/master refs/eras/2/heads/master >expect &&
	test_cmp expect actual &&
	test "$(git -C dest.git rev-parse refs/eras/1/heads/fixes)" = "$(map_tok $(git -C e1 rev-parse fixes))" &&
	test "$(git -C dest.git rev-parse refs/eras/1/heads/master)" = "$(map_tok $(git -C e1 rev-parse master))" &&
	test "$(git -C dest.git rev-parse refs/eras/2/heads/master)" = "$(map_tok $(git -C e2 rev-parse master))"
'

test_expect_success 'the tags of every era are in refs/tags; of one name, the newest era wins' '
	git -C dest.git for-each-ref --format="%(refname)" refs/tags >actual &&
	test_write_lines refs/tags/bk-start refs/tags/shared refs/tags/v0.01 refs/tags/v0.02 \
		refs/tags/v1.0 refs/tags/v2.0 >expect &&
	test_cmp expect actual &&
	for t in v0.01 v0.02 v1.0 v2.0 shared
	do
		test "$(git -C dest.git cat-file -t refs/tags/$t)" = tag || return 1
	done &&
	test "$(git -C dest.git rev-parse v0.01^{commit})" = "$(map_tok $(git -C e1 rev-parse v0.01^{commit}))" &&
	test "$(git -C dest.git rev-parse v1.0^{commit})" = "$(map_tok $(git -C e2 rev-parse v1.0^{commit}))" &&
	test "$(git -C dest.git rev-parse bk-start)" = "$(map_tok $(git -C e2 rev-parse bk-start))" &&
	test "$(git -C dest.git rev-parse shared^{commit})" = "$(map_tok $(git -C e3 rev-parse main))" &&
	git -C dest.git cat-file tag shared >tag &&
	grep "^the tag of era 3$" tag
'

test_expect_success 'an update after new commits in the newest era converts only them' '
	(
		cd e3 &&
		printf "int after_update;\n" >>kernel.c &&
		commit_as -a - -m "era 3, later" &&
		git branch -D topic &&
		git checkout -q -b topic2 &&
		printf "y = 4\n" >tool2.py &&
		commit_as -a - -m "another topic" &&
		git checkout -q main
	) &&
	"$TOKSTREAM" convert --stats e1 e2 e3 dest.git 2>stats &&
	sed -n "s/^tokstream: commits \([0-9]*\), .*/\1/p" stats >commits &&
	test_write_lines 0 0 2 >expect &&
	test_cmp expect commits
'

test_expect_success 'the updated stitch equals a fresh stitched conversion' '
	"$TOKSTREAM" convert --quiet e1 e2 e3 fresh.git &&
	same_stitch dest.git fresh.git &&
	test "$(blamed after_update)" = "$(map_tok $(git -C e3 rev-parse main))" &&
	test "$(blamed era_one_token)" = "$(map_tok $(git -C e1 rev-parse master~1))"
'

test_expect_success 'a new commit in an older era is refused, DEST unchanged' '
	refs dest.git >before &&
	readlink dest.git/tokstream/current >gen-before &&
	(
		cd e2 &&
		printf "int late;\n" >>new.c &&
		commit_as -a - -m "a late change to era 2"
	) &&
	test_expect_code 128 "$TOKSTREAM" convert e1 e2 e3 dest.git 2>err &&
	grep "source 2 (.*e2.) is not where it was" err &&
	grep "convert afresh" err &&
	refs dest.git >after &&
	test_cmp before after &&
	readlink dest.git/tokstream/current >gen-after &&
	test_cmp gen-before gen-after &&
	test_path_is_missing dest.git/tokstream/lock
'

test_expect_success 'a moved branch of the oldest era is refused too; undone, the update goes on' '
	git -C e2 reset -q --hard HEAD~1 &&
	git -C e1 update-ref refs/heads/master master~1 &&
	test_expect_code 128 "$TOKSTREAM" convert e1 e2 e3 dest.git 2>err &&
	grep "source 1 (.*e1.) is not where it was" err &&
	git -C e1 update-ref refs/heads/master "$(git -C e1 rev-parse v0.02^{commit})" &&
	"$TOKSTREAM" convert --quiet e1 e2 e3 dest.git &&
	same_stitch dest.git fresh.git
'

test_expect_success 'other sources, or the same in another order, are refused' '
	test_expect_code 128 "$TOKSTREAM" convert e2 e3 dest.git 2>err &&
	grep "other sources" err &&
	test_expect_code 128 "$TOKSTREAM" convert e2 e1 e3 dest.git 2>err &&
	grep "other sources" err &&
	same_stitch dest.git fresh.git
'

test_expect_success 'the filter by hand: --graft=PARENT gives the first root of a stream a parent' '
	git init -q --bare hand.git &&
	git -C e1 fast-export --all --signed-tags=strip --reencode=no |
		"$TOKSTREAM" | git -C hand.git fast-import --quiet &&
	tip=$(git -C hand.git rev-parse master) &&
	git -C e2 fast-export --all --signed-tags=strip --reencode=no --show-original-ids |
		"$TOKSTREAM" --graft=$tip >graft.stream &&
	git -C hand.git fast-import --quiet <graft.stream &&
	root2=$(git -C hand.git rev-list --max-parents=0 master) &&
	test "$root2" = "$(git -C hand.git rev-list --max-parents=0 refs/tags/v0.01)" &&
	git -C hand.git log --format="%P %s" master >log &&
	grep "^$tip era 2 begins$" log &&
	git -C hand.git ls-tree --name-only "master~1" >actual &&
	test_write_lines kernel.c new.c >expect &&
	test_cmp expect actual
'

test_expect_success 'the graft by hand gives the very commits convert gives' '
	"$TOKSTREAM" convert --quiet e1 e2 two-eras.git &&
	test "$(git -C hand.git rev-parse master)" = \
		"$(map_tok $(git -C e2 rev-parse master) two-eras.git/tokstream/commit-map)" &&
	test "$(git -C hand.git rev-parse v1.0)" = "$(git -C two-eras.git rev-parse v1.0)"
'

test_expect_success 'setup: a history with two roots, both on one branch' '
	git init -q -b main two &&
	(
		cd two &&
		printf "int first_root;\n" >a.c &&
		commit_as -a - -m "root A" &&
		git checkout -q --orphan other &&
		git rm -q -f a.c &&
		printf "int second_root;\n" >b.c &&
		commit_as -a - -m "root B" &&
		git checkout -q main &&
		test_tick &&
		git merge -q --allow-unrelated-histories -m "merge B" other &&
		git branch -D other
	) &&
	git -C two rev-list --max-parents=0 main >roots &&
	test_line_count = 2 roots
'

# graft_two SPEC DEST: two through the filter with --graft=SPEC into a
# copy of hand.git
graft_two () {
	rm -rf "$2" &&
	cp -R hand.git "$2" &&
	git -C two fast-export --all --signed-tags=strip --reencode=no --show-original-ids |
		"$TOKSTREAM" --graft="$1" >two.stream &&
	git -C "$2" fast-import --quiet --force <two.stream
}

# graft_two_check SPEC DEST GRAFTED OTHER: graft_two, then the root
# commit with subject GRAFTED has hand.git's tip as its parent and the
# one with subject OTHER stays a root
graft_two_check () {
	tip=$(git -C hand.git rev-parse master) &&
	graft_two "$1" "$2" &&
	git -C "$2" log --format="%P|%s" main >log &&
	grep "^$tip|$3$" log &&
	grep "^|$4$" log
}

test_expect_success '--graft=ROOT:PARENT grafts the root of that original id only' '
	tip=$(git -C hand.git rev-parse master) &&
	rootB=$(git -C two rev-parse main^2) &&
	graft_two_check $rootB:$tip graftB.git "root B" "root A"
'

test_expect_success '--graft=ROOT:PARENT with the first root of the stream' '
	tip=$(git -C hand.git rev-parse master) &&
	rootA=$(git -C two rev-parse main^1) &&
	graft_two_check $rootA:$tip graftA.git "root A" "root B"
'

test_expect_success '--graft=PARENT without ROOT grafts the first root of the stream only' '
	tip=$(git -C hand.git rev-parse master) &&
	graft_two_check $tip graft1.git "root A" "root B"
'

test_expect_success '--graft=ROOT:PARENT with a ROOT the stream lacks is an error' '
	tip=$(git -C hand.git rev-parse master) &&
	git -C two fast-export --all --show-original-ids >two-plain.stream &&
	test_expect_code 128 "$TOKSTREAM" --graft=1234567890123456789012345678901234567890:$tip \
		<two-plain.stream >/dev/null 2>err &&
	grep "no root commit with original id 1234567890123456789012345678901234567890" err
'

test_done
