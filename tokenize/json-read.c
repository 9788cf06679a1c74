#include "json-read.h"
#include "json.h"
#include "escape.h"
#include "strbuf.h"
#include "usage.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct json_parser {
	char *buf;     /* the text; strings are decoded into it where they stand */
	size_t len, pos;
	const char *name;
	size_t line, line_start;  /* where pos's line begins, for the messages */
	int depth;
};

static _Noreturn void parse_error(const struct json_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Dies naming the document and where in it pos is: its line, and its column in bytes. */
static void parse_error(const struct json_parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die("%s: line %zu, column %zu: %s", p->name, p->line, p->pos - p->line_start + 1, msg);
}

/* What stands at pos, for a message: the character, a byte's value, or the end. */
static const char *what_is_at(const struct json_parser *p, char *buf, size_t size)
{
	unsigned char c;

	if (p->pos >= p->len)
		return "the end of the document";
	c = (unsigned char)p->buf[p->pos];
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", c);
	return buf;
}

static _Noreturn void unexpected(const struct json_parser *p, const char *wanted)
{
	char at[32];

	parse_error(p, "%s where %s is wanted", what_is_at(p, at, sizeof(at)), wanted);
}

static void skip_whitespace(struct json_parser *p)
{
	for (; p->pos < p->len; p->pos++) {
		char c = p->buf[p->pos];

		if (c == '\n') {
			p->line++;
			p->line_start = p->pos + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
	}
}

static int at(const struct json_parser *p, char c)
{
	return p->pos < p->len && p->buf[p->pos] == c;
}

static size_t digits(struct json_parser *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && p->buf[p->pos] >= '0' && p->buf[p->pos] <= '9')
		p->pos++;
	return p->pos - start;
}

/* A number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static void read_number(struct json_parser *p, struct json_value *v)
{
	size_t start = p->pos;

	if (at(p, '-'))
		p->pos++;
	if (at(p, '0'))
		p->pos++;
	else if (!digits(p))
		unexpected(p, "a digit");
	if (at(p, '.')) {
		p->pos++;
		if (!digits(p))
			unexpected(p, "a digit of the fraction");
	}
	if (at(p, 'e') || at(p, 'E')) {
		p->pos++;
		if (at(p, '+') || at(p, '-'))
			p->pos++;
		if (!digits(p))
			unexpected(p, "a digit of the exponent");
	}
	v->type = JSON_NUMBER;
	v->u.text = p->buf + start;
	v->len = p->pos - start;
}

static unsigned hex4(struct json_parser *p)
{
	unsigned v = 0;
	int k;

	for (k = 0; k < 4; k++, p->pos++) {
		char c = p->pos < p->len ? p->buf[p->pos] : 0;

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (unsigned)(c - 'A' + 10);
		else
			unexpected(p, "a hexadecimal digit of \\u");
	}
	return v;
}

/* The code point of a \u escape, pos after its "\u": a surrogate pair is one. */
static unsigned unicode_escape(struct json_parser *p)
{
	size_t start = p->pos - 2;
	unsigned cp = hex4(p), low;

	if (cp >= 0xDC00 && cp <= 0xDFFF) {
		p->pos = start;
		parse_error(p, "a lone low surrogate \\u%04X", cp);
	}
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (p->pos + 1 >= p->len || p->buf[p->pos] != '\\' || p->buf[p->pos + 1] != 'u') {
			p->pos = start;
			parse_error(p, "a high surrogate \\u%04X without its low one", cp);
		}
		p->pos += 2;
		low = hex4(p);
		if (low < 0xDC00 || low > 0xDFFF) {
			p->pos = start;
			parse_error(p, "a high surrogate \\u%04X without its low one", cp);
		}
		cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
	}
	if (!cp) {
		p->pos = start;
		parse_error(p, "a string holds U+0000, which tokstream does not read");
	}
	return cp;
}

/* Writes code point cp as UTF-8 at buf[*w]. */
static void put_utf8(char *buf, size_t *w, unsigned cp)
{
	if (cp < 0x80) {
		buf[(*w)++] = (char)cp;
	} else if (cp < 0x800) {
		buf[(*w)++] = (char)(0xC0 | cp >> 6);
		buf[(*w)++] = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		buf[(*w)++] = (char)(0xE0 | cp >> 12);
		buf[(*w)++] = (char)(0x80 | (cp >> 6 & 0x3F));
		buf[(*w)++] = (char)(0x80 | (cp & 0x3F));
	} else {
		buf[(*w)++] = (char)(0xF0 | cp >> 18);
		buf[(*w)++] = (char)(0x80 | (cp >> 12 & 0x3F));
		buf[(*w)++] = (char)(0x80 | (cp >> 6 & 0x3F));
		buf[(*w)++] = (char)(0x80 | (cp & 0x3F));
	}
}

/*
 * A string, pos at its opening quote, decoded where it stands: what it
 * holds is written from just after the quote on, and a NUL ends it where
 * its closing quote (or an earlier byte of it) was.
 */
static void read_string(struct json_parser *p, struct json_value *v)
{
	size_t start = ++p->pos, w = start;

	for (;;) {
		unsigned char c;
		const char *letter;
		unsigned cp;
		size_t n, bad;

		if (p->pos >= p->len)
			parse_error(p, "the document ends inside a string");
		c = (unsigned char)p->buf[p->pos];
		if (c == '"')
			break;
		if (c < 0x20)
			parse_error(p, "a control character (byte 0x%02x) in a string", c);
		if (c == '\\') {
			p->pos++;
			if (p->pos >= p->len)
				parse_error(p, "the document ends inside a string");
			if (p->buf[p->pos] == 'u') {
				p->pos++;
				put_utf8(p->buf, &w, unicode_escape(p));
				continue;
			}
			if (!(letter = p->buf[p->pos] ? strchr("\"\\/bfnrt", p->buf[p->pos]) : NULL))
				unexpected(p, "an escape (one of \"\\/bfnrtu)");
			p->buf[w++] = "\"\\/\b\f\n\r\t"[letter - "\"\\/bfnrt"];
			p->pos++;
			continue;
		}
		n = utf8_decode((const unsigned char *)p->buf + p->pos, p->len - p->pos, &cp, &bad);
		if (!n)
			parse_error(p, "a string holds bytes that are not UTF-8");
		memmove(p->buf + w, p->buf + p->pos, n);
		w += n;
		p->pos += n;
	}
	p->buf[w] = '\0';
	p->pos++;
	v->type = JSON_STRING;
	v->u.text = p->buf + start;
	v->len = w - start;
}

static void read_literal(struct json_parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->buf + p->pos, word, n))
		unexpected(p, "a value");
	p->pos += n;
}

static void read_value(struct json_parser *p, struct json_value *v);

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Dies when two of the nr members of an object share a name; pos: the object's end. */
static void check_unique_keys(struct json_parser *p, const struct json_member *m, size_t nr)
{
	const char **keys;
	size_t i;

	if (nr < 2)
		return;
	keys = xcalloc(nr, sizeof(*keys));
	for (i = 0; i < nr; i++)
		keys[i] = m[i].key;
	qsort(keys, nr, sizeof(*keys), cmp_keys);
	for (i = 1; i < nr; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			parse_error(p, "the object that ends here has two members named \"%s\"", keys[i]);
	free(keys);
}

/* The members or items of an object (members) or array, pos after its opening bracket. */
static void read_container(struct json_parser *p, struct json_value *v, int object)
{
	struct json_member *members = NULL;
	struct json_value *items = NULL;
	size_t nr = 0, alloc = 0;
	char close = object ? '}' : ']';

	if (++p->depth > JSON_MAX_DEPTH)
		parse_error(p, "arrays and objects nested deeper than %d", JSON_MAX_DEPTH);
	skip_whitespace(p);
	if (at(p, close)) {
		p->pos++;
	} else {
		for (;;) {
			struct json_value *item;

			if (object) {
				struct json_value key;

				ALLOC_GROW(members, nr + 1, alloc);
				skip_whitespace(p);
				if (!at(p, '"'))
					unexpected(p, "a member's name (a string)");
				read_string(p, &key);
				members[nr].key = key.u.text;
				skip_whitespace(p);
				if (!at(p, ':'))
					unexpected(p, "':'");
				p->pos++;
				item = &members[nr++].value;
			} else {
				ALLOC_GROW(items, nr + 1, alloc);
				item = &items[nr++];
			}
			read_value(p, item);
			skip_whitespace(p);
			if (at(p, ',')) {
				p->pos++;
				continue;
			}
			if (at(p, close)) {
				p->pos++;
				break;
			}
			unexpected(p, object ? "',' or '}'" : "',' or ']'");
		}
	}
	p->depth--;
	v->len = nr;
	/* many small containers (a report's rows) stay: keep no room for more */
	if (object) {
		check_unique_keys(p, members, nr);
		v->type = JSON_OBJECT;
		v->u.members = nr ? xrealloc(members, st_mult(nr, sizeof(*members))) : NULL;
	} else {
		v->type = JSON_ARRAY;
		v->u.items = nr ? xrealloc(items, st_mult(nr, sizeof(*items))) : NULL;
	}
}

static void read_value(struct json_parser *p, struct json_value *v)
{
	memset(v, 0, sizeof(*v));
	skip_whitespace(p);
	if (p->pos >= p->len)
		unexpected(p, "a value");
	switch (p->buf[p->pos]) {
	case '{':
		p->pos++;
		read_container(p, v, 1);
		break;
	case '[':
		p->pos++;
		read_container(p, v, 0);
		break;
	case '"':
		read_string(p, v);
		break;
	case 't':
		read_literal(p, "true");
		v->type = JSON_BOOL;
		v->u.boolean = 1;
		break;
	case 'f':
		read_literal(p, "false");
		v->type = JSON_BOOL;
		break;
	case 'n':
		read_literal(p, "null");
		v->type = JSON_NULL;
		break;
	default:
		if (p->buf[p->pos] != '-' && (p->buf[p->pos] < '0' || p->buf[p->pos] > '9'))
			unexpected(p, "a value");
		read_number(p, v);
		break;
	}
}

void json_read(struct json_document *doc, char *text, size_t len, const char *name)
{
	struct json_parser p;

	memset(&p, 0, sizeof(p));
	p.buf = text;
	p.len = len;
	p.name = name;
	p.line = 1;
	doc->text = text;
	read_value(&p, &doc->root);
	skip_whitespace(&p);
	if (p.pos < p.len)
		unexpected(&p, "nothing more (the document is one value)");
}

static void release_value(struct json_value *v)
{
	size_t i;

	if (v->type == JSON_ARRAY) {
		for (i = 0; i < v->len; i++)
			release_value(&v->u.items[i]);
		free(v->u.items);
	} else if (v->type == JSON_OBJECT) {
		for (i = 0; i < v->len; i++)
			release_value(&v->u.members[i].value);
		free(v->u.members);
	}
}

void json_document_release(struct json_document *doc)
{
	release_value(&doc->root);
	free(doc->text);
	memset(doc, 0, sizeof(*doc));
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->len; i++)
		if (!strcmp(v->u.members[i].key, key))
			return &v->u.members[i].value;
	return NULL;
}

int json_integer(const struct json_value *v, long long min, long long max, long long *out)
{
	char digits[32], *end;
	long long n;

	if (!v || v->type != JSON_NUMBER || v->len >= sizeof(digits) ||
	    memchr(v->u.text, '.', v->len) || memchr(v->u.text, 'e', v->len) || memchr(v->u.text, 'E', v->len))
		return 0;
	memcpy(digits, v->u.text, v->len);
	digits[v->len] = '\0';
	errno = 0;
	n = strtoll(digits, &end, 10);
	if (errno || *end || n < min || n > max)
		return 0;
	*out = n;
	return 1;
}

int json_equal(const struct json_value *a, const struct json_value *b)
{
	size_t i;

	if (a->type != b->type || (a->type != JSON_NULL && a->type != JSON_BOOL && a->len != b->len))
		return 0;
	switch (a->type) {
	case JSON_NULL:
		return 1;
	case JSON_BOOL:
		return a->u.boolean == b->u.boolean;
	case JSON_NUMBER:
	case JSON_STRING:
		return !memcmp(a->u.text, b->u.text, a->len);
	case JSON_ARRAY:
		for (i = 0; i < a->len; i++)
			if (!json_equal(&a->u.items[i], &b->u.items[i]))
				return 0;
		return 1;
	case JSON_OBJECT:
		for (i = 0; i < a->len; i++)
			if (strcmp(a->u.members[i].key, b->u.members[i].key) ||
			    !json_equal(&a->u.members[i].value, &b->u.members[i].value))
				return 0;
		return 1;
	}
	return 0;
}

void json_write_value(struct json_writer *j, const struct json_value *v)
{
	struct strbuf number = STRBUF_INIT;
	size_t i;

	switch (v->type) {
	case JSON_NULL:
		json_null(j);
		break;
	case JSON_BOOL:
		json_bool(j, v->u.boolean);
		break;
	case JSON_NUMBER:
		strbuf_add(&number, v->u.text, v->len);
		json_number(j, number.buf);
		strbuf_release(&number);
		break;
	case JSON_STRING:
		json_string_len(j, v->u.text, v->len);
		break;
	case JSON_ARRAY:
		json_array_begin(j);
		for (i = 0; i < v->len; i++)
			json_write_value(j, &v->u.items[i]);
		json_array_end(j);
		break;
	case JSON_OBJECT:
		json_object_begin(j);
		for (i = 0; i < v->len; i++) {
			json_key(j, v->u.members[i].key);
			json_write_value(j, &v->u.members[i].value);
		}
		json_object_end(j);
		break;
	}
}
