/*
 * Token blame of one file, as data: what `tokstream blame`, `html` and
 * `report` lay onto the original text.
 */
#ifndef BLAME_H
#define BLAME_H

#include <stddef.h>
#include "replay.h"
#include "../tokenize/smap.h"
#include "state.h"
#include "../tokenize/language.h"
#include "../tokenize/strbuf.h"

struct commit_info {
	char token[41], orig[41];
	char *author, *author_mail, *author_tz, *committer, *committer_mail, *committer_tz;
	char *summary, *filename;
	long long author_time, committer_time;
	size_t tokens;
	int shown, color, group;
};

struct commit_table {
	struct commit_info **v;  /* each allocated alone: pointers to them stay valid */
	size_t nr, alloc;
	struct smap index;       /* token id -> its place in v */
};

struct token_pos {
	size_t line, col, start, len;
	enum token_class cls;
	struct commit_info *commit;
	struct commit_info *unmoved;  /* with ctx->unmoved: the commit without moves (replay_unmoved_commit) */
};

/*
 * What the attribution engine is told, from the options of blame, html
 * and report alike (dest-options.c parses them).
 */
struct attribution_options {
	int no_moves;                 /* --no-moves */
	size_t min_move;              /* --min-move=N; 0: the default */
	int ignore_ws;                /* -w */
	const char **ignore_revs;     /* --ignore-rev, revisions of the source */
	size_t nr_ignore_revs, alloc_ignore_revs;
	const char **ignore_files;    /* --ignore-revs-file; the source's blame.ignoreRevsFile first */
	size_t nr_ignore_files, alloc_ignore_files;
	int no_config_ignore_file;    /* an --ignore-revs-file "" clears the list so far */
	int read_ahead;               /* a file's history walked: its versions read on a second thread */
};

/* Where blames come from: the token repository, its source and a revision. */
struct blame_ctx {
	struct strbuf gitdir;    /* the token repository's git directory */
	struct strbuf prefix;    /* found from a source's work tree: the current directory in it (find_dest) */
	struct strbuf src;       /* the original repository: the newest source */
	char **sources;          /* every source, oldest first (--source: that one) */
	size_t nr_sources, alloc_sources;
	struct oid_map map;
	char orig[41];           /* the revision, in the source */
	const char *token;       /* the same, in the token repository */
	struct replay_options engine;  /* the engine's options (no paths) */
	struct smap ignore;      /* the ignored commits, by token id */
	char **ignored;          /* the same, by original id */
	size_t nr_ignored, alloc_ignored;
	struct strbuf key;       /* what the attributions depend on besides the history, for caches */
	int default_options;     /* the key is the default options' (the configured ignore file's too) */
	int default_ignores;     /* the ignored revisions are the configured file's */
	int tried_checkpoint;    /* blame_file_at() looked for the whole tree's state in DEST */
	int one_file;            /* only one file is blamed: of the state, only its version is read */
	struct replay *replay;   /* when set, token blames come from it: the whole tree at once */
	int ids_only;            /* the caller needs no details of the commits (author, summary) */
	int no_mailmap;          /* identities as the commits write them, not through .mailmap */
	int unmoved;             /* each token's commit without moves too (token_pos.unmoved; ids only) */
};

struct blame_result {
	struct strbuf content;   /* the original file */
	const struct language *lang;
	struct token_pos *toks;
	size_t nr_toks, alloc_toks;
	struct commit_table commits;
	struct commit_table unmoved_commits;  /* with ctx->unmoved: the commits without moves */
};

/*
 * Dies with a clear message when DEST, the source or REV is not usable;
 * o may be NULL (the defaults).
 */
void blame_open(struct blame_ctx *ctx, const char *dest, const char *source, const char *rev,
		const struct attribution_options *o);

/*
 * Where the whole tree's state of ctx's options is kept in DEST: the
 * default options' (those of blame with no option, the source's
 * configured ignore file included) in one place, each other set of
 * options beside it (to_write: its directory made).
 */
void blame_state_path(const struct blame_ctx *ctx, struct strbuf *out, int to_write);
/* The same for a state of another kind ("lines"), made with key, which may be that kind's default. */
void blame_state_path_of(const struct blame_ctx *ctx, const char *kind, const char *key, int is_default,
			 struct strbuf *out, int to_write);

/*
 * The whole tree's token attribution at ctx's revision, in one pass
 * (ctx->replay), from the checkpoint an earlier one left when it fits.
 */
void blame_replay_tree(struct blame_ctx *ctx);
/*
 * Stops this process's `git cat-file --batch` processes and waits for
 * them: at exit, and in a forked worker before its _exit().
 */
void blame_stop_batches(void);

/*
 * Brings the whole tree's state that an earlier pass left in DEST forward
 * to ctx's revision, when it fits (replaying the commits since); 1 if it did.
 */
int blame_advance_checkpoint(struct blame_ctx *ctx);

/*
 * The files of the revision (named rev in messages) that the pathspec
 * selects, as Git's own pathspec matching selects them (globs, magic such
 * as :(exclude)), into selected; dies when it selects none.
 */
void blame_select_paths(struct blame_ctx *ctx, const char *rev, const char **pathspec, int nr_pathspec,
			struct smap *selected);

/* Why the figures leave a file out (blame_left_out), and the word for it. */
enum left_out { LEFT_IN, LEFT_OUT_EXCLUDED, LEFT_OUT_VENDORED, LEFT_OUT_GENERATED, NR_LEFT_OUT };
extern const char *const left_out_reason[NR_LEFT_OUT];

/*
 * The files of ctx's revision that a report leaves out, into left_out
 * with the reason as value: those the pathspecs exclude selects
 * (--exclude), then, with attributes, those whose .gitattributes at the
 * revision set linguist-vendored or linguist-generated (as code hosts
 * read them; "-linguist-vendored" or "=false" keeps a file in).  An
 * exclude that selects no file at the revision (named rev) nor before it
 * is a warning.
 */
void blame_left_out(struct blame_ctx *ctx, const char *rev, const char **exclude, int nr_exclude,
		    int attributes, struct smap *left_out);

/* Returns 0, or -1 with *err set when the file has no view (no lexer claims it). */
int blame_file(struct blame_ctx *ctx, const char *path, struct blame_result *res, const char **err);
/* The same, for a file whose blob and view blob the caller knows (NULL: look them up). */
int blame_file_at(struct blame_ctx *ctx, const char *path, const char *blob, const char *view_blob,
		  struct blame_result *res, const char **err);
/* Frees all a blame returned in res: the content, the tokens and the commits. */
void blame_result_release(struct blame_result *res);

/* How many tokens of each commit one line holds: the gutter's tally. */
struct line_share {
	struct commit_info *commit;
	size_t n;
};

struct line_tally {
	struct line_share *v;
	size_t nr, alloc;
};

/*
 * The tally of the line [pos, end) of a file whose tokens are toks:
 * toks[first] is the first that does not end at or before pos.  A token
 * counts on every line it covers a byte of, the newline of an empty line
 * inside it (a docstring's, a comment's) included.
 */
void line_tally_of(struct line_tally *t, const struct token_pos *toks, size_t nr, size_t first,
		   size_t pos, size_t end);

/*
 * The commit a line's gutter names, in blame's terminal and html's pages
 * alike: of the author who owns most of the line's tokens, the commit
 * with most of them; a tie goes to the newer commit (the later change is
 * the one a reader asks about), then to the smaller id.  NULL for a line
 * with no token.  *others: how many other authors own tokens there.
 */
struct commit_info *line_owner(const struct line_tally *t, size_t *others);

/* A commit's day, as blame, html and report print it: YYYY-MM-DD in UTC. */
void day_of(long long t, char *buf, size_t size);

/*
 * The porcelain parser, shared with line blame: for every line of the
 * file (1-based, at [line - 1]) its commit, in t.  buf is changed.
 */
struct commit_info **parse_porcelain(struct commit_table *t, char *buf, size_t *nr_lines);
/* Frees the commits of t and what they hold (parse_porcelain, replay_commits fill it). */
void commit_table_release(struct commit_table *t);

/*
 * The same from a replay (replay.h): the commit of each line of path at
 * its tip, or NULL when path is no file there.  The commits carry ids only.
 */
struct commit_info **replay_commits(struct commit_table *t, const struct replay *r,
				    const char *path, size_t *nr_lines);

#endif
