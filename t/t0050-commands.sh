#!/bin/sh
test_description='the command table: help, -h, global -C, finding DEST, git tokstream'
. ./test-lib.sh

test_expect_success 'tokstream help lists every command with what it does' '
	"$TOKSTREAM" help >out &&
	for cmd in blame convert help html map report
	do
		grep "^   $cmd  *[A-Z]" out || return 1
	done &&
	"$TOKSTREAM" -h >out2 &&
	test_cmp out out2
'

test_expect_success '-h on every command prints its usage, and help CMD the same' '
	for cmd in blame convert help html map report
	do
		"$TOKSTREAM" $cmd -h >out &&
		grep "^usage: tokstream $cmd " out &&
		"$TOKSTREAM" help $cmd >out2 &&
		test_cmp out out2 || return 1
	done &&
	"$TOKSTREAM" help filter >out &&
	grep "^usage: git fast-export .* | tokstream \[OPTIONS\] | git fast-import" out
'

test_expect_success 'an unknown command is named as such, a usage error (exit 129)' '
	test_expect_code 129 "$TOKSTREAM" blam x.c 2>err &&
	test "$(cat err)" = "tokstream: error: '"'"'blam'"'"' is not a tokstream command. See '"'"'tokstream help'"'"'." &&
	test_expect_code 129 "$TOKSTREAM" help blam 2>err &&
	grep "is not a tokstream command" err
'

# each numeric option of each command, as "COMMAND OPTION", the option
# spelled as it takes its value apart
numeric_options="blame --min-move
blame -L
html -j
html --min-move
report --top
report --min-tokens
report -j
report --min-move
convert --max-held"

test_expect_success 'every numeric option refuses a non-number, a negative, an overflow, nothing (exit 129)' '
	echo "$numeric_options" | while read cmd opt
	do
		for value in lots 2x -1 99999999999999999999999 ""
		do
			test_expect_code 129 "$TOKSTREAM" $cmd "$opt" "$value" x y 2>err &&
			grep "^tokstream: error: $opt takes .*, not .$value.$" err &&
			grep "^usage: tokstream $cmd " err &&
			case "$opt" in
			--*)
				test_expect_code 129 "$TOKSTREAM" $cmd "$opt=$value" x y 2>err &&
				grep "^tokstream: error: $opt takes .*, not .$value.$" err
				;;
			*)
				test -z "$value" ||
				test_expect_code 129 "$TOKSTREAM" $cmd "$opt$value" x y 2>err &&
				grep "^tokstream: error: $opt takes .*, not .$value.$" err
				;;
			esac || return 1
		done || return 1
	done
'

test_expect_success 'a number out of its range is refused, naming the range' '
	test_expect_code 129 "$TOKSTREAM" html -j 257 x 2>err &&
	grep "^tokstream: error: -j takes a number from 1 to 256, not .257.$" err &&
	test_expect_code 129 "$TOKSTREAM" report --top=0 x 2>err &&
	grep "^tokstream: error: --top takes a number of at least 1, not .0.$" err &&
	test_expect_code 129 "$TOKSTREAM" blame --min-move=1 x.c 2>err &&
	grep "^tokstream: error: --min-move takes a number from 2 to 100000, not .1.$" err
'

test_expect_success 'a wrong value of a choice is called a wrong value, not an unknown option' '
	test_expect_code 129 "$TOKSTREAM" blame --by=foo x.c 2>err &&
	grep "^tokstream: error: --by takes commit, author or age, not .foo.$" err &&
	test_expect_code 129 "$TOKSTREAM" html --by=foo x 2>err &&
	grep "^tokstream: error: --by takes author, commit or age, not .foo.$" err &&
	test_expect_code 129 "$TOKSTREAM" blame --color=sometimes x.c 2>err &&
	grep "^tokstream: error: --color takes auto, always or never, not .sometimes.$" err &&
	test_expect_code 129 "$TOKSTREAM" report --replay=maybe x 2>err &&
	grep "^tokstream: error: --replay takes auto, always or never, not .maybe.$" err
'

test_expect_success 'values come after = or as the next argument; short options bundle' '
	test_expect_code 129 "$TOKSTREAM" report --top 0 x 2>err &&
	grep "not .0.$" err &&
	test_expect_code 129 "$TOKSTREAM" report -wMj0 x 2>err &&
	grep "^tokstream: error: -j takes a number from 1 to 256, not .0.$" err &&
	test_expect_code 129 "$TOKSTREAM" report -wx x 2>err &&
	grep "^tokstream: error: unknown option .-x.$" err &&
	test_expect_code 129 "$TOKSTREAM" report --no-top=3 x 2>err &&
	grep "^tokstream: error: unknown option .--no-top.$" err &&
	test_expect_code 129 "$TOKSTREAM" blame --porcelain=yes x.c 2>err &&
	grep "^tokstream: error: --porcelain takes no value$" err &&
	test_expect_code 129 "$TOKSTREAM" blame x.c --min-move 2>err &&
	grep "^tokstream: error: --min-move needs a value, N$" err
'

test_expect_success '-h lists every option of the command, from its table' '
	"$TOKSTREAM" report -h >out &&
	for opt in "-C DEST" --source=SRC --top=N --min-tokens=N "-j N" --min-move=N \
		--ignore-rev=REV "--replay\[=auto|always|never\]" --every=tag.year --exclude=PATHSPEC \
		"--\[no-\]progress" --no-mailmap "--\[no-\]include-vendored"
	do
		grep "^    $opt\( \|$\)" out || return 1
	done &&
	"$TOKSTREAM" blame -h >out &&
	grep "^    --by=commit|author|age  " out &&
	grep "^    -M, --moves  " out
'

test_expect_success 'the filter still runs with no command' '
	printf "blob\nmark :1\ndata 3\nab\n\ndone\n" >in &&
	"$TOKSTREAM" --identity <in >out &&
	tail -n 1 out >last &&
	echo done >expect &&
	test_cmp expect last
'

test_expect_success 'a history in a source repository with subdirectories' '
	git init -q src &&
	mkdir -p src/lib/sub &&
	printf "int lib_x = 1;\n" >src/lib/x.c &&
	printf "int lib_y = 2;\n" >src/lib/sub/y.c &&
	printf "int top = 3;\n" >src/top.c &&
	git -C src add . &&
	test_tick &&
	git -C src -c user.name=Ann -c user.email=ann@example.org commit -qm one &&
	"$TOKSTREAM" convert -q src tok.git 2>err &&
	test_must_be_empty err
'

test_expect_success 'convert records DEST in the source as tokstream.dest' '
	(cd tok.git && pwd -P) >expect &&
	git -C src config tokstream.dest >actual &&
	test_cmp expect actual
'

test_expect_success 'blame in a source subdirectory finds DEST, paths relative to it' '
	"$TOKSTREAM" blame -C tok.git --porcelain lib/x.c >expect &&
	(cd src/lib && "$TOKSTREAM" blame --porcelain x.c) >actual &&
	test_cmp expect actual &&
	(cd src/lib/sub && "$TOKSTREAM" blame --porcelain ../x.c) >actual &&
	test_cmp expect actual &&
	(cd src/lib && "$TOKSTREAM" blame --porcelain ./sub/../x.c) >actual &&
	test_cmp expect actual &&
	(cd src/lib && test_expect_code 128 "$TOKSTREAM" blame --porcelain ../../x.c 2>../../err) &&
	grep "is outside the repository" err
'

test_expect_success 'blame :/PATH and :(top)PATH are from the top, in a subdirectory or not' '
	"$TOKSTREAM" blame -C tok.git --porcelain top.c >expect &&
	(cd src/lib && "$TOKSTREAM" blame --porcelain :/top.c) >actual &&
	test_cmp expect actual &&
	(cd src/lib/sub && "$TOKSTREAM" blame --porcelain ":(top)top.c") >actual &&
	test_cmp expect actual &&
	(cd src && "$TOKSTREAM" blame --porcelain :/top.c) >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" blame -C tok.git --porcelain :/lib/x.c >actual &&
	"$TOKSTREAM" blame -C tok.git --porcelain lib/x.c >expect &&
	test_cmp expect actual &&
	(cd src/lib && test_expect_code 128 "$TOKSTREAM" blame :/nothing.c 2>../../err) &&
	grep "'"'nothing.c' does not exist at HEAD"'" err
'

test_expect_success 'report in a subdirectory selects what git diff-tree there selects' '
	empty=$(git hash-object -t tree /dev/null) &&
	n=0 &&
	for ps in "*.c" "x.c" "sub" ":!sub" ":(exclude)sub" ":/top.c" ":(top)lib/sub" "../top.c"
	do
		n=$((n + 1)) &&
		(cd src/lib && "$TOKSTREAM" report ../../r$n HEAD "$ps") &&
		(cd src/lib && git diff-tree -r --name-only $empty HEAD -- "$ps") | sort >expect &&
		sed 1d r$n/files.tsv | cut -f1 | sort >actual &&
		test_cmp expect actual || return 1
	done &&
	test_line_count = 3 r4/files.tsv &&
	test_line_count = 2 r6/files.tsv
'

test_expect_success 'inside the token repository itself, DEST is it' '
	"$TOKSTREAM" blame -C tok.git --porcelain top.c >expect &&
	(cd tok.git && "$TOKSTREAM" blame --porcelain top.c) >actual &&
	test_cmp expect actual
'

test_expect_success 'a global -C DEST before the command is the same as after it' '
	"$TOKSTREAM" blame -C tok.git --porcelain top.c >expect &&
	"$TOKSTREAM" -C tok.git blame --porcelain top.c >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" -C tok.git map $(git -C src rev-parse HEAD) >actual &&
	git -C tok.git rev-parse HEAD >expect &&
	test_cmp expect actual &&
	test_expect_code 129 "$TOKSTREAM" -C tok.git convert src tok.git 2>err &&
	grep "takes no -C DEST" err &&
	test_expect_code 129 "$TOKSTREAM" -C tok.git --identity </dev/null 2>err &&
	grep "needs a command" err
'

test_expect_success 'global --source before the command is handed to it, as -C is' '
	"$TOKSTREAM" blame -C tok.git --source src --porcelain top.c >expect &&
	"$TOKSTREAM" -C tok.git --source src blame --porcelain top.c >actual &&
	test_cmp expect actual &&
	"$TOKSTREAM" --source=src -C tok.git blame --porcelain top.c >actual &&
	test_cmp expect actual &&
	test_expect_code 129 "$TOKSTREAM" -C tok.git --source src map HEAD 2>err &&
	grep "^tokstream: error: .map. takes no --source$" err
'

test_expect_success 'a source repository given as -C is named as one, with the DEST it records' '
	dest=$(cd tok.git && pwd -P) &&
	for cmd in "blame top.c" "html out" "report out" "map HEAD"
	do
		test_expect_code 128 "$TOKSTREAM" -C src $cmd 2>err &&
		test_line_count = 1 err &&
		grep "^tokstream: fatal: -C .src. is a source repository, not a token repository: its token repository (tokstream.dest) is .$dest.; give -C .$dest., or no -C inside the source$" err || return 1
	done
'

test_expect_success 'a source repository as -C with --source is named as one too, not as unconverted' '
	test_expect_code 128 "$TOKSTREAM" blame -C src --source src top.c 2>err &&
	test_line_count = 1 err &&
	grep "is a source repository, not a token repository" err &&
	! grep "run tokstream convert" err
'

test_expect_success 'a -C directory that does not exist is one fatal line' '
	test_expect_code 128 "$TOKSTREAM" -C no-such-dir blame top.c 2>err &&
	test_line_count = 1 err &&
	grep "^tokstream: fatal: -C .no-such-dir.: No such file or directory$" err &&
	test_expect_code 128 "$TOKSTREAM" report -C no-such-dir out 2>err &&
	test_line_count = 1 err
'

test_expect_success 'html and report take a PATHSPEC without REV, as git log takes a path' '
	"$TOKSTREAM" report -C tok.git ps-rev HEAD "lib/*.c" &&
	"$TOKSTREAM" report -C tok.git ps-norev "lib/*.c" &&
	test_cmp ps-rev/files.tsv ps-norev/files.tsv &&
	test_line_count = 3 ps-norev/files.tsv &&
	"$TOKSTREAM" report -C tok.git ps-dir lib &&
	test_cmp ps-rev/files.tsv ps-dir/files.tsv &&
	"$TOKSTREAM" html -C tok.git hps "lib/sub/*.c" &&
	test_path_is_file hps/lib/sub/y.c.html &&
	test_path_is_missing hps/top.c.html
'

test_expect_success '-- ends the revisions: REV -- PATHSPEC and -- PATHSPEC' '
	"$TOKSTREAM" report -C tok.git ps-dd HEAD -- "lib/*.c" &&
	test_cmp ps-rev/files.tsv ps-dd/files.tsv &&
	"$TOKSTREAM" report -C tok.git ps-dd2 -- "lib/*.c" &&
	test_cmp ps-rev/files.tsv ps-dd2/files.tsv &&
	"$TOKSTREAM" html -C tok.git hdd HEAD -- &&
	test_path_is_file hdd/top.c.html
'

test_expect_success 'an argument both a revision and a pathspec is an error that says so' '
	git -C src branch lib &&
	test_when_finished "git -C src branch -D lib" &&
	test_expect_code 128 "$TOKSTREAM" report -C tok.git amb lib 2>err &&
	grep "^tokstream: fatal: .lib. is both a revision and a pathspec of files at HEAD: give REV -- PATHSPEC, or -- PATHSPEC$" err &&
	test_path_is_missing amb &&
	"$TOKSTREAM" report -C tok.git amb -- lib &&
	test_cmp ps-rev/files.tsv amb/files.tsv
'

test_expect_success 'an argument neither a revision nor a pathspec is an error that says so' '
	test_expect_code 128 "$TOKSTREAM" html -C tok.git nn nosuch 2>err &&
	grep "^tokstream: fatal: .nosuch. is not a revision of .*/src., nor a pathspec of files at HEAD$" err &&
	test_path_is_missing nn
'

test_expect_success 'with no DEST to be found, the error says what to do' '
	git init -q other &&
	(cd other && test_expect_code 128 "$TOKSTREAM" blame top.c 2>../err) &&
	grep "records none (tokstream.dest): give -C DEST" err &&
	mkdir -p nogit &&
	(cd nogit && GIT_CEILING_DIRECTORIES=$(pwd -P)/.. &&
	 export GIT_CEILING_DIRECTORIES &&
	 test_expect_code 128 "$TOKSTREAM" blame top.c 2>../err) &&
	grep "not in a git repository: give -C DEST" err
'

# recorded_is DEST: src records DEST (resolved) as tokstream.dest
recorded_is () {
	(cd "$1" && pwd -P) >expect &&
	git -C src config tokstream.dest >actual &&
	test_cmp expect actual
}

# src records tok.git again
restore_dest () {
	git -C src config tokstream.dest "$(cd tok.git && pwd -P)"
}

test_expect_success 'a second DEST leaves tokstream.dest as it was, and says so, naming both' '
	"$TOKSTREAM" convert -q src tok2.git 2>err &&
	recorded_is tok.git &&
	test_line_count = 1 err &&
	src=$(cd src && pwd -P) &&
	tok=$(cd tok.git && pwd -P) &&
	tok2=$(cd tok2.git && pwd -P) &&
	grep "^tokstream: warning: tokstream.dest of .$src. stays .$tok. " err &&
	grep "; to use .$tok2. instead: git -C $src config tokstream.dest $tok2\$" err
'

test_expect_success 'blame in the source still reads the attribution state of the first DEST' '
	test -d tok.git/tokstream/replay &&
	test_path_is_missing tok2.git/tokstream/replay &&
	(cd src/lib && TOKSTREAM_TEST_BLAME=state "$TOKSTREAM" blame --porcelain x.c) >actual &&
	"$TOKSTREAM" blame -C tok.git --porcelain lib/x.c >expect &&
	test_cmp expect actual
'

test_expect_success 'convert again into either DEST says nothing and leaves tokstream.dest' '
	"$TOKSTREAM" convert -q src tok2.git 2>err &&
	test_must_be_empty err &&
	recorded_is tok.git &&
	"$TOKSTREAM" convert -q src "$(pwd)/tok.git" 2>err &&
	test_must_be_empty err &&
	recorded_is tok.git
'

test_expect_success 'the command the warning names makes the new DEST the default' '
	test_when_finished restore_dest &&
	"$TOKSTREAM" convert -q src "tok 3.git" 2>err &&
	sed -n "s/.*; to use .* instead: //p" err >switch &&
	test_line_count = 1 switch &&
	sh ./switch &&
	recorded_is "tok 3.git" &&
	"$TOKSTREAM" convert -q src "tok 3.git" 2>err &&
	test_must_be_empty err &&
	recorded_is "tok 3.git"
'

test_expect_success 'a DEST recorded through a symbolic link, with .. or relative to the source is the same' '
	test_when_finished restore_dest &&
	ln -s tok.git link.git &&
	for spelling in "$(pwd)/link.git" "$(pwd)/src/../tok.git/" ../tok.git
	do
		git -C src config tokstream.dest "$spelling" &&
		"$TOKSTREAM" convert -q src tok.git 2>err &&
		test_must_be_empty err &&
		echo "$spelling" >expect &&
		git -C src config tokstream.dest >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'a recorded DEST that no longer exists is replaced, and that is said' '
	test_when_finished restore_dest &&
	git -C src config tokstream.dest "$(pwd)/gone.git" &&
	"$TOKSTREAM" convert -q src tok2.git 2>err &&
	recorded_is tok2.git &&
	test_line_count = 1 err &&
	grep "^tokstream: warning: tokstream.dest of .*/src. named .*/gone.git., which no longer exists: it names .*/tok2.git. now$" err
'

test_expect_success 'a recorded DEST that is no token repository is replaced, and that is said' '
	test_when_finished restore_dest &&
	git init -q --bare plain.git &&
	git -C src config tokstream.dest "$(pwd)/plain.git" &&
	"$TOKSTREAM" convert -q src tok.git 2>err &&
	recorded_is tok.git &&
	test_line_count = 1 err &&
	grep "^tokstream: warning: tokstream.dest of .*/src. named .*/plain.git., which is no token repository: it names .*/tok.git. now$" err
'

test_expect_success 'make install installs git-tokstream: git tokstream runs it' '
	make -s -C "$REPO_ROOT" install prefix="$(pwd -P)/inst" >/dev/null &&
	test -x inst/bin/tokstream &&
	test -x inst/bin/git-tokstream &&
	# tokenize under a name of its own, not the generic one
	test_path_is_missing inst/bin/tokenize &&
	printf "int x;\n" | inst/bin/tokstream-tokenize -l c >actual &&
	printf "int x;\n" | "$TOKENIZE" -l c >expect &&
	test_cmp expect actual &&
	PATH="$(pwd -P)/inst/bin:$PATH" &&
	export PATH &&
	(cd src/lib && git tokstream blame --porcelain x.c) >actual &&
	"$TOKSTREAM" blame -C tok.git --porcelain lib/x.c >expect &&
	test_cmp expect actual &&
	git tokstream help >out &&
	grep "^   report " out
'

test_lazy_prereq MAN 'man --version'

test_expect_success MAN 'make install installs the manual pages: git tokstream --help shows one' '
	test -f inst/share/man/man1/tokstream.1 &&
	test -f inst/share/man/man1/git-tokstream.1 &&
	PATH="$(pwd -P)/inst/bin:$PATH" &&
	export PATH &&
	MANPATH= MANPAGER=cat PAGER=cat GIT_PAGER=cat MANWIDTH=80 git tokstream --help >out 2>err &&
	grep "^GIT-TOKSTREAM(1) " out &&
	grep "^TOKSTREAM BLAME" out &&
	grep "^TOKSTREAM REPORT" out &&
	grep "^ *--min-tokens=N" out &&
	! grep "No manual entry" err
'

test_expect_success MAN 'the manual pages are well-formed roff, every command section in them' '
	LC_ALL=C MANWIDTH=80 man --warnings -l "$REPO_ROOT/tokstream.1" >page 2>err &&
	test_must_be_empty err &&
	sed -n "s/^## \(tokstream .*\)/\1/p" "$REPO_ROOT/README.md" |
	tr "[:lower:]" "[:upper:]" >expect &&
	grep "^TOKSTREAM " page >actual &&
	test_cmp expect actual &&
	! grep "\](\|\*\*\|\`" page
'

test_expect_success '--version names the version, as git describe found it' '
	"$TOKSTREAM" --version >out &&
	echo "tokstream version $(cat "$REPO_ROOT/TOKSTREAM-VERSION-FILE")" >expect &&
	test_cmp expect out &&
	inst/bin/tokstream --version >out &&
	test_cmp expect out &&
	if git -C "$REPO_ROOT" describe --match "v[0-9]*" >/dev/null 2>&1
	then
		grep "^tokstream version [0-9]" out
	else
		grep "^tokstream version [0-9][0-9.]*-g[0-9a-f]\{7,\}\(-dirty\)\?$" out
	fi
'

test_expect_success 'outside a checkout of its own, the version is the Makefile'"'"'s' '
	mkdir tree &&
	cp "$REPO_ROOT/Makefile" tree/ &&
	make -s -C tree TOKSTREAM-VERSION-FILE &&
	sed -n "s/^VERSION = //p" tree/Makefile >expect &&
	test_cmp expect tree/TOKSTREAM-VERSION-FILE
'

test_done
