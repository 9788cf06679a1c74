#!/usr/bin/env python3
"""Checks that tokstream's JSON documents say what its other outputs say.

usage: json-agree.py blame PORCELAIN JSON
       json-agree.py report OUTDIR

blame: the output of `tokstream blame --json` has the tokens of `blame
--porcelain` in the same order with the same line, column, length and
commit, and each commit with the same details; text compared after
decoding the porcelain's bytes as UTF-8 with errors="replace", which is
what the JSON writer promises for bytes that are not UTF-8.

report: OUTDIR/report.json has one table for each OUTDIR/*.tsv and no
other, with the TSV's columns in order, and the same rows, each value
the same as the TSV's text: a string its unescaped text, an integer or
a number its exact digits, null an empty field or "-".

Prints what differs and exits 1; prints nothing and exits 0 when all agree.
"""
import decimal
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
schema = __import__("json-schema")


def load_json(path):
    with open(path, "rb") as f:
        data = f.read()
    # the numbers as written: 12.50 stays 12.50
    return json.loads(data.decode("utf-8"), parse_float=decimal.Decimal), schema.strict_load(data, path)


def text(b):
    return b.decode("utf-8", errors="replace")


PORCELAIN_TOKEN = re.compile(rb"^([0-9]+) ([0-9]+) ([0-9]+) ([0-9a-f]{40})$")
PORCELAIN_TIMES = ("author_time", "committer_time")


def parse_porcelain(path):
    tokens, commits, cur = [], {}, None
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for line in lines:
        m = PORCELAIN_TOKEN.match(line)
        if m:
            cur = m.group(4).decode()
            tokens.append({"line": int(m.group(1)), "column": int(m.group(2)),
                           "length": int(m.group(3)), "commit": cur})
            continue
        key, _, value = line.partition(b" ")
        key = key.decode().replace("-", "_")
        if cur is None:
            raise ValueError("porcelain detail before any token: %r" % line)
        if cur not in commits:
            commits[cur] = {}
        commits[cur][key] = int(value) if key in PORCELAIN_TIMES else text(value)
    return tokens, commits


def agree_blame(porcelain, doc_path):
    errors = []
    tokens, commits = parse_porcelain(porcelain)
    _, doc = load_json(doc_path)
    if doc["tokens"] != tokens:
        errors.append("the tokens differ: %d in the porcelain, %d in the JSON" % (len(tokens), len(doc["tokens"])))
        for i, (p, j) in enumerate(zip(tokens, doc["tokens"])):
            if p != j:
                errors.append("first difference at token %d: %r against %r" % (i, p, j))
                break
    if list(doc["commits"]) != list(commits):
        errors.append("the commits differ, or their order: %r against %r" % (list(commits), list(doc["commits"])))
    for cid, details in commits.items():
        if cid in doc["commits"] and doc["commits"][cid] != details:
            errors.append("commit %s: %r against %r" % (cid, details, doc["commits"][cid]))
    return errors


def unescape_tsv(field):
    out, i = bytearray(), 0
    escapes = {ord("\\"): b"\\", ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r"}
    while i < len(field):
        if field[i] == ord("\\") and i + 1 < len(field) and field[i + 1] in escapes:
            out += escapes[field[i + 1]]
            i += 2
        else:
            out.append(field[i])
            i += 1
    return text(bytes(out))


def same_value(value, field):
    if value is None:
        return field in ("", "-")
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, decimal.Decimal)):
        return str(value) == field
    return value == field


def agree_report(outdir):
    errors = []
    doc, _ = load_json(os.path.join(outdir, "report.json"))
    tables = doc["tables"]
    files = sorted(f for f in os.listdir(outdir) if f.endswith(".tsv"))
    named = sorted(t["file"] for t in tables.values())
    if files != named:
        errors.append("the TSV files %r, the tables of report.json %r" % (files, named))
    for name, table in tables.items():
        if table["file"] != name + ".tsv":
            errors.append("table %s is in %s" % (name, table["file"]))
        path = os.path.join(outdir, table["file"])
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        if lines[-1] != b"":
            errors.append("%s does not end with a line end" % table["file"])
        header = [unescape_tsv(c) for c in lines[0].split(b"\t")]
        if header != table["columns"]:
            errors.append("%s: columns %r against %r" % (table["file"], header, table["columns"]))
        rows = lines[1:-1]
        if len(rows) != len(table["rows"]):
            errors.append("%s: %d rows against %d" % (table["file"], len(rows), len(table["rows"])))
        for n, (line, row) in enumerate(zip(rows, table["rows"])):
            fields = [unescape_tsv(c) for c in line.split(b"\t")]
            if list(row) != header or len(fields) != len(header):
                errors.append("%s row %d: members %r, fields %r" % (table["file"], n + 1, list(row), fields))
                continue
            for col, field in zip(header, fields):
                if not same_value(row[col], field):
                    errors.append("%s row %d, %s: %r against %r" % (table["file"], n + 1, col, field, row[col]))
    return errors


def main(argv):
    if len(argv) == 4 and argv[1] == "blame":
        errors = agree_blame(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "report":
        errors = agree_report(argv[2])
    else:
        sys.stderr.write("usage: json-agree.py blame PORCELAIN JSON | report OUTDIR\n")
        return 2
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
