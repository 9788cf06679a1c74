/*
 * libFuzzer harness for every lexer.  The first byte of an input picks
 * the language (its index in the table, modulo the number of rows); the
 * rest is the file.  It asserts the invariants the view and the blame
 * tools rely on:
 *   - tokens are non-empty, in order, do not overlap and stay in bounds;
 *   - every byte outside a token is whitespace (or a backslash-newline):
 *     the ASCII blanks, and the Unicode white space of the lexer's spaces;
 *   - the view has exactly one line per token, none of them empty.
 * Running time is bounded by libFuzzer's -timeout: a quadratic lexer
 * shows up as a timeout on the long inputs it generates.
 */
#include "../../tokenize/language.h"
#include "../../tokenize/strbuf.h"
#include "../../tokenize/view.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t nr_languages;

static void fail(const char *lang, const char *what, size_t at)
{
	fprintf(stderr, "lexer %s: %s at byte %zu\n", lang, what, at);
	abort();
}

static int gap_ok(const unsigned char *s, size_t from, size_t to, unsigned spaces)
{
	size_t i, l;

	for (i = from; i < to; i++) {
		if (lex_is_space(s[i]))
			continue;
		if ((l = lex_uspace(s, i, to, spaces))) {
			i += l - 1;
			continue;
		}
		/*
		 * a line splice as clang takes it: a backslash, maybe blanks,
		 * then LF, CRLF or a lone CR
		 */
		if (s[i] == '\\') {
			size_t j = i + 1;

			while (j < to && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f' || s[j] == '\v'))
				j++;
			if (j < to && (s[j] == '\n' || s[j] == '\r'))
				continue;
		}
		return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct language *lang;
	const unsigned char *s;
	struct lexer_state ls;
	struct token tok;
	struct strbuf view = STRBUF_INIT;
	size_t n, end = 0, count = 0, lines = 0, i;
	unsigned char *copy;

	if (!nr_languages)
		while (language_by_index(nr_languages))
			nr_languages++;
	if (!size)
		return 0;
	lang = language_by_index(data[0] % nr_languages);
	n = size - 1;
	/* an exact-size copy, so that ASan sees any read past the end */
	copy = malloc(n ? n : 1);
	memcpy(copy, data + 1, n);
	s = copy;

	lexer_init(&ls, s, n, lang->syntax);
	while (language_next_token(lang, &ls, &tok)) {
		if (!tok.len)
			fail(lang->name, "empty token", tok.start);
		if (tok.start < end)
			fail(lang->name, "token overlaps the previous one", tok.start);
		if (tok.start > n || tok.len > n - tok.start)
			fail(lang->name, "token past the end", tok.start);
		if (!gap_ok(s, end, tok.start, lang->lexer->spaces))
			fail(lang->name, "a byte that is not whitespace belongs to no token", end);
		end = tok.start + tok.len;
		if (++count > n)
			fail(lang->name, "more tokens than bytes", tok.start);
	}
	if (!gap_ok(s, end, n, lang->lexer->spaces))
		fail(lang->name, "a byte after the last token belongs to no token", end);

	view_build(&view, lang, s, n, 0);
	for (i = 0; i < view.len; i++)
		if (view.buf[i] == '\n') {
			if (i == 0 || view.buf[i - 1] == '\n')
				fail(lang->name, "an empty line in the view", i);
			lines++;
		}
	if (view.len && view.buf[view.len - 1] != '\n')
		fail(lang->name, "the view does not end with LF", view.len);
	if (lines != count)
		fail(lang->name, "the view's lines are not its tokens", lines);
	strbuf_release(&view);
	free(copy);
	return 0;
}
