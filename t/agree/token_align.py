"""Alignment of a reference tokenizer's tokens with ours, shared by the
comparison scripts of t/agree, and the summary each prints.

The common head and tail are cut off first: difflib is quadratic in the
differing region, and most files agree almost everywhere.
"""

import difflib


def show(toks, limit=6):
    s = b" ".join(toks[:limit]).decode("utf-8", "replace")
    if len(toks) > limit:
        s += " ..."
    return s[:120] if s else "(nothing)"


def align(theirs, ours, path, most=50):
    """(identical tokens, [(path, mismatch)]), at most `most` mismatches."""
    if theirs == ours:
        return len(theirs), []
    head = 0
    while head < min(len(theirs), len(ours)) and theirs[head] == ours[head]:
        head += 1
    tail = 0
    while (tail < min(len(theirs), len(ours)) - head and
           theirs[-1 - tail] == ours[-1 - tail]):
        tail += 1
    a = theirs[head:len(theirs) - tail]
    b = ours[head:len(ours) - tail]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    same = head + tail + sum(m.size for m in sm.get_matching_blocks())
    mism = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != "equal" and len(mism) < most:
            mism.append((path, "%s => %s" % (show(a[i1:i2]), show(b[j1:j2]))))
    return same, mism


def tally(mism, counts, example):
    """Count each mismatch, and keep the first file it was seen in."""
    for path, m in mism:
        counts[m] += 1
        example.setdefault(m, path)


def print_corpus(corpus, nfiles, skipped, why_skipped, tokens, same, counts, example,
                 ntop, reference):
    """The summary of one corpus, as java-compare.py and python-compare.py print it."""
    pct = 100.0 * same / tokens if tokens else 100.0
    print("corpus: %s" % corpus)
    print("files: %d (skipped, %s: %d)" % (nfiles, why_skipped, skipped))
    print("tokens: %d" % tokens)
    print("identical: %d" % same)
    print("corpus agreement: %.4f%%" % pct)
    print("most common mismatches (%s => ours), count, first file:" % reference)
    for m, c in counts.most_common(ntop):
        print("  %6d  %s    [%s]" % (c, m, example[m]))
    return pct


def print_agreement(same, total):
    """The totals, as javascript-compare.py and perl-php-compare.py print them."""
    print("identical:  %d" % same)
    print("agreement:  %.4f%%" % (100.0 * same / total if total else 0.0))


def print_worst_files(per_file):
    """The five files with the most differing tokens."""
    if per_file:
        print("files with most differing tokens:")
        for d, f in sorted(per_file, reverse=True)[:5]:
            print("  %5d  %s" % (d, f))
