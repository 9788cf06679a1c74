#!/usr/bin/env python3
"""Token blame against line blame on a real history.

    real.py [--dest DEST] [--sample N] [--jobs J] [--worst K] [--cold]
            [--max-newer PCT] [--blame-option OPT]... [--tokstream PATH]
            SRC [REV]

Converts SRC (`tokstream convert SRC DEST`, incremental when DEST exists;
DEST defaults to SRC.tokens) and, unless --cold, runs a report of REV so
that one pass over the whole tree leaves its state in DEST; then for
every C file at REV (default HEAD) (*.c, *.h; or a deterministic sample
of N of them) compares

    tokstream blame -C DEST --porcelain PATH REV
    git -C SRC blame -w --porcelain REV -- PATH

token by token.  A token attributed to a commit *newer* than the commit
git blame -w names for its line (a strict descendant of it) cannot be
right: the line, tokens and all, was as it is at that commit, whitespace
aside.  Prints, per file and in total, the share of such tokens and the
share where the two differ at all, the worst files first.  (A token spanning lines, a
comment or a string, is compared with the commits of all its lines: it
differs when it names none of them, and is newer when newer than all.)  Exits 1 when
the total newer share is above --max-newer percent (default 0.3), 2 on
an error.  Only tokstream's command line is used.
"""

import argparse
import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

from score import parse_porcelain_commits


# options given to every tokstream blame (--blame-option)
BLAME_OPTIONS = []


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (
            " ".join(argv), p.returncode,
            p.stderr.decode("utf-8", "replace").strip()))
    return p.stdout.decode("utf-8", "replace")


class Ancestry:
    """Which commits are ancestors of which: one bit per commit, each
    commit's ancestor set the union of its parents' (rev-list once)."""

    def __init__(self, src, rev):
        out = run(["git", "-C", src, "rev-list", "--topo-order",
                   "--reverse", "--parents", rev])
        self.index = {}
        self.ancestors = []
        for raw in out.split("\n"):
            if not raw:
                continue
            ids = raw.split()
            bits = 0
            for parent in ids[1:]:
                p = self.index[parent]
                bits |= self.ancestors[p] | (1 << p)
            self.index[ids[0]] = len(self.ancestors)
            self.ancestors.append(bits)

    def strict_descendant(self, a, b):
        """Whether commit a is a strict descendant of commit b."""
        ia, ib = self.index.get(a), self.index.get(b)
        if ia is None or ib is None or ia == ib:
            return False
        return bool((self.ancestors[ia] >> ib) & 1)


def line_commits(src, rev, path):
    """The commit of each line of git blame -w, by line number - 1."""
    out = run(["git", "-C", src, "blame", "-w", "--porcelain", rev,
               "--", path])
    return parse_porcelain_commits(out)


def token_commits(tokstream, dest, src, rev, path):
    """(first line, last line, commit) of each token of tokstream blame
    --porcelain: a comment or a string may span lines."""
    out = run([tokstream, "blame", "-C", dest, "--porcelain"] +
              BLAME_OPTIONS + [path, rev])
    text = subprocess.run(["git", "-C", src, "cat-file", "blob",
                           "%s:%s" % (rev, path)], check=True,
                          stdout=subprocess.PIPE).stdout
    starts = [0]
    at = text.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find(b"\n", at + 1)
    result = []
    for raw in out.split("\n"):
        f = raw.split(" ")
        if len(f) == 4 and f[0].isdigit() and len(f[3]) == 40:
            line, col, length = int(f[0]), int(f[1]), int(f[2])
            end = starts[line - 1] + col - 1 + length - 1
            last = line + text.count(b"\n", starts[line - 1], end)
            result.append((line, last, f[3]))
    return result


def measure(args, ancestry, path):
    lines = line_commits(args.src, args.rev, path)
    tokens = token_commits(args.tokstream, args.dest, args.src, args.rev,
                           path)
    newer = differ = 0
    for first, last, commit in tokens:
        # a token spanning lines changed when any of its lines did: it
        # must be one of their commits, and newer than none of them
        by_lines = set(lines[first - 1:last])
        if commit not in by_lines:
            differ += 1
            if all(ancestry.strict_descendant(commit, c) for c in by_lines):
                newer += 1
    return path, len(tokens), newer, differ


def pct(n, d):
    return 100.0 * n / d if d else 0.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src", help="the original repository")
    p.add_argument("rev", nargs="?", default="HEAD")
    p.add_argument("--dest", help="token repository (default SRC.tokens)")
    p.add_argument("--sample", type=int, default=0,
                   help="measure N files, chosen by the hash of their path "
                   "(default: all)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--worst", type=int, default=10,
                   help="files to list, the worst first (default 10)")
    p.add_argument("--max-newer", type=float, default=0.3,
                   help="most tokens newer than their line allowed, percent")
    p.add_argument("--no-convert", action="store_true",
                   help="use DEST as it is")
    p.add_argument("--tokstream", default=os.path.join(root, "tokstream"))
    p.add_argument("--cold", action="store_true",
                   help="blame each file through its own history (default: "
                   "one pass over the whole tree first, as a report makes; "
                   "the attribution is the same)")
    p.add_argument("--blame-option", action="append", default=[],
                   metavar="OPT", help="pass OPT to every tokstream blame "
                   "(repeatable), e.g. --blame-option=--min-move=12")
    args = p.parse_args()
    BLAME_OPTIONS.extend(args.blame_option)
    args.src = os.path.abspath(args.src)
    args.dest = os.path.abspath(args.dest or args.src.rstrip("/") + ".tokens")

    started = time.time()
    try:
        if not args.no_convert:
            run([args.tokstream, "convert", "-q", args.src, args.dest])
        rev = run(["git", "-C", args.src, "rev-parse", "--verify",
                   args.rev + "^{commit}"]).strip()
        state = os.path.join(args.dest, "tokstream", "replay")
        if args.cold:
            shutil.rmtree(state, ignore_errors=True)
        else:
            # the whole tree in one pass, from the first commit: it
            # leaves its state in DEST, which every blame below reads
            for d in ("report-cache", "replay"):
                shutil.rmtree(os.path.join(args.dest, "tokstream", d),
                              ignore_errors=True)
            with tempfile.TemporaryDirectory() as out:
                run([args.tokstream, "report", "-C", args.dest,
                     "--replay=always"] + BLAME_OPTIONS +
                    [os.path.join(out, "report"), rev])
        converted = time.time()
        paths = [x for x in run(["git", "-C", args.src, "ls-tree", "-r",
                                 "--name-only", rev]).split("\n")
                 if x.endswith(".c") or x.endswith(".h")]
        if args.sample and args.sample < len(paths):
            paths = sorted(paths, key=lambda x: hashlib.sha1(
                x.encode()).hexdigest())[:args.sample]
        paths.sort()
        args.rev = rev
        ancestry = Ancestry(args.src, rev)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda x: measure(args, ancestry, x),
                                    paths))
    except RuntimeError as e:
        sys.stderr.write("real.py: %s\n" % e)
        sys.exit(2)
    done = time.time()

    tokens = sum(r[1] for r in results)
    newer = sum(r[2] for r in results)
    differ = sum(r[3] for r in results)
    print("%s at %s: %d commits, %d C files measured" % (
        args.src, rev[:12], len(ancestry.index), len(results)))
    print("(convert%s %.0f s, blames %.0f s)" % (
        "" if args.cold else " and one pass over the whole tree",
        converted - started, done - converted))
    worst = sorted(results, key=lambda r: (-pct(r[2], r[1]), -r[2],
                                           -pct(r[3], r[1]), r[0]))
    print()
    print("%-40s %8s %8s %8s %8s %8s" % ("file (worst first)", "tokens",
                                         "newer", "newer%", "differ",
                                         "differ%"))
    for path, n, nw, df in worst[:args.worst]:
        print("%-40s %8d %8d %7.3f%% %8d %7.3f%%" % (
            path[-40:], n, nw, pct(nw, n), df, pct(df, n)))
    print("%-40s %8d %8d %7.3f%% %8d %7.3f%%" % (
        "TOTAL", tokens, newer, pct(newer, tokens), differ,
        pct(differ, tokens)))
    print()
    if pct(newer, tokens) > args.max_newer:
        print("FAIL: %.3f%% of the tokens attributed to a commit newer than "
              "their line's (target at most %.3f%%)" % (
                  pct(newer, tokens), args.max_newer))
        sys.exit(1)
    print("PASS: %.3f%% of the tokens newer than their line's (at most "
          "%.3f%%)" % (pct(newer, tokens), args.max_newer))


if __name__ == "__main__":
    main()
