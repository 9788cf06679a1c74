/*
 * Reading `git log -m --raw` (with the line replay's patches): each
 * commit's changes against each of its parents, in groups, which
 * replay.c replays as soon as a commit is read.
 *
 * The line replay needs a merge's patch against a parent only for the
 * files that differ from every parent (a file the same as one parent's
 * is that parent's), and the patches of `git log -m -p` against the first
 * parent of a merge hold its whole topic: gigabytes on a history such as
 * tmux's.  So its main log leaves merges out (the patches of the other
 * commits with -U0, as git blame diffs), and two logs of the merges are
 * read beside it: `-m --raw`, each merge's changes against each parent
 * without patches, and `-c -p`, combined patches, which hold exactly the
 * files that differ from every parent, split here into a patch against
 * each parent.
 */
#include "../tokenize/progress.h"
#include "../tokenize/quote.h"
#include "replay-internal.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
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
static void parse_raw(struct replay *r, const char *commit, const char *line, size_t len, int patched)
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
	ch->patched = patched;
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

/* ---- hunks, unified and combined ----------------------------------------- */

/*
 * A combined patch is read with one line of context: with none, a hunk
 * leaves out the lines of the merge that only hold lost lines in front
 * of them, and its line numbers no longer say where each parent's lines
 * go.  With context every line of a hunk is printed, and the hunks are
 * split here into runs of changed lines against each parent: git diff
 * -U0's hunks, as combined diffs are made without context whatever is
 * shown.  A unified patch (a commit's, git diff's) is read by the same
 * code as one with one parent, and with -U0: with context, git diff
 * may place a change elsewhere than git blame's diff does.
 */

/* A run of changed lines against one parent (a column of a combined patch). */
struct column_hunk {
	size_t file;
	unsigned column;
	struct hunk h;
};

/* The lines of the hunk being read that differ from one parent. */
struct column_run {
	int open;
	size_t before_old, before_new, old_nr, new_nr;
	size_t next_old;          /* the parent's next line */
};

struct hunk_reader {
	struct replay *r;
	unsigned nr_parents;      /* columns: 1 for a unified patch */
	/* a unified patch's hunks go to this change; SIZE_MAX: a merge's, to hunks */
	size_t change;
	/* a merge: the files of its raw lines, path id and each parent's blob */
	size_t *paths;
	char (*blobs)[41];        /* nr_parents per file */
	size_t nr_files, alloc_paths, alloc_blobs;
	struct column_hunk *hunks;
	size_t nr_hunks, alloc_hunks;
	size_t file;              /* SIZE_MAX: none, or one the raw lines did not list */
	/* the hunk being read */
	int in_hunk;
	struct column_run *runs;
	size_t alloc_runs;
	size_t next_new;          /* the new side's next line */
};

/* Starts reading the patches of a commit (merge or not) with nr_parents parents. */
static void hunks_start(struct hunk_reader *hr, struct replay *r, unsigned nr_parents)
{
	hr->r = r;
	hr->nr_files = hr->nr_hunks = 0;
	hr->change = hr->file = SIZE_MAX;
	hr->in_hunk = 0;
	ALLOC_GROW(hr->runs, nr_parents, hr->alloc_runs);
	memset(hr->runs, 0, nr_parents * sizeof(*hr->runs));
	hr->nr_parents = nr_parents;
}

static void hunks_release(struct hunk_reader *hr)
{
	free(hr->paths);
	free(hr->blobs);
	free(hr->hunks);
	free(hr->runs);
}

static void close_run(struct hunk_reader *hr, const char *commit, unsigned col)
{
	struct column_run *run = &hr->runs[col];
	struct replay *r = hr->r;
	struct hunk *h;

	if (!run->open)
		return;
	run->open = 0;
	if (hr->change != SIZE_MAX) {
		struct change *ch = &r->changes[hr->change];

		if (ch->first_hunk + ch->nr_hunks != r->nr_hunks)
			die_replay(r, commit, "the hunks of two patches are interleaved");
		ALLOC_GROW(r->hunks, r->nr_hunks + 1, r->alloc_hunks);
		h = &r->hunks[r->nr_hunks++];
		ch->nr_hunks++;
	} else {
		ALLOC_GROW(hr->hunks, hr->nr_hunks + 1, hr->alloc_hunks);
		hr->hunks[hr->nr_hunks].file = hr->file;
		hr->hunks[hr->nr_hunks].column = col;
		h = &hr->hunks[hr->nr_hunks++].h;
	}
	/* as a unified -U0 hunk gives it: an empty side starts at the line before */
	h->old_start = run->old_nr ? run->before_old + 1 : run->before_old;
	h->old_nr = run->old_nr;
	h->new_start = run->new_nr ? run->before_new + 1 : run->before_new;
	h->new_nr = run->new_nr;
}

static void open_run(struct hunk_reader *hr, unsigned col)
{
	struct column_run *run = &hr->runs[col];

	if (run->open)
		return;
	run->open = 1;
	run->before_old = run->next_old - 1;
	run->before_new = hr->next_new - 1;
	run->old_nr = run->new_nr = 0;
}

static void end_hunk(struct hunk_reader *hr, const char *commit)
{
	unsigned k;

	for (k = 0; hr->in_hunk && k < hr->nr_parents; k++)
		close_run(hr, commit, k);
	hr->in_hunk = 0;
}

/* "-START,COUNT" or "+START,COUNT" of a hunk header: the first line of the side that it has. */
static size_t side_start(struct hunk_reader *hr, const char **p, const char *commit, char sign)
{
	size_t start, nr;

	if (*(*p)++ != sign)
		die_replay(hr->r, commit, "an unexpected hunk header");
	parse_range(hr->r, p, commit, &start, &nr);
	if (*(*p)++ != ' ')
		die_replay(hr->r, commit, "an unexpected hunk header");
	/* a side without lines: a unified hunk names the line before, a combined one the line after */
	if (!nr && (hr->nr_parents == 1 || !start))
		return start + 1;
	return start;
}

/* "@@ -a,b +c,d @@", or for a merge "@@@ -a,b -c,d +e,f @@@": a range per parent, then the new */
static void start_hunk(struct hunk_reader *hr, const char *commit, const char *line, size_t len)
{
	struct replay *r = hr->r;
	const char *p = line;
	unsigned k;

	end_hunk(hr, commit);
	for (k = 0; k <= hr->nr_parents; k++)
		if (*p++ != '@')
			die_replay(r, commit, "an unexpected hunk header");
	if (*p++ != ' ')
		die_replay(r, commit, "an unexpected hunk header");
	for (k = 0; k < hr->nr_parents; k++)
		hr->runs[k].next_old = side_start(hr, &p, commit, '-');
	hr->next_new = side_start(hr, &p, commit, '+');
	if ((size_t)(p - line) + hr->nr_parents + 1 > len || *p != '@')
		die_replay(r, commit, "an unexpected hunk header");
	if (hr->change == SIZE_MAX && hr->nr_parents == 1)
		die_replay(r, commit, "a hunk outside a patch");
	hr->in_hunk = hr->change != SIZE_MAX || hr->file != SIZE_MAX;
}

/*
 * A line of a hunk: a column for each parent, then the text.  A line of
 * the new side has ' ' where the parent has it and '+' where not; a line
 * it lost has '-' for each parent that had it.  Returns 0 when the line
 * is no line of a hunk.
 */
static int hunk_line(struct hunk_reader *hr, const char *commit, const char *line, size_t len)
{
	unsigned k, n = hr->nr_parents;
	int lost = 0;

	if (len && line[0] == '\\')
		return 1;   /* "\ No newline at end of file" */
	if (len < n)
		return 0;
	for (k = 0; k < n; k++) {
		if (line[k] != ' ' && line[k] != '+' && line[k] != '-')
			return 0;
		lost |= line[k] == '-';
	}
	for (k = 0; k < n; k++) {
		struct column_run *run = &hr->runs[k];

		if (lost) {
			if (line[k] == '-') {
				open_run(hr, k);
				run->old_nr++;
				run->next_old++;
			}
		} else if (line[k] == '+') {
			open_run(hr, k);
			run->new_nr++;
		} else {
			close_run(hr, commit, k);
			run->next_old++;
		}
	}
	if (!lost)
		hr->next_new++;
	return 1;
}

/* The hunks that follow are the patch of change ch (a unified patch). */
static void start_patch(struct hunk_reader *hr, const char *commit, size_t ch)
{
	struct change *c = &hr->r->changes[ch];

	end_hunk(hr, commit);
	hr->change = ch;
	if (!c->nr_hunks)
		c->first_hunk = hr->r->nr_hunks;
}

/* "::MODE MODE MODE BLOB BLOB BLOB MM\tpath": N colons, N + 1 modes and blobs */
static void parse_combined_raw(struct hunk_reader *hr, const char *commit, const char *line, size_t len)
{
	struct replay *r = hr->r;
	const char *end = line + len, *p = line, *tab;
	struct strbuf path = STRBUF_INIT;
	unsigned k, n = 0;

	while (p < end && *p == ':')
		p++, n++;
	if (n != hr->nr_parents)
		die_replay(r, commit, "a combined raw diff line for another number of parents");
	for (k = 0; k <= n; k++)   /* the modes */
		if (!(p = memchr(p, ' ', (size_t)(end - p))) || ++p == end)
			die_replay(r, commit, "an unexpected combined raw diff line");
	ALLOC_GROW(hr->paths, hr->nr_files + 1, hr->alloc_paths);
	ALLOC_GROW(hr->blobs, st_mult(st_add(hr->nr_files, 1), n), hr->alloc_blobs);
	for (k = 0; k < n; k++, p += 41) {
		if (end - p < 41 || p[40] != ' ')
			die_replay(r, commit, "an unexpected combined raw diff line");
		memcpy(hr->blobs[hr->nr_files * n + k], p, 40);
		hr->blobs[hr->nr_files * n + k][40] = '\0';
	}
	/* the merge's path is the last: with renames, each parent's may come before it */
	if (!(tab = memchr(p, '\t', (size_t)(end - p))))
		die_replay(r, commit, "an unexpected combined raw diff line");
	do {
		if (!(p = raw_path(tab + 1, end, &path)))
			die_replay(r, commit, "an unexpected combined raw diff line");
		tab = p;
	} while (p < end && *p == '\t');
	if (p != end)
		die_replay(r, commit, "an unexpected combined raw diff line");
	hr->paths[hr->nr_files++] = path_id(r, path.buf);
	strbuf_release(&path);
}

/* "diff --combined PATH": the file the hunks that follow are of */
static void start_combined_file(struct hunk_reader *hr, const char *commit, const char *path,
				const char *end)
{
	struct strbuf sb = STRBUF_INIT;
	size_t id, k;

	end_hunk(hr, commit);
	if (raw_path(path, end, &sb) != end)
		die_replay(hr->r, commit, "an unexpected combined patch header");
	id = path_id(hr->r, sb.buf);
	hr->file = SIZE_MAX;
	for (k = 0; k < hr->nr_files; k++)
		if (hr->paths[k] == id)
			hr->file = k;
	strbuf_release(&sb);
}

/*
 * Gives each change of the merge's groups the hunks of its file's
 * combined patch against the parent whose blob its old side is.
 */
static void attach_combined(struct hunk_reader *hr, const char *commit)
{
	struct replay *r = hr->r;
	size_t i, f, k;

	end_hunk(hr, commit);
	for (i = 0; i < r->nr_changes; i++) {
		struct change *ch = &r->changes[i];
		unsigned col;

		if (ch->status == 'D')
			continue;
		for (f = 0; f < hr->nr_files && hr->paths[f] != ch->dst; f++)
			;
		if (f == hr->nr_files)
			continue;
		for (col = 0; col < hr->nr_parents; col++)
			if (!strcmp(hr->blobs[f * hr->nr_parents + col], ch->old_blob))
				break;
		if (col == hr->nr_parents)
			continue;
		ch->first_hunk = r->nr_hunks;
		ch->nr_hunks = 0;
		ch->patched = 1;
		for (k = 0; k < hr->nr_hunks; k++) {
			if (hr->hunks[k].file != f || hr->hunks[k].column != col)
				continue;
			ALLOC_GROW(r->hunks, r->nr_hunks + 1, r->alloc_hunks);
			r->hunks[r->nr_hunks++] = hr->hunks[k].h;
			ch->nr_hunks++;
		}
	}
}

/* ---- reading the logs ---------------------------------------------------- */

/* The arguments of both logs: commits in the order replayed, renames followed. */
static void log_argv(struct strvec *argv)
{
	strvec_pushl(argv, "git",
		     "-c", "core.quotePath=false",
		     "-c", "log.diffMerges=separate",
		     "-c", "diff.relative=false",
		     "-c", "log.showRoot=false",  /* see replay_root() */
		     "log", "--reverse", "--topo-order", "--raw", "--no-abbrev", "-M",
		     "--no-textconv", "--no-ext-diff", "--no-color", "--no-notes",
		     "--submodule=short", "-O/dev/null", "--format=%x01%H", NULL);
}

/* The commits a log reads: tip's history, less the checkpoint's commit and its own when there is one. */
static void log_range(struct replay *r, struct strvec *argv, const char *tip)
{
	strvec_push(argv, tip);
	if (r->first_new)
		strvec_push(argv, r->not_base);
	strvec_push(argv, "--");
}

/* A log read beside the main one, a commit at a time: one line read ahead. */
struct side_log {
	struct strvec argv;	/* the reader's command, kept until it is finished */
	struct reader rd;
	struct strbuf line;
	int has_line;
};

/* Starts sl's log: sl->argv, log_argv() and this log's own options, then the range. */
static void side_log_start(struct replay *r, struct side_log *sl, const char *dir, const char *tip)
{
	log_range(r, &sl->argv, tip);
	strbuf_init(&sl->line, 0);
	reader_start(&sl->rd, sl->argv.v, dir);
	sl->has_line = reader_next(&sl->rd, &sl->line, '\n');
}

/*
 * Whether the side log's next commit is ci, which it then enters (its
 * header read); a commit after ci is left for later: ci printed nothing.
 */
static int side_log_at(struct replay *r, struct side_log *sl, uint32_t ci)
{
	const char *id = r->commits[ci].id;
	size_t *at;

	if (!sl->has_line || sl->line.buf[0] != '\001')
		return 0;
	if (!strcmp(sl->line.buf + 1, id))
		return 1;
	at = smap_get(&r->commit_index, sl->line.buf + 1);
	if (!at || *at <= ci)
		die("git log --merges printed commit %s out of the order of git rev-list, in '%s'",
		    sl->line.buf + 1, r->dir);
	return 0;
}

/* The next line of the commit entered, or 0 at its end. */
static int side_log_next(struct side_log *sl)
{
	sl->has_line = reader_next(&sl->rd, &sl->line, '\n');
	return sl->has_line && sl->line.buf[0] != '\001';
}

static void side_log_finish(struct side_log *sl, const char *dir)
{
	if (reader_finish(&sl->rd))
		die("git log --merges failed in '%s'", dir);
	strbuf_release(&sl->line);
	strvec_clear(&sl->argv);
}

/*
 * The line replay's merges: `git log --merges -m --raw`, each merge's
 * changes against each parent, and `git log --merges -c -p`, its
 * combined patches.
 */
struct merge_logs {
	struct side_log raw, combined;
	struct hunk_reader hr;
};

static void merge_logs_start(struct replay *r, struct merge_logs *ml, const char *dir,
			     const char *tip, int ignore_ws)
{
	struct strvec *raw = &ml->raw.argv, *combined = &ml->combined.argv;

	strvec_init(raw);
	log_argv(raw);
	strvec_pushl(raw, "--merges", "-m", NULL);
	side_log_start(r, &ml->raw, dir, tip);
	strvec_init(combined);
	log_argv(combined);
	/* -U1: see "hunks, unified and combined" */
	strvec_pushl(combined, "--merges", "-c", "-p", "-U1", "--text", NULL);
	if (ignore_ws)
		strvec_push(combined, "-w");
	side_log_start(r, &ml->combined, dir, tip);
	memset(&ml->hr, 0, sizeof(ml->hr));
}

/* Reads the changes of merge ci against each parent, with the hunks its combined patch gives. */
static void read_merge(struct replay *r, struct merge_logs *ml, uint32_t ci)
{
	const char *id = r->commits[ci].id;
	struct hunk_reader *hr = &ml->hr;
	struct side_log *sl;

	for (sl = &ml->raw; side_log_at(r, sl, ci); ) {
		start_group(r);
		while (side_log_next(sl))
			if (sl->line.buf[0] == ':')
				parse_raw(r, id, sl->line.buf, sl->line.len, 0);
	}
	hunks_start(hr, r, r->commits[ci].nr_parents);
	for (sl = &ml->combined; side_log_at(r, sl, ci); ) {
		while (side_log_next(sl)) {
			const char *line = sl->line.buf;

			if (hr->in_hunk && hunk_line(hr, id, line, sl->line.len))
				continue;
			if (!strncmp(line, "::", 2))
				parse_combined_raw(hr, id, line, sl->line.len);
			else if (!strncmp(line, "diff --combined ", 16))
				start_combined_file(hr, id, line + 16, line + sl->line.len);
			else if (line[0] == '@')
				start_hunk(hr, id, line, sl->line.len);
			else if (!strncmp(line, "Binary files ", 13) && hr->file != SIZE_MAX) {
				/* combined patches ignore --text: this file's are asked of git diff */
				hr->paths[hr->file] = SIZE_MAX;
				hr->file = SIZE_MAX;
			}
		}
	}
	attach_combined(hr, id);
}

static void merge_logs_finish(struct merge_logs *ml, const char *dir)
{
	side_log_finish(&ml->raw, dir);
	side_log_finish(&ml->combined, dir);
	hunks_release(&ml->hr);
}

/* Replays commit ci, whose changes are read (a merge's from the merges' logs). */
static void replay_read(struct replay *r, struct merge_logs *ml, uint32_t ci)
{
	if (ml && r->commits[ci].nr_parents > 1)
		read_merge(r, ml, ci);
	drop_empty_groups(r);
	replay_next(r, ci);
	start_commit(r);
}

/* Reads git log of the whole history and replays each commit. */
void replay_log(struct replay *r, const char *dir, const char *tip, int ignore_ws)
{
	struct strvec argv = STRVEC_INIT;
	struct reader *rd = xmalloc(sizeof(*rd));
	struct merge_logs *ml = NULL;
	struct hunk_reader hr = { 0 };
	struct strbuf line = STRBUF_INIT;
	size_t next = r->first_new, cur = SIZE_MAX;
	const char *commit = NULL;

	log_argv(&argv);
	if (r->unit == REPLAY_LINES) {
		/* the token replay diffs the blobs itself: git prints which changed */
		strvec_pushl(&argv, "--no-merges", "-p",
			     "-U0",   /* git blame's diffs */
			     "--inter-hunk-context=0",
			     "--irreversible-delete",  /* a deleted file's lines are not needed */
			     "--text", "--src-prefix=a/", "--dst-prefix=b/", NULL);
		if (ignore_ws)
			strvec_push(&argv, "-w");
		ml = xmalloc(sizeof(*ml));
		merge_logs_start(r, ml, dir, tip, ignore_ws);
	} else {
		strvec_push(&argv, "-m");
	}
	log_range(r, &argv, tip);
	reader_start(rd, argv.v, dir);
	if (r->opts.progress_title)
		r->progress = start_progress(r->opts.progress_title, r->end_new - r->first_new, 1);
	start_commit(r);
	for (;;) {
		int more = reader_next(rd, &line, '\n');

		if (more && hr.in_hunk && hunk_line(&hr, commit, line.buf, line.len))
			continue;
		if (!more || line.buf[0] == '\001') {
			const char *id = more ? line.buf + 1 : NULL;

			if (commit && (!id || strcmp(id, commit))) {
				/* the commit is read: replay it, and the commits without diffs before the next */
				end_hunk(&hr, commit);
				replay_read(r, ml, (uint32_t)next++);
				commit = NULL;
			}
			if (!more)
				break;
			if (!commit) {
				while (next < r->end_new && strcmp(r->commits[next].id, id))
					replay_read(r, ml, (uint32_t)next++);
				if (next == r->end_new)
					die("git log printed commit %s that git rev-list did not, in '%s'", id, dir);
				commit = r->commits[next].id;
				hunks_start(&hr, r, 1);
			}
			start_group(r);
			cur = SIZE_MAX;
			continue;
		}
		if (!commit || !line.len)
			continue;
		if (line.buf[0] == ':') {
			parse_raw(r, commit, line.buf, line.len, 1);
		} else if (!strncmp(line.buf, "diff --git ", 11)) {
			size_t first = r->groups[r->nr_groups - 1].first_change;

			cur = match_header(r, commit, line.buf, line.len, cur == SIZE_MAX ? first : cur);
			start_patch(&hr, commit, cur);
		} else if (!strncmp(line.buf, "@@ -", 4)) {
			start_hunk(&hr, commit, line.buf, line.len);
		} else if (!strncmp(line.buf, "Binary files ", 13)) {
			die_replay(r, commit, "a binary diff (despite --text)");
		}
	}
	if (reader_finish(rd))
		die("git log failed in '%s'", dir);
	while (next < r->end_new)
		replay_read(r, ml, (uint32_t)next++);
	if (ml) {
		merge_logs_finish(ml, dir);
		free(ml);
	}
	hunks_release(&hr);
	stop_progress(&r->progress);
	free(rd);
	strvec_clear(&argv);
	strbuf_release(&line);
}

/* The hunks of git diff of the change's two blobs, as git blame diffs them. */
void replay_patch(struct replay *r, const char *commit, struct change *ch)
{
	struct strvec argv = STRVEC_INIT;
	struct reader rd;
	struct hunk_reader hr = { 0 };
	struct strbuf line = STRBUF_INIT;

	if (ch->patched)
		return;
	ch->patched = 1;
	ch->first_hunk = r->nr_hunks;
	ch->nr_hunks = 0;
	if (!strcmp(ch->old_blob, ch->new_blob))
		return;
	strvec_pushl(&argv, "git", "diff", "-U0", "--inter-hunk-context=0", "--text",
		     "--no-textconv", "--no-ext-diff", "--no-color", NULL);
	if (r->opts.ignore_ws)
		strvec_push(&argv, "-w");
	strvec_pushl(&argv, ch->old_blob, ch->new_blob, NULL);
	hunks_start(&hr, r, 1);
	start_patch(&hr, commit, (size_t)(ch - r->changes));
	reader_start(&rd, argv.v, r->dir);
	while (reader_next(&rd, &line, '\n'))
		if (!(hr.in_hunk && hunk_line(&hr, commit, line.buf, line.len)) && !strncmp(line.buf, "@@ -", 4))
			start_hunk(&hr, commit, line.buf, line.len);
	end_hunk(&hr, commit);
	if (reader_finish(&rd))
		die("git diff %s %s failed in '%s'", ch->old_blob, ch->new_blob, r->dir);
	hunks_release(&hr);
	strvec_clear(&argv);
	strbuf_release(&line);
}
