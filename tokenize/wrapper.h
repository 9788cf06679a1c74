/*
 * Writing files safely: each helper exists once, everything calls it.
 */
#ifndef WRAPPER_H
#define WRAPPER_H

#include <stddef.h>

/* Writes path through a temporary file and a rename, never through a symlink; dies on error. */
void write_atomic(const char *path, const char *buf, size_t len);

/*
 * Writes all len bytes of buf to fd, again after a short write or an
 * interrupted one: len, or -1 with errno set.  Every write loop is this.
 */
long write_in_full(int fd, const void *buf, size_t len);

/* Creates the directory path unless it is one already; dies when it cannot. */
void make_dir(const char *path);

/* Frees the nr strings of v, then v itself. */
void free_strings(char **v, size_t nr);

/* qsort()'s order of an array of strings (char *), by strcmp(). */
int cmp_strings(const void *a, const void *b);

#endif
