/*
 * The C and C++ lexer: raw (unpreprocessed) lexing as a compiler's raw
 * lexer does it, so that the view of a file agrees token for token with
 * `clang -cc1 -dump-raw-tokens`, comments aside.
 *
 * One lexer serves both languages: C++-only spellings (raw strings,
 * digit separators, `::`, `->*`, `<=>`) do not occur in valid C, so
 * recognising them everywhere costs C nothing.
 */
#include "common.h"
#include "lexers.h"

enum {
	C_OTHER,  /* a byte that is a token by itself */
	C_SPACE,
	C_IDENT,  /* A-Z a-z _ $ and every byte >= 0x80 (UTF-8 is never split) */
	C_DIGIT,
	C_DQUOTE,
	C_SQUOTE,
	C_BACKSLASH, /* the three that may go on a token of identifier characters */
	C_PUNCT,  /* may start a punctuator of several characters */
	C_PUNCT1, /* always a punctuator by itself: ( ) [ ] { } , ; ? ~ */
	C_SLASH,
	C_DOT
};

#define C_CLASS(c) (LEX_IS_SPACE(c) ? C_SPACE : \
	LEX_IS_IDENT(c) || (c) == '$' ? C_IDENT : LEX_IS_DIGIT(c) ? C_DIGIT : \
	(c) == '"' ? C_DQUOTE : (c) == '\'' ? C_SQUOTE : (c) == '\\' ? C_BACKSLASH : \
	LEX_IN(c, '!', '%', '&', '*', '+', '-', ':', '<', '=', '>', '^', '|', '#') ? C_PUNCT : \
	LEX_IN(c, '(', ')', '[', ']', '{', '}', ',', ';', '?', '~') ? C_PUNCT1 : \
	(c) == '/' ? C_SLASH : (c) == '.' ? C_DOT : C_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(C_CLASS) };

/*
 * The bytes of a pp-number: NUM_PLAIN for those that just go on (digits,
 * letters, _, bytes >= 0x80, '.'), NUM_EXP for e E p P (a sign may
 * follow), NUM_SPECIAL for the digit separator and the backslash that may
 * start a splice.
 */
enum { NUM_END, NUM_PLAIN, NUM_EXP, NUM_SPECIAL };
#define C_NUM_CLASS(c) (LEX_IN(c, 'e', 'E', 'p', 'P') ? NUM_EXP : \
	LEX_IN(c, '\'', '\\') ? NUM_SPECIAL : \
	LEX_IS_IDENT(c) || LEX_IS_DIGIT(c) || (c) == '.' ? NUM_PLAIN : NUM_END)
static const unsigned char numclass[256] = { LEX_TABLE(C_NUM_CLASS) };

/*
 * The bytes that may be the second of a punctuator of several: a
 * punctuator followed by none of them is one byte, known without
 * a search of the table.  A backslash
 * may start a splice.
 */
#define C_PUNCT2(c) LEX_IN(c, '>', '-', '=', '+', '&', '|', '<', ':', '%', '#', '*', '.', '\\')
static const unsigned char punct2[256] = { LEX_TABLE(C_PUNCT2) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == C_IDENT || cclass[c] == C_DIGIT;
}

/* End of the identifier characters from p, line splices among them included. */
static size_t scan_ident(const unsigned char *s, size_t p, size_t n)
{
	for (;;) {
		size_t q;

		while (p < n && is_ident(s[p]))
			p++;
		q = lex_skip_splices(s, p, n);
		if (q == p || q >= n || !is_ident(s[q]))
			return p;
		p = q;
	}
}

/*
 * A pp-number: a digit or ".digit", then identifier characters but '$',
 * dots, exponent signs after e/E/p/P, and digit separators followed by an
 * identifier character.  Runs of the bytes that just go on (numclass
 * NUM_PLAIN) take one lex_span.
 */

static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	p++;
	for (;;) {
		size_t q, r;
		unsigned char c;

		p = lex_span(s, p, n, numclass, NUM_PLAIN, NUM_PLAIN);
		if (p >= n || numclass[s[p]] == NUM_END)
			break;
		q = lex_skip_splices(s, p, n);
		if (q >= n)
			break;
		c = s[q];
		if ((is_ident(c) && c != '$') || c == '.') {
			p = q + 1;
			if (c == 'e' || c == 'E' || c == 'p' || c == 'P') {
				r = lex_skip_splices(s, p, n);
				if (r < n && (s[r] == '+' || s[r] == '-'))
					p = r + 1;
			}
		} else if (c == '\'') {
			r = lex_skip_splices(s, q + 1, n);
			if (r >= n || !is_ident(s[r]) || s[r] == '$')
				break;
			p = r + 1;
		} else {
			break;
		}
	}
	return p;
}

/*
 * End of a C++ standard library literal suffix ("..."s, "..."sv,
 * "..."min, ...) at p, just after a string literal, or p when there is
 * none.  User suffixes ("..."_x) are left as identifiers, as C compilers
 * take them: C code glues strings to macros ("\t"__ASM_ARG).
 */
static size_t scan_ud_suffix(const unsigned char *s, size_t p, size_t n)
{
	size_t q = lex_skip_splices(s, p, n), e;
	char word[8];

	if (q >= n || cclass[s[q]] != C_IDENT || s[q] == '$' || s[q] == '_' || s[q] >= 0x80)
		return p;
	e = scan_ident(s, q + 1, n);
	if (e - q > 3)
		return p;
	word[0] = ' ';
	memcpy(word + 1, s + q, e - q);
	word[e - q + 1] = ' ';
	word[e - q + 2] = '\0';
	return strstr(" s sv h min ms us ns i il if d y ", word) ? e : p;
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

/* The punctuators of several bytes (digraphs too), for lex_punct. */
static const char *const puncts[128] = {
	['-'] = "->* -> -- -=", ['+'] = "++ +=", ['&'] = "&& &=", ['|'] = "|| |=",
	['<'] = "<<= <=> << <= <: <%", ['>'] = ">>= >> >=", ['%'] = "%:%: %: %= %>",
	[':'] = ":: :>", ['#'] = "##", ['*'] = "*=", ['/'] = "/=", ['='] = "==", ['!'] = "!=",
	['^'] = "^=", ['.'] = "... .*",
};

/*
 * Length of the longest punctuator that the characters c[0..4) start
 * with, by maximal munch; as C++11 has it, "<::" not followed by ':' or
 * '>' is '<' and "::".
 */
LEX_INLINE size_t punct_len(const unsigned char c[4])
{
	size_t l = lex_punct(puncts, c, 0, 4);

	return l == 2 && c[0] == '<' && c[1] == ':' && c[2] == ':' && c[3] != ':' && c[3] != '>' ?
		1 : l;
}

/* End of the longest punctuator at p (p < n), line splices inside it included. */
static size_t scan_punct_spliced(const unsigned char *s, size_t p, size_t n)
{
	size_t p1 = lex_skip_splices(s, p + 1, n), p2 = lex_skip_splices(s, p1 + 1, n),
		p3 = lex_skip_splices(s, p2 + 1, n);
	size_t end[4] = { p + 1, p1 + 1, p2 + 1, p3 + 1 };

	unsigned char c[4] = { s[p], p1 < n ? s[p1] : 0, p2 < n ? s[p2] : 0, p3 < n ? s[p3] : 0 };

	return end[punct_len(c) - 1];
}

/*
 * The same, without the splices when no backslash can make one; *plain:
 * the punctuator is known to hold no splice (so no line break).
 */
LEX_INLINE size_t scan_punct(const unsigned char *s, size_t p, size_t n, int *plain)
{
	*plain = 1;
	if (n - p >= 2 && !punct2[s[p + 1]])
		return p + 1;
	if (n - p >= 4 && s[p + 1] != '\\' && s[p + 2] != '\\' && s[p + 3] != '\\')
		return p + punct_len(s + p);
	*plain = 0;
	return scan_punct_spliced(s, p, n);
}

/* Is the character before p a '*' at or after b, line splices aside? */
static int star_before(const unsigned char *s, size_t b, size_t p)
{
	for (;;) {
		if (p == b)
			return 0;
		if (s[p - 1] == '*')
			return 1;
		if (s[p - 1] != '\n' && s[p - 1] != '\r')
			return 0;
		p--;	/* back over a splice's newline, blanks and backslash */
		if (p > b && (s[p - 1] == '\n' || s[p - 1] == '\r') && s[p - 1] != s[p])
			p--;
		while (p > b && lex_is_hspace(s[p - 1]))
			p--;
		if (p == b || s[p - 1] != '\\')
			return 0;
		p--;
	}
}

/* End of a block comment whose body starts at b: past its star-slash. */
static size_t scan_block_comment(const unsigned char *s, size_t b, size_t n)
{
	size_t q = b;

	while (q < n) {
		const unsigned char *sl = memchr(s + q, '/', n - q);

		if (!sl)
			break;
		q = (size_t)(sl - s);
		if (star_before(s, b, q))
			return q + 1;
		q++;
	}
	return n;
}

/*
 * End of a line comment from p: its line, without a CR before the LF,
 * continued past a line splice (backslash, maybe blanks, newline).
 */
static size_t scan_line_comment(const unsigned char *s, size_t p, size_t n)
{
	for (;;) {
		const unsigned char *nl = memchr(s + p, '\n', n - p);
		size_t e = nl ? (size_t)(nl - s) : n, end, k;

		if (e > p && s[e - 1] == '\r')
			e--;
		end = k = e;
		while (k > p && lex_is_hspace(s[k - 1]))
			k--;
		if (!nl || k == p || s[k - 1] != '\\')
			return end;
		p = (size_t)(nl - s) + 1;
	}
}

/* The comment the '/' at p opens, line splices after it allowed: its end, or 0. */
static size_t scan_comment(const unsigned char *s, size_t p, size_t n)
{
	size_t e = lex_skip_splices(s, p + 1, n);

	if (e < n && s[e] == '/')
		return scan_line_comment(s, e + 1, n);
	if (e < n && s[e] == '*')
		return scan_block_comment(s, e + 1, n);
	return 0;
}

/*
 * The rest of a token that starts with the identifier characters s[b..e)
 * and goes on with a line splice or a quote: more identifier characters,
 * or a literal with an encoding prefix (L"", u8'', R"()").
 */
static size_t scan_word_or_literal(const unsigned char *s, size_t b, size_t e, size_t n,
				   enum token_class *cls)
{
	size_t q;
	int raw;

	e = scan_ident(s, e, n);
	q = lex_skip_splices(s, e, n);	/* the quote of a prefixed literal */
	if (q < n && (s[q] == '"' || s[q] == '\'') && string_prefix(s, b, e, &raw)) {
		if (!raw) {
			e = s[q] == '"' ? scan_ud_suffix(s, lex_quoted(s, q, n, LEX_QUOTED_SPLICES), n)
					: lex_quoted(s, q, n, LEX_QUOTED_SPLICES);
			*cls = TOKEN_STRING;
		} else if (s[q] == '"') {
			size_t r = scan_raw_string(s, q, n);

			if (r) {
				e = scan_ud_suffix(s, r, n);
				*cls = TOKEN_STRING;
			}
		}
	}
	return e;
}

LEX_TOKEN_FN c_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, b, e;
	enum token_class cls;
	int plain = 0;	/* no line break in the token: LEX_TOKEN_PLAIN */

again:	/* past whitespace and line splices (case C_BACKSLASH) */
	if (p < n && cclass[s[p]] == C_SPACE)
		p = lex_span(s, p + 1, n, cclass, C_SPACE, C_SPACE);
	if (p >= n)
		return lex_end(ls);
	b = p;
	switch (cclass[s[p]]) {
	case C_IDENT:
		e = lex_span_idents(s, p + 1, n, 1, cclass, C_IDENT, C_DIGIT);
		cls = TOKEN_WORD;
		if (e < n && (unsigned)(cclass[s[e]] - C_DQUOTE) <= C_BACKSLASH - C_DQUOTE)
			e = scan_word_or_literal(s, b, e, n, &cls);
		else
			plain = 1;
		break;
	case C_DIGIT:
		/* most numbers end at a byte that cannot go on one ("0;", "16)") */
		e = lex_span(s, p + 1, n, numclass, NUM_PLAIN, NUM_PLAIN);
		if (e < n && numclass[s[e]] != NUM_END)
			e = scan_number(s, p, n);
		else
			plain = 1;
		cls = TOKEN_NUMBER;
		break;
	case C_DOT:
		e = lex_skip_splices(s, p + 1, n);
		if (e >= n || cclass[s[e]] != C_DIGIT)
			goto punct;
		e = scan_number(s, p, n);
		cls = TOKEN_NUMBER;
		break;
	case C_DQUOTE:
	case C_SQUOTE:
		e = lex_quoted(s, p, n, LEX_QUOTED_SPLICES);
		if (s[p] == '"')
			e = scan_ud_suffix(s, e, n);
		cls = TOKEN_STRING;
		break;
	case C_SLASH:
		if ((e = scan_comment(s, p, n))) {
			cls = TOKEN_COMMENT;
			break;
		}
		/* fall through */
	case C_PUNCT:
	punct:
		e = scan_punct(s, p, n, &plain);
		cls = TOKEN_PUNCT;
		break;
	case C_PUNCT1:
		e = p + 1;
		cls = TOKEN_PUNCT;
		plain = 1;
		break;
	case C_BACKSLASH:
		if ((e = lex_splice_len(s, p, n))) {
			p += e;
			goto again;
		}
		e = p + 1;	/* a backslash by itself */
		cls = TOKEN_OTHER;
		plain = 1;
		break;
	default: /* C_OTHER */
		e = p + 1;
		cls = TOKEN_OTHER;
		plain = 1;
		break;
	}
	lex_emit(ls, tok, b, e, cls);
	return plain ? LEX_TOKEN_PLAIN : 1;
}

LEX_DEFINE(lexer_c, "c", c_token);
