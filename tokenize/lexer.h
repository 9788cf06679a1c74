/*
 * The interface every lexer implements, and all that tokenize/ knows of
 * lexers: the lexers themselves (lexers/) depend on this file and nothing
 * else of tokenize/, and nothing in tokenize/ depends on their insides.
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
 * and Ruby here-documents) lives in struct lexer_state, which the caller owns.
 */
#ifndef LEXER_H
#define LEXER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/*
 * What a lexer keeps across tokens, besides the position: each lexer's own
 * fields (all zero at the start of a file), together in a union since a
 * state serves one lexer.
 */

/* Here-documents whose bodies follow the line being lexed (shell, Perl). */
#define LEX_MAX_HEREDOCS 8
struct lex_heredocs {
	size_t at[LEX_MAX_HEREDOCS];   /* where each one's operator or delimiter is, oldest first */
	unsigned char flags[LEX_MAX_HEREDOCS]; /* the lexer's, for each */
	unsigned count;
};

/* JavaScript: what the previous significant token (not a comment) tells. */
struct lex_js_prev {
	size_t name_start, name_len;  /* the identifier, when kind says it was one */
	size_t paren_bits;            /* bit i: open parenthesis i is a statement's */
	size_t parens;                /* open parentheses */
	unsigned kind;                /* lexers/javascript.c's enum prev_kind */
};

struct lex_js_state {
	struct lex_js_prev prev;
	size_t regex_horizon;         /* no regular expression is tried before it */
};

/* Perl: the previous significant token (not a comment, POD or here-document body). */
struct lex_perl_state {
	struct lex_heredocs heredocs;
	size_t prev_start, prev_len;
	enum token_class prev;        /* 0 at the start */
	unsigned char after_sub;      /* the token before it was "sub" */
};

/* Ruby: the previous significant token (not a comment or a here-document body). */
struct lex_ruby_state {
	struct lex_heredocs heredocs;
	size_t prev_start, prev_len;
	size_t guess_horizon;         /* no ambiguous literal is guessed before it */
	enum token_class prev;        /* 0 at the start */
	unsigned char prev_name;      /* prev was a method's name (after "." or "def"), no keyword */
	unsigned char newline;        /* a line break came since prev */
	unsigned char def_name;       /* the name of a "def" comes next */
	unsigned char data;           /* past __END__: prose */
};

struct lexer_state {
	const unsigned char *src;
	size_t len;
	size_t pos;              /* where the next token is looked for */
	const struct generic_syntax *syntax; /* for configured lexers */
	enum token_class prev;   /* class of the previous token, 0 at start */
	size_t prev_start, prev_len;
	union {
		struct lex_js_state js;
		struct lex_perl_state perl;
		struct lex_heredocs shell;
		struct lex_ruby_state ruby;
		unsigned char php_in_code;        /* between an open and a close tag */
		unsigned char python_fields_one_line; /* see string_token in lexers/python.c */
		unsigned char generic_in_tag;     /* GEN_MARKUP: inside a <tag> */
	} u;
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

struct lex_out;

/*
 * many fused with the view's loop (tokenize/view.c): the same tokens, up
 * to max of them, written to out as the view has them; returns how many.
 */
typedef size_t lex_view_fn(struct lexer_state *ls, struct lex_out *out, size_t max);

struct lexer {
	const char *name;
	lex_fn *next;
	lex_many_fn *many;
	lex_view_fn *view;
	/*
	 * The classes (bit 1 << class) whose tokens may hold a line break
	 * (LF or CR), which the view escapes: the view looks for one only in
	 * those.  LEX_BREAKS_ALL gives every class; a lexer whose words,
	 * numbers and punctuators never hold one (no line splices) names fewer.
	 */
	unsigned breaks;
	/*
	 * The Unicode white space (LEX_U_ bits, below) that the lexer skips
	 * between tokens as it skips lex_is_space's bytes: what its language
	 * takes for white space besides them; 0 for most.
	 */
	unsigned spaces;
};

#define LEX_BREAKS_ALL (~0u)
#define LEX_BREAKS_STRINGS ((1u << TOKEN_STRING) | (1u << TOKEN_COMMENT))

/*
 * A row of the language table: a language, its lexer and what it claims.
 * The table is the lexers' (lexers/languages.c, which alone names them);
 * tokenize/language.c looks a file's language up in it.
 */
struct language {
	const char *name;
	const struct lexer *lexer;
	const struct generic_syntax *syntax; /* for the configured lexers */
	/* Space-separated lists; any may be NULL. */
	const char *extensions;   /* ".c .h": matched exactly, then ignoring case */
	const char *filenames;    /* globs on the file name: "Makefile *.mk" */
	const char *paths;        /* globs on the whole path: "Documentation/..." */
	const char *interpreters; /* "#!" interpreters: "python" claims python3.11 too */
};

extern const struct language language_table[];
extern const size_t language_table_size;

void lexer_init(struct lexer_state *ls, const void *src, size_t len,
		const struct generic_syntax *syntax);

static inline void lex_set_prev(struct lexer_state *ls, const struct token *tok)
{
	ls->prev = tok->cls;
	ls->prev_start = tok->start;
	ls->prev_len = tok->len;
}

/* Bytes a lexer treats as whitespace between tokens: SP HT LF VT FF CR. */
static inline int lex_is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * The Unicode white space a language may take for white space between
 * tokens, besides lex_is_space's bytes, in sets of these bits (struct
 * lexer's spaces), each a few code points written in UTF-8:
 */
#define LEX_U_NBSP  (1u << 0)  /* U+00A0 no-break space */
#define LEX_U_ZS    (1u << 1)  /* the rest of category Zs: U+1680, U+2000..U+200A, U+202F, U+205F, U+3000 */
#define LEX_U_BOM   (1u << 2)  /* U+FEFF zero width no-break space (a byte order mark) */
#define LEX_U_LSPS  (1u << 3)  /* U+2028 line separator, U+2029 paragraph separator */
#define LEX_U_NEL   (1u << 4)  /* U+0085 next line */
#define LEX_U_MARKS (1u << 5)  /* U+200E left-to-right mark, U+200F right-to-left mark */

/*
 * The length of the character of the set at p (p < n) in UTF-8, or 0
 * when another character (or a byte that is none) is there.
 */
static inline size_t lex_uspace(const unsigned char *s, size_t p, size_t n, unsigned set)
{
	unsigned char c1, c2;

	if (n - p < 2)
		return 0;
	c1 = s[p + 1];
	if (s[p] == 0xc2)
		return (c1 == 0xa0 && (set & LEX_U_NBSP)) || (c1 == 0x85 && (set & LEX_U_NEL)) ? 2 : 0;
	if (n - p < 3)
		return 0;
	c2 = s[p + 2];
	switch (s[p]) {
	case 0xe1:
		return c1 == 0x9a && c2 == 0x80 && (set & LEX_U_ZS) ? 3 : 0;
	case 0xe2:
		if (c1 == 0x81)
			return c2 == 0x9f && (set & LEX_U_ZS) ? 3 : 0;
		if (c1 != 0x80)
			return 0;
		if ((c2 >= 0x80 && c2 <= 0x8a) || c2 == 0xaf)
			return set & LEX_U_ZS ? 3 : 0;
		if (c2 == 0x8e || c2 == 0x8f)
			return set & LEX_U_MARKS ? 3 : 0;
		return (c2 == 0xa8 || c2 == 0xa9) && (set & LEX_U_LSPS) ? 3 : 0;
	case 0xe3:
		return c1 == 0x80 && c2 == 0x80 && (set & LEX_U_ZS) ? 3 : 0;
	case 0xef:
		return c1 == 0xbb && c2 == 0xbf && (set & LEX_U_BOM) ? 3 : 0;
	default:
		return 0;
	}
}

/*
 * LEX_INLINE: a function of a hot path that must be inlined (a lexer's
 * token function into its loop, the writer below into it).
 */
#if defined(__GNUC__)
#define LEX_INLINE static inline __attribute__((always_inline))
#else
#define LEX_INLINE static inline
#endif

/*
 * Word-at-a-time tests (the "has a zero byte" tricks) on 8 bytes read as
 * a little-endian number, so that byte i of memory is bits 8i..8i+7 on
 * every machine (lex_word_load is one load on little-endian ones).  Each gives the high bit of the bytes that pass.
 * lex_word_below14 (the bytes below 14: LF, CR, the other whitespace but
 * space, controls) is exact for the lowest byte that passes and for
 * whether any does (a borrow may set bits above the lowest); the others
 * are exact for every byte.
 */
#define LEX_WORD_ONES  0x0101010101010101u
#define LEX_WORD_HIGHS 0x8080808080808080u
#define LEX_WORD_LOWS  0x7f7f7f7f7f7f7f7fu

static inline uint64_t lex_word_load(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;

	/* the bytes below, which compilers do not always make one load */
	memcpy(&x, p, 8);
	return x;
#else
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
		(uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
		(uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
#endif
}

static inline uint64_t lex_word_below14(uint64_t x)
{
	return (x - LEX_WORD_ONES * 14) & ~x & LEX_WORD_HIGHS;
}

/* The bytes equal to c. */
static inline uint64_t lex_word_eq(uint64_t x, unsigned char c)
{
	uint64_t y = x ^ (LEX_WORD_ONES * c);

	return ~(((y & LEX_WORD_LOWS) + LEX_WORD_LOWS) | y) & LEX_WORD_HIGHS;
}

/* The whitespace bytes (lex_is_space): space, and 9..13. */
static inline uint64_t lex_word_blanks(uint64_t x)
{
	uint64_t t = x & LEX_WORD_LOWS;

	return lex_word_eq(x, ' ') |
		((t + LEX_WORD_ONES * (0x80 - '\t')) & ~(t + LEX_WORD_ONES * (0x7f - '\r')) &
		 ~x & LEX_WORD_HIGHS);
}

/* lex_word_heads[k]: the bits of the first k bytes. */
static const uint64_t lex_word_heads[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff,
	0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff
};

/* Index of the byte of the lowest bit set in m (m != 0). */
static inline size_t lex_word_first(uint64_t m)
{
#if defined(__GNUC__)
	return (size_t)__builtin_ctzll(m) / 8;
#else
	size_t i = 0;

	while (!(m & 0x80))
		m >>= 8, i++;
	return i;
#endif
}

/*
 * Where view writes: d has room for the tokens left of the call, LEX_OUT_SHORT
 * bytes each, and a slack of LEX_OUT_SLACK.  The common token (starting
 * before fast, so that LEX_OUT_COPY bytes of source follow, and with no line
 * break to escape: of at most 16 bytes and not a comment, whose two words
 * are looked at, or plain and of at most LEX_OUT_COPY) is one copy of
 * LEX_OUT_COPY bytes here; any other goes to put, which makes the room it
 * needs beyond that (and keeps the room for the left tokens after it) and
 * returns the end of what it wrote.  out is the caller's, put may reach
 * more of it.  (32: identifiers of 17 to 32 bytes are common in C.)
 */
#define LEX_OUT_COPY 32
#define LEX_OUT_SHORT (LEX_OUT_COPY + 1)
#define LEX_OUT_SLACK 16

struct lex_out {
	char *d;
	const unsigned char *fast;
	unsigned breaks;	/* the lexer's */
	char *(*put)(struct lex_out *out, char *d, const unsigned char *tok, size_t len,
		     enum token_class cls, size_t left);
};

/*
 * The token t of the source s, written at o->d (a copy of *out, whose put
 * it calls): returns the end of what it wrote.  plain: the token holds no
 * line break and is no comment (so its bytes need no look).
 */
LEX_INLINE char *lex_out_token_plain(const struct lex_out *o, struct lex_out *out,
				     const unsigned char *s, const struct token *t, size_t left,
				     int plain)
{
	const unsigned char *p = s + t->start;
	size_t len = t->len, lo = len < 8 ? len : 8;
	char *d = o->d;

	if (p < o->fast &&
	    (plain ? len - 1 < LEX_OUT_COPY :
	     len - 1 < 16 && t->cls != TOKEN_COMMENT &&
	     (!(o->breaks >> t->cls & 1) ||
	      !((lex_word_below14(lex_word_load(p)) & lex_word_heads[lo]) |
		(lex_word_below14(lex_word_load(p + 8)) & lex_word_heads[len - lo]))))) {
		memcpy(d, p, LEX_OUT_COPY);
		d += len;
	} else {
		d = o->put(out, d, p, len, t->cls, left);
	}
	*d++ = '\n';
	return d;
}

#endif
