/*
 * Blame of every file at once: one forward pass over the history.
 *
 * git blame walks back through the history of one file; run for every
 * file of a tree, it diffs the same commits again for each file, and a
 * report runs it twice per file (the source, the token repository).
 * Replaying the history forwards does that work once: `git log -p -m`
 * prints every diff of every commit against each of its parents, and for
 * each file of each commit we keep the commit of each of its lines.
 *
 * At a commit, a file takes git blame's answer:
 *   - identical (same blob) to the file of a parent: all its lines come
 *     from the first such parent, as git blame passes the whole blame;
 *   - else its lines unchanged against parent 1 come from parent 1, the
 *     rest unchanged against parent 2 from parent 2, and so on; what is
 *     left is the commit's own.
 * The file of a parent is the one at the same path or, when the parent
 * has no such path, the one rename detection pairs it with, as git blame
 * follows whole-file renames.  The diffs are Git's own (`-U0`, the same
 * algorithm and heuristics as blame), so the lines are those git blame
 * gives, without its -M and -C (moved and copied lines), which need the
 * file-by-file search.
 *
 * A commit's files are an array indexed by path, of shared versions
 * (reference counted); a commit's last child takes its array over, so a
 * linear history copies nothing, and an array is freed once every child
 * has been replayed.
 *
 * The same pass attributes tokens (the attribution engine): the diffs
 * are then tokstream's own (tokdiff.c), lines first and then the tokens
 * of the changed lines, because Git's diff of the views gives up on the
 * best alignment past a cost limit and then aligns unrelated ";" and
 * ")".  Tokens no parent explains, in runs of at least min_move tokens,
 * that a file the commit changed held before keep their origin there,
 * as git blame -C looks for lines; a run shorter than 30 tokens counts
 * only where those files hold it once, since a short run found in
 * several places is as likely an idiom as moved code.  min_move is 12:
 * the longest run that met both accuracy targets (t/accuracy/README.md).
 *
 * The checkpoint.  A whole-tree pass leaves its state at the tip in
 * DEST/tokstream/replay/ (every file's origins in runs, and the tokens
 * each commit added and removed), so that a later pass at a descendant
 * replays only the commits since, reading the files' token hashes from
 * the views when a diff first needs them.  A tip that is no descendant,
 * a commit since whose parent forked before it, other options, or a
 * damaged file make the pass start from the first commit: the result is
 * the same either way, only the time differs.
 */
#include "replay.h"
#include "attribute.h"
#include "../tokenize/smap.h"
#include "tokdiff.h"
#include "../tokenize/catfile.h"
#include "../tokenize/lines.h"
#include "../tokenize/progress.h"
#include "../tokenize/quote.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rcommit {
	char id[41];
	uint32_t *parents;
	unsigned nr_parents, children_left;
	int ignored;              /* its changes are attributed as if it had not made them */
	size_t *own_paths;        /* the token replay: the paths where it has tokens of its own */
	size_t nr_own_paths, alloc_own_paths;
	struct version **files;  /* by path id; NULL: no file; valid while replayed and needed */
	size_t nr_files;
	int known_only;           /* from a checkpoint, as an origin only: no files, never a parent */
};

/* One entry of `git log --raw` and the hunks of its patch. */
struct change {
	char status;
	size_t src, dst;          /* path ids */
	char old_blob[41], new_blob[41];
	size_t first_hunk, nr_hunks;
};

struct hunk {
	size_t old_start, old_nr, new_start, new_nr;
};

/*
 * A version the token replay made at the commit being replayed, whose
 * tokens not found in a parent wait for the search for moved ones: with
 * the file of the first parent it was diffed against, and that diff.
 */
struct fresh {
	struct version *v;
	size_t path;
	const struct version *old;   /* NULL: a new file */
	struct tokdiff d;
};

/* The diff of a commit against one of its parents. */
struct group {
	size_t first_change, nr_changes;
	int parent;               /* index among the parents; -1: not yet known */
};

struct replay {
	struct rcommit *commits;
	size_t nr_commits;
	struct smap commit_index, path_index;
	char **paths;
	size_t nr_paths, alloc_paths;
	uint32_t tip;

	/* the commit being read */
	struct change *changes;
	size_t nr_changes, alloc_changes;
	struct hunk *hunks;
	size_t nr_hunks, alloc_hunks;
	struct group *groups;
	size_t nr_groups, alloc_groups;

	/* the token replay */
	int tokens;
	struct replay_options opts;
	struct catfile cf;
	struct strbuf content;
	struct fresh *fresh;
	size_t nr_fresh, alloc_fresh;

	/* with a checkpoint: the commits before first_new come from it and are not replayed */
	size_t first_new;
	uint32_t base;            /* the checkpoint's tip */
	char not_base[42];        /* "^" and its id: what git is told to leave out */
	struct change_record *records;  /* every change reported, for the next checkpoint */
	size_t nr_records, alloc_records;
	struct progress *progress;  /* opts.progress_title's display */
	uint32_t sample;          /* the commit on_sample is told of */
};

/* A change reported through on_change, kept with a checkpoint. */
struct change_record {
	uint32_t commit;
	size_t path, added, removed;
};

/* for the messages of die_replay(); per thread, as two replays may run at once */
static _Thread_local const char *dir_of_replay;

static _Noreturn void die_replay(const char *commit, const char *what)
{
	die("cannot replay the history in '%s': %s at commit %s", dir_of_replay, what, commit);
}

static size_t path_id(struct replay *r, const char *path)
{
	int isnew;
	size_t *id = smap_put(&r->path_index, path, r->nr_paths, &isnew);

	if (isnew) {
		ALLOC_GROW(r->paths, r->nr_paths + 1, r->alloc_paths);
		r->paths[r->nr_paths++] = xstrdup(path);
	}
	return *id;
}

static struct version *file_at(const struct rcommit *c, size_t path)
{
	return path < c->nr_files ? c->files[path] : NULL;
}

static void set_file(struct rcommit *c, size_t path, struct version *v)
{
	if (path >= c->nr_files) {
		if (!v)
			return;
		c->files = xrealloc(c->files, (path + 1) * sizeof(*c->files));
		memset(c->files + c->nr_files, 0, (path + 1 - c->nr_files) * sizeof(*c->files));
		c->nr_files = path + 1;
	}
	if (v)
		v->refs++;
	version_unref(c->files[path]);
	c->files[path] = v;
}

static void release_files(struct rcommit *c)
{
	size_t i;

	for (i = 0; i < c->nr_files; i++)
		version_unref(c->files[i]);
	free(c->files);
	c->files = NULL;
	c->nr_files = 0;
}

/* Notes that c has tokens of its own at path (each path once: a commit makes each file once). */
static void add_own_path(struct rcommit *c, size_t path)
{
	if (c->nr_own_paths && c->own_paths[c->nr_own_paths - 1] == path)
		return;
	ALLOC_GROW(c->own_paths, c->nr_own_paths + 1, c->alloc_own_paths);
	c->own_paths[c->nr_own_paths++] = path;
}

/* ---- the order of the commits ------------------------------------------- */

/*
 * The commits of tip's history, parents first; with paths, only those
 * that change them, each with its nearest such ancestors as parents (git
 * rev-list's history simplification: a commit whose file is the same as
 * a parent's is skipped, as git blame passes all of it to that parent).
 */
/*
 * After a checkpoint was loaded, only the commits since its tip are read
 * (tip ^base); it returns -1 when one of them has a parent that is not
 * among them and not the base (a branch forked before the base), whose
 * files the checkpoint does not have.
 */
static int read_commits(struct replay *r, const char *dir, const char *tip, char **paths, size_t nr_paths)
{
	const char **argv = xcalloc(nr_paths + 10, sizeof(*argv));
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	size_t alloc = r->nr_commits, k;
	int n = 0, outside = 0;

	argv[n++] = "git";
	argv[n++] = "--literal-pathspecs";
	argv[n++] = "rev-list";
	argv[n++] = "--reverse";
	argv[n++] = "--topo-order";
	argv[n++] = "--parents";
	argv[n++] = tip;
	if (r->first_new)
		argv[n++] = r->not_base;
	argv[n++] = "--";
	for (k = 0; k < nr_paths; k++)
		argv[n++] = paths[k];
	reader_start(rd, argv, dir);
	while (reader_next(rd, &line, '\n')) {
		struct rcommit *c;
		const char *p;
		int isnew;

		if (line.len < 40)
			die("unexpected output of git rev-list in '%s': %s", dir, line.buf);
		ALLOC_GROW(r->commits, r->nr_commits + 1, alloc);
		c = &r->commits[r->nr_commits];
		memset(c, 0, sizeof(*c));
		memcpy(c->id, line.buf, 40);
		smap_put(&r->commit_index, c->id, r->nr_commits, &isnew);
		for (p = line.buf + 40; *p == ' '; p += 41) {
			char id[41];
			size_t *pi;

			memcpy(id, p + 1, 40);
			id[40] = '\0';
			if (strlen(p + 1) < 40)
				die("unexpected output of git rev-list in '%s': %s", dir, line.buf);
			pi = smap_get(&r->commit_index, id);
			if (r->first_new && (!pi || r->commits[*pi].known_only)) {
				outside = 1;
				continue;
			}
			if (!pi)
				die("unexpected output of git rev-list in '%s': %s", dir, line.buf);
			c->parents = xrealloc(c->parents, (c->nr_parents + 1) * sizeof(*c->parents));
			c->parents[c->nr_parents++] = (uint32_t)*pi;
			r->commits[*pi].children_left++;
		}
		r->nr_commits++;
	}
	if (reader_finish(rd))
		die("git rev-list %s failed in '%s'", tip, dir);
	free(argv);
	free(rd);
	strbuf_release(&line);
	/* a parent outside, or a tip that is the checkpoint's ancestor: no use */
	if (outside || (r->first_new && r->nr_commits == r->first_new))
		return -1;
	if (r->nr_commits <= r->first_new)
		die("no commits to replay at %s in '%s'", tip, dir);
	if (r->nr_commits >= NO_COMMIT)
		die("too many commits to replay in '%s'", dir);
	r->tip = (uint32_t)(r->nr_commits - 1);
	return 0;
}

/* ---- reading the log ----------------------------------------------------- */

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
		die_replay(commit, "an unexpected raw diff line");
	memcpy(ch->old_blob, p + 1, 40);
	memcpy(ch->new_blob, p + 42, 40);
	ch->status = p[83];
	p = memchr(p + 83, '\t', (size_t)(end - (p + 83)));
	if (!p || !(p = raw_path(p + 1, end, &path)))
		die_replay(commit, "an unexpected raw diff line");
	ch->src = ch->dst = path_id(r, path.buf);
	if (ch->status == 'R' || ch->status == 'C') {
		if (*p != '\t' || !(p = raw_path(p + 1, end, &path)))
			die_replay(commit, "an unexpected raw diff line");
		ch->dst = path_id(r, path.buf);
	}
	if (p != end)
		die_replay(commit, "an unexpected raw diff line");
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
	die_replay(commit, "a patch that matches no raw diff line");
}

static size_t parse_count(const char **p, const char *commit)
{
	char *end;
	unsigned long long v = strtoull(*p, &end, 10);

	if (end == *p)
		die_replay(commit, "an unexpected hunk header");
	*p = end;
	return (size_t)v;
}

/* "START[,COUNT]" of a hunk header; COUNT is 1 when left out */
static void parse_range(const char **p, const char *commit, size_t *start, size_t *nr)
{
	*start = parse_count(p, commit);
	*nr = 1;
	if (**p == ',') {
		(*p)++;
		*nr = parse_count(p, commit);
	}
}

/* "@@ -a[,b] +c[,d] @@": a hunk of the current change; returns the lines of it to skip. */
static size_t parse_hunk(struct replay *r, const char *commit, const char *line, size_t cur)
{
	const char *p = line + 3;
	struct hunk *h;

	if (cur == SIZE_MAX)
		die_replay(commit, "a hunk outside a patch");
	ALLOC_GROW(r->hunks, r->nr_hunks + 1, r->alloc_hunks);
	h = &r->hunks[r->nr_hunks];
	if (*p++ != '-')
		die_replay(commit, "an unexpected hunk header");
	parse_range(&p, commit, &h->old_start, &h->old_nr);
	if (*p++ != ' ' || *p++ != '+')
		die_replay(commit, "an unexpected hunk header");
	parse_range(&p, commit, &h->new_start, &h->new_nr);
	if (strncmp(p, " @@", 3))
		die_replay(commit, "an unexpected hunk header");
	if (r->changes[cur].first_hunk + r->changes[cur].nr_hunks != r->nr_hunks)
		die_replay(commit, "the hunks of two patches are interleaved");
	r->changes[cur].nr_hunks++;
	r->nr_hunks++;
	return h->old_nr + h->new_nr;
}

/* ---- replaying one commit ------------------------------------------------ */

/* Whether group g can be the diff against parent p: every old side is p's. */
static int group_fits(struct replay *r, const struct group *g, const struct rcommit *p)
{
	size_t i;

	for (i = g->first_change; i < g->first_change + g->nr_changes; i++) {
		const struct change *ch = &r->changes[i];
		const struct version *v = file_at(p, ch->src);

		if (ch->status == 'A' ? v != NULL : (!v || strcmp(v->blob, ch->old_blob)))
			return 0;
	}
	return 1;
}

/* The diff against parent pi (an index among the parents), or NULL when git log printed none. */
static const struct group *group_of_parent(const struct replay *r, unsigned pi)
{
	size_t k;

	for (k = 0; k < r->nr_groups; k++)
		if (r->groups[k].parent == (int)pi)
			return &r->groups[k];
	return NULL;
}

/* The change of group g whose new side is path, or NULL. */
static const struct change *change_to(struct replay *r, const struct group *g, size_t path)
{
	size_t i;

	for (i = g->first_change; i < g->first_change + g->nr_changes; i++)
		if (r->changes[i].dst == path && r->changes[i].status != 'D')
			return &r->changes[i];
	return NULL;
}

/* Gives the lines of new unchanged against old (by the hunks of ch) old's commits. */
static void pass_unchanged(struct replay *r, const char *commit, const struct change *ch,
			   const struct version *old, struct version *nv)
{
	size_t o = 0, n = 0, k;

	for (k = 0; k < ch->nr_hunks; k++) {
		const struct hunk *h = &r->hunks[ch->first_hunk + k];
		size_t old_before = h->old_nr ? h->old_start - 1 : h->old_start;
		size_t new_before = h->new_nr ? h->new_start - 1 : h->new_start;

		if (old_before < o || new_before < n || old_before - o != new_before - n ||
		    old_before > old->nr || new_before > nv->nr)
			die_replay(commit, "hunks that do not fit the file");
		for (; o < old_before; o++, n++)
			if (nv->origin[n] == NO_COMMIT)
				nv->origin[n] = old->origin[o];
		o += h->old_nr;
		n += h->new_nr;
	}
	if (o > old->nr || n > nv->nr || old->nr - o != nv->nr - n)
		die_replay(commit, "hunks that do not fit the file");
	for (; o < old->nr; o++, n++)
		if (nv->origin[n] == NO_COMMIT)
			nv->origin[n] = old->origin[o];
}

/*
 * The file of the first parent that has the same blob as the new side of
 * ch1 at the same path, else of the first whose file a rename with no
 * change brought there, which gives all of it (git blame's two passes:
 * it passes the whole blame), or NULL when none has.
 */
static struct version *same_as_a_parent(struct replay *r, uint32_t ci, const struct change *ch1)
{
	struct rcommit *c = &r->commits[ci];
	unsigned pi;
	int renames;

	for (renames = 0; renames < 2; renames++)
		for (pi = 0; pi < c->nr_parents; pi++) {
			const struct rcommit *p = &r->commits[c->parents[pi]];
			const struct group *g = group_of_parent(r, pi);
			const struct change *ch;

			if (!g) {
				/* no diff against this parent: the commit's tree is its tree */
				struct version *v = file_at(p, ch1->dst);

				if (!v || strcmp(v->blob, ch1->new_blob))
					die_replay(c->id, "a merge whose parent has not the file its diff says");
				if (!renames)
					return v;
				continue;
			}
			ch = change_to(r, g, ch1->dst);
			if (!ch) {
				if (!renames)
					return file_at(p, ch1->dst);
				continue;
			}
			if (ch->status != 'A' && ch->status != 'T' && !strcmp(ch->old_blob, ch->new_blob) &&
			    (ch->src != ch->dst) == renames)
				return file_at(p, ch->src);
		}
	return NULL;
}

/* The version of path at commit c (index ci), whose diffs against its parents are r->groups. */
static struct version *replay_file_at(struct replay *r, uint32_t ci, const struct change *ch1)
{
	struct rcommit *c = &r->commits[ci];
	struct version *nv = same_as_a_parent(r, ci, ch1);
	size_t added = 0, removed = 0, i, k;
	unsigned pi;

	if (nv)
		return nv;
	for (k = 0; k < ch1->nr_hunks; k++) {
		added += r->hunks[ch1->first_hunk + k].new_nr;
		removed += r->hunks[ch1->first_hunk + k].old_nr;
	}
	nv = xcalloc(1, sizeof(*nv));
	memcpy(nv->blob, ch1->new_blob, 41);
	if (ch1->status == 'A' || ch1->status == 'T') {
		nv->nr = added;
	} else {
		const struct version *old = file_at(&r->commits[c->parents[0]], ch1->src);

		if (!old || old->nr + added < removed)
			die_replay(c->id, "a diff that does not fit the parent's file");
		nv->nr = old->nr + added - removed;
	}
	nv->origin = xmalloc((nv->nr + 1) * sizeof(*nv->origin));
	for (i = 0; i < nv->nr; i++)
		nv->origin[i] = NO_COMMIT;

	for (pi = 0; pi < c->nr_parents; pi++) {
		const struct change *ch = change_to(r, group_of_parent(r, pi), ch1->dst);

		if (ch->status != 'A' && ch->status != 'T')
			pass_unchanged(r, c->id, ch, file_at(&r->commits[c->parents[pi]], ch->src), nv);
	}
	for (i = 0; i < nv->nr; i++)
		if (nv->origin[i] == NO_COMMIT)
			nv->origin[i] = ci;
	return nv;
}

/* ---- the token replay: its own diff, moves, ignored commits ------------ */

static struct version *read_view(struct replay *r, const char *commit, const char *blob);

/* The lines of the original that v's tokens start on, when the caller can tell them. */
static void add_lines(struct replay *r, struct version *v, const char *commit, const char *path)
{
	if (!r->opts.token_lines || !v->nr)
		return;
	v->line = xmalloc(v->nr * sizeof(*v->line));
	if (r->opts.token_lines(commit, path, v->nr, v->line, r->opts.data)) {
		free(v->line);
		v->line = NULL;
	}
}

/* The tokens of blob (a view: one per line) hashed, in a new version whose origins are unknown. */
static struct version *read_version(struct replay *r, uint32_t ci, size_t path, const char *blob)
{
	struct version *v = read_view(r, r->commits[ci].id, blob);

	v->maker = ci;
	v->maker_path = path;
	add_lines(r, v, r->commits[ci].id, r->paths[path]);
	return v;
}

static struct version *read_view(struct replay *r, const char *commit, const char *blob)
{
	unsigned char oid[20];
	char type[16];
	size_t size = 0, nr;
	uint64_t *hash;

	if (hex_to_oid(blob, 40, oid))
		die_replay(commit, "an object id that is not one");
	switch (catfile_get(&r->cf, oid, type, &size)) {
	case CATFILE_FAILED:
		die("git cat-file --batch failed in '%s'", dir_of_replay);
	case CATFILE_MISSING:
		/* a submodule's commit: one token, as its diff is one line */
		hash = xmalloc(sizeof(*hash));
		hash[0] = token_hash(blob, 40, 0);
		return new_version(blob, hash, 1, NO_COMMIT);
	case CATFILE_FOUND:
		break;
	}
	strbuf_reset(&r->content);
	strbuf_grow(&r->content, size);
	if (catfile_read(&r->cf, r->content.buf, size) || catfile_end(&r->cf))
		die("git cat-file --batch failed in '%s'", dir_of_replay);
	hash = hash_lines(r->content.buf, size, r->opts.ignore_ws, &nr);
	return new_version(blob, hash, nr, NO_COMMIT);
}

/* Tells on_change, and keeps for the checkpoint, the tokens commit ci added and removed in path. */
/* Keeps a change for the checkpoint. */
static void add_record(struct replay *r, uint32_t ci, size_t path, size_t added, size_t removed)
{
	struct change_record *rec;

	ALLOC_GROW(r->records, r->nr_records + 1, r->alloc_records);
	rec = &r->records[r->nr_records++];
	rec->commit = ci;
	rec->path = path;
	rec->added = added;
	rec->removed = removed;
}

static void note_change(struct replay *r, uint32_t ci, size_t path, size_t added, size_t removed)
{
	if (r->opts.on_change)
		r->opts.on_change(r->commits[ci].id, r->paths[path], added, removed, r->opts.data);
	if (r->opts.checkpoint)
		add_record(r, ci, path, added, removed);
}

/*
 * A version a checkpoint gave has its origins only: its tokens' hashes
 * and lines are read when a diff first needs them, the lines from the
 * original file of the commit and path that made it, as when it was made.
 */
static void read_lazy(struct replay *r, struct version *v)
{
	struct version *read;

	if (!v || !v->lazy)
		return;
	read = read_view(r, r->commits[v->maker].id, v->blob);
	if (read->nr != v->nr)
		die("the replay checkpoint '%s' does not fit %s (%zu tokens, not %zu): remove it",
		    r->opts.checkpoint, r->paths[v->maker_path], read->nr, v->nr);
	v->hash = read->hash;
	read->hash = NULL;
	version_unref(read);
	v->lazy = 0;
	add_lines(r, v, r->commits[v->maker].id, r->paths[v->maker_path]);
}

static void add_fresh(struct replay *r, struct version *v, size_t path, const struct version *old,
		      const struct tokdiff *d)
{
	struct fresh *f;

	ALLOC_GROW(r->fresh, r->nr_fresh + 1, r->alloc_fresh);
	f = &r->fresh[r->nr_fresh++];
	f->v = v;
	f->path = path;
	f->old = old;
	f->d = *d;
}

/*
 * The version of a file at commit ci from its parents' versions parent[]
 * (NULL: that parent has no such file), git blame's rule: the first
 * parent with the same blob gives all of it; else the tokens the diff
 * against parent 1 keeps are parent 1's, of the rest those kept against
 * parent 2 are parent 2's, and so on.  What no parent gives waits in
 * r->fresh for the search for moves (finish_tokens).
 */
static struct version *token_version(struct replay *r, uint32_t ci, size_t path, const char *blob,
				     struct version **parent, unsigned nr_parents)
{
	struct tokdiff d0 = { NULL, 0, 0 };
	struct version *nv;
	unsigned pi;

	for (pi = 0; pi < nr_parents; pi++)
		if (parent[pi] && !strcmp(parent[pi]->blob, blob))
			return parent[pi];
	nv = read_version(r, ci, path, blob);
	for (pi = 0; pi < nr_parents; pi++) {
		struct tokdiff d = { NULL, 0, 0 };

		if (!parent[pi])
			continue;
		take_unchanged(nv, parent[pi], &d);
		if (pi == 0)
			d0 = d;
		else
			tokdiff_release(&d);
	}
	add_fresh(r, nv, path, nr_parents ? parent[0] : NULL, &d0);
	return nv;
}

/* The same for the new side of ch1, with the parents' files its diffs name. */
static struct version *replay_tokens_at(struct replay *r, uint32_t ci, const struct change *ch1)
{
	struct rcommit *c = &r->commits[ci];
	struct version *same = same_as_a_parent(r, ci, ch1), **parent;
	unsigned pi;

	if (same)
		return same;
	parent = xcalloc(c->nr_parents + 1, sizeof(*parent));
	for (pi = 0; pi < c->nr_parents; pi++) {
		const struct change *ch = change_to(r, group_of_parent(r, pi), ch1->dst);

		if (ch->status != 'A' && ch->status != 'T' &&
		    !(parent[pi] = file_at(&r->commits[c->parents[pi]], ch->src)))
			die_replay(c->id, "a diff whose parent has not the file it says");
		read_lazy(r, parent[pi]);
	}
	same = token_version(r, ci, ch1->dst, ch1->new_blob, parent, c->nr_parents);
	free(parent);
	return same;
}

/*
 * The end of a commit in the token replay: moves (from src, the first
 * parent's versions of the files the commit changed), ignored commits,
 * the rest the commit's own; the tokens each file gained and lost.
 */
static void finish_commit_tokens(struct replay *r, uint32_t ci, struct move_source *src, size_t nr_src)
{
	struct rcommit *c = &r->commits[ci];
	size_t k, i;

	if (r->opts.min_move && c->nr_parents == 1 && nr_src) {
		struct version **fresh = xcalloc(r->nr_fresh + 1, sizeof(*fresh));

		for (k = 0; k < r->nr_fresh; k++)
			fresh[k] = r->fresh[k].v;
		find_moves(fresh, r->nr_fresh, src, nr_src, r->opts.min_move);
		free(fresh);
	}
	for (k = 0; k < r->nr_fresh; k++) {
		struct fresh *f = &r->fresh[k];
		size_t same = 0;

		if (c->ignored && f->old)
			pass_over_ignored(f->v, f->old, &f->d);
		for (i = 0; i < f->v->nr; i++)
			if (f->v->origin[i] == NO_COMMIT) {
				f->v->origin[i] = ci;
				add_own_path(c, f->path);
			}
		for (i = 0; i < f->d.nr; i++)
			same += f->d.runs[i].len;
		if (c->nr_parents <= 1 && (f->v->nr > same || (f->old && f->old->nr > same)))
			note_change(r, ci, f->path, f->v->nr - same, f->old ? f->old->nr - same : 0);
		tokdiff_release(&f->d);
	}
	r->nr_fresh = 0;
}

/* The same, for a commit whose diff against its first parent is g1 (NULL: none). */
static void finish_tokens(struct replay *r, uint32_t ci, const struct group *g1)
{
	const struct rcommit *c = &r->commits[ci];
	const struct rcommit *p1 = c->nr_parents ? &r->commits[c->parents[0]] : NULL;
	struct move_source *src = xcalloc(g1 ? g1->nr_changes + 1 : 1, sizeof(*src));
	size_t k, nr_src = 0;

	for (k = 0; p1 && g1 && k < g1->nr_changes; k++) {
		const struct change *ch = &r->changes[g1->first_change + k];
		struct version *v = ch->status != 'A' ? file_at(p1, ch->src) : NULL;

		if (v) {
			/* the sources are read only when a run is looked for (find_moves) */
			if (r->opts.min_move && c->nr_parents == 1)
				read_lazy(r, v);
			src[nr_src].path = r->paths[ch->src];
			src[nr_src++].v = v;
		}
		/* a deleted file's tokens are removed; a changed file's are counted where it is made */
		if (v && ch->status == 'D' && v->nr && c->nr_parents == 1)
			note_change(r, ci, ch->src, 0, v->nr);
	}
	finish_commit_tokens(r, ci, src, nr_src);
	free(src);
}

/* git's line count: a last line without LF is one too */
static size_t count_lines(const char *p, size_t n)
{
	return count_newlines(p, n) + (n && p[n - 1] != '\n');
}

/*
 * Every file of the tree of commit in the repository at dir (or those of
 * paths, when given), with its content; a submodule with none.
 */
typedef void tree_blob_fn(const char *path, const char *blob, const char *content, size_t len,
			  int submodule, void *data);

static void tree_blobs(const char *dir, const char *commit, const char **paths, size_t nr_paths,
		       tree_blob_fn *fn, void *data)
{
	const char *cat[] = { "git", "cat-file", "--batch", "--buffer", NULL };
	const char **ls = xcalloc(nr_paths + 8, sizeof(*ls));
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf rec = STRBUF_INIT, content = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, k;
	int n = 0;
	FILE *ids = tmpfile();

	if (!ids)
		die_errno("cannot make a temporary file");
	ls[n++] = "git";
	ls[n++] = "ls-tree";
	ls[n++] = "-r";
	ls[n++] = "-z";
	ls[n++] = "--full-tree";
	ls[n++] = commit;
	ls[n++] = "--";
	for (k = 0; k < nr_paths; k++)
		ls[n++] = paths[k];
	reader_start(rd, ls, dir);
	while (reader_next(rd, &rec, '\0')) {
		/* "MODE TYPE ID\tPATH" */
		const char *type = strchr(rec.buf, ' '), *tab = strchr(rec.buf, '\t');
		char blob[41];

		if (!type || !tab || tab - type < 42 || tab[-41] != ' ')
			die("unexpected output of git ls-tree %s in '%s'", commit, dir);
		memcpy(blob, tab - 40, 40);
		blob[40] = '\0';
		if (!strncmp(type, " commit ", 8)) {
			fn(tab + 1, blob, NULL, 0, 1, data);
			continue;
		}
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(tab + 1);
		fprintf(ids, "%s\n", blob);
	}
	if (reader_finish(rd))
		die("git ls-tree %s failed in '%s'", commit, dir);
	if (fflush(ids) || ferror(ids))
		die_errno("cannot write a temporary file");
	rewind(ids);
	reader_start_fd(rd, cat, dir, fileno(ids));
	for (k = 0; k < nr; k++) {
		char *end;
		unsigned long long size;
		char blob[41];

		/* "ID blob SIZE", the bytes, LF */
		if (!reader_next(rd, &rec, '\n') || rec.len < 47 || strncmp(rec.buf + 40, " blob ", 6))
			die("unexpected output of git cat-file in '%s'", dir);
		memcpy(blob, rec.buf, 40);
		blob[40] = '\0';
		size = strtoull(rec.buf + 46, &end, 10);
		if (end == rec.buf + 46 || *end || size > SIZE_MAX || reader_read(rd, (size_t)size, &content) ||
		    !reader_next(rd, &rec, '\n') || rec.len)
			die("unexpected output of git cat-file in '%s'", dir);
		fn(names[k], blob, content.buf, content.len, 0, data);
		free(names[k]);
	}
	if (reader_finish(rd))
		die("git cat-file failed in '%s'", dir);
	fclose(ids);
	free(names);
	free(ls);
	free(rd);
	strbuf_release(&rec);
	strbuf_release(&content);
}

struct tree_lines_cb {
	tree_lines_fn *fn;
	void *data;
};

static void count_blob_lines(const char *path, const char *blob, const char *content, size_t len,
			     int submodule, void *data)
{
	struct tree_lines_cb *cb = data;

	/* a submodule's diff is one line, "Subproject commit ID" */
	if (submodule)
		cb->fn(path, blob, 1, 0, cb->data);
	else
		cb->fn(path, blob, count_lines(content, len),
		       memchr(content, '\0', len < 8000 ? len : 8000) != NULL, cb->data);
}

void tree_lines(const char *dir, const char *commit, tree_lines_fn *fn, void *data)
{
	struct tree_lines_cb cb = { fn, data };

	tree_blobs(dir, commit, NULL, 0, count_blob_lines, &cb);
}

struct root_files {
	struct replay *r;
	uint32_t ci;
};

static void add_root_file(const char *path, const char *blob, size_t lines, int binary, void *data)
{
	struct root_files *rf = data;
	struct version *v = xcalloc(1, sizeof(*v));
	size_t i;

	(void)binary;  /* lines all the same: --text */
	memcpy(v->blob, blob, 41);
	v->nr = lines;
	v->origin = xmalloc((lines + 1) * sizeof(*v->origin));
	for (i = 0; i < lines; i++)
		v->origin[i] = rf->ci;
	set_file(&rf->r->commits[rf->ci], path_id(rf->r, path), v);
}

/*
 * The files of a root commit, every line of them its own.  Its diff, all
 * its lines printed as added, would be most of git log's work on a
 * history that begins with a whole tree (a release imported at once), so
 * git log is told not to show it (log.showRoot=false), and the files and
 * their lines come from tree_lines().
 */
static void add_root_version(const char *path, const char *blob, const char *content, size_t len,
			     int submodule, void *data)
{
	struct root_files *rf = data;
	struct replay *r = rf->r;
	struct version *v;
	uint64_t *hash;
	size_t nr = 1;

	if (submodule) {
		hash = xmalloc(sizeof(*hash));
		hash[0] = token_hash(blob, 40, 0);
	} else {
		hash = hash_lines(content, len, r->opts.ignore_ws, &nr);
	}
	v = new_version(blob, hash, nr, rf->ci);
	v->maker = rf->ci;
	v->maker_path = path_id(r, path);
	if (!submodule)
		add_lines(r, v, r->commits[rf->ci].id, path);
	set_file(&r->commits[rf->ci], path_id(r, path), v);
	add_own_path(&r->commits[rf->ci], path_id(r, path));
	if (nr)
		note_change(r, rf->ci, path_id(r, path), nr, 0);
}

static void replay_root(struct replay *r, uint32_t ci)
{
	struct root_files rf = { r, ci };

	if (r->tokens)
		tree_blobs(dir_of_replay, r->commits[ci].id, NULL, 0,
			   add_root_version, &rf);
	else
		tree_lines(dir_of_replay, r->commits[ci].id, add_root_file, &rf);
}

static void replay_commit_files(struct replay *r, uint32_t ci)
{
	display_progress(r->progress, ci + 1 - r->first_new);
	struct rcommit *c = &r->commits[ci];
	struct version **made;
	const struct group *g1;
	size_t k, i;
	unsigned pi;
	int next = 0;

	if (!c->nr_parents && !r->nr_groups) {
		replay_root(r, ci);
		return;
	}

	/* which parent each diff is against: they come in the parents' order */
	for (k = 0; k < r->nr_groups; k++) {
		struct group *g = &r->groups[k];

		if (!c->nr_parents) {
			/* a root: one diff, against nothing */
			for (i = 0; i < g->nr_changes; i++)
				if (k || r->changes[g->first_change + i].status != 'A')
					die_replay(c->id, "a root commit with a diff against a parent");
			g->parent = 0;
			continue;
		}
		while (next < (int)c->nr_parents && !group_fits(r, g, &r->commits[c->parents[next]]))
			next++;
		if (next == (int)c->nr_parents)
			die_replay(c->id, "a diff that fits none of the parents");
		g->parent = next++;
	}

	g1 = group_of_parent(r, 0);

	/* the new versions, from the parents' files (before any is changed: renames may swap paths) */
	made = xcalloc(g1 ? g1->nr_changes + 1 : 1, sizeof(*made));
	for (k = 0; g1 && k < g1->nr_changes; k++) {
		const struct change *ch = &r->changes[g1->first_change + k];

		if (ch->status == 'D')
			continue;
		made[k] = r->tokens ? replay_tokens_at(r, ci, ch) : replay_file_at(r, ci, ch);
		made[k]->refs++;
	}
	if (r->tokens)
		finish_tokens(r, ci, g1);

	/* its files: the first parent's (taken over by its last child), then the diff against it */
	if (c->nr_parents) {
		struct rcommit *p1 = &r->commits[c->parents[0]];

		if (p1->children_left == 1 && (c->nr_parents == 1 || c->parents[1] != c->parents[0])) {
			c->files = p1->files;
			c->nr_files = p1->nr_files;
			p1->files = NULL;
			p1->nr_files = 0;
		} else {
			c->files = xcalloc(p1->nr_files + 1, sizeof(*c->files));
			c->nr_files = p1->nr_files;
			for (i = 0; i < p1->nr_files; i++)
				if ((c->files[i] = p1->files[i]))
					c->files[i]->refs++;
		}
	}
	for (k = 0; g1 && k < g1->nr_changes; k++) {
		const struct change *ch = &r->changes[g1->first_change + k];

		if (ch->status == 'D' || ch->status == 'R')
			set_file(c, ch->src, NULL);
	}
	for (k = 0; g1 && k < g1->nr_changes; k++)
		if (made[k]) {
			set_file(c, r->changes[g1->first_change + k].dst, made[k]);
			version_unref(made[k]);
		}
	free(made);

	/* parents whose children are all replayed are no longer needed */
	for (pi = 0; pi < c->nr_parents; pi++) {
		struct rcommit *p = &r->commits[c->parents[pi]];

		if (!--p->children_left && c->parents[pi] != r->tip)
			release_files(p);
	}
}

/* ---- the whole history --------------------------------------------------- */

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

/* Tells on_sample of commit ci when it is one of the samples. */
static void sample_commit(struct replay *r, uint32_t ci)
{
	if (!r->opts.on_sample || !r->opts.samples ||
	    !smap_get((struct smap *)r->opts.samples, r->commits[ci].id))
		return;
	r->sample = ci;
	r->opts.on_sample(r, r->commits[ci].id, r->opts.sample_data);
}

/* Replays commit ci, whose diffs are read, and shows it to on_sample. */
static void replay_next(struct replay *r, uint32_t ci)
{
	replay_commit_files(r, ci);
	sample_commit(r, ci);
}

/* Reads git log of the whole history and replays each commit. */
static void replay_log(struct replay *r, const char *dir, const char *tip, int ignore_ws)
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
	if (!r->tokens) {
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
		r->progress = start_progress(r->opts.progress_title, r->nr_commits - r->first_new, 1);
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
				while (next < r->nr_commits && strcmp(r->commits[next].id, id))
					replay_next(r, (uint32_t)next++);
				if (next == r->nr_commits)
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
			die_replay(commit, "a binary diff (despite --text)");
		}
	}
	if (reader_finish(rd))
		die("git log failed in '%s'", dir);
	while (next < r->nr_commits)
		replay_next(r, (uint32_t)next++);
	stop_progress(&r->progress);
	free(rd);
	strbuf_release(&line);
}

static void mark_ignored(struct replay *r)
{
	size_t k;

	if (!r->opts.ignore)
		return;
	for (k = 0; k < r->nr_commits; k++)
		r->commits[k].ignored = smap_get((struct smap *)r->opts.ignore, r->commits[k].id) != NULL;
}

/* ---- the checkpoint: the state at the tip, for the next replay ------------ */

/*
 * A text file: a header and the key, the commits it names (each with the
 * path where it has tokens of its own), the paths, every file at the tip
 * with its origins in runs (commit, count), every change reported, and
 * which commit is the tip.  Hashes and lines are not kept: they are read
 * again from the views when a later diff needs them (read_lazy).
 */
#define CHECKPOINT_FORMAT "tokstream replay checkpoint "
#define CHECKPOINT_HEADER CHECKPOINT_FORMAT "2\n"

static void checkpoint_save(struct replay *r)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t *cnum = xmalloc((r->nr_commits + 1) * sizeof(*cnum)), *corder;
	size_t *pnum = xmalloc((r->nr_paths + 1) * sizeof(*pnum)), *porder;
	size_t nc = 0, np = 0, k, i, nr_files = 0;
	const struct rcommit *tip = &r->commits[r->tip];

	corder = xmalloc((r->nr_commits + 1) * sizeof(*corder));
	porder = xmalloc((r->nr_paths + 1) * sizeof(*porder));
	for (k = 0; k < r->nr_commits; k++)
		cnum[k] = NO_COMMIT;
	for (k = 0; k < r->nr_paths; k++)
		pnum[k] = SIZE_MAX;
#define MARK_COMMIT(c) do { if (cnum[c] == NO_COMMIT) { cnum[c] = (uint32_t)nc; corder[nc++] = (c); } } while (0)
#define MARK_PATH(p) do { if (pnum[p] == SIZE_MAX) { pnum[p] = np; porder[np++] = (p); } } while (0)
	MARK_COMMIT(r->tip);
	for (k = 0; k < tip->nr_files; k++) {
		const struct version *v = tip->files[k];

		if (!v)
			continue;
		nr_files++;
		MARK_PATH(k);
		MARK_COMMIT(v->maker);
		MARK_PATH(v->maker_path);
		for (i = 0; i < v->nr; i++)
			MARK_COMMIT(v->origin[i]);
	}
	for (k = 0; k < r->nr_records; k++) {
		MARK_COMMIT(r->records[k].commit);
		MARK_PATH(r->records[k].path);
	}
	for (k = 0; k < nc; k++)
		for (i = 0; i < r->commits[corder[k]].nr_own_paths; i++)
			MARK_PATH(r->commits[corder[k]].own_paths[i]);
#undef MARK_COMMIT
#undef MARK_PATH

	strbuf_addstr(&sb, CHECKPOINT_HEADER);
	strbuf_addf(&sb, "key %s\npaths %zu\n", r->opts.checkpoint_key ? r->opts.checkpoint_key : "", np);
	for (k = 0; k < np; k++) {
		const char *path = r->paths[porder[k]];

		strbuf_addf(&sb, "%zu ", strlen(path));
		strbuf_addstr(&sb, path);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "commits %zu\n", nc);
	for (k = 0; k < nc; k++) {
		const struct rcommit *c = &r->commits[corder[k]];

		strbuf_addstr(&sb, c->id);
		for (i = 0; i < c->nr_own_paths; i++)
			strbuf_addf(&sb, " %zu", pnum[c->own_paths[i]]);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "files %zu\n", nr_files);
	for (k = 0; k < tip->nr_files; k++) {
		const struct version *v = tip->files[k];

		if (!v)
			continue;
		strbuf_addf(&sb, "%zu %s %u %zu %zu", pnum[k], v->blob, (unsigned)cnum[v->maker],
			    pnum[v->maker_path], v->nr);
		for (i = 0; i < v->nr;) {
			size_t j = i;

			while (j < v->nr && v->origin[j] == v->origin[i])
				j++;
			strbuf_addf(&sb, " %u %zu", (unsigned)cnum[v->origin[i]], j - i);
			i = j;
		}
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "changes %zu\n", r->nr_records);
	for (k = 0; k < r->nr_records; k++) {
		const struct change_record *rec = &r->records[k];

		strbuf_addf(&sb, "%u %zu %zu %zu\n", (unsigned)cnum[rec->commit], pnum[rec->path],
			    rec->added, rec->removed);
	}
	strbuf_addstr(&sb, "tip 0\nend\n");
	write_atomic(r->opts.checkpoint, sb.buf, sb.len);
	strbuf_release(&sb);
	free(cnum);
	free(corder);
	free(pnum);
	free(porder);
}

/*
 * A number at *p followed by the byte end, or by a space or a newline when
 * end is 0 (*ended tells which); -1 when there is none.
 */
static int checkpoint_number(const char **p, const char *limit, char end, size_t *out, char *ended)
{
	const char *q = *p;
	size_t v = 0;

	if (q >= limit || *q < '0' || *q > '9')
		return -1;
	while (q < limit && *q >= '0' && *q <= '9') {
		if (v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(*q++ - '0');
	}
	if (q >= limit || (end ? *q != end : *q != ' ' && *q != '\n'))
		return -1;
	if (ended)
		*ended = *q;
	*p = q + 1;
	*out = v;
	return 0;
}

/* The line "WORD N" at *p. */
static int checkpoint_count(const char **p, const char *limit, const char *word, size_t *out)
{
	size_t len = strlen(word);

	if ((size_t)(limit - *p) < len + 1 || memcmp(*p, word, len) || (*p)[len] != ' ')
		return -1;
	*p += len + 1;
	return checkpoint_number(p, limit, '\n', out, NULL);
}

/*
 * Loads the checkpoint of r->opts when its key is r's and returns 1, with
 * r's first commits those it names and r->base its tip; 2 when that tip
 * is tip itself (nothing to replay).  0 when there is none that fits;
 * a damaged one is a warning, and the replay starts from the beginning.
 */
static int checkpoint_load(struct replay *r, const char *dir, const char *tip)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *limit, *key = r->opts.checkpoint_key ? r->opts.checkpoint_key : "";
	size_t nc, np, nf, nch, k, i, t, *pid = NULL;
	const char *argv[] = { "git", "rev-parse", "--verify", "-q", NULL, NULL };
	struct strbuf spec = STRBUF_INIT;
	int ret = 0;

	if (strbuf_read_file(&sb, r->opts.checkpoint) < 0)
		goto out;
	p = sb.buf;
	limit = sb.buf + sb.len;
	if (strncmp(p, CHECKPOINT_HEADER, strlen(CHECKPOINT_HEADER))) {
		if (!strncmp(p, CHECKPOINT_FORMAT, strlen(CHECKPOINT_FORMAT)))
			goto out;  /* another version's: replaced, as a state made with other options */
		goto damaged;
	}
	p += strlen(CHECKPOINT_HEADER);
	if (strncmp(p, "key ", 4) || strncmp(p + 4, key, strlen(key)) || p[4 + strlen(key)] != '\n')
		goto out;  /* made with other options: not this replay's */
	p += 4 + strlen(key) + 1;
	if (checkpoint_count(&p, limit, "paths", &np))
		goto damaged;
	pid = xcalloc(np + 1, sizeof(*pid));
	for (k = 0; k < np; k++) {
		size_t len;
		char *path;

		if (checkpoint_number(&p, limit, ' ', &len, NULL) || (size_t)(limit - p) < len + 1 || p[len] != '\n')
			goto damaged;
		path = xmalloc(len + 1);
		memcpy(path, p, len);
		path[len] = '\0';
		pid[k] = path_id(r, path);
		free(path);
		p += len + 1;
	}
	if (checkpoint_count(&p, limit, "commits", &nc) || !nc || nc >= NO_COMMIT)
		goto damaged;
	r->commits = xcalloc(nc, sizeof(*r->commits));
	for (k = 0; k < nc; k++) {
		struct rcommit *c = &r->commits[k];
		char ended;
		int isnew;

		if (limit - p < 41 || (p[40] != ' ' && p[40] != '\n') || hex_to_oid(p, 40, (unsigned char[20]){ 0 }))
			goto damaged;
		memcpy(c->id, p, 40);
		c->known_only = 1;
		ended = p[40];
		p += 41;
		r->nr_commits++;
		smap_put(&r->commit_index, c->id, k, &isnew);
		if (!isnew)
			goto damaged;
		while (ended == ' ') {
			size_t path;

			if (checkpoint_number(&p, limit, 0, &path, &ended) || path >= np)
				goto damaged;
			add_own_path(c, pid[path]);
		}
	}
	/* the tip is written as commit 0 */
	r->base = 0;
	r->commits[0].known_only = 0;
	if (checkpoint_count(&p, limit, "files", &nf))
		goto damaged;
	for (k = 0; k < nf; k++) {
		struct version *v;
		size_t path, at = 0, maker, maker_path;
		char ended;

		if (checkpoint_number(&p, limit, ' ', &path, NULL) || path >= np ||
		    limit - p < 42 || p[40] != ' ' || hex_to_oid(p, 40, (unsigned char[20]){ 0 }))
			goto damaged;
		v = xcalloc(1, sizeof(*v));
		memcpy(v->blob, p, 40);
		p += 41;
		v->lazy = r->tokens;
		set_file(&r->commits[0], pid[path], v);
		/* "MAKER MAKER-PATH NR", then " COMMIT COUNT" for each run, then a newline */
		if (checkpoint_number(&p, limit, ' ', &maker, NULL) || maker >= nc ||
		    checkpoint_number(&p, limit, ' ', &maker_path, NULL) || maker_path >= np ||
		    checkpoint_number(&p, limit, 0, &v->nr, &ended) || v->nr >= SIZE_MAX / sizeof(*v->origin) ||
		    (ended == '\n') != !v->nr)
			goto damaged;
		v->maker = (uint32_t)maker;
		v->maker_path = pid[maker_path];
		v->origin = xmalloc((v->nr + 1) * sizeof(*v->origin));
		while (at < v->nr) {
			size_t c, n;

			if (checkpoint_number(&p, limit, ' ', &c, NULL) || c >= nc ||
			    checkpoint_number(&p, limit, 0, &n, &ended) || !n || n > v->nr - at ||
			    (ended == '\n') != (n == v->nr - at))
				goto damaged;
			for (i = 0; i < n; i++)
				v->origin[at++] = (uint32_t)c;
		}
	}
	if (checkpoint_count(&p, limit, "changes", &nch))
		goto damaged;
	for (k = 0; k < nch; k++) {
		size_t c, path, added, removed;

		if (checkpoint_number(&p, limit, ' ', &c, NULL) || c >= nc ||
		    checkpoint_number(&p, limit, ' ', &path, NULL) || path >= np ||
		    checkpoint_number(&p, limit, ' ', &added, NULL) ||
		    checkpoint_number(&p, limit, '\n', &removed, NULL))
			goto damaged;
		/* told on_change only once the checkpoint is used (replay_whole) */
		add_record(r, (uint32_t)c, pid[path], added, removed);
	}
	if (checkpoint_count(&p, limit, "tip", &t) || t || strcmp(p, "end\n"))
		goto damaged;
	r->first_new = nc;
	snprintf(r->not_base, sizeof(r->not_base), "^%s", r->commits[0].id);

	strbuf_addf(&spec, "%s^{commit}", tip);
	argv[4] = spec.buf;
	if (run_capture(argv, dir, &out) || out.len < 40)
		die("'%s' is not a commit in '%s'", tip, dir);
	if (!memcmp(out.buf, r->commits[0].id, 40)) {
		r->tip = 0;
		ret = 2;
	} else {
		ret = 1;
	}
	goto out;
damaged:
	warning("the replay checkpoint '%s' is damaged: replaying the whole history", r->opts.checkpoint);
	ret = -1;
out:
	strbuf_release(&sb);
	strbuf_release(&out);
	strbuf_release(&spec);
	free(pid);
	return ret;
}

static struct replay *replay_new(const char *dir)
{
	struct replay *r = xcalloc(1, sizeof(*r));

	dir_of_replay = dir;
	r->cf.dir = dir;
	strbuf_init(&r->content, 0);
	return r;
}

/*
 * Whether a replay from the checkpoint goes through every sample: each is
 * its tip or a commit since.
 */
static int samples_after_base(struct replay *r)
{
	const struct smap *s = r->opts.samples;
	size_t k, *at;

	for (k = 0; r->opts.on_sample && s && k < s->cap; k++)
		if (s->v[k].key && (!(at = smap_get(&r->commit_index, s->v[k].key)) ||
				    (*at < r->first_new && *at != r->base)))
			return 0;
	return 1;
}

/*
 * The whole tree's replay, from the checkpoint of opts when one fits (a
 * replay of the commits since its tip), else from the first commit; the
 * checkpoint is then written for the new tip.
 */
static struct replay *replay_whole(const char *dir, const char *tip, const struct replay_options *opts, int tokens,
				   int only_from_checkpoint)
{
	struct replay *r = replay_new(dir);
	int from = 0;

	r->tokens = tokens;
	r->opts = *opts;
	if (opts->checkpoint)
		from = checkpoint_load(r, dir, tip);
	if (from == 1 && read_commits(r, dir, tip, NULL, 0) < 0)
		from = -1;  /* a branch that forked before the checkpoint */
	if (from > 0 && !samples_after_base(r))
		from = -1;  /* a sample the checkpoint has gone past: only the whole history has it */
	if (from <= 0 && only_from_checkpoint) {
		replay_free(r);
		return NULL;
	}
	if (from < 0) {
		replay_free(r);
		r = replay_new(dir);
		r->tokens = tokens;
		r->opts = *opts;
		from = 0;
	}
	if (!from && read_commits(r, dir, tip, NULL, 0) < 0)
		BUG("a replay from the start with a commit outside it");
	if (from && r->opts.on_change) {
		size_t k;

		for (k = 0; k < r->nr_records; k++) {
			const struct change_record *rec = &r->records[k];

			r->opts.on_change(r->commits[rec->commit].id, r->paths[rec->path], rec->added,
					  rec->removed, r->opts.data);
		}
	}
	if (from)
		sample_commit(r, r->base);
	if (from != 2) {
		mark_ignored(r);
		replay_log(r, dir, tip, tokens ? 0 : opts->ignore_ws);
		if (opts->checkpoint)
			checkpoint_save(r);
	}
	catfile_stop(&r->cf);
	return r;
}

struct replay *replay_history(const char *dir, const char *tip, const struct replay_options *opts)
{
	return replay_whole(dir, tip, opts, 0, 0);
}

struct replay *replay_tokens(const char *dir, const char *tip, const struct replay_options *opts)
{
	return replay_whole(dir, tip, opts, 1, 0);
}

struct replay *replay_tokens_from_checkpoint(const char *dir, const char *tip, const struct replay_options *opts)
{
	return opts->checkpoint ? replay_whole(dir, tip, opts, 1, 1) : NULL;
}

const uint32_t *replay_file(const struct replay *r, const char *path, size_t *nr)
{
	size_t *id = smap_get((struct smap *)&r->path_index, path);
	const struct version *v;

	if (!id || !(v = file_at(&r->commits[r->tip], *id)))
		return NULL;
	*nr = v->nr;
	return v->origin;
}

const char *replay_commit(const struct replay *r, uint32_t commit)
{
	return r->commits[commit].id;
}

const char *replay_commit_path(const struct replay *r, const char *id, const char *prefer)
{
	size_t *k = smap_get((struct smap *)&r->commit_index, id), i;
	const struct rcommit *c;

	if (!k || !(c = &r->commits[*k])->nr_own_paths)
		return NULL;
	for (i = 0; prefer && i < c->nr_own_paths; i++)
		if (!strcmp(r->paths[c->own_paths[i]], prefer))
			return prefer;
	return r->paths[c->own_paths[0]];
}

void replay_sample_files(const struct replay *r, replay_file_fn *fn, void *data)
{
	const struct rcommit *c = &r->commits[r->sample];
	size_t k;

	for (k = 0; k < c->nr_files; k++)
		if (c->files[k])
			fn(r->paths[k], c->files[k]->origin, c->files[k]->nr, data);
}

size_t replay_nr_commits(const struct replay *r)
{
	return r->nr_commits - r->first_new;
}

static void forget_commits(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_commits; i++) {
		release_files(&r->commits[i]);
		free(r->commits[i].parents);
		free(r->commits[i].own_paths);
	}
	free(r->commits);
	r->commits = NULL;
	r->nr_commits = 0;
	smap_release(&r->commit_index);
	memset(&r->commit_index, 0, sizeof(r->commit_index));
}

void replay_free(struct replay *r)
{
	forget_commits(r);
	free_strings(r->paths, r->nr_paths);
	smap_release(&r->path_index);
	catfile_stop(&r->cf);
	strbuf_release(&r->content);
	free(r->fresh);
	free(r->records);
	free(r->changes);
	free(r->hunks);
	free(r->groups);
	free(r);
}
