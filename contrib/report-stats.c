/*
 * The figures the sections are made of: the commits of the blames with
 * their authors, dates and eras, the authors ranked by lines and by
 * tokens, each file's owners and the distance between its two counts.
 */
#include "report.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A share of total as a percentage with two decimals. */
const char *pct(double n, double total)
{
	static char buf[8][32];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%.2f", total > 0 ? 100.0 * n / total : 0.0);
	return buf[k];
}

double absd(double x)
{
	return x < 0 ? -x : x;
}

int year_of(long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	return tm.tm_year + 1900;
}

size_t commit_of(struct report *rep, const char *id)
{
	int isnew;
	size_t *v = smap_put(&rep->commit_index, id, rep->nr_commits, &isnew);

	if (isnew) {
		ALLOC_GROW(rep->commits, rep->nr_commits + 1, rep->alloc_commits);
		memset(&rep->commits[rep->nr_commits], 0, sizeof(*rep->commits));
		memcpy(rep->commits[rep->nr_commits].id, id, 41);
		rep->nr_commits++;
	}
	return *v;
}

/*
 * The author times and identities of the commits, from the line
 * repository: each commit's name and address through the mailmap (the
 * report's; as written with --no-mailmap) and as the commit writes them,
 * for the .mailmap lines report-people.c suggests.
 */
void commit_details(struct report *rep)
{
	const char *argv[] = { "git", "log", "--no-walk=unsorted", "--stdin", "-z",
			       rep->opt.no_mailmap ? "--format=%H %at %an%n%ae%n%an%n%ae"
						   : "--format=%H %at %aN%n%aE%n%an%n%ae", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *next;
	size_t i;

	if (!rep->nr_commits)
		return;
	for (i = 0; i < rep->nr_commits; i++)
		strbuf_addf(&in, "%s\n", rep->commits[i].id);
	if (run_capture_input(argv, rep->line_repo.buf, &in, &out))
		die("git log failed in '%s'", rep->line_repo.buf);
	for (p = out.buf; p < out.buf + out.len; p = next) {
		char *end;
		size_t *v;
		long long t;

		next = p + strlen(p) + 1;

		if (strlen(p) < 42 || p[40] != ' ')
			continue;
		p[40] = '\0';
		v = smap_get(&rep->commit_index, p);
		t = strtoll(p + 41, &end, 10);
		if (!v || *end != ' ')
			continue;
		rep->commits[*v].time = t;
		rep->commits[*v].ident = identity_of(rep, end + 1);
		rep->commits[*v].known = 1;
	}
	for (i = 0; i < rep->nr_commits; i++)
		if (!rep->commits[i].known)
			die("commit %s is not in '%s'", rep->commits[i].id, rep->line_repo.buf);
	strbuf_release(&in);
	strbuf_release(&out);
}

/*
 * The authors, one per name the report counts (an identity's author,
 * so after find_identities()), with the lines and tokens of their
 * commits; and which of them are bots.
 */
void index_authors(struct report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr_commits; i++) {
		struct gcommit *c = &rep->commits[i];
		int isnew;
		size_t *v;

		c->author = rep->idents[c->ident].author;
		v = smap_put(&rep->author_index, c->author, rep->nr_authors, &isnew);
		if (isnew) {
			ALLOC_GROW(rep->authors, rep->nr_authors + 1, rep->alloc_authors);
			memset(&rep->authors[rep->nr_authors], 0, sizeof(*rep->authors));
			rep->authors[rep->nr_authors].name = c->author;
			rep->authors[rep->nr_authors].bot = is_bot_name(c->author);
			rep->nr_authors++;
		}
		c->author_idx = *v;
		rep->authors[*v].lines += c->lines;
		rep->authors[*v].tokens += c->tokens;
		rep->authors[*v].unmoved += c->unmoved;
	}
}

/* The era of each commit: the first source (oldest first) that has it. */
void commit_eras(struct report *rep)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	int k;
	size_t i;

	for (i = 0; i < rep->nr_commits; i++)
		rep->commits[i].era = rep->nr_sources > 1 ? 0 : 1;
	for (k = 0; k < rep->nr_sources - 1; k++) {
		const char *argv[] = { "git", "cat-file", "--batch-check=%(objectname) %(objecttype)", NULL };
		char *p, *nl;

		strbuf_reset(&in);
		strbuf_reset(&out);
		for (i = 0; i < rep->nr_commits; i++)
			if (!rep->commits[i].era)
				strbuf_addf(&in, "%s\n", rep->commits[i].id);
		if (!in.len)
			break;
		if (run_capture_input(argv, rep->sources[k].path, &in, &out))
			die("git cat-file failed in '%s'", rep->sources[k].path);
		for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			size_t *v;

			*nl = '\0';
			if (strlen(p) < 41 || strcmp(p + 40, " commit"))
				continue;
			p[40] = '\0';
			v = smap_get(&rep->commit_index, p);
			if (v)
				rep->commits[*v].era = k + 1;
		}
	}
	for (i = 0; i < rep->nr_commits; i++)
		if (!rep->commits[i].era)
			rep->commits[i].era = rep->nr_sources;
	strbuf_release(&in);
	strbuf_release(&out);
}

static int cmp_by_tokens(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The list of all authors: by tokens, then by lines. */
int cmp_all(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_by_lines(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * Ranks the authors by lines and by tokens, bots aside unless
 * --include-bots; the totals are the whole selection's, bots' code too.
 */
void rank_authors(struct report *rep)
{
	size_t i;

	rep->by_tokens = xcalloc(rep->nr_authors + 1, sizeof(*rep->by_tokens));
	rep->by_lines = xcalloc(rep->nr_authors + 1, sizeof(*rep->by_lines));
	rep->bots = xcalloc(rep->nr_authors + 1, sizeof(*rep->bots));
	for (i = 0; i < rep->nr_authors; i++) {
		struct author *a = &rep->authors[i];

		rep->total_lines += a->lines;
		rep->total_tokens += a->tokens;
		if (a->bot) {
			rep->bots[rep->nr_bots++] = a;
			rep->bot_lines += a->lines;
			rep->bot_tokens += a->tokens;
		}
		if (left_out_of_people(rep, a))
			continue;
		if (a->tokens)
			rep->by_tokens[rep->nr_by_tokens++] = a;
		if (a->lines)
			rep->by_lines[rep->nr_by_lines++] = a;
	}
	qsort(rep->by_tokens, rep->nr_by_tokens, sizeof(*rep->by_tokens), cmp_by_tokens);
	qsort(rep->by_lines, rep->nr_by_lines, sizeof(*rep->by_lines), cmp_by_lines);
	qsort(rep->bots, rep->nr_bots, sizeof(*rep->bots), cmp_all);
	for (i = 0; i < rep->nr_by_tokens; i++)
		rep->by_tokens[i]->rank_tokens = i + 1;
	for (i = 0; i < rep->nr_by_lines; i++)
		rep->by_lines[i]->rank_lines = i + 1;
}

/*
 * The total variation distance between two distributions over authors,
 * given as counts: half the sum of the differences of the shares, in
 * percent; the share of the code that changes hands between the counts.
 */
double distance(const size_t *l, const size_t *t, size_t n, size_t lt, size_t tt)
{
	double d = 0;
	size_t i;

	if (!lt || !tt)
		return 0;
	for (i = 0; i < n; i++)
		d += absd((double)l[i] / (double)lt - (double)t[i] / (double)tt);
	return 50.0 * d;
}

/* A file's owners: the most tokens first, then the most lines, then by name. */
static int cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* A file's owners among the people (bots aside unless --include-bots), the most tokens first. */
size_t file_owners(struct report *rep, struct rfile *f, struct owner **out)
{
	struct owner *o = NULL;
	size_t nr = 0, alloc = 0, i, j;

	for (i = 0; i < f->nr_c; i++) {
		size_t a = rep->commits[f->c[i].commit].author_idx;

		if (left_out_of_people(rep, &rep->authors[a]))
			continue;
		for (j = 0; j < nr && o[j].author != a; j++)
			;
		if (j == nr) {
			ALLOC_GROW(o, nr + 1, alloc);
			o[nr].author = a;
			o[nr].name = rep->authors[a].name;
			o[nr].lines = o[nr].tokens = o[nr].unmoved = 0;
			nr++;
		}
		o[j].lines += f->c[i].lines;
		o[j].tokens += f->c[i].tokens;
		o[j].unmoved += f->c[i].unmoved;
	}
	if (nr)
		qsort(o, nr, sizeof(*o), cmp_owner);
	*out = o;
	return nr;
}

int compares_unmoved(const struct report *rep)
{
	return rep->ctx.engine.min_move && !rep->opt.move;
}

size_t compared_tokens(const struct report *rep, size_t tokens, size_t unmoved)
{
	return compares_unmoved(rep) ? unmoved : tokens;
}

/*
 * Each file's distance, between its people's shares (of what the people
 * own) by lines and by tokens as compared; and between their shares by
 * tokens with moves and without, what moves alone change.
 */
void file_distances(struct report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nr_files; i++) {
		struct owner *o;
		size_t nr = file_owners(rep, &rep->files[i], &o), lines = 0, tokens = 0, compared = 0, unmoved = 0;
		size_t *l = xcalloc(nr + 1, sizeof(*l)), *t = xcalloc(nr + 1, sizeof(*t));
		size_t *c = xcalloc(nr + 1, sizeof(*c)), *u = xcalloc(nr + 1, sizeof(*u));

		for (j = 0; j < nr; j++) {
			l[j] = o[j].lines;
			t[j] = o[j].tokens;
			u[j] = o[j].unmoved;
			c[j] = compared_tokens(rep, t[j], u[j]);
			lines += l[j];
			tokens += t[j];
			unmoved += u[j];
			compared += c[j];
		}
		rep->files[i].distance = distance(l, c, nr, lines, compared);
		rep->files[i].moves_distance = distance(t, u, nr, tokens, unmoved);
		free(l);
		free(t);
		free(c);
		free(u);
		free(o);
	}
}

/* Author (as the report counts it), date and subject of the commits ids. */
void commit_subjects(struct report *rep, char (*ids)[41], size_t n, struct detail *d)
{
	const char *argv[] = { "git", "log", "--no-walk=unsorted", "--stdin", "-z",
			       rep->opt.no_mailmap ? "--format=%H %at %an%n%s" : "--format=%H %at %aN%n%s", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *next;
	size_t i;

	for (i = 0; i < n; i++) {
		d[i].author = d[i].subject = NULL;
		day_of(0, d[i].day, sizeof(d[i].day));
		strbuf_addf(&in, "%s\n", ids[i]);
	}
	if (!n)
		return;
	if (run_capture_input(argv, rep->line_repo.buf, &in, &out))
		die("git log failed in '%s'", rep->line_repo.buf);
	for (p = out.buf; p < out.buf + out.len; p = next) {
		char *nl = strchr(p, '\n'), *end;

		next = p + strlen(p) + 1;

		if (!nl || strlen(p) < 42 || p[40] != ' ')
			continue;
		*nl = '\0';
		for (i = 0; i < n; i++)
			if (!strncmp(ids[i], p, 40) && !d[i].author) {
				day_of(strtoll(p + 41, &end, 10), d[i].day, sizeof(d[i].day));
				d[i].author = xstrdup(merged_name(rep, *end == ' ' ? end + 1 : ""));
				d[i].subject = xstrdup(nl + 1);
			}
	}
	strbuf_release(&in);
	strbuf_release(&out);
}

size_t people_tokens(const struct report *rep)
{
	size_t i, tokens = 0;

	for (i = 0; i < rep->nr_by_tokens; i++)
		tokens += rep->by_tokens[i]->tokens;
	return tokens;
}

/*
 * Since every token has exactly one author, the tokens a set of authors
 * holds is the sum of theirs: the k authors with the most tokens hold
 * the most any k can, so taking them greedily, the most first, gives the
 * fewest authors that reach need (no set search needed).
 */
size_t fewest_owners(const struct share *owners, size_t nr, size_t need)
{
	size_t k, held = 0;

	for (k = 0; k < nr && held < need; k++)
		held += owners[k].tokens;
	return held >= need ? k : nr + 1;
}

size_t people_of_files(struct report *rep, struct file_people **out)
{
	struct file_people *files = xcalloc(rep->nr_files + 1, sizeof(*files));
	size_t nr = 0, i, j;

	for (i = 0; i < rep->nr_files; i++) {
		struct rfile *f = &rep->files[i];
		struct file_people *fp = &files[nr];
		struct owner *o;
		size_t no;

		if (f->skipped)
			continue;
		no = file_owners(rep, f, &o);
		fp->path = f->path;
		fp->owners = xcalloc(no + 1, sizeof(*fp->owners));
		for (j = 0; j < no; j++) {
			fp->tokens += o[j].tokens;
			if (!o[j].tokens)
				continue;
			fp->owners[fp->nr_owners].author = o[j].author;
			fp->owners[fp->nr_owners].tokens = o[j].tokens;
			fp->owners[fp->nr_owners++].name = o[j].name;
		}
		free(o);
		nr++;
	}
	*out = files;
	return nr;
}

void free_file_people(struct file_people *files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(files[i].owners);
	free(files);
}

/* An author's tokens in a directory, one row per file and owner before they are summed. */
struct dir_share {
	size_t dir, author, tokens;
	const char *name;
};

static int cmp_dir_share(const void *a, const void *b)
{
	const struct dir_share *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return (x->author > y->author) - (x->author < y->author);
}

/* Owners: the most tokens first, then by name. */
static int cmp_share(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The directory of path at depth (0: the root), "." for the root. */
static char *dir_at(const char *path, size_t depth)
{
	const char *p = path;
	size_t d;

	if (!depth)
		return xstrdup(".");
	for (d = 0; d < depth; d++)
		p = strchr(p, '/') + 1;
	return xstrfmt("%.*s", (int)(p - path - 1), path);
}

static size_t depth_of(const char *path)
{
	size_t n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/* The index of directory path in *dirs, added when new. */
static size_t dir_index(struct smap *index, struct dir_tally **dirs, size_t *nr, size_t *alloc, char *path,
			size_t depth)
{
	int isnew;
	size_t *v = smap_put(index, path, *nr, &isnew);

	if (!isnew) {
		free(path);
		return *v;
	}
	ALLOC_GROW(*dirs, *nr + 1, *alloc);
	memset(&(*dirs)[*nr], 0, sizeof(**dirs));
	(*dirs)[*nr].path = path;
	(*dirs)[*nr].depth = depth;
	return (*nr)++;
}

/* Sums the rows of each directory and author into the directories' owners. */
static void sum_dir_shares(struct dir_share *rows, size_t nr_rows, struct dir_tally *dirs)
{
	size_t i, j;

	if (nr_rows)
		qsort(rows, nr_rows, sizeof(*rows), cmp_dir_share);
	for (i = 0; i < nr_rows; i = j) {
		struct dir_tally *d = &dirs[rows[i].dir];
		size_t tokens = 0, nr = d->nr_owners;

		for (j = i; j < nr_rows && rows[j].dir == rows[i].dir && rows[j].author == rows[i].author; j++)
			tokens += rows[j].tokens;
		d->owners = xrealloc(d->owners, (nr + 1) * sizeof(*d->owners));
		d->owners[nr].author = rows[i].author;
		d->owners[nr].tokens = tokens;
		d->owners[nr].name = rows[i].name;
		d->nr_owners++;
	}
}

static int cmp_dir_path(const void *a, const void *b)
{
	return strcmp(((const struct dir_tally *)a)->path, ((const struct dir_tally *)b)->path);
}

size_t tally_directories(const struct file_people *files, size_t nr_files, struct dir_tally **out)
{
	struct smap index = SMAP_INIT;
	struct dir_tally *dirs = NULL;
	struct dir_share *rows = NULL;
	size_t nr = 0, alloc = 0, nr_rows = 0, alloc_rows = 0, i, j, depth;

	for (i = 0; i < nr_files; i++) {
		const struct file_people *f = &files[i];
		size_t file_depth = depth_of(f->path);

		for (depth = 0; depth <= file_depth; depth++) {
			size_t d = dir_index(&index, &dirs, &nr, &alloc, dir_at(f->path, depth), depth);

			dirs[d].files++;
			for (j = 0; j < f->nr_owners; j++) {
				ALLOC_GROW(rows, nr_rows + 1, alloc_rows);
				rows[nr_rows].dir = d;
				rows[nr_rows].author = f->owners[j].author;
				rows[nr_rows].name = f->owners[j].name;
				rows[nr_rows++].tokens = f->owners[j].tokens;
				dirs[d].tokens += f->owners[j].tokens;
			}
		}
	}
	sum_dir_shares(rows, nr_rows, dirs);
	for (i = 0; i < nr; i++)
		if (dirs[i].nr_owners)
			qsort(dirs[i].owners, dirs[i].nr_owners, sizeof(*dirs[i].owners), cmp_share);
	if (nr)
		qsort(dirs, nr, sizeof(*dirs), cmp_dir_path);
	free(rows);
	smap_release(&index);
	*out = dirs;
	return nr;
}

void free_dir_tallies(struct dir_tally *dirs, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(dirs[i].path);
		free(dirs[i].owners);
	}
	free(dirs);
}
