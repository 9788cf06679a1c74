/*
 * The C# lexer.
 *
 * Literals are one token each, whatever their form: "regular" strings and
 * 'c' characters (which end at the end of their line when unterminated),
 * @"verbatim" strings (doubled quotes, multi-line), C# 11 raw strings
 * """...""" (three or more quotes, multi-line), and interpolated strings
 * $"...", $@"...", @$"...", $"""...""" with their {holes}, in which
 * braces nest and string literals are skipped whole, so that a '}' or '"'
 * inside a nested literal does not end the hole.  A hole of a regular
 * (one-line) interpolated string ends with its line, as before C# 11.
 *
 * Preprocessor lines are tokenized like any others: '#' is a punctuator and
 * "if", "region" the words after it.  @identifier is one word; digits,
 * letters, '_' and '.digit' make up a number (1_000UL, 0xFF_u, 1.5e-3m),
 * so suffixes are part of it but "1..2" is a range.
 */
#include "common.h"
#include "lexers.h"

enum {
	K_OTHER,   /* a byte that is a token by itself */
	K_SPACE,
	K_IDENT,   /* A-Z a-z _ and every byte >= 0x80 */
	K_DIGIT,
	K_DQUOTE,
	K_SQUOTE,
	K_AT,
	K_DOLLAR,
	K_SLASH,
	K_DOT,
	K_PUNCT
};

#define CS_CLASS(c) (LEX_IS_SPACE(c) ? K_SPACE : \
	LEX_IS_IDENT(c) ? K_IDENT : LEX_IS_DIGIT(c) ? K_DIGIT : \
	(c) == '"' ? K_DQUOTE : (c) == '\'' ? K_SQUOTE : (c) == '@' ? K_AT : (c) == '$' ? K_DOLLAR : \
	(c) == '/' ? K_SLASH : (c) == '.' ? K_DOT : \
	LEX_IN(c, '!', '%', '&', '(', ')', '*', '+', ',', '-', ':', ';', '<', '=', '>', '?', \
	       '[', ']', '^', '{', '|', '}', '~', '#') ? K_PUNCT : K_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(CS_CLASS) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == K_IDENT || cclass[c] == K_DIGIT;
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* Number of consecutive quotes at p. */
static size_t quote_run(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p;

	while (q < n && s[q] == '"')
		q++;
	return q - p;
}

/*
 * A raw string literal whose opening run of k >= 3 quotes starts at p: it
 * ends with the first run of at least k quotes (all of the run is taken),
 * or at n.  Holes of an interpolated raw string need no special care: a
 * literal inside them cannot hold k quotes in a row.
 */
static size_t scan_raw(const unsigned char *s, size_t p, size_t n, size_t k)
{
	p += k;
	while (p < n) {
		const unsigned char *q = memchr(s + p, '"', n - p);
		size_t run;

		if (!q)
			return n;
		p = (size_t)(q - s);
		run = quote_run(s, p, n);
		p += run;
		if (run >= k)
			return p;
	}
	return n;
}

/*
 * A verbatim string from its opening quote at p: "" is a quote, there are
 * no escapes, it may span lines.  Interpolated, {{ and }} are braces and a
 * { opens a hole.  Unterminated, it ends at n.
 */
static size_t scan_verbatim(const unsigned char *s, size_t p, size_t n, int interp)
{
	p++;
	while (p < n) {
		unsigned char c = s[p];

		if (c == '"') {
			if (p + 1 < n && s[p + 1] == '"') {
				p += 2;
				continue;
			}
			return p + 1;
		}
		if (interp && c == '{') {
			int closed;

			if (p + 1 < n && s[p + 1] == '{') {
				p += 2;
				continue;
			}
			p = lex_nested(s, p, n, '{', '}', LEX_NEST_ESCAPES | LEX_NEST_QUOTES, &closed);
			if (!closed)
				return n;
			continue;
		}
		p++;
	}
	return n;
}

/*
 * A regular interpolated string from its opening quote at p: backslash
 * escapes, {{ and }}, holes; it ends at the end of its line when
 * unterminated, even inside a hole.
 */
static size_t scan_interpolated(const unsigned char *s, size_t p, size_t n)
{
	p++;
	while (p < n) {
		unsigned char c = s[p];

		if (c == '"')
			return p + 1;
		if (c == '\n')
			return p > 0 && s[p - 1] == '\r' ? p - 1 : p;
		if (c == '\\' && p + 1 < n && s[p + 1] != '\n' &&
		    !(s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n')) {
			p += 2;
			continue;
		}
		if (c == '{') {
			int closed;

			if (p + 1 < n && s[p + 1] == '{') {
				p += 2;
				continue;
			}
			p = lex_nested(s, p, n, '{', '}',
				       LEX_NEST_ESCAPES | LEX_NEST_QUOTES | LEX_NEST_LINE, &closed);
			if (!closed)
				return p;
			continue;
		}
		p++;
	}
	return n;
}

/*
 * A string literal of any kind whose first byte (a quote, or the @ and $
 * prefixes) is at p, or 0 when p does not start one.
 */
static size_t scan_string(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p, dollars = 0, k;
	int at = 0;

	while (q < n && (s[q] == '$' || s[q] == '@')) {
		if (s[q] == '@') {
			if (at)
				return 0;
			at = 1;
		} else {
			dollars++;
		}
		q++;
	}
	if (q >= n || s[q] != '"' || (dollars > 1 && at))
		return 0;
	k = quote_run(s, q, n);
	if (!at && k >= 3)
		return scan_raw(s, q, n, k);
	if (dollars > 1)
		return 0;
	if (at)
		return scan_verbatim(s, q, n, dollars == 1);
	if (dollars)
		return scan_interpolated(s, q, n);
	return lex_quoted(s, q, n, 0);
}

/*
 * A number from the digit (or ".digit") at p: letters, digits and '_' are
 * its digits and suffixes, '.' continues it before a digit, and so does a
 * sign after a decimal exponent's e.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	int hex = p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X');

	if (hex)
		p += 2;
	while (p < n) {
		unsigned char c = s[p];

		if (is_ident(c)) {
			if (!hex && (c == 'e' || c == 'E') && p + 2 < n &&
			    (s[p + 1] == '+' || s[p + 1] == '-') && is_digit(s[p + 2]))
				p += 2;
			else
				p++;
		} else if (c == '.' && !hex && p + 1 < n && is_digit(s[p + 1])) {
			p++;
		} else {
			break;
		}
	}
	return p;
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['+'] = "++ +=", ['&'] = "&& &=", ['|'] = "|| |=", ['-'] = "-- -= ->", ['*'] = "*=",
	['/'] = "/=", ['%'] = "%=", ['^'] = "^=", ['!'] = "!=", ['='] = "== =>",
	['<'] = "<<= << <=", ['>'] = ">>>= >>> >>= >> >=", ['?'] = "?\?= ?\? ?.", [':'] = "::",
	['.'] = "..",
};

/* The longest operator at p (p < n): "?." is not one before a digit ("a?.5:b"). */
static size_t scan_punct(const unsigned char *s, size_t p, size_t n)
{
	size_t e = lex_punct(puncts, s, p, n);

	return e - p == 2 && s[p] == '?' && s[p + 1] == '.' && e < n && is_digit(s[e]) ? p + 1 : e;
}

LEX_TOKEN_FN csharp_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e;
	enum token_class cls;

	while (p < n && cclass[s[p]] == K_SPACE)
		p++;
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	switch (cclass[s[p]]) {
	case K_IDENT:
		for (e = p + 1; e < n && is_ident(s[e]); e++)
			;
		cls = TOKEN_WORD;
		break;
	case K_DIGIT:
		e = scan_number(s, p, n);
		cls = TOKEN_NUMBER;
		break;
	case K_DOT:
		if (p + 1 < n && is_digit(s[p + 1])) {
			e = scan_number(s, p, n);
			cls = TOKEN_NUMBER;
		} else {
			e = scan_punct(s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case K_DQUOTE:
	case K_DOLLAR:
		e = scan_string(s, p, n);
		cls = TOKEN_STRING;
		if (!e) {
			e = p + 1;
			cls = TOKEN_OTHER;
		}
		break;
	case K_AT:
		if (p + 1 < n && cclass[s[p + 1]] == K_IDENT) {
			for (e = p + 2; e < n && is_ident(s[e]); e++)
				;
			cls = TOKEN_WORD;
		} else if ((e = scan_string(s, p, n))) {
			cls = TOKEN_STRING;
		} else {
			e = p + 1;
			cls = TOKEN_OTHER;
		}
		break;
	case K_SQUOTE:
		e = lex_quoted(s, p, n, 0);
		cls = TOKEN_STRING;
		break;
	case K_SLASH:
		if (p + 1 < n && s[p + 1] == '/') {
			e = lex_line_comment(s, p, n, 0);
			cls = TOKEN_COMMENT;
		} else if (p + 1 < n && s[p + 1] == '*') {
			e = lex_block_comment(s, p, n, "*/", 2);
			cls = TOKEN_COMMENT;
		} else {
			e = scan_punct(s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case K_PUNCT:
		e = scan_punct(s, p, n);
		cls = TOKEN_PUNCT;
		break;
	default:
		e = p + 1;
		cls = TOKEN_OTHER;
		break;
	}
	ls->pos = e;
	tok->start = p;
	tok->len = e - p;
	tok->cls = cls;
	return 1;
}

LEX_DEFINE(lexer_csharp, "csharp", csharp_token);
