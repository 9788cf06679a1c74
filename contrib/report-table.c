/*
 * The report's tables.  Each is written as OUTDIR/NAME.tsv and kept, cell
 * by cell with its type, for report.json: both outputs come from the same
 * cells, so that report.json can neither miss a table nor differ from the
 * TSV files; and where the page shows a table as it is, table_html()
 * writes it from the same cells too.
 */
#include "report.h"
#include "../tokenize/escape.h"
#include "../tokenize/json.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A table is begun with its file and columns, filled a cell at a time in
 * the order of the columns (a row ends after its last column), and
 * written by table_end.
 */

struct table *table_begin(struct report *rep, const char *file, const char *const *cols)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->file = file;
	t->cols = cols;
	while (cols[t->nr_cols])
		t->nr_cols++;
	ALLOC_GROW(rep->tables, rep->nr_tables + 1, rep->alloc_tables);
	rep->tables[rep->nr_tables++] = t;
	return t;
}

/* Adds a cell of type holding text, which the table takes. */
static void table_cell(struct table *t, enum cell_type type, char *text)
{
	if (t->written)
		BUG("a cell added to %s after it was written", t->file);
	ALLOC_GROW(t->cells, t->nr_cells + 1, t->alloc_cells);
	t->cells[t->nr_cells].type = type;
	t->cells[t->nr_cells].text = text;
	t->nr_cells++;
}

void table_text(struct table *t, const char *s)
{
	table_cell(t, CELL_TEXT, xstrdup(s ? s : ""));
}

void table_count(struct table *t, size_t n)
{
	table_cell(t, CELL_INTEGER, xstrfmt("%zu", n));
}

void table_int(struct table *t, long long n)
{
	table_cell(t, CELL_INTEGER, xstrfmt("%lld", n));
}

/*
 * A number as the TSV shows it ("12.50": report.json has the same
 * digits); text that is no number ("-", or a share of nothing) is null.
 */
void table_number(struct table *t, const char *text)
{
	table_cell(t, json_is_number(text) ? CELL_NUMBER : CELL_NONE, xstrdup(text));
}

void table_fixed(struct table *t, double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	table_number(t, buf);
}

/* No value: shown ("" or "-") in the TSV, null in report.json. */
void table_none(struct table *t, const char *shown)
{
	table_cell(t, CELL_NONE, xstrdup(shown));
}

/* A rank, or "-" for an author absent from that count. */
void table_rank(struct table *t, size_t rank)
{
	if (rank)
		table_count(t, rank);
	else
		table_none(t, "-");
}

size_t table_rows(const struct table *t)
{
	return t->nr_cells / t->nr_cols;
}

/* Writes OUTDIR/FILE: the header, then a line per row. */
void table_end(struct report *rep, struct table *t)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	size_t i;

	if (t->nr_cells % t->nr_cols)
		BUG("%s: %zu cells for rows of %zu", t->file, t->nr_cells, t->nr_cols);
	for (i = 0; i < t->nr_cols; i++) {
		tsv_field(&sb, t->cols[i]);
		strbuf_addch(&sb, i + 1 < t->nr_cols ? '\t' : '\n');
	}
	for (i = 0; i < t->nr_cells; i++) {
		if (t->cells[i].type == CELL_TEXT)
			tsv_field(&sb, t->cells[i].text);
		else
			strbuf_addstr(&sb, t->cells[i].text);
		strbuf_addch(&sb, (i + 1) % t->nr_cols ? '\t' : '\n');
	}
	strbuf_addf(&path, "%s/%s", rep->opt.out_dir, t->file);
	write_atomic(path.buf, sb.buf, sb.len);
	t->written = 1;
	strbuf_release(&sb);
	strbuf_release(&path);
}

static void json_cell(struct json_writer *j, const struct cell *c)
{
	switch (c->type) {
	case CELL_TEXT:
		json_string(j, c->text);
		break;
	case CELL_INTEGER:
	case CELL_NUMBER:
		json_number(j, c->text);
		break;
	case CELL_NONE:
		json_null(j);
		break;
	}
}

/* What the report is of: the revision, the files, the attribution's options. */
void json_report_subject(struct report *rep, struct json_writer *j)
{
	struct blame_ctx *ctx = &rep->ctx;
	int wrap = j->wrap_depth, i;
	size_t k;

	json_key(j, "version");
	json_int(j, REPORT_JSON_VERSION);
	json_key(j, "source");
	json_string(j, ctx->src.buf);
	json_key(j, "revision");
	json_string(j, ctx->orig);
	json_key(j, "revision_name");
	json_string(j, rep->opt.rev);
	json_key(j, "token_revision");
	json_string(j, ctx->token);
	json_key(j, "revision_time");
	json_int(j, rep->rev_time);
	j->wrap_depth = 1;
	json_key(j, "pathspec");
	json_array_begin(j);
	for (i = 0; i < rep->opt.nr_pathspec; i++)
		json_string(j, rep->opt.pathspec[i]);
	json_array_end(j);
	j->wrap_depth = 2;
	json_key(j, "engine");
	json_object_begin(j);
	json_key(j, "revision");
	json_int(j, ENGINE_REVISION);
	json_key(j, "min_move");
	json_uint(j, ctx->engine.min_move);
	json_key(j, "ignore_whitespace");
	json_bool(j, ctx->engine.ignore_ws);
	json_key(j, "ignored_revisions");
	json_array_begin(j);
	for (k = 0; k < ctx->nr_ignored; k++)
		json_string(j, ctx->ignored[k]);
	json_array_end(j);
	json_object_end(j);
	json_key(j, "options");
	json_object_begin(j);
	json_key(j, "top");
	json_int(j, rep->opt.top);
	json_key(j, "min_tokens");
	json_uint(j, rep->opt.min_tokens);
	json_key(j, "line_moves");
	json_bool(j, rep->opt.move);
	json_key(j, "line_ignore_whitespace");
	json_bool(j, rep->opt.ignore_ws);
	json_key(j, "since");
	json_string_or_null(j, rep->opt.since);
	json_key(j, "until");
	json_string_or_null(j, rep->opt.until);
	json_key(j, "mailmap");
	json_bool(j, !rep->opt.no_mailmap);
	json_key(j, "include_vendored");
	json_bool(j, rep->opt.include_vendored);
	json_key(j, "every");
	json_string(j, rep->opt.every == AGE_EVERY_YEAR ? "year" : "tag");
	json_key(j, "include_bots");
	json_bool(j, rep->opt.include_bots);
	json_key(j, "merge_identities");
	json_bool(j, rep->opt.merge_identities);
	json_key(j, "departed_after");
	json_string(j, rep->opt.departed_after);
	json_key(j, "exclude");
	json_array_begin(j);
	for (k = 0; k < (size_t)rep->opt.nr_exclude; k++)
		json_string(j, rep->opt.exclude[k]);
	json_array_end(j);
	json_object_end(j);
	j->wrap_depth = wrap;
}

/*
 * OUTDIR/report.json (contrib/schema/report.schema.json): what the
 * report is of, as subject writes it, then every table of the report,
 * named by its file less ".tsv", its columns and a row object per TSV
 * line.
 */
void write_report_json(struct report *rep, report_subject_fn *subject)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	struct json_writer j;
	size_t i, c;

	json_init(&j, &out, 4);
	json_object_begin(&j);
	subject(rep, &j);
	json_key(&j, "tables");
	json_object_begin(&j);
	for (i = 0; i < rep->nr_tables; i++) {
		struct table *t = rep->tables[i];
		size_t len = strlen(t->file);

		if (!t->written)
			BUG("table %s was never written", t->file);
		strbuf_reset(&path);
		strbuf_add(&path, t->file, len > 4 && !strcmp(t->file + len - 4, ".tsv") ? len - 4 : len);
		json_key(&j, path.buf);
		json_object_begin(&j);
		json_key(&j, "file");
		json_string(&j, t->file);
		j.wrap_depth = 3;
		json_key(&j, "columns");
		json_array_begin(&j);
		for (c = 0; c < t->nr_cols; c++)
			json_string(&j, t->cols[c]);
		json_array_end(&j);
		j.wrap_depth = 4;
		json_key(&j, "rows");
		json_array_begin(&j);
		for (c = 0; c < t->nr_cells; c++) {
			if (c % t->nr_cols == 0)
				json_object_begin(&j);
			json_key(&j, t->cols[c % t->nr_cols]);
			json_cell(&j, &t->cells[c]);
			if ((c + 1) % t->nr_cols == 0)
				json_object_end(&j);
			free(t->cells[c].text);
		}
		json_array_end(&j);
		json_object_end(&j);
		free(t->cells);
		free(t);
	}
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	free(rep->tables);
	rep->tables = NULL;
	rep->nr_tables = rep->alloc_tables = 0;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/report.json", rep->opt.out_dir);
	write_atomic(path.buf, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&path);
}

/*
 * Cells first_col and on of row as the page shows them: text as it is,
 * numbers (and the "-" of no value) right-aligned, an empty cell empty.
 */
void table_html_cells(struct strbuf *pg, const struct table *t, size_t row, size_t first_col)
{
	size_t c;

	for (c = first_col; c < t->nr_cols; c++) {
		const struct cell *cell = &t->cells[row * t->nr_cols + c];

		if (cell->type == CELL_TEXT || !*cell->text)
			td(pg, cell->text);
		else
			tdn(pg, cell->text);
	}
}

/* A row of the table on the page, begun with tr ("<tr>" when NULL). */
void table_html_row(struct strbuf *pg, const struct table *t, size_t row, size_t first_col, const char *tr)
{
	strbuf_addstr(pg, tr ? tr : "<tr>");
	table_html_cells(pg, t, row, first_col);
	strbuf_addstr(pg, "</tr>\n");
}

/* The whole table on the page, from the cells of its TSV file; its last row begun with last_tr when given. */
void table_html(struct strbuf *pg, const struct table *t, const char *last_tr)
{
	size_t r, rows = table_rows(t);

	strbuf_addstr(pg, "<table>");
	th_row(pg, t->cols);
	for (r = 0; r < rows; r++)
		table_html_row(pg, t, r, 0, r + 1 == rows ? last_tr : NULL);
	strbuf_addstr(pg, "</table>");
}
