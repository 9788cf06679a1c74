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
 *   gen-N.tmp/         the generation a conversion is building
 *   staging.git/       the repository fast-import writes into meanwhile
 *   lock               held while a conversion runs
 *   replay/NAME        the whole tree's attribution, for blame, html, report
 *   report-cache/      report's cache of each file's figures
 *   attributes-index-PID  a temporary index, to read .gitattributes
 *
 * A run builds gen-(N+1) beside gen-N and switches `current` to it with
 * one rename: the moment the new conversion, refs and maps together,
 * takes effect.
 *
 * This file and state.c are the only places that know this layout:
 * every other file asks for a path here, and reads the maps, the config
 * and the tips through the readers here.
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
	/* the pairs sorted by each side, for lookups; made when first needed */
	struct sorted_pairs {
		struct oid_pair *v;
		size_t nr;
	} by_orig, by_token;
};

void oid_map_read(struct oid_map *m, const char *path);
/* The commit map of the generation in force in DEST at gitdir (empty when none). */
void commit_map_read(struct oid_map *m, const char *gitdir);
/* The token id of orig, or NULL. */
const char *oid_map_token(struct oid_map *m, const char *orig);
/* The original id of token, or NULL. */
const char *oid_map_orig(struct oid_map *m, const char *token);
void oid_map_release(struct oid_map *m);
/* Appends the line of a map file that pairs orig with token (each 40 hex digits, no NUL needed). */
void oid_map_add(struct strbuf *text, const char *orig, const char *token);

/*
 * The paths of DEST's state (the layout above), gitdir being DEST's git
 * directory; each into out, which is reset first.
 */
enum state_file {
	STATE_DIR,            /* tokstream itself */
	STATE_LOCK,
	STATE_CURRENT,        /* the symlink to the generation in force */
	STATE_COMMIT_MAP,     /* the symlink to current/commit-map */
	STATE_CONFIG,         /* current/config */
	STATE_TIPS,           /* current/tips */
	STATE_STAGING,
	STATE_REPORT_CACHE,
	NR_STATE_FILES
};
void state_path(struct strbuf *out, const char *gitdir, enum state_file f);
/* The state NAME of whole-tree replays (tokens, lines); with to_write, its directory is made. */
void state_replay_path(struct strbuf *out, const char *gitdir, const char *name, int to_write);
/* A temporary index of this process's own, for git check-attr. */
void state_attributes_index_path(struct strbuf *out, const char *gitdir);
/* The report's cache directory; with to_write, made (and tokstream/ with it). */
void state_report_cache_path(struct strbuf *out, const char *gitdir, int to_write);

/*
 * The generations, for the one writer (convert): gen-N, or with
 * building the one being built (gen-N.tmp); the number `current` points
 * to (0: none; dies when the link is corrupt); whether a name in
 * tokstream/ is a generation's.
 */
void generation_path(struct strbuf *out, const char *gitdir, int gen, int building);
int current_generation(const char *gitdir);
int is_generation_name(const char *name);
/* What the links current, commit-map and DEST/packed-refs point to. */
void generation_name(struct strbuf *out, int gen);
extern const char commit_map_link[];
extern const char packed_refs_link[];

/* The files of a generation directory gen_dir, into out (reset first). */
enum generation_file { GEN_COMMIT_MAP, GEN_TAG_MAP, GEN_CONFIG, GEN_TIPS, GEN_PACKED_REFS, NR_GEN_FILES };
void generation_file_path(struct strbuf *out, const char *gen_dir, enum generation_file f);
/* Those of source k (from 0): fast-export's and fast-import's marks, the filter's state. */
enum source_file { SRC_EXPORT_MARKS, SRC_IMPORT_MARKS, SRC_FILTER_STATE, NR_SOURCE_FILES };
void source_file_path(struct strbuf *out, const char *gen_dir, int k, enum source_file f);

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
/* The same from the file at path (a generation's). */
int dest_config_read_file(struct dest_config *c, const char *path);
void dest_config_release(struct dest_config *c);
/* The lines of a config, for its writer: the first, then the options and the sources in order. */
void dest_config_add_views(struct strbuf *text, const char *views);
void dest_config_add_option(struct strbuf *text, const char *option);
void dest_config_add_source(struct strbuf *text, const char *path);

/*
 * A generation's tips: "K TIP REF" a line, source K (from 1), the commit
 * TIP of its default branch REF ("HEAD" when it has none) as that
 * conversion found it.  This is their only reader and writer.
 */
struct dest_tips {
	struct dest_tip {
		int source;
		char tip[41];
		char *ref;
	} *v;
	size_t nr, alloc;
};

/* The tips of the generation in force in DEST at gitdir: -1 when there are none. */
int dest_tips_read(struct dest_tips *t, const char *gitdir);
/* The same from the file at path (a generation's). */
int dest_tips_read_file(struct dest_tips *t, const char *path);
/* The tip of source k (from 1), or NULL. */
const struct dest_tip *dest_tips_find(const struct dest_tips *t, int source);
/* Appends source k's line to the text of a tips file. */
void dest_tips_add(struct strbuf *text, int source, const char *tip, const char *ref);
void dest_tips_release(struct dest_tips *t);

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

/* Whether gitdir is a token repository's: one that a conversion completed. */
int is_token_repository(const char *gitdir);

/* The tokstream.dest of the repository at dir, as written, into out; -1 (out empty) when none. */
int recorded_dest(const char *dir, struct strbuf *out);

/* Records dest (absolute) as tokstream.dest in the repository at src; 0 on success. */
int record_dest(const char *src, const char *dest);

/*
 * path, given relative to prefix (find_dest), as a path of the tree:
 * "." and ".." resolved; dies when it leaves the tree.  A new string.
 */
char *prefix_path(const char *prefix, const char *path);

/*
 * A single file's path as the user gave it in the work tree: relative to
 * prefix, or, after ":/" or ":(top)" (the pathspec magic "top"), to the
 * top of the tree, as prefix_path() makes it.  A new string.
 */
char *work_tree_path(const char *prefix, const char *path);

/*
 * The same for pathspecs: each is taken relative to prefix as git takes
 * it in that directory (":/" and ":(top)" are relative to the top).
 */
void prefix_pathspecs(const char *prefix, const char **pathspec, int nr);

#endif
