/*
 * The diff of two token sequences, made for views: files of tens of
 * thousands of short lines that repeat endlessly ("(", ";", "{").
 *
 * Tokens are compared by a 64-bit hash of their text.  The diff anchors
 * on the longest run around the rarest token (histogram) and recurses
 * into what lies on either side.  It has no cost cut-off: however large
 * a region, it is aligned on what is rare in it, never on the count of
 * matching ";".
 */
#ifndef TOKDIFF_H
#define TOKDIFF_H

#include <stddef.h>
#include <stdint.h>

/* A run of tokens that is the same on both sides: a[a .. a+len) = b[b .. b+len). */
struct tokdiff_run {
	size_t a, b, len;
};

struct tokdiff {
	struct tokdiff_run *runs;   /* in order on both sides, not touching */
	size_t nr, alloc;
};

/* The runs a and b share, in out (emptied first). */
void tokdiff(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, struct tokdiff *out);

/*
 * The same, anchored first on the lines of the original files: a_line[i]
 * is the line token a[i] starts on (and so for b).  A line that is in
 * both, whitespace aside, keeps all its tokens; the tokens of the lines
 * that are not are then diffed token by token.  Without the lines of
 * either side (NULL), tokdiff().
 */
void tokdiff_lines(const uint64_t *a, const uint32_t *a_line, size_t na,
		   const uint64_t *b, const uint32_t *b_line, size_t nb, struct tokdiff *out);
void tokdiff_release(struct tokdiff *d);

/* The hash of a token; with ignore_ws, of its text less whitespace. */
uint64_t token_hash(const char *s, size_t len, int ignore_ws);

/*
 * The hash of each line of a view (the last one may lack its LF), as git
 * counts lines: *nr of them, in a new array.
 */
uint64_t *hash_lines(const char *buf, size_t len, int ignore_ws, size_t *nr);

#endif
