/*
 * The token view: the format of every token file.
 *
 * One token per line, each line ending in LF.  A comment is one token
 * whose runs of whitespace are folded to one space and whose trailing
 * whitespace is dropped (unless VIEW_EXACT_COMMENTS).  Inside any token a
 * newline is written as the two characters "\n" and a carriage return as
 * "\r"; nothing else is escaped.
 */
#ifndef VIEW_H
#define VIEW_H

#include "strbuf.h"
#include "lexer.h"

struct language;

/*
 * The version of what the lexers produce: raise it with any change that
 * alters a view, so that `convert` refuses to update a token repository
 * made by a tokstream that lexed differently (its views would not match).
 */
#define VIEW_FORMAT_VERSION 2

enum view_flags {
	VIEW_EXACT_COMMENTS = 1 << 0,
	VIEW_POSITIONS = 1 << 1 /* prefix each token with LINE:COL and a tab */
};

/* Append the encoding of one token (and its LF) to out. */
void view_add_token(struct strbuf *out, const unsigned char *tok, size_t len,
		    enum token_class cls, unsigned flags);

/* Append the view of src[0..len) in language lang to out; returns the token count. */
size_t view_build(struct strbuf *out, const struct language *lang,
		  const void *src, size_t len, unsigned flags);

/*
 * The same, handing out to flush(out, data) whenever it holds at least
 * VIEW_FLUSH_SIZE bytes; flush empties it (tokenize writes it out), so a
 * large source is written in blocks of about that size, not held whole.
 */
#define VIEW_FLUSH_SIZE (256 * 1024)
typedef void view_flush_fn(struct strbuf *out, void *data);
size_t view_build_flushing(struct strbuf *out, const struct language *lang,
			   const void *src, size_t len, unsigned flags,
			   view_flush_fn *flush, void *data);

#endif
