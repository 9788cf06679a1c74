/* A map of strings to numbers (open addressing; keys are copied). */
#ifndef SMAP_H
#define SMAP_H

#include <stddef.h>

struct smap {
	struct smap_entry {
		char *key;
		size_t val;
	} *v;
	size_t nr, cap;
};

/* The value of key, or NULL. */
size_t *smap_get(struct smap *m, const char *key);
/* The value of key, inserted as val when it is new (*isnew says which). */
size_t *smap_put(struct smap *m, const char *key, size_t val, int *isnew);
void smap_release(struct smap *m);

#endif
