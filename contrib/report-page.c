/*
 * The report's page: its HTML table cells and its charts (grouped bars
 * and stacked areas as inline SVG), and its style (contrib/page/report.css,
 * embedded at build time), so that index.html needs nothing beside it.
 */
#include "report.h"
#include "page.h"
#include "../tokenize/escape.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- charts: grouped bars ---- */

static double nice_max(double m)
{
	static const double steps[] = { 1, 2, 5, 10, 20, 25, 50, 100 };
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (m <= steps[i])
			return steps[i];
	return 100.0 * (double)(long long)(m / 100 + 0.999999);
}

/* Bars of one or two series (percentages) over n labelled categories. */
void svg_bars(struct strbuf *pg, const char *title, size_t n, char **labels,
		     const double *a, const double *b, const char *name_a, const char *name_b)
{
	int left = 48, top = 28, height = 180, bottom = 64, group = b ? 30 : 22, bar = b ? 13 : 18;
	int width, i, ticks = 5;
	double max = 0, ymax;
	size_t k;

	/* few categories get wider bars */
	if (n && (int)n * group < 420) {
		group = 420 / (int)n > 64 ? 64 : 420 / (int)n;
		bar = b ? group * 2 / 5 : group * 3 / 5;
	}
	width = left + (int)n * group + 16;

	for (k = 0; k < n; k++) {
		if (a[k] > max)
			max = a[k];
		if (b && b[k] > max)
			max = b[k];
	}
	ymax = nice_max(max > 0 ? max : 1);
	if (width < 360)
		width = 360;
	strbuf_addf(pg, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		    width, top + height + bottom, width, top + height + bottom);
	html_text(pg, title);
	strbuf_addstr(pg, "\"><title>");
	html_text(pg, title);
	strbuf_addstr(pg, "</title>");
	for (i = 0; i <= ticks; i++) {
		double v = ymax * i / ticks;
		double y = top + height - height * (double)i / ticks;

		strbuf_addf(pg, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%g%%</text>",
			    left, width - 8, y, y, left - 4, y + 4, v);
	}
	for (k = 0; k < n; k++) {
		int x = left + (int)k * group + 4, s;

		for (s = 0; s < (b ? 2 : 1); s++) {
			double v = s ? b[k] : a[k], h = height * v / ymax;

			strbuf_addf(pg, "<rect class=\"s%d\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>",
				    s + 1, x + s * bar, top + height - h, bar, h);
			html_text(pg, labels[k]);
			strbuf_addstr(pg, ", ");
			html_text(pg, s ? name_b : name_a);
			strbuf_addf(pg, ": %.2f%%</title></rect>", v);
		}
		strbuf_addf(pg, "<text class=\"lab\" transform=\"translate(%d,%d) rotate(-45)\">",
			    x + (b ? bar : bar / 2), top + height + 12);
		html_text(pg, labels[k]);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addf(pg, "<rect class=\"s1\" x=\"%d\" y=\"6\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"15\">",
		    left, left + 14);
	html_text(pg, name_a);
	strbuf_addstr(pg, "</text>");
	if (b) {
		strbuf_addf(pg, "<rect class=\"s2\" x=\"%d\" y=\"6\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"15\">",
			    left + 120, left + 134);
		html_text(pg, name_b);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addstr(pg, "</svg>\n");
}

/* ---- the page ---- */

void th_row(struct strbuf *pg, const char *const *cols)
{
	strbuf_addstr(pg, "<tr>");
	for (; *cols; cols++) {
		strbuf_addstr(pg, "<th>");
		html_text(pg, *cols);
		strbuf_addstr(pg, "</th>");
	}
	strbuf_addstr(pg, "</tr>\n");
}

void td(struct strbuf *pg, const char *s)
{
	strbuf_addstr(pg, "<td>");
	html_text(pg, s);
	strbuf_addstr(pg, "</td>");
}

void tdn(struct strbuf *pg, const char *s)
{
	strbuf_addstr(pg, "<td class=\"n\">");
	html_text(pg, s);
	strbuf_addstr(pg, "</td>");
}

void tdz(struct strbuf *pg, size_t n)
{
	strbuf_addf(pg, "<td class=\"n\">%zu</td>", n);
}

/* ---- charts: stacked areas ---- */

/*
 * Stacked areas of nr_s series over nr_x points, v[s * nr_x + x] the
 * share of series s at point x (the shares of a point add up to 100),
 * the first series at the bottom and in blue, the last in red.
 */
void svg_areas(struct strbuf *pg, const char *title, size_t nr_x, char **xlabels,
		      size_t nr_s, char **slabels, const double *v)
{
	int left = 48, top = 28, height = 180, bottom = 64, per_col = 12, plot, width, i;
	double step, *cum = xcalloc(nr_x + 1, sizeof(*cum));
	size_t x, s, every = (nr_x + 29) / 30;

	plot = nr_x * 16 < 360 ? 360 : nr_x * 16 > 800 ? 800 : (int)nr_x * 16;
	step = nr_x > 1 ? (double)plot / (double)(nr_x - 1) : 0;
	width = left + plot + 24 + (int)((nr_s + (size_t)per_col - 1) / (size_t)per_col) * 64;
	strbuf_addf(pg, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		    width, top + height + bottom, width, top + height + bottom);
	html_text(pg, title);
	strbuf_addstr(pg, "\"><title>");
	html_text(pg, title);
	strbuf_addf(pg, "</title><text x=\"%d\" y=\"15\" font-weight=\"bold\">", left);
	html_text(pg, title);
	strbuf_addstr(pg, "</text>");
	for (i = 0; i <= 5; i++) {
		double y = top + height - height * i / 5.0;

		strbuf_addf(pg, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%d%%</text>",
			    left, left + plot, y, y, left - 4, y + 4, 20 * i);
	}
#define AREA_X(x) (nr_x > 1 ? left + step * (double)(x) : (double)left + (x) * (double)plot)
#define AREA_Y(p) (top + height - height * ((p) > 100 ? 100 : (p)) / 100.0)
	for (s = 0; s < nr_s; s++) {
		double hue = nr_s > 1 ? 240.0 * (double)(nr_s - 1 - s) / (double)(nr_s - 1) : 240.0;
		size_t n = nr_x > 1 ? nr_x : 2;

		strbuf_addf(pg, "<polygon fill=\"hsl(%.0f,65%%,55%%)\" stroke=\"#fff\" stroke-width=\"0.5\" points=\"", hue);
		for (x = 0; x < n; x++) {
			size_t at = nr_x > 1 ? x : 0;

			strbuf_addf(pg, "%.1f,%.1f ", AREA_X(x), AREA_Y(cum[at] + v[s * nr_x + at]));
		}
		for (x = n; x-- > 0;)
			strbuf_addf(pg, "%.1f,%.1f ", AREA_X(x), AREA_Y(cum[nr_x > 1 ? x : 0]));
		strbuf_setlen(pg, pg->len - 1);
		strbuf_addstr(pg, "\"><title>");
		html_text(pg, slabels[s]);
		strbuf_addstr(pg, "</title></polygon>");
		for (x = 0; x < nr_x; x++)
			cum[x] += v[s * nr_x + x];
	}
	/* the last point (REV) is always named; before it, every so many */
	for (x = 0; x < nr_x; x++) {
		if ((nr_x - 1 - x) % every)
			continue;
		strbuf_addf(pg, "<text class=\"lab\" transform=\"translate(%.1f,%d) rotate(-45)\">",
			    AREA_X(x), top + height + 12);
		html_text(pg, xlabels[x]);
		strbuf_addstr(pg, "</text>");
	}
#undef AREA_X
#undef AREA_Y
	/* the legend: the newest on top, as in the stack */
	for (s = 0; s < nr_s; s++) {
		size_t row = nr_s - 1 - s;
		int lx = left + plot + 24 + (int)(row / (size_t)per_col) * 64, ly = top + (int)(row % (size_t)per_col) * 15;
		double hue = nr_s > 1 ? 240.0 * (double)(nr_s - 1 - s) / (double)(nr_s - 1) : 240.0;

		strbuf_addf(pg, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"hsl(%.0f,65%%,55%%)\"/>"
			    "<text x=\"%d\" y=\"%d\">", lx, ly, hue, lx + 14, ly + 9);
		html_text(pg, slabels[s]);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addstr(pg, "</svg>\n");
	free(cum);
}

/* The revision, its selection and its size, for the page's head. */
void page_meta(struct report *rep, struct strbuf *meta, size_t files, size_t lines, size_t tokens)
{
	struct blame_ctx *ctx = &rep->ctx;
	int i;

	strbuf_addstr(meta, "At ");
	html_text(meta, rep->opt.rev);
	strbuf_addf(meta, " (<span class=\"id\">%s</span>, token commit <span class=\"id\">%s</span>)",
		    ctx->orig, ctx->token);
	if (rep->opt.nr_pathspec) {
		strbuf_addstr(meta, ", files matching");
		for (i = 0; i < rep->opt.nr_pathspec; i++) {
			strbuf_addstr(meta, " <code>");
			html_text(meta, rep->opt.pathspec[i]);
			strbuf_addstr(meta, "</code>");
		}
	}
	strbuf_addf(meta, ": %zu files, %zu lines, %zu tokens.", files, lines, tokens);
	if (rep->nr_sources > 1)
		strbuf_addf(meta, " A history stitched from %d repositories.", rep->nr_sources);
}

/*
 * OUTDIR/index.html: the head (what the report is of), the story, the
 * sections, and a link to each table's file (every table written so far)
 * and to report.json.
 */
void write_page(struct report *rep, const char *subject, const struct strbuf *meta, const struct strbuf *story,
		const struct strbuf *sections)
{
	struct strbuf page = STRBUF_INIT, path = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&page, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width\"><title>Lines and tokens: ");
	html_text(&page, subject);
	strbuf_addstr(&page, "</title><style>");
	strbuf_add(&page, report_css, report_css_len);
	strbuf_addstr(&page, "</style></head><body><h1>Lines and tokens: <code>");
	html_text(&page, subject);
	strbuf_addstr(&page, "</code></h1><p class=\"meta\">");
	strbuf_addbuf(&page, meta);
	strbuf_addstr(&page, "</p>");
	strbuf_addbuf(&page, story);
	strbuf_addbuf(&page, sections);
	strbuf_addstr(&page, "<h2>The tables</h2><p>Each table is also a file of tab-separated values "
		      "beside this page:");
	for (i = 0; i < rep->nr_tables; i++)
		strbuf_addf(&page, " <a href=\"%s\">%s</a>", rep->tables[i]->file, rep->tables[i]->file);
	strbuf_addstr(&page, "; and all of them, with what the report is of, in one JSON document: "
		      "<a href=\"report.json\">report.json</a>.</p></body></html>\n");
	strbuf_addf(&path, "%s/index.html", rep->opt.out_dir);
	write_atomic(path.buf, page.buf, page.len);
	strbuf_release(&page);
	strbuf_release(&path);
}
