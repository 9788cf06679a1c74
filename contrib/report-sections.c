/*
 * The sections of the report, one function each, in the order of the
 * page: each computes its figures, writes its table (the TSV file and
 * its part of report.json) and its part of the page.
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

/* The code age: age.tsv, a chart by tokens and one by lines, a table of the points. */
static void write_age(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "sample", "date", "commit", "year", "lines", "line_share", "tokens",
					    "token_share", NULL };
	static const char *const tcols[] = { "sample", "date", "commit", "lines", "tokens", NULL };
	size_t n = rep->nr_age_samples, nr_y = 0, alloc_y = 0, k, y, j;
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
		    "at %s, and at the revision itself: %zu %s, in the order of the history, counted in the "
		    "same replays of the whole history as the rest; the oldest year at the bottom.",
		    rep->opt.every == AGE_EVERY_YEAR ? "the last commit of each year on its first-parent line"
						: "each tag of its history",
		    n, n == 1 ? "point" : "points");
	if (!rep->age_lines)
		strbuf_addstr(pg, " By tokens only: with -M or ignored revisions the lines are blamed by "
			      "<code>git blame</code>, not by a replay.");
	strbuf_addstr(pg, "</p>");
	svg_areas(pg, "Share of the tokens by year of origin over time", n, xlabels, nr_y, ylabels, vt);
	if (rep->age_lines)
		svg_areas(pg, "Share of the lines by year of origin over time", n, xlabels, nr_y, ylabels, vl);
	strbuf_addstr(pg, "<table>");
	th_row(pg, tcols);
	for (k = 0; k < n; k++) {
		const struct age_sample *a = &rep->age_samples[k];

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
	for (j = 0; j < nr_y; j++)
		free(ylabels[j]);
	free(ylabels);
	free(xlabels);
	free(years);
	free(vl);
	free(vt);
}

void write_report(struct report *rep, const char *rev, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf pg = STRBUF_INIT, story = STRBUF_INIT;
	struct lang_total *langs = NULL;
	struct year_total *years = NULL;
	size_t nr_langs = 0, alloc_langs = 0, nr_years = 0, alloc_years = 0, i, j, k;
	size_t nr_top = (size_t)rep->opt.top, code_lines = 0, lines = 0, tokens = 0, comment_tokens = 0, nfiles = 0;
	size_t in_both = 0, same_rank = 0, oldest = (size_t)-1;
	double overall, *era_l, *era_t, ymd_l = 0, ymd_t = 0;
	int ymd_year = 0;
	char r1[32], r2[32];
	struct rfile **dis;
	size_t nr_dis = 0;
	static const char *const sum_cols[] = { "figure", "value", NULL };
	struct table *sum = table_begin(rep, "summary.tsv", sum_cols);

	/* ---- 1. size ---- */
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
		nfiles++;
		lines += f->lines;
		code_lines += f->code_lines;
		tokens += f->tokens;
		comment_tokens += f->comment_tokens;
	}
	if (nr_langs)
		qsort(langs, nr_langs, sizeof(*langs), cmp_lang);
	{
		static const char *const cols[] = { "language", "files", "lines", "code_lines", "tokens",
						    "comment_tokens", "tokens_per_code_line", NULL };

		struct table *t = table_begin(rep, "size.tsv", cols);

		strbuf_addstr(&pg, "<h2 id=\"size\">1. Size</h2><p>Tokens against non-blank, non-comment lines "
			      "(lines that hold at least one token that is not a comment); every token counts, "
			      "a comment is one token.</p><table>");
		th_row(&pg, cols);
		for (k = 0; k <= nr_langs; k++) {
			struct lang_total tot = { "total", nfiles, lines, code_lines, tokens, comment_tokens };
			struct lang_total *l = k < nr_langs ? &langs[k] : &tot;
			char ratio[32];

			if (l->code_lines)
				snprintf(ratio, sizeof(ratio), "%.2f", (double)l->tokens / (double)l->code_lines);
			else
				snprintf(ratio, sizeof(ratio), "-");
			table_text(t, l->name);
			table_count(t, l->files);
			table_count(t, l->lines);
			table_count(t, l->code_lines);
			table_count(t, l->tokens);
			table_count(t, l->comment_tokens);
			table_number(t, ratio);
			strbuf_addstr(&pg, k < nr_langs ? "<tr>" : "<tr class=\"total\">");
			td(&pg, l->name);
			tdz(&pg, l->files);
			tdz(&pg, l->lines);
			tdz(&pg, l->code_lines);
			tdz(&pg, l->tokens);
			tdz(&pg, l->comment_tokens);
			tdn(&pg, ratio);
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, t);
	}
	write_left_out(rep, &pg);

	/* ---- 2. people ---- */
	rank_authors(rep);
	{
		static const char *const cols[] = { "author", "lines", "line_share", "line_rank", "tokens",
						    "token_share", "token_rank", NULL };
		struct author **all = xcalloc(rep->nr_authors + 1, sizeof(*all));

		for (i = 0; i < rep->nr_authors; i++)
			all[i] = &rep->authors[i];
		struct table *t = table_begin(rep, "authors.tsv", cols);

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
	{
		static const char *const cols[] = { "rank", "by_tokens", "token_share", "its_line_rank",
						    "by_lines", "line_share", "its_token_rank", NULL };
		size_t n = rep->nr_by_tokens > rep->nr_by_lines ? rep->nr_by_tokens : rep->nr_by_lines;
		struct table *tt = table_begin(rep, "top.tsv", cols);

		if (n > nr_top)
			n = nr_top;
		strbuf_addf(&pg, "<h2 id=\"people\">2. People</h2><p>%zu %s in blame by lines, "
			    "%zu by tokens (names through the mailmap).</p>", rep->nr_by_lines,
			    rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens);
		strbuf_addf(&pg, "<h3>The top %zu by tokens and by lines</h3><table>", nr_top);
		th_row(&pg, cols);
		for (i = 0; i < n; i++) {
			struct author *t = i < rep->nr_by_tokens ? rep->by_tokens[i] : NULL;
			struct author *l = i < rep->nr_by_lines ? rep->by_lines[i] : NULL;

			table_count(tt, i + 1);
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td>", i + 1);
			if (t) {
				rank_str(t->rank_lines, r1, sizeof(r1));
				table_text(tt, t->name);
				table_number(tt, pct((double)t->tokens, (double)rep->total_tokens));
				table_rank(tt, t->rank_lines);
				td(&pg, t->name);
				tdn(&pg, pct((double)t->tokens, (double)rep->total_tokens));
				tdn(&pg, r1);
			} else {
				table_none(tt, "");
				table_none(tt, "");
				table_none(tt, "");
				strbuf_addstr(&pg, "<td></td><td></td><td></td>");
			}
			if (l) {
				rank_str(l->rank_tokens, r2, sizeof(r2));
				table_text(tt, l->name);
				table_number(tt, pct((double)l->lines, (double)rep->total_lines));
				table_rank(tt, l->rank_tokens);
				td(&pg, l->name);
				tdn(&pg, pct((double)l->lines, (double)rep->total_lines));
				tdn(&pg, r2);
			} else {
				table_none(tt, "");
				table_none(tt, "");
				table_none(tt, "");
				strbuf_addstr(&pg, "<td></td><td></td><td></td>");
			}
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, tt);
	}
	{
		static const char *const cols[] = { "author", "in_top_by", "rank", "share", "other_rank",
						    "other_share", NULL };
		struct table *t = table_begin(rep, "top-only.tsv", cols);
		int pass;

		strbuf_addf(&pg, "<h3>In only one of the two top %zu</h3><table>", nr_top);
		th_row(&pg, cols);
		for (pass = 0; pass < 2; pass++) {
			struct author **list = pass ? rep->by_lines : rep->by_tokens;
			size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens;

			for (i = 0; i < nr && i < nr_top; i++) {
				struct author *a = list[i];
				size_t other = pass ? a->rank_tokens : a->rank_lines;
				const char *share = pass ? pct((double)a->lines, (double)rep->total_lines)
							 : pct((double)a->tokens, (double)rep->total_tokens);
				const char *oshare = pass ? pct((double)a->tokens, (double)rep->total_tokens)
							  : pct((double)a->lines, (double)rep->total_lines);

				if (other && other <= nr_top) {
					if (!pass) {
						in_both++;
						same_rank += other == i + 1;
					}
					continue;
				}
				rank_str(other, r1, sizeof(r1));
				table_text(t, a->name);
				table_text(t, pass ? "lines" : "tokens");
				table_count(t, i + 1);
				table_number(t, share);
				table_rank(t, other);
				table_number(t, oshare);
				strbuf_addstr(&pg, "<tr>");
				td(&pg, a->name);
				td(&pg, pass ? "lines" : "tokens");
				tdz(&pg, i + 1);
				tdn(&pg, share);
				tdn(&pg, r1);
				tdn(&pg, oshare);
				strbuf_addstr(&pg, "</tr>\n");
			}
		}
		strbuf_addstr(&pg, "</table>");
		if (!table_rows(t))
			strbuf_addstr(&pg, "<p>None: both lists hold the same authors.</p>");
		table_end(rep, t);
	}
	/* eras */
	era_l = xcalloc((size_t)rep->nr_sources + 1, sizeof(*era_l));
	era_t = xcalloc((size_t)rep->nr_sources + 1, sizeof(*era_t));
	{
		static const char *const cols[] = { "era", "source", "lines", "line_share", "tokens",
						    "token_share", NULL };
		size_t *el = xcalloc((size_t)rep->nr_sources + 1, sizeof(*el)), *et = xcalloc((size_t)rep->nr_sources + 1, sizeof(*et));
		char **labels = xcalloc((size_t)rep->nr_sources + 1, sizeof(*labels));
		struct table *t = table_begin(rep, "eras.tsv", cols);
		int e;

		for (i = 0; i < rep->nr_commits; i++) {
			el[rep->commits[i].era - 1] += rep->commits[i].lines;
			et[rep->commits[i].era - 1] += rep->commits[i].tokens;
		}
		strbuf_addstr(&pg, rep->nr_sources > 1 ?
			      "<h3>Eras</h3><p>The share of the code from each source of a stitched "
			      "history (era 1 is the oldest).</p><table>" :
			      "<h3>Eras</h3><p>One source, one era: the history is not stitched.</p><table>");
		th_row(&pg, cols);
		for (e = 0; e < rep->nr_sources; e++) {
			era_l[e] = rep->total_lines ? 100.0 * (double)el[e] / (double)rep->total_lines : 0;
			era_t[e] = rep->total_tokens ? 100.0 * (double)et[e] / (double)rep->total_tokens : 0;
			table_int(t, e + 1);
			table_text(t, rep->sources[e].path);
			table_count(t, el[e]);
			table_number(t, pct((double)el[e], (double)rep->total_lines));
			table_count(t, et[e]);
			table_number(t, pct((double)et[e], (double)rep->total_tokens));
			strbuf_addf(&pg, "<tr><td class=\"n\">%d</td>", e + 1);
			td(&pg, rep->sources[e].path);
			tdz(&pg, el[e]);
			tdn(&pg, pct((double)el[e], (double)rep->total_lines));
			tdz(&pg, et[e]);
			tdn(&pg, pct((double)et[e], (double)rep->total_tokens));
			strbuf_addstr(&pg, "</tr>\n");
			labels[e] = xmalloc(32);
			snprintf(labels[e], 32, "era %d", e + 1);
		}
		strbuf_addstr(&pg, "</table>");
		if (rep->nr_sources > 1)
			svg_bars(&pg, "Share of the code by era", (size_t)rep->nr_sources, labels, era_l, era_t,
				 "by lines", "by tokens");
		for (e = 0; e < rep->nr_sources; e++)
			free(labels[e]);
		free(labels);
		free(el);
		free(et);
		table_end(rep, t);
	}

	/* ---- 3. year of origin ---- */
	for (i = 0; i < rep->nr_commits; i++) {
		int y = year_of(rep->commits[i].time);

		for (j = 0; j < nr_years && years[j].year != y; j++)
			;
		if (j == nr_years) {
			ALLOC_GROW(years, nr_years + 1, alloc_years);
			years[j].year = y;
			years[j].lines = years[j].tokens = 0;
			nr_years++;
		}
		years[j].lines += rep->commits[i].lines;
		years[j].tokens += rep->commits[i].tokens;
	}
	if (nr_years)
		qsort(years, nr_years, sizeof(*years), cmp_year);
	{
		static const char *const cols[] = { "year", "lines", "line_share", "tokens", "token_share", NULL };
		double *yl = xcalloc(nr_years + 1, sizeof(*yl)), *yt = xcalloc(nr_years + 1, sizeof(*yt));
		char **labels = xcalloc(nr_years + 1, sizeof(*labels));
		struct table *t = table_begin(rep, "years.tsv", cols);

		strbuf_addstr(&pg, "<h2 id=\"years\">3. Year of origin</h2><p>The share of the code by the "
			      "year (UTC) of the author date of the commit that introduced it.</p>");
		for (i = 0; i < nr_years; i++) {
			yl[i] = rep->total_lines ? 100.0 * (double)years[i].lines / (double)rep->total_lines : 0;
			yt[i] = rep->total_tokens ? 100.0 * (double)years[i].tokens / (double)rep->total_tokens : 0;
			labels[i] = xmalloc(16);
			snprintf(labels[i], 16, "%d", years[i].year);
			table_int(t, years[i].year);
			table_count(t, years[i].lines);
			table_number(t, pct((double)years[i].lines, (double)rep->total_lines));
			table_count(t, years[i].tokens);
			table_number(t, pct((double)years[i].tokens, (double)rep->total_tokens));
		}
		svg_bars(&pg, "Share of the code by year of origin", nr_years, labels, yl, yt,
			 "by lines", "by tokens");
		strbuf_addstr(&pg, "<table>");
		th_row(&pg, cols);
		for (i = 0; i < nr_years; i++) {
			strbuf_addstr(&pg, "<tr>");
			tdn(&pg, labels[i]);
			tdz(&pg, years[i].lines);
			tdn(&pg, pct((double)years[i].lines, (double)rep->total_lines));
			tdz(&pg, years[i].tokens);
			tdn(&pg, pct((double)years[i].tokens, (double)rep->total_tokens));
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, t);
		/* the year where the two measures differ most, for the story */
		for (i = 0, j = 0; i < nr_years; i++)
			if (absd(yl[i] - yt[i]) > absd(yl[j] - yt[j]))
				j = i;
		if (nr_years) {
			ymd_year = years[j].year;
			ymd_l = yl[j];
			ymd_t = yt[j];
		}
		for (i = 0; i < nr_years; i++)
			free(labels[i]);
		free(labels);
		free(yl);
		free(yt);
	}
	write_age(rep, &pg);

	/* ---- 4. commit sizes ---- */
	{
		static const char *const cols[] = { "figure", "value", "share", NULL };
		size_t n = rep->nr_csizes, small = 0, only_removed = 0, one_one = 0, le10 = 0, churn0 = 0,
			churn_pos10 = 0, churn_neg = 0, *changed = xcalloc(n + 1, sizeof(*changed));
		double median = 0;
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
		struct csize *largest;
		char (*ids)[41];
		struct detail *d;
		struct table *lt;
		size_t nl;

		for (i = 0; i < n; i++) {
			size_t a = rep->csizes[i].added, r = rep->csizes[i].removed;
			long long churn = (long long)a - (long long)r;

			changed[i] = a + r;
			small += a <= 3 && r <= 3;
			only_removed += a == 0 && r > 0;
			one_one += a == 1 && r == 1;
			le10 += a + r <= 10;
			churn0 += churn == 0;
			churn_pos10 += churn > 0 && churn <= 10;
			churn_neg += churn < 0;
			for (k = 0; k < sizeof(cb) / sizeof(cb[0]); k++)
				if ((long long)(a + r) >= cb[k].lo && (cb[k].hi < 0 || (long long)(a + r) <= cb[k].hi))
					cb[k].n++;
			for (k = 0; k < sizeof(chb) / sizeof(chb[0]); k++)
				if (churn >= chb[k].lo && churn <= chb[k].hi)
					chb[k].n++;
		}
		if (n) {
			qsort(changed, n, sizeof(*changed), cmp_size);
			median = n % 2 ? (double)changed[n / 2] : ((double)changed[n / 2 - 1] + (double)changed[n / 2]) / 2;
		}
		{
			struct table *t = table_begin(rep, "commit-sizes.tsv", cols);
			const struct { const char *figure; size_t count; } figures[] = {
				{ "commits", n }, { "added_le_3_and_removed_le_3", small },
				{ "only_removed", only_removed }, { "added_1_and_removed_1", one_one },
				{ "changed_le_10", le10 }, { NULL, 0 }, { "churn_zero", churn0 },
				{ "churn_1_to_10", churn_pos10 }, { "churn_negative", churn_neg },
			};

			for (k = 0; k < sizeof(figures) / sizeof(figures[0]); k++) {
				if (!figures[k].figure) {
					/* a median is no count: it has no share */
					table_text(t, "median_changed");
					table_fixed(t, median, 1);
					table_none(t, "-");
					continue;
				}
				table_text(t, figures[k].figure);
				table_count(t, figures[k].count);
				table_number(t, pct((double)figures[k].count, (double)n));
			}
			table_end(rep, t);
		}

		strbuf_addf(&pg, "<h2 id=\"commits\">4. Commit sizes in tokens</h2><p>%zu non-merge commits of the "
			    "token history", n);
		if (rep->opt.since) {
			strbuf_addstr(&pg, " since ");
			html_text(&pg, rep->opt.since);
		}
		if (rep->opt.until) {
			strbuf_addstr(&pg, " until ");
			html_text(&pg, rep->opt.until);
		}
		strbuf_addstr(&pg, " change the selected files; a commit's size is the tokens it adds and "
			    "removes (the attribution engine's token diff), its churn the tokens added minus "
			    "the tokens removed. A commit that changes only whitespace changes no token "
			    "and is not among them.</p><table>");
		{
			static const char *const c2[] = { "commits", "number", "share", NULL };

			th_row(&pg, c2);
		}
#define ROW(label, v) do { strbuf_addstr(&pg, "<tr>"); td(&pg, label); tdz(&pg, v); \
		tdn(&pg, pct((double)(v), (double)n)); strbuf_addstr(&pg, "</tr>\n"); } while (0)
		ROW("add at most 3 and remove at most 3 tokens", small);
		ROW("only remove tokens", only_removed);
		ROW("add one token and remove one", one_one);
		ROW("change (add + remove) at most 10 tokens", le10);
		ROW("have zero churn", churn0);
		ROW("have a positive churn of at most 10", churn_pos10);
		ROW("have a negative churn", churn_neg);
#undef ROW
		strbuf_addf(&pg, "<tr><td>median tokens changed</td><td class=\"n\">%.1f</td><td></td></tr></table>",
			    median);
		strbuf_addstr(&pg, "<h3>Tokens changed per commit</h3>");
		histogram(rep, &pg, "changed-histogram.tsv", "Commits by tokens changed (added + removed)",
			  "share of commits", cb, sizeof(cb) / sizeof(cb[0]), n);
		strbuf_addstr(&pg, "<h3>Churn per commit</h3>");
		histogram(rep, &pg, "churn-histogram.tsv", "Commits by churn (tokens added minus removed)",
			  "share of commits", chb, sizeof(chb) / sizeof(chb[0]), n);

		/* the largest */
		largest = xcalloc(n + 1, sizeof(*largest));
		memcpy(largest, rep->csizes, n * sizeof(*largest));
		qsort(largest, n, sizeof(*largest), cmp_largest);
		nl = n < nr_top ? n : nr_top;
		ids = xcalloc(nl + 1, sizeof(*ids));
		d = xcalloc(nl + 1, sizeof(*d));
		for (i = 0; i < nl; i++) {
			const char *o = orig_of(rep, largest[i].token);

			if (!o)
				die("token commit %s is not in the commit map", largest[i].token);
			memcpy(ids[i], o, 41);
		}
		commit_subjects(rep, ids, nl, d);
		{
			static const char *const c3[] = { "rank", "original", "token", "added", "removed", "changed",
							  "author", "date", "summary", NULL };

			lt = table_begin(rep, "largest-commits.tsv", c3);
			strbuf_addf(&pg, "<h3>The %zu largest commits</h3><table>", nl);
			th_row(&pg, c3);
		}
		for (i = 0; i < nl; i++) {
			char day[16];

			day_of(d[i].time, day, sizeof(day));
			table_count(lt, i + 1);
			table_text(lt, ids[i]);
			table_text(lt, largest[i].token);
			table_count(lt, largest[i].added);
			table_count(lt, largest[i].removed);
			table_count(lt, largest[i].added + largest[i].removed);
			table_text(lt, d[i].author);
			table_text(lt, day);
			table_text(lt, d[i].subject);
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td><td class=\"id\">%.12s</td><td class=\"id\">%.12s</td>",
				    i + 1, ids[i], largest[i].token);
			tdz(&pg, largest[i].added);
			tdz(&pg, largest[i].removed);
			tdz(&pg, largest[i].added + largest[i].removed);
			td(&pg, d[i].author);
			td(&pg, day);
			td(&pg, d[i].subject);
			strbuf_addstr(&pg, "</tr>\n");
			free(d[i].author);
			free(d[i].subject);
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, lt);
		{
			static const char *const c4[] = { "original", "token", "added", "removed", "changed", NULL };
			struct table *t = table_begin(rep, "commits.tsv", c4);

			for (i = 0; i < n; i++) {
				const char *o = orig_of(rep, rep->csizes[i].token);

				if (!o)
					die("token commit %s is not in the commit map", rep->csizes[i].token);
				table_text(t, o);
				table_text(t, rep->csizes[i].token);
				table_count(t, rep->csizes[i].added);
				table_count(t, rep->csizes[i].removed);
				table_count(t, rep->csizes[i].added + rep->csizes[i].removed);
			}
			table_end(rep, t);
		}
		table_text(sum, "commits");
		table_count(sum, n);
		table_text(sum, "commits_changed_le_10");
		table_number(sum, pct((double)le10, (double)n));
		table_text(sum, "median_changed");
		table_fixed(sum, median, 1);
		free(largest);
		free(ids);
		free(d);
		free(changed);
	}

	/* ---- 5. where the two measures disagree ---- */
	file_distances(rep);
	{
		static const char *const cols[] = { "path", "language", "lines", "code_lines", "tokens",
						    "authors_by_lines", "authors_by_tokens", "top_by_lines",
						    "top_line_share", "top_by_tokens", "top_token_share",
						    "distance", NULL };

		struct table *t = table_begin(rep, "files.tsv", cols);

		dis = xcalloc(rep->nr_files + 1, sizeof(*dis));
		for (i = 0; i < rep->nr_files; i++) {
			struct rfile *f = &rep->files[i];
			struct owner *o;
			size_t no, nal = 0, nat = 0, bl = 0, bt = 0;

			if (f->skipped)
				continue;
			no = file_owners(rep, f, &o);
			for (j = 0; j < no; j++) {
				nal += o[j].lines > 0;
				nat += o[j].tokens > 0;
				if (o[j].lines > o[bl].lines ||
				    (o[j].lines == o[bl].lines && strcmp(rep->authors[o[j].author].name, rep->authors[o[bl].author].name) < 0))
					bl = j;
				if (o[j].tokens > o[bt].tokens ||
				    (o[j].tokens == o[bt].tokens && strcmp(rep->authors[o[j].author].name, rep->authors[o[bt].author].name) < 0))
					bt = j;
			}
			table_text(t, f->path);
			table_text(t, f->lang);
			table_count(t, f->lines);
			table_count(t, f->code_lines);
			table_count(t, f->tokens);
			table_count(t, nal);
			table_count(t, nat);
			if (no) {
				table_text(t, rep->authors[o[bl].author].name);
				table_number(t, pct((double)o[bl].lines, (double)f->lines));
				table_text(t, rep->authors[o[bt].author].name);
				table_number(t, pct((double)o[bt].tokens, (double)f->tokens));
				table_fixed(t, f->distance, 2);
			} else {
				for (j = 0; j < 4; j++)
					table_none(t, "");
				table_none(t, "-");
			}
			if (f->lines && f->tokens && f->tokens >= rep->opt.min_tokens)
				dis[nr_dis++] = f;
			free(o);
		}
		table_end(rep, t);
		if (nr_dis)
			qsort(dis, nr_dis, sizeof(*dis), cmp_distance);
	}
	{
		static const char *const cols[] = { "rank", "path", "distance", "author", "lines", "line_share",
						    "tokens", "token_share", NULL };
		size_t n = nr_dis < nr_top ? nr_dis : nr_top;
		struct table *t = table_begin(rep, "disagreement.tsv", cols);

		strbuf_addf(&pg, "<h2 id=\"disagree\">5. Where lines and tokens disagree most</h2><p>The files "
			    "(of at least %zu tokens) whose ownership differs most between the two counts. "
			    "The distance is the total variation distance between the shares of the authors by "
			    "lines and by tokens: half the sum of the differences, the share of the file that "
			    "changes hands when tokens are counted instead of lines.</p>", rep->opt.min_tokens);
		for (i = 0; i < n; i++) {
			struct rfile *f = dis[i];
			struct owner *o;
			size_t no = file_owners(rep, f, &o);
			static const char *const c2[] = { "author", "lines", "line share", "tokens", "token share", NULL };

			strbuf_addf(&pg, "<h3>%zu. <code>", i + 1);
			html_text(&pg, f->path);
			strbuf_addf(&pg, "</code>: distance %.2f%%</h3><p>%zu lines, %zu tokens</p><table>",
				    f->distance, f->lines, f->tokens);
			th_row(&pg, c2);
			for (j = 0; j < no; j++) {
				table_count(t, i + 1);
				table_text(t, f->path);
				table_fixed(t, f->distance, 2);
				table_text(t, rep->authors[o[j].author].name);
				table_count(t, o[j].lines);
				table_number(t, pct((double)o[j].lines, (double)f->lines));
				table_count(t, o[j].tokens);
				table_number(t, pct((double)o[j].tokens, (double)f->tokens));
				strbuf_addstr(&pg, "<tr>");
				td(&pg, rep->authors[o[j].author].name);
				tdz(&pg, o[j].lines);
				tdn(&pg, pct((double)o[j].lines, (double)f->lines));
				tdz(&pg, o[j].tokens);
				tdn(&pg, pct((double)o[j].tokens, (double)f->tokens));
				strbuf_addstr(&pg, "</tr>\n");
			}
			strbuf_addstr(&pg, "</table>");
			free(o);
		}
		if (!n)
			strbuf_addstr(&pg, "<p>No file is large enough.</p>");
		table_end(rep, t);
	}
	{
		size_t *l = xcalloc(rep->nr_authors + 1, sizeof(*l)), *t = xcalloc(rep->nr_authors + 1, sizeof(*t));

		for (i = 0; i < rep->nr_authors; i++) {
			l[i] = rep->authors[i].lines;
			t[i] = rep->authors[i].tokens;
		}
		overall = distance(l, t, rep->nr_authors, rep->total_lines, rep->total_tokens);
		free(l);
		free(t);
	}

	/* ---- 6. the oldest code ---- */
	{
		static const char *const cols[] = { "rank", "path", "function", "line", "tokens", "oldest_tokens",
						    "oldest_share", NULL };
		struct old_fn *of = NULL;
		size_t nr_of = 0, alloc_of = 0, n;
		struct strbuf what = STRBUF_INIT;
		struct table *t = table_begin(rep, "oldest-functions.tsv", cols);

		if (rep->nr_sources < 2)
			for (i = 0; i < rep->nr_commits; i++) {
				if (!rep->commits[i].tokens)
					continue;
				if (oldest == (size_t)-1 || rep->commits[i].time < rep->commits[oldest].time ||
				    (rep->commits[i].time == rep->commits[oldest].time && strcmp(rep->commits[i].id, rep->commits[oldest].id) < 0))
					oldest = i;
			}
		for (i = 0; i < rep->nr_files; i++)
			for (j = 0; j < rep->files[i].nr_fn; j++) {
				struct ffunc *fn = &rep->files[i].fn[j];
				size_t m = 0;

				for (k = 0; k < fn->nr; k++)
					if (rep->nr_sources > 1 ? rep->commits[fn->commit[k]].era == 1 : fn->commit[k] == oldest)
						m += fn->count[k];
				if (!m)
					continue;
				ALLOC_GROW(of, nr_of + 1, alloc_of);
				of[nr_of].file = &rep->files[i];
				of[nr_of].fn = fn;
				of[nr_of].oldest = m;
				nr_of++;
			}
		if (nr_of)
			qsort(of, nr_of, sizeof(*of), cmp_old_fn);
		if (rep->nr_sources > 1) {
			strbuf_addstr(&what, "the oldest era (");
			html_text(&what, rep->sources[0].path);
			strbuf_addstr(&what, ")");
		} else if (oldest != (size_t)-1) {
			char day[16];

			day_of(rep->commits[oldest].time, day, sizeof(day));
			strbuf_addf(&what, "the oldest commit that still owns tokens, <span class=\"id\">%.12s</span> "
				    "by ", rep->commits[oldest].id);
			html_text(&what, rep->commits[oldest].author);
			strbuf_addf(&what, " of %s", day);
		} else {
			strbuf_addstr(&what, "the oldest commit");
		}
		strbuf_addf(&pg, "<h2 id=\"oldest\">6. The oldest code</h2><p>The functions holding the most "
			    "tokens from %s.</p><table>", what.buf);
		th_row(&pg, cols);
		n = nr_of < nr_top ? nr_of : nr_top;
		for (i = 0; i < n; i++) {
			table_count(t, i + 1);
			table_text(t, of[i].file->path);
			table_text(t, of[i].fn->name);
			table_count(t, of[i].fn->line);
			table_count(t, of[i].fn->tokens);
			table_count(t, of[i].oldest);
			table_number(t, pct((double)of[i].oldest, (double)of[i].fn->tokens));
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td><td><code>", i + 1);
			html_text(&pg, of[i].file->path);
			strbuf_addstr(&pg, "</code></td><td><code>");
			html_text(&pg, of[i].fn->name);
			strbuf_addstr(&pg, "</code></td>");
			tdz(&pg, of[i].fn->line);
			tdz(&pg, of[i].fn->tokens);
			tdz(&pg, of[i].oldest);
			tdn(&pg, pct((double)of[i].oldest, (double)of[i].fn->tokens));
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		if (!n)
			strbuf_addstr(&pg, "<p>No function holds such tokens.</p>");
		table_end(rep, t);
		free(of);
		strbuf_release(&what);
	}

	/* ---- 7. the story, in numbers ---- */
	{
		size_t ntop = rep->nr_by_tokens < nr_top ? rep->nr_by_tokens : nr_top;
		struct author *moves[3] = { NULL, NULL, NULL };
		size_t nmoves = 0;
		int same = overall < 5.0 && (ntop == 0 || in_both * 5 >= ntop * 4);

		/* the largest rank changes among the authors of either top list */
		for (i = 0; i < rep->nr_authors; i++) {
			struct author *a = &rep->authors[i];
			size_t dm, m;

			if (!a->rank_lines || !a->rank_tokens || (a->rank_lines > nr_top && a->rank_tokens > nr_top))
				continue;
			dm = a->rank_lines > a->rank_tokens ? a->rank_lines - a->rank_tokens : a->rank_tokens - a->rank_lines;
			if (!dm)
				continue;
			for (m = 0; m < 3; m++) {
				size_t dn;

				if (!moves[m]) {
					moves[m] = a;
					break;
				}
				dn = moves[m]->rank_lines > moves[m]->rank_tokens ? moves[m]->rank_lines - moves[m]->rank_tokens
										  : moves[m]->rank_tokens - moves[m]->rank_lines;
				if (dm > dn || (dm == dn && strcmp(a->name, moves[m]->name) < 0)) {
					memmove(&moves[m + 1], &moves[m], (2 - m) * sizeof(*moves));
					moves[m] = a;
					break;
				}
			}
		}
		for (nmoves = 0; nmoves < 3 && moves[nmoves]; nmoves++)
			;
		strbuf_addf(&story, "<div class=\"story\"><p><b>%s</b> ", same ?
			    "By and large, lines and tokens tell the same story here." :
			    "Lines and tokens tell different stories here.");
		strbuf_addf(&story, "%zu %s in blame by lines, %zu by tokens. Of the top %zu by "
			    "tokens, %zu %s also in the top %zu by lines, %zu at the same rank. ",
			    rep->nr_by_lines, rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens,
			    ntop, in_both, in_both == 1 ? "is" : "are", nr_top, same_rank);
		if (rep->nr_by_lines <= 1 && rep->nr_by_tokens <= 1)
			strbuf_addstr(&story, "(With one author, the two counts cannot disagree about people.) ");
		if (nmoves) {
			strbuf_addstr(&story, "The largest rank changes: ");
			for (i = 0; i < nmoves; i++) {
				if (i)
					strbuf_addstr(&story, i + 1 == nmoves ? " and " : ", ");
				html_text(&story, moves[i]->name);
				strbuf_addf(&story, " (%zu by lines, %zu by tokens)", moves[i]->rank_lines,
					    moves[i]->rank_tokens);
			}
			strbuf_addstr(&story, ". ");
		}
		{
			int pass;

			for (pass = 0; pass < 2; pass++) {
				struct author **list = pass ? rep->by_lines : rep->by_tokens;
				size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens, shown = 0;

				for (i = 0; i < nr && i < nr_top; i++) {
					size_t other = pass ? list[i]->rank_tokens : list[i]->rank_lines;

					if (other && other <= nr_top)
						continue;
					if (!shown++)
						strbuf_addf(&story, "Only in the top %zu by %s: ", nr_top,
							    pass ? "lines" : "tokens");
					else
						strbuf_addstr(&story, ", ");
					html_text(&story, list[i]->name);
				}
				if (shown)
					strbuf_addstr(&story, ". ");
			}
		}
		strbuf_addf(&story, "Between the two counts, %.2f%% of the code changes hands (the total variation "
			    "distance between the authors' shares by lines and by tokens).</p><p>", overall);
		if (rep->nr_sources > 1)
			strbuf_addf(&story, "The oldest era holds %.2f%% of the lines and %.2f%% of the tokens. ",
				    era_l[0], era_t[0]);
		else if (oldest != (size_t)-1)
			strbuf_addf(&story, "The oldest commit still holds %s%% of the lines and %s%% of the tokens. ",
				    pct((double)rep->commits[oldest].lines, (double)rep->total_lines),
				    pct((double)rep->commits[oldest].tokens, (double)rep->total_tokens));
		if (ymd_year)
			strbuf_addf(&story, "By year of origin the counts differ most for %d: %.2f%% of the lines, "
				    "%.2f%% of the tokens. ", ymd_year, ymd_l, ymd_t);
		if (nr_dis && dis[0]->distance > 0) {
			strbuf_addstr(&story, "The file where they disagree most is <code>");
			html_text(&story, dis[0]->path);
			strbuf_addf(&story, "</code> (distance %.2f%%). ", dis[0]->distance);
		}
		strbuf_addf(&story, "There are %s tokens for every non-blank, non-comment line.</p></div>",
			    code_lines ? pct((double)tokens, 100.0 * (double)code_lines) : "-");

		{
			const struct { const char *figure; size_t count; } counts[] = {
				{ "files", nfiles }, { "lines", lines }, { "code_lines", code_lines }, { "tokens", tokens },
			}, people[] = {
				{ "authors_by_lines", rep->nr_by_lines }, { "authors_by_tokens", rep->nr_by_tokens },
				{ "top", nr_top }, { "top_in_both", in_both }, { "top_same_rank", same_rank },
			};

			for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
				table_text(sum, counts[k].figure);
				table_count(sum, counts[k].count);
			}
			table_text(sum, "tokens_per_code_line");
			table_number(sum, code_lines ? pct((double)tokens, 100.0 * (double)code_lines) : "-");
			for (k = 0; k < sizeof(people) / sizeof(people[0]); k++) {
				table_text(sum, people[k].figure);
				table_count(sum, people[k].count);
			}
		}
		table_text(sum, "distance");
		table_fixed(sum, overall, 2);
		table_text(sum, "oldest_era_line_share");
		table_fixed(sum, era_l[0], 2);
		table_text(sum, "oldest_era_token_share");
		table_fixed(sum, era_t[0], 2);
		if (oldest != (size_t)-1) {
			table_text(sum, "oldest_commit");
			table_text(sum, rep->commits[oldest].id);
			table_text(sum, "oldest_commit_line_share");
			table_number(sum, pct((double)rep->commits[oldest].lines, (double)rep->total_lines));
			table_text(sum, "oldest_commit_token_share");
			table_number(sum, pct((double)rep->commits[oldest].tokens, (double)rep->total_tokens));
		}
		if (nr_dis) {
			table_text(sum, "most_disagreeing_distance");
			table_fixed(sum, dis[0]->distance, 2);
		}
		table_text(sum, "verdict");
		table_text(sum, same ? "same" : "different");
		table_end(rep, sum);
	}

	/* ---- the page ---- */
	{
		struct strbuf page = STRBUF_INIT, path = STRBUF_INIT;
		static const char *const tables[] = {
			"summary.tsv", "size.tsv", "authors.tsv", "top.tsv", "top-only.tsv", "eras.tsv",
			"years.tsv", "age.tsv", "commit-sizes.tsv", "changed-histogram.tsv", "churn-histogram.tsv",
			"largest-commits.tsv", "commits.tsv", "files.tsv", "disagreement.tsv", "oldest-functions.tsv", NULL
		};

		strbuf_addstr(&page, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			      "<meta name=\"viewport\" content=\"width=device-width\"><title>Lines and tokens: ");
		html_text(&page, ctx->src.buf);
		strbuf_addstr(&page, "</title><style>");
		strbuf_addstr(&page, page_css);
		strbuf_addstr(&page, "</style></head><body><h1>Lines and tokens: <code>");
		html_text(&page, ctx->src.buf);
		strbuf_addstr(&page, "</code></h1><p class=\"meta\">At ");
		html_text(&page, rev);
		strbuf_addf(&page, " (<span class=\"id\">%s</span>, token commit <span class=\"id\">%s</span>)",
			    ctx->orig, ctx->token);
		if (nr_pathspec) {
			strbuf_addstr(&page, ", files matching");
			for (i = 0; i < (size_t)nr_pathspec; i++) {
				strbuf_addstr(&page, " <code>");
				html_text(&page, pathspec[i]);
				strbuf_addstr(&page, "</code>");
			}
		}
		strbuf_addf(&page, ": %zu files, %zu lines, %zu tokens.", nfiles, lines, tokens);
		if (rep->nr_sources > 1)
			strbuf_addf(&page, " A history stitched from %d repositories.", rep->nr_sources);
		strbuf_addstr(&page, "</p>");
		strbuf_addbuf(&page, &story);
		strbuf_addbuf(&page, &pg);
		strbuf_addstr(&page, "<h2>The tables</h2><p>Each table is also a file of tab-separated values "
			      "beside this page:");
		for (i = 0; tables[i]; i++)
			strbuf_addf(&page, " <a href=\"%s\">%s</a>", tables[i], tables[i]);
		strbuf_addstr(&page, "; and all of them, with what the report is of, in one JSON document: "
			      "<a href=\"report.json\">report.json</a>.</p></body></html>\n");
		strbuf_addf(&path, "%s/index.html", rep->opt.out_dir);
		write_atomic(path.buf, page.buf, page.len);
		strbuf_release(&page);
		strbuf_release(&path);
	}
	write_report_json(rep, rev, pathspec, nr_pathspec);
	free(langs);
	free(years);
	free(era_l);
	free(era_t);
	free(dis);
	strbuf_release(&pg);
	strbuf_release(&story);
}
