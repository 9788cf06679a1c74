#include "view.h"
#include "language.h"

#include <stdint.h>

/*
 * The writers below copy a word (8 bytes) at a time, so they need room for
 * the worst case of a token (every byte escaped to two, and the LF) plus a
 * word of slack: view_reserve() makes that room with one comparison per
 * token, so the copy loops need no checks of their own.
 */
#define VIEW_SLACK 16

static inline char *view_reserve(struct strbuf *out, size_t len)
{
	if (out->alloc - out->len < 2 * len + VIEW_SLACK)
		strbuf_grow(out, 2 * len + VIEW_SLACK);
	return out->buf + out->len;
}

static inline void view_commit(struct strbuf *out, char *end)
{
	*end++ = '\n';
	out->len = (size_t)(end - out->buf);
}

/*
 * LF and CR become the two characters \n and \r; nothing else changes.
 * While the source (which ends at end) has a word left, the bytes up to
 * the next one below 14 are copied a word at a time (the bytes past them
 * land in the slack, to be overwritten).
 */
static char *copy_escaped(char *d, const unsigned char *p, size_t len,
			  const unsigned char *end)
{
	const unsigned char *e = p + len;

	while (p < e) {
		unsigned char c;

		if (end - p >= 8) {
			uint64_t m = lex_word_below14(lex_word_load(p));
			size_t k = m ? lex_word_first(m) : 8;

			if (k > (size_t)(e - p))
				k = (size_t)(e - p);
			memcpy(d, p, 8);
			d += k;
			p += k;
			if (p == e || k == 8)
				continue;
		}
		c = *p++;
		if (c == '\n' || c == '\r') {
			*d++ = '\\';
			*d++ = c == '\n' ? 'n' : 'r';
		} else {
			*d++ = (char)c;
		}
	}
	return d;
}

/* The inverse of lex_word_load. */
static inline void word_store(char *d, uint64_t y)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(d, &y, 8);
#else
	for (int i = 0; i < 8; i++)
		d[i] = (char)(y >> 8 * i);
#endif
}

/*
 * Runs of whitespace become one space; trailing whitespace goes.  While
 * the source (which ends at end) has a word left, it is done a word at a
 * time: the blanks of a word that start no run's second byte are all
 * written, as spaces, with the word (the common case, even across the
 * single newlines of prose); in any other, the bytes up to that second
 * byte are, and the rest of the run is skipped, a word at a time too.
 */
static char *copy_folded(char *d, const unsigned char *p, size_t len,
			 const unsigned char *end)
{
	const unsigned char *e;
	uint64_t carry = 0;	/* 0x80: the byte before p was a blank */
	size_t i;

	while (len > 0 && lex_is_space(p[len - 1]))
		len--;
	e = p + len;
	while (p < e && end - p >= 8) {
		size_t k = e - p < 8 ? (size_t)(e - p) : 8;
		uint64_t x = lex_word_load(p), bl = lex_word_blanks(x) & lex_word_heads[k] & LEX_WORD_HIGHS,
			drop = bl & (bl << 8 | carry), b = (bl >> 7) * 0xff,
			y = (x & ~b) | (b & LEX_WORD_ONES * ' ');

		word_store(d, y);
		if (!drop) {
			d += k;
			p += k;
			carry = bl >> (8 * k - 8) & 0x80;
			continue;
		}
		i = lex_word_first(drop);
		d += i;
		p += i;
		/* a run does not reach e, whose byte before is not a blank */
		for (; e - p >= 8; p += 8) {
			uint64_t m = ~lex_word_blanks(lex_word_load(p)) & LEX_WORD_HIGHS;

			if (m) {
				p += lex_word_first(m);
				break;
			}
		}
		while (p < e && lex_is_space(*p))
			p++;
		carry = 0x80;
	}
	for (; p < e; p++) {
		unsigned blank = lex_is_space(*p);

		*d = blank ? ' ' : (char)*p;
		d += !(blank & (carry != 0));
		carry = blank ? 0x80 : 0;
	}
	return d;
}

/* The encoding of one token of a source that ends at end, at d (with room). */
static char *copy_token(char *d, const unsigned char *tok, size_t len,
			const unsigned char *end, enum token_class cls, unsigned flags)
{
	if (cls == TOKEN_COMMENT && !(flags & VIEW_EXACT_COMMENTS))
		return copy_folded(d, tok, len, end);
	return copy_escaped(d, tok, len, end);
}

static void add_token(struct strbuf *out, const unsigned char *tok, size_t len,
		      const unsigned char *end, enum token_class cls, unsigned flags)
{
	view_commit(out, copy_token(view_reserve(out, len), tok, len, end, cls, flags));
}

void view_add_token(struct strbuf *out, const unsigned char *tok, size_t len,
		    enum token_class cls, unsigned flags)
{
	add_token(out, tok, len, tok + len, cls, flags);
	out->buf[out->len] = '\0';
}

/*
 * The tokens of a whole source, without positions, from the lexer's view
 * (see struct lex_out), VIEW_BATCH at a time: room is made for a batch of
 * short tokens at once; a token that is not one (put_token) makes the
 * room it needs beyond that.
 */
#define VIEW_BATCH 64

struct view_out {
	struct lex_out o;	/* first: put_token gets a pointer to it */
	struct strbuf *out;
	const unsigned char *end;
	unsigned flags;
};

static char *put_token(struct lex_out *o, char *d, const unsigned char *tok, size_t len,
		       enum token_class cls, size_t left)
{
	struct view_out *v = (struct view_out *)o;
	struct strbuf *out = v->out;
	size_t need = 2 * len + 1 + left * LEX_OUT_SHORT + LEX_OUT_SLACK;

	if (out->alloc - (size_t)(d - out->buf) < need) {
		out->len = (size_t)(d - out->buf);
		strbuf_grow(out, need);
		d = out->buf + out->len;
	}
	return copy_token(d, tok, len, v->end, cls, v->flags);
}

/* Hands a view that has grown to VIEW_FLUSH_SIZE to flush (when there is one). */
static void flush_if_full(struct strbuf *out, view_flush_fn *flush, void *data)
{
	if (flush && out->len >= VIEW_FLUSH_SIZE)
		flush(out, data);
}

static size_t add_tokens(struct strbuf *out, const struct language *lang,
			 struct lexer_state *ls, unsigned flags,
			 view_flush_fn *flush, void *data)
{
	struct view_out v;
	size_t count = 0, got;

	v.o.fast = ls->src + (ls->len >= LEX_OUT_COPY ? ls->len - (LEX_OUT_COPY - 1) : 0);
	v.o.breaks = lang->lexer->breaks;
	v.o.put = put_token;
	v.out = out;
	v.end = ls->src + ls->len;
	v.flags = flags;
	for (;;) {
		if (out->alloc - out->len < VIEW_BATCH * LEX_OUT_SHORT + LEX_OUT_SLACK)
			strbuf_grow(out, VIEW_BATCH * LEX_OUT_SHORT + LEX_OUT_SLACK);
		v.o.d = out->buf + out->len;
		got = lang->lexer->view(ls, &v.o, VIEW_BATCH);
		out->len = (size_t)(v.o.d - out->buf);
		if (!got)
			break;
		count += got;
		flush_if_full(out, flush, data);
	}
	return count;
}

/* The same with each token's LINE:COLUMN before it (VIEW_POSITIONS), one token at a time. */
static size_t add_positioned_tokens(struct strbuf *out, const struct language *lang,
				    struct lexer_state *ls, unsigned flags,
				    view_flush_fn *flush, void *data)
{
	struct token tok;
	size_t count = 0, line = 1, line_start = 0, scanned = 0;
	const unsigned char *s = ls->src, *end = s + ls->len;

	while (language_next_token(lang, ls, &tok)) {
		const unsigned char *nl;

		while ((nl = memchr(s + scanned, '\n', tok.start - scanned))) {
			line++;
			scanned = line_start = (size_t)(nl - s) + 1;
		}
		scanned = tok.start;
		strbuf_addf(out, "%zu:%zu\t", line, tok.start - line_start + 1);
		add_token(out, s + tok.start, tok.len, end, tok.cls, flags);
		count++;
		flush_if_full(out, flush, data);
	}
	return count;
}

size_t view_build_flushing(struct strbuf *out, const struct language *lang,
			   const void *src, size_t len, unsigned flags,
			   view_flush_fn *flush, void *data)
{
	struct lexer_state ls;
	size_t count;

	lexer_init(&ls, src, len, lang->syntax);
	if (flags & VIEW_POSITIONS)
		count = add_positioned_tokens(out, lang, &ls, flags, flush, data);
	else
		count = add_tokens(out, lang, &ls, flags, flush, data);
	if (count)
		out->buf[out->len] = '\0';
	return count;
}

size_t view_build(struct strbuf *out, const struct language *lang,
		  const void *src, size_t len, unsigned flags)
{
	return view_build_flushing(out, lang, src, len, flags, NULL, NULL);
}
