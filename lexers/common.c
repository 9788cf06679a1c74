/* Helpers for constructs that several lexers share. */
#include "common.h"

size_t lex_line_comment(const unsigned char *s, size_t p, size_t n, int splices)
{
	for (;;) {
		const unsigned char *nl = memchr(s + p, '\n', n - p);
		size_t e = nl ? (size_t)(nl - s) : n;
		size_t k = e;

		if (k > p && s[k - 1] == '\r')
			k--;
		if (splices && nl && k > p && s[k - 1] == '\\') {
			p = e + 1;
			continue;
		}
		return k;
	}
}

/*
 * The closer is looked for by its last byte: in the comments of C-like
 * languages '*' starts every line of a doc comment, '/' is rare.
 */
size_t lex_block_comment_from(const unsigned char *s, size_t p, size_t n,
			      size_t openlen, const char *close, size_t closelen)
{
	const unsigned char last = (unsigned char)close[closelen - 1];
	size_t q;

	if (p + openlen > n)
		return n;
	for (q = p + openlen + closelen - 1; q < n; q++) {
		const unsigned char *c = memchr(s + q, last, n - q);

		if (!c)
			break;
		q = (size_t)(c - s);
		if (!memcmp(s + q + 1 - closelen, close, closelen - 1))
			return q + 1;
	}
	return n;
}

size_t lex_block_comment(const unsigned char *s, size_t p, size_t n,
			 const char *close, size_t closelen)
{
	return lex_block_comment_from(s, p, n, closelen, close, closelen);
}

size_t lex_splice_len_at(const unsigned char *s, size_t p, size_t n)
{
	size_t q;

	for (q = p + 1; q < n && lex_is_hspace(s[q]); q++)
		;
	if (q >= n || (s[q] != '\n' && s[q] != '\r'))
		return 0;
	if (q + 1 < n && (s[q + 1] == '\n' || s[q + 1] == '\r') && s[q + 1] != s[q])
		q++;
	return q + 1 - p;
}

/* Past the escape at the backslash at p in a quoted literal of C, splices and all. */
static size_t escape_spliced(const unsigned char *s, size_t p, size_t n)
{
	size_t l = lex_splice_len(s, p, n);

	if (l)
		return p + l;
	p = lex_skip_splices(s, p + 1, n);  /* the escaped character */
	return p < n && s[p] != '\n' && s[p] != '\r' ? p + 1 : p;
}

/* Does the line break at p (LF, or CR) end a one-line literal? */
static inline int ends_line(const unsigned char *s, size_t p, size_t n, unsigned flags)
{
	if (s[p] == '\n')
		return 1;
	return s[p] == '\r' && ((flags & LEX_QUOTED_SPLICES) || (p + 1 < n && s[p + 1] == '\n'));
}

size_t lex_quoted(const unsigned char *s, size_t p, size_t n, unsigned flags)
{
	unsigned char q = s[p++];

	while (p < n) {
		unsigned char c;

		p = lex_word_skip_quoted(s, p, n, q);
		if (p >= n)
			break;
		c = s[p];
		if (c == q)
			return p + 1;
		if (!(flags & LEX_QUOTED_MULTILINE) && ends_line(s, p, n, flags))
			return p;
		if (c == '\\' && (flags & LEX_QUOTED_SPLICES))
			p = escape_spliced(s, p, n);
		else if (c == '\\' && p + 1 < n)
			p += s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n' ? 3 : 2;
		else
			p++;
	}
	return n;
}

size_t lex_triple_quoted(const unsigned char *s, size_t p, size_t n, unsigned char q)
{
	for (p += 3; p < n; p++) {
		/* past the bytes that are neither q nor a backslash, a word at a time */
		for (; n - p >= 8; p += 8) {
			uint64_t x = lex_word_load(s + p), m = lex_word_eq(x, q) | lex_word_eq(x, '\\');

			if (m) {
				p += lex_word_first(m);
				break;
			}
		}
		if (p >= n)
			break;
		if (s[p] == '\\') {
			p++;
		} else if (s[p] == q && n - p >= 3 && s[p + 1] == q && s[p + 2] == q) {
			return p + 3;
		}
	}
	return n;
}

static inline int lex_escapes_next(const unsigned char *s, size_t p, size_t n, unsigned flags)
{
	return p + 1 < n && !(s[p + 1] == '\n' && (flags & LEX_NEST_LINE));
}

size_t lex_nested(const unsigned char *s, size_t p, size_t n,
		  unsigned char open, unsigned char close, unsigned flags, int *closed)
{
	size_t depth = 0;

	if (closed)
		*closed = 0;
	while (p < n) {
		unsigned char c = s[p];

		if (c == close && depth) {
			p++;
			if (!--depth) {
				if (closed)
					*closed = 1;
				return p;
			}
		} else if (c == open) {
			depth++;
			p++;
		} else if (c == '\\' && (flags & LEX_NEST_ESCAPES) && lex_escapes_next(s, p, n, flags)) {
			p += 2;
		} else if (c == '\n' && (flags & LEX_NEST_LINE)) {
			return p > 0 && s[p - 1] == '\r' ? p - 1 : p;
		} else if ((c == '"' || c == '\'') && (flags & LEX_NEST_QUOTES)) {
			int esc = c == '"' || !(flags & LEX_NEST_SQ_RAW);

			for (p++; p < n && s[p] != c; p++) {
				if (s[p] == '\n' && (flags & LEX_NEST_LINE))
					return s[p - 1] == '\r' ? p - 1 : p;
				if (s[p] == '\\' && esc && lex_escapes_next(s, p, n, flags))
					p++;
			}
			if (p < n)
				p++;
		} else {
			p++;
		}
	}
	return n;
}

/* Is the line at p (past its leading blanks) the delimiter line?  *end: past the delimiter. */
static int heredoc_closer(const unsigned char *s, size_t p, size_t n,
			  const unsigned char *delim, size_t dlen, unsigned flags, size_t *end)
{
	if (n - p < dlen || memcmp(s + p, delim, dlen))
		return 0;
	p += dlen;
	*end = p;
	if (flags & LEX_HEREDOC_PREFIX) {
		unsigned char c = p < n ? s[p] : ' ';

		return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c >= 0x80);
	}
	if (p < n && s[p] == '\r')
		p++;
	return p == n || s[p] == '\n';
}

size_t lex_heredoc(const unsigned char *s, size_t p, size_t n,
		   const unsigned char *delim, size_t dlen, unsigned flags)
{
	while (p < n) {
		const unsigned char *nl;
		size_t q = p, e;

		if (flags & (LEX_HEREDOC_TABS | LEX_HEREDOC_INDENT))
			while (q < n && (s[q] == '\t' ||
					 (s[q] == ' ' && (flags & LEX_HEREDOC_INDENT))))
				q++;
		if (heredoc_closer(s, q, n, delim, dlen, flags, &e))
			return e;
		nl = memchr(s + q, '\n', n - q);
		if (!nl)
			break;
		p = (size_t)(nl - s) + 1;
	}
	return n;
}

void lex_heredoc_push(struct lex_heredocs *q, size_t at, unsigned flags, unsigned max)
{
	if (q->count >= max)
		return;
	q->at[q->count] = at;
	q->flags[q->count] = (unsigned char)flags;
	q->count++;
}

size_t lex_heredoc_pop(struct lex_heredocs *q, unsigned *flags)
{
	size_t at = q->at[0], i;

	*flags = q->flags[0];
	for (i = 1; i < q->count; i++) {
		q->at[i - 1] = q->at[i];
		q->flags[i - 1] = q->flags[i];
	}
	q->count--;
	return at;
}

size_t lex_nested_comment(const unsigned char *s, size_t p, size_t n,
			  const char *open, const char *close)
{
	size_t depth = 1, q;

	for (q = p + 2; q + 1 < n; q++) {
		if (s[q] == (unsigned char)open[0] && s[q + 1] == (unsigned char)open[1]) {
			depth++;
			q++;
		} else if (s[q] == (unsigned char)close[0] && s[q + 1] == (unsigned char)close[1]) {
			if (!--depth)
				return q + 2;
			q++;
		}
	}
	return n;
}

size_t lex_span_idents_high(const unsigned char *s, size_t p, size_t n, int dollar,
			    const unsigned char table[256], unsigned lo, unsigned hi,
			    unsigned spaces)
{
	while (p < n) {
		uint64_t m = 0, x;

		if (s[p] >= 0x80) {
			if (lex_uspace(s, p, n, spaces))
				return p;
			p++;
			continue;
		}
		for (; n - p >= 8; p += 8) {
			x = lex_word_load(s + p);
			if ((m = (~lex_word_idents(x, dollar) | x) & LEX_WORD_HIGHS))
				break;
		}
		if (m)
			p += lex_word_first(m);
		else
			while (p < n && s[p] < 0x80 && table[s[p]] - lo <= hi - lo)
				p++;
		if (p < n && s[p] < 0x80)
			return p;
	}
	return p;
}
