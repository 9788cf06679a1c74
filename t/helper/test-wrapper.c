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
 *   test-wrapper strvec OP...      runs each OP on one strvec, then prints
 *                                  its nr and its strings, a line each:
 *                                  push=S, pushf=S (pushes "<S:NR>", NR the
 *                                  count before), pushl=A[,B[,C]],
 *                                  pushv=A[,B...], pop, clear; dies when
 *                                  v is not NULL-terminated after an OP
 *   test-wrapper run-workers N     runs N workers (run_workers), each of
 *                                  which prints a line, "in-process" in it
 *                                  when it ran in the caller's process
 *   test-wrapper run-workers-failing (exit | signal) DIR
 *                                  runs 4 workers, its stdout going to
 *                                  DIR/out: worker 0 prints a line and
 *                                  succeeds; 2 and 3 write their pid to
 *                                  DIR/pid.W, sleep 30 seconds, then
 *                                  write DIR/marker.W; worker 1 waits
 *                                  for all three, then fails (exits 1,
 *                                  or is killed)
 */
#include "../../tokenize/run-command.h"
#include "../../tokenize/strbuf.h"
#include "../../tokenize/strvec.h"
#include "../../tokenize/usage.h"
#include "../../tokenize/wrapper.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: test-wrapper size-max\n"
	"   or: test-wrapper (st-add | st-mult) A B\n"
	"   or: test-wrapper alloc-grow WANT\n"
	"   or: test-wrapper write-atomic PATH <DATA\n"
	"   or: test-wrapper strvec OP...\n"
	"   or: test-wrapper run-workers N\n"
	"   or: test-wrapper run-workers-failing (exit | signal) DIR\n";

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

/*
 * The words of a comma-separated list, in words (which it writes
 * commas over), NULL-terminated: at most max of them, max + 1 slots.
 */
static void split_words(char *list, const char **words, size_t max)
{
	size_t n = 0;
	char *p = list;

	for (;;) {
		if (n == max)
			die("more than %zu words in '%s'", max, list);
		words[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	words[n] = NULL;
}

/*
 * One OP of "test-wrapper strvec".  Each string is pushed from scratch,
 * which is overwritten at once: the vector's strings must be copies.
 */
static void strvec_op(struct strvec *sv, const char *op, struct strbuf *scratch)
{
	const char *words[16] = { NULL };
	const char *arg = strchr(op, '=');
	size_t len = arg ? (size_t)(arg - op) : strlen(op);

	strbuf_reset(scratch);
	if (arg)
		strbuf_addstr(scratch, ++arg);
	if (len == 4 && !strncmp(op, "push", len)) {
		strvec_push(sv, scratch->buf);
	} else if (len == 5 && !strncmp(op, "pushf", len)) {
		strvec_pushf(sv, "<%s:%zu>", scratch->buf, sv->nr);
	} else if (len == 5 && !strncmp(op, "pushl", len)) {
		/* the words after the last given are NULL: the list ends at the first */
		split_words(scratch->buf, words, 3);
		strvec_pushl(sv, words[0], words[1], words[2], NULL);
	} else if (len == 5 && !strncmp(op, "pushv", len)) {
		split_words(scratch->buf, words, sizeof(words) / sizeof(*words) - 1);
		strvec_pushv(sv, words);
	} else if (!strcmp(op, "pop")) {
		strvec_pop(sv);
	} else if (!strcmp(op, "clear")) {
		strvec_clear(sv);
	} else {
		die("unknown strvec operation '%s'", op);
	}
	memset(scratch->buf, 'x', scratch->len);
	if (!sv->v || sv->v[sv->nr])
		die("after '%s': v is not NULL-terminated at nr %zu", op, sv->nr);
}

static pid_t caller;

/* Through stdout, which only the flush before a worker's _exit() writes out. */
static int print_worker(int w, int nr, int to_parent, void *data)
{
	(void)to_parent;
	(void)data;
	printf("worker %d of %d%s\n", w, nr, getpid() == caller ? " in-process" : "");
	return 0;
}

/* Whether path exists and, if want is given, holds it. */
static int file_has(const char *path, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (f) {
		ret = strbuf_read_fd(&sb, fileno(f), 0) == 0 && (!want || strstr(sb.buf, want));
		fclose(f);
	}
	strbuf_release(&sb);
	return ret;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

struct failing {
	const char *how, *dir;
};

/*
 * Worker 1 fails only once the others' lines and pids are out, so that
 * the test knows what the failure stopped and what it must not lose.
 */
static int fail_when_ready(const struct failing *f)
{
	char out[4096], pid2[4096], pid3[4096];
	int i;

	snprintf(out, sizeof(out), "%s/out", f->dir);
	snprintf(pid2, sizeof(pid2), "%s/pid.2", f->dir);
	snprintf(pid3, sizeof(pid3), "%s/pid.3", f->dir);
	for (i = 0; i < 200; i++) {
		if (file_has(out, "worker 0 done") && file_has(pid2, NULL) && file_has(pid3, NULL))
			break;
		pause_ms(50);
	}
	if (!strcmp(f->how, "signal"))
		raise(SIGKILL);
	return 1;
}

static int failing_worker(int w, int nr, int to_parent, void *data)
{
	const struct failing *f = data;
	char path[4096];
	FILE *fp;

	(void)nr;
	(void)to_parent;
	if (w == 0) {
		printf("worker 0 done\n");
		return 0;
	}
	if (w == 1)
		return fail_when_ready(f);
	snprintf(path, sizeof(path), "%s/pid.%d", f->dir, w);
	fp = fopen(path, "w");
	if (!fp || fprintf(fp, "%ld\n", (long)getpid()) < 0 || fclose(fp))
		die_errno("cannot write '%s'", path);
	sleep(30);
	snprintf(path, sizeof(path), "%s/marker.%d", f->dir, w);
	write_atomic(path, "", 0);
	return 0;
}

static int int_arg(const char *s)
{
	size_t v = size_arg(s);

	if (v > 256)
		die("too many workers: %zu", v);
	return (int)v;
}

int main(int argc, char **argv)
{
	caller = getpid();
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
	} else if (argc >= 2 && !strcmp(argv[1], "strvec")) {
		struct strvec sv = STRVEC_INIT;
		struct strbuf scratch = STRBUF_INIT;
		size_t i;

		for (i = 2; i < (size_t)argc; i++)
			strvec_op(&sv, argv[i], &scratch);
		printf("%zu\n", sv.nr);
		for (i = 0; i < sv.nr; i++)
			printf("%s\n", sv.v[i]);
		strvec_clear(&sv);
		strbuf_release(&scratch);
	} else if (argc == 3 && !strcmp(argv[1], "run-workers")) {
		printf("before the workers\n");
		if (run_workers(int_arg(argv[2]), print_worker, NULL, NULL))
			die("run_workers failed");
	} else if (argc == 4 && !strcmp(argv[1], "run-workers-failing") &&
		   (!strcmp(argv[2], "exit") || !strcmp(argv[2], "signal"))) {
		struct failing f = { argv[2], argv[3] };

		printf("before the workers\n");
		if (run_workers(4, failing_worker, NULL, &f))
			die("run_workers failed");
	} else {
		usage_die(usage_text, NULL);
	}
	return 0;
}
