#!/usr/bin/env python3
"""Helper of t/agree/javascript.sh: compare acorn's tokens with tokstream's.

Reads the JSON lines of javascript-acorn.js on stdin; for every file acorn
could tokenize, runs `TOKENIZE -l javascript --exact-comments FILE`, drops
the comment tokens (those starting with // or /*, and a #! line at the top),
and aligns the two token lists with difflib (see align()).  Identical tokens are those in
matching blocks; the denominator is acorn's token count.  Token texts are
compared as the view writes them (LF and CR inside a token as \\n and \\r),
so acorn's texts get the same escaping.
"""
import collections
import difflib
import json
import subprocess
import sys

from token_align import print_agreement, print_worst_files

tokenize = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 20


def escape(t):
    return t.replace("\n", "\\n").replace("\r", "\\r")


def ours(path):
    out = subprocess.run([tokenize, "-l", "javascript", "--exact-comments", path],
                         stdout=subprocess.PIPE, check=True).stdout
    toks = out.decode("utf-8", "replace").split("\n")
    if toks and toks[-1] == "":
        toks.pop()
    res = []
    for i, t in enumerate(toks):
        if t.startswith("//") or t.startswith("/*") or (i == 0 and t.startswith("#!")):
            continue
        res.append(t)
    return res


def short(seq):
    s = " ".join(seq)
    return s if len(s) <= 60 else s[:57] + "..."


def align(a, b):
    """Matched token count and the differing (a, b) stretches.

    Walks both lists; at each disagreement, difflib aligns a window after
    it (256 tokens each, doubled until difflib finds an identical run of 8
    tokens or the window reaches both ends), the differences up to that run
    are recorded and the walk resumes there.  Running difflib on windows
    rather than on whole files keeps it fast (its matcher is quadratic in
    the worst case with tokens as frequent as `(` and `,`) and still stops
    one disagreement from counting the rest as wrong.
    """
    i = j = m = 0
    diffs = []
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            i += 1
            j += 1
            m += 1
            continue
        w = 256
        while True:
            sa, sb = a[i:i + w], b[j:j + w]
            ops = difflib.SequenceMatcher(None, sa, sb, autojunk=False).get_opcodes()
            k = next((k for k, op in enumerate(ops) if op[0] == "equal" and
                      (op[2] - op[1] >= 8 or
                       (i + op[2] == len(a) and j + op[4] == len(b)))), None)
            if k is not None or (i + w >= len(a) and j + w >= len(b)):
                break
            w *= 2
        if k is None:
            k = len(ops)
        for op, i1, i2, j1, j2 in ops[:k]:
            if op == "equal":
                m += i2 - i1
            else:
                diffs.append((sa[i1:i2], sb[j1:j2]))
        if k < len(ops):
            i, j = i + ops[k][1], j + ops[k][3]
        else:
            i, j = i + len(sa), j + len(sb)
    if i < len(a) or j < len(b):
        diffs.append((a[i:], b[j:]))
    return m, diffs


files = skipped = total = same = 0
mismatches = collections.Counter()
per_file = []
skipped_why = collections.Counter()
for line in sys.stdin:
    rec = json.loads(line)
    if "err" in rec:
        skipped += 1
        skipped_why[rec["err"][:60]] += 1
        continue
    a = [escape(t) for t in rec["t"]]
    b = ours(rec["f"])
    m, diffs = align(a, b)
    for x, y in diffs:
        mismatches[(short(x), short(y))] += 1
    if diffs:
        per_file.append((len(a) - m, rec["f"]))
    files += 1
    total += len(a)
    same += m

print("files:      %d (skipped, acorn cannot tokenize: %d)" % (files, skipped))
for why, c in skipped_why.most_common(5):
    print("    skipped %d: %s" % (c, why))
print("tokens:     %d (acorn, comments aside)" % total)
print_agreement(same, total)
if mismatches:
    print("most common mismatches (count: acorn => tokstream):")
    for (x, y), c in mismatches.most_common(top):
        print("  %5d: %s  =>  %s" % (c, x or "(nothing)", y or "(nothing)"))
print_worst_files(per_file)
