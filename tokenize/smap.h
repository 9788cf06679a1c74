/*
 * A map of strings to numbers, and so a set of strings: a hashtable
 * (hashtable.h) whose entries own a copy of their keys.
 */
#ifndef SMAP_H
#define SMAP_H

#include "hashtable.h"

#include <stddef.h>

struct smap {
	struct hashtable table;
};

struct smap_entry {
	char *key;
	size_t val;
};

#define SMAP_INIT { HASHTABLE_INIT }

/* The value of key, or NULL. */
size_t *smap_get(const struct smap *m, const char *key);
/* The value of key, inserted as val when it is new (*isnew says which; isnew may be NULL). */
size_t *smap_put(struct smap *m, const char *key, size_t val, int *isnew);
/* Removes key, if it is there. */
void smap_remove(struct smap *m, const char *key);
/* The number of keys. */
static inline size_t smap_count(const struct smap *m)
{
	return m->table.nr;
}
/* The entries one after the other: *pos starts at 0; NULL after the last. */
const struct smap_entry *smap_next(const struct smap *m, size_t *pos);
void smap_release(struct smap *m);

#endif
