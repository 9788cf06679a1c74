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
 *   - the same blob as the file of a parent: all its lines come from the
 *     first such parent at the same path, else from the first whose file
 *     a rename with no change brought there, as git blame passes the
 *     whole blame;
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
 * The same pass attributes tokens (the attribution engine), by the rule
 * of attribute.c: the diffs are then tokstream's own (tokdiff.c), and
 * moved and copied tokens are found among the files the commit changed.
 * The walk back through one file's history (walk.c) applies the same
 * rule and gives the same answer.
 *
 * The checkpoint.  A whole-tree pass leaves its state at the tip in
 * DEST/tokstream/replay/ (every file's origins in runs, and the tokens
 * each commit added and removed), so that a later pass at a descendant
 * replays only the commits since, reading the files' token hashes from
 * the views when a diff first needs them (replay-checkpoint.c).  A
 * commit since whose parent is older than the tip (a topic forked long
 * before, the main line after a release branch forked from it) finds
 * that parent's files in the checkpoint when it was a fork point of a
 * branch then, else asks the walk for the ones it reads.  A tip that is
 * no descendant, other options, or a damaged file make the pass start
 * from the first commit: the result is the same either way, only the
 * time differs.
 */
#include "replay-internal.h"
#include "walk.h"
#include "../tokenize/smap.h"
#include "tokdiff.h"
#include "../tokenize/catfile.h"
#include "../tokenize/parse.h"
#include "../tokenize/progress.h"
#include "../tokenize/quote.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void die_replay(const struct replay *r, const char *commit, const char *what)
{
	die("cannot replay the history in '%s': %s at commit %s", r->dir, what, commit);
}

size_t path_id(struct replay *r, const char *path)
{
	int isnew;
	size_t *id = smap_put(&r->path_index, path, r->nr_paths, &isnew);

	if (isnew) {
		ALLOC_GROW(r->paths, r->nr_paths + 1, r->alloc_paths);
		r->paths[r->nr_paths++] = xstrdup(path);
	}
	return *id;
}

struct version *file_at(const struct rcommit *c, size_t path)
{
	return path < c->nr_files ? c->files[path] : NULL;
}

void set_file(struct rcommit *c, size_t path, struct version *v)
{
	if (path >= c->nr_files) {
		if (!v)
			return;
		c->files = xrealloc(c->files, st_mult(st_add(path, 1), sizeof(*c->files)));
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

uint32_t owner_of(struct replay *r, uint32_t ci, size_t path)
{
	struct rcommit *c = &r->commits[ci];
	size_t k;

	/* the newest first: a commit makes its files one after the other */
	for (k = c->nr_own_paths; k-- > 0;)
		if (c->own_paths[k] == path)
			return c->own_ids[k];
	if (r->nr_owners >= NO_COMMIT)
		die("too many owners of tokens to replay in '%s'", r->dir);
	ALLOC_GROW(r->owners, r->nr_owners + 1, r->alloc_owners);
	r->owners[r->nr_owners].commit = ci;
	r->owners[r->nr_owners].path = path;
	r->owners[r->nr_owners].mover = NO_COMMIT;
	r->owners[r->nr_owners].mover_path = 0;
	ALLOC_GROW(c->own_paths, c->nr_own_paths + 1, c->alloc_own_paths);
	ALLOC_GROW(c->own_ids, c->nr_own_paths + 1, c->alloc_own_ids);
	c->own_paths[c->nr_own_paths] = path;
	c->own_ids[c->nr_own_paths++] = (uint32_t)r->nr_owners;
	return (uint32_t)r->nr_owners++;
}

uint32_t moved_owner(struct replay *r, uint32_t o, uint32_t mover, size_t mover_path)
{
	struct owner from = r->owners[o];
	char key[96];
	size_t *at;
	int isnew;

	if (mover == from.commit && mover_path == from.path)
		return owner_of(r, from.commit, from.path);
	snprintf(key, sizeof(key), "%x %zx %x %zx", (unsigned)from.commit, from.path, (unsigned)mover,
		 mover_path);
	at = smap_put(&r->moved_owners, key, r->nr_owners, &isnew);
	if (!isnew)
		return (uint32_t)*at;
	if (r->nr_owners >= NO_COMMIT)
		die("too many owners of tokens to replay in '%s'", r->dir);
	ALLOC_GROW(r->owners, r->nr_owners + 1, r->alloc_owners);
	r->owners[r->nr_owners].commit = from.commit;
	r->owners[r->nr_owners].path = from.path;
	r->owners[r->nr_owners].mover = mover;
	r->owners[r->nr_owners].mover_path = mover_path;
	return (uint32_t)r->nr_owners++;
}

/* ---- the order of the commits ------------------------------------------- */

/* The commits of tip's history, parents first. */
/*
 * After a checkpoint was loaded, only the commits since its tip are read
 * (tip ^base).  A parent of theirs that is not among them nor the base
 * (a topic forked before the base) joins as an outside commit, whose
 * files are pending (add_outside_files): origins the walk gives when a
 * diff needs them.  Returns -1 when the tip is the checkpoint's tip's
 * ancestor: nothing to replay from there.
 */
static int read_commits(struct replay *r, const char *dir, const char *tip)
{
	struct strvec argv = STRVEC_INIT;
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf line = STRBUF_INIT;
	struct smap listed = SMAP_INIT;
	char **lines = NULL;
	size_t alloc = r->nr_commits, nr_lines = 0, alloc_lines = 0, k;
	int isnew;

	strvec_pushl(&argv, "git", "rev-list", "--reverse", "--topo-order", "--parents", tip, NULL);
	if (r->first_new)
		strvec_push(&argv, r->not_base);
	reader_start(rd, argv.v, dir);
	while (reader_next(rd, &line, '\n')) {
		char id[41];

		if (line.len < 40 || (line.len - 40) % 41)
			die("unexpected output of git rev-list in '%s': %s", dir, line.buf);
		memcpy(id, line.buf, 40);
		id[40] = '\0';
		smap_put(&listed, id, nr_lines, &isnew);
		ALLOC_GROW(lines, nr_lines + 1, alloc_lines);
		lines[nr_lines++] = strbuf_detach(&line, NULL);
	}
	if (reader_finish(rd))
		die("git rev-list %s failed in '%s'", tip, dir);
	strvec_clear(&argv);

	/* the parents outside, before the commits to replay */
	for (k = 0; r->first_new && k < nr_lines; k++) {
		const char *p;

		for (p = lines[k] + 40; *p == ' '; p += 41) {
			char id[41];
			size_t *pi;

			memcpy(id, p + 1, 40);
			id[40] = '\0';
			if (smap_get(&listed, id))
				continue;
			pi = smap_get(&r->commit_index, id);
			if (pi && (*pi == r->base || r->commits[*pi].outside || r->commits[*pi].keep))
				continue;  /* files known (the base, a fork point kept) or pending already */
			if (!pi) {
				ALLOC_GROW(r->commits, r->nr_commits + 1, alloc);
				memset(&r->commits[r->nr_commits], 0, sizeof(*r->commits));
				memcpy(r->commits[r->nr_commits].id, id, 41);
				smap_put(&r->commit_index, id, r->nr_commits, &isnew);
				pi = smap_get(&r->commit_index, id);
				r->nr_commits++;
			}
			r->commits[*pi].known_only = 0;
			r->commits[*pi].outside = 1;
		}
	}
	if (r->first_new)
		r->first_new = r->nr_commits;

	for (k = 0; k < nr_lines; k++) {
		struct rcommit *c;
		const char *p;

		ALLOC_GROW(r->commits, r->nr_commits + 1, alloc);
		c = &r->commits[r->nr_commits];
		memset(c, 0, sizeof(*c));
		memcpy(c->id, lines[k], 40);
		smap_put(&r->commit_index, c->id, r->nr_commits, &isnew);
		for (p = lines[k] + 40; *p == ' '; p += 41) {
			char id[41];
			size_t *pi;

			memcpy(id, p + 1, 40);
			id[40] = '\0';
			if (!(pi = smap_get(&r->commit_index, id)) || r->commits[*pi].known_only)
				die("unexpected output of git rev-list in '%s': %s", dir, lines[k]);
			c->parents = xrealloc(c->parents, st_mult(st_add(c->nr_parents, 1), sizeof(*c->parents)));
			c->parents[c->nr_parents++] = (uint32_t)*pi;
			r->commits[*pi].children_left++;
		}
		r->nr_commits++;
	}
	free_strings(lines, nr_lines);
	smap_release(&listed);
	free(rd);
	strbuf_release(&line);
	r->end_new = r->nr_commits;
	if (r->first_new && r->nr_commits == r->first_new)
		return -1;
	if (r->nr_commits <= r->first_new)
		die("no commits to replay at %s in '%s'", tip, dir);
	if (r->nr_commits >= NO_COMMIT)
		die("too many commits to replay in '%s'", dir);
	r->tip = (uint32_t)(r->nr_commits - 1);
	return 0;
}

/* ---- commits older than the checkpoint ----------------------------------- */

/* The commit id names, known as an origin only when the replay has not read it. */
static uint32_t known_commit(struct replay *r, const char *id)
{
	size_t *at = smap_get(&r->commit_index, id), alloc = r->nr_commits;
	int isnew;

	if (at)
		return (uint32_t)*at;
	if (r->nr_commits + 1 >= NO_COMMIT)
		die("too many commits to replay in '%s'", r->dir);
	ALLOC_GROW(r->commits, r->nr_commits + 1, alloc);
	memset(&r->commits[r->nr_commits], 0, sizeof(*r->commits));
	memcpy(r->commits[r->nr_commits].id, id, 40);
	r->commits[r->nr_commits].known_only = 1;
	smap_put(&r->commit_index, r->commits[r->nr_commits].id, r->nr_commits, &isnew);
	return (uint32_t)r->nr_commits++;
}

/*
 * The files of an outside commit, each pending: its blob is known, its
 * origins are asked of the walk when a diff needs them.
 */
static void add_outside_files(struct replay *r, uint32_t oi)
{
	const char *argv[] = { "git", "-c", "core.quotePath=false", "ls-tree", "-r", "-z", "--full-tree",
			       r->commits[oi].id, NULL };
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf rec = STRBUF_INIT;

	reader_start(rd, argv, r->dir);
	/* "MODE TYPE ID\tPATH" */
	while (reader_next(rd, &rec, '\0')) {
		const char *tab = strchr(rec.buf, '\t');
		struct version *v;

		if (!tab || tab - rec.buf < 41 || tab[-41] != ' ')
			die("unexpected output of git ls-tree %s in '%s'", r->commits[oi].id, r->dir);
		v = xcalloc(1, sizeof(*v));
		memcpy(v->blob, tab - 40, 40);
		v->pending = 1;
		v->maker = oi;
		v->maker_path = path_id(r, tab + 1);
		set_file(&r->commits[oi], v->maker_path, v);
	}
	if (reader_finish(rd))
		die("git ls-tree %s failed in '%s'", r->commits[oi].id, r->dir);
	free(rd);
	strbuf_release(&rec);
}

/* The last commit of commit's history that changed path (a submodule's, which no blame reads). */
static uint32_t last_change(struct replay *r, const char *commit, const char *path)
{
	const char *argv[] = { "git", "--literal-pathspecs", "rev-list", "-1", commit, "--", path, NULL };
	struct strbuf out = STRBUF_INIT;
	uint32_t ci;

	if (run_capture(argv, r->dir, &out) || out.len < 40)
		die("git rev-list -1 %s -- %s failed in '%s'", commit, path, r->dir);
	out.buf[40] = '\0';
	ci = known_commit(r, out.buf);
	strbuf_release(&out);
	return ci;
}

/* The line replay's pending file: git blame's answer, which the line replay gives. */
static void blame_lines(struct replay *r, struct version *v, const char *commit, const char *path)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	size_t alloc = 0;
	char *p, *nl;

	strvec_pushl(&argv, "git", "blame", "--porcelain", NULL);
	if (r->opts.ignore_ws)
		strvec_push(&argv, "-w");
	/* no revision ignored: the line replay ignores none */
	strvec_pushl(&argv, "--ignore-revs-file", "", commit, "--", path, NULL);
	if (run_capture(argv.v, r->dir, &out))
		die("git blame %s -- %s failed in '%s'", commit, path, r->dir);
	strvec_clear(&argv);
	/* "ID ORIG-LINE FINAL-LINE[ COUNT]" heads each line's record */
	for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		char id[41];
		unsigned long final;

		*nl = '\0';
		if (nl - p < 44 || p[40] != ' ' || hex_to_oid(p, 40, (unsigned char[20]){ 0 }))
			continue;
		memcpy(id, p, 40);
		id[40] = '\0';
		final = strtoul(strchr(p + 41, ' ') + 1, NULL, 10);
		if (!final)
			die("unexpected output of git blame in '%s'", r->dir);
		ALLOC_GROW(v->origin, final + 1, alloc);
		while (v->nr < final)
			v->origin[v->nr++] = NO_COMMIT;
		v->origin[final - 1] = owner_of(r, known_commit(r, id), v->maker_path);
	}
	strbuf_release(&out);
	if (!v->origin)
		v->origin = xmalloc(sizeof(*v->origin));
	v->by_ignored = 1;  /* whether an ignored commit made it is not known: git blame's search */
}

/*
 * A pending file made by the same commit (and path) as the state's tip's
 * file: the same version, whose origins the state holds.  The common
 * case of a topic forked before the state (most of its files untouched
 * since), asked of the walk by its makers alone, without a blame.
 */
static int same_as_base(struct replay *r, struct version *v, const char *commit, const char *path)
{
	struct version *bv = file_at(&r->commits[r->base], v->maker_path);
	struct strbuf maker_path = STRBUF_INIT;
	char maker[41];
	int same;

	if (!bv || bv->pending || strcmp(bv->blob, v->blob))
		return 0;
	walk_made_by(r->walk, commit, path, maker, &maker_path);
	same = !strcmp(maker, r->commits[bv->maker].id) && !strcmp(maker_path.buf, r->paths[bv->maker_path]);
	strbuf_release(&maker_path);
	if (!same)
		return 0;
	v->nr = bv->nr;
	v->origin = xmalloc(st_mult(st_add(bv->nr, 1), sizeof(*v->origin)));
	memcpy(v->origin, bv->origin, bv->nr * sizeof(*v->origin));
	v->maker = bv->maker;
	v->maker_path = bv->maker_path;
	v->by_ignored = bv->by_ignored;
	v->lazy = r->unit == REPLAY_TOKENS;
	return 1;
}

/* The origins of a pending file from one blame of the walk's (fb); in it, its maker. */
static void take_blame(struct replay *r, struct version *v, struct file_blame *fb)
{
	uint32_t *ids = xcalloc(fb->nr_ids + 1, sizeof(*ids));
	struct smap owned = SMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	size_t k, *at;
	int isnew;

	for (k = 0; k < fb->nr_ids; k++)
		ids[k] = known_commit(r, fb->ids[k]);
	v->nr = fb->nr;
	v->origin = xmalloc(st_mult(st_add(fb->nr, 1), sizeof(*v->origin)));
	for (k = 0; k < fb->nr; k++) {
		uint32_t mover = fb->mover[k];

		strbuf_reset(&key);
		strbuf_addf(&key, "%u %u %u %u", (unsigned)fb->commit[k], (unsigned)fb->path[k], (unsigned)mover,
			    (unsigned)(mover != NO_COMMIT ? fb->mover_path[k] : 0));
		at = smap_put(&owned, key.buf, 0, &isnew);
		if (isnew) {
			*at = owner_of(r, ids[fb->commit[k]], path_id(r, fb->paths[fb->path[k]]));
			if (mover != NO_COMMIT)
				*at = moved_owner(r, (uint32_t)*at, ids[mover], path_id(r, fb->paths[fb->mover_path[k]]));
		}
		v->origin[k] = (uint32_t)*at;
	}
	v->maker = known_commit(r, fb->maker);
	v->maker_path = path_id(r, fb->maker_path);
	v->lazy = 1;   /* its hashes and lines are read when a diff needs them */
	strbuf_release(&key);
	smap_release(&owned);
	free(ids);
}

static int cmp_pending(const void *a, const void *b)
{
	const struct version *x = *(const struct version *const *)a, *y = *(const struct version *const *)b;

	return x->maker < y->maker ? -1 : x->maker > y->maker;
}

/*
 * Pending files' origins (v[], of outside commits): the state's tip's
 * version where it is the same (same_as_base), else from the walk back
 * through their history, which applies the same rule and so gives what
 * a pass from the first commit would (git blame's answer for the line
 * replay); the files of one commit in one walk, so that each commit of
 * their history is read once for them all.  It may add commits to
 * r->commits: no pointer into them may be held.
 */
static void resolve_pending(struct replay *r, struct version **v, size_t n)
{
	size_t k, first, nr_left = 0;

	if (!r->walk && n) {
		r->walk = walk_new(r->dir, &r->opts);
		walk_step_only(r->walk);
	}
	for (k = 0; k < n; k++) {
		char commit[41];
		char *path;

		if (!v[k] || !v[k]->pending)
			continue;
		v[k]->pending = 0;
		memcpy(commit, r->commits[v[k]->maker].id, 41);
		path = xstrdup(r->paths[v[k]->maker_path]);
		if (same_as_base(r, v[k], commit, path))
			; /* the state's tip's version, origins and all */
		else if (++r->nr_looked_back && r->unit == REPLAY_LINES)
			blame_lines(r, v[k], commit, path);
		else
			v[nr_left++] = v[k];
		free(path);
	}
	if (nr_left > 1)
		qsort(v, nr_left, sizeof(*v), cmp_pending);
	for (first = 0; first < nr_left; first = k) {
		const char **paths;
		struct file_blame *fb;
		char commit[41];

		for (k = first; k < nr_left && v[k]->maker == v[first]->maker; k++)
			;
		memcpy(commit, r->commits[v[first]->maker].id, 41);
		paths = xcalloc(k - first + 1, sizeof(*paths));
		fb = xcalloc(k - first + 1, sizeof(*fb));
		for (size_t i = first; i < k; i++)
			paths[i - first] = xstrdup(r->paths[v[i]->maker_path]);
		walk_blame_files(r->walk, commit, paths, k - first, fb);
		for (size_t i = first; i < k; i++) {
			struct version *x = v[i];

			if (fb[i - first].commit) {
				take_blame(r, x, &fb[i - first]);
			} else {
				/* a submodule: one token, as its diff is one line */
				x->nr = 1;
				x->origin = xmalloc(2 * sizeof(*x->origin));
				x->origin[0] = owner_of(r, last_change(r, commit, paths[i - first]), x->maker_path);
				x->lazy = 1;
			}
			file_blame_release(&fb[i - first]);
			free((char *)paths[i - first]);
		}
		free(paths);
		free(fb);
	}
}

/* A list of the pending files to resolve at once. */
struct pending_list {
	struct version **v;
	size_t nr, alloc;
};

static void add_pending(struct pending_list *l, struct version *v)
{
	if (!v || !v->pending)
		return;
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = v;
}

/* Every pending file of commit ci resolved (the tip before it is saved, a sample before it is shown). */
static void resolve_files(struct replay *r, uint32_t ci)
{
	struct pending_list l = { NULL, 0, 0 };
	size_t k;

	for (k = 0; k < r->commits[ci].nr_files; k++)
		add_pending(&l, r->commits[ci].files[k]);
	resolve_pending(r, l.v, l.nr);
	free(l.v);
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
			die_replay(r, commit, "hunks that do not fit the file");
		for (; o < old_before; o++, n++)
			if (nv->origin[n] == NO_COMMIT)
				nv->origin[n] = old->origin[o];
		o += h->old_nr;
		n += h->new_nr;
	}
	if (o > old->nr || n > nv->nr || old->nr - o != nv->nr - n)
		die_replay(r, commit, "hunks that do not fit the file");
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
					die_replay(r, c->id, "a merge whose parent has not the file its diff says");
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
	/* a merge's patches, read only for the files that differ from every parent */
	for (pi = 0; c->nr_parents > 1 && pi < c->nr_parents; pi++) {
		const struct change *ch = change_to(r, group_of_parent(r, pi), ch1->dst);

		replay_patch(r, c->id, &r->changes[ch - r->changes]);
	}
	for (k = 0; k < ch1->nr_hunks; k++) {
		added += r->hunks[ch1->first_hunk + k].new_nr;
		removed += r->hunks[ch1->first_hunk + k].old_nr;
	}
	nv = xcalloc(1, sizeof(*nv));
	memcpy(nv->blob, ch1->new_blob, 41);
	nv->maker = ci;
	nv->maker_path = ch1->dst;
	if (ch1->status == 'A' || ch1->status == 'T') {
		nv->nr = added;
	} else {
		const struct version *old = file_at(&r->commits[c->parents[0]], ch1->src);

		if (!old || old->nr + added < removed)
			die_replay(r, c->id, "a diff that does not fit the parent's file");
		nv->nr = old->nr + added - removed;
	}
	nv->origin = xmalloc(st_mult(st_add(nv->nr, 1), sizeof(*nv->origin)));
	for (i = 0; i < nv->nr; i++)
		nv->origin[i] = NO_COMMIT;

	nv->by_ignored = c->ignored;
	for (pi = 0; pi < c->nr_parents; pi++) {
		const struct change *ch = change_to(r, group_of_parent(r, pi), ch1->dst);
		const struct version *pv;

		if (ch->status == 'A' || ch->status == 'T')
			continue;
		pv = file_at(&r->commits[c->parents[pi]], ch->src);
		pass_unchanged(r, c->id, ch, pv, nv);
		nv->by_ignored |= pv && pv->by_ignored;
	}
	for (i = 0; i < nv->nr; i++)
		if (nv->origin[i] == NO_COMMIT)
			nv->origin[i] = owner_of(r, ci, ch1->dst);
	return nv;
}

/* ---- the token replay: its own diff, moves, ignored commits ------------ */

/*
 * The bytes of hashes and lines the token replay keeps in memory before
 * it unloads idle versions: a tree of some 20 million tokens at once,
 * and an eighth of the 2 GB a report of a Linux tree may take.
 * TOKSTREAM_TEST_REPLAY_BYTES sets it, so that the tests can unload
 * after every commit and compare.
 */
#define LOADED_BUDGET ((size_t)256 << 20)

static size_t loaded_budget(void)
{
	const char *test = getenv("TOKSTREAM_TEST_REPLAY_BYTES");
	uintmax_t n;

	if (!test)
		return LOADED_BUDGET;
	if (parse_size(test, &n) || n > SIZE_MAX)
		die("TOKSTREAM_TEST_REPLAY_BYTES is a size (digits, then k, m or g), not '%s'", test);
	return (size_t)n;
}

static size_t loaded_size(const struct version *v)
{
	return v->hash ? v->nr * (sizeof(*v->hash) + (v->line ? sizeof(*v->line) : 0)) : 0;
}

/* v's hashes (and lines) are in memory. */
static void note_loaded(struct replay *r, struct version *v)
{
	v->loaded_seq = ++r->nr_loads;
	r->loaded_bytes += loaded_size(v);
}

static int cmp_loaded_seq(const void *a, const void *b)
{
	const struct version *x = *(const struct version *const *)a, *y = *(const struct version *const *)b;

	return x->loaded_seq < y->loaded_seq ? -1 : x->loaded_seq > y->loaded_seq;
}

/*
 * Between commits, when the bytes read since the last count pass the
 * budget: the hashes and lines the live versions (every commit's files)
 * hold are counted, and if they are past it, the versions read longest
 * ago keep their origins only (lazy, read again from the commit and
 * path that made them, as a checkpoint's are) until half of it is left.
 */
static void unload_idle(struct replay *r)
{
	struct version **live = NULL;
	size_t nr = 0, alloc = 0, bytes = 0, c, i;

	if (r->loaded_bytes <= r->loaded_budget)
		return;
	r->nr_counts++;
	for (c = 0; c < r->nr_commits; c++)
		for (i = 0; i < r->commits[c].nr_files; i++) {
			struct version *v = r->commits[c].files[i];

			if (!v || !v->hash || v->counted == r->nr_counts)
				continue;
			v->counted = r->nr_counts;
			bytes += loaded_size(v);
			ALLOC_GROW(live, nr + 1, alloc);
			live[nr++] = v;
		}
	if (bytes > r->loaded_budget) {
		qsort(live, nr, sizeof(*live), cmp_loaded_seq);
		for (i = 0; i < nr && bytes > r->loaded_budget / 2; i++) {
			bytes -= loaded_size(live[i]);
			free(live[i]->hash);
			free(live[i]->line);
			live[i]->hash = NULL;
			live[i]->line = NULL;
			live[i]->lazy = 1;
			r->nr_unloaded++;
		}
	}
	r->loaded_bytes = bytes;
	free(live);
}

static struct version *read_view(struct replay *r, const char *commit, const char *blob);

/* The lines of the original that v's tokens start on, when the caller can tell them. */
static void add_lines(struct replay *r, struct version *v, const char *commit, const char *path)
{
	if (!r->opts.token_lines || !v->nr)
		return;
	v->line = xmalloc(st_mult(v->nr, sizeof(*v->line)));
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
	note_loaded(r, v);
	return v;
}

static struct version *read_view(struct replay *r, const char *commit, const char *blob)
{
	unsigned char oid[20];
	char type[16];
	size_t size = 0, nr;
	uint64_t *hash;

	if (hex_to_oid(blob, 40, oid))
		die_replay(r, commit, "an object id that is not one");
	switch (catfile_get(&r->cf, oid, type, &size)) {
	case CATFILE_FAILED:
		die("git cat-file --batch failed in '%s'", r->dir);
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
		die("git cat-file --batch failed in '%s'", r->dir);
	hash = hash_lines(r->content.buf, size, r->opts.ignore_ws, &nr);
	return new_version(blob, hash, nr, NO_COMMIT);
}

/* Keeps a change for the checkpoint. */
void add_record(struct replay *r, uint32_t ci, size_t path, size_t added, size_t removed)
{
	struct change_record *rec;

	ALLOC_GROW(r->records, r->nr_records + 1, r->alloc_records);
	rec = &r->records[r->nr_records++];
	rec->commit = ci;
	rec->path = path;
	rec->added = added;
	rec->removed = removed;
}

/* Tells on_change, and keeps for the checkpoint, the tokens commit ci added and removed in path. */
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
	note_loaded(r, v);
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
			die_replay(r, c->id, "a diff whose parent has not the file it says");
		read_lazy(r, parent[pi]);
	}
	same = token_version(r, ci, ch1->dst, ch1->new_blob, parent, c->nr_parents);
	free(parent);
	return same;
}

/*
 * The origins of fresh version v that a replay without moves would give
 * (unmoved, a copy of its origins before the search for moves, which an
 * ignored commit's pass has filled in as well): where the search gave a
 * token a moved run's origin, that origin takes the commit's own as its
 * mover (or, in an ignored commit, the mover the pass without moves
 * found), so that the attribution without moves is at hand in the same
 * owner (struct owner).
 */
static void note_movers(struct replay *r, uint32_t ci, const struct fresh *f, const uint32_t *unmoved)
{
	uint32_t last_from = NO_COMMIT, last_unmoved = NO_COMMIT, last = NO_COMMIT;
	size_t i;

	for (i = 0; i < f->v->nr; i++) {
		uint32_t o = f->v->origin[i], u = unmoved[i], mover;
		size_t mover_path;

		if (o == u)
			continue;
		if (o == NO_COMMIT)
			o = owner_of(r, ci, f->path);  /* the commit's own with moves, another's without */
		if (o != last_from || u != last_unmoved) {
			if (u == NO_COMMIT) {
				mover = ci;
				mover_path = f->path;
			} else if (r->owners[u].mover != NO_COMMIT) {
				mover = r->owners[u].mover;
				mover_path = r->owners[u].mover_path;
			} else {
				mover = r->owners[u].commit;
				mover_path = r->owners[u].path;
			}
			last = moved_owner(r, o, mover, mover_path);
			last_from = o;
			last_unmoved = u;
		}
		f->v->origin[i] = last;
	}
}

/*
 * The end of a commit in the token replay: moves (from src, the first
 * parent's versions of the files the commit changed), ignored commits,
 * the rest the commit's own; the tokens each file gained and lost.
 */
static void finish_commit_tokens(struct replay *r, uint32_t ci, struct move_source *src, size_t nr_src)
{
	struct rcommit *c = &r->commits[ci];
	uint32_t **unmoved = NULL;
	size_t k, i;

	if (r->opts.min_move && c->nr_parents == 1 && nr_src) {
		struct version **fresh = xcalloc(r->nr_fresh + 1, sizeof(*fresh));

		for (k = 0; k < r->nr_fresh; k++)
			fresh[k] = r->fresh[k].v;
		if (wants_moves(fresh, r->nr_fresh, r->opts.min_move)) {
			/* the origins before the search: what a replay without moves keeps */
			unmoved = xcalloc(r->nr_fresh + 1, sizeof(*unmoved));
			for (k = 0; k < r->nr_fresh; k++) {
				unmoved[k] = xmalloc(st_mult(st_add(fresh[k]->nr, 1), sizeof(**unmoved)));
				memcpy(unmoved[k], fresh[k]->origin, fresh[k]->nr * sizeof(**unmoved));
			}
			find_moves(fresh, r->nr_fresh, src, nr_src, r->opts.min_move);
		}
		free(fresh);
	}
	for (k = 0; k < r->nr_fresh; k++) {
		struct fresh *f = &r->fresh[k];
		size_t same = 0;

		if (c->ignored && f->old) {
			pass_over_ignored(f->v, f->old, &f->d);
			if (unmoved) {
				/* without moves, the pass gives the moved tokens their neighbours' origins */
				struct version without = *f->v;

				without.origin = unmoved[k];
				pass_over_ignored(&without, f->old, &f->d);
			}
		}
		if (unmoved)
			note_movers(r, ci, f, unmoved[k]);
		for (i = 0; i < f->v->nr; i++)
			if (f->v->origin[i] == NO_COMMIT)
				f->v->origin[i] = owner_of(r, ci, f->path);
		c = &r->commits[ci];
		for (i = 0; i < f->d.nr; i++)
			same += f->d.runs[i].len;
		if (c->nr_parents <= 1 && (f->v->nr > same || (f->old && f->old->nr > same)))
			note_change(r, ci, f->path, f->v->nr - same, f->old ? f->old->nr - same : 0);
		tokdiff_release(&f->d);
		if (unmoved)
			free(unmoved[k]);
	}
	free(unmoved);
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

struct root_files {
	struct replay *r;
	uint32_t ci;
};

/*
 * A file of a root commit, every token (line) of it its own.  In the
 * token replay no diff of this commit reads the tokens' hashes and lines:
 * the version keeps its origins only, and they are read when a later
 * commit changes the file (read_lazy).
 */
static void add_root_file(const char *path, const char *blob, size_t lines, int binary, void *data)
{
	struct root_files *rf = data;
	struct replay *r = rf->r;
	size_t p = path_id(r, path);
	/* as each replay always did: an empty file is among the commit's own paths in the token replay only */
	uint32_t owner = lines || r->unit == REPLAY_TOKENS ? owner_of(r, rf->ci, p) : NO_COMMIT;
	struct version *v;

	(void)binary;  /* lines all the same: --text */
	v = new_version(blob, NULL, lines, owner);
	v->maker = rf->ci;
	v->maker_path = p;
	if (r->unit == REPLAY_TOKENS) {
		v->lazy = 1;
		if (lines)
			note_change(r, rf->ci, p, lines, 0);
	} else {
		v->by_ignored = r->commits[rf->ci].ignored;
	}
	set_file(&r->commits[rf->ci], p, v);
}

/*
 * The files of a root commit.  Its diff, all its lines printed as added,
 * would be most of git log's work on a history that begins with a whole
 * tree (a release imported at once), so git log is told not to show it
 * (log.showRoot=false), and the files and their lines (a view's tokens;
 * a submodule's one) come from tree_lines().
 */
static void replay_root(struct replay *r, uint32_t ci)
{
	struct root_files rf = { r, ci };

	tree_lines(r->dir, r->commits[ci].id, add_root_file, &rf);
}

/*
 * The older files (pending) that commit ci's diffs will read, resolved
 * before any pointer into r->commits is held: the parents' files of
 * each file the commit made anew (not one a parent has the same), and
 * in a commit of one parent, the files the moves may come from.  A merge
 * reads nothing of a parent whose file it did not take.
 */
static void resolve_parents(struct replay *r, uint32_t ci, const struct group *g1)
{
	struct pending_list l = { NULL, 0, 0 };
	size_t k;
	unsigned pi;

	for (k = 0; g1 && k < g1->nr_changes; k++) {
		const struct change *ch1 = &r->changes[g1->first_change + k];
		const struct rcommit *c = &r->commits[ci];

		if (r->commits[ci].nr_parents == 1 && ch1->status != 'A')
			add_pending(&l, file_at(&r->commits[c->parents[0]], ch1->src));
		if (ch1->status == 'D' || same_as_a_parent(r, ci, ch1))
			continue;
		for (pi = 0; pi < r->commits[ci].nr_parents; pi++) {
			const struct change *ch = change_to(r, group_of_parent(r, pi), ch1->dst);

			if (ch && ch->status != 'A' && ch->status != 'T')
				add_pending(&l, file_at(&r->commits[r->commits[ci].parents[pi]], ch->src));
		}
	}
	resolve_pending(r, l.v, l.nr);
	free(l.v);
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
					die_replay(r, c->id, "a root commit with a diff against a parent");
			g->parent = 0;
			continue;
		}
		while (next < (int)c->nr_parents && !group_fits(r, g, &r->commits[c->parents[next]]))
			next++;
		if (next == (int)c->nr_parents)
			die_replay(r, c->id, "a diff that fits none of the parents");
		g->parent = next++;
	}

	g1 = group_of_parent(r, 0);
	resolve_parents(r, ci, g1);
	c = &r->commits[ci];

	/* the new versions, from the parents' files (before any is changed: renames may swap paths) */
	made = xcalloc(g1 ? g1->nr_changes + 1 : 1, sizeof(*made));
	for (k = 0; g1 && k < g1->nr_changes; k++) {
		const struct change *ch = &r->changes[g1->first_change + k];

		if (ch->status == 'D')
			continue;
		made[k] = r->unit == REPLAY_TOKENS ? replay_tokens_at(r, ci, ch) : replay_file_at(r, ci, ch);
		made[k]->refs++;
	}
	if (r->unit == REPLAY_TOKENS)
		finish_tokens(r, ci, g1);

	/* its files: the first parent's (taken over by its last child), then the diff against it */
	if (c->nr_parents) {
		struct rcommit *p1 = &r->commits[c->parents[0]];

		if (p1->children_left == 1 && !p1->keep && (c->nr_parents == 1 || c->parents[1] != c->parents[0])) {
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

		if (!--p->children_left && c->parents[pi] != r->tip && !p->keep)
			release_files(p);
	}
	unload_idle(r);
}

/* ---- the whole history --------------------------------------------------- */

/* Tells on_sample of commit ci when it is one of the samples. */
static void sample_commit(struct replay *r, uint32_t ci)
{
	if (!r->opts.on_sample || !r->opts.samples ||
	    !smap_get(r->opts.samples, r->commits[ci].id))
		return;
	r->sample = ci;
	resolve_files(r, ci);
	r->opts.on_sample(r, r->commits[ci].id, r->opts.sample_data);
}

/* Replays commit ci, whose diffs are read, and shows it to on_sample. */
void replay_next(struct replay *r, uint32_t ci)
{
	replay_commit_files(r, ci);
	sample_commit(r, ci);
}

static void mark_ignored(struct replay *r)
{
	size_t k;

	if (!r->opts.ignore)
		return;
	for (k = 0; k < r->nr_commits; k++)
		r->commits[k].ignored = smap_get(r->opts.ignore, r->commits[k].id) != NULL;
}

static struct replay *replay_new(const char *dir)
{
	struct replay *r = xcalloc(1, sizeof(*r));

	r->dir = dir;
	r->cf.dir = dir;
	strbuf_init(&r->content, 0);
	r->loaded_budget = loaded_budget();
	return r;
}

/*
 * Whether a replay from the checkpoint goes through every sample: each is
 * its tip or a commit since.
 */
static int samples_after_base(struct replay *r)
{
	const struct smap_entry *e;
	size_t k, *at;

	if (!r->opts.on_sample || !r->opts.samples)
		return 1;
	for (k = 0; (e = smap_next(r->opts.samples, &k));)
		if (!(at = smap_get(&r->commit_index, e->key)) || (*at < r->first_new && *at != r->base))
			return 0;
	return 1;
}

/*
 * The whole tree's replay, from the checkpoint of opts when one fits (a
 * replay of the commits since its tip), else from the first commit; the
 * checkpoint is then written for the new tip.
 */
static struct replay *replay_whole(const char *dir, const char *tip, const struct replay_options *opts,
				   enum replay_unit unit, enum replay_start start)
{
	struct replay *r = replay_new(dir);
	int from = 0;

	r->unit = unit;
	r->opts = *opts;
	if (opts->checkpoint)
		from = checkpoint_load(r, dir, tip);
	if (from == 1 && read_commits(r, dir, tip) < 0)
		from = -1;  /* a tip that is the checkpoint's ancestor */
	if (from > 0 && !samples_after_base(r))
		from = -1;  /* a sample the checkpoint has gone past: only the whole history has it */
	if (from <= 0 && start == REPLAY_FROM_CHECKPOINT_ONLY) {
		replay_free(r);
		return NULL;
	}
	if (from < 0) {
		replay_free(r);
		r = replay_new(dir);
		r->unit = unit;
		r->opts = *opts;
		from = 0;
	}
	if (!from && read_commits(r, dir, tip) < 0)
		BUG("a replay from the start with a commit outside it");
	if (from == 1) {
		size_t k;

		for (k = 0; k < r->first_new; k++)
			if (r->commits[k].outside)
				add_outside_files(r, (uint32_t)k);
	}
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
		if (opts->checkpoint)
			checkpoint_choose_forks(r, dir);
		replay_log(r, dir, tip, unit == REPLAY_TOKENS ? 0 : opts->ignore_ws);
		resolve_files(r, r->tip);
		if (opts->checkpoint)
			checkpoint_save(r);
	}
	catfile_stop(&r->cf);
	return r;
}

struct replay *replay_history(const char *dir, const char *tip, const struct replay_options *opts)
{
	return replay_whole(dir, tip, opts, REPLAY_LINES, REPLAY_FROM_ANYWHERE);
}

struct replay *replay_tokens(const char *dir, const char *tip, const struct replay_options *opts)
{
	return replay_whole(dir, tip, opts, REPLAY_TOKENS, REPLAY_FROM_ANYWHERE);
}

struct replay *replay_tokens_from_checkpoint(const char *dir, const char *tip, const struct replay_options *opts)
{
	return opts->checkpoint ? replay_whole(dir, tip, opts, REPLAY_TOKENS, REPLAY_FROM_CHECKPOINT_ONLY) : NULL;
}

const uint32_t *replay_file(const struct replay *r, const char *path, size_t *nr)
{
	size_t *id = smap_get(&r->path_index, path);
	const struct version *v;

	if (!id || !(v = file_at(&r->commits[r->tip], *id)))
		return NULL;
	*nr = v->nr;
	return v->origin;
}

const char *replay_commit(const struct replay *r, uint32_t origin)
{
	return r->commits[r->owners[origin].commit].id;
}

const char *replay_unmoved_commit(const struct replay *r, uint32_t origin)
{
	const struct owner *o = &r->owners[origin];

	return r->commits[o->mover != NO_COMMIT ? o->mover : o->commit].id;
}

const char *replay_origin_path(const struct replay *r, uint32_t origin)
{
	return r->paths[r->owners[origin].path];
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
	return r->end_new - r->first_new;
}

int replay_file_by_ignored(const struct replay *r, const char *path)
{
	size_t *id = smap_get(&r->path_index, path);
	const struct version *v = id ? file_at(&r->commits[r->tip], *id) : NULL;

	return !v || v->by_ignored;
}

size_t replay_nr_unloaded(const struct replay *r)
{
	return r->nr_unloaded;
}

size_t replay_nr_looked_back(const struct replay *r)
{
	return r->nr_looked_back;
}

static void forget_commits(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_commits; i++) {
		release_files(&r->commits[i]);
		free(r->commits[i].parents);
		free(r->commits[i].own_paths);
		free(r->commits[i].own_ids);
	}
	free(r->commits);
	r->commits = NULL;
	r->nr_commits = 0;
	free(r->owners);
	r->owners = NULL;
	r->nr_owners = r->alloc_owners = 0;
	smap_release(&r->moved_owners);
	memset(&r->moved_owners, 0, sizeof(r->moved_owners));
	smap_release(&r->commit_index);
	memset(&r->commit_index, 0, sizeof(r->commit_index));
}

void replay_free(struct replay *r)
{
	walk_free(r->walk);
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
