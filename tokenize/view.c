#include "view.h"
#include "language.h"

/*
 * The writers below need room for the worst case of a token: every byte
 * escaped to two, and the LF.  view_reserve() makes that room with one
 * comparison per token, so the copy loops need no checks of their own.
 */
static inline char *view_reserve(struct strbuf *out, size_t len)
{
	if (out->alloc - out->len < 2 * len + 3)
		strbuf_grow(out, 2 * len + 2);
	return out->buf + out->len;
}

static inline void view_commit(struct strbuf *out, char *end)
{
	*end++ = '\n';
	out->len = (size_t)(end - out->buf);
	out->buf[out->len] = '\0';
}

/* LF and CR become the two characters \n and \r; nothing else changes. */
static char *copy_escaped(char *d, const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c > '\r' || (c != '\n' && c != '\r')) {
			*d++ = (char)c;
		} else {
			*d++ = '\\';
			*d++ = c == '\n' ? 'n' : 'r';
		}
	}
	return d;
}

/* Runs of whitespace become one space; trailing whitespace goes. */
static char *copy_folded(char *d, const unsigned char *p, size_t len)
{
	size_t i, end = len;

	while (end > 0 && lex_is_space(p[end - 1]))
		end--;
	for (i = 0; i < end; i++) {
		if (lex_is_space(p[i])) {
			while (i + 1 < end && lex_is_space(p[i + 1]))
				i++;
			*d++ = ' ';
		} else {
			*d++ = (char)p[i];
		}
	}
	return d;
}

void view_add_token(struct strbuf *out, const unsigned char *tok, size_t len,
		    enum token_class cls, unsigned flags)
{
	char *d = view_reserve(out, len);

	if (cls == TOKEN_COMMENT && !(flags & VIEW_EXACT_COMMENTS))
		d = copy_folded(d, tok, len);
	else
		d = copy_escaped(d, tok, len);
	view_commit(out, d);
}

size_t view_build(struct strbuf *out, const struct language *lang,
		  const void *src, size_t len, unsigned flags)
{
	struct lexer_state ls;
	struct token tok;
	size_t count = 0, line = 1, line_start = 0, scanned = 0;
	const unsigned char *s = src;

	lexer_init(&ls, src, len, lang->syntax);
	while (language_next_token(lang, &ls, &tok)) {
		if (flags & VIEW_POSITIONS) {
			const unsigned char *nl;

			while ((nl = memchr(s + scanned, '\n', tok.start - scanned))) {
				line++;
				scanned = line_start = (size_t)(nl - s) + 1;
			}
			scanned = tok.start;
			strbuf_addf(out, "%zu:%zu\t", line, tok.start - line_start + 1);
		}
		view_add_token(out, s + tok.start, tok.len, tok.cls, flags);
		count++;
	}
	return count;
}
