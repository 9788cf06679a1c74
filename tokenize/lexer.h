/*
 * The interface every lexer implements.
 *
 * A lexer is a pure function from bytes to tokens: given the source and a
 * position, it skips whitespace and returns the next token as (start,
 * length, class).  It never allocates, never fails, never reads outside
 * [src, src + len), and does work linear in the input over a whole file.
 * Every byte that is not whitespace belongs to exactly one token, and
 * tokens come in source order; that is the invariant the view and the
 * blame tools rely on.
 *
 * State that a language needs across tokens (the previous token for
 * JavaScript's regular expressions, PHP's HTML mode, pending shell
 * here-documents) lives in struct lexer_state, which the caller owns.
 */
#ifndef LEXER_H
#define LEXER_H

#include <stddef.h>
#include <stdint.h>

enum token_class {
	TOKEN_WORD = 1,   /* identifiers and keywords */
	TOKEN_NUMBER,
	TOKEN_STRING,     /* string and character literals, raw or multi-line */
	TOKEN_COMMENT,
	TOKEN_PUNCT,      /* operators and punctuators */
	TOKEN_OTHER       /* any other byte, one per token */
};

struct token {
	size_t start;
	size_t len;
	enum token_class cls;
};

struct generic_syntax;

struct lexer_state {
	const unsigned char *src;
	size_t len;
	size_t pos;              /* where the next token is looked for */
	const struct generic_syntax *syntax; /* for configured lexers */
	enum token_class prev;   /* class of the previous token, 0 at start */
	size_t prev_start, prev_len;
	unsigned mode;           /* lexer-private */
	unsigned depth;          /* lexer-private */
	size_t aux[8];           /* lexer-private */
};

/* Returns 1 and fills *tok, or 0 at the end of the input. */
typedef int lex_fn(struct lexer_state *ls, struct token *tok);

/*
 * The same tokens, up to max of them in one call (into tok[0..max)):
 * returns how many, 0 at the end of the input.  It keeps ls->prev,
 * prev_start and prev_len as language_next_token does, and saves a call
 * per token.
 */
typedef size_t lex_many_fn(struct lexer_state *ls, struct token *tok, size_t max);

void lexer_init(struct lexer_state *ls, const void *src, size_t len,
		const struct generic_syntax *syntax);

/* Bytes a lexer treats as whitespace between tokens: SP HT LF VT FF CR. */
static inline int lex_is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

#endif
