/*
 * The attribution engine's rule at one commit, private to the engine:
 * what each token of a file the commit made takes from the commit's
 * parents, from the files it changed (moved and copied code), or from
 * its neighbours (an ignored commit), and what is left its own.
 *
 * The forward pass over a whole tree (replay.c) and the walk back
 * through one file's history (walk.c) both apply this rule and nothing
 * else, so that they give one answer: the rule reads the tokens' hashes
 * only, never who wrote them, and tells where each token comes from by
 * copying the origin the caller put there (a commit, for the forward
 * pass; a place in an older version, for the walk).
 */
#ifndef ATTRIBUTE_H
#define ATTRIBUTE_H

#include "tokdiff.h"

#include <stddef.h>
#include <stdint.h>

/* An origin not given yet: the token is the commit's own unless the rule finds it elsewhere. */
#define NO_COMMIT UINT32_MAX

/*
 * One version of a file: its blob and, for each of its tokens (lines, in
 * the line replay), the hash and where it comes from, and the line of
 * the original file it starts on, which anchors the diff.
 */
struct version {
	char blob[41];
	uint32_t *origin;
	uint64_t *hash;
	uint32_t *line;     /* NULL: not known (the diff then goes token by token) */
	size_t nr;
	unsigned refs;
	/*
	 * The forward pass: the commit and path that made it (whose original
	 * file gives line[]); from a checkpoint, whether hash and line are
	 * still to be read (replay.c, read_lazy).
	 */
	uint32_t maker;
	size_t maker_path;
	int lazy;
	/* the forward pass's memory budget (replay.c, unload_idle): when its hashes were read; counted */
	uint32_t loaded_seq, counted;
	/*
	 * The forward pass from a checkpoint: the file of a commit older
	 * than the checkpoint (maker and maker_path), whose origins are
	 * still to be asked of the walk (replay.c, resolve_pending).
	 */
	int pending;
	/*
	 * The line replay: an ignored commit made this version or one it
	 * took lines from, so that git blame's answer with ignored
	 * revisions needs git blame's own search (report-blame.c).
	 */
	int by_ignored;
};

/* A version of nr tokens with these hashes (taken over), every origin set to origin. */
struct version *new_version(const char *blob, uint64_t *hash, size_t nr, uint32_t origin);
void version_unref(struct version *v);

/*
 * The tokens of nv that the diff against old keeps take old's origins,
 * where none is given yet; the diff in d (emptied first).
 */
void take_unchanged(struct version *nv, const struct version *old, struct tokdiff *d);

/* A file the commit changed, as its first parent had it, that code may have moved from. */
struct move_source {
	const char *path;
	const struct version *v;
};

/* A moved run this long counts wherever it is found; a shorter one only where it is the one place. */
#define MOVE_ANYWHERE 30

/*
 * Tokens of the versions fresh[] that no parent gave, in runs of at
 * least min_move tokens that a source holds, take the origins they have
 * there (moved or copied code).  The sources are sorted by path first,
 * so that the answer is the same however the caller found them.
 */
void find_moves(struct version **fresh, size_t nr_fresh, struct move_source *src, size_t nr_src,
		size_t min_move);

/*
 * The same in steps, for a caller that reads the sources once for
 * several versions looked at in turn (the walk, one suspect after
 * another): whether any of fresh has a run to look for, the index of
 * what the sources (sorted by path, as above) share with fresh's runs,
 * and the search.
 */
struct move_index;
int wants_moves(struct version **fresh, size_t nr_fresh, size_t min_move);
/*
 * The chain of v's unclaimed tokens from i (one unclaimed): its runs and
 * the claimed tokens between them, gaps that extend_move() can cross.
 * Returns where it ends; *is_long whether a run of it is min_move long,
 * the one thing that lets the search give any token of the chain an
 * origin (each chain is searched apart from the others).
 */
size_t unclaimed_chain(const struct version *v, size_t i, size_t min_move, int *is_long);
struct move_index *move_index_new(struct move_source *src, size_t nr_src, size_t min_move,
				  struct version **fresh, size_t nr_fresh);
void move_index_find(const struct move_index *mi, struct version **fresh, size_t nr_fresh);
void move_index_free(struct move_index *mi);

/*
 * An ignored commit's tokens that nothing else explains (v, diffed
 * against old, its first parent's version, in d) take the origins of
 * the tokens they replaced, by position within each changed region;
 * those it only inserted take their neighbour's.
 */
void pass_over_ignored(struct version *v, const struct version *old, const struct tokdiff *d);

#endif
