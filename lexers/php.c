/*
 * The PHP lexer.
 *
 * A PHP file is HTML (or any text) with PHP code between open and close
 * tags.  lexer_state.u.php_in_code says which of the two the lexer is in: it starts
 * in HTML; "<?php" (followed by whitespace), "<?=" and the short tag "<?"
 * (but not "<?xml") are tokens that enter PHP, "?>" is a token that leaves
 * it.  The inline markup is lexed as the text lexer (lexers/text.c) lexes
 * prose: a word is a run of [A-Za-z0-9_] and bytes >= 0x80, every other
 * byte is a token of its own.  Words rather than one token per line of
 * markup, so that a change to one attribute of a long HTML line is blamed
 * on that attribute, the same granularity the code between the tags gets.
 *
 * Inside PHP: $var and $$var are one word, names joined by backslashes
 * (Foo\Bar, \Foo, namespace\Foo) are one word as PHP 8 lexes them, casts
 * "(int)" are one token, "#[" opens an attribute; strings '...', "..."
 * and `...` are one token each ({$x["k"]} and ${x} inside a "..." string
 * are part of it, braces nested and quotes inside skipped whole), and so
 * are a heredoc or nowdoc from "<<<EOT" to its closing "EOT", which, as
 * PHP 7.3 allows, may be indented and followed by ";", "," or ")" (those
 * are tokens of their own).  Strings are multi-line by nature: unterminated,
 * they end at the end of the file.  '#' and '//' comments end at the end
 * of their line or before a "?>", as PHP ends them.
 */
#include "common.h"
#include "lexers.h"

#include <strings.h>

enum {
	P_OTHER,   /* a byte that is a token by itself */
	P_SPACE,
	P_IDENT,   /* A-Z a-z _ and every byte >= 0x80 */
	P_DIGIT,
	P_DOLLAR,
	P_SQUOTE,
	P_DQUOTE,  /* " and ` */
	P_HASH,
	P_SLASH,
	P_DOT,
	P_BACKSLASH,
	P_LPAREN,
	P_PUNCT
};

#define PHP_CLASS(c) (LEX_IS_SPACE(c) ? P_SPACE : \
	LEX_IS_IDENT(c) ? P_IDENT : LEX_IS_DIGIT(c) ? P_DIGIT : \
	(c) == '$' ? P_DOLLAR : (c) == '\'' ? P_SQUOTE : (c) == '"' || (c) == '`' ? P_DQUOTE : \
	(c) == '#' ? P_HASH : (c) == '/' ? P_SLASH : (c) == '.' ? P_DOT : \
	(c) == '\\' ? P_BACKSLASH : (c) == '(' ? P_LPAREN : \
	LEX_IN(c, '!', '%', '&', ')', '*', '+', ',', '-', ':', ';', '<', '=', '>', '?', \
	       '@', '[', ']', '^', '{', '|', '}', '~') ? P_PUNCT : P_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(PHP_CLASS) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == P_IDENT || cclass[c] == P_DIGIT;
}

/* Length of the open tag at p ("<?php", "<?=", "<?"), or 0. */
static size_t open_tag(const unsigned char *s, size_t p, size_t n)
{
	if (n - p < 2 || s[p] != '<' || s[p + 1] != '?')
		return 0;
	if (n - p >= 5 && !strncasecmp((const char *)s + p + 2, "php", 3) &&
	    (n - p == 5 || lex_is_space(s[p + 5])))
		return 5;
	if (n - p >= 3 && s[p + 2] == '=')
		return 3;
	if (n - p >= 5 && !strncasecmp((const char *)s + p + 2, "xml", 3))
		return 0;
	return 2;
}

/*
 * A '#' or '//' comment from p: to the end of its line, or before "?>" and
 * the blanks before it.
 */
static size_t scan_line_comment(const unsigned char *s, size_t p, size_t n)
{
	size_t e = lex_line_comment(s, p, n, 0), q;

	for (q = p; q + 1 < e; q++)
		if (s[q] == '?' && s[q + 1] == '>') {
			while (q > p + (s[p] == '#' ? 1 : 2) && (s[q - 1] == ' ' || s[q - 1] == '\t'))
				q--;
			return q;
		}
	return e;
}

/*
 * A "..." or `...` string from its quote at p: backslash escapes, and the
 * {$expr} and ${expr} interpolations are skipped with their nested braces
 * and quoted strings.  Unterminated, it ends at n.
 */
static size_t scan_interpolated(const unsigned char *s, size_t p, size_t n)
{
	unsigned char q = s[p++];

	while (p < n) {
		unsigned char c = s[p];

		if (c == q)
			return p + 1;
		if (c == '\\' && p + 1 < n) {
			p += 2;
		} else if (c == '{' && p + 1 < n && s[p + 1] == '$') {
			p = lex_nested(s, p, n, '{', '}', LEX_NEST_ESCAPES | LEX_NEST_QUOTES, NULL);
		} else if (c == '$' && p + 1 < n && s[p + 1] == '{') {
			p = lex_nested(s, p + 1, n, '{', '}', LEX_NEST_ESCAPES | LEX_NEST_QUOTES, NULL);
		} else {
			p++;
		}
	}
	return n;
}

/*
 * A heredoc or nowdoc from "<<<" at p: "<<<", blanks, the label (bare, in
 * double quotes or, for a nowdoc, in single quotes), the end of the line,
 * the body, and the label closing it.  0 when p does not start one.
 */
static size_t scan_heredoc(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 3, label, end;
	unsigned char quote = 0;

	while (q < n && (s[q] == ' ' || s[q] == '\t'))
		q++;
	if (q < n && (s[q] == '"' || s[q] == '\''))
		quote = s[q++];
	label = q;
	if (q >= n || cclass[s[q]] != P_IDENT)
		return 0;
	while (q < n && is_ident(s[q]))
		q++;
	end = q;
	if (quote) {
		if (q >= n || s[q] != quote)
			return 0;
		q++;
	}
	if (q < n && s[q] == '\r')
		q++;
	if (q >= n || s[q] != '\n')
		return 0;
	return lex_heredoc(s, q + 1, n, s + label, end - label,
			   LEX_HEREDOC_INDENT | LEX_HEREDOC_PREFIX);
}

static inline int is_kdigit(unsigned char c, int kind)
{
	if (kind == 16)
		return lex_is_hex(c);
	return c >= '0' && c < '0' + kind;
}

/* A run of digits of base kind from p, with single '_' between digits. */
static size_t scan_digits(const unsigned char *s, size_t p, size_t n, int kind)
{
	while (p < n && (is_kdigit(s[p], kind) ||
			 (s[p] == '_' && p + 1 < n && is_kdigit(s[p + 1], kind) &&
			  p > 0 && is_kdigit(s[p - 1], kind))))
		p++;
	return p;
}

/*
 * A number as PHP's scanner takes it: 0x, 0b, 0o prefixes; digits with
 * single underscores; "1.", ".5", "1.5"; an exponent.
 */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	size_t q;

	if (p + 2 < n && s[p] == '0') {
		unsigned char x = s[p + 1] | 0x20;
		int kind = x == 'x' ? 16 : x == 'b' ? 2 : x == 'o' ? 8 : 0;

		if (kind && (q = scan_digits(s, p + 2, n, kind)) > p + 2)
			return q;
	}
	if (lex_is_digit(s[p])) {
		p = scan_digits(s, p, n, 10);
		if (p < n && s[p] == '.')
			p = p + 1 < n && lex_is_digit(s[p + 1]) ? scan_digits(s, p + 1, n, 10) : p + 1;
	} else {
		p = scan_digits(s, p + 1, n, 10);  /* ".5" */
	}
	if (p + 1 < n && (s[p] == 'e' || s[p] == 'E')) {
		q = p + 1;
		if (q + 1 < n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (lex_is_digit(s[q]))
			p = scan_digits(s, q, n, 10);
	}
	return p;
}

/* A name from p: identifier parts joined by backslashes (p may be a backslash). */
static size_t scan_name(const unsigned char *s, size_t p, size_t n)
{
	for (;;) {
		while (p < n && is_ident(s[p]))
			p++;
		if (p + 1 < n && s[p] == '\\' && cclass[s[p + 1]] == P_IDENT)
			p++;
		else
			return p;
	}
}

/* A cast "(int)" at p: its length, or 0. */
static size_t scan_cast(const unsigned char *s, size_t p, size_t n)
{
	static const char *const types[] = {
		"int", "integer", "bool", "boolean", "float", "double", "real",
		"string", "binary", "array", "object", "unset", NULL
	};
	size_t q = p + 1, w, e;

	while (q < n && (s[q] == ' ' || s[q] == '\t'))
		q++;
	for (w = q; q < n && cclass[s[q]] == P_IDENT; q++)
		;
	for (e = q; e < n && (s[e] == ' ' || s[e] == '\t'); e++)
		;
	if (e >= n || s[e] != ')' || q == w)
		return 0;
	for (const char *const *t = types; *t; t++)
		if (strlen(*t) == q - w && !strncasecmp((const char *)s + w, *t, q - w))
			return e + 1 - p;
	return 0;
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['!'] = "!== !=", ['='] = "=== == =>", ['<'] = "<=> <<= <= << <>", ['>'] = ">>= >> >=",
	['?'] = "?\?= ?-> ?\?", ['*'] = "**= ** *=", ['.'] = "... .=", [':'] = "::",
	['-'] = "-> -- -=", ['+'] = "++ +=", ['&'] = "&& &=", ['|'] = "|| |=", ['^'] = "^=",
	['%'] = "%=", ['/'] = "/=",
};

/* The inline markup outside the tags: words and single bytes, as text.c lexes prose. */
static size_t scan_html(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if (is_ident(s[p])) {
		while (++p < n && is_ident(s[p]))
			;
		*cls = TOKEN_WORD;
		return p;
	}
	*cls = s[p] < 0x20 || s[p] == 0x7f ? TOKEN_OTHER : TOKEN_PUNCT;
	return p + 1;
}

/* A '...' or "..." or `...` string from its quote at p. */
static size_t scan_string(const unsigned char *s, size_t p, size_t n)
{
	if (s[p] == '\'')
		return lex_quoted(s, p, n, LEX_QUOTED_MULTILINE);
	return scan_interpolated(s, p, n);
}

/* From the identifier byte at p: a binary string b'...' b"...", or a name. */
LEX_INLINE size_t word_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if ((s[p] == 'b' || s[p] == 'B') && p + 1 < n && (s[p + 1] == '\'' || s[p + 1] == '"')) {
		*cls = TOKEN_STRING;
		return scan_string(s, p + 1, n);
	}
	*cls = TOKEN_WORD;
	return scan_name(s, p, n);
}

/* From the '$' or '\\' at p: a variable ($x, $$x) or a name (\Foo\Bar), or the byte alone. */
LEX_INLINE size_t sigil_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	size_t e = p + 1;

	if (s[p] == '$')
		while (e < n && s[e] == '$')
			e++;
	if (e >= n || cclass[s[e]] != P_IDENT) {
		*cls = TOKEN_PUNCT;
		return p + 1;
	}
	*cls = TOKEN_WORD;
	if (s[p] == '\\')
		return scan_name(s, e, n);
	while (e < n && is_ident(s[e]))
		e++;
	return e;
}

/* From the '#' at p: the attribute opener "#[", or a comment. */
static size_t hash_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if (p + 1 < n && s[p + 1] == '[') {
		*cls = TOKEN_PUNCT;
		return p + 2;
	}
	*cls = TOKEN_COMMENT;
	return scan_line_comment(s, p, n);
}

/* The comment the '/' at p opens (a line comment ends before "?>"), or 0. */
static size_t slash_comment(const unsigned char *s, size_t p, size_t n)
{
	if (p + 1 < n && s[p + 1] == '/')
		return scan_line_comment(s, p, n);
	return lex_slash_comment(s, p, n, 0);
}

/* From an operator byte at p: "?>", which leaves PHP, a heredoc, or an operator. */
LEX_INLINE size_t operator_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;

	*cls = TOKEN_PUNCT;
	if (s[p] == '?' && p + 1 < n && s[p + 1] == '>') {
		ls->u.php_in_code = 0;
		return p + 2;
	}
	if (s[p] == '<' && lex_starts(s, p, n, "<<<") && (e = scan_heredoc(s, p, n))) {
		*cls = TOKEN_STRING;
		return e;
	}
	return lex_punct(puncts, s, p, n);
}

/* The token at p between the tags, decided by the class of its first byte. */
LEX_INLINE size_t scan_code(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;

	switch (cclass[s[p]]) {
	case P_IDENT:
		return word_token(s, p, n, cls);
	case P_BACKSLASH:
	case P_DOLLAR:
		return sigil_token(s, p, n, cls);
	case P_DOT:
		if (p + 1 >= n || !lex_is_digit(s[p + 1]))
			break;
		/* fall through */
	case P_DIGIT:
		*cls = TOKEN_NUMBER;
		return scan_number(s, p, n);
	case P_SQUOTE:
	case P_DQUOTE:
		*cls = TOKEN_STRING;
		return scan_string(s, p, n);
	case P_HASH:
		return hash_token(s, p, n, cls);
	case P_SLASH:
		*cls = TOKEN_COMMENT;
		if ((e = slash_comment(s, p, n)))
			return e;
		break;
	case P_LPAREN:
		*cls = TOKEN_PUNCT;
		e = scan_cast(s, p, n);
		return p + (e ? e : 1);
	case P_PUNCT:
		return operator_token(ls, p, cls);
	default:
		*cls = TOKEN_OTHER;
		return p + 1;
	}
	*cls = TOKEN_PUNCT;
	return lex_punct(puncts, s, p, n);
}

/* The token at p outside the tags: an open tag, which enters PHP, or the markup's. */
static size_t scan_markup(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	size_t t = open_tag(ls->src, p, ls->len);

	if (!t)
		return scan_html(ls->src, p, ls->len, cls);
	*cls = TOKEN_PUNCT;
	ls->u.php_in_code = 1;
	return p + t;
}

LEX_TOKEN_FN php_token(struct lexer_state *ls, struct token *tok)
{
	size_t p = lex_span(ls->src, ls->pos, ls->len, cclass, P_SPACE, P_SPACE), e;
	enum token_class cls;

	if (p >= ls->len)
		return lex_end(ls);
	if (ls->u.php_in_code)
		e = scan_code(ls, p, &cls);
	else
		e = scan_markup(ls, p, &cls);
	return lex_emit(ls, tok, p, e, cls);
}

LEX_DEFINE(lexer_php, "php", php_token);
