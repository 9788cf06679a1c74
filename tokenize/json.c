#include "json.h"
#include "escape.h"
#include "usage.h"

#include <inttypes.h>
#include <string.h>

int json_is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return 0;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return 0;
		s += strspn(s, "0123456789");
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

void json_init(struct json_writer *j, struct strbuf *out, int wrap_depth)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->wrap_depth = wrap_depth;
	j->empty[0] = 1;
}

void json_finish(struct json_writer *j)
{
	if (j->depth || j->has_key || j->empty[0])
		BUG("JSON document left unfinished");
	strbuf_addch(j->out, '\n');
}

static void newline_indent(struct json_writer *j, int depth)
{
	strbuf_addch(j->out, '\n');
	while (depth-- > 0)
		strbuf_addstr(j->out, "  ");
}

/* What goes before a member of the open container: a comma, a line break. */
static void before_member(struct json_writer *j)
{
	int d = j->depth;

	if (!d) {
		if (!j->empty[0])
			BUG("a second JSON value at the top");
		j->empty[0] = 0;
		return;
	}
	if (!j->empty[d])
		strbuf_addch(j->out, ',');
	if (j->wrapped[d])
		newline_indent(j, d);
	else if (!j->empty[d])
		strbuf_addch(j->out, ' ');
	j->empty[d] = 0;
}

static void before_value(struct json_writer *j)
{
	if (j->depth && j->is_object[j->depth]) {
		if (!j->has_key)
			BUG("a JSON value in an object without its key");
		j->has_key = 0;
		return;
	}
	before_member(j);
}

void json_key(struct json_writer *j, const char *key)
{
	if (!j->depth || !j->is_object[j->depth] || j->has_key)
		BUG("a JSON key outside an object, or two in a row");
	before_member(j);
	json_quote(j->out, key, strlen(key));
	strbuf_addstr(j->out, ": ");
	j->has_key = 1;
}

static void open_container(struct json_writer *j, char c, int is_object)
{
	before_value(j);
	if (j->depth == JSON_MAX_DEPTH)
		BUG("JSON nested deeper than %d", JSON_MAX_DEPTH);
	strbuf_addch(j->out, c);
	j->depth++;
	j->empty[j->depth] = 1;
	j->wrapped[j->depth] = j->depth <= j->wrap_depth;
	j->is_object[j->depth] = (unsigned char)is_object;
}

static void close_container(struct json_writer *j, char c, int is_object)
{
	if (!j->depth || j->is_object[j->depth] != is_object || j->has_key)
		BUG("JSON %s closed where none is open", is_object ? "object" : "array");
	if (!j->empty[j->depth] && j->wrapped[j->depth])
		newline_indent(j, j->depth - 1);
	strbuf_addch(j->out, c);
	j->depth--;
}

void json_object_begin(struct json_writer *j)
{
	open_container(j, '{', 1);
}

void json_object_end(struct json_writer *j)
{
	close_container(j, '}', 1);
}

void json_array_begin(struct json_writer *j)
{
	open_container(j, '[', 0);
}

void json_array_end(struct json_writer *j)
{
	close_container(j, ']', 0);
}

void json_string(struct json_writer *j, const char *s)
{
	json_string_len(j, s, strlen(s));
}

void json_string_len(struct json_writer *j, const char *s, size_t len)
{
	before_value(j);
	json_quote(j->out, s, len);
}

void json_int(struct json_writer *j, long long v)
{
	before_value(j);
	strbuf_addf(j->out, "%lld", v);
}

void json_uint(struct json_writer *j, uintmax_t v)
{
	before_value(j);
	strbuf_addf(j->out, "%" PRIuMAX, v);
}

void json_number(struct json_writer *j, const char *text)
{
	if (!json_is_number(text))
		BUG("'%s' is no JSON number", text);
	before_value(j);
	strbuf_addstr(j->out, text);
}

void json_bool(struct json_writer *j, int v)
{
	before_value(j);
	strbuf_addstr(j->out, v ? "true" : "false");
}

void json_null(struct json_writer *j)
{
	before_value(j);
	strbuf_addstr(j->out, "null");
}

void json_string_or_null(struct json_writer *j, const char *s)
{
	if (s)
		json_string(j, s);
	else
		json_null(j);
}
