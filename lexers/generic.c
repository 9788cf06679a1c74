/*
 * The generic lexer and the syntaxes that configure it (see generic.h for
 * the rules).  A syntax is const and written out whole: its byte classes
 * (LEX_TABLE of GENERIC_BYTES) and its operators by first byte, longest
 * first, as lex_punct looks for them.
 */
#include "common.h"
#include "lexers.h"
#include "generic.h"

static const struct generic_syntax syntax_plain = {
	.name = "plain",
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
};

/*
 * A long bracket opener "[", "=" * level, "[" at p: returns level + 1, or
 * 0 when there is none.
 */
static size_t long_open(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1;

	if (p >= n || s[p] != '[')
		return 0;
	while (q < n && s[q] == '=')
		q++;
	return q < n && s[q] == '[' ? q - p : 0;
}

/* The end of the long bracket opened at p with long_open()'s lv: past "]=*]", or n. */
static size_t long_close(const unsigned char *s, size_t p, size_t n, size_t lv)
{
	size_t q = p + lv + 1, level = lv - 1;

	while (q < n) {
		const unsigned char *c = memchr(s + q, ']', n - q);
		size_t k = 0;

		if (!c)
			break;
		q = (size_t)(c - s) + 1;
		while (k < level && q + k < n && s[q + k] == '=')
			k++;
		if (k == level && q + k < n && s[q + k] == ']')
			return q + k + 1;
	}
	return n;
}

/* Only blanks between the start of p's line (or a GB_SEP byte) and p? */
static int at_line_start(const struct generic_syntax *syn, const unsigned char *s, size_t p)
{
	while (p > 0 && s[p - 1] != '\n' && lex_is_space(s[p - 1]))
		p--;
	return p == 0 || s[p - 1] == '\n' || (syn->bytes[s[p - 1]] & GB_SEP);
}

static size_t nested_comment(const unsigned char *s, size_t p, size_t n,
			     const char *open, size_t ol, const char *close, size_t cl)
{
	size_t depth = 1, q = p + ol;

	while (q < n) {
		if (n - q >= cl && !memcmp(s + q, close, cl)) {
			q += cl;
			if (!--depth)
				return q;
		} else if (n - q >= ol && !memcmp(s + q, open, ol)) {
			q += ol;
			depth++;
		} else {
			q++;
		}
	}
	return n;
}

/* The end of the comment gc opens at p, or 0 when it does not open one there. */
static size_t match_comment(const struct generic_syntax *syn, const unsigned char *s,
			    size_t p, size_t n, const struct generic_comment *gc)
{
	size_t ol = strlen(gc->open), e;
	unsigned f = gc->flags;

	if (n - p < ol || memcmp(s + p, gc->open, ol))
		return 0;
	if ((syn->bytes[(unsigned char)gc->open[0]] & GB_WORD) && p > 0 && (syn->bytes[s[p - 1]] & GB_WORD))
		return 0;
	if ((syn->bytes[(unsigned char)gc->open[ol - 1]] & GB_WORD) && p + ol < n &&
	    (syn->bytes[s[p + ol]] & GB_WORD))
		return 0;
	if ((f & GC_FILE_START) && p > 0)
		return 0;
	if ((f & GC_COLUMN0) && p > 0 && s[p - 1] != '\n')
		return 0;
	if ((f & GC_LINE_START) && !at_line_start(syn, s, p))
		return 0;
	if ((f & GC_WORD_START) && p > 0 && !lex_is_space(s[p - 1]))
		return 0;
	if ((f & GC_BEFORE_SPACE) && p + ol < n && !lex_is_space(s[p + ol]))
		return 0;
	if (!gc->close) {
		size_t lv = f & GC_LONG_BRACKET ? long_open(s, p + ol, n) : 0;

		if (lv)
			return long_close(s, p + ol, n, lv);
		return lex_line_comment(s, p, n, !!(f & GC_SPLICE));
	}
	if (f & GC_NEST)
		return nested_comment(s, p, n, gc->open, ol, gc->close, strlen(gc->close));
	e = lex_block_comment_from(s, p, n, ol, gc->close, strlen(gc->close));
	if ((f & GC_CLOSE_LINE) && e < n)
		e = lex_line_comment(s, e, n, 0);
	return e;
}

/* The end of the string gs opens at p, or 0 when it does not open one there. */
static size_t match_string(const struct generic_syntax *syn, const struct lexer_state *ls,
			   size_t p, const struct generic_string *gs)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, ol = strlen(gs->open), cl, q;
	const char *close = gs->close ? gs->close : gs->open;
	unsigned f = gs->flags;

	if (n - p < ol || memcmp(s + p, gs->open, ol))
		return 0;
	if ((f & GS_IN_TAG) && !ls->u.generic_in_tag)
		return 0;
	if ((f & GS_NOT_IN_WORD) && p > 0 && (syn->bytes[s[p - 1]] & GB_WORD))
		return 0;
	cl = strlen(close);
	for (q = p + ol; q < n;) {
		unsigned char c = s[q];

		if (c == (unsigned char)close[0] && n - q >= cl && !memcmp(s + q, close, cl)) {
			if ((f & GS_DOUBLED) && n - q - cl >= cl && !memcmp(s + q + cl, close, cl)) {
				q += 2 * cl;
				continue;
			}
			return q + cl;
		}
		if (!(f & GS_MULTILINE) &&
		    (c == '\n' || (c == '\r' && q + 1 < n && s[q + 1] == '\n')))
			return q;
		if (c == '\\' && (f & GS_BACKSLASH) && q + 1 < n) {
			q += s[q + 1] == '\r' && q + 2 < n && s[q + 2] == '\n' ? 3 : 2;
			continue;
		}
		q++;
	}
	return n;
}

/*
 * The end of the regular expression whose '/' is at p, or 0 when this '/'
 * is division: after an operand, or with no closing '/' on its line.
 */
static size_t scan_regex(const struct lexer_state *ls, size_t p)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, q = p + 1;
	int in_class = 0;

	if (ls->prev == TOKEN_WORD || ls->prev == TOKEN_NUMBER || ls->prev == TOKEN_STRING)
		return 0;
	if (ls->prev == TOKEN_PUNCT && ls->prev_len &&
	    (s[ls->prev_start + ls->prev_len - 1] == ')' || s[ls->prev_start + ls->prev_len - 1] == ']'))
		return 0;
	while (q < n) {
		unsigned char c = s[q];

		if (c == '\n' || (c == '\r' && q + 1 < n && s[q + 1] == '\n'))
			return 0;
		if (c == '\\' && q + 1 < n && s[q + 1] != '\n' && s[q + 1] != '\r') {
			q += 2;
			continue;
		}
		if (c == '[' && !in_class) {
			in_class = 1;
			if (q + 1 < n && s[q + 1] == '^')
				q++;
			if (q + 1 < n && s[q + 1] == ']')
				q++;
		} else if (c == ']') {
			in_class = 0;
		} else if (c == '/' && !in_class) {
			return q + 1;
		}
		q++;
	}
	return 0;
}

/* A word or number from p, whose byte is a word byte. */
static size_t scan_word(const struct generic_syntax *syn, const unsigned char *s,
			size_t p, size_t n, int number)
{
	size_t e = p + 1;

	while (e < n) {
		unsigned char c = s[e];

		if (number && (c == 'e' || c == 'E') && e + 2 < n &&
		    (s[e + 1] == '+' || s[e + 1] == '-') && lex_is_digit(s[e + 2]))
			e += 3;
		else if (syn->bytes[c] & GB_WORD)
			e++;
		else if (number && c == '.' && e + 1 < n && lex_is_digit(s[e + 1]))
			e += 2;
		else
			break;
	}
	if (e < n && (syn->bytes[s[e]] & GB_SUFFIX) && !(e + 1 < n && s[e + 1] == '='))
		e++;
	return e;
}

LEX_TOKEN_FN generic_token(struct lexer_state *ls, struct token *tok)
{
	const struct generic_syntax *syn = ls->syntax ? ls->syntax : &syntax_plain;
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e = 0, i, lv;
	enum token_class cls;
	unsigned char c;

	while (p < n && lex_is_space(s[p]))
		p++;
	if (p >= n)
		return lex_end(ls);
	c = s[p];
	for (i = 0; (syn->bytes[c] & GB_OPEN) && i < GENERIC_MAX_COMMENTS && syn->comments[i].open; i++)
		if ((unsigned char)syn->comments[i].open[0] == c &&
		    (e = match_comment(syn, s, p, n, &syn->comments[i]))) {
			cls = TOKEN_COMMENT;
			goto done;
		}
	if ((syn->flags & GEN_LONG_BRACKETS) && (lv = long_open(s, p, n))) {
		e = long_close(s, p, n, lv);
		cls = TOKEN_STRING;
		goto done;
	}
	for (i = 0; (syn->bytes[c] & GB_OPEN) && i < GENERIC_MAX_STRINGS && syn->strings[i].open; i++)
		if ((unsigned char)syn->strings[i].open[0] == c &&
		    (e = match_string(syn, ls, p, &syn->strings[i]))) {
			cls = TOKEN_STRING;
			goto done;
		}
	if (c == '/' && (syn->flags & GEN_SLASH_REGEX) && (e = scan_regex(ls, p))) {
		cls = TOKEN_STRING;
		goto done;
	}
	if (c == '\\' && (syn->flags & GEN_BACKSLASH_ESCAPE)) {
		e = p + 1;
		if (e < n && !lex_is_space(s[e]) && s[e] < 0x80)
			e++;
		cls = TOKEN_PUNCT;
	} else if (syn->bytes[c] & GB_WORD) {
		int number = !!(syn->bytes[c] & GB_DIGIT);

		e = scan_word(syn, s, p, n, number);
		cls = number ? TOKEN_NUMBER : TOKEN_WORD;
	} else {
		e = lex_punct(syn->operators, s, p, n);
		cls = e - p == 1 && (c < 0x20 || c == 0x7f) ? TOKEN_OTHER : TOKEN_PUNCT;
	}
	if ((syn->flags & GEN_MARKUP) && cls == TOKEN_PUNCT) {
		unsigned char d = e < n ? s[e] : 0;

		if (c == '<' && (e - p > 1 || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z')))
			ls->u.generic_in_tag = 1;
		else if (s[e - 1] == '>')
			ls->u.generic_in_tag = 0;
	}
done:
	return lex_emit(ls, tok, p, e, cls);
}

LEX_DEFINE(lexer_generic, "generic", generic_token);

/*
 * The syntaxes.  Each notes what it leaves out; the rule for all of them
 * is that a construct the lexer does not know still gives tokens, only
 * finer ones.
 */

/*
 * GNU make.  '#' anywhere (a backslash-newline continues the comment, "\#"
 * is an escaped '#'); "$(VAR)" is '$', '(', a word and ')'; '-' and '.'
 * belong to words ("-Wall", "foo.o", ".PHONY").  Quotes are the shell's in
 * recipes; an apostrophe inside a word is not one.
 */
#define MAKEFILE_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-', '.'), 0, 0, 0)
const struct generic_syntax syntax_makefile = {
	.name = "makefile",
	.comments = { { "#", NULL, GC_SPLICE } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_NOT_IN_WORD } },
	.operators = { [':'] = "::= := ::", ['?'] = "?=", ['+'] = "+=", ['!'] = "!=",
			['$'] = "$@ $< $^ $? $* $+ $% $$" },
	.bytes = { LEX_TABLE(MAKEFILE_BYTES) },
	.flags = GEN_BACKSLASH_ESCAPE,
};

/* Kconfig.  Help texts are prose, so an apostrophe inside a word is not a quote. */
const struct generic_syntax syntax_kconfig = {
	.name = "kconfig",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH },
		     { "'", NULL, GS_BACKSLASH | GS_NOT_IN_WORD } },
	.operators = { ['&'] = "&&", ['|'] = "||", ['!'] = "!=", ['<'] = "<=", ['>'] = ">=",
			['-'] = "---" },
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
};

/*
 * Tcl.  '#' is a comment only where a command starts: first on its line or
 * after ';' (so "-fg #ff0000" is not one).  A "#" right after '{' is not
 * taken as a comment either, since "{#a #b}" may be a list.  "$name" is a
 * word; "\x" is one token, so an escaped quote opens no string.
 */
#define TCL_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '$'), 0, LEX_IN(c, ';'), 0)
const struct generic_syntax syntax_tcl = {
	.name = "tcl",
	.comments = { { "#", NULL, GC_LINE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_MULTILINE } },
	.operators = { [':'] = "::", ['='] = "==", ['!'] = "!=", ['<'] = "<= <<",
			['>'] = ">= >>", ['&'] = "&&", ['|'] = "||", ['*'] = "**",
			['{'] = "{*}" },
	.bytes = { LEX_TABLE(TCL_BYTES) },
	.flags = GEN_BACKSLASH_ESCAPE,
};

/*
 * Lua: "--" comments, "--[[ ]]"/"--[==[ ]==]" long comments, "[[ ]]" long
 * strings, and a first line starting with '#' ("#!") as a comment.
 */
const struct generic_syntax syntax_lua = {
	.name = "lua",
	.comments = { { "--", NULL, GC_LONG_BRACKET }, { "#", NULL, GC_FILE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = { ['='] = "==", ['~'] = "~=", ['<'] = "<= <<", ['>'] = ">= >>",
			['.'] = "... ..", [':'] = "::", ['/'] = "//" },
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
	.flags = GEN_LONG_BRACKETS,
};

/*
 * SQL as the standard has it: quotes are escaped by doubling (a backslash
 * is an ordinary byte, as in PostgreSQL's standard strings) and literals
 * may span lines.  "..." and `...` are quoted identifiers, one token each.
 */
const struct generic_syntax syntax_sql = {
	.name = "sql",
	.comments = { { "--", NULL, 0 }, { "/*", "*/", 0 } },
	.strings = { { "'", NULL, GS_DOUBLED | GS_MULTILINE },
		     { "\"", NULL, GS_DOUBLED | GS_MULTILINE },
		     { "`", NULL, GS_DOUBLED | GS_MULTILINE } },
	.operators = { ['<'] = "<> <=", ['!'] = "!=", ['>'] = ">=", ['|'] = "||",
			[':'] = ":: :=", ['-'] = "->> ->", ['='] = "==" },
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
};

/*
 * YAML: '#' after whitespace; quotes only where a scalar can start (not
 * inside a plain word like "don't"); "it''s" in single quotes.
 */
#define YAML_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-'), 0, 0, 0)
const struct generic_syntax syntax_yaml = {
	.name = "yaml",
	.comments = { { "#", NULL, GC_WORD_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_NOT_IN_WORD },
		     { "'", NULL, GS_DOUBLED | GS_NOT_IN_WORD } },
	.operators = { ['.'] = "...", ['<'] = "<<" },
	.bytes = { LEX_TABLE(YAML_BYTES) },
};

/* TOML: basic and literal strings, and their triple-quoted multi-line forms. */
#define TOML_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-'), 0, 0, 0)
const struct generic_syntax syntax_toml = {
	.name = "toml",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"\"\"", NULL, GS_BACKSLASH | GS_MULTILINE },
		     { "'''", NULL, GS_MULTILINE },
		     { "\"", NULL, GS_BACKSLASH }, { "'", NULL, 0 } },
	.operators = { ['['] = "[[", [']'] = "]]" },
	.bytes = { LEX_TABLE(TOML_BYTES) },
};

/* INI and git-config style files: ';' and '#' comments first on their line. */
#define INI_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-'), 0, 0, 0)
const struct generic_syntax syntax_ini = {
	.name = "ini",
	.comments = { { ";", NULL, GC_LINE_START }, { "#", NULL, GC_LINE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_NOT_IN_WORD } },
	.bytes = { LEX_TABLE(INI_BYTES) },
};

/* JSON, and the "//" and block comments of JSONC (tsconfig.json and the like). */
const struct generic_syntax syntax_json = {
	.name = "json",
	.comments = { { "//", NULL, 0 }, { "/*", "*/", 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH } },
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
};

/*
 * CSS, SCSS and Less.  "//" comments (SCSS, Less) only after whitespace,
 * so that "url(http://...)" is not one.  '-' belongs to words
 * ("-webkit-box", "--main-color").
 */
#define CSS_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-'), 0, 0, 0)
const struct generic_syntax syntax_css = {
	.name = "css",
	.comments = { { "/*", "*/", 0 }, { "//", NULL, GC_WORD_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = { [':'] = "::", ['~'] = "~=", ['|'] = "|=", ['^'] = "^=", ['$'] = "$=",
			['*'] = "*=", ['='] = "==", ['!'] = "!=", ['<'] = "<=", ['>'] = ">=",
			['#'] = "#{" },
	.bytes = { LEX_TABLE(CSS_BYTES) },
};

/*
 * HTML and XML.  Quotes are strings inside tags only (the text's
 * apostrophes are not); CDATA sections are one string.  The content of
 * <script> and <style> is lexed as text.
 */
#define HTML_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '-'), 0, 0, 0)
const struct generic_syntax syntax_html = {
	.name = "html",
	.comments = { { "<!--", "-->", 0 } },
	.strings = { { "<![CDATA[", "]]>", GS_MULTILINE },
		     { "\"", NULL, GS_MULTILINE | GS_IN_TAG },
		     { "'", NULL, GS_MULTILINE | GS_IN_TAG } },
	.operators = { ['<'] = "</ <! <?", ['/'] = "/>", ['?'] = "?>" },
	.bytes = { LEX_TABLE(HTML_BYTES) },
	.flags = GEN_MARKUP,
};

/*
 * Assembly, a union of the dialects: block comments and "//" (GNU as,
 * AArch64), ';' (NASM, MASM; in GNU as for x86 it separates statements,
 * which is lost), and '#' first on its line or followed by a blank (GNU as
 * for x86), but not "#4", an ARM immediate.  ARM's '@' comments are not
 * known ("@function", "foo@PLT" are x86's).  '.' belongs to words
 * (".globl", ".L1").
 */
#define ASM_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '.'), 0, 0, 0)
const struct generic_syntax syntax_asm = {
	.name = "asm",
	.comments = { { "/*", "*/", 0 }, { "//", NULL, 0 }, { ";", NULL, 0 },
		      { "#", NULL, GC_LINE_START }, { "#", NULL, GC_BEFORE_SPACE } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = { ['<'] = "<< <=", ['>'] = ">> >=", ['='] = "==", ['!'] = "!=",
			['&'] = "&&", ['|'] = "||" },
	.bytes = { LEX_TABLE(ASM_BYTES) },
};

/*
 * awk.  "$1" and "$NF" are words; "/re/" where an operand may start is a
 * regular expression; outside strings "\x" is one token.
 */
#define AWK_BYTES(c) GENERIC_BYTES(c, LEX_IN(c, '$'), 0, 0, 0)
const struct generic_syntax syntax_awk = {
	.name = "awk",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH } },
	.operators = { ['='] = "==", ['!'] = "!= !~", ['<'] = "<=", ['>'] = ">= >>",
			['&'] = "&&", ['|'] = "|| |&", ['+'] = "++ +=", ['-'] = "-- -=",
			['*'] = "**= *= **", ['/'] = "/=", ['%'] = "%=", ['^'] = "^=" },
	.bytes = { LEX_TABLE(AWK_BYTES) },
	.flags = GEN_BACKSLASH_ESCAPE | GEN_SLASH_REGEX,
};

/*
 * m4 and autoconf: "dnl" to the end of the line, '#' comments (as m4 has
 * them: "${var#x}" in unquoted shell code is one too).  "$#", "$@", "$*"
 * are operators.  The shell's quotes are strings, the apostrophe not
 * inside a word ("can't").
 */
#define M4_BYTES(c) GENERIC_BYTES(c, 0, 0, 0, (c) == 'd')
const struct generic_syntax syntax_m4 = {
	.name = "m4",
	.comments = { { "dnl", NULL, 0 }, { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_NOT_IN_WORD } },
	.operators = { ['$'] = "$# $@ $*", ['&'] = "&&", ['|'] = "||",
			['='] = "==", ['!'] = "!=", ['<'] = "<=", ['>'] = ">=" },
	.bytes = { LEX_TABLE(M4_BYTES) },
	.flags = GEN_BACKSLASH_ESCAPE,
};

/* CMake: '#' and "#[[ ]]" comments, "[[ ]]" bracket arguments, quoted arguments across lines. */
const struct generic_syntax syntax_cmake = {
	.name = "cmake",
	.comments = { { "#", NULL, GC_LONG_BRACKET } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_MULTILINE } },
	.bytes = { LEX_TABLE(GENERIC_PLAIN_BYTES) },
	.flags = GEN_LONG_BRACKETS,
};
