/*
 * What lexers share: the lexer type, the helpers for the constructs that
 * recur across languages, and the list of lexers the language table in
 * tokenize/language.c refers to.
 */
#ifndef LEXERS_H
#define LEXERS_H

#include "../tokenize/lexer.h"

#include <string.h>

struct lexer {
	const char *name;
	lex_fn *next;
};

/*
 * End of a line comment starting at p: the end of its line, without a
 * trailing CR (so CRLF files give the same view as LF ones).  With splices,
 * a backslash at the end of the line continues the comment, as in C.
 */
size_t lex_line_comment(const unsigned char *s, size_t p, size_t n, int splices);

/*
 * End of a block comment whose opener (of any length) starts at p and
 * which closes with close[0..closelen): just past the closer, or n when it
 * is unterminated.  The opener must be at least one byte; the search for
 * the closer starts after openlen bytes.
 */
size_t lex_block_comment(const unsigned char *s, size_t p, size_t n,
			 const char *close, size_t closelen);
size_t lex_block_comment_from(const unsigned char *s, size_t p, size_t n,
			      size_t openlen, const char *close, size_t closelen);

/*
 * End of a literal quoted by the byte at p (" or ' or any other), in which
 * a backslash escapes the next byte (so an escaped newline continues it):
 * just past the closing quote.  Unterminated, it ends before the end of its
 * line (before a CR that precedes the LF), or, when multiline, at n.
 */
size_t lex_quoted(const unsigned char *s, size_t p, size_t n, int multiline);

/* Length of the UTF-8 sequence whose lead byte is c (1 for ASCII and junk). */
static inline size_t lex_utf8_len(unsigned char c)
{
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	if (c >= 0xe0 && c < 0xf0)
		return 3;
	return c >= 0xc0 && c < 0xe0 ? 2 : 1;
}

/* Does s[p..n) start with the NUL-terminated string lit? */
static inline int lex_starts(const unsigned char *s, size_t p, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n - p >= l && !memcmp(s + p, lit, l);
}

extern const struct lexer lexer_c;
/* new lexers above this line */

#endif
