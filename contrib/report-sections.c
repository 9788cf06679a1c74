/*
 * The sections of the report, one function each, in the order of the
 * page: each computes its figures, writes its table (the TSV file and
 * its part of report.json) and its part of the page, the page's table
 * from the same cells (table_html) wherever the page shows the table as
 * the file has it.
 */
#include "report.h"
#include "../tokenize/escape.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lang_total {
	const char *name;
	size_t files, lines, code_lines, tokens, comment_tokens;
};

struct year_total {
	int year;
	size_t lines, tokens;
};

static int cmp_lang(const void *a, const void *b)
{
	const struct lang_total *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_year(const void *a, const void *b)
{
	return ((const struct year_total *)a)->year - ((const struct year_total *)b)->year;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_largest(const void *a, const void *b)
{
	const struct csize *x = a, *y = b;
	size_t cx = x->added + x->removed, cy = y->added + y->removed;

	if (cx != cy)
		return cx < cy ? 1 : -1;
	if (x->added != y->added)
		return x->added < y->added ? 1 : -1;
	return strcmp(x->token, y->token);
}

static int cmp_distance(const void *a, const void *b)
{
	const struct rfile *x = *(const struct rfile *const *)a, *y = *(const struct rfile *const *)b;

	if (x->distance != y->distance)
		return x->distance < y->distance ? 1 : -1;
	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->path, y->path);
}

struct old_fn {
	struct rfile *file;
	struct ffunc *fn;
	size_t oldest;
};

static int cmp_old_fn(const void *a, const void *b)
{
	const struct old_fn *x = a, *y = b;
	int c;

	if (x->oldest != y->oldest)
		return x->oldest < y->oldest ? 1 : -1;
	if (x->fn->tokens != y->fn->tokens)
		return x->fn->tokens < y->fn->tokens ? -1 : 1;  /* the denser first */
	c = strcmp(x->file->path, y->file->path);
	return c ? c : (x->fn->line < y->fn->line ? -1 : x->fn->line > y->fn->line);
}

/* Histogram buckets: [lo, hi] inclusive. */
struct bucket {
	const char *label;
	long long lo, hi;
	size_t n;
};

static void histogram(struct report *rep, struct strbuf *pg, const char *file, const char *title, const char *what,
		      struct bucket *bk, size_t nb, size_t total)
{
	double *v = xcalloc(nb, sizeof(*v));
	char **labels = xcalloc(nb, sizeof(*labels));
	static const char *const cols[] = { "bucket", "commits", "share", NULL };
	struct table *t = table_begin(rep, file, cols);
	size_t i;

	for (i = 0; i < nb; i++) {
		v[i] = total ? 100.0 * (double)bk[i].n / (double)total : 0;
		labels[i] = (char *)bk[i].label;
		table_text(t, bk[i].label);
		table_count(t, bk[i].n);
		table_number(t, pct((double)bk[i].n, (double)total));
	}
	table_end(rep, t);
	svg_bars(pg, title, nb, labels, v, NULL, what, NULL);
	free(v);
	free(labels);
}

/*
 * What the figures leave out and why (left-out.tsv; on the page only
 * when there is something): a vendored library or a generated parser
 * can hold most of a tree's tokens and make a stranger its top author.
 */
static void write_left_out(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "reason", "files", "tokens", NULL };
	struct table *t = table_begin(rep, "left-out.tsv", cols);
	size_t files = 0, r;

	for (r = LEFT_OUT_EXCLUDED; r < NR_LEFT_OUT; r++) {
		if (!rep->left_out_total[r].files)
			continue;
		table_text(t, left_out_reason[r]);
		table_count(t, rep->left_out_total[r].files);
		table_count(t, rep->left_out_total[r].tokens);
		files += rep->left_out_total[r].files;
	}
	if (files) {
		strbuf_addf(pg, "<p>Left out of every figure: %zu file%s (", files, files == 1 ? "" : "s");
		for (r = LEFT_OUT_EXCLUDED; r < NR_LEFT_OUT; r++)
			if (rep->left_out_total[r].files)
				strbuf_addf(pg, "%s%s: %zu files, %zu tokens",
					    pg->buf[pg->len - 1] == '(' ? "" : "; ", left_out_reason[r],
					    rep->left_out_total[r].files, rep->left_out_total[r].tokens);
		strbuf_addstr(pg, "). Vendored and generated files are those <code>.gitattributes</code> "
			      "marks <code>linguist-vendored</code> or <code>linguist-generated</code>; "
			      "<code>--include-vendored</code> counts them, <code>--exclude</code> leaves "
			      "more out.</p>");
	}
	table_end(rep, t);
}

/* The most rows the page's table of the code age's points has. */
#define AGE_ROWS 25

/* The code age: age.tsv, a chart by tokens and one by lines, a table of the points. */
static void write_age(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "sample", "date", "commit", "year", "lines", "line_share", "tokens",
					    "token_share", NULL };
	static const char *const tcols[] = { "sample", "date", "commit", "lines", "tokens", NULL };
	size_t n = rep->nr_age_samples, nr_y = 0, alloc_y = 0, k, y, j, step;
	int *years = NULL;
	double *vl, *vt;
	char **xlabels = xcalloc(n + 1, sizeof(*xlabels)), **ylabels, day[16];
	struct table *t;

	/* the years of origin of every point, in order */
	for (k = 0; k < n; k++)
		for (y = 0; y < rep->age_samples[k].nr_years; y++) {
			int yr = rep->age_samples[k].years[y].year;

			for (j = 0; j < nr_y && years[j] < yr; j++)
				;
			if (j < nr_y && years[j] == yr)
				continue;
			ALLOC_GROW(years, nr_y + 1, alloc_y);
			memmove(years + j + 1, years + j, (nr_y - j) * sizeof(*years));
			years[j] = yr;
			nr_y++;
		}
	vl = xcalloc(nr_y * n + 1, sizeof(*vl));
	vt = xcalloc(nr_y * n + 1, sizeof(*vt));
	ylabels = xcalloc(nr_y + 1, sizeof(*ylabels));
	for (j = 0; j < nr_y; j++)
		ylabels[j] = xstrfmt("%d", years[j]);

	t = table_begin(rep, "age.tsv", cols);
	for (k = 0; k < n; k++) {
		const struct age_sample *a = &rep->age_samples[k];

		xlabels[k] = (char *)a->name;
		day_of(a->time, day, sizeof(day));
		for (y = 0, j = 0; y < a->nr_years; y++) {
			const struct age_year *ay = &a->years[y];

			while (years[j] != ay->year)
				j++;
			vl[j * n + k] = a->lines ? 100.0 * (double)ay->lines / (double)a->lines : 0;
			vt[j * n + k] = a->tokens ? 100.0 * (double)ay->tokens / (double)a->tokens : 0;
			table_text(t, a->name);
			table_text(t, day);
			table_text(t, a->orig);
			table_int(t, ay->year);
			if (rep->age_lines) {
				table_count(t, ay->lines);
				table_number(t, pct((double)ay->lines, (double)a->lines));
			} else {
				table_none(t, "-");
				table_none(t, "-");
			}
			table_count(t, ay->tokens);
			table_number(t, pct((double)ay->tokens, (double)a->tokens));
		}
	}
	table_end(rep, t);

	strbuf_addf(pg, "<h3 id=\"age\">Code age over time</h3><p>The share of the code by year of origin "
		    "at %s, and at the revision itself: %zu %s, in the order of its first-parent line, counted "
		    "in the same replays of the whole history as the rest; the oldest year at the bottom.",
		    rep->opt.every == AGE_EVERY_YEAR ? "the last commit of each year on its first-parent line"
						: "each tag of its history (a tag off its first-parent line where "
						  "the line merged it)",
		    n, n == 1 ? "point" : "points");
	if (!rep->age_lines)
		strbuf_addstr(pg, " By tokens only: with -M or ignored revisions the lines are blamed by "
			      "<code>git blame</code>, not by a replay.");
	strbuf_addstr(pg, "</p>");
	svg_areas(pg, "Share of the tokens by year of origin over time", n, xlabels, nr_y, ylabels, vt);
	if (rep->age_lines)
		svg_areas(pg, "Share of the lines by year of origin over time", n, xlabels, nr_y, ylabels, vl);
	/* a long table is summed up: every step-th point, and REV */
	step = n > AGE_ROWS ? (n + AGE_ROWS - 2) / (AGE_ROWS - 1) : 1;
	if (step > 1)
		strbuf_addf(pg, "<p>The table shows one point in %zu of the %zu, and the last; "
			    "<code>age.tsv</code> holds them all.</p>", step, n);
	strbuf_addstr(pg, "<table>");
	th_row(pg, tcols);
	for (k = 0; k < n; k++) {
		const struct age_sample *a = &rep->age_samples[k];

		if (k % step && k + 1 != n)
			continue;
		day_of(a->time, day, sizeof(day));
		strbuf_addstr(pg, "<tr>");
		td(pg, a->name);
		td(pg, day);
		strbuf_addf(pg, "<td class=\"id\">%s</td>", a->orig);
		if (rep->age_lines)
			tdz(pg, a->lines);
		else
			tdn(pg, "-");
		tdz(pg, a->tokens);
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addstr(pg, "</table>");
	free_strings(ylabels, nr_y);
	free(xlabels);
	free(years);
	free(vl);
	free(vt);
}

/*
 * What a section finds that a later one tells: the story at the top of
 * the page and summary.tsv, whose rows come from several sections.
 */
struct figures {
	struct table *summary;
	size_t top;  /* --top */
	size_t files, lines, code_lines, tokens, comment_tokens;
	size_t in_both, same_rank;  /* of the top by tokens, in the top by lines; at the same rank */
	double *era_l, *era_t;      /* each era's share of the lines and of the tokens */
	int ymd_year;               /* the year of origin the two counts differ most for, and its shares */
	double ymd_l, ymd_t;
	size_t oldest;              /* the oldest commit that still owns tokens; (size_t)-1: none */
	size_t oldest_code;         /* the oldest that owns tokens in a function (one era); (size_t)-1: none */
	struct rfile **dis;         /* the files large enough, the most disagreeing first */
	size_t nr_dis;
	double overall;             /* the distance between the authors' shares over the whole tree */
};

/* 1. Size: the files, lines and tokens of each language. */
static void section_size(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "language", "files", "lines", "code_lines", "tokens",
					    "comment_tokens", "tokens_per_code_line", NULL };
	struct table *t = table_begin(rep, "size.tsv", cols);
	struct lang_total *langs = NULL;
	size_t nr_langs = 0, alloc_langs = 0, i, j;

	for (i = 0; i < rep->nr_files; i++) {
		struct rfile *f = &rep->files[i];

		if (f->skipped)
			continue;
		for (j = 0; j < nr_langs && strcmp(langs[j].name, f->lang); j++)
			;
		if (j == nr_langs) {
			ALLOC_GROW(langs, nr_langs + 1, alloc_langs);
			memset(&langs[j], 0, sizeof(*langs));
			langs[j].name = f->lang;
			nr_langs++;
		}
		langs[j].files++;
		langs[j].lines += f->lines;
		langs[j].code_lines += f->code_lines;
		langs[j].tokens += f->tokens;
		langs[j].comment_tokens += f->comment_tokens;
		fig->files++;
		fig->lines += f->lines;
		fig->code_lines += f->code_lines;
		fig->tokens += f->tokens;
		fig->comment_tokens += f->comment_tokens;
	}
	if (nr_langs)
		qsort(langs, nr_langs, sizeof(*langs), cmp_lang);
	for (i = 0; i <= nr_langs; i++) {
		struct lang_total total = { "total", fig->files, fig->lines, fig->code_lines, fig->tokens,
					    fig->comment_tokens };
		struct lang_total *l = i < nr_langs ? &langs[i] : &total;

		table_text(t, l->name);
		table_count(t, l->files);
		table_count(t, l->lines);
		table_count(t, l->code_lines);
		table_count(t, l->tokens);
		table_count(t, l->comment_tokens);
		if (l->code_lines)
			table_fixed(t, (double)l->tokens / (double)l->code_lines, 2);
		else
			table_none(t, "-");
	}
	table_end(rep, t);
	strbuf_addstr(pg, "<h2 id=\"size\">1. Size</h2><p>Tokens against non-blank, non-comment lines "
		      "(lines that hold at least one token that is not a comment); every token counts, "
		      "a comment is one token.</p>");
	table_html(pg, t, "<tr class=\"total\">");
	free(langs);
}

/* 2. People: every author's lines and tokens (authors.tsv, not on the page). */
static void section_authors(struct report *rep)
{
	static const char *const cols[] = { "author", "lines", "line_share", "line_rank", "tokens",
					    "token_share", "token_rank", NULL };
	struct author **all = xcalloc(rep->nr_authors + 1, sizeof(*all));
	struct table *t;
	size_t i;

	for (i = 0; i < rep->nr_authors; i++)
		all[i] = &rep->authors[i];
	t = table_begin(rep, "authors.tsv", cols);
	qsort(all, rep->nr_authors, sizeof(*all), cmp_all);
	for (i = 0; i < rep->nr_authors; i++) {
		table_text(t, all[i]->name);
		table_count(t, all[i]->lines);
		table_number(t, pct((double)all[i]->lines, (double)rep->total_lines));
		table_rank(t, all[i]->rank_lines);
		table_count(t, all[i]->tokens);
		table_number(t, pct((double)all[i]->tokens, (double)rep->total_tokens));
		table_rank(t, all[i]->rank_tokens);
	}
	table_end(rep, t);
	free(all);
}

/* An author's name, share and rank in the other count; three empty cells for none. */
static void top_cells(struct table *t, const struct author *a, size_t part, size_t total, size_t other_rank)
{
	if (!a) {
		table_none(t, "");
		table_none(t, "");
		table_none(t, "");
		return;
	}
	table_text(t, a->name);
	table_number(t, pct((double)part, (double)total));
	table_rank(t, other_rank);
}

/* 2. People: the top authors by tokens beside the top by lines. */
static void section_top(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "rank", "by_tokens", "token_share", "its_line_rank",
					    "by_lines", "line_share", "its_token_rank", NULL };
	size_t n = rep->nr_by_tokens > rep->nr_by_lines ? rep->nr_by_tokens : rep->nr_by_lines, i;
	struct table *t = table_begin(rep, "top.tsv", cols);

	if (n > fig->top)
		n = fig->top;
	for (i = 0; i < n; i++) {
		struct author *bt = i < rep->nr_by_tokens ? rep->by_tokens[i] : NULL;
		struct author *bl = i < rep->nr_by_lines ? rep->by_lines[i] : NULL;

		table_count(t, i + 1);
		top_cells(t, bt, bt ? bt->tokens : 0, rep->total_tokens, bt ? bt->rank_lines : 0);
		top_cells(t, bl, bl ? bl->lines : 0, rep->total_lines, bl ? bl->rank_tokens : 0);
	}
	table_end(rep, t);
	strbuf_addf(pg, "<h2 id=\"people\">2. People</h2><p>%zu %s in blame by lines, "
		    "%zu by tokens (names through the mailmap).</p>", rep->nr_by_lines,
		    rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens);
	strbuf_addf(pg, "<h3>The top %zu by tokens and by lines</h3>", fig->top);
	table_html(pg, t, NULL);
}

/* 2. People: the authors in only one of the two top lists. */
static void section_top_only(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "author", "in_top_by", "rank", "share", "other_rank",
					    "other_share", NULL };
	struct table *t = table_begin(rep, "top-only.tsv", cols);
	double total_lines = (double)rep->total_lines, total_tokens = (double)rep->total_tokens;
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct author **list = pass ? rep->by_lines : rep->by_tokens;
		size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens;

		for (i = 0; i < nr && i < fig->top; i++) {
			struct author *a = list[i];
			size_t other = pass ? a->rank_tokens : a->rank_lines;

			if (other && other <= fig->top) {
				if (!pass) {
					fig->in_both++;
					fig->same_rank += other == i + 1;
				}
				continue;
			}
			table_text(t, a->name);
			table_text(t, pass ? "lines" : "tokens");
			table_count(t, i + 1);
			table_number(t, pass ? pct((double)a->lines, total_lines) : pct((double)a->tokens, total_tokens));
			table_rank(t, other);
			table_number(t, pass ? pct((double)a->tokens, total_tokens) : pct((double)a->lines, total_lines));
		}
	}
	table_end(rep, t);
	strbuf_addf(pg, "<h3>In only one of the two top %zu</h3>", fig->top);
	table_html(pg, t, NULL);
	if (!table_rows(t))
		strbuf_addstr(pg, "<p>None: both lists hold the same authors.</p>");
}

/* 2. People: the share of the code from each source of a stitched history. */
static void section_eras(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "era", "source", "lines", "line_share", "tokens",
					    "token_share", NULL };
	size_t nr = (size_t)rep->nr_sources, i;
	size_t *el = xcalloc(nr + 1, sizeof(*el)), *et = xcalloc(nr + 1, sizeof(*et));
	char **labels = xcalloc(nr + 1, sizeof(*labels));
	struct table *t = table_begin(rep, "eras.tsv", cols);

	fig->era_l = xcalloc(nr + 1, sizeof(*fig->era_l));
	fig->era_t = xcalloc(nr + 1, sizeof(*fig->era_t));
	for (i = 0; i < rep->nr_commits; i++) {
		el[rep->commits[i].era - 1] += rep->commits[i].lines;
		et[rep->commits[i].era - 1] += rep->commits[i].tokens;
	}
	for (i = 0; i < nr; i++) {
		fig->era_l[i] = rep->total_lines ? 100.0 * (double)el[i] / (double)rep->total_lines : 0;
		fig->era_t[i] = rep->total_tokens ? 100.0 * (double)et[i] / (double)rep->total_tokens : 0;
		table_int(t, (long long)i + 1);
		table_text(t, rep->sources[i].path);
		table_count(t, el[i]);
		table_number(t, pct((double)el[i], (double)rep->total_lines));
		table_count(t, et[i]);
		table_number(t, pct((double)et[i], (double)rep->total_tokens));
		labels[i] = xstrfmt("era %zu", i + 1);
	}
	table_end(rep, t);
	strbuf_addstr(pg, nr > 1 ?
		      "<h3>Eras</h3><p>The share of the code from each source of a stitched "
		      "history (era 1 is the oldest).</p>" :
		      "<h3>Eras</h3><p>One source, one era: the history is not stitched.</p>");
	table_html(pg, t, NULL);
	if (nr > 1)
		svg_bars(pg, "Share of the code by era", nr, labels, fig->era_l, fig->era_t,
			 "by lines", "by tokens");
	free_strings(labels, nr);
	free(el);
	free(et);
}

/* The lines and tokens of each year of origin, oldest first. */
static struct year_total *year_totals(struct report *rep, size_t *nr_out)
{
	struct year_total *years = NULL;
	size_t nr = 0, alloc = 0, i, j;

	for (i = 0; i < rep->nr_commits; i++) {
		int y = year_of(rep->commits[i].time);

		for (j = 0; j < nr && years[j].year != y; j++)
			;
		if (j == nr) {
			ALLOC_GROW(years, nr + 1, alloc);
			years[j].year = y;
			years[j].lines = years[j].tokens = 0;
			nr++;
		}
		years[j].lines += rep->commits[i].lines;
		years[j].tokens += rep->commits[i].tokens;
	}
	if (nr)
		qsort(years, nr, sizeof(*years), cmp_year);
	*nr_out = nr;
	return years;
}

/* 3. Year of origin: the share of the code by the year of its commit. */
static void section_years(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "year", "lines", "line_share", "tokens", "token_share", NULL };
	size_t nr, i, j;
	struct year_total *years = year_totals(rep, &nr);
	double *yl = xcalloc(nr + 1, sizeof(*yl)), *yt = xcalloc(nr + 1, sizeof(*yt));
	char **labels = xcalloc(nr + 1, sizeof(*labels));
	struct table *t = table_begin(rep, "years.tsv", cols);

	for (i = 0; i < nr; i++) {
		yl[i] = rep->total_lines ? 100.0 * (double)years[i].lines / (double)rep->total_lines : 0;
		yt[i] = rep->total_tokens ? 100.0 * (double)years[i].tokens / (double)rep->total_tokens : 0;
		labels[i] = xstrfmt("%d", years[i].year);
		table_int(t, years[i].year);
		table_count(t, years[i].lines);
		table_number(t, pct((double)years[i].lines, (double)rep->total_lines));
		table_count(t, years[i].tokens);
		table_number(t, pct((double)years[i].tokens, (double)rep->total_tokens));
	}
	table_end(rep, t);
	strbuf_addstr(pg, "<h2 id=\"years\">3. Year of origin</h2><p>The share of the code by the "
		      "year (UTC) of the author date of the commit that introduced it.</p>");
	svg_bars(pg, "Share of the code by year of origin", nr, labels, yl, yt, "by lines", "by tokens");
	table_html(pg, t, NULL);
	/* the year where the two measures differ most, for the story */
	for (i = 0, j = 0; i < nr; i++)
		if (absd(yl[i] - yt[i]) > absd(yl[j] - yt[j]))
			j = i;
	if (nr) {
		fig->ymd_year = years[j].year;
		fig->ymd_l = yl[j];
		fig->ymd_t = yt[j];
	}
	free_strings(labels, nr);
	free(yl);
	free(yt);
	free(years);
}

/* What section 4 counts of the commit sizes. */
struct size_counts {
	size_t commits, small, only_removed, one_one, le10, churn0, churn_pos10, churn_neg;
	double median;  /* of the tokens changed */
};

static void count_sizes(struct report *rep, struct size_counts *sc, struct bucket *cb, size_t nr_cb,
			struct bucket *chb, size_t nr_chb)
{
	size_t n = rep->nr_csizes, *changed = xcalloc(n + 1, sizeof(*changed)), i, k;

	memset(sc, 0, sizeof(*sc));
	sc->commits = n;
	for (i = 0; i < n; i++) {
		size_t a = rep->csizes[i].added, r = rep->csizes[i].removed;
		long long churn = (long long)a - (long long)r;

		changed[i] = a + r;
		sc->small += a <= 3 && r <= 3;
		sc->only_removed += a == 0 && r > 0;
		sc->one_one += a == 1 && r == 1;
		sc->le10 += a + r <= 10;
		sc->churn0 += churn == 0;
		sc->churn_pos10 += churn > 0 && churn <= 10;
		sc->churn_neg += churn < 0;
		for (k = 0; k < nr_cb; k++)
			if ((long long)(a + r) >= cb[k].lo && (cb[k].hi < 0 || (long long)(a + r) <= cb[k].hi))
				cb[k].n++;
		for (k = 0; k < nr_chb; k++)
			if (churn >= chb[k].lo && churn <= chb[k].hi)
				chb[k].n++;
	}
	if (n) {
		qsort(changed, n, sizeof(*changed), cmp_size);
		sc->median = n % 2 ? (double)changed[n / 2]
				   : ((double)changed[n / 2 - 1] + (double)changed[n / 2]) / 2;
	}
	free(changed);
}

/* commit-sizes.tsv: the counts by their names, each with its share of the commits. */
static void commit_sizes_table(struct report *rep, const struct size_counts *sc)
{
	static const char *const cols[] = { "figure", "value", "share", NULL };
	struct table *t = table_begin(rep, "commit-sizes.tsv", cols);
	const struct { const char *figure; size_t count; } figures[] = {
		{ "commits", sc->commits }, { "added_le_3_and_removed_le_3", sc->small },
		{ "only_removed", sc->only_removed }, { "added_1_and_removed_1", sc->one_one },
		{ "changed_le_10", sc->le10 }, { NULL, 0 }, { "churn_zero", sc->churn0 },
		{ "churn_1_to_10", sc->churn_pos10 }, { "churn_negative", sc->churn_neg },
	};
	size_t k;

	for (k = 0; k < sizeof(figures) / sizeof(figures[0]); k++) {
		if (!figures[k].figure) {
			/* a median is no count: it has no share */
			table_text(t, "median_changed");
			table_fixed(t, sc->median, 1);
			table_none(t, "-");
			continue;
		}
		table_text(t, figures[k].figure);
		table_count(t, figures[k].count);
		table_number(t, pct((double)figures[k].count, (double)sc->commits));
	}
	table_end(rep, t);
}

/* The same counts on the page, in words. */
static void commit_sizes_html(struct report *rep, struct strbuf *pg, const struct size_counts *sc)
{
	static const char *const cols[] = { "commits", "number", "share", NULL };
	const struct { const char *what; size_t count; } rows[] = {
		{ "add at most 3 and remove at most 3 tokens", sc->small },
		{ "only remove tokens", sc->only_removed },
		{ "add one token and remove one", sc->one_one },
		{ "change (add + remove) at most 10 tokens", sc->le10 },
		{ "have zero churn", sc->churn0 },
		{ "have a positive churn of at most 10", sc->churn_pos10 },
		{ "have a negative churn", sc->churn_neg },
	};
	size_t k;

	strbuf_addf(pg, "<h2 id=\"commits\">4. Commit sizes in tokens</h2><p>%zu non-merge commits of the "
		    "token history", sc->commits);
	if (rep->opt.since) {
		strbuf_addstr(pg, " since ");
		html_text(pg, rep->opt.since);
	}
	if (rep->opt.until) {
		strbuf_addstr(pg, " until ");
		html_text(pg, rep->opt.until);
	}
	strbuf_addstr(pg, " change the selected files; a commit's size is the tokens it adds and "
		      "removes (the attribution engine's token diff), its churn the tokens added minus "
		      "the tokens removed. A commit that changes only whitespace changes no token "
		      "and is not among them.</p><table>");
	th_row(pg, cols);
	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		strbuf_addstr(pg, "<tr>");
		td(pg, rows[k].what);
		tdz(pg, rows[k].count);
		tdn(pg, pct((double)rows[k].count, (double)sc->commits));
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addf(pg, "<tr><td>median tokens changed</td><td class=\"n\">%.1f</td><td></td></tr></table>",
		    sc->median);
}

/* The commit id in the source of a token commit, which every sized commit has. */
static const char *orig_of_sized(struct report *rep, const char *token)
{
	const char *o = orig_of(rep, token);

	if (!o)
		die("token commit %s is not in the commit map", token);
	return o;
}

/* 4. Commit sizes: the largest commits, with their authors, dates and subjects. */
static void section_largest_commits(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "rank", "original", "token", "added", "removed", "changed",
					    "author", "date", "summary", NULL };
	size_t n = rep->nr_csizes, nl = n < fig->top ? n : fig->top, i;
	struct csize *largest = xcalloc(n + 1, sizeof(*largest));
	char (*ids)[41] = xcalloc(nl + 1, sizeof(*ids));
	struct detail *d = xcalloc(nl + 1, sizeof(*d));
	struct table *t;

	memcpy(largest, rep->csizes, n * sizeof(*largest));
	qsort(largest, n, sizeof(*largest), cmp_largest);
	for (i = 0; i < nl; i++)
		memcpy(ids[i], orig_of_sized(rep, largest[i].token), 41);
	commit_subjects(rep, ids, nl, d);
	t = table_begin(rep, "largest-commits.tsv", cols);
	strbuf_addf(pg, "<h3>The %zu largest commits</h3><table>", nl);
	th_row(pg, cols);
	for (i = 0; i < nl; i++) {
		size_t changed = largest[i].added + largest[i].removed;
		char day[16];

		day_of(d[i].time, day, sizeof(day));
		table_count(t, i + 1);
		table_text(t, ids[i]);
		table_text(t, largest[i].token);
		table_count(t, largest[i].added);
		table_count(t, largest[i].removed);
		table_count(t, changed);
		table_text(t, d[i].author);
		table_text(t, day);
		table_text(t, d[i].subject);
		/* the page shows short ids */
		strbuf_addf(pg, "<tr><td class=\"n\">%zu</td><td class=\"id\">%.12s</td><td class=\"id\">%.12s</td>",
			    i + 1, ids[i], largest[i].token);
		tdz(pg, largest[i].added);
		tdz(pg, largest[i].removed);
		tdz(pg, changed);
		td(pg, d[i].author);
		td(pg, day);
		td(pg, d[i].subject);
		strbuf_addstr(pg, "</tr>\n");
		free(d[i].author);
		free(d[i].subject);
	}
	strbuf_addstr(pg, "</table>");
	table_end(rep, t);
	free(largest);
	free(ids);
	free(d);
}

/* 4. Commit sizes: every sized commit (commits.tsv, not on the page). */
static void section_commits(struct report *rep)
{
	static const char *const cols[] = { "original", "token", "added", "removed", "changed", NULL };
	struct table *t = table_begin(rep, "commits.tsv", cols);
	size_t i;

	for (i = 0; i < rep->nr_csizes; i++) {
		const struct csize *c = &rep->csizes[i];

		table_text(t, orig_of_sized(rep, c->token));
		table_text(t, c->token);
		table_count(t, c->added);
		table_count(t, c->removed);
		table_count(t, c->added + c->removed);
	}
	table_end(rep, t);
}

/* 4. Commit sizes: the counts, and the commits by size and by churn. */
static void section_commit_sizes(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	struct bucket cb[] = {
		{ "0", 0, 0, 0 }, { "1", 1, 1, 0 }, { "2", 2, 2, 0 }, { "3", 3, 3, 0 },
		{ "4-10", 4, 10, 0 }, { "11-30", 11, 30, 0 }, { "31-100", 31, 100, 0 },
		{ "101-300", 101, 300, 0 }, { "301-1000", 301, 1000, 0 },
		{ "1001-10000", 1001, 10000, 0 }, { ">10000", 10001, -1, 0 },
	};
	struct bucket chb[] = {
		{ "<-100", -(1LL << 62), -101, 0 }, { "-100..-11", -100, -11, 0 },
		{ "-10..-1", -10, -1, 0 }, { "0", 0, 0, 0 }, { "1..10", 1, 10, 0 },
		{ "11..100", 11, 100, 0 }, { ">100", 101, 1LL << 62, 0 },
	};
	size_t nr_cb = sizeof(cb) / sizeof(cb[0]), nr_chb = sizeof(chb) / sizeof(chb[0]);
	struct size_counts sc;

	count_sizes(rep, &sc, cb, nr_cb, chb, nr_chb);
	commit_sizes_table(rep, &sc);
	commit_sizes_html(rep, pg, &sc);
	strbuf_addstr(pg, "<h3>Tokens changed per commit</h3>");
	histogram(rep, pg, "changed-histogram.tsv", "Commits by tokens changed (added + removed)",
		  "share of commits", cb, nr_cb, sc.commits);
	strbuf_addstr(pg, "<h3>Churn per commit</h3>");
	histogram(rep, pg, "churn-histogram.tsv", "Commits by churn (tokens added minus removed)",
		  "share of commits", chb, nr_chb, sc.commits);
	section_largest_commits(rep, pg, fig);
	section_commits(rep);
	table_text(fig->summary, "commits");
	table_count(fig->summary, sc.commits);
	table_text(fig->summary, "commits_changed_le_10");
	table_number(fig->summary, pct((double)sc.le10, (double)sc.commits));
	table_text(fig->summary, "median_changed");
	table_fixed(fig->summary, sc.median, 1);
}

/* Of a file's owners, the one with the most lines (by_tokens: tokens); ties to the first name. */
static size_t top_owner(const struct owner *o, size_t nr, int by_tokens)
{
	size_t best = 0, j;

	for (j = 0; j < nr; j++) {
		size_t v = by_tokens ? o[j].tokens : o[j].lines, bv = by_tokens ? o[best].tokens : o[best].lines;

		if (v > bv || (v == bv && strcmp(o[j].name, o[best].name) < 0))
			best = j;
	}
	return best;
}

/* 5. Every file's owners by both counts (files.tsv, not on the page); the files large enough. */
static void section_files(struct report *rep, struct figures *fig)
{
	static const char *const cols[] = { "path", "language", "lines", "code_lines", "tokens",
					    "authors_by_lines", "authors_by_tokens", "top_by_lines",
					    "top_line_share", "top_by_tokens", "top_token_share",
					    "distance", NULL };
	struct table *t = table_begin(rep, "files.tsv", cols);
	size_t i, j;

	fig->dis = xcalloc(rep->nr_files + 1, sizeof(*fig->dis));
	for (i = 0; i < rep->nr_files; i++) {
		struct rfile *f = &rep->files[i];
		struct owner *o;
		size_t no, nal = 0, nat = 0, bl, bt;

		if (f->skipped)
			continue;
		no = file_owners(rep, f, &o);
		for (j = 0; j < no; j++) {
			nal += o[j].lines > 0;
			nat += o[j].tokens > 0;
		}
		table_text(t, f->path);
		table_text(t, f->lang);
		table_count(t, f->lines);
		table_count(t, f->code_lines);
		table_count(t, f->tokens);
		table_count(t, nal);
		table_count(t, nat);
		if (no) {
			bl = top_owner(o, no, 0);
			bt = top_owner(o, no, 1);
			table_text(t, o[bl].name);
			table_number(t, pct((double)o[bl].lines, (double)f->lines));
			table_text(t, o[bt].name);
			table_number(t, pct((double)o[bt].tokens, (double)f->tokens));
			table_fixed(t, f->distance, 2);
		} else {
			for (j = 0; j < 4; j++)
				table_none(t, "");
			table_none(t, "-");
		}
		if (f->lines && f->tokens && f->tokens >= rep->opt.min_tokens)
			fig->dis[fig->nr_dis++] = f;
		free(o);
	}
	table_end(rep, t);
	if (fig->nr_dis)
		qsort(fig->dis, fig->nr_dis, sizeof(*fig->dis), cmp_distance);
}

/* 5. The files where lines and tokens disagree most, each with its owners. */
static void section_disagreement(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "rank", "path", "distance", "author", "lines", "line_share",
					    "tokens", "token_share", NULL };
	static const char *const owner_cols[] = { "author", "lines", "line share", "tokens", "token share", NULL };
	size_t n = fig->nr_dis < fig->top ? fig->nr_dis : fig->top, i, j;
	struct table *t = table_begin(rep, "disagreement.tsv", cols);

	strbuf_addf(pg, "<h2 id=\"disagree\">5. Where lines and tokens disagree most</h2><p>The files "
		    "(of at least %zu tokens) whose ownership differs most between the two counts. "
		    "The distance is the total variation distance between the shares of the authors by "
		    "lines and by tokens: half the sum of the differences, the share of the file that "
		    "changes hands when tokens are counted instead of lines.</p>", rep->opt.min_tokens);
	for (i = 0; i < n; i++) {
		struct rfile *f = fig->dis[i];
		struct owner *o;
		size_t no = file_owners(rep, f, &o);

		strbuf_addf(pg, "<h3>%zu. <code>", i + 1);
		html_text(pg, f->path);
		strbuf_addf(pg, "</code>: distance %.2f%%</h3><p>%zu lines, %zu tokens</p><table>",
			    f->distance, f->lines, f->tokens);
		th_row(pg, owner_cols);
		for (j = 0; j < no; j++) {
			table_count(t, i + 1);
			table_text(t, f->path);
			table_fixed(t, f->distance, 2);
			table_text(t, o[j].name);
			table_count(t, o[j].lines);
			table_number(t, pct((double)o[j].lines, (double)f->lines));
			table_count(t, o[j].tokens);
			table_number(t, pct((double)o[j].tokens, (double)f->tokens));
			/* on the page, each file's own table: the columns from "author" on */
			table_html_row(pg, t, table_rows(t) - 1, 3, NULL);
		}
		strbuf_addstr(pg, "</table>");
		free(o);
	}
	if (!n)
		strbuf_addstr(pg, "<p>No file is large enough.</p>");
	table_end(rep, t);
}

/* The distance between the authors' shares by lines and by tokens, over the whole tree. */
static double overall_distance(struct report *rep)
{
	size_t *l = xcalloc(rep->nr_authors + 1, sizeof(*l)), *t = xcalloc(rep->nr_authors + 1, sizeof(*t)), i;
	double d;

	for (i = 0; i < rep->nr_authors; i++) {
		l[i] = rep->authors[i].lines;
		t[i] = rep->authors[i].tokens;
	}
	d = distance(l, t, rep->nr_authors, rep->total_lines, rep->total_tokens);
	free(l);
	free(t);
	return d;
}

/* Whether commit a is older than commit b: by author date, then by id. */
static int older(struct report *rep, size_t a, size_t b)
{
	const struct gcommit *x = &rep->commits[a], *y = &rep->commits[b];

	return x->time < y->time || (x->time == y->time && strcmp(x->id, y->id) < 0);
}

/* The oldest commit that still owns tokens, (size_t)-1 for none: in one era, what "oldest" is. */
static size_t oldest_commit(struct report *rep)
{
	size_t oldest = (size_t)-1, i;

	for (i = 0; i < rep->nr_commits; i++)
		if (rep->commits[i].tokens && (oldest == (size_t)-1 || older(rep, i, oldest)))
			oldest = i;
	return oldest;
}

/*
 * The oldest commit that owns tokens inside a function, (size_t)-1 for
 * none: the oldest code that is code, where the oldest commit may own
 * only prose (a README, an AUTHORS file) or tokens between functions.
 */
static size_t oldest_code_commit(struct report *rep)
{
	size_t oldest = (size_t)-1, i, j, k;

	for (i = 0; i < rep->nr_files; i++)
		for (j = 0; j < rep->files[i].nr_fn; j++) {
			const struct ffunc *fn = &rep->files[i].fn[j];

			for (k = 0; k < fn->nr; k++)
				if (fn->count[k] && (oldest == (size_t)-1 || older(rep, fn->commit[k], oldest)))
					oldest = fn->commit[k];
		}
	return oldest;
}

/* The functions holding tokens of the oldest era (or of commit oldest), the most such tokens first. */
static struct old_fn *oldest_functions(struct report *rep, size_t oldest, size_t *nr_out)
{
	struct old_fn *of = NULL;
	size_t nr = 0, alloc = 0, i, j, k;

	for (i = 0; i < rep->nr_files; i++)
		for (j = 0; j < rep->files[i].nr_fn; j++) {
			struct ffunc *fn = &rep->files[i].fn[j];
			size_t m = 0;

			for (k = 0; k < fn->nr; k++)
				if (rep->nr_sources > 1 ? rep->commits[fn->commit[k]].era == 1 : fn->commit[k] == oldest)
					m += fn->count[k];
			if (!m)
				continue;
			ALLOC_GROW(of, nr + 1, alloc);
			of[nr].file = &rep->files[i];
			of[nr].fn = fn;
			of[nr].oldest = m;
			nr++;
		}
	if (nr)
		qsort(of, nr, sizeof(*of), cmp_old_fn);
	*nr_out = nr;
	return of;
}

/* A commit in words for the page: its short id, author and day. */
static void commit_in_words(struct report *rep, size_t c, struct strbuf *what)
{
	char day[16];

	day_of(rep->commits[c].time, day, sizeof(day));
	strbuf_addf(what, "<span class=\"id\">%.12s</span> by ", rep->commits[c].id);
	html_text(what, rep->commits[c].author);
	strbuf_addf(what, " of %s", day);
}

/* Where commit c's tokens are: up to three files, the most first, and how many files in all. */
static void files_of_commit(struct report *rep, size_t c, struct strbuf *what)
{
	size_t best[3] = { 0, 0, 0 }, tok[3] = { 0, 0, 0 }, nr = 0, i, j, m;

	for (i = 0; i < rep->nr_files; i++)
		for (j = 0; j < rep->files[i].nr_c; j++) {
			const struct fcount *fc = &rep->files[i].c[j];

			if (fc->commit != c || !fc->tokens)
				continue;
			nr++;
			for (m = 0; m < 3 && tok[m] >= fc->tokens; m++)
				;
			if (m < 3) {
				memmove(best + m + 1, best + m, (2 - m) * sizeof(*best));
				memmove(tok + m + 1, tok + m, (2 - m) * sizeof(*tok));
				best[m] = i;
				tok[m] = fc->tokens;
			}
		}
	for (m = 0; m < 3 && tok[m]; m++) {
		strbuf_addstr(what, m ? ", <code>" : "<code>");
		html_text(what, rep->files[best[m]].path);
		strbuf_addf(what, "</code> (%zu)", tok[m]);
	}
	if (nr > 3)
		strbuf_addf(what, " and %zu more files", nr - 3);
}

/*
 * What the table of the oldest code is of, in words for the page; and
 * why it is empty, when it is.
 */
static void oldest_in_words(struct report *rep, struct figures *fig, size_t nr_of, struct strbuf *what)
{
	size_t nr_fn = 0, i;

	for (i = 0; i < rep->nr_files; i++)
		nr_fn += rep->files[i].nr_fn;
	if (rep->nr_sources > 1) {
		strbuf_addstr(what, "The functions holding the most tokens from the oldest era (");
		html_text(what, rep->sources[0].path);
		strbuf_addstr(what, ").");
		if (!nr_of && nr_fn)
			strbuf_addstr(what, " None does: every token of the oldest era left is outside functions.");
	} else if (fig->oldest == (size_t)-1) {
		strbuf_addstr(what, "No commit owns a token of the selection.");
	} else if (!nr_fn) {
		strbuf_addstr(what, "The oldest commit that still owns tokens is ");
		commit_in_words(rep, fig->oldest, what);
		strbuf_addstr(what, "; no file of the selection holds a function as tokstream finds them "
			      "(languages with braces, and Python's <code>def</code>), so there is no "
			      "function to show.");
	} else if (fig->oldest_code != fig->oldest) {
		strbuf_addstr(what, "The oldest commit that still owns tokens, ");
		commit_in_words(rep, fig->oldest, what);
		strbuf_addstr(what, ", owns none inside a function: its tokens are in ");
		files_of_commit(rep, fig->oldest, what);
		strbuf_addstr(what, ". The oldest code in functions is from ");
		commit_in_words(rep, fig->oldest_code, what);
		strbuf_addstr(what, "; the functions holding the most of its tokens:");
	} else {
		strbuf_addstr(what, "The functions holding the most tokens from the oldest commit that "
			      "still owns tokens, ");
		commit_in_words(rep, fig->oldest, what);
		strbuf_addstr(what, ".");
	}
}

/* 6. The oldest code: the functions holding the most tokens of the oldest era or code. */
static void section_oldest(struct report *rep, struct strbuf *pg, struct figures *fig)
{
	static const char *const cols[] = { "rank", "path", "function", "line", "tokens", "oldest_tokens",
					    "oldest_share", NULL };
	struct table *t = table_begin(rep, "oldest-functions.tsv", cols);
	struct strbuf what = STRBUF_INIT;
	size_t nr_of, n, i;
	struct old_fn *of;

	fig->oldest = rep->nr_sources < 2 ? oldest_commit(rep) : (size_t)-1;
	fig->oldest_code = rep->nr_sources < 2 ? oldest_code_commit(rep) : (size_t)-1;
	of = oldest_functions(rep, fig->oldest_code, &nr_of);
	oldest_in_words(rep, fig, nr_of, &what);
	strbuf_addf(pg, "<h2 id=\"oldest\">6. The oldest code</h2><p>%s</p>", what.buf);
	n = nr_of < fig->top ? nr_of : fig->top;
	if (n) {
		strbuf_addstr(pg, "<table>");
		th_row(pg, cols);
	}
	for (i = 0; i < n; i++) {
		table_count(t, i + 1);
		table_text(t, of[i].file->path);
		table_text(t, of[i].fn->name);
		table_count(t, of[i].fn->line);
		table_count(t, of[i].fn->tokens);
		table_count(t, of[i].oldest);
		table_number(t, pct((double)of[i].oldest, (double)of[i].fn->tokens));
		/* the page: the path and the name as code */
		strbuf_addf(pg, "<tr><td class=\"n\">%zu</td><td><code>", i + 1);
		html_text(pg, of[i].file->path);
		strbuf_addstr(pg, "</code></td><td><code>");
		html_text(pg, of[i].fn->name);
		strbuf_addstr(pg, "</code></td>");
		table_html_cells(pg, t, i, 3);
		strbuf_addstr(pg, "</tr>\n");
	}
	if (n)
		strbuf_addstr(pg, "</table>");
	table_end(rep, t);
	free(of);
	strbuf_release(&what);
}

static size_t rank_change(const struct author *a)
{
	return a->rank_lines > a->rank_tokens ? a->rank_lines - a->rank_tokens : a->rank_tokens - a->rank_lines;
}

/* The (up to) three largest rank changes among the authors of either top list. */
static size_t largest_moves(struct report *rep, size_t top, struct author *moves[3])
{
	size_t i, m, nr;

	moves[0] = moves[1] = moves[2] = NULL;
	for (i = 0; i < rep->nr_authors; i++) {
		struct author *a = &rep->authors[i];
		size_t dm;

		if (!a->rank_lines || !a->rank_tokens || (a->rank_lines > top && a->rank_tokens > top))
			continue;
		dm = rank_change(a);
		if (!dm)
			continue;
		for (m = 0; m < 3; m++) {
			if (!moves[m]) {
				moves[m] = a;
				break;
			}
			if (dm > rank_change(moves[m]) ||
			    (dm == rank_change(moves[m]) && strcmp(a->name, moves[m]->name) < 0)) {
				memmove(&moves[m + 1], &moves[m], (2 - m) * sizeof(*moves));
				moves[m] = a;
				break;
			}
		}
	}
	for (nr = 0; nr < 3 && moves[nr]; nr++)
		;
	return nr;
}

/* The story's sentences about people: the rank changes, who is in one top list only. */
static void story_people(struct report *rep, struct strbuf *story, struct figures *fig)
{
	struct author *moves[3];
	size_t nmoves = largest_moves(rep, fig->top, moves), i;
	int pass;

	if (nmoves) {
		strbuf_addstr(story, "The largest rank changes: ");
		for (i = 0; i < nmoves; i++) {
			if (i)
				strbuf_addstr(story, i + 1 == nmoves ? " and " : ", ");
			html_text(story, moves[i]->name);
			strbuf_addf(story, " (%zu by lines, %zu by tokens)", moves[i]->rank_lines,
				    moves[i]->rank_tokens);
		}
		strbuf_addstr(story, ". ");
	}
	for (pass = 0; pass < 2; pass++) {
		struct author **list = pass ? rep->by_lines : rep->by_tokens;
		size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens, shown = 0;

		for (i = 0; i < nr && i < fig->top; i++) {
			size_t other = pass ? list[i]->rank_tokens : list[i]->rank_lines;

			if (other && other <= fig->top)
				continue;
			if (!shown++)
				strbuf_addf(story, "Only in the top %zu by %s: ", fig->top, pass ? "lines" : "tokens");
			else
				strbuf_addstr(story, ", ");
			html_text(story, list[i]->name);
		}
		if (shown)
			strbuf_addstr(story, ". ");
	}
}

/* Whether the two counts tell the same story: little code changes hands, the top lists agree. */
static int same_story(struct report *rep, const struct figures *fig)
{
	size_t ntop = rep->nr_by_tokens < fig->top ? rep->nr_by_tokens : fig->top;

	return fig->overall < 5.0 && (ntop == 0 || fig->in_both * 5 >= ntop * 4);
}

/* 7. The story, in numbers, at the top of the page. */
static void section_story(struct report *rep, struct strbuf *story, struct figures *fig)
{
	size_t ntop = rep->nr_by_tokens < fig->top ? rep->nr_by_tokens : fig->top;

	strbuf_addf(story, "<div class=\"story\"><p><b>%s</b> ", same_story(rep, fig) ?
		    "By and large, lines and tokens tell the same story here." :
		    "Lines and tokens tell different stories here.");
	strbuf_addf(story, "%zu %s in blame by lines, %zu by tokens. Of the top %zu by "
		    "tokens, %zu %s also in the top %zu by lines, %zu at the same rank. ",
		    rep->nr_by_lines, rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens,
		    ntop, fig->in_both, fig->in_both == 1 ? "is" : "are", fig->top, fig->same_rank);
	if (rep->nr_by_lines <= 1 && rep->nr_by_tokens <= 1)
		strbuf_addstr(story, "(With one author, the two counts cannot disagree about people.) ");
	story_people(rep, story, fig);
	strbuf_addf(story, "Between the two counts, %.2f%% of the code changes hands (the total variation "
		    "distance between the authors' shares by lines and by tokens).</p><p>", fig->overall);
	if (rep->nr_sources > 1)
		strbuf_addf(story, "The oldest era holds %.2f%% of the lines and %.2f%% of the tokens. ",
			    fig->era_l[0], fig->era_t[0]);
	else if (fig->oldest != (size_t)-1)
		strbuf_addf(story, "The oldest commit still holds %zu %s (%s%%) and %zu %s (%s%%). ",
			    rep->commits[fig->oldest].lines, rep->commits[fig->oldest].lines == 1 ? "line" : "lines",
			    pct((double)rep->commits[fig->oldest].lines, (double)rep->total_lines),
			    rep->commits[fig->oldest].tokens, rep->commits[fig->oldest].tokens == 1 ? "token" : "tokens",
			    pct((double)rep->commits[fig->oldest].tokens, (double)rep->total_tokens));
	if (fig->ymd_year)
		strbuf_addf(story, "By year of origin the counts differ most for %d: %.2f%% of the lines, "
			    "%.2f%% of the tokens. ", fig->ymd_year, fig->ymd_l, fig->ymd_t);
	if (fig->nr_dis && fig->dis[0]->distance > 0) {
		strbuf_addstr(story, "The file where they disagree most is <code>");
		html_text(story, fig->dis[0]->path);
		strbuf_addf(story, "</code> (distance %.2f%%). ", fig->dis[0]->distance);
	}
	strbuf_addf(story, "There are %s tokens for every non-blank, non-comment line.</p></div>",
		    fig->code_lines ? pct((double)fig->tokens, 100.0 * (double)fig->code_lines) : "-");
}

/* A row of summary.tsv that holds a count. */
static void summary_count(struct table *summary, const char *figure, size_t count)
{
	table_text(summary, figure);
	table_count(summary, count);
}

/* The rest of summary.tsv (section 4 wrote its rows about commits), and the verdict. */
static void section_summary(struct report *rep, struct figures *fig)
{
	struct table *sum = fig->summary;

	summary_count(sum, "files", fig->files);
	summary_count(sum, "lines", fig->lines);
	summary_count(sum, "code_lines", fig->code_lines);
	summary_count(sum, "tokens", fig->tokens);
	table_text(sum, "tokens_per_code_line");
	table_number(sum, fig->code_lines ? pct((double)fig->tokens, 100.0 * (double)fig->code_lines) : "-");
	summary_count(sum, "authors_by_lines", rep->nr_by_lines);
	summary_count(sum, "authors_by_tokens", rep->nr_by_tokens);
	summary_count(sum, "top", fig->top);
	summary_count(sum, "top_in_both", fig->in_both);
	summary_count(sum, "top_same_rank", fig->same_rank);
	table_text(sum, "distance");
	table_fixed(sum, fig->overall, 2);
	table_text(sum, "oldest_era_line_share");
	table_fixed(sum, fig->era_l[0], 2);
	table_text(sum, "oldest_era_token_share");
	table_fixed(sum, fig->era_t[0], 2);
	if (fig->oldest != (size_t)-1) {
		table_text(sum, "oldest_commit");
		table_text(sum, rep->commits[fig->oldest].id);
		table_text(sum, "oldest_commit_line_share");
		table_number(sum, pct((double)rep->commits[fig->oldest].lines, (double)rep->total_lines));
		table_text(sum, "oldest_commit_token_share");
		table_number(sum, pct((double)rep->commits[fig->oldest].tokens, (double)rep->total_tokens));
	}
	if (fig->oldest_code != (size_t)-1) {
		table_text(sum, "oldest_code_commit");
		table_text(sum, rep->commits[fig->oldest_code].id);
	}
	if (fig->nr_dis) {
		table_text(sum, "most_disagreeing_distance");
		table_fixed(sum, fig->dis[0]->distance, 2);
	}
	table_text(sum, "verdict");
	table_text(sum, same_story(rep, fig) ? "same" : "different");
	table_end(rep, sum);
}

/*
 * The report: every section in the order of the page, then the page
 * (the story first) and report.json.  summary.tsv is begun first, so
 * that it is the first table of report.json; its rows come last.
 */
void write_report(struct report *rep)
{
	static const char *const summary_cols[] = { "figure", "value", NULL };
	struct strbuf pg = STRBUF_INIT, story = STRBUF_INIT;
	struct figures fig;

	memset(&fig, 0, sizeof(fig));
	fig.summary = table_begin(rep, "summary.tsv", summary_cols);
	fig.top = (size_t)rep->opt.top;
	fig.oldest = fig.oldest_code = (size_t)-1;
	section_size(rep, &pg, &fig);
	write_left_out(rep, &pg);
	rank_authors(rep);
	section_authors(rep);
	section_top(rep, &pg, &fig);
	section_top_only(rep, &pg, &fig);
	section_eras(rep, &pg, &fig);
	section_years(rep, &pg, &fig);
	write_age(rep, &pg);
	section_commit_sizes(rep, &pg, &fig);
	file_distances(rep);
	section_files(rep, &fig);
	section_disagreement(rep, &pg, &fig);
	fig.overall = overall_distance(rep);
	section_oldest(rep, &pg, &fig);
	section_story(rep, &story, &fig);
	section_summary(rep, &fig);
	write_page(rep, &story, &pg, fig.files, fig.lines, fig.tokens);
	write_report_json(rep);
	free(fig.era_l);
	free(fig.era_t);
	free(fig.dis);
	strbuf_release(&pg);
	strbuf_release(&story);
}
