/*
 * Token blame of one file by walking its history back from the tip, as
 * git blame does (walk.c): only the commits that made a version of the
 * file, or of a file code moved into it from, and only for the tokens
 * still unexplained.  It applies the engine's rule (attribute.h), so it
 * gives the whole-tree pass's answer (replay.h), token for token.
 */
#ifndef WALK_H
#define WALK_H

#include "replay.h"

#include <stddef.h>
#include <stdint.h>

/* Who wrote each token of a file: a commit and the path the token had there. */
struct file_blame {
	size_t nr;              /* tokens */
	uint32_t *commit;       /* each token's, an index into ids */
	uint32_t *path;         /* each token's path in that commit, an index into paths */
	/*
	 * The commit (an index into ids; UINT32_MAX: commit's) and path that
	 * a walk without moves gives each token: the newest that moved or
	 * copied it there (replay.h, replay_unmoved_commit).
	 */
	uint32_t *mover, *mover_path;
	char (*ids)[41];
	size_t nr_ids, alloc_ids;
	char **paths;
	size_t nr_paths, alloc_paths;
	size_t nr_commits;      /* the versions the walk made, for the curious */
	char maker[41];         /* the commit that made the file's version at the tip */
	char *maker_path;       /* and its path there */
};

/*
 * The blame of path at tip in the repository of views at dir, with the
 * engine's options of opts (min_move, ignore_ws, ignore, token_lines; its
 * checkpoint and samples are not read).  Returns -1 when path is no file
 * at tip; dies when git fails.
 */
int walk_file(const char *dir, const char *tip, const char *path, const struct replay_options *opts,
	      struct file_blame *out);
void file_blame_release(struct file_blame *fb);

/*
 * The same, many files, one walk: what it read of the history (commits,
 * trees, the files' histories, the versions' makers) serves the next.
 * commit is a full id.
 */
struct walk;
struct walk *walk_new(const char *dir, const struct replay_options *opts);
int walk_blame(struct walk *w, const char *commit, const char *path, struct file_blame *out);
/*
 * Several files of one commit at once, each version of the history read
 * and each commit's move sources indexed once for them all: out[k] for
 * paths[k], with no commit array (NULL) where it is no file.  Returns
 * how many were files.
 */
int walk_blame_files(struct walk *w, const char *commit, const char **paths, size_t n, struct file_blame *out);
void walk_free(struct walk *w);
/*
 * Many files of the same commits: stepping back through commits whose
 * trees the walk holds already costs less than asking rev-list.
 */
void walk_step_only(struct walk *w);
/* The commit (full id, into maker) and the path there that made the version of path at commit. */
struct strbuf;
void walk_made_by(struct walk *w, const char *commit, const char *path, char *maker, struct strbuf *maker_path);

#endif
