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
 */
#include "replay.h"
#include "smap.h"
#include "../tokenize/lines.h"
#include "../tokenize/quote.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_COMMIT UINT32_MAX

/* One version of a file: its blob and the commit of each of its lines. */
struct version {
	char blob[41];
	uint32_t *origin;
	size_t nr;
	unsigned refs;
};

struct rcommit {
	char id[41];
	uint32_t *parents;
	unsigned nr_parents, children_left;
	struct version **files;  /* by path id; NULL: no file; valid while replayed and needed */
	size_t nr_files;
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

static void version_unref(struct version *v)
{
	if (v && !--v->refs) {
		free(v->origin);
		free(v);
	}
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

/* ---- the order of the commits ------------------------------------------- */

static void read_commits(struct replay *r, const char *dir, const char *tip)
{
	const char *argv[] = { "git", "rev-list", "--reverse", "--topo-order", "--parents", tip, "--", NULL };
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	size_t alloc = 0;

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
			if (strlen(p + 1) < 40 || !(pi = smap_get(&r->commit_index, id)))
				die("unexpected output of git rev-list in '%s': %s", dir, line.buf);
			c->parents = xrealloc(c->parents, (c->nr_parents + 1) * sizeof(*c->parents));
			c->parents[c->nr_parents++] = (uint32_t)*pi;
			r->commits[*pi].children_left++;
		}
		r->nr_commits++;
	}
	if (reader_finish(rd))
		die("git rev-list %s failed in '%s'", tip, dir);
	free(rd);
	strbuf_release(&line);
	if (!r->nr_commits)
		die("no commits to replay at %s in '%s'", tip, dir);
	if (r->nr_commits >= NO_COMMIT)
		die("too many commits to replay in '%s'", dir);
	r->tip = (uint32_t)(r->nr_commits - 1);
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

/* The version of path at commit c (index ci), whose diffs against its parents are r->groups. */
static struct version *replay_file_at(struct replay *r, uint32_t ci, const struct change *ch1)
{
	struct rcommit *c = &r->commits[ci];
	struct version *nv;
	size_t added = 0, removed = 0, i, k;
	unsigned pi;

	/* the first parent whose file is the same blob gives all of it */
	for (pi = 0; pi < c->nr_parents; pi++) {
		const struct rcommit *p = &r->commits[c->parents[pi]];
		const struct group *g = group_of_parent(r, pi);
		const struct change *ch;

		if (!g) {
			/* no diff against this parent: the commit's tree is its tree */
			struct version *v = file_at(p, ch1->dst);

			if (!v || strcmp(v->blob, ch1->new_blob))
				die_replay(c->id, "a merge whose parent has not the file its diff says");
			return v;
		}
		ch = change_to(r, g, ch1->dst);
		if (!ch)
			return file_at(p, ch1->dst);
		if (ch->status != 'A' && ch->status != 'T' && !strcmp(ch->old_blob, ch->new_blob))
			return file_at(p, ch->src);
	}

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

/* git's line count: a last line without LF is one too */
static size_t count_lines(const char *p, size_t n)
{
	return count_newlines(p, n) + (n && p[n - 1] != '\n');
}

void tree_lines(const char *dir, const char *commit, tree_lines_fn *fn, void *data)
{
	const char *ls[] = { "git", "ls-tree", "-r", "-z", "--full-tree", commit, NULL };
	const char *cat[] = { "git", "cat-file", "--batch", "--buffer", NULL };
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf rec = STRBUF_INIT, content = STRBUF_INIT;
	char **paths = NULL;
	size_t nr = 0, alloc = 0, k;
	FILE *ids = tmpfile();

	if (!ids)
		die_errno("cannot make a temporary file");
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
			/* a submodule: its diff is one line, "Subproject commit ID" */
			fn(tab + 1, blob, 1, 0, data);
			continue;
		}
		ALLOC_GROW(paths, nr + 1, alloc);
		paths[nr++] = xstrdup(tab + 1);
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
		fn(paths[k], blob, count_lines(content.buf, content.len),
		   memchr(content.buf, '\0', content.len < 8000 ? content.len : 8000) != NULL, data);
		free(paths[k]);
	}
	if (reader_finish(rd))
		die("git cat-file failed in '%s'", dir);
	fclose(ids);
	free(paths);
	free(rd);
	strbuf_release(&rec);
	strbuf_release(&content);
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
static void replay_root(struct replay *r, uint32_t ci)
{
	struct root_files rf = { r, ci };

	tree_lines(dir_of_replay, r->commits[ci].id, add_root_file, &rf);
}

static void replay_commit_files(struct replay *r, uint32_t ci)
{
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
		made[k] = replay_file_at(r, ci, ch);
		made[k]->refs++;
	}

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

struct replay *replay_history(const char *dir, const char *tip, int ignore_ws)
{
	const char *argv[40];
	struct replay *r = xcalloc(1, sizeof(*r));
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	size_t next = 0, skip = 0, cur = SIZE_MAX;
	const char *commit = NULL;
	int n = 0;

	dir_of_replay = dir;
	read_commits(r, dir, tip);

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
	argv[n++] = "-p";
	argv[n++] = "-U0";
	argv[n++] = "--inter-hunk-context=0";
	argv[n++] = "--raw";
	argv[n++] = "--no-abbrev";
	argv[n++] = "-M";
	argv[n++] = "--irreversible-delete";  /* a deleted file's lines are not needed */
	argv[n++] = "--text";
	argv[n++] = "--no-textconv";
	argv[n++] = "--no-ext-diff";
	argv[n++] = "--no-color";
	argv[n++] = "--no-notes";
	argv[n++] = "--submodule=short";
	argv[n++] = "--src-prefix=a/";
	argv[n++] = "--dst-prefix=b/";
	argv[n++] = "-O/dev/null";
	argv[n++] = "--format=%x01%H";
	if (ignore_ws)
		argv[n++] = "-w";
	argv[n++] = tip;
	argv[n++] = "--";
	argv[n] = NULL;

	reader_start(rd, argv, dir);
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
				replay_commit_files(r, (uint32_t)next);
				next++;
				start_commit(r);
				commit = NULL;
			}
			if (!more)
				break;
			if (!commit) {
				while (next < r->nr_commits && strcmp(r->commits[next].id, id))
					replay_commit_files(r, (uint32_t)next++);
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
		replay_commit_files(r, (uint32_t)next++);
	free(rd);
	strbuf_release(&line);
	return r;
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

size_t replay_nr_commits(const struct replay *r)
{
	return r->nr_commits;
}

void replay_free(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_commits; i++) {
		release_files(&r->commits[i]);
		free(r->commits[i].parents);
	}
	free(r->commits);
	for (i = 0; i < r->nr_paths; i++)
		free(r->paths[i]);
	free(r->paths);
	smap_release(&r->commit_index);
	smap_release(&r->path_index);
	free(r->changes);
	free(r->hunks);
	free(r->groups);
	free(r);
}
