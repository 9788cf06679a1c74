#!/bin/sh
# contrib/embed.sh FILE: a stylesheet or script of the pages
# (contrib/page/), as C source that defines NAME[] and NAME_len
# (contrib/page.h; NAME is the file's name, html.css: html_css), for the
# Makefile to build into tokstream.  The pages are single files, so each
# carries its style and script; kept apart from the C, they read and
# check as what they are.
#
# What a page holds is FILE without its comment lines (a line that
# begins with //, or the lines from one that begins with /* to one that
# ends with */): the comments are for who reads the file, not for every
# page.  The lines are joined by a newline, in a stylesheet by nothing
# (the page holds it on one line), and the last ends with none.
#
# A byte array, from od: no xxd to depend on, and no text of the file
# for a C string to escape (or to read as trigraphs).
set -eu
file=$1
test -r "$file" || { echo "embed.sh: cannot read $file" >&2; exit 1; }
name=$(basename "$file" | LC_ALL=C tr -c 'A-Za-z0-9\n' '_')
case $file in
*.css) sep= ;;
*) sep='\n' ;;
esac

printf '/* Made from %s by contrib/embed.sh: edit that, not this. */\n' "$file"
printf '#include "../page.h"\n\n'
printf 'const unsigned char %s[] = {\n' "$name"
LC_ALL=C awk -v sep="$sep" '
	comment { if ($0 ~ /\*\/[ \t]*$/) comment = 0; next }
	/^[ \t]*\/\// { next }
	/^[ \t]*\/\*/ { if ($0 !~ /\*\/[ \t]*$/) comment = 1; next }
	{ printf "%s%s", n++ ? sep : "", $0 }
' "$file" | LC_ALL=C od -A n -v -t u1 |
LC_ALL=C awk '{ line = "\t"; for (i = 1; i <= NF; i++) line = line $i ","; print line }'
# the 0: a C string too, and an empty file still an array
printf '\t0\n};\n'
printf 'const size_t %s_len = sizeof(%s) - 1;\n' "$name" "$name"
