/*
 * tokstream report: what its files share (report.c, the command;
 * report-cache.c, report-blame.c, report-stats.c, report-table.c,
 * report-sections.c, report-survival.c, report-page.c, report-consent.c,
 * report-knowledge.c).
 *
 * Everything one report knows is in one struct report, made by
 * cmd_report() and passed to every step, so that a step says in its
 * parameters what it reads and the steps can live in files of their own.
 */
#ifndef REPORT_H
#define REPORT_H

#include "age.h"
#include "blame.h"
#include "people.h"
#include "../tokenize/smap.h"
#include "../tokenize/strbuf.h"

struct json_writer;

#include <time.h>

#define CACHE_VERSION "tokstream-report 3"

/*
 * The layout version of report.json: raised when a member goes, is
 * renamed, or changes its type or meaning; new members and new tables
 * leave it as it is.  report --merge reads this version only.
 */
#define REPORT_JSON_VERSION 2

enum replay_mode { REPLAY_AUTO, REPLAY_ALWAYS, REPLAY_NEVER };

struct report_options {
	int top, jobs, stats, move, ignore_ws, no_mailmap, progress;
	const char *since, *until;  /* the commit sizes' window, as git log takes it */
	size_t min_tokens;
	enum replay_mode replay;
	enum age_every every;
	int include_vendored;
	int include_bots;      /* --include-bots: bots count among the people */
	int merge_identities;  /* --merge-identities: each group of names one person */
	const char *departed_after;       /* --departed-after, as given ("1y") */
	long long departed_after_seconds;  /* ... in seconds: an author quiet longer has departed */
	const char **exclude;  /* --exclude */
	int nr_exclude;
	const char *out_dir, *rev;
	const char **pathspec;
	int nr_pathspec;
};

/* A source of DEST, oldest first, and the tip DEST converted of it. */
struct source {
	char *path;
	char tip[41];
};

/* ---- the files and what their blames depend on ---- */

struct fcount {
	size_t commit;          /* index in commits[] */
	size_t lines, tokens;
	size_t unmoved;         /* its tokens without moves (the mover owns what it moved or copied) */
};

struct ffunc {
	char *name;
	size_t line, tokens, nr;
	size_t *commit, *count; /* tokens of the function by commit */
};

struct rfile {
	char *path;
	char blob[41], view_blob[41], key[41], tok_last[41], line_last[41];
	int fresh, skipped;
	char *lang;
	size_t lines, code_lines, tokens, comment_tokens;
	struct fcount *c;
	size_t nr_c;
	struct ffunc *fn;
	size_t nr_fn;
	double distance;        /* lines against tokens, as compared (compares_unmoved()) */
	size_t moved;           /* tokens whose commit moves change: an older one than the mover's */
	double moves_distance;  /* tokens with moves against tokens without */
};

/*
 * Why the report leaves a file out: blame_left_out()'s reasons, then the
 * generated files Linguist finds by name and by their first lines
 * (report-generated.c).
 */
enum report_left_out {
	LEFT_OUT_GENERATED_NAME = NR_LEFT_OUT,
	LEFT_OUT_GENERATED_MARKER,
	NR_REPORT_LEFT_OUT
};

/* ---- the cache's packs of entries (report-cache.c) ---- */

struct entry_loc {
	char key[41];
	size_t pack, off, len;
};

struct report_cache {
	struct strbuf dir;       /* DEST/tokstream/report-cache */
	struct strbuf *data;     /* the packs' contents */
	char **names;
	size_t nr, alloc;
	struct smap index;       /* key -> index in entries */
	struct entry_loc *entries;
	size_t nr_entries, alloc_entries;
};

/*
 * A pack being written: under a temporary name (mkstemp()'s, unique among
 * the workers) until pack_finish() renames it to its name.
 */
struct pack_writer {
	struct strbuf tmp, name, buf;
	int fd;
};

/* ---- commit sizes ---- */

struct csize {
	char token[41];
	char orig[41];  /* the commit in the source: filled when the sections are written */
	size_t added, removed;
};

/* the tokens a commit added to and removed from a file */
struct file_change {
	size_t added, removed;
};

/* ---- everything together ---- */

struct gcommit {
	char id[41];
	const char *author;  /* the name the report counts it under (the identity's author) */
	long long time;
	int era, known;
	size_t lines, tokens, author_idx, ident;
	size_t unmoved;  /* its tokens without moves; a commit that only moved code has these alone */
};

/* A commit as a figure names it: its id in the source, its author date. */
struct commit_stamp {
	char id[41];  /* "" for none */
	long long time;
};

struct author {
	const char *name;
	size_t lines, tokens;
	size_t unmoved;  /* tokens without moves */
	size_t rank_lines, rank_tokens;  /* 1-based; 0: none, and for a bot left out */
	int bot;
	/* from every commit reachable from REV (departures(), report-knowledge.c) */
	char last_commit[41];  /* the newest by author date; "" when it has none */
	long long last_time;
	const char *addresses; /* every address used, ", " between them, the newest commit's first */
	int departed;          /* last_time is more than --departed-after before REV's commit date */
	/* the oldest and newest commits that own their surviving tokens (consent) */
	struct commit_stamp first_owning, last_owning;
};

/*
 * A name of the commits reachable from REV as the report counts it
 * (through the mailmap, and its group's with --merge-identities), with or
 * without surviving tokens: its addresses and newest commit, what
 * departures are judged by (history-authors.tsv).
 */
struct history_author {
	char *name;
	struct strbuf addresses;  /* ", " between them, the newest commit's first */
	char last_commit[41];     /* the newest by author date */
	long long last_time;
};

/*
 * An identity of the commits in blame: as the report names it (through
 * the mailmap) and as the commits write it, which is what a line of a
 * .mailmap has to match (report-people.c).
 */
struct identity {
	char *name, *email, *raw_name, *raw_email;
	const char *author;  /* name, or with --merge-identities the name its group takes */
	char *mailmap;       /* the .mailmap line that would merge it into its group; NULL: none needed */
	size_t lines, tokens;
};

/* Names that look like one person's: they share an address, or differ only in case. */
struct name_group {
	const char *name, *email;  /* the name with the most tokens, and its address: what the others take */
	size_t *idents;            /* the identities of its names, that one's first */
	size_t nr_idents;
	size_t lines, tokens;
};

/* What the report tells apart: code, and prose (documentation, files in the text language). */
enum kind { KIND_CODE, KIND_PROSE, NR_KINDS };

/* The size and the people of one kind (report-kinds.c). */
struct kind_figures {
	size_t files, lines, code_lines, tokens, comment_tokens;
	size_t authors_by_lines, authors_by_tokens;
	const char *top;  /* the author with the most tokens of the kind; NULL: none */
	size_t top_tokens;
};

/* A file's owners, by lines and by tokens. */
struct owner {
	size_t author, lines, tokens;
	size_t unmoved;    /* tokens without moves */
	const char *name;  /* the author's, for the order */
};

/* Author, day (YYYY-MM-DD, UTC) and subject of some original commits, for the largest-commits table. */
struct detail {
	char *author, *subject;
	char day[16];
};

/* ---- the tables (report-table.c) ---- */

enum cell_type { CELL_TEXT, CELL_INTEGER, CELL_NUMBER, CELL_NONE };

struct cell {
	enum cell_type type;
	char *text;  /* unescaped; of CELL_NONE what the TSV shows ("" or "-"), null in JSON */
};

struct table {
	const char *file;          /* in OUTDIR; report.json names the table by it, less ".tsv" */
	const char *const *cols;   /* NULL-terminated */
	size_t nr_cols;
	struct cell *cells;
	size_t nr_cells, alloc_cells;
	int written;
};

struct report {
	/*
	 * First, so that the engine's callbacks, which are handed the
	 * blame_ctx, find the report around it (report_of_ctx(), report-blame.c).
	 */
	struct blame_ctx ctx;
	struct report_options opt;
	const char *engine_key;  /* the attribution engine's options (blame.h) */
	int whole_tree_selected;
	struct replay *line_replay;  /* the line blame of every file, when the history is replayed */
	const char *blamed_by;
	size_t nr_unloaded;         /* by the token replay, past its memory budget */

	/* what DEST records: its sources, their tips, the filter options */
	struct source *sources;
	int nr_sources, keep_other;
	struct strbuf line_repo;    /* where the line blame runs */
	struct strbuf line_grafts;  /* " ROOT PARENT" for each seam it has */

	struct rfile *files;
	size_t nr_files, alloc_files, nr_no_view;
	/* the files a pathspec selects (blame_select_paths); with none given, every file */
	struct smap selected_paths;
	int paths_selected;
	/*
	 * The files the figures leave out (blame_left_out: --exclude, vendored,
	 * generated), and how many files and tokens of the tree each reason took.
	 */
	struct smap left_out, left_out_files;  /* left_out_files: path -> index in left_out_list */
	struct {
		size_t files, tokens;
	} left_out_total[NR_REPORT_LEFT_OUT];
	struct left_out_file {
		char *path;
		const char *detail;  /* the name rule or the marker; NULL for the others */
		size_t reason, tokens;
	} *left_out_list;
	size_t nr_left_out_list, alloc_left_out_list;

	struct report_cache cache;

	struct csize *csizes;
	size_t nr_csizes, alloc_csizes;
	/*
	 * The tokens each commit added to and removed from each file, as the
	 * attribution engine's diff found them (its on_change), by "COMMIT PATH".
	 */
	struct smap change_index;
	struct file_change *file_changes;
	size_t nr_file_changes, alloc_file_changes;
	int sizes_from_cache, changes_recorded;
	/* --since and --until as git log's --max-age=T and --min-age=T */
	struct {
		char since[64], until[64];
	} window;

	/* code age over time: the points are counted in the replays */
	struct age *age;            /* the code age's points and counts (age.c) */
	const struct age_sample *age_samples;
	size_t nr_age_samples;
	int age_lines;  /* the lines are counted too */
	int age_shared, age_own;  /* points were counted in the report's replays, in replays of their own */

	struct gcommit *commits;
	size_t nr_commits, alloc_commits;
	struct smap commit_index;
	struct author *authors;
	size_t nr_authors, alloc_authors;
	struct smap author_index;
	size_t total_lines, total_tokens;
	struct author **by_tokens, **by_lines;
	size_t nr_by_tokens, nr_by_lines;
	/* the identities, keyed by the four fields; the groups of names, the most tokens first */
	struct identity *idents;
	size_t nr_idents, alloc_idents;
	struct smap ident_index;
	struct name_group *groups;
	size_t nr_groups;
	struct smap group_of_name;  /* a name of a group -> its index in groups, from 1 */
	/* the bots' authors, the most tokens first, and what they own */
	struct author **bots;
	size_t nr_bots, bot_lines, bot_tokens;
	struct kind_figures kinds[NR_KINDS];
	long long rev_time;  /* REV's committer date: the "now" of --departed-after */
	/* every name of the history, by name (history_index: its index) */
	struct history_author *history;
	size_t nr_history, alloc_history;
	struct smap history_index;

	/*
	 * report --merge: how many reports it combines (report-merge.c); 0
	 * for the report of a revision.  What the page says, and which of its
	 * sections it has, depend on it.
	 */
	size_t nr_merged;
	/* the authors, days and subjects of commits, for the largest commits (commit_subjects()) */
	void (*commit_subjects)(struct report *rep, char (*ids)[41], size_t n, struct detail *d);

	/* the tables written so far, for report.json */
	struct table **tables;
	size_t nr_tables, alloc_tables;

	/* --stats: the wall time of each step, so that a slow report says where */
	struct strbuf step_times;
	struct timespec last_step;
};

/* ---- the command (report.c) ---- */

void step_done(struct report *rep, const char *name);

/* ---- the sources, the line repository, the files (report-files.c) ---- */

void read_config(struct report *rep, const char *gitdir, const char *source_opt);
const char *orig_of(struct report *rep, const char *token);
void setup_line_repo(struct report *rep);
int is_token_path(struct report *rep, const char *path);
void list_files(struct report *rep);

/* ---- the cache (report-cache.c) ---- */

void report_cache_open(struct report *rep);
void read_source_tips(struct report *rep);
void report_cache_file(struct report *rep, const char *kind, const struct strbuf *key, struct strbuf *path);
void last_touch(struct report *rep, const char *dir, const char *tip, const char *name, const char **pathspec, int nr_pathspec, size_t field);
void file_keys(struct report *rep);
void read_packs(struct report *rep);
const struct entry_loc *find_entry(struct report *rep, const char *key);
void pack_start(struct report *rep, struct pack_writer *w);
void pack_add(struct pack_writer *w, const char *key, const char *data, size_t len);
void pack_finish(struct pack_writer *w);
void merge_packs(struct report *rep);
void sizes_cache_path(struct report *rep, const char **pathspec, int nr_pathspec, struct strbuf *path);
int read_sizes_cache(struct report *rep, const char **pathspec, int nr_pathspec);
void read_entry(struct report *rep, struct rfile *f);

/* ---- the blames (report-blame.c) ---- */

void commit_sizes(struct report *rep, const char **pathspec, int nr_pathspec);
void blame_fresh(struct report *rep);
void age_start(struct report *rep, const char **pathspec, int nr_pathspec);
void age_replays(struct report *rep);

/* ---- the figures (report-stats.c) ---- */

const char *pct(double n, double total);
double absd(double x);
int year_of(long long t);
size_t commit_of(struct report *rep, const char *id);
void commit_details(struct report *rep);
void index_authors(struct report *rep);
void commit_eras(struct report *rep);
int cmp_all(const void *a, const void *b);
void rank_authors(struct report *rep);
double distance(const size_t *l, const size_t *t, size_t n, size_t lt, size_t tt);
/*
 * Whether the lines are compared with the tokens without moves: the
 * engine follows moves and the lines do not (no -M), so that like is
 * compared with like; else with the tokens as the engine gives them.
 */
int compares_unmoved(const struct report *rep);
/* Of tokens with and without moves, those compared with the lines. */
size_t compared_tokens(const struct report *rep, size_t tokens, size_t unmoved);
size_t file_owners(struct report *rep, struct rfile *f, struct owner **out);
void file_distances(struct report *rep);
void commit_subjects(struct report *rep, char (*ids)[41], size_t n, struct detail *d);
/*
 * An author's tokens in a directory; a directory of the selection with
 * its people's tokens, the most first (report-stats.c).
 */
struct share {
	size_t author, tokens;
	const char *name;  /* the author's, for the order */
};
struct dir_tally {
	char *path;    /* "." for the root: the whole selection */
	size_t depth;  /* 0 for the root, 1 for a top-level directory */
	size_t files, tokens;
	struct share *owners;
	size_t nr_owners;
};
/* A file of the selection and its people's tokens: what consent and knowledge are figured from. */
struct file_people {
	const char *path;
	size_t tokens;         /* the people's */
	struct share *owners;  /* the people with tokens in it, the most first */
	size_t nr_owners;
};
/* Every file of the selection, in its order, with its people's tokens (consent, knowledge). */
size_t people_of_files(struct report *rep, struct file_people **out);
void free_file_people(struct file_people *files, size_t nr);
/* Every directory (every level) of files, by path, with its people's tokens. */
size_t tally_directories(const struct file_people *files, size_t nr_files, struct dir_tally **out);
void free_dir_tallies(struct dir_tally *dirs, size_t nr);
/*
 * The fewest of owners (the most tokens first) that hold at least need
 * tokens together; nr + 1 when they all hold fewer.
 */
size_t fewest_owners(const struct share *owners, size_t nr, size_t need);
/* The people's tokens (bots' aside, unless --include-bots) of the whole selection. */
size_t people_tokens(const struct report *rep);

/* ---- the tables: TSV, report.json (report-table.c) ---- */

struct table *table_begin(struct report *rep, const char *file, const char *const *cols);
void table_text(struct table *t, const char *s);
void table_count(struct table *t, size_t n);
void table_int(struct table *t, long long n);
void table_number(struct table *t, const char *text);
void table_fixed(struct table *t, double v, int decimals);
void table_none(struct table *t, const char *shown);
void table_rank(struct table *t, size_t rank);
size_t table_rows(const struct table *t);
void table_end(struct report *rep, struct table *t);
/* Writes the members of report.json that say what the report is of (json_report_subject(): a revision's). */
typedef void report_subject_fn(struct report *rep, struct json_writer *j);
void json_report_subject(struct report *rep, struct json_writer *j);
void write_report_json(struct report *rep, report_subject_fn *subject);
void table_html_cells(struct strbuf *pg, const struct table *t, size_t row, size_t first_col);
void table_html_row(struct strbuf *pg, const struct table *t, size_t row, size_t first_col, const char *tr);
void table_html(struct strbuf *pg, const struct table *t, const char *last_tr);

/* ---- the page and its charts (report-page.c) ---- */

void svg_bars(struct strbuf *pg, const char *title, size_t n, char **labels, const double *a, const double *b, const char *name_a, const char *name_b);
void th_row(struct strbuf *pg, const char *const *cols);
void td(struct strbuf *pg, const char *s);
void tdn(struct strbuf *pg, const char *s);
void tdz(struct strbuf *pg, size_t n);
/* What the page's head says of a revision's report (meta: HTML, appended). */
void page_meta(struct report *rep, struct strbuf *meta, size_t files, size_t lines, size_t tokens);
/* OUTDIR/index.html of the report of subject (text), meta (HTML) under its heading. */
void write_page(struct report *rep, const char *subject, const struct strbuf *meta, const struct strbuf *story,
		const struct strbuf *sections);
void svg_areas(struct strbuf *pg, const char *title, size_t nr_x, char **xlabels, size_t nr_s, char **slabels, const double *v);

/* ---- generated files (report-generated.c) ---- */

extern const char *const report_left_out_reason[NR_REPORT_LEFT_OUT];
/* The name rule of Linguist's that says path is generated, or NULL. */
const char *generated_by_name(const char *path);
/* The marker the first lines of a file (head: its first bytes) carry, or NULL. */
const char *generated_by_marker(const char *path, const char *head, size_t len);
/* Reads and judges the blobs (of paths) not judged yet; then generated_blob() tells. */
void generated_read_blobs(struct report *rep, char (*blobs)[41], const char **paths, size_t nr);
/* The marker of a judged blob, or NULL. */
const char *generated_blob(struct report *rep, const char *blob);
/* Keeps the new verdicts in the cache. */
void generated_save(struct report *rep);
/*
 * Why a file of the given blob is left out besides blame_left_out(): its
 * name or its marker (the blob judged), LEFT_IN for none; *detail: the rule.
 */
size_t generated_reason(struct report *rep, const char *path, const char *blob, const char **detail);

/* ---- identities and bots (report-people.c) ---- */

/*
 * The identity of "NAME\nEMAIL\nRAW-NAME\nRAW-EMAIL" (as git log's
 * %aN%n%aE%n%an%n%ae gives it), added when new: an index in rep->idents.
 */
size_t identity_of(struct report *rep, const char *fields);
/* Whether the people figures leave author a out: a bot, without --include-bots. */
int left_out_of_people(const struct report *rep, const struct author *a);
/* Groups the names that look like one person's; with --merge-identities, merges them. */
void find_identities(struct report *rep);
/* The name the report counts an author name under (its group's, with --merge-identities). */
const char *merged_name(struct report *rep, const char *name);
/* The bots and the groups of names: their tables and the page's paragraphs; their rows of summary.tsv. */
void section_bots(struct report *rep, struct strbuf *pg);
void section_identities(struct report *rep, struct strbuf *pg);
void summary_people(struct report *rep, struct table *summary);
/* The story's sentences about bots and names that may be one person. */
void story_identities(struct report *rep, struct strbuf *story);

/* ---- code and prose (report-kinds.c) ---- */

enum kind kind_of_language(const char *lang);
/* An author's part of one kind. */
struct kind_author {
	const char *name;
	size_t lines, tokens, rank_lines, rank_tokens;
};
/*
 * The size of each kind (rep->kinds), and each author's lines and tokens
 * of it: NR_KINDS rows of rep->nr_authors (free()), bots aside unless
 * --include-bots.
 */
struct kind_author *count_kinds(struct report *rep);
/*
 * Size and people of each kind, from rep->kinds and ka (count_kinds()'s):
 * kinds.tsv, authors-by-kind.tsv, the page's table; their rows of summary.tsv.
 */
void section_kinds(struct report *rep, struct strbuf *pg, struct kind_author *ka);
void summary_kinds(struct report *rep, struct table *summary);
/* The story's headline when prose holds most tokens: the two kinds apart. */
void story_kinds(struct report *rep, struct strbuf *story);

/* ---- consent and knowledge at risk (report-consent.c, report-knowledge.c) ---- */

/* Every name's newest commit and addresses (rep->history), from one git log of REV. */
void author_history(struct report *rep);
/* The name of rep->history the report counts name under, added when new: its index. */
size_t history_author(struct report *rep, const char *name);
/*
 * Adds address to the list of history_author h, the k-th, once (case
 * aside; seen: what every one has, keyed by k).
 */
void add_history_address(struct smap *seen, struct history_author *h, size_t k, const char *address);
/* Each author's newest commit and addresses, from rep->history; who has departed. */
void departures(struct report *rep);
/* Each author's oldest and newest commits that own their surviving tokens (first_owning, last_owning). */
void owning_commits(struct report *rep);
/* 7. Consent: consent.tsv, consent-files.tsv, consent-cover.tsv and the page's section. */
void section_consent(struct report *rep, struct strbuf *pg, const struct file_people *files, size_t nr_files,
		     const struct dir_tally *dirs, size_t nr_dirs);
/*
 * 8. Knowledge at risk: knowledge.tsv, knowledge-files.tsv,
 * knowledge-authors.tsv, history-authors.tsv, the section.
 */
void section_knowledge(struct report *rep, struct strbuf *pg, const struct file_people *files, size_t nr_files,
		       const struct dir_tally *dirs, size_t nr_dirs);
/* --departed-after: digits and a unit, d, w, m (30 days) or y (365 days), into seconds; -1: not one. */
int parse_duration(const char *s, long long *seconds);

/* ---- the sections (report-sections.c) ---- */

/* The years of origin the code age's points hold code of, oldest first (nr of them; free()). */
int *age_years(const struct report *rep, size_t *nr);

/*
 * A numbered section's heading: its number is its place in the page's
 * table of sections (a merged report's page has a table of its own).
 */
void section_heading(const struct report *rep, struct strbuf *pg, const char *id);

/* The survival of each year's tokens over the code age's points (report-survival.c). */
void section_survival(struct report *rep, struct strbuf *pg);

/* A language's part of the selection (size.tsv). */
struct lang_total {
	const char *name;
	size_t files, lines, code_lines, tokens, comment_tokens;
};

/* A year of origin's part of the selection (years.tsv). */
struct year_total {
	int year;
	size_t lines, tokens;
};

/* A file's row of files.tsv: its size, its people by both counts. */
struct file_row {
	const char *path, *language;
	size_t lines, code_lines, tokens, authors_by_lines, authors_by_tokens;
	/* the people with the most lines and tokens, and their shares; NULL: no people (and no distance) */
	const char *top_by_lines, *top_by_tokens;
	double top_line_share, top_token_share, distance;
	size_t moved_tokens;    /* whose commit moves change */
	double moves_distance;  /* tokens with moves against tokens without */
};

/* A file large enough for the disagreement list, with its people by both counts. */
struct disagreeing_file {
	const char *path;
	double distance, moves_distance;
	size_t lines, tokens;
	struct owner *owners;  /* the people, the most tokens first */
	size_t nr_owners;
};

/*
 * What a section finds that a later one tells: the story at the top of
 * the page and summary.tsv, whose rows come from several sections.
 */
struct figures {
	struct table *summary;
	size_t top;  /* --top */
	size_t files, lines, code_lines, tokens, comment_tokens;
	size_t in_both, same_rank;  /* of the top by tokens, in the top by lines; at the same rank */
	double *era_l, *era_t;      /* each era's share of the lines and of the tokens */
	int ymd_year;               /* the year of origin the two counts differ most for, and its shares */
	double ymd_l, ymd_t;
	size_t oldest;              /* the oldest commit that still owns tokens; (size_t)-1: none */
	size_t oldest_code;         /* the oldest that owns tokens in a function (one era); (size_t)-1: none */
	struct disagreeing_file *dis;  /* the files large enough, the most disagreeing first */
	size_t nr_dis;
	double overall;             /* the distance between the authors' shares over the whole tree */
	double overall_with_moves;  /* the same, lines against the tokens with moves */
	double moves_distance;      /* the tokens with moves against the tokens without */
	size_t moved_tokens;        /* the tokens whose commit moves change */
};

/*
 * The sections a merged report (report-merge.c) has too, each from the
 * figures given and what rep holds; in the order of the page, as
 * write_report() calls them.  section_summary() ends summary.tsv, which
 * was begun first.
 */
void section_size(struct report *rep, struct strbuf *pg, struct figures *fig, struct lang_total *langs, size_t nr);
void section_left_out(struct report *rep, struct strbuf *pg);
void section_people(struct report *rep, struct strbuf *pg, struct figures *fig);
void section_years(struct report *rep, struct strbuf *pg, struct figures *fig, struct year_total *years, size_t nr);
void section_commit_sizes(struct report *rep, struct strbuf *pg, struct figures *fig);
void files_table(struct report *rep, const struct file_row *rows, size_t nr);
void section_disagreement(struct report *rep, struct strbuf *pg, struct figures *fig);
/* What moves change (moves.tsv), which section_disagreement() ends with. */
void section_moves(struct report *rep, struct strbuf *pg, struct figures *fig);
void section_story(struct report *rep, struct strbuf *story, struct figures *fig);
void section_summary(struct report *rep, struct figures *fig);

/* The report of a revision: every section, the page and report.json. */
void write_report(struct report *rep);

/* ---- report --merge (report-merge.c) ---- */

/* tokstream report --merge OUTDIR DIR...: one report of the reports in DIR... */
int cmd_report_merge(int argc, char **argv);

#endif
