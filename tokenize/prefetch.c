/* The blobs a --no-data stream will want, asked ahead (see prefetch.h). */
#include "prefetch.h"
#include "sha1.h"

#include <string.h>

/* A line (its first len bytes, perhaps not all of it) at input offset at. */
static void prefetch_line(struct prefetch *pf, const char *p, size_t len, uintmax_t at)
{
	static const char *const modes[] = { "100644 ", "100755 ", "644 ", "755 ", "120000 " };
	size_t i, k;

	if (len < 2 || p[0] != 'M' || p[1] != ' ')
		return;
	for (i = 0; i < sizeof(modes) / sizeof(*modes); i++) {
		k = strlen(modes[i]);
		if (len >= 2 + k + 41 && !memcmp(p + 2, modes[i], k))
			break;
	}
	if (i == sizeof(modes) / sizeof(*modes) || p[2 + k + 40] != ' ' ||
	    pf->nr == PREFETCH_HINTS)
		return;
	i = (pf->first + pf->nr) % PREFETCH_HINTS;
	if (hex_to_oid(p + 2 + k, 40, pf->hint[i].oid))
		return;
	pf->hint[i].at = at;
	pf->nr++;
}

void prefetch_scan(struct prefetch *pf, const char *p, size_t n, uintmax_t at)
{
	const char *start = p, *end = p + n, *nl;

	if (!pf->active)
		return;
	if (pf->carrying) {
		size_t k;

		nl = memchr(p, '\n', (size_t)(end - p));
		k = (size_t)((nl ? nl : end) - p);
		if (k > PREFETCH_LINE - pf->carry_len)
			k = PREFETCH_LINE - pf->carry_len;
		memcpy(pf->carry + pf->carry_len, p, k);
		pf->carry_len += k;
		if (!nl)
			return;	/* the line goes on into the next block */
		prefetch_line(pf, pf->carry, pf->carry_len, pf->carry_at);
		pf->carrying = 0;
		p = nl + 1;
	}
	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		prefetch_line(pf, p, (size_t)(nl - p), at + (uintmax_t)(p - start));
		p = nl + 1;
	}
	if (p < end) {
		pf->carrying = 1;
		pf->carry_len = (size_t)(end - p) < PREFETCH_LINE ? (size_t)(end - p) : PREFETCH_LINE;
		memcpy(pf->carry, p, pf->carry_len);
		pf->carry_at = at + (uintmax_t)(p - start);
	}
}

void prefetch_start(struct prefetch *pf, const char *p, size_t n, uintmax_t at)
{
	if (pf->active)
		return;
	pf->active = 1;
	pf->nr = 0;
	pf->carrying = 0;
	prefetch_scan(pf, p, n, at);
}

void prefetch_stop(struct prefetch *pf)
{
	pf->active = 0;
	pf->nr = 0;
	pf->carrying = 0;
}

void prefetch_ask(struct prefetch *pf, struct catfile *cf, uintmax_t parsed,
		  int (*known)(const unsigned char *oid, void *data), void *data)
{
	if (cf->asked_nr > CATFILE_AHEAD / 2)
		return;
	while (pf->nr && cf->asked_nr < CATFILE_AHEAD) {
		const struct prefetch_hint *h = &pf->hint[pf->first];

		pf->first = (pf->first + 1) % PREFETCH_HINTS;
		pf->nr--;
		if (h->at < parsed || known(h->oid, data))
			continue;
		catfile_ask_ahead(cf, h->oid);
	}
}
