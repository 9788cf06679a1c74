/*
 * Contents held until they are wanted: in memory while they total at
 * most a limit, and past it the oldest in the spill file.  The filter
 * holds each blob of the stream so, from its blob command until the
 * commit that names it is written (fastexport.c).  A content larger than
 * the limit goes to the spill file as its bytes arrive, and is never
 * whole in memory; a spilled content is read back in pieces.
 *
 * The spill file is made by mkstemp() on the first spill and unlinked at
 * once, so that no exit, not even SIGKILL, leaves it behind; it is
 * emptied whenever no content is left in it.
 *
 * A module of its own, though the filter alone uses it, so that the
 * filter's reader is about the stream, and where bytes wait is here.
 */
#ifndef SPILL_H
#define SPILL_H

#include "strbuf.h"

#include <stdint.h>
#include <sys/types.h>

/* One content the store holds, in the structure of what it is the content of. */
struct held {
	char *data;                 /* in memory, else NULL */
	size_t len;
	off_t off;                  /* where it is in the spill file */
	struct held *prev, *next;   /* in memory: oldest first */
	unsigned spilled : 1;       /* in the spill file (data is NULL) */
};

struct spill {
	uintmax_t max_held;         /* bytes in memory, at most */
	size_t max_whole;           /* a larger content is never whole in memory */
	struct held *first, *last;  /* in memory, oldest first */
	uintmax_t bytes;            /* their total size */
	uintmax_t peak;             /* the most it has been, for --stats */

	int fd;                     /* the spill file; -1: not made yet */
	const char *dir;
	off_t end;                  /* bytes written to it */
	uintmax_t live;             /* bytes of the contents in it */
	uintmax_t nr_spilled, bytes_spilled;  /* so far, for --stats */

	/* the content being added, from spill_begin() to spill_end() */
	struct strbuf buf;          /* in memory; when spilling, what is not written yet */
	int spilling;
	off_t start;                /* where it starts in the spill file */
	size_t len;
};

/* The pieces in which contents are written to the spill file. */
#define SPILL_CHUNK ((size_t)1 << 20)

/* A sensible limit: an eighth of the memory this process may use. */
uintmax_t spill_default_max_held(void);

void spill_init(struct spill *s, uintmax_t max_held, size_t max_whole);
/* Frees the contents in memory and closes the spill file. */
void spill_release(struct spill *s);

/*
 * A content begins: count bytes, if counted (else its size is known only
 * at its end); its bytes follow with spill_add(), and spill_end() gives
 * it to h.  Older contents go to the spill file as this one needs room.
 */
void spill_begin(struct spill *s, uintmax_t count, int counted);
void spill_add(struct spill *s, const char *p, size_t n);
void spill_end(struct spill *s, struct held *h);

/* n bytes at off of h's content, which is in the spill file. */
void spill_read(struct spill *s, const struct held *h, size_t off, char *buf, size_t n);

/* Frees what holds h's content, in memory or in the spill file (nothing if neither). */
void spill_forget(struct spill *s, struct held *h);

#endif
