/*
 * test-functions FILE...: the functions find_functions (contrib/functions.c)
 * finds in each FILE, its language chosen as tokstream chooses it: one line
 * "NAME FIRST LAST TOKENS" per function, FIRST and LAST the lines of its
 * name and of its last token, TOKENS their number, as `tokstream html`
 * counts them.
 */
#include "../../contrib/functions.h"
#include "../../tokenize/language.h"
#include "../../tokenize/strbuf.h"
#include "../../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tokens of res->content with their lines and columns, as blame_file gives them. */
static void tokenize_result(struct blame_result *res)
{
	struct lexer_state ls;
	struct token tok;
	size_t line = 1, line_start = 0, scanned = 0;

	lexer_init(&ls, res->content.buf, res->content.len, res->lang->syntax);
	while (language_next_token(res->lang, &ls, &tok)) {
		const char *nl;
		struct token_pos *t;

		while ((nl = memchr(res->content.buf + scanned, '\n', tok.start - scanned))) {
			line++;
			scanned = line_start = (size_t)(nl - res->content.buf) + 1;
		}
		scanned = tok.start;
		ALLOC_GROW(res->toks, res->nr_toks + 1, res->alloc_toks);
		t = &res->toks[res->nr_toks++];
		memset(t, 0, sizeof(*t));
		t->line = line;
		t->col = tok.start - line_start + 1;
		t->start = tok.start;
		t->len = tok.len;
		t->cls = tok.cls;
	}
}

int main(int argc, char **argv)
{
	int i;

	progname = "test-functions";
	if (argc < 2)
		die("usage: test-functions FILE...");
	for (i = 1; i < argc; i++) {
		struct blame_result res;
		struct function_span *fn;
		size_t nr, k;

		memset(&res, 0, sizeof(res));
		strbuf_init(&res.content, 0);
		if (strbuf_read_file(&res.content, argv[i]))
			die_errno("cannot read '%s'", argv[i]);
		res.lang = language_for_file(argv[i], res.content.buf, res.content.len);
		if (!res.lang || res.lang == &language_none)
			die("no language claims '%s'", argv[i]);
		tokenize_result(&res);
		nr = find_functions(&res, &fn);
		for (k = 0; k < nr; k++) {
			const struct token_pos *name = &res.toks[fn[k].name], *last = &res.toks[fn[k].end - 1];
			const char *p = res.content.buf + last->start, *e = p + last->len;
			size_t last_line = last->line;

			while ((p = memchr(p, '\n', (size_t)(e - p))))
				p++, last_line++;
			printf("%.*s %zu %zu %zu\n", (int)name->len, res.content.buf + name->start,
			       name->line, last_line, fn[k].end - fn[k].name);
		}
		free(fn);
		free(res.toks);
		strbuf_release(&res.content);
	}
	return 0;
}
