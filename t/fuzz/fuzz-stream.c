/*
 * libFuzzer harness for the stream parser: any input either gives a
 * stream that ends in "done" (which t/fuzz/run.sh then feeds to git
 * fast-import over the corpus) or a clean fatal error with no "done" at
 * the end of the output; never both, never a crash.
 */
#define _GNU_SOURCE
#include "../../tokenize/usage.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct filter;
struct filter *fuzz_filter_new(void);
void fuzz_filter_reset(struct filter *f);
void fuzz_filter_run(struct filter *f);

/* libFuzzer calls the harness with nothing of its own: what it keeps is here */
static int in_fd = -1, out_fd = -1;
static struct filter *filter;

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			abort();
		p += w;
		n -= (size_t)w;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static jmp_buf env;
	char tail[6];
	off_t len;
	int failed;

	if (in_fd < 0) {
		filter = fuzz_filter_new();
		in_fd = memfd_create("stream-in", 0);
		out_fd = memfd_create("stream-out", 0);
		if (in_fd < 0 || out_fd < 0 || dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0)
			abort();
	}
	if (ftruncate(in_fd, 0) || ftruncate(out_fd, 0))
		abort();
	lseek(in_fd, 0, SEEK_SET);
	write_all(in_fd, data, size);
	lseek(in_fd, 0, SEEK_SET);
	lseek(out_fd, 0, SEEK_SET);

	fuzz_filter_reset(filter);
	die_jump = &env;
	failed = setjmp(env) != 0;
	if (!failed)
		fuzz_filter_run(filter);
	die_jump = NULL;

	len = lseek(out_fd, 0, SEEK_END);
	memset(tail, 0, sizeof(tail));
	if (len >= 6 && pread(out_fd, tail, 6, len - 6) != 6)
		abort();
	if (failed && !memcmp(tail, "\ndone\n", 6)) {
		fprintf(stderr, "fuzz-stream: a fatal error, yet the output ends with done\n");
		abort();
	}
	if (!failed && memcmp(tail, "\ndone\n", 6)) {
		fprintf(stderr, "fuzz-stream: success, yet the output does not end with done\n");
		abort();
	}
	return 0;
}
