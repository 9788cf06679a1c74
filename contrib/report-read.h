/*
 * A report read back from its report.json, for report --merge
 * (report-merge.c): what it is of, and its tables, as this build of
 * tokstream writes them.
 *
 * A report of another layout version is refused, and so is a merged
 * report (report --merge merges the reports of repositories, not of
 * merges); every member the merge reads is checked for its type when it
 * is read, and a fault dies naming DIR/report.json and the member, as a
 * JSON pointer (/tables/consent/rows/3/tokens), so that a damaged or
 * foreign file is never read as figures.
 */
#ifndef REPORT_READ_H
#define REPORT_READ_H

#include "../tokenize/json-read.h"
#include "../tokenize/strbuf.h"

#include <stddef.h>

struct report_input {
	const char *dir;      /* as given */
	char *name;           /* the repository's name in the merged report: DIR's last component */
	struct strbuf path;   /* DIR/report.json, which every message names */
	struct json_document doc;
	/* what the report is of */
	const char *source, *revision, *revision_name, *token_revision;
	long long revision_time;
	const struct json_value *engine, *options;
	size_t top, min_tokens, min_move;
	int include_bots, line_moves;
	const char *departed_after;
	const char *since, *until;  /* NULL: not given */
};

/* A table of a report read back: rows, each an object keyed by the table's columns. */
struct input_table {
	const struct report_input *in;
	const char *name;  /* report.json's name of it: its file less ".tsv" */
	const struct json_value *rows;
	size_t nr;
};

/* Reads and checks DIR/report.json into in. */
void report_input_read(struct report_input *in, const char *dir);
void report_input_release(struct report_input *in);

/*
 * The table name of in.  Its cells are read by their columns' names, so
 * that the merge names each column it reads once, where it reads it.
 */
void input_table(const struct report_input *in, const char *name, struct input_table *t);

/* A cell of a row: text (a string), a count (an integer from 0), an integer; dies when it is none. */
const char *cell_text(const struct input_table *t, size_t row, const char *col);
size_t cell_count(const struct input_table *t, size_t row, const char *col);
long long cell_int(const struct input_table *t, size_t row, const char *col);
/* A string, or NULL for null. */
const char *cell_text_or_null(const struct input_table *t, size_t row, const char *col);
/* A number (a share, a distance) as a double. */
double cell_number(const struct input_table *t, size_t row, const char *col);

#endif
