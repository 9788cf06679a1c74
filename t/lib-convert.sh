# Helpers of the tests of tokstream convert under interruption (t0210,
# t0240): what DEST holds, and how to compare and to kill conversions.

# refs REPO: every ref with its object id and type
refs () {
	git -C "$1" for-each-ref --format='%(objectname) %(objecttype) %(refname)'
}

# reachable_map DEST: the lines of its commit map for reachable commits
reachable_map () {
	git -C "$1" rev-list --all >reachable.tmp &&
	awk 'NR == FNR { r[$1] = 1; next } ($2 in r)' reachable.tmp "$1/tokstream/commit-map" | sort
}

# same_history SRC REF DEST: DEST equals REF (a conversion of SRC) in
# refs, HEAD, reachable commits and their map, and passes fsck
same_history () {
	refs "$2" >expect-refs &&
	refs "$3" >actual-refs &&
	test_cmp expect-refs actual-refs &&
	git -C "$2" symbolic-ref HEAD >expect-head &&
	git -C "$3" symbolic-ref HEAD >actual-head &&
	test_cmp expect-head actual-head &&
	git -C "$2" rev-list --all | sort >expect-reachable &&
	git -C "$3" rev-list --all | sort >actual-reachable &&
	test_cmp expect-reachable actual-reachable &&
	reachable_map "$2" >expect-map &&
	reachable_map "$3" >actual-map &&
	test_cmp expect-map actual-map &&
	git -C "$1" rev-list --all | sort >expect-originals &&
	cut -d" " -f1 actual-map | sort >actual-originals &&
	test_cmp expect-originals actual-originals &&
	git -C "$3" fsck --no-progress 2>fsck-err &&
	test_must_be_empty fsck-err
}

# same_as SRC REF DEST: the same history (same_history), and DEST keeps
# only its current generation: no lock, no staging repository
same_as () {
	same_history "$@" &&
	ls "$3/tokstream" >leftover &&
	test_write_lines commit-map current "$(readlink "$3/tokstream/current")" >expect-leftover &&
	test_cmp expect-leftover leftover
}

# state_of DEST: its refs, HEAD, whether it has a current generation,
# and its map, to compare (not the generation's name: a run that finds
# DEST up to date after a stopped one may switch to a new generation
# with the same content)
state_of () {
	if test -f "$1/HEAD"
	then
		refs "$1" &&
		git -C "$1" symbolic-ref HEAD
	fi &&
	if test -e "$1/tokstream/current"
	then
		echo "a current generation"
	fi &&
	if test -e "$1/tokstream/commit-map"
	then
		sort "$1/tokstream/commit-map"
	fi
}

# in_background CMD...: start CMD in the background, its pid in bg.pid
# (a function, so that the tests keep their &&-chains)
in_background () {
	"$@" &
	echo $! >bg.pid
}

# kill_group PID: SIGKILL to the process group PID leads (or to PID
# itself when setsid has not yet made the group)
kill_group () {
	kill -KILL -$1 2>/dev/null ||
	kill -KILL $1 2>/dev/null ||
	echo "the run had ended"
}

# long_history: a fast-import stream of 600 commits on main, each
# rewriting 4 of 40 files of 150 lines, tagged r100, r200, ... r600: long
# enough that a conversion can be killed in the middle
long_history () {
	awk "BEGIN {
		t = 1112911993
		for (i = 1; i <= 600; i++) {
			msg = \"commit \" i \"\\n\"
			printf \"commit refs/heads/main\\nmark :%d\\n\", i
			printf \"author A U Thor <author@example.com> %d +0000\\n\", t + 60 * i
			printf \"committer C O Mitter <committer@example.com> %d +0000\\n\", t + 60 * i
			printf \"data %d\\n%s\", length(msg), msg
			if (i > 1)
				printf \"from :%d\\n\", i - 1
			for (f = 0; f < 4; f++) {
				n = (4 * i + f) % 40
				body = \"\"
				for (k = 0; k < 150; k++)
					body = body sprintf(\"int f%d_%d_%d(int x) { return x * %d + %d; } /* c */\\n\", n, i, k, k, i)
				printf \"M 100644 inline src/file%d.c\\ndata %d\\n%s\\n\", n, length(body), body
			}
			if (i % 100 == 0)
				printf \"reset refs/tags/r%d\\nfrom :%d\\n\\n\", i, i
		}
	}"
}

# long_history_repo DIR: a repository DIR holding long_history, and
# all-refs, the update-ref lines that restore its refs
long_history_repo () {
	long_history >"$1.stream" &&
	git init -q -b main "$1" &&
	git -C "$1" fast-import --quiet <"$1.stream" &&
	test "$(git -C "$1" rev-list --count main)" = 600 &&
	git -C "$1" for-each-ref --format="update %(refname) %(objectname)" >all-refs
}

# convert_first_half SRC DEST: DEST, the conversion of SRC (a
# long_history_repo) as it was at main~300, before the tags r400 to r600;
# SRC's refs are restored after
convert_first_half () {
	git -C "$1" tag -d r400 r500 r600 &&
	git -C "$1" update-ref refs/heads/main main~300 &&
	"$TOKSTREAM" convert --quiet "$1" "$2" &&
	test "$(git -C "$2" rev-list --count --all)" = 300 &&
	git -C "$1" update-ref --stdin <all-refs
}
