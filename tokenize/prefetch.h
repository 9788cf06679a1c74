/*
 * The blobs a stream of git fast-export --no-data will want, asked of git
 * cat-file ahead of the parser.  The input is read in blocks well ahead
 * of the parser; the M lines there that name a blob by object id are
 * kept as hints, in input order, each with the offset of its line, and
 * asked of a `git cat-file --batch` up to CATFILE_AHEAD at a time
 * (catfile.h), so that it inflates the next blobs while the filter
 * tokenizes this one.  A line that a block cuts is carried over, as much
 * of it as tells what it is.  A wrong guess (a message line that looks
 * like an M line) costs only the reading of its answer.
 *
 * A module of its own, though the filter alone uses it, so that the
 * filter's reader is about the stream, and guessing ahead is here.
 */
#ifndef PREFETCH_H
#define PREFETCH_H

#include "catfile.h"

#include <stddef.h>
#include <stdint.h>

#define PREFETCH_HINTS 4096
#define PREFETCH_LINE 64        /* "M 100644 " + 40 hex digits + " ", and some */

struct prefetch {
	int active;
	struct prefetch_hint {
		unsigned char oid[20];
		uintmax_t at;           /* the offset of its line in the input */
	} hint[PREFETCH_HINTS];
	size_t first, nr;
	int carrying;                   /* the last block ended inside a line */
	char carry[PREFETCH_LINE];      /* its first bytes */
	size_t carry_len;
	uintmax_t carry_at;             /* its offset */
};

/*
 * Takes hints from a block of the input just read: n bytes at p, at the
 * offset at of the input (nothing unless active).
 */
void prefetch_scan(struct prefetch *pf, const char *p, size_t n, uintmax_t at);

/*
 * Starts taking hints, from the rest of the block read (n bytes at p, at
 * offset at), unless it has already.
 */
void prefetch_start(struct prefetch *pf, const char *p, size_t n, uintmax_t at);
/* Stops, forgetting the hints: the stream carries its blobs. */
void prefetch_stop(struct prefetch *pf);

/*
 * Asks cf ahead for the blobs of the hints past the parser (at offset
 * parsed of the input), but those known() says the caller has; once half
 * of the questions asked ahead are answered, so that they go out together.
 */
void prefetch_ask(struct prefetch *pf, struct catfile *cf, uintmax_t parsed,
		  int (*known)(const unsigned char *oid, void *data), void *data);

#endif
