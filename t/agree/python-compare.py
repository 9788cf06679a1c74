#!/usr/bin/env python3
"""Agreement of tokstream's Python lexer with Python's own tokenize module.

Called by t/agree/python.sh (read its header for how to run it):

    python3 t/agree/python-compare.py TOKENIZE NTOP DIR...

Each DIR is a corpus; every .py file under it (site-packages excepted) is
tokenized twice:
  - by tokenize.tokenize() of the running Python, skipping the NEWLINE,
    NL, INDENT, DEDENT, COMMENT, ENCODING and ENDMARKER tokens (and
    ERRORTOKENs that are only whitespace); each token is its string
    (from Python 3.12 on, tokenize splits an f-string into FSTRING_START,
    the tokens inside, FSTRING_END: the source from start to end is taken
    as one token, as 3.11 gives it and as tokstream does),
    encoded back in the file's encoding, with LF and CR written as \\n and
    \\r as tokstream's view writes them;
  - by `TOKENIZE -l python --exact-comments FILE`, minus the comment
    tokens (those starting with '#': no other token can), and minus the
    token of a leading UTF-8 byte order mark (tokenize drops the mark).
Files that tokenize itself cannot tokenize (SyntaxError, TokenError) are
skipped and counted.  The two lists are aligned with difflib (after
trimming the common head and tail), so that one disagreement does not count
the rest of the file as wrong; identical = Python's tokens inside matching
blocks, agreement = identical / Python's token count.  Prints, per corpus,
files, skipped, tokens, identical and agreement %, then the NTOP most
common mismatches (Python's tokens => ours), then an overall line
"agreement: X%".
"""

import collections
import io
import multiprocessing
import os
import subprocess
import sys
import tokenize

from token_align import align, print_corpus, tally

SKIP = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
        tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER}
TOKENIZE = None
BOM = b"\xef\xbb\xbf"
# Python 3.12+ splits an f-string into FSTRING_START ... FSTRING_END; its
# span is taken back from the source, as one token.
FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
FSTRING_END = getattr(tokenize, "FSTRING_END", -1)


def escape(b):
    return b.replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def python_tokens(data):
    """Python's token list for the file's bytes, and its encoding."""
    toks = []
    enc = "utf-8"
    fstring = None        # Python 3.12+: [depth, start offset, line offsets]
    for t in tokenize.tokenize(io.BytesIO(data).readline):
        if t.type == tokenize.ENCODING:
            enc = t.string
            continue
        if t.type == FSTRING_START:
            if fstring is None:
                fstring = [0, 0, line_offsets(data, enc)]
            if not fstring[0]:
                fstring[1] = offset(fstring[2], t.start)
            fstring[0] += 1
            continue
        if fstring and fstring[0]:
            if t.type == FSTRING_END:
                fstring[0] -= 1
                if not fstring[0]:
                    text = fstring[2][-1][fstring[1]:offset(fstring[2], t.end)]
                    toks.append(escape(text.encode(enc, "surrogateescape")))
            continue
        if t.type in SKIP:
            continue
        if t.type == tokenize.ERRORTOKEN and not t.string.strip():
            continue
        toks.append(escape(t.string.encode(enc, "surrogateescape")))
    return toks, enc


def line_offsets(data, enc):
    """Offsets of the lines (as tokenize counts them) in the decoded text, then the text."""
    text = data[len(BOM):] if data.startswith(BOM) else data
    text = text.decode(enc, "surrogateescape")
    offs = [0, 0]
    for line in text.split("\n")[:-1]:
        offs.append(offs[-1] + len(line) + 1)
    offs.append(text)
    return offs


def offset(offs, rowcol):
    return offs[rowcol[0]] + rowcol[1]


def our_tokens(path, bom):
    out = subprocess.run([TOKENIZE, "-l", "python", "--exact-comments", path],
                         stdout=subprocess.PIPE, check=True).stdout
    toks = [t for t in out.split(b"\n")[:-1] if not t.startswith(b"#")]
    if bom and toks and toks[0] == BOM:
        toks = toks[1:]
    return toks


def compare(path):
    """(status, tokens, identical, mismatches) for one file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        theirs, enc = python_tokens(data)
    except (SyntaxError, tokenize.TokenError, UnicodeError, IndentationError):
        return ("skipped", 0, 0, [])
    ours = our_tokens(path, data.startswith(BOM))
    same, mism = align(theirs, ours, path)
    return ("ok", len(theirs), same, mism)


def main():
    global TOKENIZE
    TOKENIZE = os.path.abspath(sys.argv[1])
    ntop = int(sys.argv[2])
    corpora = sys.argv[3:]
    total_tokens = total_same = 0
    with multiprocessing.Pool(2) as pool:
        for corpus in corpora:
            files = []
            for root, dirs, names in os.walk(corpus):
                dirs[:] = sorted(d for d in dirs if d != "site-packages")
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".py")]
            nfiles = skipped = tokens = same = 0
            counts = collections.Counter()
            example = {}
            for status, t, s, mism in pool.imap(compare, files, chunksize=8):
                if status == "skipped":
                    skipped += 1
                    continue
                nfiles += 1
                tokens += t
                same += s
                tally(mism, counts, example)
            print_corpus(corpus, nfiles, skipped, "tokenize cannot read them", tokens, same,
                         counts, example, ntop, "python")
            total_tokens += tokens
            total_same += same
    pct = 100.0 * total_same / total_tokens if total_tokens else 100.0
    print("agreement: %.4f%%" % pct)


if __name__ == "__main__":
    main()
