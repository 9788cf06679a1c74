#!/usr/bin/env python3
"""Generate a Git history whose every token has a known author.

Starts from real C files (the seeds, taken from a directory), commits them
as they are, then applies scripted commits by several authors: whitespace
sweeps, re-wrapped lines, `const` and argument insertions, renames, and
feature-sized edits (functions written, deleted, half rewritten, wrapped in
a new `if`, moved within and between files).  Each file is modelled as a
list of tokens, cut exactly as tokstream cuts them (`tokenize --positions`),
each with the whitespace before it and the commit that wrote it; after
every edit the rendered file is tokenized again and must give exactly the
tokens of the model (an edit that would not is undone and another tried).

Writes the truth: for every file at the final revision, one line per token

    PATH <TAB> INDEX <TAB> LINE <TAB> COL <TAB> COMMIT <TAB> ALSO

INDEX is the 1-based token index (the line of the view), LINE:COL its
position in the file, COMMIT the full id of the commit that wrote it.
ALSO lists, comma-separated ("-" for none), other commits that an exact
diff may equally name: where an inserted block begins or ends with the
same tokens as its neighbours (a diff "slider"), or where a rewritten
token has the same text as a token it replaced, nothing in the two
versions tells which copy is new.

Deterministic: the same seeds, donors and --seed give the same history,
to the commit id.

    generate.py --seeds DIR --donors DIR --out REPO --truth FILE
                [--commits N] [--seed N] [--kinds K,K,...]
                [--edits MIN-MAX] [--log FILE] [--tokenize PATH]
"""

import argparse
import os
import random
import re
import subprocess
import sys

EDIT_KINDS = [
    "ws",            # whitespace sweep: re-indent, tabs <-> spaces
    "wrap",          # lines joined and split, comments re-wrapped
    "const",         # `const` inserted before a parameter's type
    "arg",           # an argument added to calls of a function
    "rename",        # an identifier renamed through the file
    "func_add",      # a function written (taken from a donor file)
    "func_del",      # a function deleted
    "func_rewrite",  # the second half of a function's body rewritten
    "func_wrap_if",  # statements wrapped in a new `if`, re-indented
    "func_move",     # a function moved within its file
    "func_move_file",  # a function moved to another file
]

AUTHORS = ["Alice Archer", "Bob Baker", "Carol Cole", "Dave Dunn",
           "Erin Eads", "Frank Fox"]

C_KEYWORDS = set("""auto break case char const continue default do double
else enum extern float for goto if inline int long register restrict return
short signed sizeof static struct switch typedef union unsigned void
volatile while _Bool bool NULL define include ifdef ifndef endif elif undef
pragma defined error""".split())

TYPE_WORDS = {"char", "int", "long", "short", "unsigned", "signed", "struct",
              "void", "size_t", "double", "float", "bool", "uint8_t",
              "uint16_t", "uint32_t", "uint64_t", "int64_t", "curl_off_t"}

IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


class Token:
    """One token: the whitespace before it, its text in the source, its
    text in the view, the generator's number of the commit that wrote it,
    and the other commits a diff may equally credit it to."""
    __slots__ = ("ws", "src", "view", "origin", "alts")

    def __init__(self, ws, src, view, origin, alts=None):
        self.ws = ws
        self.src = src
        self.view = view
        self.origin = origin
        self.alts = set(alts) if alts else set()

    def copy(self, origin=None):
        return Token(self.ws, self.src, self.view,
                     self.origin if origin is None else origin, self.alts)


class Tokenizer:
    def __init__(self, path):
        self.path = path

    def positions(self, text, name):
        """The (line, col, view-text) of every token of text, tokenized as
        a file called name (the extension chooses the lexer)."""
        ext = os.path.splitext(name)[1] or ".c"
        tmp = os.path.join(self.tmpdir, "probe" + ext)
        with open(tmp, "wb") as f:
            f.write(text.encode("latin-1"))
        out = subprocess.run([self.path, "--positions", tmp],
                             check=True, stdout=subprocess.PIPE).stdout
        result = []
        for raw in out.decode("latin-1").split("\n")[:-1]:
            pos, view = raw.split("\t", 1)
            line, col = pos.split(":")
            result.append((int(line), int(col), view))
        return result


def files_of(directory):
    """(name, text) of each file of a directory, in name order; bytes as
    latin-1, so that any file reads and writes back unchanged."""
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                yield name, fh.read().decode("latin-1")


def line_starts(text):
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def cut(tokenizer, text, name, origin):
    """Cuts a real file into Tokens with origin, keeping the whitespace
    between them (a token's source text is the bytes from its first byte
    to the next token's, less the whitespace at the end)."""
    pos = tokenizer.positions(text, name)
    starts = line_starts(text)
    offsets = [starts[line - 1] + col - 1 for line, col, _ in pos]
    tokens = []
    prev_end = 0
    for i, (off, (_, _, view)) in enumerate(zip(offsets, pos)):
        nxt = offsets[i + 1] if i + 1 < len(offsets) else len(text)
        chunk = text[off:nxt]
        src = chunk.rstrip(" \t\n\r\f\v")
        # a backslash-newline between tokens is whitespace to the lexer
        while src.endswith("\\") and view[-1:] != "\\":
            src = src[:-1].rstrip(" \t\n\r\f\v")
        tokens.append(Token(text[prev_end:off], src, view, origin))
        prev_end = off + len(src)
    return tokens, text[prev_end:]


class File:
    def __init__(self, name, tokens, tail):
        self.name = name
        self.tokens = tokens
        self.tail = tail

    def render(self):
        return "".join(t.ws + t.src for t in self.tokens) + self.tail

    def positions(self):
        """(line, col) of every token as rendered."""
        line, col = 1, 1
        out = []
        for t in self.tokens:
            for piece in (t.ws,):
                nl = piece.count("\n")
                if nl:
                    line += nl
                    col = len(piece) - piece.rfind("\n")
                else:
                    col += len(piece)
            out.append((line, col))
            nl = t.src.count("\n")
            if nl:
                line += nl
                col = len(t.src) - t.src.rfind("\n")
            else:
                col += len(t.src)
        return out


def starts_line(ws):
    """Whether whitespace ws puts the next token on a new line (a
    backslash-newline does not end a line for the preprocessor)."""
    return ws.count("\n") > ws.count("\\\n")


def indent_of(ws):
    return ws[ws.rfind("\n") + 1:] if "\n" in ws else None


def preprocessor_mask(tokens):
    """True for every token on a preprocessor line."""
    mask = []
    inside = False
    for i, t in enumerate(tokens):
        if i == 0 or starts_line(t.ws):
            inside = t.view == "#"
        mask.append(inside)
    return mask


def top_level_functions(tokens):
    """(start, end) token ranges, end exclusive, of the function
    definitions at brace depth 0: `{` after `)`, up to its `}`; the start
    is after the previous `;`, `}`, comment or preprocessor line."""
    pp = preprocessor_mask(tokens)
    found = []
    depth = 0
    open_at = None
    for i, t in enumerate(tokens):
        if pp[i]:
            continue
        if t.view == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif t.view == "}":
            depth -= 1
            if depth < 0:
                depth = 0
                open_at = None
            elif depth == 0 and open_at is not None:
                brace = open_at
                open_at = None
                if brace == 0 or tokens[brace - 1].view != ")":
                    continue
                s = brace - 1
                while s > 0:
                    p = tokens[s - 1]
                    if (pp[s - 1] or p.view in (";", "}", "{")
                            or p.view.startswith("/*")
                            or p.view.startswith("//")):
                        break
                    s -= 1
                # a function must start a line and be followed by one
                if not starts_line(tokens[s].ws) and s != 0:
                    continue
                if i + 1 < len(tokens) and not starts_line(tokens[i + 1].ws):
                    continue
                if i - s < 12 or any(pp[s:i + 1]):
                    continue
                found.append((s, i + 1))
    return found


def statement_ends(tokens, start, end):
    """Indexes just after each `;` at the body's own depth (depth 1) in
    tokens[start:end], a function's tokens."""
    depth = 0
    paren = 0
    ends = []
    for i in range(start, end):
        v = tokens[i].view
        if v == "(":
            paren += 1
        elif v == ")":
            paren -= 1
        elif v == "{":
            depth += 1
        elif v == "}":
            depth -= 1
            if depth == 1 and paren == 0:
                ends.append(i + 1)
        elif v == ";" and depth == 1 and paren == 0:
            ends.append(i + 1)
    return ends


def same(a, b):
    return a.view == b.view


def splice(tokens, start, end, new):
    """Replaces tokens[start:end] by new (Token objects, already given
    their origins), recording the diff's equal choices in their alts."""
    old = tokens[start:end]
    left = tokens[:start]
    right = tokens[end:]
    if old and new:
        # a rewritten token with the text of a token it replaced: a diff
        # may keep the old one
        by_text = {}
        for o in old:
            by_text.setdefault(o.view, set()).add(o.origin)
            by_text[o.view] |= o.alts
        for n in new:
            n.alts |= by_text.get(n.view, set()) - {n.origin}
    elif new:
        # sliders: the block may equally be inserted k tokens higher or lower
        k = 1
        while k <= len(new) and k <= len(left) and same(new[-k], left[-k]):
            left[-k].alts.add(new[-k].origin)
            new[-k].alts.add(left[-k].origin)
            k += 1
        k = 0
        while k < len(new) and k < len(right) and same(new[k], right[k]):
            right[k].alts.add(new[k].origin)
            new[k].alts.add(right[k].origin)
            k += 1
    elif old:
        k = 1
        while k <= len(old) and k <= len(left) and same(old[-k], left[-k]):
            left[-k].alts.add(old[-k].origin)
            k += 1
        k = 0
        while k < len(old) and k < len(right) and same(old[k], right[k]):
            right[k].alts.add(old[k].origin)
            k += 1
    for t in new:
        t.alts.discard(t.origin)
    tokens[start:end] = new


class Generator:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.tok = Tokenizer(args.tokenize)
        self.tok.tmpdir = os.path.join(os.path.abspath(args.out), ".git")
        self.files = {}
        self.donor_functions = []
        self.used_donors = set()
        self.log = []
        self.commit = 0            # the generator's number of the commit
        self.renamed = 0

    # -- the repository ---------------------------------------------------

    def git(self, *argv, env=None):
        return subprocess.run(["git", "-C", self.args.out] + list(argv),
                              check=True, stdout=subprocess.PIPE,
                              env=env).stdout.decode()

    def write_files(self):
        for name, f in self.files.items():
            path = os.path.join(self.args.out, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(f.render().encode("latin-1"))

    def commit_as(self, author, message):
        env = dict(os.environ)
        date = "%d +0000" % (1700000000 + 3600 * self.commit)
        email = author.split()[0].lower() + "@example.org"
        env.update(GIT_AUTHOR_NAME=author, GIT_AUTHOR_EMAIL=email,
                   GIT_COMMITTER_NAME=author, GIT_COMMITTER_EMAIL=email,
                   GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        self.write_files()
        self.git("add", "-A", ".")
        self.git("-c", "commit.gpgsign=false", "commit", "-q",
                 "--allow-empty", "-m", message, env=env)
        return self.git("rev-parse", "HEAD").strip()

    # -- checking ------------------------------------------------------------

    def check(self, f):
        """Whether f renders to exactly the tokens of its model."""
        got = self.tok.positions(f.render(), f.name)
        if len(got) != len(f.tokens):
            return False
        for (line, col, view), (eline, ecol), t in zip(got, f.positions(),
                                                     f.tokens):
            if line != eline or col != ecol or view != t.view:
                return False
        return True

    # -- the edits: each changes self.files, returns a description or
    #    None when it found nothing to do ---------------------------------

    def pick_file(self, min_tokens=0):
        names = [n for n in sorted(self.files)
                 if len(self.files[n].tokens) >= min_tokens]
        return self.rng.choice(names) if names else None

    def edit_ws(self, f):
        """Re-indents a region: tabs to spaces, spaces to tabs, or a new
        width; a sweep over many lines, all tokens keep their origin."""
        n = len(f.tokens)
        a = self.rng.randrange(n)
        b = min(n, a + self.rng.randint(200, 3000))
        mode = self.rng.choice(["tabs-to-spaces", "spaces-to-tabs",
                                "indent-4-to-8", "indent-2-to-4"])
        changed = 0
        for t in f.tokens[a:b]:
            ind = indent_of(t.ws)
            if ind is None or "\\" in t.ws:
                continue
            if mode == "tabs-to-spaces":
                new = ind.replace("\t", "        ")
            elif mode == "spaces-to-tabs":
                new = ind.replace("        ", "\t")
            elif mode == "indent-4-to-8":
                new = ind.replace("    ", "        ")
            else:
                new = ind.replace("  ", "    ")
            if new != ind:
                t.ws = t.ws[:len(t.ws) - len(ind)] + new
                changed += 1
        return "%s: %s over tokens %d-%d (%d lines)" % (
            f.name, mode, a + 1, b, changed) if changed else None

    def edit_wrap(self, f):
        """Joins lines, splits long ones after a comma, re-wraps comments:
        whitespace only, all tokens keep their origin."""
        pp = preprocessor_mask(f.tokens)
        done = 0
        for _ in range(self.rng.randint(3, 12)):
            i = self.rng.randrange(1, len(f.tokens))
            t = f.tokens[i]
            prev = f.tokens[i - 1]
            if pp[i] or pp[i - 1] or "\\" in t.ws:
                continue
            if prev.view.startswith("//"):
                continue
            kind = self.rng.random()
            if kind < 0.4 and starts_line(t.ws) and t.ws.count("\n") == 1:
                t.ws = " "                      # join with the line above
            elif kind < 0.8 and prev.view == "," and not starts_line(t.ws):
                # split after the comma, the rest indented one level more
                j = i - 1
                while j > 0 and not starts_line(f.tokens[j].ws):
                    j -= 1
                ind = indent_of(f.tokens[j].ws) or ""
                t.ws = "\n" + ind + "    "
            elif t.view.startswith("/*") and " " in t.src:
                words = t.src.split(" ")
                k = self.rng.randrange(1, len(words))
                ind = indent_of(t.ws) or ""
                t.src = " ".join(words[:k]) + "\n" + ind + "   " + \
                    " ".join(words[k:])
            else:
                continue
            done += 1
        return "%s: %d lines re-wrapped" % (f.name, done) if done else None

    def edit_const(self, f):
        """Inserts `const` before parameter types (new tokens, new origin)."""
        spots = [i for i in range(1, len(f.tokens))
                 if f.tokens[i].view in TYPE_WORDS
                 and f.tokens[i - 1].view in ("(", ",")
                 and f.tokens[i + 1].view != ")"]
        if not spots:
            return None
        chosen = sorted(self.rng.sample(spots, min(len(spots),
                                                   self.rng.randint(1, 4))))
        for i in reversed(chosen):
            t = f.tokens[i]
            new = Token(t.ws, "const", "const", self.commit)
            t.ws = " "
            splice(f.tokens, i, i, [new])
        return "%s: const before %d parameter types" % (f.name, len(chosen))

    def edit_arg(self, f):
        """Adds an argument to every call of one function in the file:
        `, flags` before the closing parenthesis (new tokens)."""
        calls = {}
        for i in range(len(f.tokens) - 1):
            t = f.tokens[i]
            if (IDENT.match(t.view) and t.view not in C_KEYWORDS
                    and f.tokens[i + 1].view == "("):
                calls.setdefault(t.view, []).append(i + 1)
        names = sorted(n for n, v in calls.items() if 2 <= len(v) <= 12)
        if not names:
            return None
        name = self.rng.choice(names)
        arg = self.rng.choice(["flags", "ctx", "0", "NULL", "opts"])
        inserted = 0
        for open_at in reversed(calls[name]):
            depth = 0
            for j in range(open_at, min(len(f.tokens), open_at + 400)):
                v = f.tokens[j].view
                if v == "(":
                    depth += 1
                elif v == ")":
                    depth -= 1
                    if depth == 0:
                        break
            else:
                continue
            if j == open_at + 1:
                new = [Token("", arg, arg, self.commit)]
            else:
                new = [Token("", ",", ",", self.commit),
                       Token(" ", arg, arg, self.commit)]
            splice(f.tokens, j, j, new)
            inserted += 1
        return "%s: argument %s added to %d calls of %s" % (
            f.name, arg, inserted, name)

    def edit_rename(self, f):
        """Renames an identifier through the file: the renamed tokens are
        the commit's."""
        counts = {}
        for t in f.tokens:
            if (IDENT.match(t.view) and t.view not in C_KEYWORDS
                    and len(t.view) >= 4):
                counts[t.view] = counts.get(t.view, 0) + 1
        names = sorted(n for n, c in counts.items() if 3 <= c <= 60)
        if not names:
            return None
        old = self.rng.choice(names)
        self.renamed += 1
        new_name = "%s_r%d" % (old, self.renamed)
        n = 0
        for i, t in enumerate(f.tokens):
            if t.view == old:
                splice(f.tokens, i, i + 1,
                       [Token(t.ws, new_name, new_name, self.commit)])
                n += 1
        return "%s: renamed %s to %s (%d tokens)" % (f.name, old, new_name, n)

    def insertion_points(self, f):
        """Token indexes at which a function may go: the start of a
        top-level function (so just after the previous item)."""
        return [s for s, _ in top_level_functions(f.tokens)]

    def take_donor(self, fits):
        """A donor function that fits and was never written before, as
        (name, tokens), or (None, None).  Text written twice would be a
        copy of the first, which an exact blame may rightly name."""
        unused = [i for i, (_, d) in enumerate(self.donor_functions)
                  if i not in self.used_donors and fits(d)]
        if not unused:
            return None, None
        i = self.rng.choice(unused)
        self.used_donors.add(i)
        return self.donor_functions[i]

    def edit_func_add(self, f):
        """Writes a function (a donor's, new tokens) before another."""
        points = self.insertion_points(f)
        if not points:
            return None
        at = self.rng.choice(points)
        donor_name, donor = self.take_donor(lambda d: True)
        if donor is None:
            return None
        new = [t.copy(self.commit) for t in donor]
        for t in new:
            t.alts = set()
        new[0].ws = "\n\n" if at > 0 else ""
        if at < len(f.tokens) and not f.tokens[at].ws.startswith("\n\n"):
            f.tokens[at].ws = "\n\n" + f.tokens[at].ws.lstrip("\n")
        splice(f.tokens, at, at, new)
        return "%s: function from %s (%d tokens) written at token %d" % (
            f.name, donor_name, len(new), at + 1)

    def edit_func_del(self, f):
        funcs = top_level_functions(f.tokens)
        if len(funcs) < 4:
            return None
        s, e = self.rng.choice(funcs)
        ws = f.tokens[s].ws
        splice(f.tokens, s, e, [])
        if s < len(f.tokens):
            f.tokens[s].ws = ws
        return "%s: function at token %d deleted (%d tokens)" % (
            f.name, s + 1, e - s)

    def edit_func_rewrite(self, f):
        """Rewrites the second half of a function's body with statements
        of a donor function (new tokens)."""
        funcs = [fe for fe in top_level_functions(f.tokens)
                 if len(statement_ends(f.tokens, *fe)) >= 4]
        if not funcs:
            return None
        donor_name, donor = self.take_donor(
            lambda d: len(statement_ends(d, 0, len(d))) >= 4)
        if donor is None:
            return None
        s, e = self.rng.choice(funcs)
        ends = statement_ends(f.tokens, s, e)
        cut_at = ends[len(ends) // 2 - 1]
        dends = statement_ends(donor, 0, len(donor))
        dfrom = dends[len(dends) // 2 - 1]
        new = [t.copy(self.commit) for t in donor[dfrom:-1]]
        for t in new:
            t.alts = set()
        splice(f.tokens, cut_at, e - 1, new)
        return "%s: second half of the function at token %d rewritten " \
            "(%d tokens from %s)" % (f.name, s + 1, len(new), donor_name)

    def edit_func_wrap_if(self, f):
        """Wraps statements of a function in a new `if (...) {` ... `}`,
        re-indenting them one level (the statements keep their origin)."""
        funcs = [fe for fe in top_level_functions(f.tokens)
                 if len(statement_ends(f.tokens, *fe)) >= 3]
        if not funcs:
            return None
        s, e = self.rng.choice(funcs)
        ends = statement_ends(f.tokens, s, e)
        i = self.rng.randrange(len(ends) - 1)
        j = self.rng.randrange(i + 1, min(len(ends), i + 6))
        a, b = ends[i], ends[j]            # wrap tokens[a:b]
        if not starts_line(f.tokens[a].ws):
            return None
        # not the middle of an if-else chain or a do-while
        if (f.tokens[a].view in ("else", "while", "case", "default")
                or f.tokens[b].view in ("else", "while")):
            return None
        for t in f.tokens[a:b]:
            if starts_line(t.ws) and "\\" not in t.ws:
                t.ws = t.ws + "\t"
        ind = indent_of(f.tokens[a].ws)[:-1]
        cond = self.rng.choice(["data", "conn", "ok", "enabled"])
        c = self.commit
        head = [Token(f.tokens[a].ws[:-1], "if", "if", c),
                Token(" ", "(", "(", c), Token("", cond, cond, c),
                Token("", ")", ")", c), Token(" ", "{", "{", c)]
        f.tokens[a].ws = "\n" + ind + "\t"
        tail_ws = "\n" + ind
        splice(f.tokens, b, b, [Token(tail_ws, "}", "}", c)])
        splice(f.tokens, a, a, head)
        return "%s: %d tokens wrapped in if (%s) at token %d" % (
            f.name, b - a, cond, a + 1)

    def take_function(self, f):
        funcs = top_level_functions(f.tokens)
        if len(funcs) < 4:
            return None
        s, e = self.rng.choice(funcs)
        moved = f.tokens[s:e]
        ws = f.tokens[s].ws
        splice(f.tokens, s, e, [])
        if s < len(f.tokens):
            f.tokens[s].ws = ws
        return s, moved

    def put_function(self, f, moved):
        points = self.insertion_points(f)
        if not points:
            return None
        at = self.rng.choice(points)
        moved[0].ws = "\n\n" if at > 0 else ""
        if at < len(f.tokens) and not f.tokens[at].ws.startswith("\n\n"):
            f.tokens[at].ws = "\n\n" + f.tokens[at].ws.lstrip("\n")
        splice(f.tokens, at, at, moved)
        return at

    def move_function(self, f, g):
        """A function of f taken out and put into g (f itself or another
        file): what was done, or None."""
        taken = self.take_function(f)
        if not taken:
            return None
        s, moved = taken
        at = self.put_function(g, moved)
        if at is None:
            return None
        if g is f:
            return "%s: function (%d tokens) moved from token %d to %d" % (
                f.name, len(moved), s + 1, at + 1)
        return "%s: function (%d tokens) at token %d moved to %s token %d" % (
            f.name, len(moved), s + 1, g.name, at + 1)

    def edit_func_move(self, f):
        return self.move_function(f, f)

    def edit_func_move_file(self, f):
        others = [n for n in sorted(self.files) if n != f.name]
        if not others:
            return None
        return self.move_function(f, self.files[self.rng.choice(others)])

    # -- the history -----------------------------------------------------------

    def load(self):
        for name, text in files_of(self.args.seeds):
            tokens, tail = cut(self.tok, text, name, 0)
            self.files[name] = File(name, tokens, tail)
        if not self.files:
            sys.exit("generate.py: no seed files in %s" % self.args.seeds)
        if self.args.donors:
            for name, text in files_of(self.args.donors):
                tokens, _ = cut(self.tok, text, name, 0)
                for s, e in top_level_functions(tokens):
                    if e - s <= self.args.max_function:
                        self.donor_functions.append((name, tokens[s:e]))

    def run(self):
        os.makedirs(self.args.out, exist_ok=True)
        subprocess.run(["git", "init", "-q", self.args.out], check=True)
        self.git("config", "core.autocrlf", "false")
        self.load()
        ids = [self.commit_as("Ida Importer", "Import the seed files")]
        self.log.append("commit 1 Ida Importer: import %d files" %
                        len(self.files))
        kinds = self.args.kinds.split(",")
        lo, hi = (int(x) for x in self.args.edits.split("-"))
        for number in range(1, self.args.commits):
            self.commit = number
            author = AUTHORS[self.rng.randrange(len(AUTHORS))]
            wanted = self.rng.randint(lo, hi)
            done = []
            tries = 0
            while len(done) < wanted and tries < 40 * wanted:
                tries += 1
                kind = self.rng.choice(kinds)
                name = self.pick_file()
                desc = self.try_edit(kind, name)
                if desc:
                    done.append("%s %s" % (kind, desc))
            if not done:
                sys.exit("generate.py: commit %d: no edit of kinds %s "
                         "applies" % (number + 1, self.args.kinds))
            message = "%s\n\n%s\n" % (done[0].split(":")[0],
                                      "\n".join(done))
            ids.append(self.commit_as(author, message))
            self.log.append("commit %d %s: %s" % (number + 1, author,
                                                  "; ".join(done)))
        self.write_truth(ids)
        if self.args.log:
            with open(self.args.log, "w") as fh:
                fh.write("\n".join(self.log) + "\n")

    def try_edit(self, kind, name):
        """Applies one edit of kind to the file name, keeps it if every
        file it touched still tokenizes as modelled, undoes it otherwise."""
        saved = {n: (f.tail, [(t, t.ws, t.src, set(t.alts))
                              for t in f.tokens])
                 for n, f in self.files.items()}
        before = {n: [t for t in f.tokens] for n, f in self.files.items()}
        desc = getattr(self, "edit_" + kind)(self.files[name])
        if desc:
            touched = [n for n, f in self.files.items()
                       if f.tokens != before[n]
                       or any(t.ws != ws or t.src != src
                              for t, ws, src, _ in saved[n][1])]
            if all(self.check(self.files[n]) for n in touched):
                return desc
        for n, (tail, toks) in saved.items():
            f = self.files[n]
            f.tail = tail
            f.tokens = [t for t, _, _, _ in toks]
            for t, ws, src, alts in toks:
                t.ws, t.src, t.alts = ws, src, alts
        return None

    def write_truth(self, ids):
        with open(self.args.truth, "w") as out:
            out.write("# path\tindex\tline\tcol\tcommit\talso\n")
            for name in sorted(self.files):
                f = self.files[name]
                for i, (t, (line, col)) in enumerate(zip(f.tokens,
                                                         f.positions())):
                    also = ",".join(sorted(ids[a] for a in t.alts)) or "-"
                    out.write("%s\t%d\t%d\t%d\t%s\t%s\n" % (
                        name, i + 1, line, col, ids[t.origin], also))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", required=True,
                   help="directory of the files of the first commit")
    p.add_argument("--donors",
                   help="directory of files whose functions are written "
                   "into the history (not seeds: copies would be moves)")
    p.add_argument("--out", required=True, help="repository to create")
    p.add_argument("--truth", required=True, help="truth file to write")
    p.add_argument("--log", help="write one line per commit: its edits")
    p.add_argument("--commits", type=int, default=60,
                   help="commits in all, the import included (default 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kinds", default=",".join(EDIT_KINDS),
                   help="edit kinds to draw from (default: all): " +
                   ",".join(EDIT_KINDS))
    p.add_argument("--edits", default="1-4",
                   help="edits per commit, MIN-MAX (default 1-4)")
    p.add_argument("--max-function", type=int, default=1500,
                   help="largest donor function, in tokens")
    p.add_argument("--tokenize", default=os.path.join(root, "tokenize",
                                                      "tokenize"))
    args = p.parse_args()
    for k in args.kinds.split(","):
        if k not in EDIT_KINDS:
            p.error("unknown edit kind %s" % k)
    if os.path.exists(args.out):
        p.error("%s exists" % args.out)
    Generator(args).run()


if __name__ == "__main__":
    main()
