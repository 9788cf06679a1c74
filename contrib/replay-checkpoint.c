/*
 * The forward pass's checkpoint: its state at the tip, kept in DEST so
 * that a later pass at a descendant replays only the commits since.
 */
#include "../tokenize/sha1.h"
#include "replay-internal.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A text file: a header and the key, the commits it names (each with the
 * path where it has tokens of its own), the owners of moved tokens (each
 * commit and path, and its mover's: struct owner), the paths, every file at the tip
 * with its origins in runs (commit, count), the fork points kept (each
 * with its files that are not the tip's: a version, or "-" for none),
 * every change reported, and which commit is the tip.  Hashes and lines
 * are not kept: they are read again from the views when a later diff
 * needs them (read_lazy).
 */
#define CHECKPOINT_FORMAT "tokstream replay checkpoint "
#define CHECKPOINT_HEADER CHECKPOINT_FORMAT "5\n"

/* How many fork points are looked at, newest first, and the files they may keep in all. */
#define MAX_FORKS 64
#define MIN_FORK_FILES 64

/* A fork point: a commit and the files its tree differs from tip's in. */
struct fork {
	size_t commit, files;
	size_t ahead;             /* 2: HEAD grew from it, 1: another ref that holds tip, 0: none */
};

/* The forks of branches that hold tip first (a later pass is most likely at one), then the smallest. */
static int cmp_fork(const void *a, const void *b)
{
	const struct fork *x = a, *y = b;

	if (x->ahead != y->ahead)
		return x->ahead < y->ahead ? 1 : -1;
	return x->files < y->files ? -1 : x->files > y->files;
}

/* The parents in tip's history of the commits of revs (one a line) not in it, into ahead as rank. */
static void parents_in_tip(const char *dir, const char *tip, struct strbuf *revs, struct smap *ahead,
			   size_t rank)
{
	const char *argv[] = { "git", "rev-list", "--parents", "--stdin", NULL };
	struct strbuf out = STRBUF_INIT;
	char *line, *nl;
	int isnew;

	strbuf_addf(revs, "^%s\n", tip);
	if (run_capture_input(argv, dir, revs, &out))
		die("git rev-list --not %s failed in '%s'", tip, dir);
	for (line = out.buf; (nl = strchr(line, '\n')); line = nl + 1) {
		const char *p;

		for (p = line + 40; p + 41 <= nl && *p == ' '; p += 41) {
			char id[41];
			size_t *at;

			memcpy(id, p + 1, 40);
			id[40] = '\0';
			at = smap_put(ahead, id, rank, &isnew);
			if (*at < rank)
				*at = rank;
		}
	}
	strbuf_release(&out);
}

/*
 * The fork points a later pass at a descendant of tip needs, ranked into
 * ahead: 2 for the repository's HEAD (where a report goes by default),
 * 1 for the other refs that hold tip.
 */
static void forks_ahead(const char *dir, const char *tip, struct smap *ahead)
{
	const char *refs_argv[] = { "git", "for-each-ref", "--contains", tip, "--format=%(objectname)", NULL };
	const char *head_argv[] = { "git", "rev-parse", "-q", "--verify", "HEAD^{commit}", NULL };
	struct strbuf revs = STRBUF_INIT;

	if (!run_capture_quiet(head_argv, dir, &revs))
		parents_in_tip(dir, tip, &revs, ahead, 2);
	strbuf_reset(&revs);
	if (run_capture(refs_argv, dir, &revs))
		die("git for-each-ref --contains failed in '%s'", dir);
	parents_in_tip(dir, tip, &revs, ahead, 1);
	strbuf_release(&revs);
}

/* The number of files in commit's tree. */
static size_t count_files(const char *dir, const char *commit)
{
	const char *argv[] = { "git", "ls-tree", "-r", "-z", "--name-only", commit, NULL };
	struct strbuf out = STRBUF_INIT;
	size_t n = 0, k;

	if (run_capture(argv, dir, &out))
		die("git ls-tree %s failed in '%s'", commit, dir);
	for (k = 0; k < out.len; k++)
		n += !out.buf[k];
	strbuf_release(&out);
	return n;
}

/* Whether the files of commit ci will be known: replayed now, or the checkpoint's (the base, a fork point). */
static int fork_files_known(const struct replay *r, size_t ci)
{
	const struct rcommit *c = &r->commits[ci];

	if (c->known_only || c->outside)
		return 0;
	return (ci >= r->first_new && ci < r->end_new) || (ci < r->first_new && c->files);
}

/*
 * The fork points: parents, in tip's history, of the commits no ref
 * merged into tip (git rev-list --all --not tip).  A later pass at a
 * commit of such a branch, or at a merge of one, starts from them; kept,
 * their files need no walk back through their history.  Of those this
 * pass replays or the checkpoint kept, those HEAD grew from, then those
 * of the other refs that hold tip (a pass at a later commit of tip's
 * branch needs them), then the ones whose trees differ least from tip's,
 * while the files they differ in number at most tip's
 * (MIN_FORK_FILES at least), so that the checkpoint at most doubles:
 * their versions stay alive until it is written.  A mirror kept as a
 * branch of its own, whose every file differs (tmux's OpenBSD line, each
 * file's $OpenBSD$ line), is a fork point that a quarter would leave out,
 * and the next pass would walk back from it for every file it merges.
 * Older forks are left to the walk.
 */
void checkpoint_choose_forks(struct replay *r, const char *dir)
{
	const char *tip = r->commits[r->tip].id;
	const char *refs_argv[] = { "git", "for-each-ref", "--format=%(objectname)^{commit}", NULL };
	const char *peel_argv[] = { "git", "cat-file", "--batch-check", NULL };
	const char *argv[] = { "git", "rev-list", "--parents", "--stdin", NULL };
	const char *diff_argv[] = { "git", "diff-tree", "-r", "--name-only", "--stdin", NULL };
	struct strbuf out = STRBUF_INIT, in = STRBUF_INIT, diff = STRBUF_INIT;
	struct smap listed = SMAP_INIT, seen = SMAP_INIT, ahead = SMAP_INIT;
	struct fork *forks = NULL;
	size_t nr = 0, alloc = 0, k, budget, used = 0;
	char *line, *nl;
	int isnew;

	for (k = 0; k < r->nr_commits; k++)
		r->commits[k].keep = 0;
	/* the commits the refs name, tags peeled (one of a blob, or of an object not here, names none) */
	if (run_capture(refs_argv, dir, &in) || run_capture_input(peel_argv, dir, &in, &out))
		die("git for-each-ref failed in '%s'", dir);
	strbuf_reset(&in);
	for (line = out.buf; (nl = strchr(line, '\n')); line = nl + 1)
		if (nl - line > 48 && !memcmp(line + 40, " commit ", 8)) {
			strbuf_add(&in, line, 40);
			strbuf_addch(&in, '\n');
		}
	strbuf_addf(&in, "^%s\n", tip);
	strbuf_reset(&out);
	if (run_capture_input(argv, dir, &in, &out))
		die("git rev-list --not %s failed in '%s'", tip, dir);
	strbuf_reset(&in);
	for (line = out.buf; (nl = strchr(line, '\n')); line = nl + 1)
		if (nl - line >= 40) {
			line[40] = '\0';
			smap_put(&listed, line, 1, &isnew);
			line[40] = nl - line > 40 ? ' ' : '\n';
		}
	forks_ahead(dir, tip, &ahead);
	for (line = out.buf; nr < MAX_FORKS && (nl = strchr(line, '\n')); line = nl + 1) {
		const char *p;

		for (p = line + 40; p + 41 <= nl && *p == ' '; p += 41) {
			char id[41];
			size_t *ci, *at, *rank;

			memcpy(id, p + 1, 40);
			id[40] = '\0';
			if (smap_get(&listed, id) || !(ci = smap_get(&r->commit_index, id)))
				continue;
			at = smap_put(&seen, id, nr, &isnew);
			if (!isnew)
				continue;
			if (!fork_files_known(r, *ci)) {
				*at = SIZE_MAX;  /* not a fork point kept */
				continue;
			}
			ALLOC_GROW(forks, nr + 1, alloc);
			forks[nr].commit = *ci;
			forks[nr].files = 0;
			rank = smap_get(&ahead, id);
			forks[nr++].ahead = rank ? *rank : 0;
			strbuf_addf(&in, "%s %s\n", id, tip);
		}
	}
	if (nr) {
		size_t *at = NULL;

		/* each diff after the fork's id; none for a tree that is tip's */
		if (run_capture_input(diff_argv, dir, &in, &diff))
			die("git diff-tree --stdin failed in '%s'", dir);
		for (line = diff.buf; (nl = strchr(line, '\n')); line = nl + 1) {
			size_t *fork = NULL;

			if (nl - line == 40) {
				*nl = '\0';
				fork = smap_get(&seen, line);
				*nl = '\n';
			}
			if (fork && *fork != SIZE_MAX)
				at = fork;
			else if (at)
				forks[*at].files++;
		}
		qsort(forks, nr, sizeof(*forks), cmp_fork);
		budget = count_files(dir, tip);
		if (budget < MIN_FORK_FILES)
			budget = MIN_FORK_FILES;
		for (k = 0; k < nr && used + forks[k].files <= budget; k++) {
			used += forks[k].files;
			r->commits[forks[k].commit].keep = 1;
		}
	}
	free(forks);
	smap_release(&listed);
	smap_release(&seen);
	smap_release(&ahead);
	strbuf_release(&out);
	strbuf_release(&in);
	strbuf_release(&diff);
}

/* Whether fork point c can be written: its files that are not the tip's all known. */
static int fork_known(const struct rcommit *c, const struct rcommit *tip)
{
	size_t k;

	if (!c->keep || !c->files)
		return 0;
	for (k = 0; k < c->nr_files; k++)
		if (c->files[k] && c->files[k] != file_at(tip, k) && c->files[k]->pending)
			return 0;
	return 1;
}

/*
 * " BLOB BY-IGNORED MAKER MAKER-PATH NR", then " OWNER COUNT" for each
 * run of its origins: owners are numbered as the commits list them.
 */
static void write_version(struct strbuf *sb, const struct version *v, const uint32_t *cnum, const size_t *pnum,
			  const uint32_t *onum)
{
	size_t i, j;

	strbuf_addf(sb, " %s %d %u %zu %zu", v->blob, v->by_ignored ? 1 : 0, (unsigned)cnum[v->maker],
		    pnum[v->maker_path], v->nr);
	for (i = 0; i < v->nr; i = j) {
		for (j = i; j < v->nr && v->origin[j] == v->origin[i]; j++)
			;
		strbuf_addf(sb, " %u %zu", (unsigned)onum[v->origin[i]], j - i);
	}
	strbuf_addch(sb, '\n');
}

void checkpoint_save(struct replay *r)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t *cnum = xmalloc(st_mult(st_add(r->nr_commits, 1), sizeof(*cnum))), *corder;
	uint32_t *onum = xmalloc(st_mult(st_add(r->nr_owners, 1), sizeof(*onum))), nr_onum = 0;
	size_t *pnum = xmalloc(st_mult(st_add(r->nr_paths, 1), sizeof(*pnum))), *porder;
	size_t nc = 0, np = 0, k, i, nr_files = 0, nr_forks = 0, nr_moved = 0;
	const struct rcommit *tip = &r->commits[r->tip];
	char *moved_used = xcalloc(r->nr_owners + 1, 1);  /* the moved owners the versions written name */

	corder = xmalloc(st_mult(st_add(r->nr_commits, 1), sizeof(*corder)));
	porder = xmalloc(st_mult(st_add(r->nr_paths, 1), sizeof(*porder)));
	for (k = 0; k < r->nr_commits; k++)
		cnum[k] = NO_COMMIT;
	for (k = 0; k < r->nr_paths; k++)
		pnum[k] = SIZE_MAX;
#define MARK_COMMIT(c) do { if (cnum[c] == NO_COMMIT) { cnum[c] = (uint32_t)nc; corder[nc++] = (c); } } while (0)
#define MARK_PATH(p) do { if (pnum[p] == SIZE_MAX) { pnum[p] = np; porder[np++] = (p); } } while (0)
#define MARK_VERSION(v) do { \
		MARK_COMMIT((v)->maker); \
		MARK_PATH((v)->maker_path); \
		for (i = 0; i < (v)->nr; i++) { \
			const struct owner *o = &r->owners[(v)->origin[i]]; \
			MARK_COMMIT(o->commit); \
			if (o->mover != NO_COMMIT && !moved_used[(v)->origin[i]]) { \
				moved_used[(v)->origin[i]] = 1; \
				MARK_COMMIT(o->mover); \
				MARK_PATH(o->path); \
				MARK_PATH(o->mover_path); \
			} \
		} \
	} while (0)
	MARK_COMMIT(r->tip);
	for (k = 0; k < tip->nr_files; k++) {
		const struct version *v = tip->files[k];

		if (!v)
			continue;
		nr_files++;
		MARK_PATH(k);
		MARK_VERSION(v);
	}
	for (k = 0; k < r->nr_commits; k++) {
		const struct rcommit *c = &r->commits[k];
		size_t j;

		if (k == r->tip || !fork_known(c, tip))
			continue;
		nr_forks++;
		MARK_COMMIT(k);
		for (j = 0; j < c->nr_files || j < tip->nr_files; j++) {
			const struct version *v = file_at(c, j);

			if (v == file_at(tip, j))
				continue;
			MARK_PATH(j);
			if (v)
				MARK_VERSION(v);
		}
	}
	for (k = 0; k < r->nr_records; k++) {
		MARK_COMMIT(r->records[k].commit);
		MARK_PATH(r->records[k].path);
	}
	for (k = 0; k < nc; k++)
		for (i = 0; i < r->commits[corder[k]].nr_own_paths; i++) {
			MARK_PATH(r->commits[corder[k]].own_paths[i]);
			onum[r->commits[corder[k]].own_ids[i]] = nr_onum++;
		}
	/* the moved owners after the commits' own, as they are read back */
	for (k = 0; k < r->nr_owners; k++)
		if (moved_used[k]) {
			onum[k] = nr_onum++;
			nr_moved++;
		}
#undef MARK_VERSION
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
	strbuf_addf(&sb, "moved %zu\n", nr_moved);
	for (k = 0; k < r->nr_owners; k++) {
		const struct owner *o = &r->owners[k];

		if (moved_used[k])
			strbuf_addf(&sb, "%u %zu %u %zu\n", (unsigned)cnum[o->commit], pnum[o->path],
				    (unsigned)cnum[o->mover], pnum[o->mover_path]);
	}
	strbuf_addf(&sb, "files %zu\n", nr_files);
	for (k = 0; k < tip->nr_files; k++) {
		const struct version *v = tip->files[k];

		if (!v)
			continue;
		strbuf_addf(&sb, "%zu", pnum[k]);
		write_version(&sb, v, cnum, pnum, onum);
	}
	strbuf_addf(&sb, "forks %zu\n", nr_forks);
	for (k = 0; k < r->nr_commits; k++) {
		const struct rcommit *c = &r->commits[k];
		size_t j, nr = 0;

		if (k == r->tip || !fork_known(c, tip))
			continue;
		for (j = 0; j < c->nr_files || j < tip->nr_files; j++)
			nr += file_at(c, j) != file_at(tip, j);
		strbuf_addf(&sb, "%u %zu\n", (unsigned)cnum[k], nr);
		for (j = 0; j < c->nr_files || j < tip->nr_files; j++) {
			const struct version *v = file_at(c, j);

			if (v == file_at(tip, j))
				continue;
			strbuf_addf(&sb, "%zu", pnum[j]);
			if (v)
				write_version(&sb, v, cnum, pnum, onum);
			else
				strbuf_addstr(&sb, " -\n");
		}
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
	free(onum);
	free(pnum);
	free(porder);
	free(moved_used);
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
 * A version written by write_version, from *p: NULL when the line is
 * damaged.  Its hashes and lines are read when a diff needs them.
 */
static struct version *checkpoint_version(struct replay *r, const char **p, const char *limit, size_t nc,
					  size_t np, const size_t *pid)
{
	struct version *v;
	size_t at = 0, maker, maker_path, by_ignored;
	char ended;

	if (limit - *p < 42 || (*p)[40] != ' ' || hex_to_oid(*p, 40, (unsigned char[20]){ 0 }))
		return NULL;
	v = xcalloc(1, sizeof(*v));
	memcpy(v->blob, *p, 40);
	*p += 41;
	if (checkpoint_number(p, limit, ' ', &by_ignored, NULL) || by_ignored > 1)
		goto damaged;
	v->by_ignored = (int)by_ignored;
	v->lazy = r->unit == REPLAY_TOKENS;
	if (checkpoint_number(p, limit, ' ', &maker, NULL) || maker >= nc ||
	    checkpoint_number(p, limit, ' ', &maker_path, NULL) || maker_path >= np ||
	    checkpoint_number(p, limit, 0, &v->nr, &ended) || v->nr >= SIZE_MAX / sizeof(*v->origin) ||
	    (ended == '\n') != !v->nr)
		goto damaged;
	v->maker = (uint32_t)maker;
	v->maker_path = pid[maker_path];
	v->origin = xmalloc(st_mult(st_add(v->nr, 1), sizeof(*v->origin)));
	while (at < v->nr) {
		size_t c, n, i;

		if (checkpoint_number(p, limit, ' ', &c, NULL) || c >= r->nr_owners ||
		    checkpoint_number(p, limit, 0, &n, &ended) || !n || n > v->nr - at ||
		    (ended == '\n') != (n == v->nr - at))
			goto damaged;
		for (i = 0; i < n; i++)
			v->origin[at++] = (uint32_t)c;
	}
	return v;
damaged:
	v->refs = 1;
	version_unref(v);
	return NULL;
}

/* Past the end of the line at *p: -1 when there is none. */
static int skip_line(const char **p, const char *limit)
{
	const char *nl = memchr(*p, '\n', limit - *p);

	if (!nl)
		return -1;
	*p = nl + 1;
	return 0;
}

/*
 * Loads the checkpoint of r->opts when its key is r's and returns 1, with
 * r's first commits those it names and r->base its tip; 2 when that tip
 * is tip itself (nothing to replay).  0 when there is none that fits;
 * a damaged one is a warning, and the replay starts from the beginning.
 */
int checkpoint_load(struct replay *r, const char *dir, const char *tip)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *limit, *key = r->opts.checkpoint_key ? r->opts.checkpoint_key : "";
	size_t nc, np, nf, nk, nch, nm, k, i, t, *pid = NULL, *only = NULL, no_path = SIZE_MAX;
	int at_tip;
	struct strvec argv = STRVEC_INIT;
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
			/* owners in the order written: a path twice is no checkpoint's */
			if (owner_of(r, (uint32_t)k, pid[path]) != r->nr_owners - 1)
				goto damaged;
		}
	}
	if (checkpoint_count(&p, limit, "moved", &nm))
		goto damaged;
	for (k = 0; k < nm; k++) {
		size_t c, path, mover, mover_path, before = r->nr_owners;
		uint32_t from;

		if (checkpoint_number(&p, limit, ' ', &c, NULL) || c >= nc ||
		    checkpoint_number(&p, limit, ' ', &path, NULL) || path >= np ||
		    checkpoint_number(&p, limit, ' ', &mover, NULL) || mover >= nc ||
		    checkpoint_number(&p, limit, '\n', &mover_path, NULL) || mover_path >= np)
			goto damaged;
		/* the owner moved is a commit's own, listed above; each moved owner once */
		from = owner_of(r, (uint32_t)c, pid[path]);
		if (r->nr_owners != before ||
		    moved_owner(r, from, (uint32_t)mover, pid[mover_path]) != before)
			goto damaged;
	}
	/* the tip is written as commit 0 */
	r->base = 0;
	r->commits[0].known_only = 0;
	strvec_pushl(&argv, "git", "rev-parse", "--verify", "-q", NULL);
	strvec_pushf(&argv, "%s^{commit}", tip);
	if (run_capture(argv.v, dir, &out) || out.len < 40)
		die("'%s' is not a commit in '%s'", tip, dir);
	at_tip = !memcmp(out.buf, r->commits[0].id, 40);
	/* a blame of one file at the tip itself: the others' versions are not read */
	if (at_tip && r->opts.only_path && !(only = smap_get(&r->path_index, r->opts.only_path)))
		only = &no_path;
	if (checkpoint_count(&p, limit, "files", &nf))
		goto damaged;
	for (k = 0; k < nf; k++) {
		struct version *v;
		size_t path;

		if (checkpoint_number(&p, limit, ' ', &path, NULL) || path >= np)
			goto damaged;
		if (only && pid[path] != *only) {
			if (skip_line(&p, limit))
				goto damaged;
			continue;
		}
		if (!(v = checkpoint_version(r, &p, limit, nc, np, pid)))
			goto damaged;
		set_file(&r->commits[0], pid[path], v);
	}
	if (checkpoint_count(&p, limit, "forks", &nk))
		goto damaged;
	for (k = 0; only && k < nk; k++) {
		size_t ci, nr;

		if (checkpoint_number(&p, limit, ' ', &ci, NULL) || checkpoint_number(&p, limit, '\n', &nr, NULL))
			goto damaged;
		for (i = 0; i < nr; i++)
			if (skip_line(&p, limit))
				goto damaged;
	}
	for (k = 0; !only && k < nk; k++) {
		struct rcommit *c;
		size_t ci, nr;

		if (checkpoint_number(&p, limit, ' ', &ci, NULL) || !ci || ci >= nc ||
		    checkpoint_number(&p, limit, '\n', &nr, NULL))
			goto damaged;
		c = &r->commits[ci];
		if (!c->known_only)
			goto damaged;  /* twice */
		c->known_only = 0;
		c->keep = 1;  /* a parent of a commit since: its files, not pending ones (read_commits) */
		c->files = xcalloc(r->commits[0].nr_files + 1, sizeof(*c->files));
		c->nr_files = r->commits[0].nr_files;
		for (i = 0; i < c->nr_files; i++)
			if ((c->files[i] = r->commits[0].files[i]))
				c->files[i]->refs++;
		for (i = 0; i < nr; i++) {
			struct version *v = NULL;
			size_t path;

			if (checkpoint_number(&p, limit, ' ', &path, NULL) || path >= np)
				goto damaged;
			if (limit - p >= 2 && !memcmp(p, "-\n", 2))
				p += 2;
			else if (!(v = checkpoint_version(r, &p, limit, nc, np, pid)))
				goto damaged;
			set_file(c, pid[path], v);
		}
	}
	if (checkpoint_count(&p, limit, "changes", &nch))
		goto damaged;
	for (k = 0; only && k < nch; k++)
		if (skip_line(&p, limit))
			goto damaged;
	for (k = 0; !only && k < nch; k++) {
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
	r->first_new = r->end_new = nc;
	snprintf(r->not_base, sizeof(r->not_base), "^%s", r->commits[0].id);
	if (at_tip) {
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
	strvec_clear(&argv);
	free(pid);
	return ret;
}

