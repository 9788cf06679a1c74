/*
 * The Rust lexer, after the Reference's lexical structure (and rustc's
 * rustc_lexer): identifiers and raw identifiers (r#match); strings, which
 * may span lines (to the end of the input when unterminated), with the
 * prefixes b and c; raw strings r"..." r#"..."# with any number of #, and
 * br / cr raw strings; character and byte literals ('a', '\n', '\u{1F600}',
 * b'x') told apart from lifetimes and labels ('a, 'static); nesting block
 * comments; numbers with their suffixes (1u32, 1.0f64, 0x_FF); multi-byte
 * operators by maximal munch (rustc's lexer gives single characters and
 * its parser joins them; the joined ones are the tokens a reader sees); and
 * a #! first line as a comment, unless it opens an inner attribute #![...];
 * a byte order mark at the start is a token of its own.
 *
 * White space is rustc's (Pattern_White_Space): besides the ASCII blanks,
 * U+0085, U+200E, U+200F, U+2028 and U+2029; a no-break space or any
 * other Zs character is no white space to rustc ("unknown start of
 * token") and stays in the word it touches here, as any byte >= 0x80.
 */
#include "common.h"
#include "lexers.h"

/* '\'' starts a character or a lifetime, '#' maybe a "#!" line. */
#define RUST_CLASS(c) LEX_CFAMILY_CLASS(c, 0, (c) == '\'' || (c) == '#', \
					LEX_IS_C_PUNCT(c) || LEX_IN(c, '$', '?', '@'))
static const unsigned char cclass[256] = { LEX_TABLE(RUST_CLASS) };

#define RUST_SPACES (LEX_U_NEL | LEX_U_MARKS | LEX_U_LSPS)

static size_t scan_ident(const unsigned char *s, size_t p, size_t n)
{
	return lex_span_idents_u(s, p, n, 0, cclass, LEX_C_IDENT, LEX_C_DIGIT, RUST_SPACES);
}

/* Does an identifier start at p (p < n)? */
static inline int ident_starts(const unsigned char *s, size_t p, size_t n)
{
	return cclass[s[p]] == LEX_C_IDENT && !(s[p] >= 0x80 && lex_uspace(s, p, n, RUST_SPACES));
}

/*
 * A raw string whose #s (any number, maybe none) start at p, after its r:
 * just past the closing quote and as many #s, or n when unterminated.
 * Returns 0 when the #s are not followed by a quote (not a raw string).
 */
static size_t scan_raw_string(const unsigned char *s, size_t p, size_t n)
{
	size_t hashes = 0, q;

	while (p + hashes < n && s[p + hashes] == '#')
		hashes++;
	if (p + hashes >= n || s[p + hashes] != '"')
		return 0;
	for (q = p + hashes + 1; q < n; q++) {
		if (s[q] == '"' && n - (q + 1) >= hashes) {
			size_t k = 0;

			while (k < hashes && s[q + 1 + k] == '#')
				k++;
			if (k == hashes)
				return q + 1 + hashes;
			q += k;  /* those #s cannot end a closer */
		}
	}
	return n;
}

/*
 * A character (or, after b, byte) literal from the quote at p: '\...'
 * (an escape, to the closing quote on its line: '\n', '\x7f', '\u{1F600}'),
 * or one UTF-8 character and a quote.  Returns 0 for anything else (a
 * lifetime, or a stray quote).
 */
static size_t scan_char(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1, l;

	if (q >= n)
		return 0;
	if (s[q] == '\\') {
		for (q += 2; q < n && s[q] != '\'' && s[q] != '\n'; q++)
			;
		if (q < n && s[q] == '\'')
			return q + 1;
		/* unterminated: up to the end of the line, before a CR */
		if (q > n)
			return n;
		return q > p + 2 && s[q - 1] == '\r' ? q - 1 : q;
	}
	l = lex_utf8_len(s[q]);
	if (s[q] != '\n' && q + l < n && s[q + l] == '\'')
		return q + l + 1;
	return 0;
}

/*
 * A number from the digit at p.  0x 0o 0b take the identifier characters
 * that follow (digits, `_` and a suffix alike); a decimal takes a
 * fraction (a dot not followed by another dot or an identifier, which
 * would make a range or a method call), an exponent, then its suffix.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'x' || s[p + 1] == 'o' || s[p + 1] == 'b'))
		return scan_ident(s, p + 2, n);
	p = lex_digits(s, p, n, 10);
	if (p < n && s[p] == '.' &&
	    !(p + 1 < n && (s[p + 1] == '.' || ident_starts(s, p + 1, n)))) {
		p++;
		if (p < n && lex_is_digit(s[p]))
			p = lex_digits(s, p, n, 10);
	}
	if (p < n && (s[p] == 'e' || s[p] == 'E')) {
		size_t q = p + 1;

		if (q < n && (s[q] == '+' || s[q] == '-'))
			q++;
		while (q < n && s[q] == '_')
			q++;
		if (q < n && lex_is_digit(s[q]))
			p = lex_digits(s, q, n, 10);
	}
	return scan_ident(s, p, n);
}

/* Is the #! at p, the start of the input, a shebang line (not #![...])? */
static int is_shebang(const unsigned char *s, size_t p, size_t n)
{
	if (!lex_starts(s, p, n, "#!"))
		return 0;
	p += 2;
	for (;;) {
		while (p < n && lex_is_space(s[p]))
			p++;
		if (lex_starts(s, p, n, "//"))
			p = lex_line_comment(s, p, n, 0);
		else if (lex_starts(s, p, n, "/*"))
			p = lex_nested_comment(s, p, n, "/*", "*/");
		else
			return !(p < n && s[p] == '[');
	}
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	[':'] = "::", ['-'] = "-> -=", ['='] = "== =>", ['<'] = "<<= << <=", ['>'] = ">>= >> >=",
	['&'] = "&& &=", ['|'] = "|| |=", ['.'] = "... ..= ..", ['+'] = "+=", ['*'] = "*=",
	['/'] = "/=", ['%'] = "%=", ['^'] = "^=", ['!'] = "!=",
};

/*
 * After the word s[p..e) (e < n): r"..." r#"..."# br"..." cr#"..."#, b"..."
 * c"...", b'x', or a raw identifier r#match; else the word.
 */
static size_t scan_prefixed(const unsigned char *s, size_t p, size_t e, size_t n,
			    enum token_class *cls)
{
	size_t r;

	if (e - p <= 2 && s[e - 1] == 'r' && (e - p == 1 || s[p] == 'b' || s[p] == 'c') &&
	    (s[e] == '"' || s[e] == '#')) {
		if ((r = scan_raw_string(s, e, n))) {
			*cls = TOKEN_STRING;
			return r;
		}
		if (e - p == 1 && s[e] == '#' && e + 1 < n && ident_starts(s, e + 1, n))
			return scan_ident(s, e + 2, n);  /* r#match */
	} else if (e - p == 1 && (s[p] == 'b' || s[p] == 'c') && s[e] == '"') {
		*cls = TOKEN_STRING;
		return lex_quoted(s, e, n, LEX_QUOTED_MULTILINE);
	} else if (e - p == 1 && s[p] == 'b' && s[e] == '\'' && (r = scan_char(s, e, n))) {
		*cls = TOKEN_STRING;
		return r;
	}
	return e;
}

/* A quote at p: a character literal, a lifetime or label, or the quote alone. */
static size_t scan_quote(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	size_t e;

	if ((e = scan_char(s, p, n))) {
		*cls = TOKEN_STRING;
		return e;
	}
	if (p + 1 < n && ident_starts(s, p + 1, n)) {
		*cls = TOKEN_WORD;
		return scan_ident(s, p + 2, n);  /* 'a 'static 'outer */
	}
	*cls = TOKEN_OTHER;
	return p + 1;
}

/* A '\'' or '#' at p: the first line as a comment when it is a shebang line, else '#'. */
static size_t scan_special(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if (s[p] == '\'')
		return scan_quote(s, p, n, cls);
	if (p == lex_bom(s, 0, n) && is_shebang(s, p, n)) {
		*cls = TOKEN_COMMENT;
		return lex_line_comment(s, p, n, 0);
	}
	*cls = TOKEN_PUNCT;
	return p + 1;
}

static const struct lex_cfamily rust = {
	.cclass = cclass, .puncts = puncts, .number = scan_number, .special = scan_special,
	.word = scan_prefixed, .flags = LEX_CF_BOM | LEX_CF_MULTILINE | LEX_CF_NESTING,
	.spaces = RUST_SPACES,
};

LEX_DEFINE_CFAMILY(lexer_rust, "rust", rust, LEX_BREAKS_ALL, RUST_SPACES);
