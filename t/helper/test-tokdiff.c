/*
 * test-tokdiff OLD NEW: the token diff (contrib/tokdiff.c) of two views,
 * as "+ADDED -REMOVED" and then one "A B LEN" line per shared run
 * (0-based), for the tests to check against what is known of the edit.
 */
#include "../../contrib/tokdiff.h"
#include "../../tokenize/strbuf.h"
#include "../../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct tokdiff d = { NULL, 0, 0 };
	uint64_t *ha, *hb;
	size_t na, nb, k, same = 0;

	progname = "test-tokdiff";
	if (argc != 3)
		die("usage: test-tokdiff OLD NEW");
	if (strbuf_read_file(&a, argv[1]) || strbuf_read_file(&b, argv[2]))
		die_errno("cannot read '%s' or '%s'", argv[1], argv[2]);
	ha = hash_lines(a.buf, a.len, 0, &na);
	hb = hash_lines(b.buf, b.len, 0, &nb);
	tokdiff(ha, na, hb, nb, &d);
	for (k = 0; k < d.nr; k++)
		same += d.runs[k].len;
	printf("+%zu -%zu\n", nb - same, na - same);
	for (k = 0; k < d.nr; k++)
		printf("%zu %zu %zu\n", d.runs[k].a, d.runs[k].b, d.runs[k].len);
	tokdiff_release(&d);
	free(ha);
	free(hb);
	strbuf_release(&a);
	strbuf_release(&b);
	return 0;
}
