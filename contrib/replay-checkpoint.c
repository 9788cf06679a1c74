/*
 * The forward pass's checkpoint: its state at the tip, kept in DEST so
 * that a later pass at a descendant replays only the commits since.
 */
#include "../tokenize/sha1.h"
#include "replay-internal.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A text file: a header and the key, the commits it names (each with the
 * path where it has tokens of its own), the paths, every file at the tip
 * with its origins in runs (commit, count), every change reported, and
 * which commit is the tip.  Hashes and lines are not kept: they are read
 * again from the views when a later diff needs them (read_lazy).
 */
#define CHECKPOINT_FORMAT "tokstream replay checkpoint "
#define CHECKPOINT_HEADER CHECKPOINT_FORMAT "2\n"

void checkpoint_save(struct replay *r)
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
int checkpoint_load(struct replay *r, const char *dir, const char *tip)
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
		v->lazy = r->unit == REPLAY_TOKENS;
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
	r->first_new = r->end_new = nc;
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

