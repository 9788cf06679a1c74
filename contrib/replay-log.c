/*
 * Reading `git log -m --raw` (with the line replay's patches): each
 * commit's changes against each of its parents, in groups, which
 * replay.c replays as soon as a commit is read.
 */
#include "../tokenize/progress.h"
#include "../tokenize/quote.h"
#include "replay-internal.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A path of a raw entry, plain (up to a tab or the end) or quoted. */
static const char *raw_path(const char *p, const char *end, struct strbuf *out)
{
	const char *err;

	strbuf_reset(out);
	if (*p == '"')
		return unquote_c_style(out, p, end, &err);
	{
		const char *tab = memchr(p, '\t', (size_t)(end - p));

		if (!tab)
			tab = end;
		strbuf_add(out, p, (size_t)(tab - p));
		return tab;
	}
}

/* ":100644 100644 OLD NEW M\tpath" or "...R086\tsrc\tdst" */
static void parse_raw(struct replay *r, const char *commit, const char *line, size_t len)
{
	const char *end = line + len, *p;
	struct strbuf path = STRBUF_INIT;
	struct change *ch;

	ALLOC_GROW(r->changes, r->nr_changes + 1, r->alloc_changes);
	ch = &r->changes[r->nr_changes];
	memset(ch, 0, sizeof(*ch));
	p = strchr(line, ' ');
	if (p)
		p = strchr(p + 1, ' ');
	if (!p || end - p < 84 || p[41] != ' ' || p[82] != ' ')
		die_replay(r, commit, "an unexpected raw diff line");
	memcpy(ch->old_blob, p + 1, 40);
	memcpy(ch->new_blob, p + 42, 40);
	ch->status = p[83];
	p = memchr(p + 83, '\t', (size_t)(end - (p + 83)));
	if (!p || !(p = raw_path(p + 1, end, &path)))
		die_replay(r, commit, "an unexpected raw diff line");
	ch->src = ch->dst = path_id(r, path.buf);
	if (ch->status == 'R' || ch->status == 'C') {
		if (*p != '\t' || !(p = raw_path(p + 1, end, &path)))
			die_replay(r, commit, "an unexpected raw diff line");
		ch->dst = path_id(r, path.buf);
	}
	if (p != end)
		die_replay(r, commit, "an unexpected raw diff line");
	ch->first_hunk = r->nr_hunks;
	r->groups[r->nr_groups - 1].nr_changes++;
	r->nr_changes++;
	strbuf_release(&path);
}

/* Whether the side of "diff --git SIDE SIDE" at *p is prefix + path; moves *p past it. */
static int header_side(const char **p, const char *end, const char *prefix, const char *path)
{
	size_t pl = strlen(prefix), l = strlen(path);

	if (**p == '"') {
		struct strbuf sb = STRBUF_INIT;
		const char *err, *q = unquote_c_style(&sb, *p, end, &err);
		int same = q && sb.len == pl + l && !memcmp(sb.buf, prefix, pl) &&
			!memcmp(sb.buf + pl, path, l);

		strbuf_release(&sb);
		*p = q;
		return same;
	}
	if ((size_t)(end - *p) < pl + l || memcmp(*p, prefix, pl) || memcmp(*p + pl, path, l))
		return 0;
	*p += pl + l;
	return 1;
}

/*
 * The change a "diff --git" header is the patch of: the one at the cursor
 * or a later one (a change with no patch, such as a whitespace change
 * under -w, prints no header; a type change prints two).
 */
static size_t match_header(struct replay *r, const char *commit, const char *line, size_t len, size_t cursor)
{
	const struct group *g = &r->groups[r->nr_groups - 1];
	const char *end = line + len;
	size_t i;

	for (i = cursor; i < g->first_change + g->nr_changes; i++) {
		const struct change *ch = &r->changes[i];
		const char *p = line + strlen("diff --git ");

		if (header_side(&p, end, "a/", r->paths[ch->src]) && p && p < end && *p++ == ' ' &&
		    header_side(&p, end, "b/", r->paths[ch->dst]) && p == end)
			return i;
	}
	die_replay(r, commit, "a patch that matches no raw diff line");
}

static size_t parse_count(struct replay *r, const char **p, const char *commit)
{
	char *end;
	unsigned long long v = strtoull(*p, &end, 10);

	if (end == *p)
		die_replay(r, commit, "an unexpected hunk header");
	*p = end;
	return (size_t)v;
}

/* "START[,COUNT]" of a hunk header; COUNT is 1 when left out */
static void parse_range(struct replay *r, const char **p, const char *commit, size_t *start, size_t *nr)
{
	*start = parse_count(r, p, commit);
	*nr = 1;
	if (**p == ',') {
		(*p)++;
		*nr = parse_count(r, p, commit);
	}
}

/* "@@ -a[,b] +c[,d] @@": a hunk of the current change; returns the lines of it to skip. */
static size_t parse_hunk(struct replay *r, const char *commit, const char *line, size_t cur)
{
	const char *p = line + 3;
	struct hunk *h;

	if (cur == SIZE_MAX)
		die_replay(r, commit, "a hunk outside a patch");
	ALLOC_GROW(r->hunks, r->nr_hunks + 1, r->alloc_hunks);
	h = &r->hunks[r->nr_hunks];
	if (*p++ != '-')
		die_replay(r, commit, "an unexpected hunk header");
	parse_range(r, &p, commit, &h->old_start, &h->old_nr);
	if (*p++ != ' ' || *p++ != '+')
		die_replay(r, commit, "an unexpected hunk header");
	parse_range(r, &p, commit, &h->new_start, &h->new_nr);
	if (strncmp(p, " @@", 3))
		die_replay(r, commit, "an unexpected hunk header");
	if (r->changes[cur].first_hunk + r->changes[cur].nr_hunks != r->nr_hunks)
		die_replay(r, commit, "the hunks of two patches are interleaved");
	r->changes[cur].nr_hunks++;
	r->nr_hunks++;
	return h->old_nr + h->new_nr;
}

static void start_commit(struct replay *r)
{
	r->nr_changes = r->nr_hunks = r->nr_groups = 0;
}

static void start_group(struct replay *r)
{
	ALLOC_GROW(r->groups, r->nr_groups + 1, r->alloc_groups);
	r->groups[r->nr_groups].first_change = r->nr_changes;
	r->groups[r->nr_groups].nr_changes = 0;
	r->groups[r->nr_groups].parent = -1;
	r->nr_groups++;
}

/* Drops the groups without changes: a merge's diffs that say nothing. */
static void drop_empty_groups(struct replay *r)
{
	size_t k, n = 0;

	for (k = 0; k < r->nr_groups; k++)
		if (r->groups[k].nr_changes)
			r->groups[n++] = r->groups[k];
	r->nr_groups = n;
}

/* Reads git log of the whole history and replays each commit. */
void replay_log(struct replay *r, const char *dir, const char *tip, int ignore_ws)
{
	const char *argv[40];
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	size_t next = r->first_new, skip = 0, cur = SIZE_MAX;
	const char *commit = NULL;
	int n = 0;

	argv[n++] = "git";
	argv[n++] = "-c";
	argv[n++] = "core.quotePath=false";
	argv[n++] = "-c";
	argv[n++] = "log.diffMerges=separate";
	argv[n++] = "-c";
	argv[n++] = "diff.relative=false";
	argv[n++] = "-c";
	argv[n++] = "log.showRoot=false";  /* see replay_root() */
	argv[n++] = "log";
	argv[n++] = "--reverse";
	argv[n++] = "--topo-order";
	argv[n++] = "-m";
	argv[n++] = "--raw";
	argv[n++] = "--no-abbrev";
	argv[n++] = "-M";
	argv[n++] = "--no-textconv";
	argv[n++] = "--no-ext-diff";
	argv[n++] = "--no-color";
	argv[n++] = "--no-notes";
	argv[n++] = "--submodule=short";
	argv[n++] = "-O/dev/null";
	argv[n++] = "--format=%x01%H";
	if (r->unit == REPLAY_LINES) {
		/* the token replay diffs the blobs itself: git prints which changed */
		argv[n++] = "-p";
		argv[n++] = "-U0";
		argv[n++] = "--inter-hunk-context=0";
		argv[n++] = "--irreversible-delete";  /* a deleted file's lines are not needed */
		argv[n++] = "--text";
		argv[n++] = "--src-prefix=a/";
		argv[n++] = "--dst-prefix=b/";
		if (ignore_ws)
			argv[n++] = "-w";
	}
	argv[n++] = tip;
	if (r->first_new)
		argv[n++] = r->not_base;
	argv[n++] = "--";
	argv[n] = NULL;
	reader_start(rd, argv, dir);
	if (r->opts.progress_title)
		r->progress = start_progress(r->opts.progress_title, r->end_new - r->first_new, 1);
	start_commit(r);
	for (;;) {
		int more = reader_next(rd, &line, '\n');

		if (skip && more) {
			/* the content lines of a hunk; "\ No newline" lines are extra */
			if (line.buf[0] != '\\')
				skip--;
			continue;
		}
		if (!more || line.buf[0] == '\001') {
			const char *id = more ? line.buf + 1 : NULL;

			if (commit && (!id || strcmp(id, commit))) {
				/* the commit is read: replay it, and the commits without diffs before the next */
				drop_empty_groups(r);
				replay_next(r, (uint32_t)next);
				next++;
				start_commit(r);
				commit = NULL;
			}
			if (!more)
				break;
			if (!commit) {
				while (next < r->end_new && strcmp(r->commits[next].id, id))
					replay_next(r, (uint32_t)next++);
				if (next == r->end_new)
					die("git log printed commit %s that git rev-list did not, in '%s'", id, dir);
				commit = r->commits[next].id;
			}
			start_group(r);
			cur = SIZE_MAX;
			continue;
		}
		if (!commit || !line.len)
			continue;
		if (line.buf[0] == ':') {
			parse_raw(r, commit, line.buf, line.len);
		} else if (!strncmp(line.buf, "diff --git ", 11)) {
			size_t first = r->groups[r->nr_groups - 1].first_change;

			cur = match_header(r, commit, line.buf, line.len, cur == SIZE_MAX ? first : cur);
			if (!r->changes[cur].nr_hunks)
				r->changes[cur].first_hunk = r->nr_hunks;
		} else if (!strncmp(line.buf, "@@ -", 4)) {
			skip = parse_hunk(r, commit, line.buf, cur);
		} else if (!strncmp(line.buf, "Binary files ", 13)) {
			die_replay(r, commit, "a binary diff (despite --text)");
		}
	}
	if (reader_finish(rd))
		die("git log failed in '%s'", dir);
	while (next < r->end_new)
		replay_next(r, (uint32_t)next++);
	stop_progress(&r->progress);
	free(rd);
	strbuf_release(&line);
}

