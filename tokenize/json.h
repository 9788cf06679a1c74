/*
 * A small JSON writer (RFC 8259) into a strbuf, for the documents that
 * tokstream writes for other programs (blame --json, report.json).
 *
 * Strings are written as valid JSON whatever bytes they hold: text in
 * UTF-8 is kept, control characters are escaped, and each byte sequence
 * that is not UTF-8 becomes one U+FFFD, as Unicode's "maximal subpart"
 * practice (and Python's errors="replace") has it.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "escape.h"

#define JSON_MAX_DEPTH 32

struct json_writer {
	struct strbuf *out;
	int depth;
	/*
	 * the members of containers opened this deep or less go on lines of
	 * their own; a writer may change it between containers
	 */
	int wrap_depth;
	unsigned char empty[JSON_MAX_DEPTH + 1];     /* no member written yet */
	unsigned char wrapped[JSON_MAX_DEPTH + 1];   /* a member a line */
	unsigned char is_object[JSON_MAX_DEPTH + 1];
	int has_key;                                 /* a key waits for its value */
};

/*
 * Starts a document in out (appended to).  wrap_depth 0 writes it on one
 * line; 1 puts each member of the outermost container on a line of its
 * own, 2 those of the containers in it too, and so on.
 */
void json_init(struct json_writer *j, struct strbuf *out, int wrap_depth);
/* Ends the document with a newline; a container left open is a BUG. */
void json_finish(struct json_writer *j);

void json_object_begin(struct json_writer *j);
void json_object_end(struct json_writer *j);
void json_array_begin(struct json_writer *j);
void json_array_end(struct json_writer *j);

/* The name of the next member of the open object; its value follows. */
void json_key(struct json_writer *j, const char *key);

void json_string(struct json_writer *j, const char *s);
void json_string_len(struct json_writer *j, const char *s, size_t len);
void json_int(struct json_writer *j, long long v);
void json_uint(struct json_writer *j, uintmax_t v);
/* A number already formatted (as "%.2f" gives it); one that is no JSON number is a BUG. */
void json_number(struct json_writer *j, const char *text);
void json_bool(struct json_writer *j, int v);
void json_null(struct json_writer *j);
/* s, or null when s is NULL. */
void json_string_or_null(struct json_writer *j, const char *s);

/* Whether text is a number in JSON's grammar (no NaN, no "1.", no "+1"). */
int json_is_number(const char *text);

/* json_quote(), the string literal of some bytes: escape.h */

#endif
