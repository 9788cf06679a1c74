/*
 * The options that every command reading a token repository takes alike
 * (blame, html, report, map): where DEST and the source are, and the
 * options of the attribution engine; and what their arguments after the
 * options mean (a revision or a pathspec).  Spelled here once, as
 * parse-options tables (tokenize/parse-options.h), so that the commands
 * cannot come to spell them differently.
 */
#ifndef DEST_OPTIONS_H
#define DEST_OPTIONS_H

#include "blame.h"
#include "../tokenize/parse-options.h"

/* -C DEST and --source SRC */
struct dest_options {
	const char *dest, *source;
};

#define OPT_DEST(d) \
	OPT_STRING('C', NULL, &(d)->dest, "DEST", \
		   "the token repository (default: found from the current directory)")
#define OPT_SOURCE(d) \
	OPT_STRING(0, "source", &(d)->source, "SRC", \
		   "the original repository (default: the newest source DEST records)")
/* progress: -1 (when stderr is a terminal), 1 or 0 */
#define OPT_PROGRESS(p) OPT_BOOL(0, "progress", (p), "progress on stderr (default: when it is a terminal)")

int parse_opt_min_move(const struct option *opt, const char *arg, int unset);
int parse_opt_ignore_rev(const struct option *opt, const char *arg, int unset);
int parse_opt_ignore_revs_file(const struct option *opt, const char *arg, int unset);

/*
 * The attribution engine's options (struct attribution_options, blame.h):
 * --moves (with the short name s, 0 for none), --no-moves, --min-move=N;
 * -w; --ignore-rev REV, --ignore-revs-file FILE.
 */
#define OPT_ATTRIBUTION_MOVES(ao, s) \
	OPT_SET_INT(s, "moves", &(ao)->no_moves, "look for moved and copied tokens (the default)", 0), \
	OPT_SET_INT(0, "no-moves", &(ao)->no_moves, "do not look for moved and copied tokens", 1), \
	OPT_CALLBACK(0, "min-move", (ao), "N", \
		     "a moved or copied run is at least N tokens long (2 to 100000; default: 12)", \
		     parse_opt_min_move)
#define OPT_ATTRIBUTION_WHITESPACE(ao) \
	OPT_SET_INT('w', NULL, &(ao)->ignore_ws, \
		    "tokens that differ only in whitespace (in comments, strings) are the same", 1)
#define OPT_ATTRIBUTION_IGNORE(ao) \
	OPT_CALLBACK(0, "ignore-rev", (ao), "REV", "attribute REV's changes as if it had not made them", \
		     parse_opt_ignore_rev), \
	OPT_CALLBACK(0, "ignore-revs-file", (ao), "FILE", \
		     "the same for the revisions listed in FILE (empty: none, not even the configured file)", \
		     parse_opt_ignore_revs_file)
#define OPT_ATTRIBUTION(ao) \
	OPT_ATTRIBUTION_MOVES(ao, 'M'), OPT_ATTRIBUTION_WHITESPACE(ao), OPT_ATTRIBUTION_IGNORE(ao)

/*
 * Dies, in one line that says what to do, when -C names what is no token
 * repository: no directory, no repository, or a source repository (then
 * the message names the DEST it records as tokstream.dest).  NULL: -C
 * was not given, nothing to check.
 */
void check_dest_given(const char *dest);

/*
 * The arguments after OUTDIR of html and report, [REV] [--] [PATHSPEC...],
 * told apart as Git tells them: without "--", the first is REV when it is
 * a revision of the source, and the start of the pathspec when it is
 * none but selects files at HEAD; both, or neither, is an error that
 * says so.  "--" ends the revisions.  *rev stays as it was without one.
 */
void split_rev_pathspec(const struct dest_options *d, int argc, char **argv, const char **rev,
			const char ***pathspec, int *nr_pathspec);

#endif
