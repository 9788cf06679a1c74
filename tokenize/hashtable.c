/* One open-addressing hash table for every map and set (see hashtable.h). */
#include "hashtable.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

static void *slot_at(const struct hashtable *t, const struct hashtable_type *type, size_t i)
{
	return (char *)t->slots + i * type->entry_size;
}

static int is_tombstone(const struct hashtable_type *type, const void *entry)
{
	return type->removed && type->removed(entry);
}

/* The entry key names, or the free slot that ends its probe chain. */
static void *probe(const struct hashtable *t, const struct hashtable_type *type,
		   size_t hash, hashtable_match_fn *match, const void *key)
{
	size_t mask = t->alloc - 1, i;

	for (i = hash & mask;; i = (i + 1) & mask) {
		void *e = slot_at(t, type, i);

		if (!type->in_use(e) || (!is_tombstone(type, e) && match(e, key)))
			return e;
	}
}

/* Doubles the slots, putting each entry where its hash leads; tombstones go. */
static void grow(struct hashtable *t, const struct hashtable_type *type)
{
	void *old = t->slots;
	size_t old_alloc = t->alloc, i;

	t->alloc = old_alloc ? st_mult(old_alloc, 2) : type->first_alloc;
	t->slots = xcalloc(t->alloc, type->entry_size);
	t->used = 0;
	for (i = 0; i < old_alloc; i++) {
		const void *e = (const char *)old + i * type->entry_size;
		size_t j;

		if (!type->in_use(e) || is_tombstone(type, e))
			continue;
		for (j = type->hash(e) & (t->alloc - 1); type->in_use(slot_at(t, type, j));
		     j = (j + 1) & (t->alloc - 1))
			;
		memcpy(slot_at(t, type, j), e, type->entry_size);
		t->used++;
	}
	free(old);
}

void *hashtable_find(const struct hashtable *t, const struct hashtable_type *type,
		     size_t hash, hashtable_match_fn *match, const void *key)
{
	void *e;

	if (!t->alloc)
		return NULL;
	e = probe(t, type, hash, match, key);
	return type->in_use(e) ? e : NULL;
}

void *hashtable_insert(struct hashtable *t, const struct hashtable_type *type,
		       size_t hash, hashtable_match_fn *match, const void *key, int *isnew)
{
	void *e;

	if (2 * (t->used + 1) > t->alloc)
		grow(t, type);
	e = probe(t, type, hash, match, key);
	*isnew = !type->in_use(e);
	if (*isnew) {
		t->nr++;
		t->used++;
	}
	return e;
}

void hashtable_remove(struct hashtable *t, const struct hashtable_type *type,
		      size_t hash, hashtable_match_fn *match, const void *key)
{
	void *e = hashtable_find(t, type, hash, match, key);

	if (!e)
		return;
	type->remove(e);
	t->nr--;
}

void *hashtable_next(const struct hashtable *t, const struct hashtable_type *type, size_t *pos)
{
	while (*pos < t->alloc) {
		void *e = slot_at(t, type, (*pos)++);

		if (type->in_use(e) && !is_tombstone(type, e))
			return e;
	}
	return NULL;
}

void hashtable_release(struct hashtable *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
