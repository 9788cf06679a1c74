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
#include "common.h"
#include "lexers.h"

enum {
	X_PUNCT,     /* a punctuation token of its own */
	X_SPACE,
	X_WORD,      /* A-Z a-z 0-9 _ and every byte >= 0x80 */
	X_CONTROL,   /* the other bytes below 0x20, and DEL: a token of their own */
	X_BACKSLASH, /* TeX: a control sequence */
	X_PERCENT    /* TeX: a comment */
};

#define TEXT_CLASS(c) (LEX_IS_SPACE(c) ? X_SPACE : \
	LEX_IS_IDENT(c) || LEX_IS_DIGIT(c) ? X_WORD : (c) < 0x20 || (c) == 0x7f ? X_CONTROL : \
	(c) == '\\' ? X_BACKSLASH : (c) == '%' ? X_PERCENT : X_PUNCT)
static const unsigned char cclass[256] = { LEX_TABLE(TEXT_CLASS) };

static inline int is_tex_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '@' || c >= 0x80;
}

LEX_INLINE int lex_prose(struct lexer_state *ls, struct token *tok, int tex)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e;
	enum token_class cls = TOKEN_PUNCT;

	p = lex_span(s, p, n, cclass, X_SPACE, X_SPACE);
	if (p >= n)
		return lex_end(ls);
	e = p + 1;
	switch (cclass[s[p]]) {
	case X_WORD:
		e = lex_span_idents(s, e, n, 0, cclass, X_WORD, X_WORD);
		cls = TOKEN_WORD;
		break;
	case X_BACKSLASH:
		if (!tex)
			break;
		if (e < n && is_tex_letter(s[e])) {
			while (e < n && is_tex_letter(s[e]))
				e++;
		} else if (e < n && !lex_is_space(s[e])) {
			e++;
		}
		cls = TOKEN_WORD;
		break;
	case X_PERCENT:
		if (!tex)
			break;
		e = lex_line_comment(s, p, n, 0);
		cls = TOKEN_COMMENT;
		break;
	case X_CONTROL:
		cls = TOKEN_OTHER;
		break;
	}
	return lex_emit(ls, tok, p, e, cls);
}

LEX_TOKEN_FN text_token(struct lexer_state *ls, struct token *tok)
{
	return lex_prose(ls, tok, 0);
}

LEX_TOKEN_FN tex_token(struct lexer_state *ls, struct token *tok)
{
	return lex_prose(ls, tok, 1);
}

/* No token holds a line break: a comment ends before its line's. */
LEX_DEFINE_BREAKS(lexer_text, "text", text_token, 0);
LEX_DEFINE_BREAKS(lexer_tex, "tex", tex_token, 0);
