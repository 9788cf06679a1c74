#!/usr/bin/env python3
"""Agreement of tokstream's Java lexer with javac's scanner.

Called by t/agree/java.sh (read its header for how to run it):

    python3 t/agree/java-compare.py TOKENIZE NTOP CORPUS-NAME < TOKENS

TOKENS is what t/agree/JavaTokens.java prints: for each file a line
"\\001FILE path", javac's tokens one a line (exact source text, LF and CR as
\\n and \\r), and "\\001END ok" or "\\001END error".  Files for which javac
reported an error are skipped and counted.  Each other file is tokenized by
`TOKENIZE -l java --exact-comments FILE`, minus the comment tokens (those
starting with // or /*: no other token can), and the two lists are aligned
with difflib (after trimming the common head and tail), so that one
disagreement does not count the rest of the file as wrong.  identical =
javac's tokens inside matching blocks, agreement = identical / javac's token
count.  Prints files, skipped, tokens, identical, agreement % and the NTOP
most common mismatches (javac's tokens => ours), then "agreement: X%".
"""

import collections
import multiprocessing
import subprocess
import sys

from token_align import align, print_corpus, tally

TOKENIZE = None


def read_files(stream):
    """(path, ok, tokens) for each file in JavaTokens' output."""
    path, toks = None, []
    for line in stream:
        line = line[:-1] if line.endswith(b"\n") else line
        if line.startswith(b"\001FILE "):
            path, toks = line[6:].decode("utf-8", "surrogateescape"), []
        elif line.startswith(b"\001END "):
            yield path, line[5:] == b"ok", toks
            path = None
        else:
            toks.append(line)


def our_tokens(path):
    out = subprocess.run([TOKENIZE, "-l", "java", "--exact-comments", path],
                         stdout=subprocess.PIPE, check=True).stdout
    return [t for t in out.split(b"\n")[:-1]
            if not t.startswith(b"//") and not t.startswith(b"/*")]


def compare(item):
    """(tokens, identical, mismatches) for one file."""
    path, theirs = item
    ours = our_tokens(path)
    same, mism = align(theirs, ours, path)
    return len(theirs), same, mism


def main():
    global TOKENIZE
    TOKENIZE = sys.argv[1]
    ntop = int(sys.argv[2])
    corpus = sys.argv[3]
    items, skipped = [], 0
    for path, ok, toks in read_files(sys.stdin.buffer):
        if ok:
            items.append((path, toks))
        else:
            skipped += 1
    tokens = same = 0
    counts = collections.Counter()
    example = {}
    with multiprocessing.Pool(2) as pool:
        for t, s, mism in pool.imap(compare, items, chunksize=16):
            tokens += t
            same += s
            tally(mism, counts, example)
    pct = print_corpus(corpus, len(items), skipped, "javac reported errors", tokens, same,
                       counts, example, ntop, "javac")
    print("agreement: %.4f%%" % pct)


if __name__ == "__main__":
    main()
