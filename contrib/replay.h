/*
 * Blame of every file of a revision at once, by replaying the history
 * forwards (see replay.c).
 */
#ifndef REPLAY_H
#define REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct replay;
struct smap;


/* What the token replay (the attribution engine) is asked. */
struct replay_options {
	int ignore_ws;          /* tokens that differ only in whitespace are the same */
	size_t min_move;        /* a run of at least this many tokens moved or copied keeps its origin; 0: none */
	const struct smap *ignore;  /* commits whose changes are attributed as if they had not happened */
	/*
	 * The line of the original file each token of the view of path at
	 * commit starts on, in line[]: 0, or -1 when it cannot be known
	 * (the diff then goes token by token).
	 */
	int (*token_lines)(const char *commit, const char *path, size_t nr_tokens, uint32_t *line, void *data);
	/*
	 * The blame of one file (walk_file) with read_ahead: a thread reads
	 * the versions of its history ahead (walk-ahead.h), the tokens' lines
	 * from a reader of the originals of its own, made by lines_reader_new
	 * (NULL: the walk asks token_lines), as token_lines gives them.
	 */
	int read_ahead;
	void *(*lines_reader_new)(void *data);
	int (*lines_reader_lines)(void *reader, const char *commit, const char *path, size_t nr_tokens,
				  uint32_t *line);
	void (*lines_reader_free)(void *reader);
	/* each non-merge commit's tokens added and removed in a file, by the token diff */
	void (*on_change)(const char *commit, const char *path, size_t added, size_t removed, void *data);
	void *data;
	/*
	 * The whole tree's replay only: a file that keeps the state at the
	 * tip (every file's origins, every change reported), so that a
	 * replay of a descendant starts there and replays only the commits
	 * since; and what the state depends on besides the history (the
	 * options), which must match for it to be used.
	 */
	const char *checkpoint, *checkpoint_key;
	/*
	 * A checkpoint whose tip is the tip itself: the one file whose
	 * version is read from it (a blame of that file), the others' not.
	 */
	const char *only_path;
	/* when set, the replay shows its progress under this title (tokenize/progress.h) */
	const char *progress_title;
	/*
	 * The whole tree's replay only: on_sample(r, id, sample_data) once
	 * for each commit of tip's history whose id is a key of samples, as
	 * soon as its files are made (replay_sample_files() reads them;
	 * later they are handed on to its children).  A checkpoint whose
	 * tip is past one of them is not used: the replay then starts from
	 * the first commit, so that it goes through every sample.
	 */
	const struct smap *samples;
	void (*on_sample)(const struct replay *r, const char *commit, void *data);
	void *sample_data;
};

/*
 * Replays the history of tip in the repository at dir (its git directory
 * or work tree); with opts->ignore_ws, lines that differ only in
 * whitespace are unchanged (git blame -w).  The diffs are Git's: this is
 * line blame, as git blame gives it.  Of opts, only ignore_ws, the
 * checkpoint and the samples are read.  Dies when git fails.
 */
struct replay *replay_history(const char *dir, const char *tip, const struct replay_options *opts);

/*
 * The revision of what the engine attributes: caches and saved states
 * made by another are not used.  Raise it with every change that can
 * change an attribution.
 */
#define ENGINE_REVISION 4

/* The minimum run of a moved or copied token sequence, by default (see README "Moves"). */
#define REPLAY_MIN_MOVE 12

/*
 * The attribution engine: the same replay, on a repository of views, with
 * the token diff (tokdiff.h) instead of Git's, and moved and copied
 * tokens found within each commit.
 */
struct replay *replay_tokens(const char *dir, const char *tip, const struct replay_options *opts);

/*
 * The whole tree's token replay at tip when the checkpoint of opts fits
 * (its options are opts', its tip is tip or an ancestor of it), from
 * there; NULL when it does not, without replaying anything.
 */
struct replay *replay_tokens_from_checkpoint(const char *dir, const char *tip, const struct replay_options *opts);

/* The origin of each line of path at the tip (*nr lines); NULL when it is no file there. */
const uint32_t *replay_file(const struct replay *r, const char *path, size_t *nr);

/* The id of the commit that wrote a line (a token) of origin replay_file gave. */
const char *replay_commit(const struct replay *r, uint32_t origin);

/*
 * The commit a replay without moves (min_move 0) gives the same token:
 * the newest commit that moved or copied it there, or replay_commit's.
 */
const char *replay_unmoved_commit(const struct replay *r, uint32_t origin);

/* The path where it wrote it (renames and moves followed, as git blame's porcelain names it). */
const char *replay_origin_path(const struct replay *r, uint32_t origin);

/*
 * In on_sample: every file of the sample, with the commit of each of its
 * lines (tokens, in a view), which replay_commit() names.
 */
typedef void replay_file_fn(const char *path, const uint32_t *origin, size_t nr, void *data);
void replay_sample_files(const struct replay *r, replay_file_fn *fn, void *data);

/* How many commits the replay went through (not those its checkpoint gave). */
size_t replay_nr_commits(const struct replay *r);
/*
 * Whether an ignored commit (opts.ignore) made the file at path, or a
 * version it took lines from: in the line replay, whose lines ignore no
 * revision, git blame's answer with the ignored revisions is then not
 * known to be the replay's (1 also for a path that is no file).
 */
int replay_file_by_ignored(const struct replay *r, const char *path);
/*
 * How many files of commits older than the checkpoint, neither its tip's
 * nor a fork point's it kept, the replay looked up back in their history.
 */
size_t replay_nr_looked_back(const struct replay *r);
/* The versions the token replay unloaded past its memory budget (they are read again when needed). */
size_t replay_nr_unloaded(const struct replay *r);

void replay_free(struct replay *r);

/*
 * Every file of the tree of commit (git ls-tree -r) in the repository at
 * dir, with its lines as git counts them (a last line without LF too)
 * and whether git diff takes it for binary (a NUL in its first 8000
 * bytes); a submodule is one line.  In no particular order.
 */
typedef void tree_lines_fn(const char *path, const char *blob, size_t lines, int binary, void *data);
void tree_lines(const char *dir, const char *commit, tree_lines_fn *fn, void *data);

#endif
