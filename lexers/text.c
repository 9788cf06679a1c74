/*
 * Prose: plain text, Markdown, reStructuredText, AsciiDoc, BibTeX, commit
 * messages, and (with two additions) TeX and LaTeX.
 *
 * A word is a run of [A-Za-z0-9_] and bytes >= 0x80, so UTF-8 letters stay
 * whole.  Every other byte that is not whitespace is a punctuation token
 * of its own: "don't" is "don", "'", "t" and "--" is two tokens.  Splitting
 * at apostrophes keeps the rule one line long and never depends on what
 * comes next (an apostrophe is also a quote, and a blame of "don't" still
 * lands on the word "don").
 *
 * TeX adds two constructs:
 *   - a control sequence: a backslash and a run of letters (A-Za-z, '@' as
 *     in packages and after \makeatletter, and bytes >= 0x80 for XeTeX and
 *     LuaTeX names), or a backslash and one other byte: "\section", "\%",
 *     "\\".  A backslash before whitespace (TeX's control space "\ ") or at
 *     the end of the file is a token by itself, so a CRLF file gives the
 *     same view as an LF one.
 *   - a comment: "%" to the end of its line (an escaped "\%" is a control
 *     sequence, so it never starts one).
 */
#include "lexers.h"

static inline int is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static inline int is_tex_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '@' || c >= 0x80;
}

static int lex_prose(struct lexer_state *ls, struct token *tok, int tex)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e;
	enum token_class cls;

	while (p < n && lex_is_space(s[p]))
		p++;
	if (p >= n) {
		ls->pos = n;
		return 0;
	}
	e = p + 1;
	if (is_word(s[p])) {
		while (e < n && is_word(s[e]))
			e++;
		cls = TOKEN_WORD;
	} else if (tex && s[p] == '\\') {
		if (e < n && is_tex_letter(s[e])) {
			while (e < n && is_tex_letter(s[e]))
				e++;
		} else if (e < n && !lex_is_space(s[e])) {
			e++;
		}
		cls = TOKEN_WORD;
	} else if (tex && s[p] == '%') {
		e = lex_line_comment(s, p, n, 0);
		cls = TOKEN_COMMENT;
	} else {
		cls = s[p] < 0x20 || s[p] == 0x7f ? TOKEN_OTHER : TOKEN_PUNCT;
	}
	ls->pos = e;
	tok->start = p;
	tok->len = e - p;
	tok->cls = cls;
	return 1;
}

LEX_TOKEN_FN text_token(struct lexer_state *ls, struct token *tok)
{
	return lex_prose(ls, tok, 0);
}

LEX_TOKEN_FN tex_token(struct lexer_state *ls, struct token *tok)
{
	return lex_prose(ls, tok, 1);
}

LEX_DEFINE(lexer_text, "text", text_token);
LEX_DEFINE(lexer_tex, "tex", tex_token);
