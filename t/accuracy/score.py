#!/usr/bin/env python3
"""Score token attribution against a generated history's truth.

    score.py [--tokstream PATH] [--dest DEST] [--threshold PCT]
             [--per-file] [--worst N] SRC TRUTH

Converts SRC (`tokstream convert SRC DEST`; DEST defaults to SRC.tokens),
then for every file of TRUTH (written by generate.py) counts the tokens
each method attributes to their true commit:

  token blame        tokstream blame -C DEST --porcelain PATH
  git blame view     git -C DEST blame --porcelain TOKEN-HEAD -- PATH
  git blame view --minimal
  line blame -w      git -C SRC blame --porcelain -w HEAD -- PATH
  line blame -w -M   (each token gets the commit of its line)

A token counts as right when the method names its true commit or one of
the commits the truth lists as equally right (diff sliders).  Prints a
table; exits 1 when token blame is below --threshold percent (default
99.5) or, short of 100%, not above every other method; 2 on an error.  Only the command
line of tokstream is used, so any engine behind it can be scored.
"""

import argparse
import os
import subprocess
import sys


# options given to every tokstream blame (--blame-option)
BLAME_OPTIONS = []


def run(argv, cwd=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("score.py: %s failed (exit %d)\n" %
                         (" ".join(argv), p.returncode))
        sys.exit(2)
    return p.stdout.decode("utf-8", "replace")


def read_truth(path):
    """{path: [(line, col, commit, {also})]}, in token order."""
    truth = {}
    with open(path) as fh:
        for raw in fh:
            if raw.startswith("#"):
                continue
            name, index, line, col, commit, also = raw.rstrip("\n").split("\t")
            toks = truth.setdefault(name, [])
            if int(index) != len(toks) + 1:
                sys.exit("score.py: %s: token %s out of order" % (path, index))
            alts = set() if also == "-" else set(also.split(","))
            toks.append((int(line), int(col), commit, alts))
    return truth


def read_commit_map(dest):
    """{token commit: original commit}."""
    back = {}
    with open(os.path.join(dest, "tokstream", "commit-map")) as fh:
        for raw in fh:
            original, token = raw.split()
            back[token] = original
    return back


def parse_porcelain_commits(text):
    """The commit of every final line of `git blame --porcelain` output,
    as a list indexed by line number - 1."""
    by_line = {}
    expect_header = True
    for raw in text.split("\n"):
        if raw.startswith("\t"):
            expect_header = True
            continue
        if expect_header and raw:
            fields = raw.split(" ")
            if len(fields) >= 3 and len(fields[0]) == 40:
                by_line[int(fields[2])] = fields[0]
                expect_header = False
    return [by_line[i] for i in range(1, len(by_line) + 1)]


def token_blame(tokstream, dest, path):
    """[(line, col, original commit)] from tokstream blame --porcelain."""
    out = run([tokstream, "blame", "-C", dest, "--porcelain"] +
              BLAME_OPTIONS + [path])
    result = []
    for raw in out.split("\n"):
        f = raw.split(" ")
        if len(f) == 4 and f[0].isdigit() and len(f[3]) == 40:
            result.append((int(f[0]), int(f[1]), f[3]))
    return result


def score(tokstream, src, dest, truth, per_file, worst=0):
    back = read_commit_map(dest)
    token_head = run(["git", "-C", dest, "rev-parse", "HEAD"]).strip()
    methods = ["token blame", "git blame view", "git blame view --minimal",
               "line blame -w", "line blame -w -M"]
    right = {m: 0 for m in methods}
    strict = {m: 0 for m in methods}
    total = 0
    rows = []
    # the commits token blame credits with tokens not theirs, and how many
    wrongly_credited = {}
    for name in sorted(truth):
        toks = truth[name]
        got = {}
        tb = token_blame(tokstream, dest, name)
        if [(l, c) for l, c, _ in tb] != [(l, c) for l, c, _, _ in toks]:
            sys.stderr.write("score.py: %s: tokstream blame gives %d tokens "
                             "at other positions than the truth's %d\n" %
                             (name, len(tb), len(toks)))
            sys.exit(2)
        got["token blame"] = [c for _, _, c in tb]
        for label, extra in (("git blame view", []),
                             ("git blame view --minimal", ["--minimal"])):
            commits = parse_porcelain_commits(run(
                ["git", "-C", dest, "blame", "--porcelain"] + extra +
                [token_head, "--", name]))
            got[label] = [back.get(c, c) for c in commits]
        for label, extra in (("line blame -w", ["-w"]),
                             ("line blame -w -M", ["-w", "-M"])):
            lines = parse_porcelain_commits(run(
                ["git", "-C", src, "blame", "--porcelain"] + extra +
                ["HEAD", "--", name]))
            got[label] = [lines[l - 1] for l, _, _, _ in toks]
        row = [name, len(toks)]
        for m in methods:
            if len(got[m]) != len(toks):
                sys.stderr.write("score.py: %s: %s gives %d tokens, the "
                                 "truth %d\n" % (name, m, len(got[m]),
                                                 len(toks)))
                sys.exit(2)
            r = s = 0
            for c, (_, _, true, alts) in zip(got[m], toks):
                if c == true:
                    s += 1
                    r += 1
                elif c in alts:
                    r += 1
                elif m == "token blame":
                    key = (name, c)
                    wrongly_credited[key] = wrongly_credited.get(key, 0) + 1
            right[m] += r
            strict[m] += s
            row.append(r)
        rows.append(row)
        total += len(toks)
    if per_file:
        print("%-28s %8s  %s" % ("file", "tokens", "  ".join(
            "%6s" % ("m%d" % (i + 1)) for i in range(len(methods)))))
        for row in rows:
            print("%-28s %8d  %s" % (row[0], row[1], "  ".join(
                "%5.1f%%" % (100.0 * r / row[1]) for r in row[2:])))
        print("(m1..m%d: the methods below, in order)" % len(methods))
        print()
    print("%-26s %10s %10s %9s %9s" % ("method", "right", "tokens",
                                       "share", "strict"))
    for m in methods:
        print("%-26s %10d %10d %8.3f%% %8.3f%%" % (
            m, right[m], total, 100.0 * right[m] / total,
            100.0 * strict[m] / total))
    if worst and wrongly_credited:
        print()
        print("token blame, the commits most credited with tokens not theirs:")
        ranked = sorted(wrongly_credited.items(), key=lambda kv: (-kv[1],
                                                                  kv[0]))
        for (name, commit), n in ranked[:worst]:
            # generate.py writes one line per edit in the message body
            edits = [x.split(" ")[0] + " " + x.split(" ")[1].rstrip(":")
                     for x in run(["git", "-C", src, "log", "-1",
                                   "--format=%b", commit]).split("\n")
                     if x.count(" ") >= 2]
            print("%8d  %-12s %s  %s" % (n, name, commit[:10],
                                         ", ".join(edits)))
    return {m: 100.0 * right[m] / total for m in methods}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src", help="the generated repository")
    p.add_argument("truth", help="its truth file (generate.py --truth)")
    p.add_argument("--dest", help="the token repository (default SRC.tokens;"
                   " converted or brought up to date)")
    p.add_argument("--tokstream", default=os.path.join(root, "tokstream"))
    p.add_argument("--blame-option", action="append", default=[],
                   metavar="OPT", help="pass OPT to every tokstream blame "
                   "(repeatable), e.g. --blame-option=--min-move=12")
    p.add_argument("--threshold", type=float, default=99.5,
                   help="least share of tokens token blame must get right, "
                   "in percent (default 99.5)")
    p.add_argument("--per-file", action="store_true",
                   help="also a line per file")
    p.add_argument("--worst", type=int, default=0, metavar="N",
                   help="also the N commits token blame most credits with "
                   "tokens not theirs (their subject names the edits)")
    args = p.parse_args()
    BLAME_OPTIONS.extend(args.blame_option)
    src = os.path.abspath(args.src)
    dest = os.path.abspath(args.dest or src.rstrip("/") + ".tokens")
    run([args.tokstream, "convert", "-q", src, dest])
    shares = score(args.tokstream, src, dest, read_truth(args.truth),
                   args.per_file, args.worst)
    token = shares["token blame"]
    best_other = max(v for m, v in shares.items() if m != "token blame")
    failed = []
    if token < args.threshold:
        failed.append("token blame right for %.3f%% of the tokens, below "
                      "the threshold %.3f%%" % (token, args.threshold))
    # above every other method, unless it is perfect (so are they, then)
    if token < 100.0 and token <= best_other:
        failed.append("token blame (%.3f%%) not above every other method "
                      "(best other %.3f%%)" % (token, best_other))
    if failed:
        for f in failed:
            print("FAIL: " + f)
        sys.exit(1)
    print("PASS: token blame right for %.3f%% of the tokens (threshold "
          "%.3f%%), above every other method" % (token, args.threshold))


if __name__ == "__main__":
    main()
