/*
 * A report read back from its report.json (report-read.h).
 */
#include "report-read.h"
#include "report.h"
#include "../tokenize/usage.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void input_error(const struct report_input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Dies naming DIR/report.json, then what fmt says (a JSON pointer, then what is wrong). */
static void input_error(const struct report_input *in, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	die("%s: %s", in->path.buf, msg.buf);
}

/* What a member or a table that is missing may mean. */
static const char older_tokstream[] = " (an older tokstream's report? write it again with this one)";

static const char *type_name(enum json_type type)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "true or false", [JSON_NUMBER] = "a number",
		[JSON_STRING] = "a string", [JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	return names[type];
}

/* Member key of the object at where (a JSON pointer, "" for the root), of type. */
static const struct json_value *member(const struct report_input *in, const struct json_value *obj, const char *where,
				       const char *key, enum json_type type)
{
	const struct json_value *v = json_get(obj, key);

	if (!v)
		input_error(in, "%s/%s: missing%s", where, key, older_tokstream);
	if (v->type != type)
		input_error(in, "%s/%s: %s, not %s", where, key, type_name(v->type), type_name(type));
	return v;
}

static const char *member_text(const struct report_input *in, const struct json_value *obj, const char *where,
			       const char *key)
{
	return member(in, obj, where, key, JSON_STRING)->u.text;
}

static long long member_int(const struct report_input *in, const struct json_value *obj, const char *where,
			    const char *key, long long min, long long max)
{
	long long n;

	if (!json_integer(member(in, obj, where, key, JSON_NUMBER), min, max, &n))
		input_error(in, "%s/%s: not an integer from %lld to %lld", where, key, min, max);
	return n;
}

/*
 * The repository's name in the merged report: DIR's last component, or,
 * for "." and "..", that of the directory it is, so that the reports'
 * paths become NAME/PATH.
 */
static char *repository_name(const char *dir)
{
	size_t len = strlen(dir), start;
	char *name, *real;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (start = len; start > 0 && dir[start - 1] != '/'; start--)
		;
	name = xstrfmt("%.*s", (int)(len - start), dir + start);
	if (*name && strcmp(name, ".") && strcmp(name, ".."))
		return name;
	free(name);
	if (!(real = realpath(dir, NULL)))
		die_errno("cannot find the directory '%s'", dir);
	name = xstrdup(strrchr(real, '/') + 1);
	free(real);
	if (!*name)
		die("'%s': a report's directory needs a name, the repository's in the merged report", dir);
	return name;
}

/* A member that is a string or null: NULL for null. */
static const char *member_text_or_null(const struct report_input *in, const struct json_value *obj,
				       const char *where, const char *key)
{
	const struct json_value *v = json_get(obj, key);

	if (v && v->type == JSON_NULL)
		return NULL;
	return member_text(in, obj, where, key);
}

/* The engine's and the report's options that the merge compares or takes, checked. */
static void read_options(struct report_input *in)
{
	static const char *const flags[] = {
		"line_ignore_whitespace", "mailmap", "include_vendored", "merge_identities", NULL
	};
	const long long most = SIZE_MAX > LLONG_MAX ? LLONG_MAX : (long long)SIZE_MAX;
	long long seconds;
	size_t k;

	member_int(in, in->engine, "/engine", "revision", 1, INT_MAX);
	in->min_move = (size_t)member_int(in, in->engine, "/engine", "min_move", 0, most);
	member(in, in->engine, "/engine", "ignore_whitespace", JSON_BOOL);
	in->top = (size_t)member_int(in, in->options, "/options", "top", 1, INT_MAX);
	in->min_tokens = (size_t)member_int(in, in->options, "/options", "min_tokens", 0, most);
	in->include_bots = member(in, in->options, "/options", "include_bots", JSON_BOOL)->u.boolean;
	in->line_moves = member(in, in->options, "/options", "line_moves", JSON_BOOL)->u.boolean;
	for (k = 0; flags[k]; k++)
		member(in, in->options, "/options", flags[k], JSON_BOOL);
	in->since = member_text_or_null(in, in->options, "/options", "since");
	in->until = member_text_or_null(in, in->options, "/options", "until");
	in->departed_after = member_text(in, in->options, "/options", "departed_after");
	if (parse_duration(in->departed_after, &seconds))
		input_error(in, "/options/departed_after: '%s' is no duration", in->departed_after);
}

/* What the report is of: its revision, its options; refusing another version, or a merged report. */
static void read_subject(struct report_input *in)
{
	const struct json_value *root = &in->doc.root, *v;
	long long version;
	int e;

	if (root->type != JSON_OBJECT)
		input_error(in, "/: %s, not a report (an object)", type_name(root->type));
	if (!(v = json_get(root, "version")) || !json_integer(v, 0, INT_MAX, &version))
		input_error(in, "/version: missing, or no version: not tokstream's report.json");
	if (version != REPORT_JSON_VERSION)
		input_error(in, "/version: %lld, and this tokstream reads version %d only: write the report "
			    "again with this tokstream", version, REPORT_JSON_VERSION);
	if (json_get(root, "merged"))
		input_error(in, "/merged: a merged report: merge the reports of the repositories themselves");
	in->source = member_text(in, root, "", "source");
	in->revision = member_text(in, root, "", "revision");
	in->revision_name = member_text(in, root, "", "revision_name");
	in->token_revision = member_text(in, root, "", "token_revision");
	in->revision_time = member_int(in, root, "", "revision_time", LLONG_MIN, LLONG_MAX);
	member(in, root, "", "pathspec", JSON_ARRAY);
	in->engine = member(in, root, "", "engine", JSON_OBJECT);
	in->options = member(in, root, "", "options", JSON_OBJECT);
	member(in, root, "", "tables", JSON_OBJECT);
	read_options(in);
	for (e = 0; e < 2; e++) {
		static const char *const ids[] = { "revision", "token_revision" };
		const char *id = e ? in->token_revision : in->revision;

		if (strlen(id) != 40 || strspn(id, "0123456789abcdef") != 40)
			input_error(in, "/%s: '%s' is no commit id", ids[e], id);
	}
}

void report_input_read(struct report_input *in, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	size_t len;

	memset(in, 0, sizeof(*in));
	in->dir = dir;
	strbuf_init(&in->path, 0);
	strbuf_addf(&in->path, "%s/report.json", dir);
	if (strbuf_read_file(&text, in->path.buf) < 0)
		die("%s: no such file: '%s' is no report's OUTDIR", in->path.buf, dir);
	in->name = repository_name(dir);
	len = text.len;
	json_read(&in->doc, strbuf_detach(&text, NULL), len, in->path.buf);
	read_subject(in);
}

void report_input_release(struct report_input *in)
{
	json_document_release(&in->doc);
	strbuf_release(&in->path);
	free(in->name);
}

void input_table(const struct report_input *in, const char *name, struct input_table *t)
{
	const struct json_value *tables = json_get(&in->doc.root, "tables"), *table;
	struct strbuf where = STRBUF_INIT;

	strbuf_addf(&where, "/tables/%s", name);
	table = member(in, tables, "/tables", name, JSON_OBJECT);
	t->in = in;
	t->name = name;
	t->rows = member(in, table, where.buf, "rows", JSON_ARRAY);
	t->nr = t->rows->len;
	strbuf_release(&where);
}

/* The cell of column col in row row: dies when the row is no object or lacks it. */
static const struct json_value *cell(const struct input_table *t, size_t row, const char *col)
{
	const struct json_value *r = &t->rows->u.items[row], *v;

	if (r->type != JSON_OBJECT)
		input_error(t->in, "/tables/%s/rows/%zu: %s, not a row (an object)", t->name, row, type_name(r->type));
	if (!(v = json_get(r, col)))
		input_error(t->in, "/tables/%s/rows/%zu/%s: missing%s", t->name, row, col, older_tokstream);
	return v;
}

static _Noreturn void cell_error(const struct input_table *t, size_t row, const char *col, const char *wanted)
{
	input_error(t->in, "/tables/%s/rows/%zu/%s: %s, not %s", t->name, row, col,
		    type_name(cell(t, row, col)->type), wanted);
}

const char *cell_text(const struct input_table *t, size_t row, const char *col)
{
	const struct json_value *v = cell(t, row, col);

	if (v->type != JSON_STRING)
		cell_error(t, row, col, "a string");
	return v->u.text;
}

const char *cell_text_or_null(const struct input_table *t, size_t row, const char *col)
{
	const struct json_value *v = cell(t, row, col);

	if (v->type == JSON_NULL)
		return NULL;
	if (v->type != JSON_STRING)
		cell_error(t, row, col, "a string or null");
	return v->u.text;
}

size_t cell_count(const struct input_table *t, size_t row, const char *col)
{
	long long n;

	if (!json_integer(cell(t, row, col), 0, SIZE_MAX > LLONG_MAX ? LLONG_MAX : (long long)SIZE_MAX, &n))
		cell_error(t, row, col, "a count (an integer from 0)");
	return (size_t)n;
}

long long cell_int(const struct input_table *t, size_t row, const char *col)
{
	long long n;

	if (!json_integer(cell(t, row, col), LLONG_MIN, LLONG_MAX, &n))
		cell_error(t, row, col, "an integer");
	return n;
}

double cell_number(const struct input_table *t, size_t row, const char *col)
{
	const struct json_value *v = cell(t, row, col);
	struct strbuf text = STRBUF_INIT;
	double d;

	if (v->type != JSON_NUMBER)
		cell_error(t, row, col, "a number");
	strbuf_add(&text, v->u.text, v->len);
	d = strtod(text.buf, NULL);
	strbuf_release(&text);
	return d;
}
