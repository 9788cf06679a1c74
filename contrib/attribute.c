/*
 * The attribution engine's rule at one commit (see attribute.h): the
 * diff against each parent, moved and copied runs, ignored commits.
 */
#include "attribute.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdlib.h>
#include <string.h>

struct version *new_version(const char *blob, uint64_t *hash, size_t nr, uint32_t origin)
{
	struct version *v = xcalloc(1, sizeof(*v));
	size_t i;

	memcpy(v->blob, blob, 40);
	v->hash = hash;
	v->nr = nr;
	v->origin = xmalloc(st_mult(st_add(nr, 1), sizeof(*v->origin)));
	for (i = 0; i < nr; i++)
		v->origin[i] = origin;
	return v;
}

void version_unref(struct version *v)
{
	if (v && !--v->refs) {
		free(v->origin);
		free(v->hash);
		free(v->line);
		free(v);
	}
}

/* Gives the tokens of nv that the diff against old keeps old's origins (where none is given yet). */
void take_unchanged(struct version *nv, const struct version *old, struct tokdiff *d)
{
	size_t k, i;

	tokdiff_lines(old->hash, old->line, old->nr, nv->hash, nv->line, nv->nr, d);
	for (k = 0; k < d->nr; k++) {
		const struct tokdiff_run *run = &d->runs[k];

		for (i = 0; i < run->len; i++)
			if (nv->origin[run->b + i] == NO_COMMIT)
				nv->origin[run->b + i] = old->origin[run->a + i];
	}
}

/* ---- moved and copied tokens ---- */

#define GRAM_MUL 0x9e3779b97f4a7c15ULL

struct gram {
	uint64_t key;
	uint32_t src;            /* index in the sources; UINT32_MAX: an empty slot */
	uint32_t pos;
};

struct gram_index {
	struct gram *slots;
	size_t cap;
	const struct version **src;
	size_t nr_src;
	size_t n;                /* the run length */
};

/* The hash of the n tokens at h: a polynomial, so that it rolls. */
static uint64_t gram_hash(const uint64_t *h, size_t n)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n; i++)
		x = x * GRAM_MUL + h[i];
	return x;
}

/*
 * The grams of the runs of fresh versions that the search will look up:
 * a set of their hashes (0 marks an empty slot; a gram whose hash is 0
 * is kept as 1, which can only add an entry that never matches).
 */
struct gram_set {
	uint64_t *slots;
	size_t cap;
};

static uint64_t set_key(uint64_t x)
{
	return x ? x : 1;
}

static int gram_set_has(const struct gram_set *set, uint64_t x)
{
	uint64_t h = set_key(x);
	size_t at = (size_t)(h ^ (h >> 29)) & (set->cap - 1);

	while (set->slots[at] && set->slots[at] != h)
		at = (at + 1) & (set->cap - 1);
	return set->slots[at] == h;
}

static void gram_set_build(struct gram_set *set, struct version **fresh, size_t nr_fresh, size_t n)
{
	size_t total = 0, k;

	set->cap = 16;
	for (k = 0; k < nr_fresh; k++)
		total += fresh[k]->nr;
	while (set->cap < total * 2)
		set->cap *= 2;
	set->slots = xcalloc(set->cap, sizeof(*set->slots));
	for (k = 0; k < nr_fresh; k++) {
		const struct version *v = fresh[k];
		size_t i = 0;

		while (i < v->nr) {
			size_t end = i, j;

			if (v->origin[i] != NO_COMMIT) {
				i++;
				continue;
			}
			while (end < v->nr && v->origin[end] == NO_COMMIT)
				end++;
			for (j = i; j + n <= end; j++) {
				uint64_t h = set_key(gram_hash(v->hash + j, n));
				size_t at = (size_t)(h ^ (h >> 29)) & (set->cap - 1);

				while (set->slots[at] && set->slots[at] != h)
					at = (at + 1) & (set->cap - 1);
				set->slots[at] = h;
			}
			i = end;
		}
	}
}

/*
 * Calls fn for every gram of the sources (in order, each from its first
 * token) that the set holds, with its hash, source and place.
 */
static void grams_in_set(const struct version **src, size_t nr_src, size_t n, const struct gram_set *set,
			 void (*fn)(uint64_t x, size_t s, size_t p, void *data), void *data)
{
	uint64_t top = 1;
	size_t s, p;

	for (p = 1; p < n; p++)
		top *= GRAM_MUL;
	for (s = 0; s < nr_src; s++) {
		const struct version *v = src[s];
		uint64_t x;

		if (v->nr < n)
			continue;
		x = gram_hash(v->hash, n);
		for (p = 0; ; p++) {
			if (gram_set_has(set, x))
				fn(x, s, p, data);
			if (p + n >= v->nr)
				break;
			x = (x - v->hash[p] * top) * GRAM_MUL + v->hash[p + n];
		}
	}
}

static void count_gram(uint64_t x, size_t s, size_t p, void *data)
{
	(void)x;
	(void)s;
	(void)p;
	(*(size_t *)data)++;
}

/* The places of one gram that the search tries at most (gram_longest): no more are kept. */
#define MOVE_TRIES 16

static void insert_gram(uint64_t x, size_t s, size_t p, void *data)
{
	struct gram_index *gi = data;
	size_t i = (size_t)(x ^ (x >> 29)) & (gi->cap - 1), same = 0;

	while (gi->slots[i].src != UINT32_MAX) {
		if (gi->slots[i].key == x && ++same >= MOVE_TRIES)
			return;
		i = (i + 1) & (gi->cap - 1);
	}
	gi->slots[i].key = x;
	gi->slots[i].src = (uint32_t)s;
	gi->slots[i].pos = (uint32_t)p;
}

/*
 * The index of the grams of the sources that the fresh runs have: only
 * those can ever match, and leaving the others out changes no answer,
 * since the entries of one key are met in the order they went in,
 * whatever else the table holds.  So the index is as small as the
 * search needs, however large the files the commit changed.
 */
static void gram_index_build(struct gram_index *gi, const struct version **src, size_t nr_src, size_t n,
			     const struct gram_set *set)
{
	size_t total = 0, p, cap = 16;

	grams_in_set(src, nr_src, n, set, count_gram, &total);
	while (cap < total * 2)
		cap *= 2;
	gi->slots = xmalloc(st_mult(cap, sizeof(*gi->slots)));
	for (p = 0; p < cap; p++)
		gi->slots[p].src = UINT32_MAX;
	gi->cap = cap;
	gi->src = src;
	gi->nr_src = nr_src;
	gi->n = n;
	grams_in_set(src, nr_src, n, set, insert_gram, gi);
}

/*
 * The longest run of tokens of v from j (up to end) that a source has,
 * at least gi->n long: its length (0: none), with *src and *pos.  Of the
 * places a run starts in, the first 16 are tried: a run repeated more
 * often than that is boilerplate, which any of them explains.
 */
static size_t gram_longest(const struct gram_index *gi, const struct version *v, size_t j, size_t end,
			   size_t *src, size_t *pos)
{
	uint64_t x = gram_hash(v->hash + j, gi->n);
	size_t i = (size_t)(x ^ (x >> 29)) & (gi->cap - 1), best = 0, tries = 0;

	for (; gi->slots[i].src != UINT32_MAX && tries < MOVE_TRIES; i = (i + 1) & (gi->cap - 1)) {
		const struct gram *g = &gi->slots[i];
		const struct version *s;
		size_t len = 0;

		if (g->key != x)
			continue;
		tries++;
		s = gi->src[g->src];
		while (j + len < end && g->pos + len < s->nr && s->hash[g->pos + len] == v->hash[j + len])
			len++;
		if (len >= gi->n && len > best) {
			best = len;
			*src = g->src;
			*pos = g->pos;
		}
	}
	/*
	 * A short run found in several places is as likely a repeated idiom
	 * as moved code: it counts only where it is the one place.
	 */
	if (best < MOVE_ANYWHERE && tries > 1)
		return 0;
	return best;
}

/* How far extend_move() looks past a token inserted, removed or replaced, and how many tokens after it must agree. */
#define MOVE_GAP 4
#define MOVE_AGREE 3

/*
 * Whether, dir steps (+1 or -1) at a time from j in v and q in s, the
 * next MOVE_AGREE tokens (fewer where v's unclaimed tokens or s end
 * first, but at least one) are the same.
 */
static int moves_agree(const struct version *v, long j, const struct version *s, long q, int dir)
{
	int t;

	for (t = 0; t < MOVE_AGREE; t++, j += dir, q += dir) {
		if (j < 0 || (size_t)j >= v->nr || v->origin[j] != NO_COMMIT || q < 0 || (size_t)q >= s->nr)
			return t > 0;
		if (v->hash[j] != s->hash[q])
			return 0;
	}
	return 1;
}

/*
 * A moved run (v from j, s from q) goes on, dir steps at a time, past
 * what the move changed: a `const` inserted, an argument removed, a name
 * replaced.  The tokens that agree again after at most MOVE_GAP of them
 * keep their origins in s; those in between are the commit's own.  Stops
 * at a token already claimed or where nothing agrees.
 */
static void extend_move(struct version *v, long j, const struct version *s, long q, int dir)
{
	while (j >= 0 && (size_t)j < v->nr && v->origin[j] == NO_COMMIT && q >= 0 && (size_t)q < s->nr) {
		long skip, dj = 0, dq = 0;

		if (v->hash[j] == s->hash[q]) {
			v->origin[j] = s->origin[q];
			j += dir;
			q += dir;
			continue;
		}
		for (skip = 1; skip <= MOVE_GAP && !dj && !dq; skip++) {
			if (moves_agree(v, j + dir * skip, s, q, dir))
				dj = skip;                   /* tokens inserted */
			else if (moves_agree(v, j, s, q + dir * skip, dir))
				dq = skip;                   /* tokens removed */
			else if (moves_agree(v, j + dir * skip, s, q + dir * skip, dir))
				dj = dq = skip;              /* tokens replaced */
		}
		if (!dj && !dq)
			break;
		j += dir * dj;
		q += dir * dq;
	}
}

static int cmp_source(const void *a, const void *b)
{
	return strcmp(((const struct move_source *)a)->path, ((const struct move_source *)b)->path);
}

struct move_index {
	struct gram_index gi;
	const struct version **src;
};

struct move_index *move_index_new(struct move_source *sources, size_t nr_src, size_t min_move,
				  struct version **fresh, size_t nr_fresh)
{
	struct move_index *mi = xcalloc(1, sizeof(*mi));
	struct gram_set set;
	size_t k;

	if (nr_src > 1)
		qsort(sources, nr_src, sizeof(*sources), cmp_source);
	mi->src = xcalloc(nr_src + 1, sizeof(*mi->src));
	for (k = 0; k < nr_src; k++)
		mi->src[k] = sources[k].v;
	gram_set_build(&set, fresh, nr_fresh, min_move);
	gram_index_build(&mi->gi, mi->src, nr_src, min_move, &set);
	free(set.slots);
	return mi;
}

void move_index_free(struct move_index *mi)
{
	if (!mi)
		return;
	free(mi->gi.slots);
	free(mi->src);
	free(mi);
}

int wants_moves(struct version **fresh, size_t nr_fresh, size_t min_move)
{
	size_t k;

	for (k = 0; k < nr_fresh; k++) {
		const struct version *v = fresh[k];
		size_t i, run = 0;

		for (i = 0; i < v->nr; i++) {
			run = v->origin[i] == NO_COMMIT ? run + 1 : 0;
			if (run >= min_move)
				return 1;
		}
	}
	return 0;
}

size_t unclaimed_chain(const struct version *v, size_t i, size_t min_move, int *is_long)
{
	*is_long = 0;
	for (;;) {
		size_t start = i, gap;

		while (i < v->nr && v->origin[i] == NO_COMMIT)
			i++;
		if (i - start >= min_move)
			*is_long = 1;
		for (gap = i; gap < v->nr && v->origin[gap] != NO_COMMIT && gap - i <= MOVE_GAP; gap++)
			;
		if (gap == v->nr || v->origin[gap] != NO_COMMIT)
			return i;
		i = gap;
	}
}

void move_index_find(const struct move_index *mi, struct version **fresh, size_t nr_fresh)
{
	const struct gram_index *gi = &mi->gi;
	size_t n = gi->n, k;

	for (k = 0; k < nr_fresh; k++) {
		struct version *v = fresh[k];
		size_t i = 0;

		while (i < v->nr) {
			size_t end = i, s = 0, pos = 0, len, m;

			if (v->origin[i] != NO_COMMIT) {
				i++;
				continue;
			}
			while (end < v->nr && v->origin[end] == NO_COMMIT)
				end++;
			while (i + n <= end) {
				len = gram_longest(gi, v, i, end, &s, &pos);
				if (!len) {
					i++;
					continue;
				}
				for (m = 0; m < len; m++)
					if (v->origin[i + m] == NO_COMMIT)
						v->origin[i + m] = gi->src[s]->origin[pos + m];
				extend_move(v, (long)i - 1, gi->src[s], (long)pos - 1, -1);
				extend_move(v, (long)(i + len), gi->src[s], (long)(pos + len), 1);
				for (i += len; i < end && v->origin[i] != NO_COMMIT; i++)
					;
			}
			i = end;
		}
	}
}

/*
 * Tokens of the commit's new versions that no parent kept, in runs of at
 * least min_move tokens that a file the commit changed had before it
 * (the same file or another: code moved or copied), keep the origins
 * they had there.  A token inserted into moved code breaks the run
 * there, and stays the commit's own.
 */
void find_moves(struct version **fresh, size_t nr_fresh, struct move_source *sources, size_t nr_src,
		size_t min_move)
{
	struct move_index *mi;

	if (!nr_src || !wants_moves(fresh, nr_fresh, min_move))
		return;
	mi = move_index_new(sources, nr_src, min_move, fresh, nr_fresh);
	move_index_find(mi, fresh, nr_fresh);
	move_index_free(mi);
}

/*
 * An ignored commit's tokens: see attribute.h.  A renamed identifier is
 * the old one's; tokens inserted take those of the token before them (or
 * after, at the start of the file), as git blame gives an ignored
 * commit's lines to nearby lines.
 */
void pass_over_ignored(struct version *v, const struct version *old, const struct tokdiff *d)
{
	size_t pa = 0, pb = 0, k, i;

	if (!old)
		return;
	for (k = 0; k <= d->nr; k++) {
		size_t a = k < d->nr ? d->runs[k].a : old->nr;
		size_t b = k < d->nr ? d->runs[k].b : v->nr;
		size_t na = a - pa, nb = b - pb;

		for (i = 0; i < nb; i++) {
			uint32_t *o = &v->origin[pb + i];

			if (*o != NO_COMMIT)
				continue;
			if (na)
				*o = old->origin[pa + i * na / nb];
			else if (pb + i > 0)
				*o = v->origin[pb + i - 1];
			else if (b < v->nr)
				*o = v->origin[b];
		}
		if (k < d->nr) {
			pa = a + d->runs[k].len;
			pb = b + d->runs[k].len;
		}
	}
}

