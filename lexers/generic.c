/*
 * The generic lexer and the syntaxes that configure it (see generic.h for
 * the rules).  Per syntax, the first use builds an index: a class for each
 * byte (word, digit, may open a comment or string, may end a word) and the
 * operators sorted by first byte and then longest first, so that finding
 * the longest operator looks only at those starting with the right byte.
 */
#include "common.h"
#include "lexers.h"
#include "generic.h"

enum {
	K_WORD = 1 << 0,
	K_DIGIT = 1 << 1,
	K_OPEN = 1 << 2,   /* the first byte of a comment or string opener */
	K_SUFFIX = 1 << 3,
	K_SEP = 1 << 4
};

struct op {
	unsigned short off;
	unsigned char len;
};

struct generic_index {
	const struct generic_syntax *syntax;
	unsigned char kind[256];
	unsigned char opfirst[257]; /* ops[opfirst[c] .. opfirst[c + 1]) start with c */
	struct op ops[GENERIC_MAX_OPERATORS];
};

/*
 * The indexes, one per syntax in use, found by pointer once per file (the
 * slot is kept in the lexer state).  Should more syntaxes than slots be in
 * use, the last slot is rebuilt whenever its syntax changes: slower, still
 * right.
 */
#define MAX_INDEXES 32
static struct generic_index indexes[MAX_INDEXES];
static size_t nr_indexes;

enum {
	MODE_READY = 1 << 0, /* aux[0] holds the index slot */
	MODE_TAG = 1 << 1    /* GEN_MARKUP: inside a tag */
};

static const struct generic_syntax syntax_plain = { .name = "plain" };

static void build_index(struct generic_index *ix, const struct generic_syntax *syn)
{
	const char *p;
	size_t i, nr = 0;
	int c;

	memset(ix, 0, sizeof(*ix));
	ix->syntax = syn;
	for (c = 0; c < 256; c++) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80)
			ix->kind[c] = K_WORD;
		else if (c >= '0' && c <= '9')
			ix->kind[c] = K_WORD | K_DIGIT;
	}
	for (p = syn->word_chars; p && *p; p++)
		ix->kind[(unsigned char)*p] |= K_WORD;
	for (p = syn->word_suffix; p && *p; p++)
		ix->kind[(unsigned char)*p] |= K_SUFFIX;
	for (p = syn->cmd_seps; p && *p; p++)
		ix->kind[(unsigned char)*p] |= K_SEP;
	for (i = 0; i < GENERIC_MAX_COMMENTS && syn->comments[i].open; i++)
		ix->kind[(unsigned char)syn->comments[i].open[0]] |= K_OPEN;
	for (i = 0; i < GENERIC_MAX_STRINGS && syn->strings[i].open; i++)
		ix->kind[(unsigned char)syn->strings[i].open[0]] |= K_OPEN;

	/* Operators: split, then insertion-sort by (first byte, length descending). */
	for (p = syn->operators; p && *p;) {
		size_t l = strcspn(p, " ");

		if (l >= 2 && l <= 15 && nr < GENERIC_MAX_OPERATORS &&
		    (size_t)(p - syn->operators) <= 0xffff) {
			struct op o = { (unsigned short)(p - syn->operators), (unsigned char)l };
			const unsigned char *os = (const unsigned char *)p;

			for (i = nr; i > 0; i--) {
				const struct op *q = &ix->ops[i - 1];
				unsigned char qc = (unsigned char)syn->operators[q->off];

				if (qc < os[0] || (qc == os[0] && q->len >= l))
					break;
				ix->ops[i] = *q;
			}
			ix->ops[i] = o;
			nr++;
		}
		p += l;
		p += strspn(p, " ");
	}
	for (c = 0, i = 0; c <= 256; c++) {
		while (i < nr && (unsigned char)syn->operators[ix->ops[i].off] < c)
			i++;
		ix->opfirst[c] = (unsigned char)i;
	}
}

static struct generic_index *index_for(struct lexer_state *ls, const struct generic_syntax *syn)
{
	struct generic_index *ix;

	if (!(ls->mode & MODE_READY)) {
		size_t i;

		for (i = 0; i < nr_indexes; i++)
			if (indexes[i].syntax == syn)
				break;
		if (i == nr_indexes) {
			if (nr_indexes < MAX_INDEXES)
				nr_indexes++;
			else
				i = MAX_INDEXES - 1;
			build_index(&indexes[i], syn);
		}
		ls->aux[0] = i;
		ls->mode |= MODE_READY;
	}
	ix = &indexes[ls->aux[0]];
	if (ix->syntax != syn)
		build_index(ix, syn);
	return ix;
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

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

/* Only blanks between the start of p's line (or a cmd_seps byte) and p? */
static int at_line_start(const struct generic_index *ix, const unsigned char *s, size_t p)
{
	while (p > 0 && s[p - 1] != '\n' && lex_is_space(s[p - 1]))
		p--;
	return p == 0 || s[p - 1] == '\n' || (ix->kind[s[p - 1]] & K_SEP);
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
static size_t match_comment(const struct generic_index *ix, const unsigned char *s,
			    size_t p, size_t n, const struct generic_comment *gc)
{
	size_t ol = strlen(gc->open), e;
	unsigned f = gc->flags;

	if (n - p < ol || memcmp(s + p, gc->open, ol))
		return 0;
	if ((ix->kind[(unsigned char)gc->open[0]] & K_WORD) && p > 0 && (ix->kind[s[p - 1]] & K_WORD))
		return 0;
	if ((ix->kind[(unsigned char)gc->open[ol - 1]] & K_WORD) && p + ol < n &&
	    (ix->kind[s[p + ol]] & K_WORD))
		return 0;
	if ((f & GC_FILE_START) && p > 0)
		return 0;
	if ((f & GC_COLUMN0) && p > 0 && s[p - 1] != '\n')
		return 0;
	if ((f & GC_LINE_START) && !at_line_start(ix, s, p))
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
static size_t match_string(const struct generic_index *ix, const struct lexer_state *ls,
			   size_t p, const struct generic_string *gs)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, ol = strlen(gs->open), cl, q;
	const char *close = gs->close ? gs->close : gs->open;
	unsigned f = gs->flags;

	if (n - p < ol || memcmp(s + p, gs->open, ol))
		return 0;
	if ((f & GS_IN_TAG) && !(ls->mode & MODE_TAG))
		return 0;
	if ((f & GS_NOT_IN_WORD) && p > 0 && (ix->kind[s[p - 1]] & K_WORD))
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
static size_t scan_word(const struct generic_index *ix, const unsigned char *s,
			size_t p, size_t n, int number)
{
	size_t e = p + 1;

	while (e < n) {
		unsigned char c = s[e];

		if (number && (c == 'e' || c == 'E') && e + 2 < n &&
		    (s[e + 1] == '+' || s[e + 1] == '-') && is_digit(s[e + 2]))
			e += 3;
		else if (ix->kind[c] & K_WORD)
			e++;
		else if (number && c == '.' && e + 1 < n && is_digit(s[e + 1]))
			e += 2;
		else
			break;
	}
	if (e < n && (ix->kind[s[e]] & K_SUFFIX) && !(e + 1 < n && s[e + 1] == '='))
		e++;
	return e;
}

static size_t scan_operator(const struct generic_index *ix, const struct generic_syntax *syn,
			    const unsigned char *s, size_t p, size_t n)
{
	size_t i, end = ix->opfirst[s[p] + 1];

	for (i = ix->opfirst[s[p]]; i < end; i++) {
		const struct op *o = &ix->ops[i];

		if (n - p >= o->len && !memcmp(s + p, syn->operators + o->off, o->len))
			return p + o->len;
	}
	return p + 1;
}

LEX_TOKEN_FN generic_token(struct lexer_state *ls, struct token *tok)
{
	const struct generic_syntax *syn = ls->syntax ? ls->syntax : &syntax_plain;
	const struct generic_index *ix = index_for(ls, syn);
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e = 0, i, lv;
	enum token_class cls;
	unsigned char c;

	while (p < n && lex_is_space(s[p]))
		p++;
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	c = s[p];
	if (ix->kind[c] & K_OPEN) {
		for (i = 0; i < GENERIC_MAX_COMMENTS && syn->comments[i].open; i++)
			if ((e = match_comment(ix, s, p, n, &syn->comments[i]))) {
				cls = TOKEN_COMMENT;
				goto done;
			}
	}
	if ((syn->flags & GEN_LONG_BRACKETS) && (lv = long_open(s, p, n))) {
		e = long_close(s, p, n, lv);
		cls = TOKEN_STRING;
		goto done;
	}
	if (ix->kind[c] & K_OPEN) {
		for (i = 0; i < GENERIC_MAX_STRINGS && syn->strings[i].open; i++)
			if ((e = match_string(ix, ls, p, &syn->strings[i]))) {
				cls = TOKEN_STRING;
				goto done;
			}
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
	} else if (ix->kind[c] & K_WORD) {
		int number = !!(ix->kind[c] & K_DIGIT);

		e = scan_word(ix, s, p, n, number);
		cls = number ? TOKEN_NUMBER : TOKEN_WORD;
	} else {
		e = scan_operator(ix, syn, s, p, n);
		cls = e - p == 1 && (c < 0x20 || c == 0x7f) ? TOKEN_OTHER : TOKEN_PUNCT;
	}
	if ((syn->flags & GEN_MARKUP) && cls == TOKEN_PUNCT) {
		unsigned char d = e < n ? s[e] : 0;

		if (c == '<' && (e - p > 1 || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z')))
			ls->mode |= MODE_TAG;
		else if (s[e - 1] == '>')
			ls->mode &= ~(unsigned)MODE_TAG;
	}
done:
	ls->pos = e;
	tok->start = p;
	tok->len = e - p;
	tok->cls = cls;
	return 1;
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
const struct generic_syntax syntax_makefile = {
	.name = "makefile",
	.comments = { { "#", NULL, GC_SPLICE } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_NOT_IN_WORD } },
	.operators = ":= ::= ?= += != :: $@ $< $^ $? $* $+ $% $$",
	.word_chars = "-.",
	.flags = GEN_BACKSLASH_ESCAPE,
};

/* Kconfig.  Help texts are prose, so an apostrophe inside a word is not a quote. */
const struct generic_syntax syntax_kconfig = {
	.name = "kconfig",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH },
		     { "'", NULL, GS_BACKSLASH | GS_NOT_IN_WORD } },
	.operators = "&& || != <= >= ---",
};

/*
 * Tcl.  '#' is a comment only where a command starts: first on its line or
 * after ';' (so "-fg #ff0000" is not one).  A "#" right after '{' is not
 * taken as a comment either, since "{#a #b}" may be a list.  "$name" is a
 * word; "\x" is one token, so an escaped quote opens no string.
 */
const struct generic_syntax syntax_tcl = {
	.name = "tcl",
	.comments = { { "#", NULL, GC_LINE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_MULTILINE } },
	.operators = ":: == != <= >= && || ** << >> {*}",
	.word_chars = "$",
	.cmd_seps = ";",
	.flags = GEN_BACKSLASH_ESCAPE,
};

/*
 * Ruby.  "=begin" at the start of a line up to the line of "=end" is one
 * comment.  "@ivar", "$global" and "empty?"/"save!" are words.  Strings end
 * at the end of their line when unterminated (heredocs and %w() are not
 * known, and a quote in them must not swallow the file); "#{...}" nested
 * in a string is part of it.  "/re/" where an operand may start is a
 * regular expression.
 */
const struct generic_syntax syntax_ruby = {
	.name = "ruby",
	.comments = { { "=begin", "\n=end", GC_COLUMN0 | GC_CLOSE_LINE }, { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH },
		     { "`", NULL, GS_BACKSLASH } },
	.operators = "**= ** === == != <=> <= >= &&= ||= && || <<= >>= << >> =~ !~ "
		"... .. :: -> => += -= *= /= %= |= &= ^= &.",
	.word_chars = "@$",
	.word_suffix = "?!",
	.flags = GEN_SLASH_REGEX,
};

/*
 * Lua: "--" comments, "--[[ ]]"/"--[==[ ]==]" long comments, "[[ ]]" long
 * strings, and a first line starting with '#' ("#!") as a comment.
 */
const struct generic_syntax syntax_lua = {
	.name = "lua",
	.comments = { { "--", NULL, GC_LONG_BRACKET }, { "#", NULL, GC_FILE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = "== ~= <= >= ... .. :: // << >>",
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
	.operators = "<> != <= >= || :: := ->> -> ==",
};

/*
 * YAML: '#' after whitespace; quotes only where a scalar can start (not
 * inside a plain word like "don't"); "it''s" in single quotes.
 */
const struct generic_syntax syntax_yaml = {
	.name = "yaml",
	.comments = { { "#", NULL, GC_WORD_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_NOT_IN_WORD },
		     { "'", NULL, GS_DOUBLED | GS_NOT_IN_WORD } },
	.operators = "... <<",
	.word_chars = "-",
};

/* TOML: basic and literal strings, and their triple-quoted multi-line forms. */
const struct generic_syntax syntax_toml = {
	.name = "toml",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"\"\"", NULL, GS_BACKSLASH | GS_MULTILINE },
		     { "'''", NULL, GS_MULTILINE },
		     { "\"", NULL, GS_BACKSLASH }, { "'", NULL, 0 } },
	.operators = "[[ ]]",
	.word_chars = "-",
};

/* INI and git-config style files: ';' and '#' comments first on their line. */
const struct generic_syntax syntax_ini = {
	.name = "ini",
	.comments = { { ";", NULL, GC_LINE_START }, { "#", NULL, GC_LINE_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_NOT_IN_WORD } },
	.word_chars = "-",
};

/* JSON, and the "//" and block comments of JSONC (tsconfig.json and the like). */
const struct generic_syntax syntax_json = {
	.name = "json",
	.comments = { { "//", NULL, 0 }, { "/*", "*/", 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH } },
};

/*
 * CSS, SCSS and Less.  "//" comments (SCSS, Less) only after whitespace,
 * so that "url(http://...)" is not one.  '-' belongs to words
 * ("-webkit-box", "--main-color").
 */
const struct generic_syntax syntax_css = {
	.name = "css",
	.comments = { { "/*", "*/", 0 }, { "//", NULL, GC_WORD_START } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = ":: ~= |= ^= $= *= == != <= >= #{",
	.word_chars = "-",
};

/*
 * HTML and XML.  Quotes are strings inside tags only (the text's
 * apostrophes are not); CDATA sections are one string.  The content of
 * <script> and <style> is lexed as text.
 */
const struct generic_syntax syntax_html = {
	.name = "html",
	.comments = { { "<!--", "-->", 0 } },
	.strings = { { "<![CDATA[", "]]>", GS_MULTILINE },
		     { "\"", NULL, GS_MULTILINE | GS_IN_TAG },
		     { "'", NULL, GS_MULTILINE | GS_IN_TAG } },
	.operators = "</ /> <! <? ?>",
	.word_chars = "-",
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
const struct generic_syntax syntax_asm = {
	.name = "asm",
	.comments = { { "/*", "*/", 0 }, { "//", NULL, 0 }, { ";", NULL, 0 },
		      { "#", NULL, GC_LINE_START }, { "#", NULL, GC_BEFORE_SPACE } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_BACKSLASH } },
	.operators = "<< >> == != <= >= && ||",
	.word_chars = ".",
};

/*
 * awk.  "$1" and "$NF" are words; "/re/" where an operand may start is a
 * regular expression; outside strings "\x" is one token.
 */
const struct generic_syntax syntax_awk = {
	.name = "awk",
	.comments = { { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH } },
	.operators = "== != <= >= && || ++ -- += -= *= /= %= ^= **= ** !~ >> |&",
	.word_chars = "$",
	.flags = GEN_BACKSLASH_ESCAPE | GEN_SLASH_REGEX,
};

/*
 * m4 and autoconf: "dnl" to the end of the line, '#' comments (as m4 has
 * them: "${var#x}" in unquoted shell code is one too).  "$#", "$@", "$*"
 * are operators.  The shell's quotes are strings, the apostrophe not
 * inside a word ("can't").
 */
const struct generic_syntax syntax_m4 = {
	.name = "m4",
	.comments = { { "dnl", NULL, 0 }, { "#", NULL, 0 } },
	.strings = { { "\"", NULL, GS_BACKSLASH }, { "'", NULL, GS_NOT_IN_WORD } },
	.operators = "$# $@ $* && || == != <= >=",
	.flags = GEN_BACKSLASH_ESCAPE,
};

/* CMake: '#' and "#[[ ]]" comments, "[[ ]]" bracket arguments, quoted arguments across lines. */
const struct generic_syntax syntax_cmake = {
	.name = "cmake",
	.comments = { { "#", NULL, GC_LONG_BRACKET } },
	.strings = { { "\"", NULL, GS_BACKSLASH | GS_MULTILINE } },
	.flags = GEN_LONG_BRACKETS,
};
