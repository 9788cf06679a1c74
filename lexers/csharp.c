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
 *
 * White space is the language's (ECMA-334, "Lexical structure"): besides
 * the ASCII blanks, every character of category Zs, the line breaks
 * U+0085, U+2028 and U+2029 (which also end a // comment), and U+FEFF,
 * which Roslyn takes for white space anywhere (so a byte order mark at
 * the start is no token).
 */
#include "common.h"
#include "lexers.h"

/* '"', '$' and '@' start the strings of many kinds (and '@' verbatim identifiers). */
#define CS_CLASS(c) LEX_CFAMILY_CLASS(c, 0, LEX_IN(c, '"', '$', '@'), \
				      LEX_IS_C_PUNCT(c) || LEX_IN(c, '?', '#'))
static const unsigned char cclass[256] = { LEX_TABLE(CS_CLASS) };

#define CSHARP_SPACES (LEX_U_NBSP | LEX_U_ZS | LEX_U_BOM | LEX_U_LSPS | LEX_U_NEL)

/* Is the byte at p (p < n) one of an identifier's, and no white space? */
static inline int is_ident_at(const unsigned char *s, size_t p, size_t n)
{
	return (cclass[s[p]] == LEX_C_IDENT && !(s[p] >= 0x80 && lex_uspace(s, p, n, CSHARP_SPACES))) ||
		cclass[s[p]] == LEX_C_DIGIT;
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
 * A string from its opening quote at p, verbatim (CS_VERBATIM: "" is a
 * quote, there are no escapes, it may span lines) or regular, with holes
 * when interpolated (CS_HOLES: {{ and }} are braces, a { opens a hole).
 * Unterminated, a regular one ends at the end of its line, even inside a
 * hole, and a verbatim one at n.
 */
#define CS_VERBATIM 1u
#define CS_HOLES    2u
static size_t scan_quoted_holes(const unsigned char *s, size_t p, size_t n, unsigned flags)
{
	int verbatim = flags & CS_VERBATIM, closed;

	for (p++; p < n;) {
		unsigned char c = s[p], d;

		/* most bytes of a string are none of the four that matter */
		if (c != '"' && c != '\n' && c != '{' && c != '\\') {
			p++;
			continue;
		}
		d = p + 1 < n ? s[p + 1] : 0;
		if (c == '"' && !(verbatim && d == '"'))
			return p + 1;
		if (c == '\n' && !verbatim)
			return p > 0 && s[p - 1] == '\r' ? p - 1 : p;
		if ((c == '"' || (c == '{' && (flags & CS_HOLES))) && d == c) {
			p += 2;	/* "" in a verbatim string, {{ */
		} else if (c == '\\' && !verbatim && p + 1 < n && d != '\n' &&
			   !(d == '\r' && p + 2 < n && s[p + 2] == '\n')) {
			p += 2;
		} else if (c == '{' && (flags & CS_HOLES)) {
			p = lex_nested(s, p, n, '{', '}', LEX_NEST_ESCAPES | LEX_NEST_QUOTES |
				       (verbatim ? 0 : LEX_NEST_LINE), &closed);
			if (!closed)
				return p;
		} else {
			p++;
		}
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
	if (at || dollars)
		return scan_quoted_holes(s, q, n, (at ? CS_VERBATIM : 0) | (dollars ? CS_HOLES : 0));
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

		if (is_ident_at(s, p, n)) {
			if (!hex && (c == 'e' || c == 'E') && p + 2 < n &&
			    (s[p + 1] == '+' || s[p + 1] == '-') && lex_is_digit(s[p + 2]))
				p += 2;
			else
				p++;
		} else if (c == '.' && !hex && p + 1 < n && lex_is_digit(s[p + 1])) {
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

/* The token from the '"', '$' or '@' at p: a string, a verbatim identifier, or the byte alone. */
static size_t scan_special(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	size_t e;

	if (s[p] == '@' && p + 1 < n && cclass[s[p + 1]] == LEX_C_IDENT && is_ident_at(s, p + 1, n)) {
		*cls = TOKEN_WORD;
		return lex_span_idents_u(s, p + 2, n, 0, cclass, LEX_C_IDENT, LEX_C_DIGIT, CSHARP_SPACES);
	}
	if ((e = scan_string(s, p, n))) {
		*cls = TOKEN_STRING;
		return e;
	}
	*cls = TOKEN_OTHER;
	return p + 1;
}

static const struct lex_cfamily csharp = {
	.cclass = cclass, .puncts = puncts, .number = scan_number, .special = scan_special,
	.flags = LEX_CF_DOT_NUMBERS | LEX_CF_QDOT_DIGIT | LEX_CF_ULINES, .spaces = CSHARP_SPACES,
};

LEX_DEFINE_CFAMILY(lexer_csharp, "csharp", csharp, LEX_BREAKS_ALL, CSHARP_SPACES);
