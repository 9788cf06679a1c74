/*
 * test-wrapper: the size arithmetic of tokenize/usage.h and the file
 * writing of tokenize/wrapper.c, reached directly, for what the commands
 * cannot be made to do (a size near SIZE_MAX):
 *
 *   test-wrapper size-max          prints SIZE_MAX
 *   test-wrapper st-add A B        prints A + B, or dies on overflow
 *   test-wrapper st-mult A B       prints A * B, or dies on overflow
 *   test-wrapper alloc-grow WANT   grows an array of 16-byte elements to
 *                                  WANT of them with ALLOC_GROW, prints
 *                                  how many it holds
 *   test-wrapper write-atomic PATH writes its input to PATH (write_atomic)
 */
#include "../../tokenize/strbuf.h"
#include "../../tokenize/usage.h"
#include "../../tokenize/wrapper.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: test-wrapper size-max\n"
	"   or: test-wrapper (st-add | st-mult) A B\n"
	"   or: test-wrapper alloc-grow WANT\n"
	"   or: test-wrapper write-atomic PATH <DATA\n";

static size_t size_arg(const char *s)
{
	char *end;
	uintmax_t v;

	errno = 0;
	v = strtoumax(s, &end, 10);
	if (errno || *end || end == s || v > SIZE_MAX)
		die("not a size: '%s'", s);
	return (size_t)v;
}

/* Large enough that a count near SIZE_MAX / 16 of them wraps the size. */
struct element {
	char bytes[16];
};

int main(int argc, char **argv)
{
	progname = "test-wrapper";
	if (argc == 2 && !strcmp(argv[1], "size-max")) {
		printf("%zu\n", (size_t)SIZE_MAX);
	} else if (argc == 4 && !strcmp(argv[1], "st-add")) {
		printf("%zu\n", st_add(size_arg(argv[2]), size_arg(argv[3])));
	} else if (argc == 4 && !strcmp(argv[1], "st-mult")) {
		printf("%zu\n", st_mult(size_arg(argv[2]), size_arg(argv[3])));
	} else if (argc == 3 && !strcmp(argv[1], "alloc-grow")) {
		struct element *v = NULL;
		size_t alloc = 0;

		ALLOC_GROW(v, size_arg(argv[2]), alloc);
		printf("%zu\n", alloc);
		free(v);
	} else if (argc == 3 && !strcmp(argv[1], "write-atomic")) {
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_fd(&sb, 0, 0))
			die_errno("cannot read the input");
		write_atomic(argv[2], sb.buf, sb.len);
		strbuf_release(&sb);
	} else {
		usage_die(usage_text, NULL);
	}
	return 0;
}
