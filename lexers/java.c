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

/* '$' is an identifier byte; '#', '`', '\\' and the controls are tokens by themselves. */
#define JAVA_CLASS(c) LEX_CFAMILY_CLASS(c, (c) == '$', 0, LEX_IS_C_PUNCT(c) || LEX_IN(c, '?', '@'))
static const unsigned char cclass[256] = { LEX_TABLE(JAVA_CLASS) };

/*
 * The bytes that may be the second of a punctuator of several: a
 * punctuator followed by none of them is one byte, known without
 * a search of the table.
 */
#define JAVA_PUNCT2(c) LEX_IN(c, '>', '=', '<', '-', '+', '&', '|', ':', '.')
static const unsigned char punct2[256] = { LEX_TABLE(JAVA_PUNCT2) };

/* An exponent marker (e or p) at p and its signed digits, then a float suffix. */
static size_t exponent_and_suffix(const unsigned char *s, size_t p, size_t n, unsigned char marker)
{
	if (p < n && (s[p] | 0x20) == marker) {
		p++;
		if (p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		p = lex_digits(s, p, n, 10);
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
		return exponent_and_suffix(s, lex_digits(s, p + 1, n, 10), n, 'e');
	if (s[p] == '0' && r == 'x') {
		p = lex_digits(s, p + 2, n, 16);
		if (p < n && s[p] == '.')
			return exponent_and_suffix(s, lex_digits(s, p + 1, n, 16), n, 'p');
		if (p < n && (s[p] | 0x20) == 'p')
			return exponent_and_suffix(s, p, n, 'p');
	} else if (s[p] == '0' && r == 'b') {
		p = lex_digits(s, p + 2, n, 2);
	} else {
		/* decimal, and octal (javac reads its digits as decimal ones) */
		p = lex_digits(s, p, n, 10);
		if (p < n && s[p] == '.')
			return exponent_and_suffix(s, lex_digits(s, p + 1, n, 10), n, 'e');
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

static const struct lex_cfamily java = {
	.cclass = cclass, .punct2 = punct2, .puncts = puncts, .number = scan_number,
	.flags = LEX_CF_DOLLAR | LEX_CF_DOT_NUMBERS | LEX_CF_TEXT_BLOCKS,
};

/* Unicode escapes are not translated: only literals and comments hold line breaks. */
LEX_DEFINE_CFAMILY(lexer_java, "java", java, LEX_BREAKS_STRINGS, 0);
