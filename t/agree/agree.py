#!/usr/bin/env python3
"""Agreement of tokstream's C/C++ lexer with clang's raw lexer.

Called by t/agree/run.sh (read its header for how to run it).  For every
C/C++ file under the corpus directories it runs

    clang -cc1 -x c   -std=gnu2x   -dump-raw-tokens FILE   (C files)
    clang -cc1 -x c++ -std=gnu++2b -dump-raw-tokens FILE   (C++ files)
    tokenize -l c FILE  /  tokenize -l c++ FILE

and compares the two token sequences, comments aside.

clang's side: each record ends with "\tLoc=<FILE:LINE:COL>"; the token's
bytes are taken from the file itself, from its location to the location
of the next record (clang keeps whitespace as `unknown` tokens, so the
records tile the file).  Whitespace records are skipped, comments are
dropped, a line splice that clang glued to the front of a token is
dropped (our lexer counts it as whitespace), and LF/CR inside a token are
written as \\n and \\r as tokstream's view writes them.

Our side: the view written with --positions, one token per line after
its LINE:COL; comments (tokens starting with // or /*) dropped.

The token texts are aligned as a diff aligns lines (difflib for small
differing regions, GNU diff for large ones); identical = clang tokens in
matching blocks, agreement = identical / clang tokens.  Each differing
region is cut where both sides start a token at the same byte, and each
piece is counted as one mismatch of a kind: the shapes of the tokens on
both sides (ID, NUM, STR or the punctuator), or one of the spec's
deliberate differences from clang ("by design", see by_design()).
"""

import collections
import difflib
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time

C_EXTS = {".c", ".h"}
CXX_EXTS = {".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++",
            ".ipp", ".tcc", ".inl", ".C", ".H"}

NEWLINE = re.compile(rb"\r\n|\n|\r")
SPLICE = rb"\\[ \t\f\v]*(?:\r\n|\n\r|\n|\r)"
LEADING_SPLICES = re.compile(rb"\A(?:" + SPLICE + rb")+")
ALL_SPLICES = re.compile(SPLICE)
VIEW_SPLICES = re.compile(rb"\\[ \t\f\v]*(?:\\r\\n|\\n\\r|\\n|\\r| )")  # as the view writes them
WS = b" \t\n\v\f\r\0"
SMALL = 4000          # difflib below this many differing tokens, GNU diff above
MAX_HUNKS = 200       # hunks kept per file for the report

TOKENIZE = "tokenize/tokenize"


def language(path):
    """'c++' or 'c' as clang -cc1 would be asked to lex the file, or None."""
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    in_cxx_dir = "/c++/" in path
    if ext in CXX_EXTS:
        return "c++"
    if ext in C_EXTS:
        return "c++" if in_cxx_dir else "c"
    if not ext and in_cxx_dir:
        return "c++"       # <string>, <vector>, ...
    return None


def corpus_files(root, every):
    files = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            p = os.path.abspath(os.path.join(d, name))
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            lang = language(p)
            if lang:
                files.append((p, lang))
    if every > 1:
        files = files[::every]
    return files


RECORD = re.compile(rb"([a-z0-9_]+) '.*?\tLoc=<([^\n]*):(\d+):(\d+)>\n", re.S)
SEPARATOR = b"__tokstream_agree_separator__"


def clang_records(paths, lang):
    """{path: [(kind, line, col, match)]} of clang's raw tokens of the files."""
    args = ["clang", "-cc1", "-x", lang,
            "-std=gnu++2b" if lang == "c++" else "-std=gnu2x",
            "-dump-raw-tokens"] + paths
    r = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    out = r.stderr
    recs = {p: [] for p in paths}
    pos, n = 0, len(out)
    cur, cur_name = None, None
    while pos < n:
        m = RECORD.match(out, pos)
        if not m:
            raise ValueError("unparsable clang output near %r" % out[pos:pos + 200])
        name = m.group(2)
        if name != cur_name:
            cur_name = name
            cur = recs.get(os.fsdecode(name))
            if cur is None or cur:
                raise ValueError("clang output for an unexpected file %r" % name)
        cur.append((m.group(1), int(m.group(3)), int(m.group(4)), m))
        pos = m.end()
    if r.returncode != 0:
        raise ValueError("clang exited %d" % r.returncode)
    return recs


def spelling(m):
    """The source spelling of the token of a clang record."""
    rec = m.group(0)
    u = rec.find(b" [UnClean='")
    if u >= 0:
        return rec[u + 11:rec.rindex(b"']\tLoc=<")]
    return rec[len(m.group(1)) + 2:rec.rindex(b"'\t", 0, rec.rindex(b"\tLoc=<") + 1)]


def clang_tokens(recs, src):
    """[(kind, line, text, offset)] from clang's records, comments and
    whitespace out."""
    starts = [0] + [m.end() for m in NEWLINE.finditer(src)]
    offs = []
    for kind, line, col, m in recs:
        if line > len(starts):
            raise ValueError("clang location past the end: line %d" % line)
        offs.append(starts[line - 1] + col - 1)
    if recs:
        # The last token ends where its spelling does: clang prints no
        # record for a line splice or blanks between it and the end.
        off = offs[-1]
        offs.append(min(len(src), off + len(spelling(recs[-1][3]))))
    toks = []
    for i, (kind, line, col, m) in enumerate(recs):
        off, end = offs[i], offs[i + 1]
        if end < off:
            raise ValueError("clang locations out of order at line %d" % line)
        text = src[off:end]
        if kind == b"unknown" and not ALL_SPLICES.sub(b"", text).strip(WS):
            continue
        if text[:1] == b"\\":
            m = LEADING_SPLICES.match(text)
            if m:
                off += m.end()
                text = text[m.end():]
        if kind == b"comment" or (kind == b"unknown" and text[:1] == b"/" and
                                  ALL_SPLICES.sub(b"", text[:64])[:2] == b"/*"):
            continue        # an unterminated block comment is `unknown` to clang
        if b"\n" in text or b"\r" in text:
            text = text.replace(b"\n", b"\\n").replace(b"\r", b"\\r")
        toks.append((kind, line, text, off))
    return toks


def our_tokens(paths, lang, sepfile):
    """{path: [(offset, token)]} of tokstream's views of the files, comments out."""
    args = [TOKENIZE, "--positions", "-l", lang]
    for p in paths:
        args += [p, sepfile]
    r = subprocess.run(args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise ValueError("tokenize exited %d: %r" % (r.returncode, r.stderr[:200]))
    views = r.stdout.split(b"1:1\t" + SEPARATOR + b"\n")
    if len(views) != len(paths) + 1 or views[-1]:
        raise ValueError("tokenize output does not split into %d views" % len(paths))
    return dict(zip(paths, views))


def parse_view(view, src):
    """[(offset, token)] of a view written with --positions, comments out."""
    starts = [0] + [m.end() for m in re.finditer(rb"\n", src)]
    toks = []
    for ln in view.split(b"\n")[:-1]:
        pos, t = ln.split(b"\t", 1)
        if t[:1] == b"/" and t != b"/" and t != b"/=" and (
                t[1:2] in (b"/", b"*") or VIEW_SPLICES.sub(b"", t)[:2] in (b"//", b"/*")):
            continue
        line, col = pos.split(b":")
        toks.append((starts[int(line) - 1] + int(col) - 1, t))
    return toks


def opcodes(a, b):
    """difflib-style (tag, i1, i2, j1, j2) opcodes aligning lists a and b."""
    n, m = len(a), len(b)
    pre = 0
    while pre < n and pre < m and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and suf < m - pre and a[n - 1 - suf] == b[m - 1 - suf]:
        suf += 1
    am, bm = a[pre:n - suf], b[pre:m - suf]
    if len(am) + len(bm) <= SMALL:
        ops = difflib.SequenceMatcher(None, am, bm, autojunk=False).get_opcodes()
        ops = [op for op in ops if op[0] != "equal"]
    else:
        ops = gnu_diff(am, bm)
    return [(t, i1 + pre, i2 + pre, j1 + pre, j2 + pre) for t, i1, i2, j1, j2 in ops]


HUNK = re.compile(rb"^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?$", re.M)


def gnu_diff(a, b):
    with tempfile.TemporaryDirectory(prefix="agree.") as d:
        fa, fb = os.path.join(d, "a"), os.path.join(d, "b")
        with open(fa, "wb") as f:
            f.write(b"".join(t + b"\n" for t in a))
        with open(fb, "wb") as f:
            f.write(b"".join(t + b"\n" for t in b))
        out = subprocess.run(["diff", fa, fb], stdout=subprocess.PIPE).stdout
    ops = []
    for m in HUNK.finditer(out):
        a1, a2, c, b1, b2 = m.groups()
        a1, b1 = int(a1), int(b1)
        a2 = int(a2) if a2 else a1
        b2 = int(b2) if b2 else b1
        if c == b"a":
            ops.append(("insert", a1, a1, b1 - 1, b2))
        elif c == b"d":
            ops.append(("delete", a1 - 1, a2, b1, b1))
        else:
            ops.append(("replace", a1 - 1, a2, b1 - 1, b2))
    return ops


def shape(t):
    """A token's kind for grouping mismatches: its text if short punctuation."""
    c = t[:1]
    if re.match(rb"[A-Za-z_$\x80-\xff]", c):
        if re.match(rb"(?:u8|[uUL])?R?[\"']", t):
            return "STR"
        return "ID"
    if re.match(rb"[0-9]|\.[0-9]", t):
        return "NUM"
    if c in (b'"', b"'"):
        return "STR"
    return t[:6].decode("latin-1")


def by_design(ctoks, otoks, lang):
    """Why a mismatch is one of the spec's deliberate differences, or None."""
    texts = [t[2] for t in ctoks] + otoks
    if any(re.search(rb"[\x80-\xff]", t) for t in texts):
        return "by design: bytes >= 0x80 are identifier characters"
    if lang == "c++" and any(re.search(rb"[\"'][_\x80-\xff][\w\x80-\xff]*\Z", t[2])
                             for t in ctoks):
        return ("by design: C++ user literal suffixes (\"...\"_x) are identifiers "
                "(C glues strings to macros: \"\\t\"__ASM_ARG)")
    if any(b"\0" in t for t in otoks):
        return "by design: a NUL byte is a token (clang: whitespace)"
    if lang == "c" and (any(t in (b".*", b"->*", b"<=>") or
                            re.match(rb"(?:u8'|(?:u8|[uUL])?R\")", t) for t in otoks) or
                        (b"<:" in texts[:len(ctoks)] and b"::" in otoks)):
        return "by design: C++ spellings (.* ->* <=> <:: raw strings u8'') in a C file"
    return None


def esc(t):
    """A token as the view shows it, bytes outside printable ASCII as \\xNN."""
    return re.sub(r"[^\x20-\x7e]", lambda m: "\\x%02x" % ord(m.group()),
                  t.decode("latin-1"))


def split_hunk(ca, ob):
    """Cut a hunk where both sides start a token at the same offset."""
    common = sorted({t[3] for t in ca} & {t[0] for t in ob})
    if len(common) < 2 and (not common or
                            common[0] == min([t[3] for t in ca] + [t[0] for t in ob])):
        return [(ca, ob)]
    segs = []
    cuts = common + [float("inf")]
    lo = -1
    for hi in cuts:
        sa = [t for t in ca if lo <= t[3] < hi]
        sb = [t for t in ob if lo <= t[0] < hi]
        if (sa or sb) and [t[2] for t in sa] != [t[1] for t in sb]:
            segs.append((sa, sb))
        lo = hi
    return segs


def compare(path, lang, ctoks, otoks):
    a = [t[2] for t in ctoks]
    b = [t[1] for t in otoks]
    hunks = []
    ident = len(a)
    if a != b:
        for tag, i1, i2, j1, j2 in opcodes(a, b):
            ident -= i2 - i1
            for ca, ob in split_hunk(ctoks[i1:i2], otoks[j1:j2]):
                line = ca[0][1] if ca else (ctoks[i1 - 1][1] if 0 < i1 <= len(ctoks) else 1)
                obt = [t[1] for t in ob]
                why = by_design(ca, obt, lang)
                key = "clang [%s] ours [%s]" % (
                    " ".join(shape(t[2]) for t in ca[:4]) + (" ..." if len(ca) > 4 else ""),
                    " ".join(shape(t) for t in obt[:4]) + (" ..." if len(obt) > 4 else ""))
                ex = "%s:%d: clang %s | ours %s" % (
                    path, line,
                    " ".join("%s'%s'" % (t[0].decode(), esc(t[2][:60])) for t in ca[:4]),
                    " ".join("'%s'" % esc(t[:60]) for t in obt[:4]))
                if len(hunks) < MAX_HUNKS:
                    hunks.append((why, key, len(ca), len(ob), ex))
    return (len(a), ident, len(b), hunks)


def process_batch(job):
    """Results [(path, lang, (tokens, identical, ours, hunks) or None, error)]."""
    batch, lang, sepfile = job
    try:
        crecs = clang_records(batch, lang)
        otoks = our_tokens(batch, lang, sepfile)
    except (OSError, ValueError) as e:
        if len(batch) == 1:
            return [(batch[0], lang, None, str(e))]
        res = []
        for p in batch:     # find the file that failed
            res += process_batch(([p], lang, sepfile))
        return res
    res = []
    for p in batch:
        try:
            with open(p, "rb") as f:
                src = f.read()
            ctoks = clang_tokens(crecs[p], src)
        except (OSError, ValueError) as e:
            res.append((p, lang, None, str(e)))
            continue
        res.append((p, lang, compare(p, lang, ctoks, parse_view(otoks[p], src)), None))
    return res


def batches(files, sepfile):
    """Consecutive files of one language, up to 64 files or 2 MB a batch."""
    cur, size, lang = [], 0, None
    for p, l in files:
        try:
            sz = os.path.getsize(p)
        except OSError:
            sz = 0
        if cur and (l != lang or len(cur) >= 64 or size + sz > 2 << 20):
            yield (cur, lang, sepfile)
            cur, size = [], 0
        cur.append(p)
        size += sz
        lang = l
    if cur:
        yield (cur, lang, sepfile)


def pct(x, n):
    return "%.3f%%" % (100.0 * x / n) if n else "-"


def main():
    global TOKENIZE
    args = sys.argv[1:]
    jobs, every, report, minimum = 2, 1, None, None
    corpora = []
    while args:
        a = args.pop(0)
        if a == "--tokenize":
            TOKENIZE = args.pop(0)
        elif a == "--jobs":
            jobs = int(args.pop(0))
        elif a == "--every":
            every = int(args.pop(0))        # for the corpora after it
        elif a == "--report":
            report = args.pop(0)
        elif a == "--min":
            minimum = float(args.pop(0))
        else:
            corpora.append((a.rstrip("/") or "/", every))
    t0 = time.time()
    rep = open(report, "w") if report else None
    summary = []
    failed = False
    tmpdir = tempfile.TemporaryDirectory(prefix="agree.")
    sepfile = os.path.join(tmpdir.name, "separator.c")
    with open(sepfile, "wb") as f:
        f.write(SEPARATOR + b"\n")
    with multiprocessing.Pool(jobs) as pool:
        for root, every in corpora:
            files = corpus_files(root, every)
            tc0 = time.time()
            n_files = n_tok = n_ident = n_ours = 0
            bad_files = []
            errors = []
            kinds = collections.OrderedDict()
            design = collections.Counter()
            results = (r for rs in pool.imap(process_batch, batches(files, sepfile))
                       for r in rs)
            for path, lang, res, err in results:
                if err:
                    errors.append((path, err))
                    continue
                ct, ident, ot, hunks = res
                n_files += 1
                n_tok += ct
                n_ident += ident
                n_ours += ot
                if ident != ct or ot != ct:
                    bad_files.append((ct - ident, ct, path))
                for why, key, na, nb, ex in hunks:
                    k = why or key
                    if why:
                        design[why] += na
                    e = kinds.setdefault(k, [0, 0, 0, []])
                    e[0] += 1
                    e[1] += na
                    e[2] += nb
                    if len(e[3]) < 3:
                        e[3].append(ex)
            elapsed = time.time() - tc0
            n_design = sum(design.values())
            summary.append((root if every == 1 else "%s (1/%d)" % (root, every), n_files, len(bad_files), n_tok, n_ident, n_ours,
                            n_design, elapsed, len(errors)))
            if minimum is not None and n_tok and 100.0 * n_ident / n_tok <= minimum:
                failed = True
            out = [f"== {root}: {n_files} files ({('every %d' % every) if every > 1 else 'all'}"
                   f" of the C/C++ files), {n_tok} clang tokens, {n_ident} identical"
                   f" ({pct(n_ident, n_tok)}), {elapsed:.0f}s"]
            for path, err in errors:
                out.append(f"   error: {path}: {err}")
            ranked = sorted(kinds.items(),
                            key=lambda kv: (-kv[1][1] - kv[1][2], -kv[1][0], kv[0]))
            out.append("   most common mismatch kinds (times, clang tokens, our tokens):")
            for k, (nh, na, nb, exs) in ranked[:15]:
                out.append(f"   {nh:7d} {na:7d} {nb:7d}  {k}")
                for ex in exs[:2]:
                    out.append(f"                     e.g. {ex[:200]}")
            if design:
                out.append("   of which by design (clang tokens):")
                for why, c in design.most_common():
                    out.append(f"   {c:16d}  {why}")
            bad_files.sort(key=lambda x: (-x[0], x[2]))
            out.append(f"   files with mismatches: {len(bad_files)}; the worst:")
            for miss, ct, path in bad_files[:10]:
                out.append(f"   {miss:7d} of {ct:8d}  {path}")
            print("\n".join(out), flush=True)
            if rep:
                rep.write("\n".join(out) + "\n")
                for k, (nh, na, nb, exs) in ranked:
                    rep.write(f"kind {nh} {na} {nb} {k}\n")
                    for ex in exs:
                        rep.write(f"   {ex}\n")
                for miss, ct, path in bad_files:
                    rep.write(f"file {miss} {ct} {path}\n")
    total = time.time() - t0
    print()
    print("%-34s %7s %6s %12s %12s %9s %10s %6s" % (
        "corpus", "files", "differ", "tokens", "identical", "agreement",
        "by design", "time"))
    for root, nf, nb, nt, ni, no, nd, el, ne in summary:
        print("%-34s %7d %6d %12d %12d %9s %10d %5.0fs%s" % (
            root, nf, nb, nt, ni, pct(ni, nt), nd, el,
            "  (%d files failed)" % ne if ne else ""))
    print("tokens = clang's tokens, comments and whitespace aside; identical = "
          "tokens in matching blocks; by design = mismatched clang tokens the "
          "spec accounts for; total %.0fs" % total)
    if rep:
        rep.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
