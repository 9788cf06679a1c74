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

/* '`' opens a raw string. */
#define GO_CLASS(c) LEX_CFAMILY_CLASS(c, 0, (c) == '`', LEX_IS_C_PUNCT(c))
static const unsigned char cclass[256] = { LEX_TABLE(GO_CLASS) };

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
			p = lex_digits(s, p + 2, n, 10);
			return p < n && s[p] == 'i' ? p + 1 : p;
		}
	}
	p = lex_digits(s, p, n, hex ? 16 : 10);
	if (p < n && s[p] == '.')
		p = lex_digits(s, p + 1, n, hex ? 16 : 10);
	if (p < n && ((s[p] | 0x20) == (hex ? 'p' : 'e'))) {
		size_t q = p + 1;

		if (q < n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < n && lex_is_digit(s[q]))
			p = lex_digits(s, q, n, 10);
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

/* A raw string from the backquote at p: to the next backquote, lines and all. */
static size_t scan_raw_string(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	const unsigned char *q = p + 1 < n ? memchr(s + p + 1, '`', n - p - 1) : NULL;

	*cls = TOKEN_STRING;
	return q ? (size_t)(q - s) + 1 : n;
}

static const struct lex_cfamily go = {
	.cclass = cclass, .puncts = puncts, .number = scan_number, .special = scan_raw_string,
	.flags = LEX_CF_BOM | LEX_CF_DOT_NUMBERS,
};

LEX_DEFINE_CFAMILY(lexer_go, "go", go, LEX_BREAKS_ALL, 0);
