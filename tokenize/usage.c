#include "usage.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *progname = "tokstream";
void (*die_position)(const void *data, char *buf, size_t size);
const void *die_position_data;
void (*die_cleanup)(void);
jmp_buf *die_jump;

static void report(const char *kind, const char *fmt, va_list ap, const char *suffix)
{
	char msg[4096], pos[512] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (die_position && !strcmp(kind, "fatal"))
		die_position(die_position_data, pos, sizeof(pos));
	fflush(stdout);
	fprintf(stderr, "%s: %s: %s%s%s\n", progname, kind, pos, msg, suffix ? suffix : "");
}

static _Noreturn void exit_fatal(int status)
{
	static int dying;

	if (die_jump)
		longjmp(*die_jump, status);
	if (!dying++ && die_cleanup)
		die_cleanup();
	exit(status);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("fatal", fmt, ap, NULL);
	va_end(ap);
	exit_fatal(128);
}

void die_errno(const char *fmt, ...)
{
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), ": %s", strerror(errno));
	va_start(ap, fmt);
	report("fatal", fmt, ap, suffix);
	va_end(ap);
	exit_fatal(128);
}

void usage_die(const char *usage, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		report("error", fmt, ap, NULL);
		va_end(ap);
	}
	fprintf(stderr, "%s", usage);
	exit(129);
}

void BUG(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("BUG", fmt, ap, NULL);
	va_end(ap);
	abort();
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap, NULL);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory: cannot allocate %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		die("out of memory: cannot allocate %zu x %zu bytes", nmemb, size);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die("out of memory: cannot allocate %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory: cannot allocate %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
