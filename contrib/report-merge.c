/*
 * tokstream report --merge OUTDIR DIR...: one report over many
 * repositories, from the report.json of each.
 *
 * An organisation's repositories are independent conversions, run as
 * jobs of whatever scheduler it has (README.md gives the recipes); each
 * job ends with a report, and this combines them, as if they were one
 * repository holding each in a directory of its own:
 *
 *  - a repository is named by DIR's last component, and its paths become
 *    NAME/PATH, so that the repositories are the top-level directories
 *    of the merged selection (consent's cover per directory is per
 *    repository);
 *  - a person is a name as the reports give it, through each
 *    repository's own mailmap: the same name in two repositories is one
 *    person, and different names stay apart;
 *  - size, people, bots, code and prose, year of origin: sums by
 *    language, name, kind and year, the shares and ranks figured again;
 *  - commit sizes: every commit of commits.tsv, a commit two
 *    repositories share (a fork's history) once when its size is the
 *    same in both; the largest commits, and the files where lines and
 *    tokens disagree most, come from the reports' own lists, which hold
 *    them all when the merged lists are no longer than the shortest
 *    (--top: the smallest of the reports');
 *  - consent and knowledge at risk: from each file's people
 *    (consent-files.tsv), the directories and their truck factors figured
 *    again; an author's newest commit is their newest in any
 *    repository's history (history-authors.tsv, which has everyone, with
 *    tokens or without), and they have departed when it is more than
 *    --departed-after older than the newest of the revisions' commit
 *    dates, which is what one repository holding all the histories
 *    would say.
 *
 * What the reports cannot combine is left out, and the page says so: the
 * names that may be one person's (a report lists only the groups it
 * found, not every name's addresses), the eras of stitched histories, the
 * code age over time and the survival of each year (each repository's
 * points are its own tags or years), and the oldest code.
 *
 * The reports must agree on what a figure means: the engine, -M, -w, the
 * mailmap, what is left out, bots, --merge-identities, --min-tokens and
 * the commit sizes' window; --departed-after too, unless given here.
 */
#include "report.h"
#include "report-read.h"
#include "people.h"
#include "dest-options.h"
#include "../tokenize/escape.h"
#include "../tokenize/json.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file of the merged selection: NAME/PATH, and where its row of files.tsv is. */
struct merged_file {
	char *path;
	const struct report_input *in;
	size_t row;
};

struct merge {
	/* first, so that the report's hooks, handed the report, find the merge around it */
	struct report rep;
	struct report_input *in;
	size_t nr;
	const char *departed_after;  /* --departed-after, or NULL: the reports' */

	struct merged_file *files;   /* by path */
	size_t nr_files;
	struct file_people *people;  /* of each of files */
	struct file_row *rows;       /* of each of files, for files.tsv */
	struct disagreeing_file *dis;
	size_t nr_dis;
	struct lang_total *langs;
	size_t nr_langs;
	struct year_total *years;
	size_t nr_years;
	struct kind_author *kind_authors;
	/* each repository's share: its report's size and commits, its people */
	struct repository_share {
		size_t files, lines, tokens, commits, authors, own_authors;
	} *shares;
	/* the largest commits' authors, days and subjects, by original id */
	struct smap detail_index;
	struct largest_commit {
		const char *author, *subject, *day;
	} *details;
	size_t nr_details, alloc_details;
};

static struct merge *merge_of(struct report *rep)
{
	return (struct merge *)rep;
}

static const char *const merge_usage[] = {
	"tokstream report --merge [--departed-after=DURATION] OUTDIR DIR...",
	NULL
};

static int merge_opt_departed_after(const struct option *opt, const char *arg, int unset)
{
	long long seconds;

	(void)unset;
	if (parse_duration(arg, &seconds))
		return parse_opt_error(opt, "takes a number and a unit, d (days), w (weeks), m (30 days) "
				       "or y (365 days), such as 18m; not '%s'", arg);
	*(const char **)opt->value = arg;
	return 0;
}

/* ---- reading the reports ---- */

/* The options whose values must be the same in every report merged: what the figures mean. */
static const struct {
	const char *object, *key, *option;
} same_options[] = {
	{ "engine", "revision", "tokstream's attribution engine" },
	{ "engine", "min_move", "--min-move; --no-moves is 0" },
	{ "engine", "ignore_whitespace", "-w" },
	{ "options", "line_moves", "-M" }, { "options", "line_ignore_whitespace", "-w" },
	{ "options", "mailmap", "--no-mailmap" }, { "options", "include_vendored", "--include-vendored" },
	{ "options", "include_bots", "--include-bots" }, { "options", "merge_identities", "--merge-identities" },
	{ "options", "min_tokens", "--min-tokens" }, { "options", "since", "--since" },
	{ "options", "until", "--until" },
};

/* v as report.json has it, on one line, into out; "none" when it is missing. */
static void option_value(const struct json_value *v, struct strbuf *out)
{
	struct json_writer j;

	if (!v) {
		strbuf_addstr(out, "none");
		return;
	}
	json_init(&j, out, 0);
	json_write_value(&j, v);
	json_finish(&j);
	strbuf_trim_newline(out);
}

static void check_same_options(const struct merge *m, const struct report_input *in)
{
	const struct report_input *first = &m->in[0];
	size_t k;

	for (k = 0; k < sizeof(same_options) / sizeof(*same_options); k++) {
		int engine = !strcmp(same_options[k].object, "engine");
		const struct json_value *a = json_get(engine ? first->engine : first->options, same_options[k].key);
		const struct json_value *b = json_get(engine ? in->engine : in->options, same_options[k].key);
		struct strbuf va = STRBUF_INIT, vb = STRBUF_INIT;

		if (a && b && json_equal(a, b))
			continue;
		option_value(a, &va);
		option_value(b, &vb);
		die("%s: /%s/%s is %s, %s's is %s (%s): the reports merged must agree on the engine, -M, -w, "
		    "the mailmap, what is left out, bots, --merge-identities, --min-tokens, --since and --until",
		    in->path.buf, same_options[k].object, same_options[k].key, vb.buf, first->path.buf, va.buf,
		    same_options[k].option);
	}
	if (!m->departed_after && strcmp(in->departed_after, first->departed_after))
		die("%s: --departed-after=%s, %s's is %s: give report --merge a --departed-after of its own",
		    in->path.buf, in->departed_after, first->path.buf, first->departed_after);
}

/*
 * Two reports of the same commit (the same repository, or a clone) that
 * count the same files count them twice: said, so that it is not done
 * unawares (a test may mean it: sizes double, shares stay).  Reports of
 * parts of one tree (report REV lib, report REV doc) count none twice.
 */
static void check_not_same_files(const struct report_input *a, const struct report_input *b)
{
	struct input_table ta, tb;
	struct smap paths = SMAP_INIT;
	const char *shared = NULL;
	size_t r, nr_shared = 0;

	if (strcmp(a->revision, b->revision))
		return;
	input_table(a, "files", &ta);
	input_table(b, "files", &tb);
	for (r = 0; r < ta.nr; r++)
		smap_put(&paths, cell_text(&ta, r, "path"), r, NULL);
	for (r = 0; r < tb.nr; r++)
		if (smap_get(&paths, cell_text(&tb, r, "path"))) {
			if (!nr_shared++)
				shared = cell_text(&tb, r, "path");
		}
	smap_release(&paths);
	if (nr_shared)
		warning("'%s' and '%s' are reports of the same commit %.12s (of %s) that both count %zu file%s "
			"('%s'%s): merged, they count twice",
			a->dir, b->dir, a->revision, b->source, nr_shared, nr_shared == 1 ? "" : "s", shared,
			nr_shared == 1 ? "" : "...");
}

/* Whether a and b are the same directory (b need not exist). */
static int same_directory(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	int same = ra && rb && !strcmp(ra, rb);

	free(ra);
	free(rb);
	return same;
}

static void read_reports(struct merge *m, const char *out_dir, int nr, char **dirs)
{
	size_t i, k;

	m->nr = (size_t)nr;
	m->in = xcalloc(m->nr + 1, sizeof(*m->in));
	for (i = 0; i < m->nr; i++) {
		if (same_directory(dirs[i], out_dir))
			die("'%s' is OUTDIR too: the merged report would overwrite a report it reads", dirs[i]);
		report_input_read(&m->in[i], dirs[i]);
		for (k = 0; k < i; k++)
			if (!strcmp(m->in[k].name, m->in[i].name))
				die("'%s' and '%s' both name a repository '%s': its paths are NAME/PATH in the "
				    "merged report, so give each report a directory of its own name",
				    m->in[k].dir, m->in[i].dir, m->in[i].name);
		if (i)
			check_same_options(m, &m->in[i]);
	}
	for (i = 0; i < m->nr; i++)
		for (k = 0; k < i; k++)
			check_not_same_files(&m->in[k], &m->in[i]);
}

/* ---- people ---- */

/* The index in rep->authors of the person named name, added when new. */
static size_t merged_author(struct report *rep, const char *name)
{
	int isnew;
	size_t *v = smap_put(&rep->author_index, name, rep->nr_authors, &isnew);

	if (isnew) {
		ALLOC_GROW(rep->authors, rep->nr_authors + 1, rep->alloc_authors);
		memset(&rep->authors[rep->nr_authors], 0, sizeof(*rep->authors));
		rep->authors[rep->nr_authors].name = name;
		rep->authors[rep->nr_authors].bot = is_bot_name(name);
		rep->nr_authors++;
	}
	return *v;
}

/* The index of an author a table names: one authors.tsv or bots.tsv names too. */
static size_t known_author(struct report *rep, const struct input_table *t, size_t row, const char *col)
{
	const char *name = cell_text(t, row, col);
	size_t *v = smap_get(&rep->author_index, name);

	if (!v)
		die("%s: /tables/%s/rows/%zu/%s: '%s' is in neither authors nor bots", t->in->path.buf, t->name,
		    row, col, name);
	return *v;
}

/* Every person's and bot's lines and tokens, summed by name (authors.tsv, and bots.tsv when bots are apart). */
static void merge_authors(struct merge *m)
{
	struct report *rep = &m->rep;
	struct input_table t;
	size_t i, r, a;
	int bots;

	for (i = 0; i < m->nr; i++)
		for (bots = 0; bots < 2; bots++) {
			if (bots && m->in[i].include_bots)
				break;  /* they are among the authors */
			input_table(&m->in[i], bots ? "bots" : "authors", &t);
			for (r = 0; r < t.nr; r++) {
				a = merged_author(rep, cell_text(&t, r, bots ? "bot" : "author"));
				rep->authors[a].lines += cell_count(&t, r, "lines");
				rep->authors[a].tokens += cell_count(&t, r, "tokens");
			}
		}
	/*
	 * each person's tokens without moves (moves.tsv): a person who only
	 * moved code is in no other table, and owns tokens only there
	 */
	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "moves", &t);
		for (r = 0; r < t.nr; r++)
			rep->authors[merged_author(rep, cell_text(&t, r, "author"))].unmoved +=
				cell_count(&t, r, "tokens_without_moves");
	}
}

/* A commit id of a row, checked. */
static void row_commit(const struct input_table *t, size_t row, const char *col, char id[41])
{
	const char *text = cell_text(t, row, col);

	if (strlen(text) != 40 || strspn(text, "0123456789abcdef") != 40)
		die("%s: /tables/%s/rows/%zu/%s: '%s' is no commit id", t->in->path.buf, t->name, row, col, text);
	memcpy(id, text, 41);
}

/* A row of some report's history-authors.tsv, to be taken the newest first. */
struct history_row {
	const struct input_table *t;
	size_t row, order;
	long long time;
};

static int cmp_history_row(const void *a, const void *b)
{
	const struct history_row *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Adds the addresses of a history row (", " between them) to history_author k. */
static void add_addresses(struct report *rep, struct smap *seen, size_t k, const char *list)
{
	struct strbuf address = STRBUF_INIT;
	const char *p, *end;

	for (p = list; *p; p = *end ? end + 2 : end) {
		if (!(end = strstr(p, ", ")))
			end = p + strlen(p);
		strbuf_reset(&address);
		strbuf_add(&address, p, (size_t)(end - p));
		add_history_address(seen, &rep->history[k], k, address.buf);
	}
	strbuf_release(&address);
}

/*
 * Every name's newest commit over all the histories, and its addresses,
 * those of the repository with its newest commit first; the newest of
 * the revisions' dates, the "now" of --departed-after; who has departed.
 */
static void merge_history(struct merge *m)
{
	struct report *rep = &m->rep;
	struct input_table *tables = xcalloc(m->nr + 1, sizeof(*tables));
	struct history_row *rows = NULL;
	struct smap seen = SMAP_INIT;
	size_t nr = 0, alloc = 0, i, r;

	for (i = 0; i < m->nr; i++) {
		if (!i || m->in[i].revision_time > rep->rev_time)
			rep->rev_time = m->in[i].revision_time;
		input_table(&m->in[i], "history-authors", &tables[i]);
		for (r = 0; r < tables[i].nr; r++) {
			ALLOC_GROW(rows, nr + 1, alloc);
			rows[nr].t = &tables[i];
			rows[nr].row = r;
			rows[nr].order = nr;
			rows[nr++].time = cell_int(&tables[i], r, "last_time");
		}
	}
	if (nr)
		qsort(rows, nr, sizeof(*rows), cmp_history_row);
	for (i = 0; i < nr; i++) {
		const struct input_table *t = rows[i].t;
		size_t k = history_author(rep, cell_text(t, rows[i].row, "author"));
		struct history_author *h = &rep->history[k];

		if (!h->last_commit[0]) {
			row_commit(t, rows[i].row, "last_commit", h->last_commit);
			h->last_time = rows[i].time;
		}
		add_addresses(rep, &seen, k, cell_text(t, rows[i].row, "addresses"));
	}
	departures(rep);
	smap_release(&seen);
	free(rows);
	free(tables);
}

/* A commit of a row: its id (in col) and time (in time_col). */
static void row_stamp(const struct input_table *t, size_t row, const char *col, const char *time_col,
		      struct commit_stamp *s)
{
	row_commit(t, row, col, s->id);
	s->time = cell_int(t, row, time_col);
}

/* Whether commit a is older than commit b: by author date, then by id, as one report orders them. */
static int stamp_older(const struct commit_stamp *a, const struct commit_stamp *b)
{
	return a->time < b->time || (a->time == b->time && strcmp(a->id, b->id) < 0);
}

/* Each person's oldest and newest commits that own surviving tokens, over every repository (consent.tsv). */
static void merge_owning_commits(struct merge *m)
{
	struct report *rep = &m->rep;
	struct input_table t;
	size_t i, r;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "consent", &t);
		for (r = 0; r < t.nr; r++) {
			struct author *a = &rep->authors[known_author(rep, &t, r, "author")];
			struct commit_stamp first, last;

			row_stamp(&t, r, "first_commit", "first_time", &first);
			row_stamp(&t, r, "last_commit", "last_time", &last);
			if (!a->first_owning.id[0] || stamp_older(&first, &a->first_owning))
				a->first_owning = first;
			if (!a->last_owning.id[0] || stamp_older(&a->last_owning, &last))
				a->last_owning = last;
		}
	}
}

/* ---- files ---- */

static int cmp_merged_file(const void *a, const void *b)
{
	return strcmp(((const struct merged_file *)a)->path, ((const struct merged_file *)b)->path);
}

/* The merged file NAME/path of a row's column col: its index. */
static size_t merged_file_of(const struct input_table *t, size_t row, const char *col, struct smap *index)
{
	struct strbuf path = STRBUF_INIT;
	size_t *v;

	strbuf_addf(&path, "%s/%s", t->in->name, cell_text(t, row, col));
	if (!(v = smap_get(index, path.buf)))
		die("%s: /tables/%s/rows/%zu/%s: '%s' is not in files", t->in->path.buf, t->name, row, col,
		    cell_text(t, row, col));
	strbuf_release(&path);
	return *v;
}

/* A file's row of files.tsv, read back. */
static void read_file_row(const struct merged_file *f, struct file_row *r)
{
	struct input_table t;

	input_table(f->in, "files", &t);
	r->path = f->path;
	r->language = cell_text(&t, f->row, "language");
	r->lines = cell_count(&t, f->row, "lines");
	r->code_lines = cell_count(&t, f->row, "code_lines");
	r->tokens = cell_count(&t, f->row, "tokens");
	r->moved_tokens = cell_count(&t, f->row, "moved_tokens");
	r->authors_by_lines = cell_count(&t, f->row, "authors_by_lines");
	r->authors_by_tokens = cell_count(&t, f->row, "authors_by_tokens");
	r->top_by_lines = cell_text_or_null(&t, f->row, "top_by_lines");
	if (!r->top_by_lines)
		return;
	r->top_line_share = cell_number(&t, f->row, "top_line_share");
	r->top_by_tokens = cell_text(&t, f->row, "top_by_tokens");
	r->top_token_share = cell_number(&t, f->row, "top_token_share");
	r->distance = cell_number(&t, f->row, "distance");
	r->moves_distance = cell_number(&t, f->row, "moves_distance");
}

/* Each file's people, in the order of its report's consent-files.tsv: the most tokens first. */
static void merge_file_people(struct merge *m, struct smap *index)
{
	struct input_table t;
	size_t i, r;

	m->people = xcalloc(m->nr_files + 1, sizeof(*m->people));
	for (i = 0; i < m->nr_files; i++)
		m->people[i].path = m->files[i].path;
	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "consent-files", &t);
		for (r = 0; r < t.nr; r++) {
			struct file_people *fp = &m->people[merged_file_of(&t, r, "path", index)];
			size_t a = known_author(&m->rep, &t, r, "author");

			fp->owners = xrealloc(fp->owners, st_mult(fp->nr_owners + 1, sizeof(*fp->owners)));
			fp->owners[fp->nr_owners].author = a;
			fp->owners[fp->nr_owners].name = m->rep.authors[a].name;
			fp->owners[fp->nr_owners].tokens = cell_count(&t, r, "tokens");
			fp->tokens += fp->owners[fp->nr_owners++].tokens;
		}
	}
}

/* The files of the reports' disagreement lists, each with its people by both counts. */
static void merge_disagreement(struct merge *m, struct smap *index)
{
	struct input_table t;
	size_t i, r, alloc = 0;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "disagreement", &t);
		for (r = 0; r < t.nr; r++) {
			struct disagreeing_file *d;
			struct owner *o;

			if (!r || cell_count(&t, r, "rank") != cell_count(&t, r - 1, "rank")) {
				const struct file_row *f = &m->rows[merged_file_of(&t, r, "path", index)];

				ALLOC_GROW(m->dis, m->nr_dis + 1, alloc);
				d = &m->dis[m->nr_dis++];
				memset(d, 0, sizeof(*d));
				d->path = f->path;
				d->distance = cell_number(&t, r, "distance");
				d->moves_distance = cell_number(&t, r, "moves_distance");
				d->lines = f->lines;
				d->tokens = f->tokens;
			}
			d = &m->dis[m->nr_dis - 1];
			d->owners = xrealloc(d->owners, st_mult(d->nr_owners + 1, sizeof(*d->owners)));
			o = &d->owners[d->nr_owners++];
			o->author = known_author(&m->rep, &t, r, "author");
			o->name = m->rep.authors[o->author].name;
			o->lines = cell_count(&t, r, "lines");
			/* "tokens" are those compared with the lines: without moves unless -M */
			o->tokens = cell_count(&t, r, "tokens_with_moves");
			o->unmoved = cell_count(&t, r, "tokens");
		}
	}
}

/*
 * Every file of every report as NAME/PATH, in the order of paths (as one
 * repository's files are), with its row of files.tsv and its people; the
 * files of the disagreement lists.
 */
static void merge_files(struct merge *m)
{
	struct smap index = SMAP_INIT;
	struct input_table t;
	size_t i, r, alloc = 0;
	int isnew;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "files", &t);
		for (r = 0; r < t.nr; r++) {
			ALLOC_GROW(m->files, m->nr_files + 1, alloc);
			m->files[m->nr_files].path = xstrfmt("%s/%s", m->in[i].name, cell_text(&t, r, "path"));
			m->files[m->nr_files].in = &m->in[i];
			m->files[m->nr_files++].row = r;
		}
	}
	if (m->nr_files)
		qsort(m->files, m->nr_files, sizeof(*m->files), cmp_merged_file);
	m->rows = xcalloc(m->nr_files + 1, sizeof(*m->rows));
	for (i = 0; i < m->nr_files; i++) {
		smap_put(&index, m->files[i].path, i, &isnew);
		if (!isnew)
			die("%s: /tables/files: '%s' is in it twice", m->files[i].in->path.buf, m->files[i].path);
		read_file_row(&m->files[i], &m->rows[i]);
	}
	merge_file_people(m, &index);
	merge_disagreement(m, &index);
	smap_release(&index);
}

/* ---- size, kinds, years, what is left out ---- */

/* Each language's files, lines and tokens, summed (size.tsv, less its total). */
static void merge_languages(struct merge *m)
{
	struct input_table t;
	size_t i, r, j, alloc = 0;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "size", &t);
		for (r = 0; r + 1 < t.nr; r++) {
			const char *name = cell_text(&t, r, "language");
			struct lang_total *l;

			for (j = 0; j < m->nr_langs && strcmp(m->langs[j].name, name); j++)
				;
			if (j == m->nr_langs) {
				ALLOC_GROW(m->langs, m->nr_langs + 1, alloc);
				memset(&m->langs[j], 0, sizeof(*m->langs));
				m->langs[m->nr_langs++].name = name;
			}
			l = &m->langs[j];
			l->files += cell_count(&t, r, "files");
			l->lines += cell_count(&t, r, "lines");
			l->code_lines += cell_count(&t, r, "code_lines");
			l->tokens += cell_count(&t, r, "tokens");
			l->comment_tokens += cell_count(&t, r, "comment_tokens");
		}
	}
}

/* Each year of origin's lines and tokens, summed (years.tsv). */
static void merge_years(struct merge *m)
{
	struct input_table t;
	size_t i, r, j, alloc = 0;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "years", &t);
		for (r = 0; r < t.nr; r++) {
			long long year = cell_int(&t, r, "year");

			if (year < INT_MIN || year > INT_MAX)
				die("%s: /tables/years/rows/%zu/year: %lld is no year", t.in->path.buf, r, year);
			for (j = 0; j < m->nr_years && m->years[j].year != (int)year; j++)
				;
			if (j == m->nr_years) {
				ALLOC_GROW(m->years, m->nr_years + 1, alloc);
				memset(&m->years[j], 0, sizeof(*m->years));
				m->years[m->nr_years++].year = (int)year;
			}
			m->years[j].lines += cell_count(&t, r, "lines");
			m->years[j].tokens += cell_count(&t, r, "tokens");
		}
	}
}

/* The kind a row names: "code" or "prose". */
static enum kind row_kind(const struct input_table *t, size_t row)
{
	const char *name = cell_text(t, row, "kind");

	if (!strcmp(name, "code"))
		return KIND_CODE;
	if (!strcmp(name, "prose"))
		return KIND_PROSE;
	die("%s: /tables/%s/rows/%zu/kind: '%s' is no kind", t->in->path.buf, t->name, row, name);
}

/* Code and prose: their size (kinds.tsv) and each person's part (authors-by-kind.tsv), summed. */
static void merge_kinds(struct merge *m)
{
	struct report *rep = &m->rep;
	struct input_table t;
	size_t i, r, a;

	m->kind_authors = xcalloc(st_add(st_mult(NR_KINDS, rep->nr_authors), 1), sizeof(*m->kind_authors));
	for (i = 0; i < NR_KINDS * rep->nr_authors; i++)
		m->kind_authors[i].name = rep->authors[i % rep->nr_authors].name;
	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "kinds", &t);
		for (r = 0; r < t.nr; r++) {
			struct kind_figures *kf = &rep->kinds[row_kind(&t, r)];

			kf->files += cell_count(&t, r, "files");
			kf->lines += cell_count(&t, r, "lines");
			kf->code_lines += cell_count(&t, r, "code_lines");
			kf->tokens += cell_count(&t, r, "tokens");
		}
		input_table(&m->in[i], "authors-by-kind", &t);
		for (r = 0; r < t.nr; r++) {
			a = known_author(rep, &t, r, "author");
			m->kind_authors[row_kind(&t, r) * rep->nr_authors + a].lines += cell_count(&t, r, "lines");
			m->kind_authors[row_kind(&t, r) * rep->nr_authors + a].tokens += cell_count(&t, r, "tokens");
		}
	}
}

/* The reason a row names: its index in report_left_out_reason. */
static size_t row_reason(const struct input_table *t, size_t row)
{
	const char *name = cell_text(t, row, "reason");
	size_t k;

	for (k = LEFT_OUT_EXCLUDED; k < NR_REPORT_LEFT_OUT; k++)
		if (report_left_out_reason[k] && !strcmp(report_left_out_reason[k], name))
			return k;
	die("%s: /tables/%s/rows/%zu/reason: '%s' is no reason", t->in->path.buf, t->name, row, name);
}

static int cmp_left_out_path(const void *a, const void *b)
{
	return strcmp(((const struct left_out_file *)a)->path, ((const struct left_out_file *)b)->path);
}

/* What the reports left out, by reason (left-out.tsv), and each file (left-out-files.tsv). */
static void merge_left_out(struct merge *m)
{
	struct report *rep = &m->rep;
	struct input_table t;
	size_t i, r;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "left-out", &t);
		for (r = 0; r < t.nr; r++) {
			size_t k = row_reason(&t, r);

			rep->left_out_total[k].files += cell_count(&t, r, "files");
			rep->left_out_total[k].tokens += cell_count(&t, r, "tokens");
		}
		input_table(&m->in[i], "left-out-files", &t);
		for (r = 0; r < t.nr; r++) {
			struct left_out_file *l;

			ALLOC_GROW(rep->left_out_list, rep->nr_left_out_list + 1, rep->alloc_left_out_list);
			l = &rep->left_out_list[rep->nr_left_out_list++];
			l->path = xstrfmt("%s/%s", m->in[i].name, cell_text(&t, r, "path"));
			l->reason = row_reason(&t, r);
			l->detail = cell_text_or_null(&t, r, "rule");
			l->tokens = cell_count(&t, r, "tokens");
		}
	}
	if (rep->nr_left_out_list)
		qsort(rep->left_out_list, rep->nr_left_out_list, sizeof(*rep->left_out_list), cmp_left_out_path);
}

/* ---- commits ---- */

/* The largest commits' details, as the hook of the largest commits' table finds them. */
static void merged_subjects(struct report *rep, char (*ids)[41], size_t n, struct detail *d)
{
	struct merge *m = merge_of(rep);
	size_t i, *k;

	for (i = 0; i < n; i++) {
		if (!(k = smap_get(&m->detail_index, ids[i])))
			die("commit %s is among the largest of the merge, and in no report's largest-commits: "
			    "a report.json holds other commits than its report found", ids[i]);
		d[i].author = xstrdup(m->details[*k].author);
		d[i].subject = xstrdup(m->details[*k].subject);
		snprintf(d[i].day, sizeof(d[i].day), "%s", m->details[*k].day);
	}
}

/*
 * Every commit sized (commits.tsv), a commit two repositories share
 * once when its size is the same in both (else their selections differ,
 * and each size counts); the details of the largest (largest-commits.tsv),
 * for merged_subjects().  Since a commit counts with the size a report
 * gave it, every commit larger in that report is larger here too: the
 * merged list's commits are each in its report's list, when it is no
 * longer than the shortest of those.
 */
static void merge_commits(struct merge *m)
{
	struct report *rep = &m->rep;
	struct smap seen = SMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	struct input_table t;
	size_t i, r;
	int isnew;

	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "commits", &t);
		for (r = 0; r < t.nr; r++) {
			struct csize c;

			row_commit(&t, r, "original", c.orig);
			row_commit(&t, r, "token", c.token);
			c.added = cell_count(&t, r, "added");
			c.removed = cell_count(&t, r, "removed");
			strbuf_reset(&key);
			strbuf_addf(&key, "%s %zu %zu", c.orig, c.added, c.removed);
			smap_put(&seen, key.buf, 0, &isnew);
			if (!isnew)
				continue;
			ALLOC_GROW(rep->csizes, rep->nr_csizes + 1, rep->alloc_csizes);
			rep->csizes[rep->nr_csizes++] = c;
		}
		input_table(&m->in[i], "largest-commits", &t);
		for (r = 0; r < t.nr; r++) {
			char id[41];
			struct largest_commit *d;

			row_commit(&t, r, "original", id);
			smap_put(&m->detail_index, id, m->nr_details, &isnew);
			if (!isnew)
				continue;
			ALLOC_GROW(m->details, m->nr_details + 1, m->alloc_details);
			d = &m->details[m->nr_details++];
			d->author = cell_text(&t, r, "author");
			d->subject = cell_text(&t, r, "summary");
			d->day = cell_text(&t, r, "date");
		}
	}
	smap_release(&seen);
	strbuf_release(&key);
	rep->commit_subjects = merged_subjects;
}

/* ---- the repositories, the page's head, report.json's subject ---- */

/* A figure of a report's summary.tsv. */
static size_t summary_figure(const struct report_input *in, const char *figure)
{
	struct input_table t;
	size_t r;

	input_table(in, "summary", &t);
	for (r = 0; r < t.nr; r++)
		if (!strcmp(cell_text(&t, r, "figure"), figure))
			return cell_count(&t, r, "value");
	die("%s: /tables/summary: no figure '%s'", in->path.buf, figure);
}

/*
 * Each repository's share: its files, lines, tokens and commits (its
 * summary.tsv), its people with tokens (consent.tsv), and how many of
 * those have tokens in no other repository.
 */
static void merge_shares(struct merge *m)
{
	size_t *repositories = xcalloc(m->rep.nr_authors + 1, sizeof(*repositories)), i, r;
	struct input_table t;

	m->shares = xcalloc(m->nr + 1, sizeof(*m->shares));
	for (i = 0; i < m->nr; i++) {
		input_table(&m->in[i], "consent", &t);
		for (r = 0; r < t.nr; r++)
			repositories[known_author(&m->rep, &t, r, "author")]++;
	}
	for (i = 0; i < m->nr; i++) {
		struct repository_share *s = &m->shares[i];

		s->files = summary_figure(&m->in[i], "files");
		s->lines = summary_figure(&m->in[i], "lines");
		s->tokens = summary_figure(&m->in[i], "tokens");
		s->commits = summary_figure(&m->in[i], "commits");
		input_table(&m->in[i], "consent", &t);
		s->authors = t.nr;
		for (r = 0; r < t.nr; r++)
			s->own_authors += repositories[known_author(&m->rep, &t, r, "author")] == 1;
	}
	free(repositories);
}

/* What the merged report does not combine, and why: each repository's own report has it. */
static void not_combined(struct strbuf *pg)
{
	strbuf_addstr(pg, "<p><b>Not combined</b>; each repository's own report has them: the names that may "
		      "be one person's (a report lists the groups of names it found, not every name's "
		      "addresses, so that names that meet only across repositories cannot be found: map "
		      "them to one in each repository's <code>.mailmap</code>), the eras of a stitched "
		      "history, the code age over time, the survival and half-lives of each year's code "
		      "(each repository's points are its own tags or years), and the oldest code.</p>");
}

/* 1. The repositories: each one's share of the tokens and of the people (repositories.tsv). */
static void section_repositories(struct merge *m, struct strbuf *pg)
{
	static const char *const cols[] = { "repository", "source", "revision", "files", "lines", "tokens",
					    "token_share", "authors", "author_share", "own_authors", "commits", NULL };
	struct report *rep = &m->rep;
	struct table *t = table_begin(rep, "repositories.tsv", cols);
	size_t tokens = 0, i;

	for (i = 0; i < m->nr; i++)
		tokens += m->shares[i].tokens;
	for (i = 0; i < m->nr; i++) {
		const struct repository_share *s = &m->shares[i];

		table_text(t, m->in[i].name);
		table_text(t, m->in[i].source);
		table_text(t, m->in[i].revision);
		table_count(t, s->files);
		table_count(t, s->lines);
		table_count(t, s->tokens);
		table_number(t, pct((double)s->tokens, (double)tokens));
		table_count(t, s->authors);
		table_number(t, pct((double)s->authors, (double)rep->nr_by_tokens));
		table_count(t, s->own_authors);
		table_count(t, s->commits);
	}
	table_end(rep, t);
	section_heading(rep, pg, "repositories");
	strbuf_addf(pg, "<p>%zu reports merged, as one repository holding each in a directory of its name "
		    "would be reported: each repository's paths are under its name, and a person is a name as "
		    "the reports give it (through each repository's mailmap), one name one person across the "
		    "repositories. Each repository's share of the tokens, and of the %zu people with tokens "
		    "(<code>own_authors</code>: those with tokens in no other).</p>", m->nr, rep->nr_by_tokens);
	table_html(pg, t, NULL);
	not_combined(pg);
}

/* The page's head: the repositories, each at its revision, and the merged size. */
static void merged_meta(struct merge *m, struct strbuf *meta, const struct figures *fig)
{
	size_t i;

	strbuf_addf(meta, "Merged from the reports of %zu repositories (<code>report --merge</code>):", m->nr);
	for (i = 0; i < m->nr; i++) {
		strbuf_addstr(meta, i ? "; <code>" : " <code>");
		html_text(meta, m->in[i].name);
		strbuf_addstr(meta, "</code> (");
		html_text(meta, m->in[i].source);
		strbuf_addstr(meta, " at ");
		html_text(meta, m->in[i].revision_name);
		strbuf_addf(meta, ", <span class=\"id\">%.12s</span>)", m->in[i].revision);
	}
	strbuf_addf(meta, ": %zu files, %zu lines, %zu tokens.", fig->files, fig->lines, fig->tokens);
}

/*
 * report.json's subject: the merge's own choices, and each repository
 * with what its report says it is of (every member of its report.json
 * but the version and the tables), so that nothing it said is lost.
 */
static void merged_json_subject(struct report *rep, struct json_writer *j)
{
	struct merge *m = merge_of(rep);
	int wrap = j->wrap_depth;
	size_t i, k;

	json_key(j, "version");
	json_int(j, REPORT_JSON_VERSION);
	json_key(j, "revision_time");
	json_int(j, rep->rev_time);
	json_key(j, "merged");
	json_object_begin(j);
	json_key(j, "top");
	json_int(j, rep->opt.top);
	json_key(j, "departed_after");
	json_string(j, rep->opt.departed_after);
	j->wrap_depth = 3;  /* a repository a line */
	json_key(j, "repositories");
	json_array_begin(j);
	for (i = 0; i < m->nr; i++) {
		const struct json_value *root = &m->in[i].doc.root;

		json_object_begin(j);
		json_key(j, "name");
		json_string(j, m->in[i].name);
		json_key(j, "report");
		json_string(j, m->in[i].dir);
		for (k = 0; k < root->len; k++) {
			const struct json_member *member = &root->u.members[k];

			if (strcmp(member->key, "version") && strcmp(member->key, "tables")) {
				json_key(j, member->key);
				json_write_value(j, &member->value);
			}
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
	j->wrap_depth = wrap;
}

/* ---- the merged report ---- */

/* Every section the reports combine, in the order of the page, then the page and report.json. */
static void write_merged_report(struct merge *m)
{
	static const char *const summary_cols[] = { "figure", "value", NULL };
	struct report *rep = &m->rep;
	struct strbuf pg = STRBUF_INIT, story = STRBUF_INIT, meta = STRBUF_INIT, subject = STRBUF_INIT;
	struct figures fig;
	struct dir_tally *dirs;
	size_t nr_dirs;

	memset(&fig, 0, sizeof(fig));
	fig.summary = table_begin(rep, "summary.tsv", summary_cols);
	fig.top = (size_t)rep->opt.top;
	fig.oldest = fig.oldest_code = (size_t)-1;
	rank_authors(rep);
	section_repositories(m, &pg);
	section_size(rep, &pg, &fig, m->langs, m->nr_langs);
	section_kinds(rep, &pg, m->kind_authors);
	section_left_out(rep, &pg);
	section_people(rep, &pg, &fig);
	section_years(rep, &pg, &fig, m->years, m->nr_years);
	section_commit_sizes(rep, &pg, &fig);
	files_table(rep, m->rows, m->nr_files);
	fig.dis = m->dis;
	fig.nr_dis = m->nr_dis;
	for (size_t i = 0; i < m->nr_files; i++)
		fig.moved_tokens += m->rows[i].moved_tokens;
	section_disagreement(rep, &pg, &fig);
	nr_dirs = tally_directories(m->people, m->nr_files, &dirs);
	section_consent(rep, &pg, m->people, m->nr_files, dirs, nr_dirs);
	section_knowledge(rep, &pg, m->people, m->nr_files, dirs, nr_dirs);
	free_dir_tallies(dirs, nr_dirs);
	section_story(rep, &story, &fig);
	section_summary(rep, &fig);
	merged_meta(m, &meta, &fig);
	strbuf_addf(&subject, "%zu repositories", m->nr);
	write_page(rep, subject.buf, &meta, &story, &pg);
	write_report_json(rep, merged_json_subject);
	strbuf_release(&pg);
	strbuf_release(&story);
	strbuf_release(&meta);
	strbuf_release(&subject);
}

/* What the merged report takes of the reports' options: they agree on these, or the smallest --top. */
static void merged_options(struct merge *m)
{
	struct report_options *o = &m->rep.opt;
	const struct report_input *first = &m->in[0];
	size_t i;

	o->top = INT_MAX;
	for (i = 0; i < m->nr; i++)
		if (m->in[i].top < (size_t)o->top)
			o->top = (int)m->in[i].top;
	o->min_tokens = first->min_tokens;
	o->include_bots = first->include_bots;
	o->departed_after = m->departed_after ? m->departed_after : first->departed_after;
	parse_duration(o->departed_after, &o->departed_after_seconds);
	o->move = first->line_moves;
	o->since = first->since;
	o->until = first->until;
	m->rep.ctx.engine.min_move = first->min_move;
}

int cmd_report_merge(int argc, char **argv)
{
	struct merge *m = xcalloc(1, sizeof(*m));
	struct dest_options d = { NULL, NULL };
	int merge = 0, n;
	struct option options[] = {
		OPT_FLAG(0, "merge", &merge, "combine the reports in DIR... (each a report's OUTDIR) into one"),
		OPT_CALLBACK(0, "departed-after", &m->departed_after, "DURATION",
			     "an author whose newest commit in any repository is older than this before the\n"
			     "newest revision's date has departed (default: the reports' own, which must agree)",
			     merge_opt_departed_after),
		/* taken to be refused, saying why, rather than as options unknown; not in the usage */
		{ .type = OPTION_STRING, .short_name = 'C', .value = &d.dest, .argh = "DEST",
		  .flags = PARSE_OPT_NONEG | PARSE_OPT_HIDDEN },
		{ .type = OPTION_STRING, .long_name = "source", .value = &d.source, .argh = "SRC",
		  .flags = PARSE_OPT_NONEG | PARSE_OPT_HIDDEN },
		OPT_END(),
	};

	n = parse_options(argc, argv, options, merge_usage, 0);
	if (!merge)
		BUG("report --merge without --merge");
	if (d.dest || d.source)
		usage_msg_opt("--merge reads reports, not a token repository: it takes no -C DEST or --source",
			      merge_usage, options);
	if (n < 2)
		usage_msg_opt("--merge needs OUTDIR and at least one report's DIR", merge_usage, options);
	read_reports(m, argv[0], n - 1, argv + 1);
	m->rep.nr_merged = m->nr;
	m->rep.opt.out_dir = argv[0];
	merged_options(m);
	merge_authors(m);
	merge_history(m);
	merge_owning_commits(m);
	merge_files(m);
	merge_languages(m);
	merge_years(m);
	merge_kinds(m);
	merge_left_out(m);
	merge_commits(m);
	merge_shares(m);
	/* every figure is read and checked: only now is anything written */
	make_dir(m->rep.opt.out_dir);
	write_merged_report(m);
	return 0;
}
