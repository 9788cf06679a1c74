/*
 * Blame of every file of a revision at once, by replaying the history
 * forwards (see replay.c).
 */
#ifndef REPLAY_H
#define REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct replay;

/*
 * Replays the history of tip in the repository at dir (its git directory
 * or work tree); with ignore_ws, lines that differ only in whitespace are
 * unchanged (git blame -w).  Dies when git fails.
 */
struct replay *replay_history(const char *dir, const char *tip, int ignore_ws);

/* The commit of each line of path at the tip (*nr lines); NULL when it is no file there. */
const uint32_t *replay_file(const struct replay *r, const char *path, size_t *nr);

/* The id of a commit replay_file gave. */
const char *replay_commit(const struct replay *r, uint32_t commit);

/* How many commits the replay went through. */
size_t replay_nr_commits(const struct replay *r);

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
