/* A map of strings to numbers: open addressing, FNV-1a, linear probing. */
#include "smap.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

static size_t str_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct smap_entry *smap_slot(struct smap *m, const char *key)
{
	size_t i = str_hash(key) & (m->cap - 1);

	while (m->v[i].key && strcmp(m->v[i].key, key))
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

size_t *smap_get(struct smap *m, const char *key)
{
	struct smap_entry *e;

	if (!m->cap)
		return NULL;
	e = smap_slot(m, key);
	return e->key ? &e->val : NULL;
}

size_t *smap_put(struct smap *m, const char *key, size_t val, int *isnew)
{
	struct smap_entry *e;

	if (2 * (m->nr + 1) > m->cap) {
		struct smap_entry *old = m->v;
		size_t oldcap = m->cap, i;

		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = xcalloc(m->cap, sizeof(*m->v));
		for (i = 0; i < oldcap; i++)
			if (old[i].key)
				*smap_slot(m, old[i].key) = old[i];
		free(old);
	}
	e = smap_slot(m, key);
	if (isnew)
		*isnew = !e->key;
	if (!e->key) {
		e->key = xstrdup(key);
		e->val = val;
		m->nr++;
	}
	return &e->val;
}

void smap_release(struct smap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->v[i].key);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
