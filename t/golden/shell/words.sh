#!/bin/sh
# a comment
set -eu # trailing comment
x=1 y="two words" z=a#b
echo a"b"c pre$x.txt $1 $@ $# $? $$ $! $- ${x:-"}"} $ \$ \"lit\" a\ b
echo $(ls "$(dirname "$0")" | wc -l) `date +%s` $((1 + (2 * 3))) "$(echo ")")"
echo 'single \ no escape' $'ansi \' quote' $"locale"
cmd 2>&1 >>log 2>>err <in >|clobber &>all &>>all2 <&3 >&- 3<>rw 0<x
a && b || c | d |& e; f & g;; h;& i;;& (j) >&2
long \
  continued
if [ -f "$f" ]; then echo yes; fi
