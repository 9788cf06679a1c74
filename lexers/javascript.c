/*
 * The JavaScript and TypeScript lexer.  Its tokens are those of the
 * ECMAScript grammar as a parser's tokenizer (acorn) gives them, with two
 * differences: a template literal, substitutions and all, is one string
 * token, and a regular expression literal is one string token as well.
 *
 * Regular expression or division?  A `/` starts a regular expression
 * unless the previous significant token ends an operand: an identifier
 * (other than a keyword that takes an expression, such as `return` or
 * `typeof`, and unless it follows `.` as a property name), a number, a
 * string, `)` (but not the one closing `if (...)`, `while (...)`,
 * `for (...)` or `with (...)`), `]`, `}`, `++` or `--`.  The lexer
 * remembers what that token tells (in lexer_state.u.js) rather than using
 * lexer_state.prev, because the caller's prev counts comments, which do
 * not decide anything.  A `}` always ends an operand here: a regular
 * expression at the start of a statement after a block is lexed as
 * division (acorn tells the two kinds of braces apart; this lexer does not).  When
 * a regular expression does not close on its line, the `/` is division
 * after all, and no more regular expressions are tried on that line, so
 * that a wrong guess costs linear time.
 *
 * White space is ECMAScript's: besides the ASCII blanks, U+00A0, U+FEFF
 * (a byte order mark, at the start or anywhere), every other character of
 * category Zs, and the line terminators U+2028 and U+2029, which also end
 * a // comment and a regular expression.  A #! line at the start (after a
 * byte order mark, if any) is a comment.
 *
 * JSX text (between tags) is not lexed as text; it comes out as words and
 * punctuation, and an apostrophe in it opens a string to the end of the line.
 */
#include "common.h"
#include "lexers.h"

enum {
	J_OTHER,  /* a byte that is a token by itself */
	J_SPACE,
	J_IDENT,  /* A-Z a-z _ $ and every byte >= 0x80 (UTF-8 is never split) */
	J_DIGIT,
	J_QUOTE,  /* ' " */
	J_BACKQUOTE,
	J_SLASH,
	J_DOT,
	J_HASH,
	J_BACKSLASH,
	J_OPEN,   /* ( */
	J_CLOSE,  /* ) */
	J_CLOSER, /* ] } (after which `/` divides) */
	J_SINGLE, /* , : ; @ [ { ~: a punctuator of one byte whatever follows */
	J_PUNCT,  /* the first byte of a punctuator of one byte or more */
	J_ULEAD,  /* a byte that may start Unicode white space, else as J_IDENT */
	J_SPACED = 16  /* plus a class: a token of that class after a single space */
};

/* The Unicode white space of ECMAScript (WhiteSpace, LineTerminator). */
#define JS_SPACES (LEX_U_NBSP | LEX_U_ZS | LEX_U_BOM | LEX_U_LSPS)

#define JS_CLASS(c) (LEX_IS_SPACE(c) ? J_SPACE : LEX_IS_ULEAD(c) ? J_ULEAD : \
	LEX_IS_IDENT(c) || (c) == '$' ? J_IDENT : LEX_IS_DIGIT(c) ? J_DIGIT : \
	LEX_IN(c, '!', '%', '&', '*', '+', '-', '<', '=', '>', '?', '^', '|') ? J_PUNCT : \
	LEX_IN(c, ',', ':', ';', '@', '[', '{', '~') ? J_SINGLE : \
	(c) == ']' || (c) == '}' ? J_CLOSER : (c) == '(' ? J_OPEN : (c) == ')' ? J_CLOSE : \
	(c) == '"' || (c) == '\'' ? J_QUOTE : (c) == '`' ? J_BACKQUOTE : \
	(c) == '/' ? J_SLASH : (c) == '.' ? J_DOT : (c) == '#' ? J_HASH : \
	(c) == '\\' ? J_BACKSLASH : J_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(JS_CLASS) };

/*
 * The dispatch class of the byte after a single space: J_SPACED plus its
 * class for the classes common there, J_SPACE (a run of blanks, skipped
 * before the dispatch) for the others and the blanks.  Whether a token
 * follows a space varies from token to token: told by the same indirect
 * jump as its class, it costs no branch of its own, which would
 * mispredict.
 */
#define JS_AFTER_SPACE(c) (LEX_IN(JS_CLASS(c), J_IDENT, J_DIGIT, J_QUOTE, J_BACKQUOTE, \
				  J_OPEN, J_CLOSER, J_SINGLE, J_PUNCT) ? \
			   J_SPACED + JS_CLASS(c) : J_SPACE)
static const unsigned char after_space[256] = { LEX_TABLE(JS_AFTER_SPACE) };

/*
 * The bytes that may be the second of a punctuator of several: a
 * punctuator followed by none of them is one byte, known without
 * a search of the table.
 */
#define JS_PUNCT2(c) LEX_IN(c, '.', '?', '<', '>', '=', '+', '-', '*', '&', '|')
static const unsigned char punct2[256] = { LEX_TABLE(JS_PUNCT2) };

/* Is the byte at p (p < n) one of an identifier's, and no white space? */
static inline int is_ident_at(const unsigned char *s, size_t p, size_t n)
{
	return cclass[s[p]] == J_IDENT || cclass[s[p]] == J_DIGIT ||
		(cclass[s[p]] == J_ULEAD && !lex_uspace(s, p, n, JS_SPACES));
}

/* Is there a line terminator U+2028 or U+2029 at p (p < n)? */
static inline int is_uline(const unsigned char *s, size_t p, size_t n)
{
	return s[p] == 0xe2 && lex_uspace(s, p, n, LEX_U_LSPS);
}

/* The end of a line comment (or #! line) from p. */
static size_t line_comment(const unsigned char *s, size_t p, size_t n)
{
	return lex_uline_end(s, p, lex_line_comment(s, p, n, 0), JS_SPACES);
}

/*
 * What the previous significant (non-comment) token tells of what follows,
 * kept as one of these rather than as the token itself, so that `/` and
 * `(` look at a number instead of at the token's bytes.
 */
enum prev_kind {
	PREV_OPERATOR,  /* an operator, a bracket, the start: an expression may follow */
	PREV_OPERAND,   /* it ends an operand: a `/` after it divides */
	PREV_NAME,      /* an identifier not after `.`: some are keywords */
	PREV_DOT        /* `.` or `?.`: the identifier after it is a property name */
};

/*
 * The previous significant token, which decides what `/` is, and which
 * open parentheses are those of `if (...)`, `while (...)`, `for (...)` and
 * `with (...)`, after whose `)` a statement, so a regular expression, may
 * follow: one bit per open parenthesis, for the innermost PAREN_BITS of
 * them (deeper ones count as expression parentheses).
 */
#define PAREN_BITS (sizeof(size_t) * 8)

/*
 * It is kept in lexer_state.u.js as a struct lex_js_prev (name_start and
 * name_len are the identifier's when kind is PREV_NAME), all zero at the
 * start.
 */

static inline int name_is(const unsigned char *s, const struct lex_js_prev *pv, const char *w, size_t l)
{
	return pv->name_len == l && !memcmp(s + pv->name_start, w, l);
}

/* Keywords after which an expression, so a regular expression, may follow. */
static int keyword_before_expr(const unsigned char *s, const struct lex_js_prev *pv)
{
	switch (pv->name_len) {
	case 2:
		return name_is(s, pv, "in", 2) || name_is(s, pv, "of", 2) || name_is(s, pv, "do", 2);
	case 3:
		return name_is(s, pv, "new", 3);
	case 4:
		return name_is(s, pv, "void", 4) || name_is(s, pv, "case", 4) ||
			name_is(s, pv, "else", 4);
	case 5:
		return name_is(s, pv, "throw", 5) || name_is(s, pv, "yield", 5) ||
			name_is(s, pv, "await", 5);
	case 6:
		return name_is(s, pv, "return", 6) || name_is(s, pv, "typeof", 6) ||
			name_is(s, pv, "delete", 6);
	case 7:
		return name_is(s, pv, "extends", 7) || name_is(s, pv, "default", 7);
	case 10:
		return name_is(s, pv, "instanceof", 10);
	default:
		return 0;
	}
}

static int regex_allowed(const unsigned char *s, const struct lex_js_prev *pv)
{
	return pv->kind == PREV_NAME ? keyword_before_expr(s, pv) : pv->kind != PREV_OPERAND;
}

/* A word of up to eight bytes as lex_word_load reads it, the bytes past it zero. */
#define WORD_OF(w) lex_word_load((const unsigned char *)(w "\0\0\0\0\0\0\0\0"))

/*
 * The keywords whose parenthesis is followed by a statement.  Compared as
 * words, without a branch on the name's length: a branch for each keyword
 * would mispredict on every other call.
 */
static inline int stmt_keyword(const unsigned char *s, size_t n, const struct lex_js_prev *pv)
{
	uint64_t w;

	if (n - pv->name_start < 8)
		return pv->kind == PREV_NAME &&
			(name_is(s, pv, "if", 2) || name_is(s, pv, "for", 3) ||
			 name_is(s, pv, "with", 4) || name_is(s, pv, "while", 5));
	w = lex_word_load(s + pv->name_start) & lex_word_heads[pv->name_len < 8 ? pv->name_len : 8];
	return (int)(pv->kind == PREV_NAME) &
		((int)(w == WORD_OF("if")) | (int)(w == WORD_OF("for")) |
		 (int)(w == WORD_OF("with")) | (int)(w == WORD_OF("while")));
}

LEX_INLINE void open_paren(struct lex_js_prev *pv, const unsigned char *s, size_t n)
{
	size_t bit = (size_t)1 << (pv->parens % PAREN_BITS);

	pv->paren_bits = stmt_keyword(s, n, pv) ? pv->paren_bits | bit : pv->paren_bits & ~bit;
	pv->parens++;
	pv->kind = PREV_OPERATOR;
}

LEX_INLINE void close_paren(struct lex_js_prev *pv)
{
	int closes_stmt = 0;

	if (pv->parens) {
		pv->parens--;
		closes_stmt = (pv->paren_bits >> (pv->parens % PAREN_BITS)) & 1;
	}
	pv->kind = closes_stmt ? PREV_OPERATOR : PREV_OPERAND;
}

/* An identifier from b to e: a property name after `.`, else a name. */
LEX_INLINE void prev_name(struct lex_js_prev *pv, size_t b, size_t e)
{
	pv->kind = pv->kind == PREV_DOT ? PREV_OPERAND : PREV_NAME;
	pv->name_start = b;
	pv->name_len = e - b;
}

/*
 * A regular expression literal from the `/` at p: escapes, classes `[...]`
 * (in which `/` does not close it), then flags.  Returns 0 when it does not
 * close on its line; *fail is then set to the end of that line.
 */
static size_t scan_regex(const unsigned char *s, size_t p, size_t n, size_t *fail)
{
	int in_class = 0;

	for (p++; p < n; p++) {
		unsigned char c = s[p];

		if (c == '\n' || c == '\r' || is_uline(s, p, n))
			break;
		if (c == '\\') {
			if (p + 1 < n && (s[p + 1] == '\n' || s[p + 1] == '\r' || is_uline(s, p + 1, n)))
				break;
			p++;
		} else if (c == '[') {
			in_class = 1;
		} else if (c == ']') {
			in_class = 0;
		} else if (c == '/' && !in_class) {
			for (p++; p < n && is_ident_at(s, p, n); p++)
				;
			return p;
		}
	}
	*fail = p;
	return 0;
}

/*
 * A number from p (a digit, or a dot before one): 0x 0o 0b with their
 * digits, or a decimal with fraction and exponent; numeric separators and
 * the BigInt suffix n come with the identifier characters that follow, as
 * does anything else glued to it (an error in JavaScript).
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	if (s[p] == '0' && p + 1 < n && s[p + 1] && strchr("xXoObB", s[p + 1])) {
		p += 2;
	} else {
		p = lex_digits(s, p, n, 10);
		if (p < n && s[p] == '.')
			p = lex_digits(s, p + 1, n, 10);
		if (p < n && (s[p] == 'e' || s[p] == 'E')) {
			size_t q = p + 1;

			if (q < n && (s[q] == '+' || s[q] == '-'))
				q++;
			if (q < n && cclass[s[q]] == J_DIGIT)
				p = q;
		}
	}
	while (p < n && is_ident_at(s, p, n))
		p++;
	return p;
}

/*
 * The rest of an identifier from p, with \uXXXX and \u{...} escapes and
 * bytes >= 0x80, up to white space.
 */
static size_t scan_ident_rest(const unsigned char *s, size_t p, size_t n)
{
	while (p < n) {
		if (is_ident_at(s, p, n))
			p++;
		else if (s[p] == '\\' && p + 1 < n && s[p + 1] == 'u')
			p += 2;
		else
			break;
	}
	return p;
}

/*
 * The bytes of x that are not identifier bytes (A-Z a-z 0-9 _ $ and every
 * byte >= 0x80), as the high bit of each: lex_word_idents' test with
 * fewer steps between the load and the result, for the end of an
 * identifier is where the next token starts.  Letters are folded to lower
 * case; '_' folds to 0x7f as DEL does, which bit 5 tells apart.
 */
static inline uint64_t non_idents(uint64_t x)
{
	uint64_t t = x & LEX_WORD_LOWS, f = t | LEX_WORD_ONES * 0x20;
	uint64_t letter = (f + LEX_WORD_ONES * (0x80 - 'a')) & ~(f + LEX_WORD_ONES * (0x7f - 'z'));
	uint64_t digit = (t + LEX_WORD_ONES * (0x80 - '0')) & ~(t + LEX_WORD_ONES * (0x7f - '9'));
	uint64_t underscore = (f + LEX_WORD_ONES) & ~(t << 2);
	uint64_t dollar = ~((t ^ LEX_WORD_ONES * '$') + LEX_WORD_LOWS);

	return ~(letter | digit | underscore | dollar | x) & LEX_WORD_HIGHS;
}

/*
 * An identifier from p; the rare escapes out of line.  A byte >= 0x80
 * stops the scan a word at a time, and is taken unless it starts white
 * space.
 */
LEX_INLINE size_t scan_ident(const unsigned char *s, size_t p, size_t n)
{
	for (; n - p >= 8; p += 8) {
		uint64_t x = lex_word_load(s + p), m = non_idents(x) | (x & LEX_WORD_HIGHS);

		if (m) {
			p += lex_word_first(m);
			return s[p] == '\\' || s[p] >= 0x80 ? scan_ident_rest(s, p, n) : p;
		}
	}
	p = lex_span(s, p, n, cclass, J_IDENT, J_DIGIT);
	return p < n && (s[p] == '\\' || s[p] >= 0x80) ? scan_ident_rest(s, p, n) : p;
}

/* The punctuators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['.'] = "...", ['?'] = "?\?= ?\? ?.", ['<'] = "<<= << <=", ['>'] = ">>>= >>> >>= >> >=",
	['='] = "=== == =>", ['!'] = "!== !=", ['+'] = "++ +=", ['-'] = "-- -=",
	['*'] = "**= ** *=", ['&'] = "&&= && &=", ['|'] = "||= || |=", ['%'] = "%=", ['^'] = "^=",
	['/'] = "/=",
};

/* End of the longest punctuator at p (p < n): "?." is not one before a digit ("a?.5:b"). */
static inline size_t scan_punct(const unsigned char *s, size_t p, size_t n)
{
	size_t e;

	e = lex_punct_fast(punct2, puncts, s, p, n);
	return e - p == 2 && s[p] == '?' && s[p + 1] == '.' && e < n && cclass[s[e]] == J_DIGIT ?
		p + 1 : e;
}

static size_t scan_template(const unsigned char *s, size_t p, size_t n);

/*
 * Past the blanks at p: a line break and its indentation mostly, a word
 * at a time, its end found by one count of trailing zeros, not by a
 * branch per byte, the last of which mispredicts.
 */
static inline size_t skip_blanks(const unsigned char *s, size_t p, size_t n)
{
	for (; n - p >= 8; p += 8) {
		uint64_t m = ~lex_word_blanks(lex_word_load(s + p)) & LEX_WORD_HIGHS;

		if (m)
			return p + lex_word_first(m);
	}
	return lex_span(s, p, n, cclass, J_SPACE, J_SPACE);
}

/* Past the white space at p, Unicode white space among it. */
static size_t skip_spaces(const unsigned char *s, size_t p, size_t n)
{
	size_t l;

	while ((p = skip_blanks(s, p, n)) < n && (l = lex_uspace(s, p, n, JS_SPACES)))
		p += l;
	return p;
}

/*
 * Where js_view writes the tokens: each case of scan_token writes its own,
 * so that what the view must test of a token (its length, whether it may
 * hold a line break) is known there, mostly as a constant, and a token of
 * one byte is that byte and a LF.  NULL for js_many and the substitutions
 * of templates, which write nothing: scan_token is inlined with it.
 */
struct js_sink {
	struct lex_out o;
	struct lex_out *out;   /* the caller's, for its put */
	size_t left;           /* the tokens the call may still give, this one too */
};

/* A token of one byte, p: no line break, no comment. */
LEX_INLINE size_t emit_byte(struct js_sink *o, const unsigned char *s, size_t p)
{
	if (o) {
		o->o.d[0] = (char)s[p];
		o->o.d[1] = '\n';
		o->o.d += 2;
	}
	return p + 1;
}

/* The token from p to e of class cls; plain: it holds no line break and is no comment. */
LEX_INLINE size_t emit(struct js_sink *o, const unsigned char *s, size_t p, size_t e,
		       enum token_class cls, int plain)
{
	if (o) {
		struct token t = { p, e - p, cls };

		o->o.d = lex_out_token_plain(&o->o, o->out, s, &t, o->left - 1, plain);
	}
	return e;
}

/*
 * The token at *start, of dispatch class k (its class, or J_SPACED plus
 * it for the token after the space at *start, which moves to it): its
 * end, and its class in *cls.  The previous significant token pv decides
 * what a `/` is, and becomes this one unless it is a comment; *horizon is
 * where regular expressions may be tried again after one failed to close.
 * The token goes to o.
 */
LEX_INLINE size_t scan_token(const unsigned char *s, size_t *start, size_t n, unsigned k,
			     struct lex_js_prev *pv, size_t *horizon, enum token_class *cls,
			     struct js_sink *o)
{
	size_t p = *start + k / J_SPACED, e;

	/* the token after a single space starts one byte on: an add, not a branch */
	*start = p;
	switch (k % J_SPACED) {
	case J_ULEAD:   /* no white space: the caller skipped it */
	case J_IDENT:
		*cls = TOKEN_WORD;
		e = scan_ident(s, p + 1, n);
		prev_name(pv, p, e);
		return emit(o, s, p, e, TOKEN_WORD, 1);
	case J_SINGLE:
		*cls = TOKEN_PUNCT;
		pv->kind = PREV_OPERATOR;
		return emit_byte(o, s, p);
	case J_OPEN:
		*cls = TOKEN_PUNCT;
		open_paren(pv, s, n);
		return emit_byte(o, s, p);
	case J_CLOSE:
		*cls = TOKEN_PUNCT;
		close_paren(pv);
		return emit_byte(o, s, p);
	case J_CLOSER:
		*cls = TOKEN_PUNCT;
		pv->kind = PREV_OPERAND;
		return emit_byte(o, s, p);
	case J_PUNCT:
		*cls = TOKEN_PUNCT;
		e = scan_punct(s, p, n);
		/* ++ and -- end an operand; ?. is the only other of two bytes ending in . */
		if (e - p == 2 && (s[p] == '+' || s[p] == '-') && s[p + 1] == s[p])
			pv->kind = PREV_OPERAND;
		else
			pv->kind = e - p == 2 && s[p + 1] == '.' ? PREV_DOT : PREV_OPERATOR;
		return emit(o, s, p, e, TOKEN_PUNCT, 1);
	case J_DIGIT:
		*cls = TOKEN_NUMBER;
		pv->kind = PREV_OPERAND;
		return emit(o, s, p, scan_number(s, p, n), TOKEN_NUMBER, 1);
	case J_DOT:
		if (p + 1 < n && cclass[s[p + 1]] == J_DIGIT) {
			*cls = TOKEN_NUMBER;
			pv->kind = PREV_OPERAND;
			return emit(o, s, p, scan_number(s, p, n), TOKEN_NUMBER, 1);
		}
		*cls = TOKEN_PUNCT;
		e = scan_punct(s, p, n);
		pv->kind = e - p == 1 ? PREV_DOT : PREV_OPERATOR;
		return emit(o, s, p, e, TOKEN_PUNCT, 1);
	case J_QUOTE:
		*cls = TOKEN_STRING;
		pv->kind = PREV_OPERAND;
		return emit(o, s, p, lex_quoted(s, p, n, 0), TOKEN_STRING, 0);
	case J_BACKQUOTE:
		*cls = TOKEN_STRING;
		pv->kind = PREV_OPERAND;
		return emit(o, s, p, scan_template(s, p, n), TOKEN_STRING, 0);
	case J_SLASH:
		if (p + 1 < n && s[p + 1] == '/') {
			*cls = TOKEN_COMMENT;
			return emit(o, s, p, line_comment(s, p, n), TOKEN_COMMENT, 0);
		}
		if (p + 1 < n && s[p + 1] == '*') {
			*cls = TOKEN_COMMENT;
			return emit(o, s, p, lex_block_comment(s, p, n, "*/", 2), TOKEN_COMMENT, 0);
		}
		if (p >= *horizon && regex_allowed(s, pv) &&
		    (e = scan_regex(s, p, n, horizon))) {
			/* a regular expression holds no line break */
			*cls = TOKEN_STRING;
			pv->kind = PREV_OPERAND;
			return emit(o, s, p, e, TOKEN_STRING, 1);
		}
		*cls = TOKEN_PUNCT;
		pv->kind = PREV_OPERATOR;
		return emit(o, s, p, scan_punct(s, p, n), TOKEN_PUNCT, 1);
	case J_HASH:
		if (p == lex_bom(s, 0, n) && lex_starts(s, p, n, "#!")) {
			*cls = TOKEN_COMMENT;
			return emit(o, s, p, line_comment(s, p, n), TOKEN_COMMENT, 0);
		}
		if (p + 1 < n && ((cclass[s[p + 1]] != J_DIGIT && is_ident_at(s, p + 1, n)) ||
				  (s[p + 1] == '\\' && p + 2 < n && s[p + 2] == 'u'))) {
			*cls = TOKEN_WORD;  /* a private name */
			e = scan_ident(s, p + 1, n);
			prev_name(pv, p, e);
			return emit(o, s, p, e, TOKEN_WORD, 1);
		}
		*cls = TOKEN_OTHER;
		pv->kind = PREV_OPERATOR;
		return emit_byte(o, s, p);
	case J_BACKSLASH:
		if (p + 1 < n && s[p + 1] == 'u') {
			*cls = TOKEN_WORD;
			e = scan_ident(s, p, n);
			prev_name(pv, p, e);
			return emit(o, s, p, e, TOKEN_WORD, 1);
		}
		*cls = TOKEN_OTHER;
		pv->kind = PREV_OPERATOR;
		return emit_byte(o, s, p);
	default:
		*cls = TOKEN_OTHER;
		pv->kind = PREV_OPERATOR;
		return emit_byte(o, s, p);
	}
}

/* Past the `}` that balances an already open `{`, counting braces alone. */
static size_t skip_braces(const unsigned char *s, size_t p, size_t n)
{
	size_t depth = 1;

	for (; p < n; p++) {
		if (s[p] == '{')
			depth++;
		else if (s[p] == '}' && !--depth)
			return p + 1;
	}
	return n;
}

#define TEMPLATE_DEPTH 16

/*
 * A template literal from the backquote at p, in one pass: text, in which
 * `${` opens a substitution; a substitution is lexed as code (so strings,
 * comments, regular expressions and nested templates in it are skipped
 * whole) until the `}` that balances its `${`.  braces[] holds the open
 * `{` count of each open substitution; more than TEMPLATE_DEPTH nested
 * substitutions are skipped by counting braces alone.  Unterminated, the
 * template runs to the end of the input.
 */
static size_t scan_template(const unsigned char *s, size_t p, size_t n)
{
	size_t braces[TEMPLATE_DEPTH], horizon = 0, l;
	unsigned open = 0;      /* open substitutions */
	int in_text = 1;
	struct lex_js_prev pv;

	memset(&pv, 0, sizeof(pv));
	p++;
	while (p < n) {
		unsigned char c = s[p];

		if (in_text) {
			if (c == '\\') {
				p += p + 1 < n ? 2 : 1;
			} else if (c == '`') {
				p++;
				if (!open)
					return p;
				in_text = 0;  /* back in the enclosing substitution */
				pv.kind = PREV_OPERAND;
			} else if (c == '$' && p + 1 < n && s[p + 1] == '{') {
				p += 2;
				if (open == TEMPLATE_DEPTH) {
					p = skip_braces(s, p, n);
					continue;
				}
				braces[open++] = 0;
				in_text = 0;
				memset(&pv, 0, sizeof(pv));
			} else {
				p++;
			}
		} else if (lex_is_space(c)) {
			p++;
		} else if (cclass[c] == J_ULEAD && (l = lex_uspace(s, p, n, JS_SPACES))) {
			p += l;
		} else if (c == '`') {
			p++;
			in_text = 1;
		} else if (c == '}' && !braces[open - 1]) {
			p++;
			open--;
			in_text = 1;
		} else {
			enum token_class cls;
			size_t e = scan_token(s, &p, n, cclass[c], &pv, &horizon, &cls, NULL);

			if (c == '{')
				braces[open - 1]++;
			else if (c == '}')
				braces[open - 1]--;
			p = e;
		}
	}
	return n;
}

/*
 * The token at *pos, which it moves past it, with the previous significant
 * token in *pv and the regular expression horizon in *horizon: the caller
 * keeps them in locals, so that they stay in registers from one token to
 * the next, and in lexer_state.u.js between calls.  It goes to o, if not
 * NULL.
 */
LEX_INLINE int js_token(const unsigned char *s, size_t n, size_t *pos, struct lex_js_prev *pv,
			size_t *horizon, struct token *tok, struct js_sink *o)
{
	size_t p = *pos, e;
	enum token_class cls;
	unsigned k = J_SPACE;

	if (n - p >= 2)
		k = s[p] == ' ' ? after_space[s[p + 1]] : cclass[s[p]];
	if (k == J_SPACE) {
		p = skip_blanks(s, p, n);
		if (p >= n) {
			*pos = n;
			return 0;
		}
		k = cclass[s[p]];
	}
	if (k == J_ULEAD && lex_uspace(s, p, n, JS_SPACES)) {
		p = skip_spaces(s, p, n);
		if (p >= n) {
			*pos = n;
			return 0;
		}
		k = cclass[s[p]];
	}
	e = scan_token(s, &p, n, k, pv, horizon, &cls, o);
	*pos = e;
	tok->start = p;
	tok->len = e - p;
	tok->cls = cls;
	return 1;
}

static size_t js_many(struct lexer_state *ls, struct token *tok, size_t max)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, horizon = ls->u.js.regex_horizon, i;
	struct lex_js_prev pv = ls->u.js.prev;

	for (i = 0; i < max && js_token(s, n, &p, &pv, &horizon, tok + i, NULL); i++)
		;
	if (i)
		lex_set_prev(ls, tok + i - 1);
	ls->u.js.prev = pv;
	ls->u.js.regex_horizon = horizon;
	ls->pos = p;
	return i;
}

/*
 * js_many, writing the view as LEX_DEFINE's view does, each token by the
 * case of scan_token that lexed it (struct js_sink).
 */
static size_t js_view(struct lexer_state *ls, struct lex_out *out, size_t max)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, horizon = ls->u.js.regex_horizon;
	struct js_sink o;
	struct lex_js_prev pv = ls->u.js.prev;
	struct token t = { 0, 0, TOKEN_OTHER };  /* the last token given, if any */

	o.o = *out;
	o.o.breaks = LEX_BREAKS_STRINGS;
	o.out = out;
	for (o.left = max; o.left && js_token(s, n, &p, &pv, &horizon, &t, &o); o.left--)
		;
	if (o.left < max)
		lex_set_prev(ls, &t);
	ls->u.js.prev = pv;
	ls->u.js.regex_horizon = horizon;
	ls->pos = p;
	out->d = o.o.d;
	return max - o.left;
}

static int js_next(struct lexer_state *ls, struct token *tok)
{
	return js_many(ls, tok, 1) != 0;
}

/* Regular expressions and templates are strings: only they and comments hold line breaks. */
const struct lexer lexer_javascript = {
	"javascript", js_next, js_many, js_view, LEX_BREAKS_STRINGS, JS_SPACES
};
