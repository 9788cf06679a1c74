/* A map of strings to numbers on the one hash table: FNV-1a of the key. */
#include "smap.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* What a removed key's entry points to: no key is this string. */
static char removed_key[1];

static size_t str_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static size_t entry_hash(const void *entry)
{
	return str_hash(((const struct smap_entry *)entry)->key);
}

static int entry_in_use(const void *entry)
{
	return ((const struct smap_entry *)entry)->key != NULL;
}

static int entry_removed(const void *entry)
{
	return ((const struct smap_entry *)entry)->key == removed_key;
}

static void entry_remove(void *entry)
{
	struct smap_entry *e = entry;

	free(e->key);
	e->key = removed_key;
}

static int entry_matches(const void *entry, const void *key)
{
	return !strcmp(((const struct smap_entry *)entry)->key, key);
}

static const struct hashtable_type smap_type = {
	sizeof(struct smap_entry), 64, entry_hash, entry_in_use, entry_removed, entry_remove
};

size_t *smap_get(const struct smap *m, const char *key)
{
	struct smap_entry *e = hashtable_find(&m->table, &smap_type, str_hash(key), entry_matches, key);

	return e ? &e->val : NULL;
}

size_t *smap_put(struct smap *m, const char *key, size_t val, int *isnew)
{
	int added;
	struct smap_entry *e = hashtable_insert(&m->table, &smap_type, str_hash(key),
						entry_matches, key, &added);

	if (added) {
		e->key = xstrdup(key);
		e->val = val;
	}
	if (isnew)
		*isnew = added;
	return &e->val;
}

void smap_remove(struct smap *m, const char *key)
{
	hashtable_remove(&m->table, &smap_type, str_hash(key), entry_matches, key);
}

const struct smap_entry *smap_next(const struct smap *m, size_t *pos)
{
	return hashtable_next(&m->table, &smap_type, pos);
}

void smap_release(struct smap *m)
{
	size_t pos = 0;
	struct smap_entry *e;

	while ((e = hashtable_next(&m->table, &smap_type, &pos)))
		free(e->key);
	hashtable_release(&m->table);
}
