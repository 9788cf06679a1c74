#include "strvec.h"
#include "strbuf.h"
#include "usage.h"

#include <stdarg.h>
#include <stdlib.h>

const char *empty_strvec[] = { NULL };

void strvec_init(struct strvec *sv)
{
	sv->v = empty_strvec;
	sv->nr = 0;
	sv->alloc = 0;
}

/* Appends s, which the vector takes as its own. */
static const char *push_owned(struct strvec *sv, char *s)
{
	/* an empty vector's array is the shared empty_strvec: start one of its own */
	if (sv->v == empty_strvec)
		sv->v = NULL;
	ALLOC_GROW(sv->v, st_add(sv->nr, 2), sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
	return s;
}

const char *strvec_push(struct strvec *sv, const char *s)
{
	return push_owned(sv, xstrdup(s));
}

const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return push_owned(sv, strbuf_detach(&sb, NULL));
}

void strvec_pushl(struct strvec *sv, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

void strvec_pushv(struct strvec *sv, const char **items)
{
	for (; *items; items++)
		strvec_push(sv, *items);
}

void strvec_pop(struct strvec *sv)
{
	if (!sv->nr)
		return;
	free((char *)sv->v[--sv->nr]);
	sv->v[sv->nr] = NULL;
}

void strvec_clear(struct strvec *sv)
{
	if (sv->v != empty_strvec) {
		size_t i;

		for (i = 0; i < sv->nr; i++)
			free((char *)sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}
