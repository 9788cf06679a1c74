/*
 * The code age over time, for tokstream report: the lines and tokens of
 * the tree by year of origin at points of the history (release tags, or
 * the last commit of each year), counted by the report's replays of the
 * whole history (replay.h's on_sample), not by a blame at each point.
 */
#ifndef AGE_H
#define AGE_H

#include <stddef.h>
#include "blame.h"

enum age_every { AGE_EVERY_TAG, AGE_EVERY_YEAR };

/* The value of --every= ("tag" or "year") into *every; -1 when it is neither. */
int age_parse_every(const char *s, enum age_every *every);

/* What the report tells the code age. */
struct age_options {
	enum age_every every;
	const char *line_repo;      /* the repository of the line blame and of the author dates */
	const char **tag_repos;     /* the repositories whose tags are points (the sources) */
	size_t nr_tag_repos;
	const char **pathspec;
	int nr_pathspec;
	/* whether the report counts a regular file at path that has a view (list_files' rule) */
	int (*counts)(const char *path);
	/*
	 * What else the report leaves out, at every point as at REV: what the
	 * pathspecs exclude select at the point, and the files left_out()
	 * names by their path and blob there, once judge() has read the
	 * blobs (each once) that left_out() will be asked about.
	 */
	const char **exclude;
	int nr_exclude;
	void (*judge)(char (*blobs)[41], const char **paths, size_t nr, void *data);
	int (*left_out)(const char *path, const char *blob, void *data);
	void *data;
	int (*year_of)(long long t);
	int lines;                  /* the line blame is the line replay's: lines are counted too */
	const char *cache;          /* the file that keeps the counts of the points, by commit */
};

struct age_year {
	int year;
	size_t lines, tokens;
};

/* A point of the history and its code by year of origin. */
struct age_sample {
	const char *name;           /* the tag, the year, or (REV untagged) its abbreviated id */
	const char *orig;           /* the commit, in the source */
	long long time;             /* its committer date */
	const struct age_year *years;  /* oldest first; only years that hold code */
	size_t nr_years, lines, tokens;
};

/* What one report's code age knows (age.c). */
struct age;

/*
 * Finds the points of ctx's revision (REV the last) and takes what the
 * cache knows of them; what it does not know, the next replays count.
 */
struct age *age_begin(struct blame_ctx *ctx, const struct age_options *o);

/* Whether a token (lines: a line) replay of the whole tree must still count points (none: no). */
int age_wants(const struct age *a, int lines);

/* How many points the replays have counted so far (by tokens and by lines: twice). */
size_t age_counted(const struct age *a);

/*
 * Makes the whole tree's replay with options o (the token replay, or the
 * line replay: lines) count the points it still must; age_unhook() undoes
 * it.  The two replays may run at once, each in a thread of its own.
 */
void age_hook(struct age *a, struct replay_options *o, int lines);
void age_unhook(struct replay_options *o);

/*
 * Every point, in the order of the history, once the replays have
 * counted them all (dies otherwise); keeps the counts in the cache.
 */
const struct age_sample *age_end(struct age *a, size_t *nr);

#endif
