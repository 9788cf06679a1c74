/*
 * What the lexers share: the definition of a lexer from its token
 * function, the scanners for the constructs that recur across languages
 * (comments, quoted literals, digits, punctuators by maximal munch, here-
 * documents, line splices; lexers/common.c), and the C family's token
 * function, configured by a struct (lex_cfamily_token).  Lexers depend on
 * this file and on tokenize/lexer.h, the interface they implement; see
 * lexers/README.md.
 *
 * Why the lexers look the way they do, each as SQLite's tokenizer and
 * Lua's llex.c do it:
 *
 *  - a const class table, written out by the compiler (LEX_TABLE), says
 *    what each byte may start; nothing is filled in at run time, so a
 *    table costs no start-up and no lock, and reads as a list of bytes;
 *  - one switch on the class of its first byte decides each token, and a
 *    case that needs more than a line or two calls a small helper named
 *    for what it reads, so that every decision is written once;
 *  - the work is linear in the input on any input, however malformed: a
 *    scanner does not go back over what it passed (an unterminated
 *    literal ends at its line or at the end of the input; a guess that
 *    failed, such as JavaScript's regular expression that does not close
 *    on its line, is not tried again there), since a history holds every
 *    broken file ever written;
 *  - a scanner never reads outside [src, src + len): every look ahead is
 *    bounded by n first (p + 1 < n, n - p >= 8), so the input needs no
 *    terminator and no padding.
 */
#ifndef LEXERS_COMMON_H
#define LEXERS_COMMON_H

#include "../tokenize/lexer.h"

/*
 * A lexer's token function, from one position to the next token (a
 * lex_fn), is declared LEX_TOKEN_FN, so that it is inlined into the loop
 * of many.  LEX_DEFINE defines the
 * struct lexer var named name from that function fn: many gives up to max
 * tokens in one call, next is many for one token (LEX_DEFINE_BREAKS: and
 * the classes whose tokens may hold a line break); view is many writing
 * the view (lex_out_token_plain).  many and view work on a copy of the state,
 * which the tokens they store cannot alias, so that the position stays in
 * a register from one token to the next.
 */
#define LEX_TOKEN_FN LEX_INLINE int

/*
 * The ends of a token function: lex_emit gives the token s[b..e) of class
 * cls and moves the lexer past it (returns 1); lex_end, at the end of the
 * input, gives none (returns 0).
 */
LEX_INLINE int lex_emit(struct lexer_state *ls, struct token *tok, size_t b, size_t e,
			enum token_class cls)
{
	ls->pos = e;
	tok->start = b;
	tok->len = e - b;
	tok->cls = cls;
	return 1;
}

LEX_INLINE int lex_end(struct lexer_state *ls)
{
	ls->pos = ls->len;
	return 0;
}

/*
 * What a token function returns but 0 (the end of the input) and 1:
 * the token holds no line break and is no comment, so the view writes it
 * as it is, without looking at its bytes.  For the lexers that know it
 * cheaply where breaks cannot (C: a line splice may be in any token).
 */
#define LEX_TOKEN_PLAIN 2

#define LEX_DEFINE(var, name, fn) LEX_DEFINE_BREAKS(var, name, fn, LEX_BREAKS_ALL)
#define LEX_DEFINE_BREAKS(var, name, fn, breaks) LEX_DEFINE_SPACES(var, name, fn, breaks, 0)
/* LEX_DEFINE_BREAKS of a lexer that skips the Unicode white space spaces (LEX_U_ bits). */
#define LEX_DEFINE_SPACES(var, name, fn, breaks, spaces)		\
	static size_t fn##_many(struct lexer_state *ls, struct token *tok, size_t max) \
	{								\
		struct lexer_state l = *ls;				\
		size_t i;						\
									\
		for (i = 0; i < max && fn(&l, tok + i); i++)		\
			lex_set_prev(&l, tok + i);			\
		*ls = l;						\
		return i;						\
	}								\
	static size_t fn##_view(struct lexer_state *ls, struct lex_out *out, size_t max) \
	{								\
		struct lexer_state l = *ls;				\
		struct lex_out o = *out;				\
		struct token t;						\
		size_t left = max;					\
		int got;						\
									\
		while (left && (got = fn(&l, &t))) {			\
			left--;						\
			lex_set_prev(&l, &t);				\
			o.d = lex_out_token_plain(&o, out, l.src, &t, left, \
						  got == LEX_TOKEN_PLAIN); \
		}							\
		out->d = o.d;						\
		*ls = l;						\
		return max - left;					\
	}								\
	static int fn##_next(struct lexer_state *ls, struct token *tok) \
	{								\
		return fn##_many(ls, tok, 1) != 0;			\
	}								\
	const struct lexer var = { name, fn##_next, fn##_many, fn##_view, breaks, spaces }

/*
 * End of a line comment starting at p: the end of its line, without a
 * trailing CR (so CRLF files give the same view as LF ones).  With splices,
 * a backslash at the end of the line continues the comment, as in C.
 */
size_t lex_line_comment(const unsigned char *s, size_t p, size_t n, int splices);

/*
 * End of a block comment whose opener (of any length) starts at p and
 * which closes with close[0..closelen): just past the closer, or n when it
 * is unterminated.  The opener and the closer must be at least one byte;
 * the search for the closer starts after openlen bytes.
 */
size_t lex_block_comment(const unsigned char *s, size_t p, size_t n,
			 const char *close, size_t closelen);
size_t lex_block_comment_from(const unsigned char *s, size_t p, size_t n,
			      size_t openlen, const char *close, size_t closelen);

/*
 * End of a literal quoted by the byte at p (" or ' or any other), in which
 * a backslash escapes the next byte (so an escaped newline continues it):
 * just past the closing quote.  Unterminated, it ends before the end of its
 * line (before a CR that precedes the LF), or, LEX_QUOTED_MULTILINE, at n.
 * LEX_QUOTED_SPLICES, as C has it: a line splice (lex_splice_len) goes on
 * anywhere, even between a backslash and the byte it escapes, and a lone
 * CR ends a line too.
 */
#define LEX_QUOTED_MULTILINE 1u
#define LEX_QUOTED_SPLICES   2u
size_t lex_quoted(const unsigned char *s, size_t p, size_t n, unsigned flags);

/* Blanks but line breaks: SP HT VT FF. */
static inline int lex_is_hspace(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/*
 * Length of the line splice at the backslash at p, or 0: a backslash,
 * horizontal whitespace (which compilers tolerate), and a newline (LF,
 * CR LF, LF CR or CR).  A function of its own, called only at a
 * backslash, so that its loop does not take registers in a lexer's loop.
 */
size_t lex_splice_len_at(const unsigned char *s, size_t p, size_t n);

/* Length of a line splice at p, or 0. */
static inline size_t lex_splice_len(const unsigned char *s, size_t p, size_t n)
{
	return p < n && s[p] == '\\' ? lex_splice_len_at(s, p, n) : 0;
}

/* p moved past the line splices at p: where the next character really is. */
static inline size_t lex_skip_splices(const unsigned char *s, size_t p, size_t n)
{
	size_t l;

	while ((l = lex_splice_len(s, p, n)))
		p += l;
	return p;
}

/*
 * Length of a line continuation at p, or 0: a backslash right before a
 * newline (LF or CR LF), as Python and the shell have it.
 */
static inline size_t lex_continuation_len(const unsigned char *s, size_t p, size_t n)
{
	if (p + 1 < n && s[p] == '\\') {
		if (s[p + 1] == '\n')
			return 2;
		if (p + 2 < n && s[p + 1] == '\r' && s[p + 2] == '\n')
			return 3;
	}
	return 0;
}

/*
 * End of a triple-quoted literal (Python's strings, Java's text blocks)
 * whose opening q q q starts at p: just past the closing q q q, or n when
 * it is unterminated.  A backslash escapes the next byte, so \""" does not
 * close it.
 */
size_t lex_triple_quoted(const unsigned char *s, size_t p, size_t n, unsigned char q);

/*
 * End of a bracketed construct whose opener s[p] == open: just past the
 * closer that balances it (nested open/close pairs count), or n when it is
 * unterminated (*closed, if not NULL, tells which).  Flags:
 *   LEX_NEST_ESCAPES  a backslash escapes the next byte;
 *   LEX_NEST_QUOTES   '...' and "..." inside are skipped whole (a
 *                     backslash escapes inside them; LEX_NEST_SQ_RAW: not
 *                     inside '...', as in the shell);
 *   LEX_NEST_LINE     a newline ends the construct (the result is then the
 *                     end of the line, before a CR that precedes the LF).
 */
#define LEX_NEST_ESCAPES 1u
#define LEX_NEST_QUOTES  2u
#define LEX_NEST_SQ_RAW  4u
#define LEX_NEST_LINE    8u
size_t lex_nested(const unsigned char *s, size_t p, size_t n,
		  unsigned char open, unsigned char close, unsigned flags, int *closed);

/*
 * A here-document body (shell, Perl, PHP) that starts at p, the beginning
 * of its first line: returns just past the delimiter delim[0..dlen) on the
 * line that closes it, or n when no line does.  The closing line is the
 * delimiter alone (an optional CR before the LF), after
 *   LEX_HEREDOC_TABS    leading tabs (sh <<-), or
 *   LEX_HEREDOC_INDENT  leading spaces and tabs (Perl <<~, PHP 7.3);
 *   LEX_HEREDOC_PREFIX  the delimiter need only not be followed by an
 *                       identifier byte (PHP 7.3: "EOT;", "EOT)").
 */
#define LEX_HEREDOC_TABS   1u
#define LEX_HEREDOC_INDENT 2u
#define LEX_HEREDOC_PREFIX 4u
size_t lex_heredoc(const unsigned char *s, size_t p, size_t n,
		   const unsigned char *delim, size_t dlen, unsigned flags);

/*
 * The here-documents pending in q: lex_heredoc_push queues one at at (the
 * lexer's position of its operator or delimiter) with the lexer's flags,
 * unless max (at most LEX_MAX_HEREDOCS) are pending already;
 * lex_heredoc_pop takes the oldest (one must be pending) and gives its
 * flags in *flags.
 */
void lex_heredoc_push(struct lex_heredocs *q, size_t at, unsigned flags, unsigned max);
size_t lex_heredoc_pop(struct lex_heredocs *q, unsigned *flags);

/*
 * End of a nesting block comment whose two-byte opener open[0..2) starts
 * at p and whose closer is close[0..2) (Rust, Swift, Kotlin, Scala: slash
 * star and star slash; Haskell "{-" "-}"): just past the closer that
 * balances it, or n when it is unterminated.
 */
size_t lex_nested_comment(const unsigned char *s, size_t p, size_t n,
			  const char *open, const char *close);

/*
 * End of the longest punctuator at p (p < n), by maximal munch from the
 * table ops: ops[c] lists the punctuators of several bytes that start
 * with c, separated by spaces, longest first ("<<= << <="); a byte whose
 * entry is NULL, or none of whose listed ones matches, is a punctuator by
 * itself.
 */
static inline size_t lex_punct(const char *const ops[128], const unsigned char *s, size_t p, size_t n)
{
	const char *o = s[p] < 128 ? ops[s[p]] : NULL;

	if (!o)
		return p + 1;
	for (;;) {
		size_t l = 1;	/* the first byte is the entry's */

		while (o[l] > ' ' && p + l < n && s[p + l] == (unsigned char)o[l])
			l++;
		if (o[l] <= ' ')
			return p + l;
		while (o[l] > ' ')
			l++;
		if (!o[l])
			return p + 1;
		o += l + 1;
	}
}

/*
 * lex_punct, first asking second[] (a LEX_TABLE of the bytes that may be
 * the second of a punctuator of several): a punctuator followed by none of
 * them is one byte, known without a search of the table.
 */
static inline size_t lex_punct_fast(const unsigned char second[256], const char *const ops[128],
				    const unsigned char *s, size_t p, size_t n)
{
	if (n - p >= 2 && !second[s[p + 1]])
		return p + 1;
	return lex_punct(ops, s, p, n);
}

/*
 * A lexer's class table, written out by the compiler: LEX_TABLE(F) is the
 * 256 initializers F(0) ... F(255) of a table indexed by byte, where F(c)
 * is a constant expression of the byte c, a chain of the tests below, most
 * specific first.  So a table is const, says in a few lines which bytes go
 * where, and costs nothing at run time.
 */
#define LEX_TABLE(F) LEX_TABLE64_(F, 0), LEX_TABLE64_(F, 64), \
	LEX_TABLE64_(F, 128), LEX_TABLE64_(F, 192)
#define LEX_TABLE64_(F, b) LEX_TABLE16_(F, b), LEX_TABLE16_(F, b + 16), \
	LEX_TABLE16_(F, b + 32), LEX_TABLE16_(F, b + 48)
#define LEX_TABLE16_(F, b) LEX_TABLE4_(F, b), LEX_TABLE4_(F, b + 4), \
	LEX_TABLE4_(F, b + 8), LEX_TABLE4_(F, b + 12)
#define LEX_TABLE4_(F, b) F(b), F(b + 1), F(b + 2), F(b + 3)

/* Whitespace, as lex_is_space. */
#define LEX_IS_SPACE(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define LEX_IS_LETTER(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define LEX_IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
/* The bytes that start an identifier in most languages: A-Z a-z _, and every byte >= 0x80, so that UTF-8 is never split. */
#define LEX_IS_IDENT(c) (LEX_IS_LETTER(c) || (c) == '_' || (c) >= 0x80)
/* The bytes that may start a character of a LEX_U_ set: the lead bytes of their UTF-8. */
#define LEX_IS_ULEAD(c) ((c) == 0xc2 || ((c) >= 0xe1 && (c) <= 0xe3) || (c) == 0xef)

static inline int lex_is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int lex_is_hex(unsigned char c)
{
	return lex_is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/*
 * Past the digits of radix (2, 8, 10 or 16) and the '_' separators among
 * them from p, as most languages write a number's digits (without a check
 * of where the separators stand: that is the compiler's).
 */
static inline size_t lex_digits(const unsigned char *s, size_t p, size_t n, unsigned radix)
{
	while (p < n && (s[p] == '_' ||
			 (radix == 16 ? lex_is_hex(s[p]) : s[p] >= '0' && s[p] < '0' + radix)))
		p++;
	return p;
}

/*
 * Is c one of the bytes that follow it (up to 24 of them)?  A 25th is a
 * compile error (the size of a negative array), not a byte left out.
 */
#define LEX_IN(c, ...) LEX_IN_(c, __VA_ARGS__, -1, -1, -1, -1, -1, -1, -1, -1, \
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
#define LEX_IN_(c, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, \
		a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, ...) \
	((c) == (a1) || (c) == (a2) || (c) == (a3) || (c) == (a4) || (c) == (a5) || \
	 (c) == (a6) || (c) == (a7) || (c) == (a8) || (c) == (a9) || (c) == (a10) || \
	 (c) == (a11) || (c) == (a12) || (c) == (a13) || (c) == (a14) || (c) == (a15) || \
	 (c) == (a16) || (c) == (a17) || (c) == (a18) || (c) == (a19) || (c) == (a20) || \
	 (c) == (a21) || (c) == (a22) || (c) == (a23) || (c) == (a24) || \
	 0 * sizeof(char[(a25) == -1 ? 1 : -1]))

/*
 * Past the bytes of a quoted literal from p that cannot end or escape it
 * (not q, not a backslash, not below 14 where its line may end), a word at
 * a time: the position of the first such byte, or where fewer than 8 bytes
 * are left, which the caller tests one by one.
 */
static inline size_t lex_word_skip_quoted(const unsigned char *s, size_t p, size_t n,
					  unsigned char q)
{
	for (; n - p >= 8; p += 8) {
		uint64_t x = lex_word_load(s + p),
			m = lex_word_eq(x, q) | lex_word_eq(x, '\\') | lex_word_below14(x);

		if (m)
			return p + lex_word_first(m);
	}
	return p;
}

/*
 * End of the run of bytes from p (p <= n) whose class in table is lo..hi:
 * the loop of identifiers and whitespace, unrolled to one bounds check
 * per four bytes.
 */
static inline size_t lex_span(const unsigned char *s, size_t p, size_t n,
			      const unsigned char table[256], unsigned lo, unsigned hi)
{
	for (; n - p >= 4; p += 4) {
		if (table[s[p]] - lo > hi - lo)
			return p;
		if (table[s[p + 1]] - lo > hi - lo)
			return p + 1;
		if (table[s[p + 2]] - lo > hi - lo)
			return p + 2;
		if (table[s[p + 3]] - lo > hi - lo)
			return p + 3;
	}
	while (p < n && table[s[p]] - lo <= hi - lo)
		p++;
	return p;
}

/*
 * The identifier bytes: A-Z a-z 0-9 _, every byte >= 0x80, and '$' when
 * dollar (exact for every byte).  The range tests are those of
 * lex_word_blanks, on the bytes with their high bit cleared; letters are
 * folded to lower case first ('@' and '[' fold to '`' and '{', outside).
 */
static inline uint64_t lex_word_idents(uint64_t x, int dollar)
{
	uint64_t t = x & LEX_WORD_LOWS, l = t | LEX_WORD_ONES * 0x20;
	uint64_t in = ((l + LEX_WORD_ONES * (0x80 - 'a')) & ~(l + LEX_WORD_ONES * (0x7f - 'z'))) |
		((t + LEX_WORD_ONES * (0x80 - '0')) & ~(t + LEX_WORD_ONES * (0x7f - '9')));

	return ((in | x) & LEX_WORD_HIGHS) | lex_word_eq(x, '_') |
		(dollar ? lex_word_eq(x, '$') : 0);
}

/*
 * lex_span over identifier bytes (lex_word_idents), a word at a time while
 * a word is left: the end of a word is found by one count of trailing
 * zeros, not by a branch per byte whose last one mispredicts.  table, lo
 * and hi must give the same bytes, for the tail.  (Whitespace runs are
 * mostly a byte or two: there a word costs more than the table.)
 */
static inline size_t lex_span_idents(const unsigned char *s, size_t p, size_t n, int dollar,
				     const unsigned char table[256], unsigned lo, unsigned hi)
{
	for (; n - p >= 8; p += 8) {
		uint64_t m = ~lex_word_idents(lex_word_load(s + p), dollar) & LEX_WORD_HIGHS;

		if (m)
			return p + lex_word_first(m);
	}
	return lex_span(s, p, n, table, lo, hi);
}

/*
 * lex_span_idents in a language that takes the Unicode white space of
 * spaces (LEX_U_ bits; 0: lex_span_idents itself) for white space: a byte
 * >= 0x80 stops the scan a word at a time, and is taken into the
 * identifier unless such a space starts there (lex_span_idents_high, out
 * of the way of the identifiers of ASCII).  table, lo and hi must give
 * every byte >= 0x80.
 */
size_t lex_span_idents_high(const unsigned char *s, size_t p, size_t n, int dollar,
			    const unsigned char table[256], unsigned lo, unsigned hi,
			    unsigned spaces);

LEX_INLINE size_t lex_span_idents_u(const unsigned char *s, size_t p, size_t n, int dollar,
				    const unsigned char table[256], unsigned lo, unsigned hi,
				    unsigned spaces)
{
	if (!spaces)
		return lex_span_idents(s, p, n, dollar, table, lo, hi);
	for (; n - p >= 8; p += 8) {
		uint64_t x = lex_word_load(s + p), m = (~lex_word_idents(x, dollar) | x) & LEX_WORD_HIGHS;

		if (m) {
			p += lex_word_first(m);
			return s[p] < 0x80 ? p : lex_span_idents_high(s, p, n, dollar, table, lo, hi, spaces);
		}
	}
	while (p < n && s[p] < 0x80 && table[s[p]] - lo <= hi - lo)
		p++;
	return p < n && s[p] >= 0x80 ? lex_span_idents_high(s, p, n, dollar, table, lo, hi, spaces) : p;
}

/* lex_uline_end of one lead byte and the line breaks of set that start with it. */
static inline size_t lex_uline_lead(const unsigned char *s, size_t p, size_t e,
				    unsigned char lead, unsigned set)
{
	const unsigned char *q;

	while (p < e && (q = memchr(s + p, lead, e - p))) {
		p = (size_t)(q - s);
		if (lex_uspace(s, p, e, set))
			return p;
		p++;
	}
	return e;
}

/*
 * Past the white space at p of a language that takes lex_is_space's
 * bytes (those of class space in table) and the Unicode white space of
 * spaces (LEX_U_ bits) for it.
 */
static inline size_t lex_skip_spaces_u(const unsigned char *s, size_t p, size_t n,
				       const unsigned char table[256], unsigned space, unsigned spaces)
{
	size_t l;

	p = lex_span(s, p, n, table, space, space);
	while (spaces && p < n && s[p] >= 0x80 && (l = lex_uspace(s, p, n, spaces)))
		p = lex_span(s, p + l, n, table, space, space);
	return p;
}

/*
 * The end of the line comment s[p..e) (as lex_line_comment ended it) in a
 * language whose lines also end at the Unicode line breaks of set
 * (LEX_U_LSPS, LEX_U_NEL): where the first of them is, or e.  Their lead
 * bytes are looked for by memchr, which passes most comments at once.
 */
static inline size_t lex_uline_end(const unsigned char *s, size_t p, size_t e, unsigned set)
{
	if (set & LEX_U_NEL)
		e = lex_uline_lead(s, p, e, 0xc2, LEX_U_NEL);
	if (set & LEX_U_LSPS)
		e = lex_uline_lead(s, p, e, 0xe2, LEX_U_LSPS);
	return e;
}

/* Length of the UTF-8 sequence whose lead byte is c (1 for ASCII and junk). */
static inline size_t lex_utf8_len(unsigned char c)
{
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	if (c >= 0xe0 && c < 0xf0)
		return 3;
	return c >= 0xc0 && c < 0xe0 ? 2 : 1;
}

/*
 * Length of a UTF-8 byte order mark at p when p is the start of the input
 * (3), else 0: the lexers whose language does not take U+FEFF for white
 * space give it a token of its own (TOKEN_OTHER), so that it is not glued
 * to the first word.
 */
static inline size_t lex_bom(const unsigned char *s, size_t p, size_t n)
{
	return p == 0 && n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf ? 3 : 0;
}

/* Does s[p..n) start with the NUL-terminated string lit? */
static inline int lex_starts(const unsigned char *s, size_t p, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n - p >= l && !memcmp(s + p, lit, l);
}

/*
 * The comment a '/' at p opens: "//" to the end of its line, or a block
 * comment to its star-slash (LEX_SLASH_NESTING: whose openers nest, as
 * Rust's do).  Its end, or 0 when the '/' opens no comment (an operator,
 * or in some languages a regular expression).
 */
#define LEX_SLASH_NESTING 1u
static inline size_t lex_slash_comment(const unsigned char *s, size_t p, size_t n, unsigned flags)
{
	if (p + 1 < n && s[p + 1] == '/')
		return lex_line_comment(s, p, n, 0);
	if (p + 1 < n && s[p + 1] == '*')
		return flags & LEX_SLASH_NESTING ? lex_nested_comment(s, p, n, "/*", "*/") :
			lex_block_comment(s, p, n, "*/", 2);
	return 0;
}

/*
 * The C family (Java, Go, C#, Rust): one token function, lex_cfamily_token,
 * configured by a const struct lex_cfamily that says where the languages
 * differ.  Its class table (LEX_TABLE of LEX_CFAMILY_CLASS) gives each byte
 * one of the classes below; LEX_C_SPECIAL bytes start the constructs only
 * the language has (Go's raw strings, C#'s @ and $ strings, Rust's
 * lifetimes), which its special function reads.
 */
enum {
	LEX_C_OTHER,  /* a byte that is a token by itself */
	LEX_C_SPACE,
	LEX_C_IDENT,  /* A-Z a-z _ and every byte >= 0x80 (UTF-8 is never split), and the language's */
	LEX_C_DIGIT,
	LEX_C_DQUOTE,
	LEX_C_SQUOTE,
	LEX_C_SLASH,
	LEX_C_DOT,
	LEX_C_PUNCT,
	LEX_C_SPECIAL
};

/* The punctuators that Java, Go, C# and Rust share; each adds its own. */
#define LEX_IS_C_PUNCT(c) LEX_IN(c, '!', '%', '&', '(', ')', '*', '+', ',', '-', ':', ';', \
				 '<', '=', '>', '[', ']', '^', '{', '|', '}', '~')

/*
 * The class of byte c, where ident, special and punct are constant
 * expressions of c: the language's extra identifier bytes, its special
 * bytes (which take precedence over all but whitespace) and its
 * punctuators.
 */
#define LEX_CFAMILY_CLASS(c, ident, special, punct) (LEX_IS_SPACE(c) ? LEX_C_SPACE : \
	(special) ? LEX_C_SPECIAL : LEX_IS_IDENT(c) || (ident) ? LEX_C_IDENT : \
	LEX_IS_DIGIT(c) ? LEX_C_DIGIT : (c) == '"' ? LEX_C_DQUOTE : (c) == '\'' ? LEX_C_SQUOTE : \
	(c) == '/' ? LEX_C_SLASH : (c) == '.' ? LEX_C_DOT : (punct) ? LEX_C_PUNCT : LEX_C_OTHER)

/* Where the languages of lex_cfamily_token differ, besides their tables. */
enum {
	LEX_CF_DOLLAR = 1 << 0,      /* '$' is an identifier byte (ident of the class table) */
	LEX_CF_BOM = 1 << 1,         /* a byte order mark at the start is a token of its own */
	LEX_CF_DOT_NUMBERS = 1 << 2, /* a '.' before a digit starts a number */
	LEX_CF_TEXT_BLOCKS = 1 << 3, /* """...""" is one string over its lines (Java) */
	LEX_CF_MULTILINE = 1 << 4,   /* unterminated, "..." and '...' run to the end of the input */
	LEX_CF_NESTING = 1 << 5,     /* block comments nest (Rust) */
	LEX_CF_QDOT_DIGIT = 1 << 6,  /* "?." before a digit is '?' ("a?.5:b") */
	LEX_CF_ULINES = 1 << 7       /* a line comment ends at the Unicode line breaks of spaces */
};

struct lex_cfamily {
	const unsigned char *cclass;  /* 256 LEX_C_ classes */
	const unsigned char *punct2;  /* if not NULL: may byte c be the second of a punctuator? */
	const char *const *puncts;    /* those of several bytes, for lex_punct */
	size_t (*number)(const unsigned char *s, size_t p, size_t n);  /* from a digit or ".digit" */
	/* the token from the LEX_C_SPECIAL byte at p: its end, and its class in *cls */
	size_t (*special)(const unsigned char *s, size_t p, size_t n, enum token_class *cls);
	/* if not NULL: the word s[p..e) may go on as another token (Rust's r"...") */
	size_t (*word)(const unsigned char *s, size_t p, size_t e, size_t n, enum token_class *cls);
	unsigned flags;
	unsigned spaces;              /* the Unicode white space (LEX_U_ bits) of the language */
};

/* End of the longest punctuator at p (p < n). */
LEX_INLINE size_t lex_cfamily_punct(const struct lex_cfamily *lang, const unsigned char *s,
				    size_t p, size_t n)
{
	size_t e;

	e = lang->punct2 ? lex_punct_fast(lang->punct2, lang->puncts, s, p, n) :
		lex_punct(lang->puncts, s, p, n);
	if ((lang->flags & LEX_CF_QDOT_DIGIT) && e - p == 2 && s[p] == '?' && s[p + 1] == '.' &&
	    e < n && lex_is_digit(s[e]))
		return p + 1;
	return e;
}

/* The token at p (p < n, not whitespace): its end, and its class in *cls. */
LEX_INLINE size_t lex_cfamily_scan(const struct lex_cfamily *lang, const unsigned char *s,
				   size_t p, size_t n, enum token_class *cls)
{
	size_t e;

	switch (lang->cclass[s[p]]) {
	case LEX_C_IDENT:
		if ((lang->flags & LEX_CF_BOM) && (e = lex_bom(s, p, n))) {
			*cls = TOKEN_OTHER;
			return e;
		}
		*cls = TOKEN_WORD;
		e = lex_span_idents_u(s, p + 1, n, lang->flags & LEX_CF_DOLLAR, lang->cclass,
				      LEX_C_IDENT, LEX_C_DIGIT, lang->spaces);
		return lang->word && e < n ? lang->word(s, p, e, n, cls) : e;
	case LEX_C_DOT:
		if (!(lang->flags & LEX_CF_DOT_NUMBERS) || p + 1 >= n || !lex_is_digit(s[p + 1]))
			break;
		/* fall through */
	case LEX_C_DIGIT:
		*cls = TOKEN_NUMBER;
		return lang->number(s, p, n);
	case LEX_C_DQUOTE:
		*cls = TOKEN_STRING;
		if ((lang->flags & LEX_CF_TEXT_BLOCKS) && lex_starts(s, p, n, "\"\"\""))
			return lex_triple_quoted(s, p, n, '"');
		return lex_quoted(s, p, n, lang->flags & LEX_CF_MULTILINE ? LEX_QUOTED_MULTILINE : 0);
	case LEX_C_SQUOTE:
		*cls = TOKEN_STRING;
		return lex_quoted(s, p, n, lang->flags & LEX_CF_MULTILINE ? LEX_QUOTED_MULTILINE : 0);
	case LEX_C_SLASH:
		*cls = TOKEN_COMMENT;
		if ((e = lex_slash_comment(s, p, n, lang->flags & LEX_CF_NESTING ? LEX_SLASH_NESTING : 0)))
			return (lang->flags & LEX_CF_ULINES) && s[p + 1] == '/' ?
				lex_uline_end(s, p, e, lang->spaces) : e;
		break;
	case LEX_C_PUNCT:
		break;
	case LEX_C_SPECIAL:
		return lang->special(s, p, n, cls);
	default:
		*cls = TOKEN_OTHER;
		return p + 1;
	}
	*cls = TOKEN_PUNCT;
	return lex_cfamily_punct(lang, s, p, n);
}

LEX_INLINE int lex_cfamily_token(struct lexer_state *ls, struct token *tok,
				 const struct lex_cfamily *lang)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;
	size_t p = lex_skip_spaces_u(s, ls->pos, n, lang->cclass, LEX_C_SPACE, lang->spaces);
	enum token_class cls;

	if (p >= n)
		return lex_end(ls);
	e = lex_cfamily_scan(lang, s, p, n, &cls);
	return lex_emit(ls, tok, p, e, cls);
}

/*
 * The lexer var named name of the C family language lang, as
 * LEX_DEFINE_SPACES (spaces: lang's, as a constant expression).
 */
#define LEX_DEFINE_CFAMILY(var, name, lang, breaks, spaces)				\
	LEX_TOKEN_FN lang##_token(struct lexer_state *ls, struct token *tok)		\
	{										\
		return lex_cfamily_token(ls, tok, &lang);				\
	}										\
	LEX_DEFINE_SPACES(var, name, lang##_token, breaks, spaces)

#endif
