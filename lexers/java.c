/*
 * The Java lexer, so that the view of a file agrees token for token with
 * javac's own scanner (com.sun.tools.javac.parser.JavaTokenizer),
 * comments aside.
 *
 * As javac has it: an annotation is '@' and then its name, two tokens;
 * ">>" and ">>>" are single tokens (the parser splits them in generics);
 * a text block """...""" is one token over its lines, running to the end
 * of the file when unterminated; numbers take underscores, the L f d
 * suffixes, hex floats (0x1.8p3d) and binary and octal forms.  Unicode
 * escapes (\uXXXX) are not translated: outside literals a backslash is a
 * token by itself, so an identifier spelt with escapes is split where
 * javac keeps it whole (they are rare outside string and char literals,
 * where they are part of the literal as written).
 */
#include "common.h"
#include "lexers.h"

enum {
	J_OTHER,  /* a byte that is a token by itself: # ` \ and controls */
	J_SPACE,
	J_IDENT,  /* A-Z a-z _ $ and every byte >= 0x80 (UTF-8 is never split) */
	J_DIGIT,
	J_DQUOTE,
	J_SQUOTE,
	J_PUNCT,
	J_SLASH,
	J_DOT
};

#define JAVA_CLASS(c) (LEX_IS_SPACE(c) ? J_SPACE : \
	LEX_IS_IDENT(c) || (c) == '$' ? J_IDENT : LEX_IS_DIGIT(c) ? J_DIGIT : \
	(c) == '"' ? J_DQUOTE : (c) == '\'' ? J_SQUOTE : (c) == '/' ? J_SLASH : (c) == '.' ? J_DOT : \
	LEX_IN(c, '!', '%', '&', '(', ')', '*', '+', ',', '-', ':', ';', '<', '=', '>', '?', \
	       '@', '[', ']', '^', '{', '|', '}', '~') ? J_PUNCT : J_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(JAVA_CLASS) };

/*
 * The bytes that may be the second of a punctuator of several: a
 * punctuator followed by none of them is one byte, known without
 * a search of the table.
 */
#define JAVA_PUNCT2(c) LEX_IN(c, '>', '=', '<', '-', '+', '&', '|', ':', '.')
static const unsigned char punct2[256] = { LEX_TABLE(JAVA_PUNCT2) };

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_hex(unsigned char c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Digits of the radix (16, 10 or 2) and underscores from p. */
static size_t digits(const unsigned char *s, size_t p, size_t n, int radix)
{
	while (p < n && (s[p] == '_' ||
			 (radix == 16 ? is_hex(s[p]) : radix == 2 ? s[p] == '0' || s[p] == '1' :
			  is_digit(s[p]))))
		p++;
	return p;
}

/* An exponent marker (e or p) at p and its signed digits, then a float suffix. */
static size_t exponent_and_suffix(const unsigned char *s, size_t p, size_t n, unsigned char marker)
{
	if (p < n && (s[p] | 0x20) == marker) {
		p++;
		if (p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		p = digits(s, p, n, 10);
	}
	if (p < n && ((s[p] | 0x20) == 'f' || (s[p] | 0x20) == 'd'))
		p++;
	return p;
}

/*
 * A number from the digit at p, or from a '.' before a digit, as javac's
 * scanNumber reads it.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	unsigned char r = p + 1 < n ? s[p + 1] | 0x20 : 0;

	if (s[p] == '.')
		return exponent_and_suffix(s, digits(s, p + 1, n, 10), n, 'e');
	if (s[p] == '0' && r == 'x') {
		p = digits(s, p + 2, n, 16);
		if (p < n && s[p] == '.')
			return exponent_and_suffix(s, digits(s, p + 1, n, 16), n, 'p');
		if (p < n && (s[p] | 0x20) == 'p')
			return exponent_and_suffix(s, p, n, 'p');
	} else if (s[p] == '0' && r == 'b') {
		p = digits(s, p + 2, n, 2);
	} else {
		/* decimal, and octal (javac reads its digits as decimal ones) */
		p = digits(s, p, n, 10);
		if (p < n && s[p] == '.')
			return exponent_and_suffix(s, digits(s, p + 1, n, 10), n, 'e');
		if (p < n && ((s[p] | 0x20) == 'e' || (s[p] | 0x20) == 'f' || (s[p] | 0x20) == 'd'))
			return exponent_and_suffix(s, p, n, 'e');
	}
	return p < n && (s[p] | 0x20) == 'l' ? p + 1 : p;
}

/* The operators and separators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['>'] = ">>>= >>> >>= >> >=", ['<'] = "<<= << <=", ['-'] = "-> -- -=", ['+'] = "++ +=",
	['&'] = "&& &=", ['|'] = "|| |=", [':'] = "::", ['='] = "==", ['!'] = "!=", ['*'] = "*=",
	['/'] = "/=", ['%'] = "%=", ['^'] = "^=", ['.'] = "...",
};

/* End of the longest operator or separator at p (p < n). */
static inline size_t scan_punct(const unsigned char *s, size_t p, size_t n)
{
	if (n - p >= 2 && !punct2[s[p + 1]])
		return p + 1;
	return lex_punct(puncts, s, p, n);
}

LEX_TOKEN_FN java_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, b, e;
	enum token_class cls;

	p = lex_span(s, p, n, cclass, J_SPACE, J_SPACE);
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	b = p;
	switch (cclass[s[p]]) {
	case J_IDENT:
		e = lex_span_idents(s, p + 1, n, 1, cclass, J_IDENT, J_DIGIT);
		cls = TOKEN_WORD;
		break;
	case J_DIGIT:
		e = scan_number(s, p, n);
		cls = TOKEN_NUMBER;
		break;
	case J_DOT:
		if (p + 1 < n && is_digit(s[p + 1])) {
			e = scan_number(s, p, n);
			cls = TOKEN_NUMBER;
		} else {
			e = scan_punct(s, p, n);
			cls = TOKEN_PUNCT;
		}
		break;
	case J_DQUOTE:
		if (lex_starts(s, p, n, "\"\"\""))
			e = lex_triple_quoted(s, p, n, '"');
		else
			e = lex_quoted(s, p, n, 0);
		cls = TOKEN_STRING;
		break;
	case J_SQUOTE:
		e = lex_quoted(s, p, n, 0);
		cls = TOKEN_STRING;
		break;
	case J_SLASH:
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
	case J_PUNCT:
		e = scan_punct(s, p, n);
		cls = TOKEN_PUNCT;
		break;
	default: /* J_OTHER */
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

/* Unicode escapes are not translated: only literals and comments hold line breaks. */
LEX_DEFINE_BREAKS(lexer_java, "java", java_token, LEX_BREAKS_STRINGS);
