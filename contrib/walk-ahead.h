/*
 * The versions of a blamed file, read ahead on a thread of their own:
 * each version's hashes (as hash_lines() gives them) and its tokens'
 * lines (opts' lines reader), for the walk of one file (walk.c).
 */
#ifndef WALK_AHEAD_H
#define WALK_AHEAD_H

#include "replay.h"

#include <stddef.h>
#include <stdint.h>

struct read_ahead;

/* A reader of the token repository dir; NULL when no thread can be started. */
struct read_ahead *read_ahead_start(const char *dir, const struct replay_options *opts);
/* The version of path at commit id (of the token repository) will be wanted: read it when the thread can. */
void read_ahead_want(struct read_ahead *ra, const char *id, const char *path);
/*
 * The version of path at id, read ahead (waited for, if it is being
 * read): 1 with its hashes, lines (NULL: not known) and count, now the
 * caller's, when its blob id is oid; 0 when it was not asked for or not
 * read yet (the thread then skips it), or is another blob.
 */
int read_ahead_take(struct read_ahead *ra, const char *id, const char *path, const unsigned char *oid,
		    uint64_t **hash, uint32_t **line, size_t *nr);
/* Stops the thread and frees everything (ra may be NULL). */
void read_ahead_stop(struct read_ahead *ra);

#endif
