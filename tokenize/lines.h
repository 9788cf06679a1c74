#ifndef LINES_H
#define LINES_H

#include <stddef.h>

/* The number of LF bytes in the n bytes at p. */
size_t count_newlines(const void *p, size_t n);

#endif
