#!/usr/bin/env python3
"""mixed-history.py DIR [--commits N] [--seed S]: a history in the git
repository DIR (made here) that gives the attribution engine every case
at once, for the tests that set its ways of computing side by side:
C functions written, edited, re-indented, moved and copied between files
(with a token inserted), files renamed, topics forked from old commits
and merged with either side winning, a reformatting commit (a variable renamed
throughout a file) listed in .git-blame-ignore-revs.  Deterministic for a seed."""

import os
import random
import subprocess
import sys

AUTHORS = ["Alice", "Bob", "Carol", "Dave", "Erin", "Fred"]


def git(*args, check=True):
    return subprocess.run(["git", *args], check=check, capture_output=True, text=True)


def function(n):
    return ["int f%d(int a, int b)" % n, "{", "\tint s = a + b;",
            "\treturn s * %d;" % n, "}", ""]


def read_blocks(path):
    with open(path) as f:
        lines = f.read().split("\n")[:-1]
    return [lines[i:i + 6] for i in range(0, len(lines), 6)]


def write_blocks(path, blocks):
    with open(path, "w") as f:
        for b in blocks:
            f.write("\n".join(b) + "\n")


def commit(rng, message, env_date):
    who = rng.choice(AUTHORS)
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=who, GIT_AUTHOR_EMAIL=who.lower() + "@example.org",
               GIT_COMMITTER_NAME=who, GIT_COMMITTER_EMAIL=who.lower() + "@example.org",
               GIT_AUTHOR_DATE="%d +0000" % env_date, GIT_COMMITTER_DATE="%d +0000" % env_date)
    subprocess.run(["git", "add", "-A"], check=True)
    r = subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", message], env=env,
                       capture_output=True, text=True)
    return r.returncode == 0


def merge(other, side, date, identity):
    """Merges other, side winning its conflicts; a conflict no side
    settles makes a merge that keeps this side whole."""
    env = dict(os.environ, GIT_AUTHOR_DATE="%d +0000" % date, GIT_COMMITTER_DATE="%d +0000" % date, **identity)
    r = subprocess.run(["git", "merge", "-q", "--no-edit", "-X", side, other], env=env,
                       capture_output=True, text=True)
    if r.returncode:
        git("merge", "--abort", check=False)
        git("reset", "-q", "--hard")
        subprocess.run(["git", "merge", "-q", "--no-edit", "-s", "ours", other], env=env,
                       check=True, capture_output=True)


def main():
    args = sys.argv[1:]
    commits, seed = 150, 7
    if "--commits" in args:
        commits = int(args[args.index("--commits") + 1])
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    rng = random.Random(seed)
    os.makedirs(args[0])
    os.chdir(args[0])
    git("init", "-q", "-b", "main")
    date = 1500000000
    fn = 1
    for i in range(4):
        write_blocks("f%d.c" % i, [function(fn + k) for k in range(12)])
        fn += 12
    commit(rng, "the first files", date)
    branches = ["main"]
    ignored = None
    for n in range(commits):
        date += 3600
        files = sorted(f for f in os.listdir(".") if f.endswith(".c"))
        op = rng.randrange(14)
        message = "commit %d" % n
        if op == 0:
            # a topic forked from an older commit of this branch
            depth = rng.randrange(1, 30)
            base = git("rev-parse", "--verify", "-q", "HEAD~%d" % depth, check=False).stdout.strip() or "HEAD"
            name = "t%d" % n
            git("checkout", "-q", "-b", name, base)
            branches.append(name)
            continue
        if op == 1:
            git("checkout", "-q", rng.choice(branches))
            continue
        if op in (2, 12, 13) and len(branches) > 1:
            other = rng.choice(branches)
            side = rng.choice(["ours", "theirs"])
            merge(other, side, date, dict(GIT_AUTHOR_NAME="Merger", GIT_AUTHOR_EMAIL="merger@example.org",
                                          GIT_COMMITTER_NAME="Merger", GIT_COMMITTER_EMAIL="merger@example.org"))
            continue
        src = rng.choice(files)
        blocks = read_blocks(src)
        if op in (3, 4) and len(blocks) > 2 and len(files) > 1:
            # a function moved (op 3) or copied with a const (op 4) to another file
            dst = rng.choice([f for f in files if f != src])
            k = rng.randrange(len(blocks))
            block = list(blocks[k])
            if op == 3:
                del blocks[k]
                write_blocks(src, blocks)
            else:
                block[2] = block[2].replace("int s", "const int s")
            other = read_blocks(dst)
            other.insert(rng.randrange(len(other) + 1), block)
            write_blocks(dst, other)
        elif op == 5 and rng.randrange(4) == 0:
            new = "g%d.c" % n
            git("mv", src, new)
        elif op == 6:
            # re-indented, and a variable renamed in every function: the
            # first such commit is listed as one for blame to ignore
            blocks = [[("    " + l if l.startswith("\t") else l).replace(" s ", " sum ").replace(" s;", " sum;")
                       for l in b] for b in blocks]
            write_blocks(src, blocks)
            if ignored is None:
                message = "reformat " + src
                ignored = True
        elif op == 7:
            blocks.insert(rng.randrange(len(blocks) + 1), function(fn))
            fn += 1
            write_blocks(src, blocks)
        elif op == 8 and len(blocks) > 1:
            del blocks[rng.randrange(len(blocks))]
            write_blocks(src, blocks)
        else:
            k = rng.randrange(len(blocks))
            b = blocks[k]
            b[3] = b[3].replace(";", " + %d;" % n, 1)
            write_blocks(src, blocks)
        if commit(rng, message, date) and message.startswith("reformat"):
            head = git("rev-parse", "HEAD").stdout.strip()
            with open(".git-blame-ignore-revs", "w") as f:
                f.write("# the reformatting\n%s\n" % head)
            date += 60
            commit(rng, "ignore the reformatting in blame", date)
    git("checkout", "-q", "main")
    for b in branches[1:]:
        date += 3600
        merge(b, "theirs", date, {})


main()
