/*
 * The code age over time (see age.h).
 *
 * The points are commits of REV's history in the source: the tags whose
 * commit is REV or an ancestor of it, or the last commit of each year on
 * REV's first-parent line, and REV itself.  What a point counts is what
 * the report counts at REV: the files its pathspec selects there, with a
 * view in the token tree (list_files' rule), each line by the commit the
 * line blame gives it and each token by the attribution engine's, the
 * commit's author date giving the year.  Both replays of the whole
 * history (tokens, lines) stop at every point (on_sample) and count its
 * tree there, so that the points cost one pass, not a blame each.
 *
 * The counts of a commit never change (its history is fixed), so they are
 * kept in the report's cache by commit: a later report counts only the
 * points it has not seen, REV mostly, and its replays can start from the
 * checkpoint, which has gone past the older points.
 */
#include "age.h"
#include "../tokenize/smap.h"
#include "../tokenize/language.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/view.h"
#include "../tokenize/wrapper.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SIZE_MAX
#define CACHE_HEADER "tokstream age 1\n"

/* A commit of the history of REV, in the source or in DEST. */
struct hist {
	char tree[41], parent[41];   /* parent: the first, "" for none (the source only) */
	char *merged;                /* the other parents' ids, each followed by a space; NULL: none */
	long long committed;
	int year;                    /* of its author date */
	size_t line;                 /* the place on REV's first-parent line (0: REV) of the commit that
					brought this one into it, NONE before line_positions() */
};

/* The commits of a history, by id. */
struct history {
	struct smap index;
	struct hist *v;
	size_t nr, alloc;
};

/* A commit that is a point (several tags may name one). */
struct point {
	char orig[41], token[41];
	size_t hist;                 /* in the source's history: its position is its age there */
	int is_rev, cached, done[2]; /* done: counted by the token replay [0], the line replay [1] */
	size_t *count[2];            /* tokens and lines by year, from the earliest year */
	unsigned char *counted;      /* by path: the file counts */
	struct age_year *years;      /* the result (or the cache's) */
	size_t nr_years, alloc_years;
};

struct sample {
	char *name;
	size_t point;
	size_t joined;               /* tags off REV's first-parent line counted at this point */
	long long tagged;            /* the committer date of the newest such tag's commit */
	/* its point's place, for the order (sort_samples) */
	int is_rev;
	size_t line, hist;
	long long committed;
};

/* A file changed between two points, in the source or in DEST. */
struct tree_change {
	size_t point, path;
	unsigned mode;               /* 0: no file */
	char blob[41];
};

/* What one replay (tokens or lines) counts and how it finds years. */
struct side {
	struct age *age;
	int lines;
	struct smap want;            /* commit -> point, those this replay must count */
	const struct history *hist;  /* where its commits' author years are */
	const struct replay *memo_for;
	int *memo;                   /* by the replay's commit number: year - min_year, -1 unknown */
	size_t nr_memo;
	size_t counted;              /* points counted (each side in its own thread) */
};

/*
 * Everything one code age knows, made by age_begin() and passed to every
 * step; the report counts it in two threads (the token replay and the
 * line replay), each through a side of its own.
 */
struct age {
	struct age_options opt;
	struct blame_ctx *ctx;
	struct history src_hist, tok_hist;
	int min_year, nr_years;      /* the author dates' years, in both histories */
	struct point *points;
	size_t nr_points, alloc_points;
	struct smap point_index;
	char (*line_ids)[41];        /* REV's first-parent line: REV at 0 */
	size_t nr_line, alloc_line;
	struct sample *samples;
	size_t nr_samples, alloc_samples;
	struct smap paths;
	char **path_names;
	size_t nr_paths, alloc_paths;
	struct side sides[2];
};

int age_parse_every(const char *s, enum age_every *every)
{
	if (!strcmp(s, "tag"))
		*every = AGE_EVERY_TAG;
	else if (!strcmp(s, "year"))
		*every = AGE_EVERY_YEAR;
	else
		return -1;
	return 0;
}

/* "%H %T %at %ct %P" of every commit of tip's history in dir. */
static void read_history(struct age *a, struct history *h, const char *dir, const char *tip)
{
	const char *argv[] = { "git", "log", "--format=%H %T %at %ct %P", tip, "--", NULL };
	struct strbuf out = STRBUF_INIT;
	char *p, *nl;

	if (run_capture(argv, dir, &out))
		die("git log %s failed in '%s'", tip, dir);
	for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		struct hist *c;
		char *end;
		int isnew;

		*nl = '\0';
		if (nl - p < 82 || p[40] != ' ' || p[81] != ' ')
			die("unexpected output of git log in '%s': %s", dir, p);
		ALLOC_GROW(h->v, h->nr + 1, h->alloc);
		c = &h->v[h->nr];
		memcpy(c->tree, p + 41, 40);
		c->tree[40] = '\0';
		c->year = a->opt.year_of(strtoll(p + 82, &end, 10));
		c->committed = strtoll(end, &end, 10);
		c->parent[0] = '\0';
		c->merged = NULL;
		c->line = NONE;
		if (*end == ' ' && strlen(end + 1) >= 40) {
			memcpy(c->parent, end + 1, 40);
			c->parent[40] = '\0';
			if (end[41] == ' ')
				c->merged = xstrfmt("%s ", end + 42);
		}
		p[40] = '\0';
		smap_put(&h->index, p, h->nr, &isnew);
		h->nr++;
		if (!a->nr_years) {
			a->min_year = c->year;
			a->nr_years = 1;
		} else if (c->year < a->min_year) {
			a->nr_years += a->min_year - c->year;
			a->min_year = c->year;
		} else if (c->year >= a->min_year + a->nr_years) {
			a->nr_years = c->year - a->min_year + 1;
		}
	}
	strbuf_release(&out);
}

/* The point of commit orig (of the source's history), made when new. */
static size_t point_of(struct age *a, const char *orig)
{
	size_t *at = smap_get(&a->src_hist.index, orig), *k;
	const char *token;
	struct point *pt;
	int isnew;

	if (!at)
		BUG("a point outside the history");
	k = smap_put(&a->point_index, orig, a->nr_points, &isnew);
	if (!isnew)
		return *k;
	token = oid_map_token(&a->ctx->map, orig);
	if (!token)
		die("commit %s of '%s' is not in the token repository: run tokstream convert",
		    orig, a->opt.line_repo);
	ALLOC_GROW(a->points, a->nr_points + 1, a->alloc_points);
	pt = &a->points[a->nr_points];
	memset(pt, 0, sizeof(*pt));
	memcpy(pt->orig, orig, 41);
	memcpy(pt->token, token, 41);
	pt->hist = *at;
	return a->nr_points++;
}

static void add_sample(struct age *a, const char *name, size_t point)
{
	size_t k;

	for (k = 0; k < a->nr_samples; k++)
		if (a->samples[k].point == point && !strcmp(a->samples[k].name, name))
			return;
	ALLOC_GROW(a->samples, a->nr_samples + 1, a->alloc_samples);
	memset(&a->samples[a->nr_samples], 0, sizeof(*a->samples));
	a->samples[a->nr_samples].name = xstrdup(name);
	a->samples[a->nr_samples].point = point;
	a->nr_samples++;
}

/*
 * Where each commit of REV's history came into REV's first-parent line:
 * the place (0: REV, 1: its first parent...) of the oldest commit of the
 * line that has it.  A line commit is its own place; the rest are found
 * from each merge of the line, the oldest first, through the parents
 * it brought in, stopping at commits already placed.
 */
static void line_positions(struct age *a)
{
	size_t *stack = NULL, nr_stack = 0, alloc_stack = 0, k;
	const char *id = a->ctx->orig;
	size_t *at = smap_get(&a->src_hist.index, id);

	while (at && a->src_hist.v[*at].line == NONE) {
		ALLOC_GROW(a->line_ids, a->nr_line + 1, a->alloc_line);
		memcpy(a->line_ids[a->nr_line], id, 41);
		a->src_hist.v[*at].line = a->nr_line++;
		id = a->src_hist.v[*at].parent;
		at = *id ? smap_get(&a->src_hist.index, id) : NULL;
	}
	for (k = a->nr_line; k-- > 0;) {
		const char *p = a->src_hist.v[*smap_get(&a->src_hist.index, a->line_ids[k])].merged;
		char pid[41];

		for (; p && *p; p += 41) {
			memcpy(pid, p, 40);
			pid[40] = '\0';
			at = smap_get(&a->src_hist.index, pid);
			if (!at || a->src_hist.v[*at].line != NONE)
				continue;
			ALLOC_GROW(stack, nr_stack + 1, alloc_stack);
			stack[nr_stack++] = *at;
			a->src_hist.v[*at].line = k;
			while (nr_stack) {
				const struct hist *c = &a->src_hist.v[stack[--nr_stack]];
				const char *q = c->parent[0] ? c->parent : NULL;

				/* the first parent, then the others */
				while (q && *q) {
					memcpy(pid, q, 40);
					at = smap_get(&a->src_hist.index, pid);
					if (at && a->src_hist.v[*at].line == NONE) {
						a->src_hist.v[*at].line = k;
						ALLOC_GROW(stack, nr_stack + 1, alloc_stack);
						stack[nr_stack++] = *at;
					}
					q = q == c->parent ? c->merged : q + 41;
				}
			}
		}
	}
	free(stack);
}

/*
 * A tag of commit id: its point is the commit itself when it is on REV's
 * first-parent line, else the commit of the line that brought it in (a
 * maintenance line's release counts where REV's line took it), so that
 * the a->points follow REV's line in order and the tags of two lines never
 * alternate.  Several tags so brought in at one commit make one point,
 * named by the newest.
 */
static void add_tag(struct age *a, const char *name, const char *id)
{
	size_t *at = smap_get(&a->src_hist.index, id), point, k;
	const struct hist *c;

	if (!at)
		return;
	c = &a->src_hist.v[*at];
	if (!strcmp(a->line_ids[c->line], id)) {
		add_sample(a, name, point_of(a, id));
		return;
	}
	point = point_of(a, a->line_ids[c->line]);
	for (k = 0; k < a->nr_samples && !(a->samples[k].point == point && a->samples[k].joined); k++)
		;
	if (k == a->nr_samples) {
		add_sample(a, name, point);
		a->samples[k].tagged = c->committed;
	} else if (c->committed > a->samples[k].tagged ||
		   (c->committed == a->samples[k].tagged && strcmp(name, a->samples[k].name) > 0)) {
		free(a->samples[k].name);
		a->samples[k].name = xstrdup(name);
		a->samples[k].tagged = c->committed;
	}
	a->samples[k].joined++;
}

/* A point that stands for several tags is named by the newest and how many more. */
static void name_joined(struct age *a)
{
	size_t k;

	for (k = 0; k < a->nr_samples; k++)
		if (a->samples[k].joined > 1) {
			char *name = xstrfmt("%s +%zu", a->samples[k].name, a->samples[k].joined - 1);

			free(a->samples[k].name);
			a->samples[k].name = name;
		}
}

/* Each tag of the repositories whose commit is in REV's history (git show-ref peels them). */
static void tag_points(struct age *a)
{
	struct strbuf out = STRBUF_INIT, name = STRBUF_INIT, last = STRBUF_INIT;
	char id[41];
	size_t k;

	for (k = 0; k < a->opt.nr_tag_repos; k++) {
		const char *argv[] = { "git", "show-ref", "--tags", "-d", NULL };
		char *p, *nl;

		/* "ID refs/tags/NAME", then "ID refs/tags/NAME^{}" for a tag object: its commit */
		strbuf_reset(&out);
		strbuf_reset(&last);
		if (run_capture_quiet(argv, a->opt.tag_repos[k], &out))
			continue;  /* no tags */
		strbuf_addch(&out, '\n');
		for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			int peeled;

			*nl = '\0';
			strbuf_reset(&name);
			if (nl - p > 51 && p[40] == ' ' && !strncmp(p + 41, "refs/tags/", 10))
				strbuf_addstr(&name, p + 51);
			peeled = name.len > 3 && !strcmp(name.buf + name.len - 3, "^{}");
			if (peeled)
				strbuf_setlen(&name, name.len - 3);
			if (last.len && (!peeled || strcmp(name.buf, last.buf))) {
				add_tag(a, last.buf, id);
				strbuf_reset(&last);
			}
			if (!name.len)
				continue;
			memcpy(id, p, 40);
			id[40] = '\0';
			strbuf_reset(&last);
			strbuf_addbuf(&last, &name);
		}
	}
	name_joined(a);
	strbuf_release(&out);
	strbuf_release(&name);
	strbuf_release(&last);
}

/* The newest commit of each year (committer date) on REV's first-parent line. */
static void year_points(struct age *a)
{
	size_t *at = smap_get(&a->src_hist.index, a->ctx->orig), nr_seen = 0, alloc_seen = 0, k;
	int *seen = NULL;
	char id[41], name[32];

	memcpy(id, a->ctx->orig, 41);
	while (at) {
		const struct hist *c = &a->src_hist.v[*at];
		int y = a->opt.year_of(c->committed);

		for (k = 0; k < nr_seen && seen[k] != y; k++)
			;
		if (k == nr_seen) {
			ALLOC_GROW(seen, nr_seen + 1, alloc_seen);
			seen[nr_seen++] = y;
			snprintf(name, sizeof(name), "%d", y);
			add_sample(a, name, point_of(a, id));
		}
		if (!c->parent[0])
			break;
		memcpy(id, c->parent, 41);
		at = smap_get(&a->src_hist.index, id);
	}
	free(seen);
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	/* along REV's first-parent line, the oldest first; REV last */
	if (x->is_rev != y->is_rev)
		return x->is_rev - y->is_rev;
	if (x->line != y->line)
		return x->line > y->line ? -1 : 1;
	if (x->committed != y->committed)
		return x->committed < y->committed ? -1 : 1;
	if (x->hist != y->hist)
		return x->hist > y->hist ? -1 : 1;  /* git log lists the newer first */
	return strcmp(x->name, y->name);
}

/* The samples in the order of their points in REV's history (cmp_sample). */
static void sort_samples(struct age *a)
{
	size_t k;

	for (k = 0; k < a->nr_samples; k++) {
		struct sample *sm = &a->samples[k];
		const struct point *pt = &a->points[sm->point];

		sm->is_rev = pt->is_rev;
		sm->hist = pt->hist;
		sm->line = a->src_hist.v[pt->hist].line;
		sm->committed = a->src_hist.v[pt->hist].committed;
	}
	qsort(a->samples, a->nr_samples, sizeof(*a->samples), cmp_sample);
}

static void add_year(struct point *pt, int year, size_t lines, size_t tokens)
{
	ALLOC_GROW(pt->years, pt->nr_years + 1, pt->alloc_years);
	pt->years[pt->nr_years].year = year;
	pt->years[pt->nr_years].lines = lines;
	pt->years[pt->nr_years].tokens = tokens;
	pt->nr_years++;
}

/* "ORIG TOKEN YEAR LINES TOKENS" by year, or "ORIG TOKEN - 0 0" for a point without code. */
static void read_cache(struct age *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *p, *nl;
	size_t k;

	if (strbuf_read_file(&sb, a->opt.cache) < 0 || strncmp(sb.buf, CACHE_HEADER, strlen(CACHE_HEADER)))
		goto out;
	for (p = sb.buf + strlen(CACHE_HEADER); (nl = strchr(p, '\n')); p = nl + 1) {
		size_t *at, lines, tokens;
		char year[16];
		int n = 0;

		*nl = '\0';
		if (nl - p < 87 || p[40] != ' ' || p[81] != ' ' ||
		    sscanf(p + 82, "%15s %zu %zu%n", year, &lines, &tokens, &n) != 3 || p[82 + n])
			goto damaged;
		p[40] = p[81] = '\0';
		at = smap_get(&a->point_index, p);
		if (!at || strcmp(a->points[*at].token, p + 41))
			continue;
		a->points[*at].cached = 1;
		if (strcmp(year, "-"))
			add_year(&a->points[*at], atoi(year), lines, tokens);
	}
	goto out;
damaged:
	warning("the code age cache '%s' is damaged: counting every point again", a->opt.cache);
	for (k = 0; k < a->nr_points; k++) {
		a->points[k].cached = 0;
		a->points[k].nr_years = 0;
	}
out:
	strbuf_release(&sb);
}

static size_t path_id(struct age *a, const char *path)
{
	int isnew;
	size_t *id = smap_put(&a->paths, path, a->nr_paths, &isnew);

	if (isnew) {
		ALLOC_GROW(a->path_names, a->nr_paths + 1, a->alloc_paths);
		a->path_names[a->nr_paths++] = xstrdup(path);
	}
	return *id;
}

/*
 * The files that change from each tree to the next (the first from the
 * empty tree), in dir: `git diff-tree --stdin` prints "TREE TREE" and a
 * newline before each pair's raw entries.  With a pathspec (nr_ps 0 or
 * more: none selects every file), the files it selects, as
 * blame_select_paths() selects them; with nr_ps -1, only the a->paths
 * already known.
 */
static void tree_changes(struct age *a, const char *dir, char (*trees)[41], const size_t *point, size_t n,
			 const char **ps, int nr_ps, struct tree_change **out, size_t *nr_out)
{
	const char *empty_argv[] = { "git", "hash-object", "-t", "tree", "/dev/null", NULL };
	struct strvec argv = STRVEC_INIT;
	int pathspec = nr_ps >= 0;
	struct strbuf in = STRBUF_INIT, res = STRBUF_INIT, empty = STRBUF_INIT;
	size_t alloc = 0, k, pair = NONE;
	char *p, *end;
	int i;

	if (run_capture(empty_argv, dir, &empty) || empty.len < 40)
		die("git hash-object failed in '%s'", dir);
	strbuf_setlen(&empty, 40);
	for (k = 0; k < n; k++)
		strbuf_addf(&in, "%s %s\n", k ? trees[k - 1] : empty.buf, trees[k]);
	strvec_pushl(&argv, "git", "diff-tree", "--stdin", "-r", "-z", "--raw", "--no-renames",
		     "--no-abbrev", "--", NULL);
	for (i = 0; i < nr_ps; i++)
		strvec_push(&argv, ps[i]);
	if (run_capture_input(argv.v, dir, &in, &res))
		die("git diff-tree failed in '%s' (a bad pathspec?)", dir);
	for (p = res.buf, end = res.buf + res.len; p < end;) {
		struct tree_change *c;
		const char *rec, *path;
		size_t *known;

		while (end - p >= 82 && *p != ':' && p[40] == ' ' && p[81] == '\n') {
			pair = pair == NONE ? 0 : pair + 1;
			p += 82;
		}
		if (p >= end)
			break;
		/* ":OLDMODE NEWMODE OLD NEW STATUS", NUL, the path, NUL */
		rec = p;
		path = rec + strlen(rec) + 1;
		if (pair >= n || *rec != ':' || strlen(rec) < 98 || path >= end)
			die("unexpected output of git diff-tree in '%s'", dir);
		p = (char *)path + strlen(path) + 1;
		known = pathspec ? NULL : smap_get(&a->paths, path);
		if (!pathspec && !known)
			continue;
		ALLOC_GROW(*out, *nr_out + 1, alloc);
		c = &(*out)[(*nr_out)++];
		c->point = point[pair];
		c->path = known ? *known : path_id(a, path);
		c->mode = rec[97] == 'D' ? 0 : (unsigned)strtoul(rec + 8, NULL, 8);
		memcpy(c->blob, rec + 56, 40);
		c->blob[40] = '\0';
	}
	if (pair + 1 != n)
		die("unexpected output of git diff-tree in '%s'", dir);
	strvec_clear(&argv);
	strbuf_release(&in);
	strbuf_release(&res);
	strbuf_release(&empty);
}

/*
 * Whether the token tree's copy of a file, the same blob, is its view: a
 * view that reads as the file itself.  Otherwise the file is kept as it
 * is (--keep-other: no lexer claims it, or it is binary), and the report
 * skips it.
 */
static int is_own_view(struct age *a, const char *path, const char *blob)
{
	const char *argv[] = { "git", "cat-file", "blob", blob, NULL };
	struct strbuf content = STRBUF_INIT, view = STRBUF_INIT;
	const struct language *lang;
	int ret = 0;

	if (run_capture(argv, a->opt.line_repo, &content))
		die("git cat-file blob %s failed in '%s'", blob, a->opt.line_repo);
	lang = language_for_file(path, content.buf, content.len);
	if (lang && lang != &language_none) {
		view_build(&view, lang, content.buf, content.len, 0);
		ret = view.len == content.len && !memcmp(view.buf, content.buf, view.len);
	}
	strbuf_release(&content);
	strbuf_release(&view);
	return ret;
}

struct file_state {
	unsigned src_mode, tok_mode;
	char src_blob[41], tok_blob[41];
};

static int is_regular(unsigned mode)
{
	return mode == 0100644 || mode == 0100755;
}

/*
 * Which files count at each point not in the cache (ordered by the
 * history): its selected regular files that have a view in the token
 * tree, as list_files() finds them at REV.
 */
static void files_that_count(struct age *a)
{
	size_t *todo = xcalloc(a->nr_points + 1, sizeof(*todo)), n = 0, k, i;
	char (*src_trees)[41], (*tok_trees)[41];
	struct tree_change *change[3] = { NULL, NULL, NULL };
	size_t nr_change[3] = { 0, 0, 0 };
	signed char *rule;
	int pass;

	for (k = 0; k < a->nr_samples; k++) {
		size_t pt = a->samples[k].point;

		for (i = 0; i < n && todo[i] != pt; i++)
			;
		if (i == n && !a->points[pt].cached)
			todo[n++] = pt;
	}
	if (!n) {
		free(todo);
		return;
	}
	/* the token history: only to count (when every point is in the cache, not read) */
	read_history(a, &a->tok_hist, a->ctx->gitdir.buf, a->ctx->token);
	src_trees = xcalloc(n, sizeof(*src_trees));
	tok_trees = xcalloc(n, sizeof(*tok_trees));
	for (k = 0; k < n; k++) {
		size_t *at = smap_get(&a->tok_hist.index, a->points[todo[k]].token);

		if (!at)
			die("commit %s of '%s' is not in the token history of %s: run tokstream convert",
			    a->points[todo[k]].orig, a->opt.line_repo, a->ctx->token);
		memcpy(src_trees[k], a->src_hist.v[a->points[todo[k]].hist].tree, 41);
		memcpy(tok_trees[k], a->tok_hist.v[*at].tree, 41);
	}
	/* the source's selected files, the token tree's, and what the report leaves out */
	tree_changes(a, a->opt.line_repo, src_trees, todo, n, a->opt.pathspec, a->opt.nr_pathspec, &change[0], &nr_change[0]);
	if (a->opt.nr_exclude)
		tree_changes(a, a->opt.line_repo, src_trees, todo, n, a->opt.exclude, a->opt.nr_exclude, &change[2], &nr_change[2]);
	tree_changes(a, a->ctx->gitdir.buf, tok_trees, todo, n, NULL, -1, &change[1], &nr_change[1]);
	rule = xcalloc(a->nr_paths + 1, sizeof(*rule));
	/* first the blobs the report must read to judge, then the files each point counts */
	for (pass = 0; pass < 2; pass++) {
		struct file_state *st = xcalloc(a->nr_paths + 1, sizeof(*st));
		unsigned *excluded = xcalloc(a->nr_paths + 1, sizeof(*excluded));
		size_t at[3] = { 0, 0, 0 }, nr_judge = 0, alloc_judge = 0;
		char (*judge)[41] = NULL;
		const char **judge_path = NULL;
		struct smap seen = SMAP_INIT;

		for (k = 0; k < n; k++) {
			struct point *pt = &a->points[todo[k]];
			int side;

			for (side = 0; side < 3; side++)
				for (; at[side] < nr_change[side] && change[side][at[side]].point == todo[k]; at[side]++) {
					const struct tree_change *c = &change[side][at[side]];

					if (side == 2) {
						excluded[c->path] = c->mode;
					} else if (side) {
						st[c->path].tok_mode = c->mode;
						memcpy(st[c->path].tok_blob, c->blob, 41);
					} else {
						st[c->path].src_mode = c->mode;
						memcpy(st[c->path].src_blob, c->blob, 41);
					}
				}
			if (pass)
				pt->counted = xcalloc(a->nr_paths + 1, 1);
			for (i = 0; i < a->nr_paths; i++) {
				int isnew;

				if (!is_regular(st[i].src_mode) || !st[i].tok_mode || st[i].tok_mode == 0160000 ||
				    excluded[i])
					continue;
				if (!rule[i])
					rule[i] = a->opt.counts(a->path_names[i]) ? 1 : -1;
				if (rule[i] < 0)
					continue;
				if (!pass) {
					smap_put(&seen, st[i].src_blob, 0, &isnew);
					if (isnew) {
						ALLOC_GROW(judge, nr_judge + 1, alloc_judge);
						judge_path = xrealloc(judge_path, st_mult(alloc_judge, sizeof(*judge_path)));
						memcpy(judge[nr_judge], st[i].src_blob, 41);
						judge_path[nr_judge++] = a->path_names[i];
					}
					continue;
				}
				pt->counted[i] = !a->opt.left_out(a->path_names[i], st[i].src_blob, a->opt.data) &&
					(strcmp(st[i].src_blob, st[i].tok_blob) || is_own_view(a, a->path_names[i], st[i].src_blob));
			}
		}
		if (!pass)
			a->opt.judge(judge, judge_path, nr_judge, a->opt.data);
		free(judge);
		free(judge_path);
		smap_release(&seen);
		free(st);
		free(excluded);
	}
	for (k = 0; k < 3; k++)
		free(change[k]);
	free(rule);
	free(src_trees);
	free(tok_trees);
	free(todo);
}

struct age *age_begin(struct blame_ctx *c, const struct age_options *o)
{
	struct age *a = xcalloc(1, sizeof(*a));
	size_t k;

	a->ctx = c;
	a->opt = *o;
	read_history(a, &a->src_hist, a->opt.line_repo, a->ctx->orig);
	line_positions(a);
	if (a->opt.every == AGE_EVERY_TAG)
		tag_points(a);
	else
		year_points(a);
	k = point_of(a, a->ctx->orig);  /* before a->points[]: it may move them */
	a->points[k].is_rev = 1;
	for (k = 0; k < a->nr_samples && !a->points[a->samples[k].point].is_rev; k++)
		;
	if (k == a->nr_samples) {
		/* named by its id, not as REV was spelt: the tables are the same for HEAD and main */
		char name[8];

		memcpy(name, a->ctx->orig, 7);
		name[7] = '\0';
		add_sample(a, name, point_of(a, a->ctx->orig));
	}
	sort_samples(a);
	read_cache(a);
	files_that_count(a);
	a->sides[0].age = a->sides[1].age = a;
	a->sides[0].hist = &a->tok_hist;
	a->sides[1].lines = 1;
	a->sides[1].hist = &a->src_hist;
	return a;
}

int age_wants(const struct age *a, int lines)
{
	size_t k;

	if (!a)
		return 0;
	if (lines && !a->opt.lines)
		return 0;
	for (k = 0; k < a->nr_points; k++)
		if (!a->points[k].cached && !a->points[k].done[lines])
			return 1;
	return 0;
}

/* The year of origin of a replay's commit, as an index from a->min_year. */
static size_t year_index(struct side *side, const struct replay *r, uint32_t origin)
{
	if (origin >= side->nr_memo) {
		size_t n = origin + 1 > 2 * side->nr_memo ? origin + 1 : 2 * side->nr_memo, k;

		side->memo = xrealloc(side->memo, st_mult(n, sizeof(*side->memo)));
		for (k = side->nr_memo; k < n; k++)
			side->memo[k] = -1;
		side->nr_memo = n;
	}
	if (side->memo[origin] < 0) {
		const char *id = replay_commit(r, origin);
		size_t *at = smap_get(&side->hist->index, id);

		if (!at)
			die("commit %s is not in the history of %s", id,
			    side->lines ? side->age->ctx->orig : side->age->ctx->token);
		side->memo[origin] = side->hist->v[*at].year - side->age->min_year;
	}
	return (size_t)side->memo[origin];
}

struct count {
	struct side *side;
	const struct replay *r;
	struct point *pt;
};

static void count_file(const char *path, const uint32_t *origin, size_t nr, void *data)
{
	struct count *c = data;
	size_t *id = smap_get(&c->side->age->paths, path), *count = c->pt->count[c->side->lines], i = 0, j;

	if (!id || !c->pt->counted[*id])
		return;
	while (i < nr) {
		for (j = i + 1; j < nr && origin[j] == origin[i]; j++)
			;
		count[year_index(c->side, c->r, origin[i])] += j - i;
		i = j;
	}
}

static void on_sample(const struct replay *r, const char *commit, void *data)
{
	struct side *side = data;
	struct age *a = side->age;
	size_t *at = smap_get(&side->want, commit);
	struct count c;

	if (!at || a->points[*at].done[side->lines])
		return;
	if (side->memo_for != r) {
		side->memo_for = r;
		side->nr_memo = 0;
	}
	c.side = side;
	c.r = r;
	c.pt = &a->points[*at];
	c.pt->count[side->lines] = xcalloc((size_t)a->nr_years + 1, sizeof(size_t));
	replay_sample_files(r, count_file, &c);
	c.pt->done[side->lines] = 1;
	side->counted++;
}

size_t age_counted(const struct age *a)
{
	if (!a)
		return 0;
	return a->sides[0].counted + a->sides[1].counted;
}

void age_hook(struct age *a, struct replay_options *o, int lines)
{
	struct side *side = &a->sides[lines];
	size_t k;

	if (!age_wants(a, lines))
		return;
	smap_release(&side->want);
	for (k = 0; k < a->nr_points; k++)
		if (!a->points[k].cached && !a->points[k].done[lines])
			smap_put(&side->want, lines ? a->points[k].orig : a->points[k].token, k, NULL);
	side->memo_for = NULL;
	o->samples = &side->want;
	o->on_sample = on_sample;
	o->sample_data = side;
}

void age_unhook(struct replay_options *o)
{
	o->samples = NULL;
	o->on_sample = NULL;
	o->sample_data = NULL;
}

static void write_cache(struct age *a)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k, y;

	strbuf_addstr(&sb, CACHE_HEADER);
	for (k = 0; k < a->nr_points; k++) {
		const struct point *pt = &a->points[k];

		if (!pt->nr_years)
			strbuf_addf(&sb, "%s %s - 0 0\n", pt->orig, pt->token);
		for (y = 0; y < pt->nr_years; y++)
			strbuf_addf(&sb, "%s %s %d %zu %zu\n", pt->orig, pt->token, pt->years[y].year,
				    pt->years[y].lines, pt->years[y].tokens);
	}
	write_atomic(a->opt.cache, sb.buf, sb.len);
	strbuf_release(&sb);
}

const struct age_sample *age_end(struct age *a, size_t *nr)
{
	struct age_sample *out = xcalloc(a->nr_samples + 1, sizeof(*out));
	size_t k, y;
	int fresh = 0;

	for (k = 0; k < a->nr_points; k++) {
		struct point *pt = &a->points[k];

		if (pt->cached)
			continue;
		if (!pt->done[0] || (a->opt.lines && !pt->done[1]))
			BUG("a point of the code age that no replay counted");
		for (y = 0; y < (size_t)a->nr_years; y++) {
			size_t lines = pt->count[1] ? pt->count[1][y] : 0, tokens = pt->count[0][y];

			if (lines || tokens)
				add_year(pt, a->min_year + (int)y, lines, tokens);
		}
		fresh = 1;
	}
	if (fresh)
		write_cache(a);
	for (k = 0; k < a->nr_samples; k++) {
		const struct point *pt = &a->points[a->samples[k].point];

		out[k].name = a->samples[k].name;
		out[k].orig = pt->orig;
		out[k].time = a->src_hist.v[pt->hist].committed;
		out[k].years = pt->years;
		out[k].nr_years = pt->nr_years;
		for (y = 0; y < pt->nr_years; y++) {
			out[k].lines += pt->years[y].lines;
			out[k].tokens += pt->years[y].tokens;
		}
	}
	*nr = a->nr_samples;
	return out;
}
