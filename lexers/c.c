/*
 * The C and C++ lexer: raw (unpreprocessed) lexing as a compiler's raw
 * lexer does it, so that the view of a file agrees token for token with
 * `clang -cc1 -dump-raw-tokens`, comments aside.
 *
 * One lexer serves both languages: C++-only spellings (raw strings,
 * digit separators, `::`, `->*`, `<=>`) do not occur in valid C, so
 * recognising them everywhere costs C nothing.
 */
#include "lexers.h"

enum {
	C_OTHER,  /* a byte that is a token by itself */
	C_SPACE,
	C_IDENT,  /* A-Z a-z _ $ and every byte >= 0x80 (UTF-8 is never split) */
	C_DIGIT,
	C_DQUOTE,
	C_SQUOTE,
	C_PUNCT,
	C_SLASH,
	C_DOT,
	C_BACKSLASH
};

static unsigned char cclass[256];

static void init_classes(void)
{
	int c;

	for (c = 0; c < 256; c++) {
		if (lex_is_space((unsigned char)c))
			cclass[c] = C_SPACE;
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 c == '_' || c == '$' || c >= 0x80)
			cclass[c] = C_IDENT;
		else if (c >= '0' && c <= '9')
			cclass[c] = C_DIGIT;
	}
	for (const char *p = "!%&()*+,-:;<=>?[]^{|}~#"; *p; p++)
		cclass[(unsigned char)*p] = C_PUNCT;
	cclass['"'] = C_DQUOTE;
	cclass['\''] = C_SQUOTE;
	cclass['/'] = C_SLASH;
	cclass['.'] = C_DOT;
	cclass['\\'] = C_BACKSLASH;
}

static inline int is_ident(unsigned char c)
{
	return cclass[c] == C_IDENT || cclass[c] == C_DIGIT;
}

/* Length of a backslash-newline (line splice) at p, or 0. */
static inline size_t splice_len(const unsigned char *s, size_t p, size_t n)
{
	if (p < n && s[p] == '\\') {
		if (p + 1 < n && s[p + 1] == '\n')
			return 2;
		if (p + 2 < n && s[p + 1] == '\r' && s[p + 2] == '\n')
			return 3;
	}
	return 0;
}

/*
 * A pp-number: a digit or ".digit", then identifier characters, dots,
 * exponent signs after e/E/p/P, and digit separators followed by an
 * identifier character.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	p++;
	while (p < n) {
		unsigned char c = s[p];

		if (is_ident(c) || c == '.') {
			if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
			    p + 1 < n && (s[p + 1] == '+' || s[p + 1] == '-'))
				p++;
			p++;
		} else if (c == '\'' && p + 1 < n && is_ident(s[p + 1])) {
			p += 2;
		} else {
			break;
		}
	}
	return p;
}

/*
 * A quoted literal from the opening quote at p: backslash escapes the next
 * byte (so an escaped newline continues the literal).  Unterminated, it
 * ends before the end of its line, so that the apostrophe in `#error
 * don't` does not swallow the rest of the file.
 */
static size_t scan_quoted(const unsigned char *s, size_t p, size_t n)
{
	unsigned char q = s[p++];

	while (p < n) {
		unsigned char c = s[p];

		if (c == q)
			return p + 1;
		if (c == '\n' || (c == '\r' && p + 1 < n && s[p + 1] == '\n'))
			return p;
		if (c == '\\' && p + 1 < n) {
			p += s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n' ? 3 : 2;
			continue;
		}
		p++;
	}
	return p;
}

/*
 * A C++ raw string R"delim( ... )delim" from the quote at p.  Returns 0 when
 * the delimiter is not valid (the caller then lexes an ordinary string), or
 * the end; unterminated, it runs to the end of the file as a compiler's does.
 */
static size_t scan_raw_string(const unsigned char *s, size_t p, size_t n)
{
	size_t d = p + 1, dlen, q;

	while (d < n && d - (p + 1) <= 16 && s[d] != '(') {
		unsigned char c = s[d];

		if (c == ' ' || c == ')' || c == '\\' || c == '"' || lex_is_space(c))
			return 0;
		d++;
	}
	if (d >= n || s[d] != '(' || d - (p + 1) > 16)
		return 0;
	dlen = d - (p + 1);
	for (q = d + 1; q < n; q++) {
		if (s[q] == ')' && q + 1 + dlen < n && s[q + 1 + dlen] == '"' &&
		    !memcmp(s + q + 1, s + p + 1, dlen))
			return q + dlen + 2;
	}
	return n;
}

/* Is the identifier s[b..e) an encoding prefix, and does it allow raw strings? */
static int string_prefix(const unsigned char *s, size_t b, size_t e, int *raw)
{
	size_t l = e - b;

	*raw = l > 0 && s[e - 1] == 'R';
	if (*raw)
		l--;
	if (l == 0)
		return *raw;
	if (l == 1)
		return s[b] == 'L' || s[b] == 'u' || s[b] == 'U';
	return l == 2 && s[b] == 'u' && s[b + 1] == '8';
}

/* Longest punctuator at p (p < n), by maximal munch. */
static size_t scan_punct(const unsigned char *s, size_t p, size_t n)
{
	unsigned char c = s[p], c1 = p + 1 < n ? s[p + 1] : 0,
		c2 = p + 2 < n ? s[p + 2] : 0, c3 = p + 3 < n ? s[p + 3] : 0;

	switch (c) {
	case '-':
		if (c1 == '>')
			return c2 == '*' ? 3 : 2;
		return c1 == '-' || c1 == '=' ? 2 : 1;
	case '+': case '&': case '|':
		return c1 == c || c1 == '=' ? 2 : 1;
	case '<':
		if (c1 == '<')
			return c2 == '=' ? 3 : 2;
		if (c1 == '=')
			return c2 == '>' ? 3 : 2;
		if (c1 == ':') {
			/* C++11: "<::" not followed by ':' or '>' is '<' '::' */
			if (c2 == ':' && c3 != ':' && c3 != '>')
				return 1;
			return 2;
		}
		return c1 == '%' ? 2 : 1;
	case '>':
		if (c1 == '>')
			return c2 == '=' ? 3 : 2;
		return c1 == '=' ? 2 : 1;
	case '%':
		if (c1 == ':')
			return c2 == '%' && c3 == ':' ? 4 : 2;
		return c1 == '=' || c1 == '>' ? 2 : 1;
	case ':':
		return c1 == ':' || c1 == '>' ? 2 : 1;
	case '#':
		return c1 == '#' ? 2 : 1;
	case '*': case '/': case '=': case '!': case '^':
		return c1 == '=' ? 2 : 1;
	case '.':
		if (c1 == '.' && c2 == '.')
			return 3;
		return c1 == '*' ? 2 : 1;
	default:
		return 1;
	}
}

static int c_next(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, b, e;
	enum token_class cls;

	if (!cclass['a'])
		init_classes();
	for (;;) {
		size_t sp;

		while (p < n && cclass[s[p]] == C_SPACE)
			p++;
		if (!(sp = splice_len(s, p, n)))
			break;
		p += sp;
	}
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	b = p;
	switch (cclass[s[p]]) {
	case C_IDENT: {
		int raw;

		e = p + 1;
		while (e < n && is_ident(s[e]))
			e++;
		cls = TOKEN_WORD;
		if (e < n && (s[e] == '"' || s[e] == '\'') && string_prefix(s, b, e, &raw)) {
			if (!raw) {
				e = scan_quoted(s, e, n);
				cls = TOKEN_STRING;
			} else if (s[e] == '"') {
				size_t r = scan_raw_string(s, e, n);

				if (r) {
					e = r;
					cls = TOKEN_STRING;
				}
			}
		}
		break;
	}
	case C_DIGIT:
		e = scan_number(s, p, n);
		cls = TOKEN_NUMBER;
		break;
	case C_DOT:
		if (p + 1 < n && cclass[s[p + 1]] == C_DIGIT) {
			e = scan_number(s, p, n);
			cls = TOKEN_NUMBER;
		} else {
			e = p + scan_punct(s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case C_DQUOTE:
	case C_SQUOTE:
		e = scan_quoted(s, p, n);
		cls = TOKEN_STRING;
		break;
	case C_SLASH:
		if (p + 1 < n && s[p + 1] == '/') {
			e = lex_line_comment(s, p, n, 1);
			cls = TOKEN_COMMENT;
		} else if (p + 1 < n && s[p + 1] == '*') {
			e = lex_block_comment(s, p, n, "*/", 2);
			cls = TOKEN_COMMENT;
		} else {
			e = p + scan_punct(s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case C_PUNCT:
		e = p + scan_punct(s, p, n);
		cls = TOKEN_PUNCT;
		break;
	default: /* C_OTHER, C_BACKSLASH not starting a splice */
		e = p + 1;
		cls = TOKEN_OTHER;
		break;
	}
	ls->pos = e;
	tok->start = b;
	tok->len = e - b;
	tok->cls = cls;
	return 1;
}

const struct lexer lexer_c = { "c", c_next };
