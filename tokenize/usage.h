/*
 * Errors in Git's style: one line on stderr, "tokstream: fatal: ...",
 * exit status 128 (129 for usage errors).
 */
#ifndef USAGE_H
#define USAGE_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* The program name printed before every message ("tokstream", "tokenize"). */
extern const char *progname;

/*
 * Called by die() before it exits, with die_position_data, to prefix the
 * message with a position (the stream reader names the input line and
 * command).  May be NULL.
 */
extern void (*die_position)(const void *data, char *buf, size_t size);
extern const void *die_position_data;
/* Called by die() just before exit, e.g. to reap child processes. */
extern void (*die_cleanup)(void);
/* When set, die() jumps here instead of exiting (the fuzzing harnesses). */
extern jmp_buf *die_jump;

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void usage_die(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void BUG(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/*
 * a + b and a * b for the sizes of allocations, as Git's: a sum or a
 * product that does not fit a size_t dies, rather than wrap around to a
 * small size that the allocation would take and the caller then write
 * past.  Every size computed for xmalloc() or xrealloc() goes through
 * them (xcalloc() checks its own product).
 */
static inline size_t st_add(size_t a, size_t b)
{
	if (b > SIZE_MAX - a)
		die("size_t overflow: %zu + %zu", a, b);
	return a + b;
}

static inline size_t st_mult(size_t a, size_t b)
{
	if (a && b > SIZE_MAX / a)
		die("size_t overflow: %zu * %zu", a, b);
	return a * b;
}

/* Grow an array of nmemb elements to hold at least want, amortized. */
#define ALLOC_GROW(ptr, want, alloc) do { \
	if ((want) > (alloc)) { \
		size_t alloc_grow_n_ = st_add(st_add((alloc), (alloc) / 2), 16); \
		if (alloc_grow_n_ < (want)) \
			alloc_grow_n_ = (want); \
		(ptr) = xrealloc((ptr), st_mult(alloc_grow_n_, sizeof(*(ptr)))); \
		(alloc) = alloc_grow_n_; \
	} \
} while (0)

#endif
