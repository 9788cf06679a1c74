/*
 * test-tokdiff [--positions] OLD NEW: the token diff (contrib/tokdiff.c)
 * of two views, as "+ADDED -REMOVED" and then one "A B LEN" line per
 * shared run (0-based), for the tests to check against what is known of
 * the edit.  With --positions, OLD and NEW are `tokenize --positions`
 * output, and the diff is anchored on the lines (tokdiff_lines).
 */
#include "../../contrib/tokdiff.h"
#include "../../tokenize/strbuf.h"
#include "../../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "LINE:COL<TAB>TOKEN" lines: the view in *view, each token's line in a new array. */
static uint32_t *split_positions(struct strbuf *sb, struct strbuf *view)
{
	uint32_t *line = NULL;
	size_t n = 0, alloc = 0;
	char *p, *nl;

	for (p = sb->buf; *p; p = nl + 1) {
		char *tab = strchr(p, '\t');

		nl = strchr(p, '\n');
		if (!nl || !tab || tab > nl)
			die("not tokenize --positions output: '%.*s'", (int)(nl ? nl - p : 20), p);
		ALLOC_GROW(line, n + 1, alloc);
		line[n++] = (uint32_t)strtoul(p, NULL, 10);
		strbuf_add(view, tab + 1, (size_t)(nl - tab));
	}
	return line;
}

int main(int argc, char **argv)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, va = STRBUF_INIT, vb = STRBUF_INIT;
	struct tokdiff d = { NULL, 0, 0 };
	uint32_t *la = NULL, *lb = NULL;
	uint64_t *ha, *hb;
	size_t na, nb, k, same = 0;
	int positions = argc > 1 && !strcmp(argv[1], "--positions");

	progname = "test-tokdiff";
	if (argc != 3 + positions)
		die("usage: test-tokdiff [--positions] OLD NEW");
	if (strbuf_read_file(&a, argv[1 + positions]) || strbuf_read_file(&b, argv[2 + positions]))
		die_errno("cannot read '%s' or '%s'", argv[1 + positions], argv[2 + positions]);
	if (positions) {
		la = split_positions(&a, &va);
		lb = split_positions(&b, &vb);
	} else {
		strbuf_addbuf(&va, &a);
		strbuf_addbuf(&vb, &b);
	}
	ha = hash_lines(va.buf, va.len, 0, &na);
	hb = hash_lines(vb.buf, vb.len, 0, &nb);
	tokdiff_lines(ha, la, na, hb, lb, nb, &d);
	for (k = 0; k < d.nr; k++)
		same += d.runs[k].len;
	printf("+%zu -%zu\n", nb - same, na - same);
	for (k = 0; k < d.nr; k++)
		printf("%zu %zu %zu\n", d.runs[k].a, d.runs[k].b, d.runs[k].len);
	tokdiff_release(&d);
	free(ha);
	free(hb);
	free(la);
	free(lb);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&va);
	strbuf_release(&vb);
	return 0;
}
