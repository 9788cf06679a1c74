#include "view.h"
#include "language.h"

static void add_escaped(struct strbuf *out, const unsigned char *p, size_t len)
{
	size_t i, run = 0;

	strbuf_grow(out, len + 1);
	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c != '\n' && c != '\r')
			continue;
		strbuf_add(out, p + run, i - run);
		strbuf_add(out, c == '\n' ? "\\n" : "\\r", 2);
		run = i + 1;
	}
	strbuf_add(out, p + run, len - run);
}

static void add_folded(struct strbuf *out, const unsigned char *p, size_t len)
{
	size_t i, end = len;
	char *d;

	while (end > 0 && lex_is_space(p[end - 1]))
		end--;
	strbuf_grow(out, end + 1);
	d = out->buf + out->len;
	for (i = 0; i < end; i++) {
		if (lex_is_space(p[i])) {
			while (i + 1 < end && lex_is_space(p[i + 1]))
				i++;
			*d++ = ' ';
		} else {
			*d++ = (char)p[i];
		}
	}
	out->len = (size_t)(d - out->buf);
	out->buf[out->len] = '\0';
}

static int needs_escape(const unsigned char *p, size_t len)
{
	return memchr(p, '\n', len) || memchr(p, '\r', len);
}

void view_add_token(struct strbuf *out, const unsigned char *tok, size_t len,
		    enum token_class cls, unsigned flags)
{
	if (cls == TOKEN_COMMENT && !(flags & VIEW_EXACT_COMMENTS))
		add_folded(out, tok, len);
	else if (needs_escape(tok, len))
		add_escaped(out, tok, len);
	else
		strbuf_add(out, tok, len);
	strbuf_addch(out, '\n');
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
