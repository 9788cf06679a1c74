/*
 * The forward pass's own structures, shared by its files and by no one
 * else (as Git keeps blame.c's): replay.c replays the commits in order,
 * replay-log.c reads `git log` into each commit's changes,
 * replay-checkpoint.c saves and loads the state at the tip, and
 * replay-tree.c lists a commit's tree.  The rule that attributes a
 * commit's tokens is attribute.c's, shared with the walk (walk.c).
 */
#ifndef REPLAY_INTERNAL_H
#define REPLAY_INTERNAL_H

#include "replay.h"
#include "attribute.h"
#include "tokdiff.h"
#include "../tokenize/catfile.h"
#include "../tokenize/smap.h"
#include "../tokenize/strbuf.h"

/* What the pass attributes: lines, by Git's diffs, or tokens, by the engine's rule. */
enum replay_unit { REPLAY_LINES, REPLAY_TOKENS };
/* Whether a pass may start from the first commit, or only from a checkpoint that fits. */
enum replay_start { REPLAY_FROM_ANYWHERE, REPLAY_FROM_CHECKPOINT_ONLY };

struct rcommit {
	char id[41];
	uint32_t *parents;
	unsigned nr_parents, children_left;
	int ignored;              /* its changes are attributed as if it had not made them */
	size_t *own_paths;        /* the paths where it has tokens (lines) of its own, in the order made */
	uint32_t *own_ids;        /* the owner of each (r->owners) */
	size_t nr_own_paths, alloc_own_paths, alloc_own_ids;
	struct version **files;  /* by path id; NULL: no file; valid while replayed and needed */
	size_t nr_files;
	int known_only;           /* from a checkpoint, as an origin only: no files, never a parent */
	int outside;              /* older than the checkpoint, a parent of a commit since: pending files */
	int keep;                 /* a fork point of another branch: its files go into the checkpoint */
};

/* One entry of `git log --raw` and the hunks of its patch. */
struct change {
	char status;
	size_t src, dst;          /* path ids */
	char old_blob[41], new_blob[41];
	size_t first_hunk, nr_hunks;
	int patched;              /* its hunks are read (a merge's come from its combined patch) */
};

struct hunk {
	size_t old_start, old_nr, new_start, new_nr;
};

/*
 * A version the token replay made at the commit being replayed, whose
 * tokens not found in a parent wait for the search for moved ones: with
 * the file of the first parent it was diffed against, and that diff.
 */
struct fresh {
	struct version *v;
	size_t path;
	const struct version *old;   /* NULL: a new file */
	struct tokdiff d;
};

/* The diff of a commit against one of its parents. */
struct group {
	size_t first_change, nr_changes;
	int parent;               /* index among the parents; -1: not yet known */
};

/*
 * What a version's origin names: the commit that wrote the token (the
 * line) and the path it wrote it at, which renames and moves keep, as
 * git blame's porcelain names the file a line came from.  A token that
 * came there as moved or copied code (find_moves) also names its
 * mover: the commit, and the path, that a replay without moves would
 * give it (the newest commit that moved it, or for an ignored commit's,
 * the neighbour's), so that one replay gives both attributions: the
 * line blame beside it follows no moves (report).  NO_COMMIT: the same
 * as commit and path.
 */
struct owner {
	uint32_t commit, mover;
	size_t path, mover_path;
};

struct replay {
	const char *dir;          /* the repository */
	struct owner *owners;     /* by the origins of the versions */
	size_t nr_owners, alloc_owners;
	struct smap moved_owners; /* "COMMIT PATH MOVER MOVER-PATH" -> owners[] of the moved (moved_owner) */
	struct rcommit *commits;
	size_t nr_commits;
	struct smap commit_index, path_index;
	char **paths;
	size_t nr_paths, alloc_paths;
	uint32_t tip;

	/* the commit being read */
	struct change *changes;
	size_t nr_changes, alloc_changes;
	struct hunk *hunks;
	size_t nr_hunks, alloc_hunks;
	struct group *groups;
	size_t nr_groups, alloc_groups;

	/* the token replay */
	enum replay_unit unit;
	struct replay_options opts;
	struct catfile cf;
	struct strbuf content;
	struct fresh *fresh;
	size_t nr_fresh, alloc_fresh;
	/*
	 * the bytes of hashes and lines read since the last count (freed
	 * ones too): past the budget, the versions' own are counted, and
	 * the idle ones keep their origins only and are read again when a
	 * diff needs them, so that a tree of any size is held at 4 bytes a
	 * token (unload_idle)
	 */
	size_t loaded_bytes, loaded_budget;
	uint32_t nr_loads;        /* the last version's loaded_seq */
	uint32_t nr_counts;       /* the last count's mark */
	size_t nr_unloaded;       /* versions unloaded so far */

	/*
	 * with a checkpoint: the commits before first_new come from it (or
	 * are older parents of the commits since), and are not replayed;
	 * nor are those from end_new on, origins the walk named
	 */
	size_t first_new, end_new;
	uint32_t base;            /* the checkpoint's tip */
	char not_base[42];        /* "^" and its id: what git is told to leave out */
	struct change_record *records;  /* every change reported, for the next checkpoint */
	size_t nr_records, alloc_records;
	struct progress *progress;  /* opts.progress_title's display */
	struct walk *walk;        /* the walk that resolves pending files (opened on first use) */
	size_t nr_looked_back;    /* pending files the walk (or git blame) resolved */
	uint32_t sample;          /* the commit on_sample is told of */
};

/* A change reported through on_change, kept with a checkpoint. */
struct change_record {
	uint32_t commit;
	size_t path, added, removed;
};

_Noreturn void die_replay(const struct replay *r, const char *commit, const char *what);
size_t path_id(struct replay *r, const char *path);
struct version *file_at(const struct rcommit *c, size_t path);
void set_file(struct rcommit *c, size_t path, struct version *v);
/* The owner of the tokens commit ci wrote at path: the origin they are given. */
uint32_t owner_of(struct replay *r, uint32_t ci, size_t path);
/*
 * The owner of a token that owner o's commit wrote at its path and that
 * commit mover moved (copied) to mover_path: o's own when the mover is
 * o's commit and path.
 */
uint32_t moved_owner(struct replay *r, uint32_t o, uint32_t mover, size_t mover_path);
void add_record(struct replay *r, uint32_t ci, size_t path, size_t added, size_t removed);

/* replay.c: replays commit ci, whose changes against its parents are read. */
void replay_next(struct replay *r, uint32_t ci);

/* replay-log.c: reads git log of tip's history (since the checkpoint) and replays each commit. */
void replay_log(struct replay *r, const char *dir, const char *tip, int ignore_ws);
/*
 * The line replay: reads the hunks of a change of the commit being
 * replayed that its merge's combined patch did not give (git diff of its
 * two blobs), when it has none yet.
 */
void replay_patch(struct replay *r, const char *commit, struct change *ch);

/* replay-checkpoint.c */
/*
 * Marks the fork points whose files the checkpoint at tip keeps: the
 * commits of tip's history that a branch of the repository not merged
 * into tip grew from, when r holds their files and they differ from
 * tip's little (a budget of files in all).
 */
void checkpoint_choose_forks(struct replay *r, const char *dir);
void checkpoint_save(struct replay *r);
int checkpoint_load(struct replay *r, const char *dir, const char *tip);

/*
 * replay-tree.c: every file of the tree of commit in the repository at
 * dir (or those of paths, when given), with its content; a submodule
 * with none.
 */
typedef void tree_blob_fn(const char *path, const char *blob, const char *content, size_t len,
			  int submodule, void *data);
void tree_blobs(const char *dir, const char *commit, const char **paths, size_t nr_paths,
		tree_blob_fn *fn, void *data);
/* git's line count: a last line without LF is one too */
size_t count_lines(const char *p, size_t n);

#endif
