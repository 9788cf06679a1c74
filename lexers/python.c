/*
 * The Python lexer, so that the view of a file agrees token for token with
 * Python's own tokenize module, comments and layout tokens aside.
 *
 * Indentation and newlines produce no tokens (tokstream's views are one
 * token a line anyway), and a backslash that continues a line is
 * whitespace.  A string literal with any prefix (r b u f rb br fr rf, in
 * any case) is one token; triple-quoted ones span lines and run to the end
 * of the file when unterminated.  An f-string is one token too, as Python
 * 3.11's tokenize gives it; its replacement fields are followed as Python
 * 3.12 (PEP 701) reads them, so a field may hold strings in the same quote
 * as the f-string, nested f-strings, comments and, inside brackets, line
 * breaks.  Numbers follow tokenize's regular expressions: the first
 * alternative that matches (imaginary, float, integer) wins, so "1if" is
 * "1" and "if", and "0777" is "0" and "777", as tokenize has it.
 */
#include "common.h"
#include "lexers.h"

enum {
	P_OTHER,  /* a byte that is a token by itself: $ ? ` and controls */
	P_SPACE,
	P_IDENT,  /* A-Z a-z _ and every byte >= 0x80 (UTF-8 is never split) */
	P_DIGIT,
	P_QUOTE,
	P_PUNCT,
	P_DOT,
	P_HASH,
	P_BACKSLASH
};

#define PY_CLASS(c) (LEX_IS_SPACE(c) ? P_SPACE : \
	LEX_IS_IDENT(c) ? P_IDENT : LEX_IS_DIGIT(c) ? P_DIGIT : \
	(c) == '"' || (c) == '\'' ? P_QUOTE : (c) == '.' ? P_DOT : (c) == '#' ? P_HASH : \
	(c) == '\\' ? P_BACKSLASH : \
	LEX_IN(c, '!', '%', '&', '(', ')', '*', '+', ',', '-', '/', ':', ';', '<', '=', '>', \
	       '@', '[', ']', '^', '{', '|', '}', '~') ? P_PUNCT : P_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(PY_CLASS) };

/*
 * The bytes that may be the second of a punctuator of several: a
 * punctuator followed by none of them is one byte, known without
 * a search of the table.
 */
#define PY_PUNCT2(c) LEX_IN(c, '*', '/', '<', '>', '=', '.')
static const unsigned char punct2[256] = { LEX_TABLE(PY_PUNCT2) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == P_IDENT || cclass[c] == P_DIGIT;
}

/* Is there a digit at p? */
static inline int digit_at(const unsigned char *s, size_t p, size_t n)
{
	return p < n && lex_is_digit(s[p]);
}

/* [0-9](?:_?[0-9])* from a digit at p. */
static size_t digitpart(const unsigned char *s, size_t p, size_t n)
{
	for (p++; p < n; p++) {
		if (s[p] == '_' && digit_at(s, p + 1, n))
			p++;
		else if (!digit_at(s, p, n))
			break;
	}
	return p;
}

/* [eE][-+]?digitpart at p, or p itself when there is none. */
static size_t exponent(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1;

	if (p >= n || (s[p] | 0x20) != 'e')
		return p;
	if (q < n && (s[q] == '+' || s[q] == '-'))
		q++;
	return digit_at(s, q, n) ? digitpart(s, q, n) : p;
}

/* A float's fraction, exponent and imaginary suffix, from the '.' at p. */
static size_t fraction(const unsigned char *s, size_t p, size_t n)
{
	p++;
	if (digit_at(s, p, n))
		p = digitpart(s, p, n);
	p = exponent(s, p, n);
	return p < n && (s[p] | 0x20) == 'j' ? p + 1 : p;
}

/* 0[xXoObB](?:_?D)+ from the 0 at p, or 0 when there are no digits. */
static size_t radix_number(const unsigned char *s, size_t p, size_t n)
{
	unsigned char r = p + 1 < n ? s[p + 1] | 0x20 : 0;
	size_t q = p + 2, e = 0;

	if (r != 'x' && r != 'o' && r != 'b')
		return 0;
	for (; q < n; q++) {
		size_t d = q + (s[q] == '_');
		unsigned char c = d < n ? s[d] : 0;

		if (r == 'x' ? !lex_is_hex(c) : r == 'o' ? c < '0' || c > '7' : c != '0' && c != '1')
			break;
		q = d;
		e = q + 1;
	}
	return e;
}

/*
 * A number at p (a digit, or a '.' before a digit), as tokenize's Number
 * expression matches it: Imagnumber, then Floatnumber, then Intnumber.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	size_t d, e;

	if (s[p] == '.')
		return fraction(s, p, n);
	d = digitpart(s, p, n);
	if (d < n && (s[d] | 0x20) == 'j')
		return d + 1;
	if (d < n && s[d] == '.')
		return fraction(s, d, n);
	if ((e = exponent(s, d, n)) != d)
		return e < n && (s[e] | 0x20) == 'j' ? e + 1 : e;
	if (s[p] != '0')
		return d;
	if ((e = radix_number(s, p, n)))
		return e;
	for (e = p + 1; e < n; e++) {     /* 0(?:_?0)* */
		if (s[e] == '_' && e + 1 < n && s[e + 1] == '0')
			e++;
		else if (s[e] != '0')
			break;
	}
	return e;
}

/* String prefix flags. */
#define PY_RAW 1u
#define PY_FMT 2u
#define PY_STR 4u   /* a valid prefix at all */

/* Is s[b..e) a string prefix (r u f b br rb fr rf, any case)?  Its flags, or 0. */
static unsigned string_prefix(const unsigned char *s, size_t b, size_t e)
{
	unsigned f = PY_STR, seen = 0;

	if (e - b > 2)
		return 0;
	for (; b < e; b++) {
		unsigned bit;

		switch (s[b] | 0x20) {
		case 'r': bit = 1; f |= PY_RAW; break;
		case 'f': bit = 2; f |= PY_FMT; break;
		case 'b': bit = 4; break;
		case 'u': bit = 8; break;
		default: return 0;
		}
		if (seen & bit)
			return 0;
		seen |= bit;
	}
	/* two letters: r with b or f */
	return seen == 3 || seen == 5 || (seen & (seen - 1)) == 0 ? f : 0;
}

/* End of the line at p for an unterminated literal: before a CR that precedes the LF. */
static inline size_t line_end(const unsigned char *s, size_t p)
{
	return p > 0 && s[p - 1] == '\r' ? p - 1 : p;
}

/*
 * An f-string is read with a small stack of frames: string frames (the
 * f-string itself and the strings nested in its replacement fields) and
 * field frames (a replacement field, in its expression or, after a ':' at
 * bracket depth 0, its format spec).  Deeper nesting than the stack holds
 * is read as plain text, which is still linear and still ends the token.
 *
 * Python 3.12 lets the expression of a field span lines even in a
 * single-quoted f-string.  Such a line break is taken provisionally: when
 * the f-string then never ends, it ends at the first of them instead, as
 * an unterminated string ends at the end of its line, and (so that the
 * lexer stays linear) later f-strings of the file no longer get that
 * benefit of the doubt.
 */
#define FSTACK 32

struct pyframe {
	unsigned char field;   /* a replacement field, else a string */
	unsigned char q, triple, flags;  /* string frames */
	unsigned char spec;    /* field frames: in the format spec */
	unsigned depth;        /* field frames: bracket depth */
	unsigned str;          /* field frames: index of their string frame */
};

#define NO_POS ((size_t)-1)

struct fscan {
	const unsigned char *s;
	size_t n;
	struct pyframe st[FSTACK];
	unsigned top;
	size_t end;       /* where the token ends, once known */
	size_t nl;        /* the first provisional line break */
	int multiline;    /* may fields of single-quoted f-strings span lines? */
};

/* Push a string frame for the quote at p; returns the position after its opening quotes. */
static size_t push_string(struct fscan *fs, size_t p, unsigned flags)
{
	struct pyframe *f = &fs->st[fs->top++];
	unsigned char q = fs->s[p];

	f->field = 0;
	f->q = q;
	f->flags = (unsigned char)flags;
	f->triple = fs->n - p >= 3 && fs->s[p + 1] == q && fs->s[p + 2] == q;
	return p + (f->triple ? 3 : 1);
}

/* A line break that ends a single-quoted literal (or its field) at p. */
static void unterminated(struct fscan *fs, size_t p)
{
	fs->end = line_end(fs->s, fs->nl != NO_POS ? fs->nl : p);
}

/*
 * One step at p in the literal text of the string frame sf (the string
 * itself, or a format spec inside it): returns the new position.
 */
static size_t fstring_text(struct fscan *fs, unsigned sf, size_t p)
{
	const unsigned char *s = fs->s;
	size_t n = fs->n;
	struct pyframe *str = &fs->st[sf];
	int in_field = fs->st[fs->top - 1].field;
	unsigned char c = s[p];

	if (c == '\\') {
		unsigned char d = p + 1 < n ? s[p + 1] : 0;

		if (d == '{' || d == '}')
			return p + 1;  /* the brace is still a brace */
		if (d == 'N' && !(str->flags & PY_RAW) && p + 2 < n && s[p + 2] == '{') {
			/* \N{NAME}: not a replacement field */
			for (p += 3; p < n && s[p] != '}' && s[p] != str->q && s[p] != '\n'; p++)
				;
			return p < n && s[p] == '}' ? p + 1 : p;
		}
		if (d == '\r' && p + 2 < n && s[p + 2] == '\n')
			return p + 3;
		return p + 2 <= n ? p + 2 : n;
	}
	if (c == str->q && (!str->triple || (n - p >= 3 && s[p + 1] == c && s[p + 2] == c))) {
		p += str->triple ? 3 : 1;
		fs->top = sf;     /* pops the string and any fields inside it */
		if (!sf)
			fs->end = p;
		return p;
	}
	if (c == '\n' && !str->triple) {
		unterminated(fs, p);
		return p;
	}
	if (!(str->flags & PY_FMT))
		return p + 1;
	if (c == '{') {
		if (!in_field && p + 1 < n && s[p + 1] == '{')
			return p + 2;
		if (fs->top < FSTACK) {
			struct pyframe *f = &fs->st[fs->top++];

			f->field = 1;
			f->spec = 0;
			f->depth = 0;
			f->str = sf;
		}
		return p + 1;
	}
	if (c == '}') {
		if (in_field)
			fs->top--;   /* the end of a field whose format spec this was */
		else if (p + 1 < n && s[p + 1] == '}')
			return p + 2;
	}
	return p + 1;
}

/* One step at p in the expression of the field frame on top of the stack. */
static size_t fstring_expr(struct fscan *fs, size_t p)
{
	const unsigned char *s = fs->s;
	size_t n = fs->n;
	struct pyframe *f = &fs->st[fs->top - 1];
	unsigned char c = s[p];

	switch (cclass[c]) {
	case P_QUOTE:
		return fs->top < FSTACK ? push_string(fs, p, PY_STR) : p + 1;
	case P_IDENT: {
		size_t e = p + 1;
		unsigned flags;

		while (e < n && is_ident(s[e]))
			e++;
		if (e < n && cclass[s[e]] == P_QUOTE && (flags = string_prefix(s, p, e)) &&
		    fs->top < FSTACK)
			return push_string(fs, e, flags);
		return e;
	}
	case P_HASH:
		return lex_line_comment(s, p, n, 0);
	default:
		break;
	}
	switch (c) {
	case '(': case '[': case '{':
		f->depth++;
		break;
	case ')': case ']':
		if (f->depth)
			f->depth--;
		break;
	case '}':
		if (f->depth)
			f->depth--;
		else
			fs->top--;
		break;
	case ':':
		if (!f->depth)
			f->spec = 1;
		break;
	case '\n':
		if (fs->st[f->str].triple)
			break;
		if (!fs->multiline)
			unterminated(fs, p);
		else if (fs->nl == NO_POS)
			fs->nl = p;
		break;
	}
	return p + 1;
}

/*
 * An f-string whose opening quote is at p; its flags are those of its
 * prefix.  *multiline: may its fields span lines (cleared when that
 * doubt was not borne out).
 */
static size_t scan_fstring(const unsigned char *s, size_t p, size_t n, unsigned flags,
			   int *multiline)
{
	struct fscan fs;

	fs.s = s;
	fs.n = n;
	fs.top = 0;
	fs.end = fs.nl = NO_POS;
	fs.multiline = *multiline;
	p = push_string(&fs, p, flags);
	while (p < n && fs.end == NO_POS) {
		struct pyframe *f = &fs.st[fs.top - 1];

		if (!f->field)
			p = fstring_text(&fs, fs.top - 1, p);
		else if (f->spec)
			p = fstring_text(&fs, f->str, p);
		else
			p = fstring_expr(&fs, p);
	}
	if (fs.end != NO_POS)
		return fs.end;
	if (fs.nl != NO_POS) {
		*multiline = 0;
		return line_end(s, fs.nl);
	}
	return n;
}

/* A string literal whose opening quote is at p. */
static size_t scan_string(const unsigned char *s, size_t p, size_t n, unsigned flags,
			  int *multiline)
{
	unsigned char q = s[p];

	if (flags & PY_FMT)
		return scan_fstring(s, p, n, flags, multiline);
	if (n - p >= 3 && s[p + 1] == q && s[p + 2] == q)
		return lex_triple_quoted(s, p, n, q);
	return lex_quoted(s, p, n, 0);
}

/*
 * scan_string for the token at p, its *multiline kept, negated, in
 * ls->u.python_fields_one_line (set once an f-string's line breaks proved
 * wrong): here, not in python_token, so that only string tokens pay for a
 * flag whose address is taken (in memory).
 */
LEX_INLINE size_t string_token(struct lexer_state *ls, size_t p, unsigned flags)
{
	int multiline = !ls->u.python_fields_one_line;
	size_t e = scan_string(ls->src, p, ls->len, flags, &multiline);

	ls->u.python_fields_one_line = !multiline;
	return e;
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['*'] = "**= ** *=", ['/'] = "//= // /=", ['<'] = "<<= << <=", ['>'] = ">>= >> >=",
	['-'] = "-> -=", [':'] = ":=", ['='] = "==", ['!'] = "!=", ['%'] = "%=", ['&'] = "&=",
	['|'] = "|=", ['^'] = "^=", ['@'] = "@=", ['+'] = "+=", ['.'] = "...",
};

/* End of the longest operator at p (p < n). */
LEX_INLINE size_t scan_punct(const unsigned char *s, size_t p, size_t n)
{
	return lex_punct_fast(punct2, puncts, s, p, n);
}

/* A word from the identifier byte at p, or a string with a prefix, or a byte order mark. */
LEX_INLINE size_t word_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e = lex_span_idents(s, p + 1, n, 0, cclass, P_IDENT, P_DIGIT);
	unsigned flags;

	*cls = TOKEN_WORD;
	if (lex_bom(s, p, n)) {
		*cls = TOKEN_OTHER;
		return 3;  /* a byte order mark is not part of the first word */
	}
	if (e < n && cclass[s[e]] == P_QUOTE && (flags = string_prefix(s, p, e))) {
		*cls = TOKEN_STRING;
		return string_token(ls, e, flags);
	}
	return e;
}

/* The token at p, the first byte of one, decided by its class. */
LEX_INLINE size_t scan_token(struct lexer_state *ls, const unsigned char *s, size_t p, size_t n,
			     enum token_class *cls)
{
	switch (cclass[s[p]]) {
	case P_QUOTE:
		*cls = TOKEN_STRING;
		return string_token(ls, p, PY_STR);
	case P_IDENT:
		return word_token(ls, p, cls);
	case P_DOT:
		if (!digit_at(s, p + 1, n))
			break;
		/* fall through */
	case P_DIGIT:
		*cls = TOKEN_NUMBER;
		return scan_number(s, p, n);
	case P_PUNCT:
		break;
	case P_HASH:
		*cls = TOKEN_COMMENT;
		return lex_line_comment(s, p, n, 0);
	default: /* P_OTHER, and a backslash that continues no line */
		*cls = TOKEN_OTHER;
		return p + 1;
	}
	*cls = TOKEN_PUNCT;
	return scan_punct(s, p, n);
}

LEX_TOKEN_FN python_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e;
	enum token_class cls;

	for (;;) {	/* past whitespace and line continuations */
		if (p < n && cclass[s[p]] == P_SPACE)
			p = lex_span(s, p + 1, n, cclass, P_SPACE, P_SPACE);
		if (p >= n)
			return lex_end(ls);
		if (cclass[s[p]] != P_BACKSLASH || !(e = lex_continuation_len(s, p, n)))
			break;
		p += e;
	}
	e = scan_token(ls, s, p, n, &cls);
	lex_emit(ls, tok, p, e, cls);
	return cls == TOKEN_STRING || cls == TOKEN_COMMENT ? 1 : LEX_TOKEN_PLAIN;
}

/* A backslash-newline is whitespace: only strings and comments hold line breaks. */
LEX_DEFINE_BREAKS(lexer_python, "python", python_token, LEX_BREAKS_STRINGS);
