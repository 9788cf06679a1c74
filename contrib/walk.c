/*
 * Token blame of one file, walking back from the tip (see walk.h).
 *
 * The forward pass (replay.c) attributes every file of every commit; a
 * blame of one file needs only the versions its tokens went through.
 * As git blame does, this keeps suspects: a version of a file (the
 * commit that made it and its path there) with the tokens of the blamed
 * file that are known to be in it, at their places.  The newest suspect
 * is taken first; the engine's rule (attribute.h) tells where each of
 * its tokens comes from, and the tokens go on to the parents' versions
 * or to the files code moved from, or stay, the commit's own.
 *
 * The rule is given labels where the forward pass gives commits: the
 * tokens of the parents' versions and of the move sources are numbered
 * one after another, and the label a token of the new version takes is
 * the place it comes from.  Everything the rule reads is the same as in
 * the forward pass (the versions' hashes and lines, the sources of a
 * commit, its parents in order), so the answer is the same.
 *
 * The version of a file at a commit is made by the nearest commit back
 * that changed it: a commit whose file is the same blob as a parent's
 * (the first such parent, through a rename with no change) takes that
 * parent's version, as git blame passes the whole blame on.  The walk
 * reads commits and trees from one `git cat-file --batch`, and asks git
 * diff-tree for renames only where a path is missing in a parent.
 */
#include "walk.h"
#include "walk-ahead.h"
#include "attribute.h"
#include "../tokenize/catfile.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/smap.h"
#include "../tokenize/strbuf.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct wcommit {
	unsigned char oid[20];
	char id[41];
	unsigned char tree[20];
	uint32_t *parents;
	unsigned nr_parents;
	long long date;
	int parsed, ignored;
};

struct tentry {
	const char *name;
	size_t len;
	unsigned mode;
	const unsigned char *oid;
};

struct wtree {
	char *buf;
	struct tentry *e;
	size_t nr;
};

/*
 * Which attribution of a token a target looks for: both while they agree;
 * where a commit moved or copied it there (or, in an ignored commit,
 * gave it another origin without moves), one target follows the moved
 * run back (the attribution) and another the origin a walk without
 * moves would give (the mover, file_blame).
 */
enum target_kind { FOLLOW_BOTH, FOLLOW_MOVES, FOLLOW_UNMOVED };

/* A token of the blamed file known to be at pos in a suspect's version. */
struct target {
	uint32_t pos, token;
	enum target_kind kind;
};

struct suspect {
	uint32_t commit;
	char *path;
	struct target *t;
	size_t nr, alloc;
	int queued;
	struct version *v;      /* its version, once read (hash and line) */
};

/* A whole-file rename from a parent to a commit: src there is dst here. */
struct rename {
	char *src, *dst;
	unsigned char old_oid[20], new_oid[20];
};

struct renames {
	struct rename *v;
	size_t nr;
};

/*
 * The files a commit changed, as its first parent had them, read and
 * labelled once: the suspects of one commit come one after another, and
 * each looks for moves in the same sources.
 */
struct move_cache {
	uint32_t commit;
	struct labelled *moved;   /* in the order of their labels */
	size_t nr;
	struct move_source *src;
};

/* The labels of the move sources: above the parents' (label() keeps those below). */
#define MOVE_LABELS 0x80000000u

struct walk {
	const char *dir;
	const struct replay_options *opts;
	struct catfile cf;
	struct read_ahead *ahead;     /* NULL: every version read when wanted */
	struct strbuf obj, key;

	struct wcommit *commits;
	size_t nr_commits, alloc_commits;
	struct smap commit_index;     /* id -> commits[] */

	struct wtree *trees;
	size_t nr_trees, alloc_trees, tree_bytes;
	struct smap tree_index;       /* hex -> trees[] */

	struct suspect *suspects;
	size_t nr_suspects, alloc_suspects;
	uint32_t *heap;
	size_t nr_heap, alloc_heap;

	struct smap made;             /* "COMMIT\tPATH" -> the suspect that made that version */
	struct path_history **histories;
	size_t nr_histories, alloc_histories;
	struct smap history_index;    /* path -> histories[] */
	struct renames *renames;
	size_t nr_renames, alloc_renames;
	struct smap rename_index;     /* "PARENT CHILD" -> renames[] */

	struct file_blame *out;
	struct smap out_ids, out_paths;
	size_t max_steps;             /* steps back before rev-list is asked (WALK_STEPS) */
	size_t version_bytes;         /* what the versions the suspects hold take */
	struct move_cache moves;
};

/* ---- objects ------------------------------------------------------------- */

/* The object oid into w->obj: 0, or -1 when the repository has none. */
static int read_object(struct walk *w, const unsigned char *oid, const char *want)
{
	char type[16];
	size_t size = 0;

	switch (catfile_get(&w->cf, oid, type, &size)) {
	case CATFILE_FAILED:
		die("git cat-file --batch failed in '%s'", w->dir);
	case CATFILE_MISSING:
		return -1;
	case CATFILE_FOUND:
		break;
	}
	strbuf_reset(&w->obj);
	strbuf_grow(&w->obj, size + 1);
	if (catfile_read(&w->cf, w->obj.buf, size) || catfile_end(&w->cf))
		die("git cat-file --batch failed in '%s'", w->dir);
	strbuf_setlen(&w->obj, size);
	if (want && strcmp(type, want)) {
		char hex[41];

		oid_to_hex(oid, hex);
		die("object %s in '%s' is a %s, not a %s", hex, w->dir, type, want);
	}
	return 0;
}

static uint32_t commit_of(struct walk *w, const char *hex)
{
	int isnew;
	size_t *at = smap_put(&w->commit_index, hex, w->nr_commits, &isnew);
	struct wcommit *c;

	if (!isnew)
		return (uint32_t)*at;
	if (w->nr_commits >= NO_COMMIT)
		die("too many commits to walk in '%s'", w->dir);
	ALLOC_GROW(w->commits, w->nr_commits + 1, w->alloc_commits);
	c = &w->commits[w->nr_commits];
	memset(c, 0, sizeof(*c));
	memcpy(c->id, hex, 40);
	if (hex_to_oid(hex, 40, c->oid))
		die("'%s' is not an object id", hex);
	return (uint32_t)w->nr_commits++;
}

/* Its tree, parents and committer date, read once. */
static struct wcommit *parse_commit(struct walk *w, uint32_t ci)
{
	struct wcommit *c = &w->commits[ci];
	const char *p, *end;
	unsigned char oid[20];

	if (c->parsed)
		return c;
	memcpy(oid, c->oid, 20);
	if (read_object(w, oid, "commit"))
		die("commit %s is missing in '%s'", w->commits[ci].id, w->dir);
	p = w->obj.buf;
	end = p + w->obj.len;
	if (strncmp(p, "tree ", 5) || end - p < 46 || hex_to_oid(p + 5, 40, oid))
		die("commit %s in '%s' has no tree", w->commits[ci].id, w->dir);
	memcpy(w->commits[ci].tree, oid, 20);
	p += 46;
	while (end - p >= 48 && !strncmp(p, "parent ", 7)) {
		char hex[41];
		uint32_t pi;

		memcpy(hex, p + 7, 40);
		hex[40] = '\0';
		pi = commit_of(w, hex);   /* may move w->commits */
		c = &w->commits[ci];
		c->parents = xrealloc(c->parents, st_mult(st_add(c->nr_parents, 1), sizeof(*c->parents)));
		c->parents[c->nr_parents++] = pi;
		p += 48;
	}
	c = &w->commits[ci];
	/* "committer NAME <MAIL> TIME TZ", in the header (up to a blank line) */
	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *gt;

		if (!nl)
			nl = end;
		if (!strncmp(p, "committer ", 10)) {
			for (gt = nl; gt > p && gt[-1] != '>'; gt--)
				;
			if (gt > p)
				c->date = strtoll(gt, NULL, 10);
			break;
		}
		p = nl + (nl < end);
	}
	c->ignored = w->opts->ignore && smap_get(w->opts->ignore, c->id) != NULL;
	c->parsed = 1;
	return c;
}

/* A tree's entries, read once while the cache holds (a tree of a commit often is its parent's). */
static const struct wtree *read_tree(struct walk *w, const unsigned char *oid)
{
	char hex[41];
	size_t *at, k;
	struct wtree *t;
	const char *p, *end;
	int isnew;

	oid_to_hex(oid, hex);
	if ((at = smap_get(&w->tree_index, hex)))
		return &w->trees[*at];
	if (w->tree_bytes > ((size_t)64 << 20)) {
		/* bounded: start the cache afresh */
		for (k = 0; k < w->nr_trees; k++) {
			free(w->trees[k].buf);
			free(w->trees[k].e);
		}
		w->nr_trees = 0;
		w->tree_bytes = 0;
		smap_release(&w->tree_index);
		memset(&w->tree_index, 0, sizeof(w->tree_index));
	}
	if (read_object(w, oid, "tree"))
		die("tree %s is missing in '%s'", hex, w->dir);
	ALLOC_GROW(w->trees, w->nr_trees + 1, w->alloc_trees);
	t = &w->trees[w->nr_trees];
	memset(t, 0, sizeof(*t));
	t->buf = xmalloc(w->obj.len + 1);
	memcpy(t->buf, w->obj.buf, w->obj.len);
	w->tree_bytes += w->obj.len + 64;
	/* "MODE NAME\0OID" */
	for (p = t->buf, end = t->buf + w->obj.len; p < end;) {
		const char *sp = memchr(p, ' ', (size_t)(end - p)), *nul;
		unsigned mode = 0;
		struct tentry *e;
		size_t alloc = t->nr;

		nul = sp ? memchr(sp, '\0', (size_t)(end - sp)) : NULL;
		if (!sp || !nul || end - nul < 21)
			die("tree %s in '%s' is damaged", hex, w->dir);
		for (; p < sp; p++) {
			if (*p < '0' || *p > '7')
				die("tree %s in '%s' is damaged", hex, w->dir);
			mode = mode * 8 + (unsigned)(*p - '0');
		}
		ALLOC_GROW(t->e, t->nr + 1, alloc);
		e = &t->e[t->nr++];
		e->name = sp + 1;
		e->len = (size_t)(nul - sp - 1);
		e->mode = mode;
		e->oid = (const unsigned char *)nul + 1;
		p = nul + 21;
	}
	w->tree_bytes += t->nr * sizeof(*t->e);
	smap_put(&w->tree_index, hex, w->nr_trees, &isnew);
	return &w->trees[w->nr_trees++];
}

static const struct tentry *tree_entry(const struct wtree *t, const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < t->nr; k++)
		if (t->e[k].len == len && !memcmp(t->e[k].name, name, len))
			return &t->e[k];
	return NULL;
}

/* path's entry in commit ci's tree: 1 with *mode and oid, or 0 when there is none. */
static int lookup(struct walk *w, uint32_t ci, const char *path, unsigned *mode, unsigned char *oid)
{
	unsigned char tree[20];
	const char *p = path;

	memcpy(tree, parse_commit(w, ci)->tree, 20);
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		const struct tentry *e = tree_entry(read_tree(w, tree), p, len);

		if (!e)
			return 0;
		if (!slash) {
			if (S_ISDIR(e->mode))
				return 0;
			*mode = e->mode;
			memcpy(oid, e->oid, 20);
			return 1;
		}
		if (!S_ISDIR(e->mode))
			return 0;
		memcpy(tree, e->oid, 20);
		p = slash + 1;
	}
}

/* Git diff's type change: a file, a symbolic link and a submodule are of different types. */
static int same_type(unsigned a, unsigned b)
{
	return (a & S_IFMT) == (b & S_IFMT);
}

/* ---- two trees side by side ------------------------------------------------ */

/* Git's order of tree entries: a tree's name compares as if it ended in '/'. */
static int entry_cmp(const struct tentry *a, const struct tentry *b)
{
	size_t len = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, len);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = a->len > len ? (unsigned char)a->name[len] : S_ISDIR(a->mode) ? '/' : 0;
	cb = b->len > len ? (unsigned char)b->name[len] : S_ISDIR(b->mode) ? '/' : 0;
	return (int)ca - (int)cb;
}

/* A copy of t's entries that reading another tree (which may start the cache afresh) leaves valid. */
static void copy_tree(const struct wtree *t, struct wtree *out)
{
	size_t k, total = 0;

	out->nr = t->nr;
	out->e = xmalloc(st_mult(st_add(t->nr, 1), sizeof(*out->e)));
	for (k = 0; k < t->nr; k++)
		total += t->e[k].len + 20;
	out->buf = xmalloc(total + 1);
	for (k = 0, total = 0; k < t->nr; k++) {
		out->e[k] = t->e[k];
		memcpy(out->buf + total, t->e[k].name, t->e[k].len);
		out->e[k].name = out->buf + total;
		total += t->e[k].len;
		memcpy(out->buf + total, t->e[k].oid, 20);
		out->e[k].oid = (unsigned char *)out->buf + total;
		total += 20;
	}
}

/*
 * fn(a's entry, b's of the same name and kind or NULL) for each entry of
 * tree a (b_oid NULL: an empty tree), in git's order, until fn returns
 * nonzero, which it returns.
 */
typedef int tree_pair_fn(struct walk *w, const struct tentry *a, const struct tentry *b, void *data);

static int pair_trees(struct walk *w, const unsigned char *a_oid, const unsigned char *b_oid,
		      tree_pair_fn *fn, void *data)
{
	struct wtree a, b = { NULL, NULL, 0 };
	size_t i = 0, j = 0;
	int ret = 0;

	copy_tree(read_tree(w, a_oid), &a);
	if (b_oid)
		copy_tree(read_tree(w, b_oid), &b);
	while (i < a.nr && !ret) {
		int c = j < b.nr ? entry_cmp(&a.e[i], &b.e[j]) : -1;

		if (c > 0) {
			j++;                /* only in b */
			continue;
		}
		ret = fn(w, &a.e[i], c ? NULL : &b.e[j], data);
		i++;
		j += !c;
	}
	free(a.e);
	free(a.buf);
	free(b.e);
	free(b.buf);
	return ret;
}

/* Whether a file of tree a is not in tree b (pair_trees). */
static int deleted_entry(struct walk *w, const struct tentry *a, const struct tentry *b, void *data)
{
	if (!b)
		return 1;           /* a file, or a tree of files (git keeps no empty tree) */
	if (S_ISDIR(a->mode) && memcmp(a->oid, b->oid, 20))
		return pair_trees(w, a->oid, b->oid, deleted_entry, data);
	return 0;
}

static int deletes_a_file(struct walk *w, const unsigned char *a_oid, const unsigned char *b_oid)
{
	return pair_trees(w, a_oid, b_oid, deleted_entry, NULL);
}

/* The move sources being listed: the files of the first parent's tree the commit changed. */
struct source_list {
	struct strbuf prefix;
	struct move_source *src;
	unsigned char (*oids)[20];
	size_t nr, alloc;
};

static int changed_entry(struct walk *w, const struct tentry *a, const struct tentry *b, void *data)
{
	struct source_list *l = data;
	size_t len = l->prefix.len, old = l->alloc;

	if (b && !memcmp(a->oid, b->oid, 20) && a->mode == b->mode)
		return 0;
	if (S_ISDIR(a->mode)) {
		strbuf_add(&l->prefix, a->name, a->len);
		strbuf_addch(&l->prefix, '/');
		pair_trees(w, a->oid, b && S_ISDIR(b->mode) ? b->oid : NULL, changed_entry, l);
		strbuf_setlen(&l->prefix, len);
		return 0;
	}
	ALLOC_GROW(l->src, l->nr + 1, l->alloc);
	if (l->alloc != old)
		l->oids = xrealloc(l->oids, st_mult(l->alloc, sizeof(*l->oids)));
	l->src[l->nr].path = xstrfmt("%s%.*s", l->prefix.buf, (int)a->len, a->name);
	l->src[l->nr].v = NULL;
	memcpy(l->oids[l->nr], a->oid, 20);
	l->nr++;
	return 0;
}

/* ---- renames --------------------------------------------------------------- */

/* The whole-file renames from parent pi to ci, as git log -m -M finds them. */
static const struct renames *renames_of(struct walk *w, uint32_t pi, uint32_t ci)
{
	const char *argv[] = { "git", "-c", "diff.relative=false", "diff-tree", "-r", "-M", "-z", "--raw",
			       "--no-abbrev", "--diff-filter=R", w->commits[pi].id, w->commits[ci].id, NULL };
	struct reader *rd;
	struct strbuf rec = STRBUF_INIT, src = STRBUF_INIT;
	struct renames *rn;
	size_t *at, alloc = 0;
	int isnew;

	strbuf_reset(&w->key);
	strbuf_addf(&w->key, "%s %s", w->commits[pi].id, w->commits[ci].id);
	if ((at = smap_get(&w->rename_index, w->key.buf)))
		return &w->renames[*at];
	smap_put(&w->rename_index, w->key.buf, w->nr_renames, &isnew);
	ALLOC_GROW(w->renames, w->nr_renames + 1, w->alloc_renames);
	rn = &w->renames[w->nr_renames++];
	memset(rn, 0, sizeof(*rn));
	{
		/* a rename's source is a file the commit deleted: none, no diff to ask for */
		unsigned char ptree[20], tree[20];

		memcpy(ptree, parse_commit(w, pi)->tree, 20);
		memcpy(tree, parse_commit(w, ci)->tree, 20);
		if (!deletes_a_file(w, ptree, tree))
			return &w->renames[w->nr_renames - 1];
		rn = &w->renames[w->nr_renames - 1];
	}
	rd = xmalloc(sizeof(*rd));
	reader_start(rd, argv, w->dir);
	/* ":MODE MODE OLD NEW R086", NUL, SRC, NUL, DST, NUL */
	while (reader_next(rd, &rec, '\0')) {
		struct rename *r;

		if (rec.buf[0] != ':')
			continue;
		if (rec.len < 98 || rec.buf[55] != ' ' || rec.buf[96] != ' ' ||
		    !reader_next(rd, &src, '\0') || !reader_next(rd, &rec, '\0'))
			die("unexpected output of git diff-tree in '%s'", w->dir);
		ALLOC_GROW(rn->v, rn->nr + 1, alloc);
		r = &rn->v[rn->nr++];
		r->src = xstrdup(src.buf);
		r->dst = xstrdup(rec.buf);
	}
	if (reader_finish(rd))
		die("git diff-tree %s %s failed in '%s'", w->commits[pi].id, w->commits[ci].id, w->dir);
	free(rd);
	strbuf_release(&rec);
	strbuf_release(&src);
	return rn;
}

static const char *renamed_from(struct walk *w, uint32_t pi, uint32_t ci, const char *path)
{
	const struct renames *rn = renames_of(w, pi, ci);
	size_t k;

	for (k = 0; k < rn->nr; k++)
		if (!strcmp(rn->v[k].dst, path))
			return rn->v[k].src;
	return NULL;
}

/*
 * The file of parent pi that ci's path comes from: the same path, unless
 * its type changed; else the path a rename brought it from.  NULL: none
 * (the commit added it).
 */
static const char *parent_path(struct walk *w, uint32_t pi, uint32_t ci, const char *path, unsigned mode,
			       unsigned char *oid)
{
	unsigned pmode;
	const char *src;

	if (lookup(w, pi, path, &pmode, oid))
		return same_type(pmode, mode) ? path : NULL;
	/* a rename, as git diff -M pairs the files, whatever their types */
	src = renamed_from(w, pi, ci, path);
	if (src && !lookup(w, pi, src, &pmode, oid))
		return NULL;
	return src;
}

/* ---- the version of a file at a commit ------------------------------------ */

/*
 * A path's history as git rev-list gives it: the commits whose file is
 * not the same as any parent's, each with its parents rewritten to the
 * nearest such commits.  It lets the walk jump over the commits that
 * did not touch the file instead of looking at each.
 */
struct path_history {
	struct smap index;      /* commit id -> rows[] */
	struct history_row {
		uint32_t commit;
		uint32_t *parents;
		unsigned nr_parents;
	} *rows;
	size_t nr, alloc;
	struct smap ran;        /* the commits rev-list was run from */
};

static struct path_history *history_of(struct walk *w, const char *path)
{
	int isnew;
	size_t *at = smap_put(&w->history_index, path, w->nr_histories, &isnew);

	if (isnew) {
		ALLOC_GROW(w->histories, w->nr_histories + 1, w->alloc_histories);
		w->histories[w->nr_histories] = xcalloc(1, sizeof(struct path_history));
		w->nr_histories++;
	}
	return w->histories[*at];
}

static const struct history_row *history_row(struct path_history *h, uint32_t ci, const struct walk *w)
{
	size_t *at = smap_get(&h->index, w->commits[ci].id);

	return at ? &h->rows[*at] : NULL;
}

/*
 * Runs git rev-list from ci for path and keeps what it tells in h; the
 * first commit it lists (the one that made the version at ci, as far as
 * rev-list's rule goes), or NO_COMMIT.
 */
static uint32_t read_history(struct walk *w, struct path_history *h, uint32_t ci, const char *path)
{
	const char *argv[] = { "git", "--literal-pathspecs", "rev-list", "--parents", "--topo-order",
			       w->commits[ci].id, "--", path, NULL };
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	uint32_t first = NO_COMMIT;
	int isnew;

	smap_put(&h->ran, w->commits[ci].id, 1, &isnew);
	reader_start(rd, argv, w->dir);
	while (reader_next(rd, &line, '\n')) {
		struct history_row *row;
		const char *p;
		char id[41];
		size_t alloc = 0;

		if (line.len < 40 || (line.len - 40) % 41)
			die("unexpected output of git rev-list in '%s': %s", w->dir, line.buf);
		memcpy(id, line.buf, 40);
		id[40] = '\0';
		if (first == NO_COMMIT)
			first = commit_of(w, id);
		smap_put(&h->index, id, h->nr, &isnew);
		if (!isnew)
			continue;
		ALLOC_GROW(h->rows, h->nr + 1, h->alloc);
		row = &h->rows[h->nr++];
		memset(row, 0, sizeof(*row));
		row->commit = commit_of(w, id);
		if (w->ahead)
			read_ahead_want(w->ahead, id, path);
		for (p = line.buf + 40; *p == ' '; p += 41) {
			memcpy(id, p + 1, 40);
			ALLOC_GROW(row->parents, row->nr_parents + 1, alloc);
			row->parents[row->nr_parents++] = commit_of(w, id);
		}
	}
	if (reader_finish(rd))
		die("git rev-list %s -- %s failed in '%s'", w->commits[ci].id, path, w->dir);
	free(rd);
	strbuf_release(&line);
	return first;
}

/*
 * Steps through commits that left the file alone before rev-list is
 * asked.  A step costs a cat-file round trip for the commit and one for
 * each tree on the path that changed; a rev-list walks the commits, and
 * with the changed-path filters of the commit-graph convert writes it
 * opens a tree only where the filter says the path may have changed.
 * A few steps spare the rev-list of files whose history is short (the
 * files code moved from); on libgit2, 2048 steps read 5,784 commits and
 * 12,549 trees for src/libgit2/diff.c, 16 steps 789 and 2,269.
 */
#define WALK_STEPS 16

/*
 * The parent whose file at ci is the same as ci's file at *path: git
 * blame's two passes, the first parent with the same blob at the same
 * path (of the same type), else the first whose file a rename with no
 * change brought there (*path is then its path).  NO_COMMIT: none.
 */
static uint32_t same_parent(struct walk *w, uint32_t ci, struct strbuf *path)
{
	unsigned mode, pmode, nr_parents, pi;
	unsigned char oid[20], poid[20];
	int absent = 0;

	if (!lookup(w, ci, path->buf, &mode, oid))
		die("'%s' is no file at %s in '%s'", path->buf, w->commits[ci].id, w->dir);
	nr_parents = parse_commit(w, ci)->nr_parents;
	for (pi = 0; pi < nr_parents; pi++) {
		uint32_t p = w->commits[ci].parents[pi];

		if (!lookup(w, p, path->buf, &pmode, poid))
			absent = 1;
		else if (!memcmp(oid, poid, 20) && same_type(pmode, mode))
			return p;
	}
	for (pi = 0; absent && pi < nr_parents; pi++) {
		uint32_t p = w->commits[ci].parents[pi];
		const char *src;

		if (lookup(w, p, path->buf, &pmode, poid))
			continue;
		src = renamed_from(w, p, ci, path->buf);
		if (src && lookup(w, p, src, &pmode, poid) && !memcmp(oid, poid, 20)) {
			char *s = xstrdup(src);

			strbuf_reset(path);
			strbuf_addstr(path, s);
			free(s);
			return p;
		}
	}
	return NO_COMMIT;
}

/* Remembers that path at ci is the version suspect si stands for. */
static void remember_made(struct walk *w, uint32_t ci, const char *path, uint32_t si)
{
	int isnew;

	strbuf_reset(&w->key);
	strbuf_addf(&w->key, "%s\t%s", w->commits[ci].id, path);
	smap_put(&w->made, w->key.buf, si, &isnew);
}

/*
 * The commit, and the path there, that made the version of path at ci:
 * back through the same parents (same_parent), as the forward pass
 * passes a file on, and over the commits that did not touch it as git
 * rev-list tells them.  The suspect that stands for it, the same for
 * every commit on the way.
 */
static uint32_t made_by(struct walk *w, uint32_t ci, const char *path, const char **made_path)
{
	struct strbuf cur = STRBUF_INIT;
	uint32_t *visited = NULL, result;
	char **visited_path = NULL;
	size_t nr_visited = 0, alloc_visited = 0, alloc_paths = 0, k, *at, steps = 0;

	strbuf_addstr(&cur, path);
	for (;;) {
		struct path_history *h;
		uint32_t p;

		strbuf_reset(&w->key);
		strbuf_addf(&w->key, "%s\t%s", w->commits[ci].id, cur.buf);
		if ((at = smap_get(&w->made, w->key.buf))) {
			result = (uint32_t)*at;
			break;
		}
		ALLOC_GROW(visited, nr_visited + 1, alloc_visited);
		ALLOC_GROW(visited_path, nr_visited + 1, alloc_paths);
		visited[nr_visited] = ci;
		visited_path[nr_visited++] = xstrdup(cur.buf);

		h = history_of(w, cur.buf);
		if (++steps > w->max_steps && !history_row(h, ci, w) && !smap_get(&h->ran, w->commits[ci].id)) {
			uint32_t first = read_history(w, h, ci, cur.buf);

			if (!history_row(h, ci, w) && first != NO_COMMIT) {
				/* ci left the file as the first commit listed made it */
				ci = first;
				steps = 0;
				continue;
			}
		}
		p = same_parent(w, ci, &cur);
		if (p != NO_COMMIT) {
			ci = p;
			continue;
		}
		/* ci made it: a new suspect, with no tokens yet */
		{
			struct suspect *s;

			ALLOC_GROW(w->suspects, w->nr_suspects + 1, w->alloc_suspects);
			s = &w->suspects[w->nr_suspects];
			memset(s, 0, sizeof(*s));
			s->commit = ci;
			s->path = xstrdup(cur.buf);
			result = (uint32_t)w->nr_suspects++;
		}
		break;
	}
	for (k = 0; k < nr_visited; k++) {
		remember_made(w, visited[k], visited_path[k], result);
		free(visited_path[k]);
	}
	free(visited);
	free(visited_path);
	strbuf_release(&cur);
	if (made_path)
		*made_path = w->suspects[result].path;
	return result;
}

/*
 * The suspect of the version of path at p, a parent of ci (that has path
 * at ci too, with blob oid at p): where ci is in path's history, the
 * parent rev-list rewrote p to, when only one has p's blob, is where the
 * walk goes on from; else it steps from p.
 */
static uint32_t parent_made_by(struct walk *w, uint32_t ci, uint32_t p, const char *path,
			       const unsigned char *oid)
{
	struct path_history *h = history_of(w, path);
	const struct history_row *row = history_row(h, ci, w);
	uint32_t found = NO_COMMIT, si;
	unsigned k, mode;
	unsigned char roid[20];

	if (!row)
		return made_by(w, p, path, NULL);
	for (k = 0; k < row->nr_parents; k++) {
		uint32_t r = row->parents[k];

		row = history_row(h, ci, w);  /* lookup() may grow the rows' commits, not the rows */
		if (!lookup(w, r, path, &mode, roid) || memcmp(roid, oid, 20))
			continue;
		if (found != NO_COMMIT && found != r)
			return made_by(w, p, path, NULL);  /* two with that blob: rev-list's order does not tell */
		found = r;
	}
	if (found == NO_COMMIT)
		return made_by(w, p, path, NULL);
	si = made_by(w, found, path, NULL);
	remember_made(w, p, path, si);
	return si;
}

/* The tokens of blob hashed, as the forward pass reads a view. */
static uint64_t *read_hashes(struct walk *w, const unsigned char *oid, size_t *nr)
{
	if (read_object(w, oid, NULL)) {
		/* a submodule's commit: one token, as its diff is one line */
		char hex[41];
		uint64_t *hash = xmalloc(sizeof(*hash));

		oid_to_hex(oid, hex);
		hash[0] = token_hash(hex, 40, 0);
		*nr = 1;
		return hash;
	}
	return hash_lines(w->obj.buf, w->obj.len, w->opts->ignore_ws, nr);
}

/* The version suspect si stands for: its hashes and lines (origins unset). */
static struct version *suspect_version(struct walk *w, uint32_t si)
{
	struct suspect *s = &w->suspects[si];
	unsigned mode;
	unsigned char oid[20];
	char hex[41];
	uint64_t *hash;
	uint32_t *line;
	size_t nr;

	if (s->v)
		return s->v;
	if (!lookup(w, s->commit, s->path, &mode, oid))
		die("'%s' is no file at %s in '%s'", s->path, w->commits[s->commit].id, w->dir);
	oid_to_hex(oid, hex);
	/* read ahead, with its lines when the thread could know them, or read now */
	if (!w->ahead || !read_ahead_take(w->ahead, w->commits[s->commit].id, s->path, oid, &hash, &line, &nr)) {
		hash = read_hashes(w, oid, &nr);
		line = NULL;
	}
	s = &w->suspects[si];
	s->v = new_version(hex, hash, nr, NO_COMMIT);
	s->v->refs = 1;  /* the suspect's: drop_version() frees it */
	s->v->line = line;
	w->version_bytes += nr * (sizeof(*hash) + sizeof(*s->v->line));
	if (!line && w->opts->token_lines && nr) {
		s->v->line = xmalloc(st_mult(nr, sizeof(*s->v->line)));
		if (w->opts->token_lines(w->commits[s->commit].id, s->path, nr, s->v->line, w->opts->data)) {
			free(s->v->line);
			s->v->line = NULL;
		}
	}
	return s->v;
}

/* Frees the version suspect si holds (read again if it is needed again). */
static void drop_version(struct walk *w, uint32_t si)
{
	struct suspect *s = &w->suspects[si];

	if (!s->v)
		return;
	w->version_bytes -= s->v->nr * (sizeof(*s->v->hash) + sizeof(*s->v->line));
	version_unref(s->v);
	s->v = NULL;
}

/*
 * The versions of suspects waiting their turn are kept while they take
 * less than this: on a history of many branches, thousands wait at once.
 */
#define WALK_VERSION_BYTES ((size_t)96 << 20)

/* ---- the suspects, newest first ------------------------------------------- */

static int heap_before(struct walk *w, uint32_t a, uint32_t b)
{
	const struct wcommit *ca = &w->commits[w->suspects[a].commit], *cb = &w->commits[w->suspects[b].commit];

	if (ca->date != cb->date)
		return ca->date > cb->date;
	return a < b;
}

static void heap_push(struct walk *w, uint32_t si)
{
	size_t i;

	parse_commit(w, w->suspects[si].commit);
	ALLOC_GROW(w->heap, w->nr_heap + 1, w->alloc_heap);
	i = w->nr_heap++;
	while (i && heap_before(w, si, w->heap[(i - 1) / 2])) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = si;
}

static uint32_t heap_pop(struct walk *w)
{
	uint32_t top = w->heap[0], last = w->heap[--w->nr_heap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= w->nr_heap)
			break;
		if (c + 1 < w->nr_heap && heap_before(w, w->heap[c + 1], w->heap[c]))
			c++;
		if (!heap_before(w, w->heap[c], last))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->nr_heap)
		w->heap[i] = last;
	return top;
}

static void add_target(struct walk *w, uint32_t si, uint32_t pos, uint32_t token, enum target_kind kind)
{
	struct suspect *s = &w->suspects[si];

	ALLOC_GROW(s->t, s->nr + 1, s->alloc);
	s->t[s->nr].pos = pos;
	s->t[s->nr].kind = kind;
	s->t[s->nr++].token = token;
	if (!s->queued) {
		s->queued = 1;
		heap_push(w, si);
	}
}

static uint32_t intern(struct smap *m, const char *key, size_t nr)
{
	int isnew;

	return (uint32_t)*smap_put(m, key, nr, &isnew);
}

/* Suspect si's commit and path, as the answer numbers them (*id, *path). */
static void out_names(struct walk *w, uint32_t si, uint32_t *id, uint32_t *path)
{
	struct file_blame *fb = w->out;
	const struct suspect *s = &w->suspects[si];

	*id = intern(&w->out_ids, w->commits[s->commit].id, fb->nr_ids);
	*path = intern(&w->out_paths, s->path, fb->nr_paths);
	if (*id == fb->nr_ids) {
		ALLOC_GROW(fb->ids, fb->nr_ids + 1, fb->alloc_ids);
		memcpy(fb->ids[fb->nr_ids++], w->commits[s->commit].id, 41);
	}
	if (*path == fb->nr_paths) {
		ALLOC_GROW(fb->paths, fb->nr_paths + 1, fb->alloc_paths);
		fb->paths[fb->nr_paths++] = xstrdup(s->path);
	}
}

/*
 * The tokens of targets are the commit's own, at the suspect's path: as
 * their attribution, or as their mover, for the targets that follow the
 * origins without moves only.
 */
static void own(struct walk *w, uint32_t si, const struct target *t, size_t nr)
{
	struct file_blame *fb = w->out;
	uint32_t id, path;
	size_t k;

	out_names(w, si, &id, &path);
	for (k = 0; k < nr; k++) {
		if (t[k].kind == FOLLOW_UNMOVED) {
			fb->mover[t[k].token] = id;
			fb->mover_path[t[k].token] = path;
			continue;
		}
		fb->commit[t[k].token] = id;
		fb->path[t[k].token] = path;
	}
}

/* ---- one commit: the rule, with labels ------------------------------------- */

/* A version the rule reads, its origins labels: base + the token's place. */
struct labelled {
	struct version v;
	uint32_t base;
	uint32_t suspect;       /* a parent's version: the suspect that made it */
	char *path;             /* a move source: its path at the first parent */
};

static void label(struct labelled *l, const struct version *v, uint32_t *next)
{
	size_t k;

	l->v = *v;
	l->v.origin = xmalloc(st_mult(st_add(v->nr, 1), sizeof(*l->v.origin)));
	l->base = *next;
	if (*next < MOVE_LABELS && (uint64_t)*next + v->nr >= MOVE_LABELS)
		die("too many tokens in the parents of one commit to walk");
	for (k = 0; k < v->nr; k++)
		l->v.origin[k] = *next + (uint32_t)k;
	*next += (uint32_t)v->nr;
}

static int cmp_target_pos(const void *a, const void *b)
{
	const struct target *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void move_cache_release(struct move_cache *mc)
{
	size_t k;

	for (k = 0; k < mc->nr; k++) {
		free(mc->moved[k].v.origin);
		free(mc->moved[k].v.hash);
		free(mc->moved[k].path);
	}
	free(mc->moved);
	free(mc->src);
	memset(mc, 0, sizeof(*mc));
	mc->commit = NO_COMMIT;
}

static struct move_cache *move_sources(struct walk *w, uint32_t ci)
{
	struct move_cache *mc = &w->moves;
	struct source_list l = { STRBUF_INIT, NULL, NULL, 0, 0 };
	unsigned char (*oids)[20], ptree[20], tree[20];
	size_t k;
	uint32_t next = MOVE_LABELS;

	if (mc->moved && mc->commit == ci)
		return mc;
	move_cache_release(mc);
	mc->commit = ci;
	memcpy(ptree, parse_commit(w, w->commits[ci].parents[0])->tree, 20);
	memcpy(tree, parse_commit(w, ci)->tree, 20);
	pair_trees(w, ptree, tree, changed_entry, &l);
	mc->src = l.src;
	mc->nr = l.nr;
	oids = l.oids;
	mc->moved = xcalloc(mc->nr + 1, sizeof(*mc->moved));
	/* cat-file finds the next blobs while this one is hashed */
	for (k = 0; k < mc->nr && k < CATFILE_AHEAD; k++)
		catfile_ask_ahead(&w->cf, oids[k]);
	for (k = 0; k < mc->nr; k++) {
		struct version v = { .nr = 0 };

		if (k + CATFILE_AHEAD < mc->nr)
			catfile_ask_ahead(&w->cf, oids[k + CATFILE_AHEAD]);
		v.hash = read_hashes(w, oids[k], &v.nr);
		if ((uint64_t)next + v.nr >= NO_COMMIT)
			die("too many tokens in the files of one commit to walk in '%s'", w->dir);
		label(&mc->moved[k], &v, &next);
		mc->moved[k].path = (char *)mc->src[k].path;
		mc->src[k].v = &mc->moved[k].v;
	}
	free(oids);
	strbuf_release(&l.prefix);
	return mc;
}

/*
 * Whether a token of the blamed file is still the commit's own once the
 * parents have taken theirs.  The search for moved code gives origins to
 * such tokens only: where there is none, it would change nothing the
 * blame shows, and the files the commit changed are not read (on
 * libgit2's src/libgit2/diff.c, 34 commits' files are read, not 193's).
 */
/*
 * Whether the search for moves can give a target (t, in order) an origin:
 * only where it is unclaimed, in a chain that holds a run long enough.
 */
static int targets_may_move(const struct version *v, const struct target *t, size_t nr_t, size_t min_move)
{
	size_t i = 0, k = 0;

	while (i < v->nr && k < nr_t) {
		size_t end;
		int is_long;

		if (v->origin[i] != NO_COMMIT) {
			i++;
			continue;
		}
		end = unclaimed_chain(v, i, min_move, &is_long);
		for (; k < nr_t && t[k].pos < end; k++)
			if (is_long && t[k].pos >= i && v->origin[t[k].pos] == NO_COMMIT)
				return 1;
		i = end;
	}
	return 0;
}

/* Suspect si's tokens in targets: where each comes from, by the engine's rule. */
static void blame_suspect(struct walk *w, uint32_t si, struct target *t, size_t nr_t)
{
	uint32_t ci = w->suspects[si].commit, next = 0;
	const struct wcommit *c = parse_commit(w, ci);
	unsigned nr_parents = c->nr_parents, pi, mode;
	struct labelled *parent = xcalloc(nr_parents + 1, sizeof(*parent));
	const struct move_cache *moves = NULL;
	unsigned char oid[20];
	size_t k;
	struct tokdiff d0 = { NULL, 0, 0 };
	struct version *made = suspect_version(w, si), *nv;
	char *path = xstrdup(w->suspects[si].path);
	uint32_t *unmoved = NULL;  /* nv's origins without moves, where the search for them ran */

	for (k = 0; k < nr_t; k++)
		if (t[k].pos >= made->nr)
			BUG("a token past the end of a version");
	if (!nr_parents) {
		own(w, si, t, nr_t);
		free(parent);
		free(path);
		return;
	}
	if (!lookup(w, ci, path, &mode, oid))
		BUG("a suspect whose file is gone");
	nv = new_version(made->blob, made->hash, made->nr, NO_COMMIT);
	nv->line = made->line;

	/* the parents' versions, in order: the tokens each diff keeps are theirs */
	for (pi = 0; pi < nr_parents; pi++) {
		uint32_t p = w->commits[ci].parents[pi];
		const char *from = parent_path(w, p, ci, path, mode, oid), *made_path;
		struct tokdiff d = { NULL, 0, 0 };
		uint32_t ps;

		parent[pi].suspect = NO_COMMIT;
		if (!from)
			continue;
		ps = from == path ? parent_made_by(w, ci, p, path, oid) : made_by(w, p, from, &made_path);
		parent[pi].suspect = ps;
		label(&parent[pi], suspect_version(w, ps), &next);
		take_unchanged(nv, &parent[pi].v, &d);
		if (pi == 0)
			d0 = d;
		else
			tokdiff_release(&d);
	}

	/* each token on to where it comes from, or the commit's own (most often they came in order) */
	for (k = 1; k < nr_t && t[k - 1].pos <= t[k].pos; k++)
		;
	if (k < nr_t)
		qsort(t, nr_t, sizeof(*t), cmp_target_pos);

	/* moved and copied runs, from the files the commit changed */
	if (w->opts->min_move && nr_parents == 1 && targets_may_move(nv, t, nr_t, w->opts->min_move)) {
		struct move_cache *mc = move_sources(w, ci);
		struct move_index *mi = move_index_new(mc->src, mc->nr, w->opts->min_move, &nv, 1);

		/* the origins before the search: what a walk without moves follows (the movers) */
		unmoved = xmalloc(st_mult(st_add(nv->nr, 1), sizeof(*unmoved)));
		memcpy(unmoved, nv->origin, nv->nr * sizeof(*unmoved));
		move_index_find(mi, &nv, 1);
		move_index_free(mi);
		moves = mc;
	}

	if (w->commits[ci].ignored && parent[0].suspect != NO_COMMIT) {
		pass_over_ignored(nv, &parent[0].v, &d0);
		if (unmoved) {
			struct version without = *nv;

			without.origin = unmoved;
			pass_over_ignored(&without, &parent[0].v, &d0);
		}
	}
	tokdiff_release(&d0);

	{
		struct target *mine = xcalloc(2 * nr_t + 1, sizeof(*mine));
		size_t nr_mine = 0;

		for (k = 0; k < nr_t; k++) {
			uint32_t with = nv->origin[t[k].pos], without = unmoved ? unmoved[t[k].pos] : with;
			struct target route[2];
			size_t nr_route = 0, j;

			/* where the two attributions part, a target for each */
			if (t[k].kind == FOLLOW_BOTH && with != without) {
				route[nr_route] = t[k];
				route[nr_route++].kind = FOLLOW_MOVES;
				route[nr_route] = t[k];
				route[nr_route++].kind = FOLLOW_UNMOVED;
			} else {
				route[nr_route++] = t[k];
			}
			for (j = 0; j < nr_route; j++) {
				uint32_t o = route[j].kind == FOLLOW_UNMOVED ? without : with;

				if (o == NO_COMMIT) {
					mine[nr_mine++] = route[j];
					continue;
				}
				for (pi = 0; pi < nr_parents; pi++)
					if (parent[pi].suspect != NO_COMMIT && o >= parent[pi].base &&
					    o < parent[pi].base + parent[pi].v.nr)
						break;
				if (pi < nr_parents) {
					add_target(w, parent[pi].suspect, o - parent[pi].base, route[j].token,
						   route[j].kind);
					continue;
				}
				{
					/* a moved source: moved[] is in the order of its labels */
					const struct labelled *moved = moves ? moves->moved : NULL;
					size_t lo = 0, hi = moves ? moves->nr : 0;

					while (hi - lo > 1) {
						size_t mid = (lo + hi) / 2;

						if (moved[mid].base <= o)
							lo = mid;
						else
							hi = mid;
					}
					if (!moved || o < moved[lo].base || o >= moved[lo].base + moved[lo].v.nr ||
					    route[j].kind == FOLLOW_UNMOVED)
						BUG("a label that names no version");
					add_target(w, made_by(w, w->commits[ci].parents[0], moved[lo].path, NULL),
						   o - moved[lo].base, route[j].token, route[j].kind);
				}
			}
		}
		own(w, si, mine, nr_mine);
		free(mine);
	}
	free(unmoved);

	for (pi = 0; pi < nr_parents; pi++) {
		struct suspect *ps = parent[pi].suspect != NO_COMMIT ? &w->suspects[parent[pi].suspect] : NULL;

		free(parent[pi].v.origin);
		/* read for the diff alone (no token went there), or too much held */
		if (ps && ps->v && (!ps->queued || w->version_bytes > WALK_VERSION_BYTES))
			drop_version(w, parent[pi].suspect);
	}
	free(parent);
	free(nv->origin);
	free(nv);
	free(path);
}

/* ---- the walk ------------------------------------------------------------- */

static void walk_release(struct walk *w)
{
	size_t i, k;

	read_ahead_stop(w->ahead);
	move_cache_release(&w->moves);
	catfile_stop(&w->cf);
	for (i = 0; i < w->nr_commits; i++)
		free(w->commits[i].parents);
	free(w->commits);
	smap_release(&w->commit_index);
	for (i = 0; i < w->nr_trees; i++) {
		free(w->trees[i].buf);
		free(w->trees[i].e);
	}
	free(w->trees);
	smap_release(&w->tree_index);
	for (i = 0; i < w->nr_suspects; i++) {
		free(w->suspects[i].path);
		free(w->suspects[i].t);
		version_unref(w->suspects[i].v);
	}
	free(w->suspects);
	free(w->heap);
	smap_release(&w->made);
	for (i = 0; i < w->nr_renames; i++) {
		for (k = 0; k < w->renames[i].nr; k++) {
			free(w->renames[i].v[k].src);
			free(w->renames[i].v[k].dst);
		}
		free(w->renames[i].v);
	}
	free(w->renames);
	smap_release(&w->rename_index);
	for (i = 0; i < w->nr_histories; i++) {
		struct path_history *h = w->histories[i];

		for (k = 0; k < h->nr; k++)
			free(h->rows[k].parents);
		free(h->rows);
		smap_release(&h->index);
		smap_release(&h->ran);
		free(h);
	}
	free(w->histories);
	smap_release(&w->history_index);
	smap_release(&w->out_ids);
	smap_release(&w->out_paths);
	strbuf_release(&w->obj);
	strbuf_release(&w->key);
}

struct walk *walk_new(const char *dir, const struct replay_options *opts)
{
	struct walk *w = xcalloc(1, sizeof(*w));

	w->dir = dir;
	w->opts = opts;
	w->cf.dir = dir;
	w->max_steps = WALK_STEPS;
	w->moves.commit = NO_COMMIT;
	strbuf_init(&w->obj, 0);
	strbuf_init(&w->key, 0);
	return w;
}

void walk_step_only(struct walk *w)
{
	w->max_steps = SIZE_MAX;
}

void walk_made_by(struct walk *w, const char *commit, const char *path, char *maker, struct strbuf *maker_path)
{
	const char *at;
	uint32_t si;
	size_t max = w->max_steps;

	/* many files of one commit: the trees of the commits stepped through serve them all */
	w->max_steps = SIZE_MAX;
	si = made_by(w, commit_of(w, commit), path, &at);
	w->max_steps = max;
	memcpy(maker, w->commits[w->suspects[si].commit].id, 41);
	strbuf_reset(maker_path);
	strbuf_addstr(maker_path, at);
}

void walk_free(struct walk *w)
{
	if (!w)
		return;
	walk_release(w);
	free(w);
}

/* Drains the suspects: every target's token is owned by the end. */
static void walk_suspects(struct walk *w)
{
	while (w->nr_heap) {
		uint32_t si = heap_pop(w);
		struct suspect *s = &w->suspects[si];
		struct target *t = s->t;
		size_t nr = s->nr;

		s->t = NULL;
		s->nr = s->alloc = 0;
		s->queued = 0;
		w->out->nr_commits++;
		blame_suspect(w, si, t, nr);
		free(t);
		/* a version is needed again only when tokens come back to it (clock skew) */
		if (!w->suspects[si].queued)
			drop_version(w, si);
	}
	/* the ids and paths of this answer are numbered afresh for the next */
	smap_release(&w->out_ids);
	smap_release(&w->out_paths);
	memset(&w->out_ids, 0, sizeof(w->out_ids));
	memset(&w->out_paths, 0, sizeof(w->out_paths));
	w->out = NULL;
}

int walk_blame_files(struct walk *w, const char *commit, const char **paths, size_t n, struct file_blame *out)
{
	struct file_blame all;
	size_t *start = xcalloc(n + 1, sizeof(*start)), k, total = 0;
	uint32_t *made = xcalloc(n + 1, sizeof(*made)), ci, t;
	unsigned char oid[20];
	unsigned mode;
	int found = 0;

	if (strlen(commit) != 40 || hex_to_oid(commit, 40, oid))
		BUG("a walk from a commit that is no full id");
	memset(&all, 0, sizeof(all));
	ci = commit_of(w, commit);
	for (k = 0; k < n; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		made[k] = NO_COMMIT;
		start[k] = total;
		/* a file (a symbolic link too, as git blame takes one), not a submodule */
		if (!lookup(w, ci, paths[k], &mode, oid) || (mode & S_IFMT) == 0160000)
			continue;
		made[k] = made_by(w, ci, paths[k], NULL);
		memcpy(out[k].maker, w->commits[w->suspects[made[k]].commit].id, 41);
		out[k].maker_path = xstrdup(w->suspects[made[k]].path);
		out[k].nr = suspect_version(w, made[k])->nr;
		total += out[k].nr;
		found++;
	}
	start[n] = total;
	all.nr = total;
	all.commit = xcalloc(total + 1, sizeof(*all.commit));
	all.path = xcalloc(total + 1, sizeof(*all.path));
	all.mover = xmalloc(st_mult(st_add(total, 1), sizeof(*all.mover)));
	all.mover_path = xcalloc(total + 1, sizeof(*all.mover_path));
	for (k = 0; k < total; k++)
		all.mover[k] = NO_COMMIT;
	w->out = &all;
	for (k = 0; k < n; k++)
		for (t = 0; made[k] != NO_COMMIT && t < out[k].nr; t++)
			add_target(w, made[k], t, (uint32_t)(start[k] + t), FOLLOW_BOTH);
	walk_suspects(w);
	/* each file's part of the answer, with the commits and paths they name */
	for (k = 0; k < n; k++) {
		size_t i;

		if (made[k] == NO_COMMIT)
			continue;
		out[k].nr_commits = all.nr_commits;
		out[k].commit = xmalloc(st_mult(st_add(out[k].nr, 1), sizeof(*out[k].commit)));
		out[k].path = xmalloc(st_mult(st_add(out[k].nr, 1), sizeof(*out[k].path)));
		memcpy(out[k].commit, all.commit + start[k], out[k].nr * sizeof(*out[k].commit));
		memcpy(out[k].path, all.path + start[k], out[k].nr * sizeof(*out[k].path));
		out[k].mover = xmalloc(st_mult(st_add(out[k].nr, 1), sizeof(*out[k].mover)));
		out[k].mover_path = xmalloc(st_mult(st_add(out[k].nr, 1), sizeof(*out[k].mover_path)));
		memcpy(out[k].mover, all.mover + start[k], out[k].nr * sizeof(*out[k].mover));
		memcpy(out[k].mover_path, all.mover_path + start[k], out[k].nr * sizeof(*out[k].mover_path));
		out[k].ids = xmalloc(st_mult(st_add(all.nr_ids, 1), sizeof(*out[k].ids)));
		memcpy(out[k].ids, all.ids, all.nr_ids * sizeof(*all.ids));
		out[k].nr_ids = out[k].alloc_ids = all.nr_ids;
		out[k].paths = xcalloc(all.nr_paths + 1, sizeof(*out[k].paths));
		for (i = 0; i < all.nr_paths; i++)
			out[k].paths[i] = xstrdup(all.paths[i]);
		out[k].nr_paths = out[k].alloc_paths = all.nr_paths;
	}
	file_blame_release(&all);
	free(start);
	free(made);
	return found;
}

int walk_blame(struct walk *w, const char *commit, const char *path, struct file_blame *out)
{
	return walk_blame_files(w, commit, &path, 1, out) ? 0 : -1;
}

int walk_file(const char *dir, const char *tip, const char *path, const struct replay_options *opts,
	      struct file_blame *out)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf id = STRBUF_INIT;
	struct walk *w;
	int ret;

	strvec_pushl(&argv, "git", "rev-parse", "--verify", "-q", NULL);
	strvec_pushf(&argv, "%s^{commit}", tip);
	if (run_capture(argv.v, dir, &id) || id.len < 40)
		die("'%s' is not a commit in '%s'", tip, dir);
	strbuf_setlen(&id, 40);
	w = walk_new(dir, opts);
	if (opts->read_ahead)
		w->ahead = read_ahead_start(dir, opts);
	ret = walk_blame(w, id.buf, path, out);
	walk_free(w);
	strvec_clear(&argv);
	strbuf_release(&id);
	return ret;
}

void file_blame_release(struct file_blame *fb)
{
	free(fb->commit);
	free(fb->path);
	free(fb->mover);
	free(fb->mover_path);
	free(fb->ids);
	free_strings(fb->paths, fb->nr_paths);
	free(fb->maker_path);
	memset(fb, 0, sizeof(*fb));
}
