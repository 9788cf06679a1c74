#!/usr/bin/env python3
"""Helper of t/agree/perl.sh and t/agree/php.sh: compare a reference
tokenizer's tokens with tokstream's.

usage: perl-php-compare.py TOKENIZE LANG REFERENCE [TOP]

REFERENCE holds, for each file, a line "\\x01FILE path" and then the
reference tokenizer's tokens one a line, already adjusted to tokstream's
documented choices and escaped as the view escapes them (LF, CR as \\n,
\\r).  For each file this runs `TOKENIZE -l LANG --exact-comments path`
and aligns the two token lists with GNU diff (difflib is quadratic on a
file that differs much), so that one disagreement does not count the rest
of the file as wrong.  identical = tokens in matching
blocks; agreement = identical / the reference's token count.  Prints files,
tokens, identical, agreement %, the most common mismatches and the files
with most differing tokens.
"""
import collections
import os
import re
import subprocess
import sys

from token_align import print_agreement, print_worst_files
import tempfile

tokenize, lang, reference = sys.argv[1:4]
top = int(sys.argv[4]) if len(sys.argv) > 4 else 20


def ours(path):
    out = subprocess.run([tokenize, "-l", lang, "--exact-comments", path],
                         stdout=subprocess.PIPE, check=True).stdout
    toks = out.split(b"\n")
    if toks and toks[-1] == b"":
        toks.pop()
    return toks


def short(seq):
    s = b" ".join(seq).decode("utf-8", "replace")
    return s if len(s) <= 70 else s[:67] + "..."


def records(f):
    path, toks = None, []
    for line in f:
        line = line.rstrip(b"\n")
        if line.startswith(b"\x01FILE "):
            if path is not None:
                yield path, toks
            path, toks = line[6:].decode("utf-8", "surrogateescape"), []
        else:
            toks.append(line)
    if path is not None:
        yield path, toks


HUNK = re.compile(rb"^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?$")


def hunks(a, b, tmp):
    """(i1, i2, j1, j2) of each differing region, as GNU diff finds them."""
    pa, pb = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    with open(pa, "wb") as f:
        f.write(b"".join(t + b"\n" for t in a))
    with open(pb, "wb") as f:
        f.write(b"".join(t + b"\n" for t in b))
    out = subprocess.run(["diff", "-a", pa, pb], stdout=subprocess.PIPE).stdout
    for line in out.split(b"\n"):
        m = HUNK.match(line)
        if not m:
            continue
        a1, a2, op, b1, b2 = m.groups()
        a1, b1 = int(a1), int(b1)
        a2 = int(a2) if a2 else a1
        b2 = int(b2) if b2 else b1
        if op == b"a":
            yield a1, a1, b1 - 1, b2
        elif op == b"d":
            yield a1 - 1, a2, b1, b1
        else:
            yield a1 - 1, a2, b1 - 1, b2


files = total = same = 0
mismatches = collections.Counter()
examples = {}
per_file = []
with open(reference, "rb") as f, tempfile.TemporaryDirectory() as tmp:
    for path, a in records(f):
        b = ours(path)
        files += 1
        total += len(a)
        if a == b:
            same += len(a)
            continue
        differing = 0
        for i1, i2, j1, j2 in hunks(a, b, tmp):
            differing += i2 - i1
            key = (short(a[i1:i2]), short(b[j1:j2]))
            mismatches[key] += 1
            examples.setdefault(key, path)
        same += len(a) - differing
        per_file.append((differing, path))

print("files:      %d" % files)
print("tokens:     %d (reference)" % total)
print_agreement(same, total)
if mismatches:
    print("most common mismatches (count: reference => tokstream, first file):")
    for (x, y), c in mismatches.most_common(top):
        print("  %5d: %s  =>  %s   [%s]" % (c, x or "(nothing)", y or "(nothing)",
                                          examples[(x, y)]))
print_worst_files(per_file)
