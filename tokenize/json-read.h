/*
 * A strict reader of JSON documents (RFC 8259), for what tokstream reads
 * back of its own output: report.json, which report --merge combines.
 *
 * Strict, because a document that is not what a writer of JSON would
 * write is damage, not a dialect: one value, no comments, no trailing
 * commas, no NaN, no leading zeros, no control characters or invalid
 * UTF-8 in strings, no lone surrogate, no member named twice in an
 * object, and no nesting deeper than json.h's writer ever writes.  Every
 * fault dies with "NAME: line L, column C: what" (die(), usage.h).
 *
 * It is recursive descent over the whole text, read into memory; strings
 * are decoded in place (a decoded string is never longer than its
 * literal), so that a document costs its text and one small struct per
 * value.  A string holding U+0000 is refused: tokstream's strings are C
 * strings, and its writer never writes one.
 */
#ifndef JSON_READ_H
#define JSON_READ_H

#include <stddef.h>

struct json_writer;

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_member;

struct json_value {
	enum json_type type;
	/* a string's bytes, a number's digits as written; an array's items, an object's members */
	size_t len;
	union {
		int boolean;
		const char *text;  /* a string: NUL-terminated; a number: len bytes, not terminated */
		struct json_value *items;
		struct json_member *members;
	} u;
};

struct json_member {
	const char *key;
	struct json_value value;
};

struct json_document {
	char *text;  /* the document, its strings decoded in place */
	struct json_value root;
};

/*
 * Reads the len bytes of text, which the document takes (free()d by
 * json_document_release()), as one JSON value; name is what a fault's
 * message names (a path).
 */
void json_read(struct json_document *doc, char *text, size_t len, const char *name);
void json_document_release(struct json_document *doc);

/* The value of object v's member key; NULL when there is none, or v is no object. */
const struct json_value *json_get(const struct json_value *v, const char *key);

/*
 * Whether v is an integer (a number without fraction or exponent) from
 * min to max; if so, *out is its value.
 */
int json_integer(const struct json_value *v, long long min, long long max, long long *out);

/* Whether a and b are the same value: the same type, text, items and members, in order. */
int json_equal(const struct json_value *a, const struct json_value *b);

/* Writes v with j, as it was read: numbers with the digits they had. */
void json_write_value(struct json_writer *j, const struct json_value *v);

#endif
