/*
 * Escaping, once for the whole tree: text for HTML (a page's text and its
 * attributes), bytes for a URL or a field of a cache file (%XX), strings
 * for JSON, and the one-letter backslash escapes that C, JSON and TSV
 * share.  Each output format had grown its own loop, and the loops had
 * begun to differ where they should not; the differences that are meant
 * (code keeps its tabs and line ends, a one-line text does not) are
 * flags here, named for what they are for.
 */
#ifndef ESCAPE_H
#define ESCAPE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * HTML: & < > " ' as references; NUL as U+FFFD; every other control
 * character as its control picture (U+2400 + c, DEL as U+2421), so that
 * nothing invisible reaches a page.  With HTML_KEEP_LAYOUT (source code
 * in a <pre>), tab, LF and DEL are kept as they are.  The result is safe
 * both as text and in a quoted attribute value.
 */
#define HTML_KEEP_LAYOUT 1
void html_escape(struct strbuf *sb, const char *s, size_t len, unsigned flags);
/* A one-line text, or the value of a quoted attribute (s may be NULL: nothing). */
void html_text(struct strbuf *sb, const char *s);

/*
 * %XX (upper-case hex) for every byte a URL path or a cache field cannot
 * hold as it is.  URL_PATH keeps only [A-Za-z0-9-._~/], so "#", "?" and
 * "%" in a file name stay part of the path (and the result is safe in an
 * HTML attribute); CACHE_FIELD keeps all but blanks, controls, '%' and
 * '=', so that a field holds no separator of the cache files' lines.
 */
enum percent_set { URL_PATH, CACHE_FIELD };
void percent_escape(struct strbuf *sb, const char *s, size_t len, enum percent_set set);
/* The inverse (either set): %XX, two upper-case hex digits, is a byte; a new string. */
char *percent_unescape(const char *s, size_t len);

/*
 * The one-letter backslash escapes: the letter that stands for the byte c
 * ('\n' -> 'n', '"' -> '"'), or 0 when it has none among letters (each
 * format allows a few of "abfnrtv\"\\"); and back from the letter.
 */
char backslash_letter(char c, const char *letters);
char backslash_byte(char letter, const char *letters);

/*
 * JSON (RFC 8259): the string literal of the len bytes at s, quotes
 * included.  UTF-8 is kept (U+2028 and U+2029 escaped: line ends to
 * JavaScript), control characters are escaped, and each byte sequence
 * that is not UTF-8 becomes one U+FFFD (Unicode's "maximal subpart").
 */
void json_quote(struct strbuf *sb, const char *s, size_t len);

/* TSV: backslash, tab, LF and CR as \\, \t, \n, \r (s may be NULL: nothing). */
void tsv_field(struct strbuf *sb, const char *s);

/*
 * The length of the UTF-8 sequence at s (n bytes left, at least one),
 * its code point in *cp; or 0 when none begins there, with *bad the
 * length of its maximal subpart (the bytes to replace by one U+FFFD).
 * RFC 3629's bounds: no overlong form, surrogate or code point past
 * U+10FFFF.
 */
size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp, size_t *bad);

#endif
