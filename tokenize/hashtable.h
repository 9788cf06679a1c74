/*
 * One open-addressing hash table for every map and set: linear probing in
 * a power-of-two array of slots that hold the entries themselves, doubled
 * before an insertion would fill half of it.
 *
 * What an entry is, its size, its hash and which slots hold one, is the
 * table's type (struct hashtable_type), given with every call and not
 * kept in the table, so that a table of all zero bytes is an empty one
 * and may sit in any structure that is zeroed to start.  A free slot is
 * all zero bytes.
 *
 * A removed entry stays as a tombstone, which no key matches and which
 * keeps the probe chains of the others whole, until the table grows.
 * Where the entries are depends only on their hashes and the order in
 * which they came: a walk over the slots (hashtable_next) lists the same
 * entries in the same order, run after run.
 */
#ifndef HASHTABLE_H
#define HASHTABLE_H

#include <stddef.h>

struct hashtable {
	void *slots;
	size_t nr;          /* entries, tombstones not counted */
	size_t used;        /* slots that are not free: entries and tombstones */
	size_t alloc;       /* slots, a power of two; 0 until the first insertion */
};

#define HASHTABLE_INIT { NULL, 0, 0, 0 }

struct hashtable_type {
	size_t entry_size;
	size_t first_alloc;                 /* the slots of the first allocation, a power of two */
	size_t (*hash)(const void *entry);  /* the same as its key's */
	int (*in_use)(const void *entry);   /* whether the slot holds an entry or a tombstone */
	/* whether an entry in use is a tombstone (NULL: the table has none) */
	int (*removed)(const void *entry);
	/* frees what an entry holds and makes it a tombstone (NULL: none is removed) */
	void (*remove)(void *entry);
};

/* Whether entry is the one key names. */
typedef int hashtable_match_fn(const void *entry, const void *key);

/* The entry key names, whose hash is hash; NULL if there is none. */
void *hashtable_find(const struct hashtable *t, const struct hashtable_type *type,
		     size_t hash, hashtable_match_fn *match, const void *key);

/*
 * The entry key names, or (*isnew set) the free slot where it goes, which
 * the caller fills in at once: it counts as an entry.  The table grows
 * first, if one more entry would fill half of it.
 */
void *hashtable_insert(struct hashtable *t, const struct hashtable_type *type,
		       size_t hash, hashtable_match_fn *match, const void *key, int *isnew);

/* Removes the entry key names, if there is one. */
void hashtable_remove(struct hashtable *t, const struct hashtable_type *type,
		      size_t hash, hashtable_match_fn *match, const void *key);

/*
 * The entries one after the other in the order of the slots, tombstones
 * left out: *pos starts at 0; NULL after the last.
 */
void *hashtable_next(const struct hashtable *t, const struct hashtable_type *type, size_t *pos);

/* Frees the slots; what the entries hold is the caller's to free first. */
void hashtable_release(struct hashtable *t);

#endif
