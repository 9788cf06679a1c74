/*
 * Numbers as tokstream's options and inputs write them: each parser
 * exists once, and everything that reads a count or a size calls it.
 */
#ifndef PARSE_H
#define PARSE_H

#include <stdint.h>

/*
 * Reads the decimal digits at p (none: 0) into *v; returns the byte past
 * them, or NULL if their value does not fit in a uintmax_t.
 */
const char *scan_decimal(const char *p, uintmax_t *v);

/* A size as Git's options take one (digits, then k, m or g); -1 if s is not one. */
int parse_size(const char *s, uintmax_t *size);

/* Whether s starts with 40 lowercase hex digits: an object name as Git prints it. */
int is_hex40(const char *s);

/*
 * Whether argv[*i] is the option name with a value, as --name=VALUE or as
 * --name VALUE (then *i moves past VALUE); *value is NULL when the value
 * is missing at the end of argv.
 */
int option_value(const char *name, int argc, char **argv, int *i, const char **value);

#endif
