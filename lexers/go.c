/*
 * The Go lexer, after the Go specification's lexical elements (and
 * go/scanner): identifiers, numbers (decimal, 0x hex with hex floats and
 * p exponents, 0o and legacy 0 octal, 0b binary, `_` separators, the
 * imaginary suffix i), interpreted strings and runes (to the end of their
 * line when unterminated), raw strings in backquotes (multi-line, to the
 * end of the input when unterminated), // and block comments, and every
 * operator by maximal munch.  Automatic semicolons are not tokens: they
 * are not in the source.
 */
#include "common.h"
#include "lexers.h"

enum {
	G_OTHER,  /* a byte that is a token by itself */
	G_SPACE,
	G_IDENT,  /* A-Z a-z _ and every byte >= 0x80 (UTF-8 is never split) */
	G_DIGIT,
	G_QUOTE,  /* ' " */
	G_BACKQUOTE,
	G_SLASH,
	G_DOT,
	G_PUNCT
};

#define GO_CLASS(c) (LEX_IS_SPACE(c) ? G_SPACE : \
	LEX_IS_IDENT(c) ? G_IDENT : LEX_IS_DIGIT(c) ? G_DIGIT : \
	(c) == '"' || (c) == '\'' ? G_QUOTE : (c) == '`' ? G_BACKQUOTE : \
	(c) == '/' ? G_SLASH : (c) == '.' ? G_DOT : \
	LEX_IN(c, '!', '%', '&', '(', ')', '*', '+', ',', '-', ':', ';', '<', '=', '>', \
	       '[', ']', '^', '{', '|', '}', '~') ? G_PUNCT : G_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(GO_CLASS) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == G_IDENT || cclass[c] == G_DIGIT;
}

static inline int is_hex(unsigned char c)
{
	return cclass[c] == G_DIGIT || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Digits (of the kind is_digit accepts) and `_` separators from p. */
static size_t scan_digits(const unsigned char *s, size_t p, size_t n, int hex)
{
	while (p < n && (s[p] == '_' || (hex ? is_hex(s[p]) : cclass[s[p]] == G_DIGIT)))
		p++;
	return p;
}

/*
 * A number from p (a digit, or a dot before one).  In hex, the exponent
 * is p/P; otherwise e/E.  Binary and octal digits are scanned as decimal
 * ones, as go/scanner does before it reports the bad ones.  The imaginary
 * suffix i comes last.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	int hex = 0;

	if (s[p] == '0' && p + 1 < n) {
		unsigned char x = s[p + 1] | 0x20;

		if (x == 'x') {
			hex = 1;
			p += 2;
		} else if (x == 'o' || x == 'b') {
			p = scan_digits(s, p + 2, n, 0);
			return p < n && s[p] == 'i' ? p + 1 : p;
		}
	}
	p = scan_digits(s, p, n, hex);
	if (p < n && s[p] == '.')
		p = scan_digits(s, p + 1, n, hex);
	if (p < n && ((s[p] | 0x20) == (hex ? 'p' : 'e'))) {
		size_t q = p + 1;

		if (q < n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < n && cclass[s[q]] == G_DIGIT)
			p = scan_digits(s, q, n, 0);
	}
	if (p < n && s[p] == 'i')
		p++;
	return p;
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['+'] = "++ +=", ['-'] = "-- -=", ['|'] = "|| |=", ['&'] = "&^= &^ && &=",
	['<'] = "<<= << <= <-", ['>'] = ">>= >> >=", ['*'] = "*=", ['/'] = "/=", ['%'] = "%=",
	['^'] = "^=", ['='] = "==", ['!'] = "!=", [':'] = ":=", ['.'] = "...",
};

LEX_TOKEN_FN go_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e;
	enum token_class cls;

	while (p < n && cclass[s[p]] == G_SPACE)
		p++;
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	switch (cclass[s[p]]) {
	case G_IDENT:
		if ((e = lex_bom(s, p, n))) {
			cls = TOKEN_OTHER;
			break;
		}
		for (e = p + 1; e < n && is_ident(s[e]); e++)
			;
		cls = TOKEN_WORD;
		break;
	case G_DIGIT:
		e = scan_number(s, p, n);
		cls = TOKEN_NUMBER;
		break;
	case G_DOT:
		if (p + 1 < n && cclass[s[p + 1]] == G_DIGIT) {
			e = scan_number(s, p, n);
			cls = TOKEN_NUMBER;
		} else {
			e = lex_punct(puncts, s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case G_QUOTE:
		e = lex_quoted(s, p, n, 0);
		cls = TOKEN_STRING;
		break;
	case G_BACKQUOTE: {
		const unsigned char *q = p + 1 < n ? memchr(s + p + 1, '`', n - p - 1) : NULL;

		e = q ? (size_t)(q - s) + 1 : n;
		cls = TOKEN_STRING;
		break;
	}
	case G_SLASH:
		if (p + 1 < n && s[p + 1] == '/') {
			e = lex_line_comment(s, p, n, 0);
			cls = TOKEN_COMMENT;
		} else if (p + 1 < n && s[p + 1] == '*') {
			e = lex_block_comment(s, p, n, "*/", 2);
			cls = TOKEN_COMMENT;
		} else {
			e = lex_punct(puncts, s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case G_PUNCT:
		e = lex_punct(puncts, s, p, n);
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

LEX_DEFINE(lexer_go, "go", go_token);
