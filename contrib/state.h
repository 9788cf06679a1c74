/*
 * What a token repository keeps about its conversion, inside its git
 * directory under tokstream/:
 *
 *   current            symlink to the generation directory in force
 *   commit-map         symlink to current/commit-map
 *   gen-N/commit-map   ORIGINAL TOKEN, one line per commit, in export order
 *   gen-N/tag-map      the same for annotated tags
 *   gen-N/config       the filter options and the sources
 *   gen-N/tips         each source's default branch and its tip
 *   gen-N/packed-refs  DEST's refs: DEST/packed-refs is a symlink to
 *                      tokstream/current/packed-refs, DEST has no loose refs
 *   gen-N/src-K.*      per source: fast-export's and fast-import's marks,
 *                      and the filter's state
 *   lock               held while a conversion runs
 *
 * A run builds gen-(N+1) beside gen-N and switches `current` to it with
 * one rename: the moment the new conversion, refs and maps together,
 * takes effect.
 */
#ifndef STATE_H
#define STATE_H

#include <stddef.h>
#include "../tokenize/strbuf.h"

/* An ORIGINAL -> TOKEN map of object ids (hex, 40 characters). */
struct oid_map {
	struct oid_pair {
		char orig[41], token[41];
	} *pairs;
	size_t nr, alloc;
};

void oid_map_read(struct oid_map *m, const char *path);
/* The token id of orig, or NULL. */
const char *oid_map_token(struct oid_map *m, const char *orig);
void oid_map_release(struct oid_map *m);

/* The absolute git directory of the repository at dir; dies if it is none. */
void git_dir_of(const char *dir, struct strbuf *out);
/*
 * The same, asking git rev-parse more in the same call: query[] are its
 * further arguments (NULL-terminated), whose lines go to answers.
 * Returns rev-parse's exit status (a failed --verify -q: 1, its other
 * lines printed).
 */
int git_dir_query(const char *dir, const char **query, struct strbuf *out,
		  struct strbuf *answers);

/*
 * A generation's config: what a conversion was made with, each line
 * "tokstream-config 1", "views FINGERPRINT", "option OPTION" (the
 * filter's, in order) or "source PATH" (oldest first).  This is its
 * only reader.
 */
struct dest_config {
	struct strbuf text;      /* the file as it is */
	char *views;             /* the fingerprint of the lexers and languages; NULL: none */
	char **options, **sources;
	size_t nr_options, nr_sources;
	/* what report and blame need of the options */
	int keep_other;
};

/* Parses text into c (which takes a copy). */
void dest_config_parse(struct dest_config *c, const char *text, size_t len);
/* The config of the generation in force in DEST at gitdir: -1 when there is none. */
int dest_config_read(struct dest_config *c, const char *gitdir);
void dest_config_release(struct dest_config *c);

/*
 * Where a command finds its token repository: given (-C DEST), else the
 * repository at the current directory when it is a token repository,
 * else the one recorded in the current repository's config as
 * tokstream.dest (tokstream convert records it in each source).  In that
 * last case *prefix gets the current directory's place in the source's
 * work tree ("" or "dir/"), for paths given relative to it; else "".
 * Dies, saying what to do, when there is none.
 */
const char *find_dest(const char *given, struct strbuf *prefix);

/* Records dest (absolute) as tokstream.dest in the repository at src; 0 on success. */
int record_dest(const char *src, const char *dest);

/*
 * path, given relative to prefix (find_dest), as a path of the tree:
 * "." and ".." resolved; dies when it leaves the tree.  A new string.
 */
char *prefix_path(const char *prefix, const char *path);

/*
 * The same for pathspecs: each is taken relative to prefix as git takes
 * it in that directory (":/" and ":(top)" are relative to the top).
 */
void prefix_pathspecs(const char *prefix, const char **pathspec, int nr);

#endif
