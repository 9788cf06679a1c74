/*
 * report: the survival of the code by year of origin, as burndown charts
 * draw it, by tokens, from the points of the code age (age.c): what each
 * year's tokens are at every point, and how long a year's code takes to
 * lose half of it.  No pass of its own: the code age's replays counted
 * every point.
 */
#include "report.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECONDS_PER_YEAR (365.25 * 86400)

/* One year of origin: its tokens at each point, and when half of its most were gone. */
struct cohort {
	int year;
	size_t *alive;        /* by point */
	size_t peak, at_peak; /* the most tokens it held, and the first point it held them */
	size_t half_gone;     /* the first point after at_peak with at most half of them; SIZE_MAX: none */
	double half_life;     /* years from at_peak to the time half were gone (interpolated); -1: not yet */
};

/*
 * The half-life of c: from the first point it held the most tokens, the
 * time until half of them are gone, the time between the two points
 * around it shared as the tokens fell (the points sample the history).
 */
static void half_life(struct cohort *c, const struct age_sample *s, size_t n)
{
	double half, t;
	size_t k;

	c->half_gone = SIZE_MAX;
	c->half_life = -1;
	for (k = 0; k < n; k++)
		if (c->alive[k] > c->peak) {
			c->peak = c->alive[k];
			c->at_peak = k;
		}
	if (!c->peak)
		return;
	half = (double)c->peak / 2;
	for (k = c->at_peak + 1; k < n && (double)c->alive[k] > half; k++)
		;
	if (k == n)
		return;
	c->half_gone = k;
	t = (double)s[k - 1].time + (double)(s[k].time - s[k - 1].time) * ((double)c->alive[k - 1] - half) /
		((double)c->alive[k - 1] - (double)c->alive[k]);
	t -= (double)s[c->at_peak].time;
	c->half_life = t > 0 ? t / SECONDS_PER_YEAR : 0;
}

static void survival_table(struct report *rep, const struct cohort *c, size_t nr_c)
{
	static const char *const cols[] = { "year", "sample", "date", "commit", "tokens", "share_of_peak", NULL };
	const struct age_sample *s = rep->age_samples;
	struct table *t = table_begin(rep, "survival.tsv", cols);
	char day[16];
	size_t i, k;

	for (i = 0; i < nr_c; i++)
		for (k = 0; k < rep->nr_age_samples; k++) {
			if (!c[i].alive[k] && k < c[i].at_peak)
				continue;  /* before the year's code appeared */
			day_of(s[k].time, day, sizeof(day));
			table_int(t, c[i].year);
			table_text(t, s[k].name);
			table_text(t, day);
			table_text(t, s[k].orig);
			table_count(t, c[i].alive[k]);
			table_number(t, pct((double)c[i].alive[k], (double)c[i].peak));
		}
	table_end(rep, t);
}

static void half_life_table(struct report *rep, struct strbuf *pg, const struct cohort *c, size_t nr_c)
{
	static const char *const cols[] = { "year", "peak_tokens", "peak_sample", "peak_date", "tokens_now",
					    "share_now", "half_gone_sample", "half_life_years", NULL };
	static const char *const hcols[] = { "year", "most tokens", "at", "tokens at REV", "left",
					     "half gone by", "half-life (years)", NULL };
	const struct age_sample *s = rep->age_samples;
	size_t n = rep->nr_age_samples, i;
	struct table *t = table_begin(rep, "half-lives.tsv", cols);
	char day[16], num[32];

	strbuf_addstr(pg, "<table>");
	th_row(pg, hcols);
	for (i = 0; i < nr_c; i++) {
		const struct cohort *h = &c[i];

		if (!h->peak)
			continue;
		day_of(s[h->at_peak].time, day, sizeof(day));
		table_int(t, h->year);
		table_count(t, h->peak);
		table_text(t, s[h->at_peak].name);
		table_text(t, day);
		table_count(t, h->alive[n - 1]);
		table_number(t, pct((double)h->alive[n - 1], (double)h->peak));
		strbuf_addf(pg, "<tr><td>%d</td>", h->year);
		tdz(pg, h->peak);
		td(pg, s[h->at_peak].name);
		tdz(pg, h->alive[n - 1]);
		tdn(pg, pct((double)h->alive[n - 1], (double)h->peak));
		if (h->half_gone == SIZE_MAX) {
			double since = (double)(s[n - 1].time - s[h->at_peak].time) / SECONDS_PER_YEAR;

			table_none(t, "");
			table_none(t, "");
			td(pg, "not yet");
			snprintf(num, sizeof(num), "more than %.1f", since > 0 ? since : 0);
			tdn(pg, num);
		} else {
			snprintf(num, sizeof(num), "%.2f", h->half_life);
			table_text(t, s[h->half_gone].name);
			table_number(t, num);
			td(pg, s[h->half_gone].name);
			tdn(pg, num);
		}
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addstr(pg, "</table>");
	table_end(rep, t);
}

/* The burndown: each year's tokens stacked, the oldest at the bottom, 100% the most at any point. */
static void burndown_chart(struct report *rep, struct strbuf *pg, const struct cohort *c, size_t nr_c)
{
	size_t n = rep->nr_age_samples, most = 0, i, k;
	double *v = xcalloc(st_add(st_mult(nr_c, n), 1), sizeof(*v));
	char **xlabels = xcalloc(n + 1, sizeof(*xlabels)), **ylabels = xcalloc(nr_c + 1, sizeof(*ylabels));
	char *title;

	for (k = 0; k < n; k++) {
		xlabels[k] = (char *)rep->age_samples[k].name;
		if (rep->age_samples[k].tokens > most)
			most = rep->age_samples[k].tokens;
	}
	for (i = 0; i < nr_c; i++) {
		ylabels[i] = xstrfmt("%d", c[i].year);
		for (k = 0; k < n; k++)
			v[i * n + k] = most ? 100.0 * (double)c[i].alive[k] / (double)most : 0;
	}
	title = xstrfmt("Tokens alive by year of origin (100%%: %zu, the most at any point)", most);
	svg_areas(pg, title, n, xlabels, nr_c, ylabels, v);
	free(title);
	free_strings(ylabels, nr_c);
	free(xlabels);
	free(v);
}

void section_survival(struct report *rep, struct strbuf *pg)
{
	const struct age_sample *s = rep->age_samples;
	size_t n = rep->nr_age_samples, nr_c, k, y, j;
	int *years = age_years(rep, &nr_c);
	struct cohort *c = xcalloc(nr_c + 1, sizeof(*c));

	if (!n)
		BUG("a code age without its last point, REV");
	for (j = 0; j < nr_c; j++) {
		c[j].year = years[j];
		c[j].alive = xcalloc(n + 1, sizeof(size_t));
	}
	/* a point's years are oldest first, as the cohorts */
	for (k = 0; k < n; k++)
		for (y = 0, j = 0; y < s[k].nr_years; y++) {
			while (c[j].year != s[k].years[y].year)
				j++;
			c[j].alive[k] = s[k].years[y].tokens;
		}
	free(years);
	for (k = 0; k < nr_c; k++)
		half_life(&c[k], s, n);
	survival_table(rep, c, nr_c);

	strbuf_addstr(pg, "<h3 id=\"survival\">Survival</h3><p>How long code lives: the tokens each year "
		      "wrote (by author date) that are still there at each point of the code age, by tokens "
		      "(<code>survival.tsv</code>), drawn stacked as a burndown. A year's <em>half-life</em> "
		      "is the time from the point where its tokens were most to the one where half of those "
		      "were gone, the time between two points shared as the tokens fell; the points sample "
		      "the history, so a half-life is as fine as they are (<code>--every=year</code> gives "
		      "one a year). A year whose tokens are still more than half is \"not yet\", with the "
		      "time since its most (<code>half-lives.tsv</code>).</p>");
	if (nr_c)
		burndown_chart(rep, pg, c, nr_c);
	half_life_table(rep, pg, c, nr_c);
	for (k = 0; k < nr_c; k++)
		free(c[k].alive);
	free(c);
}
