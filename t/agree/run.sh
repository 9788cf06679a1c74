#!/bin/sh
# Agreement of tokstream's C/C++ lexer (lexers/c.c) with clang's raw lexer.
#
#   make agree                      # or: sh t/agree/run.sh [options] [DIR...]
#
# For every C/C++ file under each DIR (default: /usr/include, and every
# $AGREE_KERNEL_EVERY'th file (default 3) of the Linux kernel tree if it is
# unpacked at $AGREE_KERNEL, default /var/tmp/linux-source-6.1), runs
#     clang -cc1 -x c -std=gnu2x -dump-raw-tokens FILE     (.c, .h)
#     clang -cc1 -x c++ -std=gnu++2b -dump-raw-tokens FILE (.cc .cpp .hpp .tcc
#         ..., and .h or extension-less files under a c++/ directory)
#     tokenize -l c FILE / tokenize -l c++ FILE
# drops comments and clang's whitespace tokens, aligns the two token lists
# as diff aligns lines, and prints per corpus: files, clang tokens, tokens
# identical (in matching blocks), agreement %, the most common kinds of
# mismatch with examples, the files with most mismatches, and at the end a
# summary table.  C is lexed as GNU C2x and C++ as GNU C++2b, the newest
# modes of clang 14, because tokstream has one lexer for both languages
# with the newest spellings (`::`, digit separators); the C++-only
# spellings left over in C files are reported as "by design".
#
# The kernel corpus (Debian's linux-source-6.1):
#     apt-get update && apt-get install -y linux-source-6.1
#     tar -C /var/tmp -xJf /usr/src/linux-source-6.1.tar.xz
#
# Options (before or among the DIRs):
#     --jobs N      files lexed in parallel (default 2)
#     --every N     take every Nth file, in sorted order, of the DIRs after it
#     --report FILE write every mismatch kind and mismatching file to FILE
#     --min PCT     exit 1 unless every corpus agrees above PCT
# Environment: AGREE_KERNEL, AGREE_KERNEL_EVERY (see above), AGREE_OPTS
# (options put first, default "--min 99.9"), TOKENIZE (the tokenize binary,
# default ./tokenize/tokenize, built with make if missing).  Needs clang 14,
# python3 and GNU diff.
#
# Time: clang's dump costs most of it (clang writes its dump unbuffered, a
# few system calls per token).  On the 2-core machine, partly loaded by
# other jobs: /usr/include (7,817 files, 118 MB) 384 s, every 3rd file of
# the 6.1.192 kernel (18,472 files) 840 s, so `make agree` takes about 20
# minutes; AGREE_KERNEL_EVERY=1 takes the whole kernel (about 40 more).
set -e

root=$(cd "$(dirname "$0")/../.." && pwd)
tokenize=${TOKENIZE:-$root/tokenize/tokenize}
kernel=${AGREE_KERNEL:-/var/tmp/linux-source-6.1}
kernel_every=${AGREE_KERNEL_EVERY:-3}
opts=${AGREE_OPTS---min 99.9}

for tool in clang python3 diff; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "t/agree/run.sh: $tool is needed (apt-get install -y clang python3 diffutils)" >&2
		exit 2
	fi
done
if ! test -x "$tokenize"; then
	(cd "$root" && make tokenize/tokenize >&2)
fi

have_dir= skip=
for a in "$@"; do
	if test -n "$skip"; then
		skip=
		continue
	fi
	case $a in
	--jobs|--every|--report|--min|--tokenize) skip=yes ;;
	-*) ;;
	*) have_dir=yes ;;
	esac
done
if test -z "$have_dir"; then
	set -- "$@" /usr/include
	if test -d "$kernel"; then
		set -- "$@" --every "$kernel_every" "$kernel"
	else
		echo "t/agree/run.sh: no kernel tree at $kernel (see the top of this script)" >&2
	fi
fi

# shellcheck disable=SC2086 # $opts is a list of options
exec python3 "$root/t/agree/agree.py" --tokenize "$tokenize" $opts "$@"
