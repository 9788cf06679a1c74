/*
 * A growable NULL-terminated vector of strings, as Git's strvec: the
 * arguments of a command built a piece at a time, with no array sized
 * by a guess at how many there will be and no hand-kept count.
 *
 * v is always a NULL-terminated array, empty or not, ready to hand to
 * run_capture(), reader_start() or execvp(); v[nr] is the NULL.  Every
 * string is a copy the vector owns, so what was pushed may be freed or
 * reused at once; strvec_clear() frees them all.
 */
#ifndef STRVEC_H
#define STRVEC_H

#include <stddef.h>

/* What an empty vector's v points to: never written, never freed. */
extern const char *empty_strvec[];

struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT { empty_strvec, 0, 0 }

void strvec_init(struct strvec *sv);

/* Appends a copy of s; returns the copy. */
const char *strvec_push(struct strvec *sv, const char *s);

/* Appends the string fmt formats; returns it. */
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends a copy of each argument before the NULL that ends them. */
void strvec_pushl(struct strvec *sv, ...) __attribute__((sentinel));

/* Appends a copy of each string of the NULL-terminated array items. */
void strvec_pushv(struct strvec *sv, const char **items);

/* Removes the last string, if there is one. */
void strvec_pop(struct strvec *sv);

/* Frees every string and the array: sv is empty, as STRVEC_INIT, to be used again. */
void strvec_clear(struct strvec *sv);

#endif
