/*
 * tokstream report: do lines and tokens tell different stories?
 *
 * For every selected file at a revision it runs two blames: `git blame`
 * of the file in the source (by lines) and the token blame (blame.c, by
 * tokens), and sums them up: size, people, year of origin, the oldest
 * era, the files where the two measures disagree, the functions holding
 * the oldest code; and, from the token repository's own history, the
 * size of commits in tokens.  It writes OUTDIR/index.html (one page,
 * self-contained, charts as inline SVG) and one TSV file per table.
 *
 * What a file's two blames give is cached in DEST/tokstream/report-cache/,
 * keyed by what they depend on (the path, its blob in the source, the
 * last commit touching it in either repository, the options), so that a
 * second report, or a report of a later revision, only blames files that
 * changed.  -j N blames files in N processes.
 *
 * This file is the command: its options, and the order of the steps,
 * each of which lives in a file of its own (report.h).
 */
#include "commands.h"
#include "report.h"
#include "dest-options.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const report_usage[] = {
	"tokstream report [-C DEST] [OPTIONS] OUTDIR [REV] [--] [PATHSPEC...]",
	"tokstream report --merge [--departed-after=DURATION] OUTDIR DIR...",
	NULL
};

void step_done(struct report *rep, const char *name)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (rep->last_step.tv_sec || rep->last_step.tv_nsec)
		strbuf_addf(&rep->step_times, "%s%s %.2f s", rep->step_times.len ? ", " : "", name,
			    (double)(now.tv_sec - rep->last_step.tv_sec) + (double)(now.tv_nsec - rep->last_step.tv_nsec) / 1e9);
	rep->last_step = now;
}

/*
 * --since and --until as git log's own --max-age=T and --min-age=T (git
 * rev-parse reads the dates as git log does), so that "2 years ago"
 * names the same window in the cache key and in git log.
 */
/*
 * git log takes any text for a date, "garbage" as now (no commit is
 * since then), silently; git's careful reading of the same dates, that
 * of an expiry date in its config, says when it found no date at all.
 */
static void check_date(const char *option, const char *date, const char *dir)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;

	if (!date)
		return;
	strvec_push(&argv, "git");
	strvec_push(&argv, "-c");
	strvec_pushf(&argv, "tokstream.date=%s", date);
	strvec_pushl(&argv, "config", "--type=expiry-date", "tokstream.date", NULL);
	if (run_capture_quiet(argv.v, dir, &out))
		die("--%s: '%s' is no date (git log would read it as now)", option, date);
	strvec_clear(&argv);
	strbuf_release(&out);
}

static void resolve_window(struct report *rep, const char *dir)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	char *p, *nl;

	if (!rep->opt.since && !rep->opt.until)
		return;
	check_date("since", rep->opt.since, dir);
	check_date("until", rep->opt.until, dir);
	strvec_pushl(&argv, "git", "rev-parse", NULL);
	if (rep->opt.since)
		strvec_pushf(&argv, "--since=%s", rep->opt.since);
	if (rep->opt.until)
		strvec_pushf(&argv, "--until=%s", rep->opt.until);
	if (run_capture(argv.v, dir, &out))
		die("git rev-parse cannot read the dates of --since/--until");
	for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		if (!strncmp(p, "--max-age=", 10))
			snprintf(rep->window.since, sizeof(rep->window.since), "%s", p);
		else if (!strncmp(p, "--min-age=", 10))
			snprintf(rep->window.until, sizeof(rep->window.until), "%s", p);
	}
	if ((rep->opt.since && !rep->window.since[0]) || (rep->opt.until && !rep->window.until[0]))
		die("--since/--until: not a date git reads: '%s'", rep->opt.since && !rep->window.since[0] ? rep->opt.since : rep->opt.until);
	strvec_clear(&argv);
	strbuf_release(&out);
}

/* The defaults of every option, and nothing known yet. */
static void report_init(struct report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->opt.top = 20;
	rep->opt.jobs = 0;  /* one per online CPU */
	rep->opt.progress = -1;
	rep->opt.min_tokens = 100;
	rep->opt.replay = REPLAY_AUTO;
	rep->opt.rev = "HEAD";
	rep->opt.departed_after = "1y";
	parse_duration(rep->opt.departed_after, &rep->opt.departed_after_seconds);
	rep->engine_key = "";
	rep->blamed_by = "nothing";
	rep->commit_subjects = commit_subjects;
	strbuf_init(&rep->line_repo, 0);
	strbuf_init(&rep->line_grafts, 0);
	strbuf_init(&rep->cache.dir, 0);
	strbuf_init(&rep->step_times, 0);
}

static int report_opt_every(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	if (age_parse_every(arg, opt->value))
		return parse_opt_error(opt, "takes tag or year, not '%s'", arg);
	return 0;
}

/* --replay[=auto|always|never]: --replay alone is always, --no-replay never */
static int report_opt_replay(const struct option *opt, const char *arg, int unset)
{
	enum replay_mode *replay = opt->value;

	if (unset)
		*replay = REPLAY_NEVER;
	else if (!arg || !strcmp(arg, "always"))
		*replay = REPLAY_ALWAYS;
	else if (!strcmp(arg, "auto"))
		*replay = REPLAY_AUTO;
	else if (!strcmp(arg, "never"))
		*replay = REPLAY_NEVER;
	else
		return parse_opt_error(opt, "takes auto, always or never, not '%s'", arg);
	return 0;
}

/* --departed-after=DURATION: strictly digits and a unit, so that a typo is no silent default */
static int report_opt_departed_after(const struct option *opt, const char *arg, int unset)
{
	struct report_options *o = opt->value;

	(void)unset;
	if (parse_duration(arg, &o->departed_after_seconds))
		return parse_opt_error(opt, "takes a number and a unit, d (days), w (weeks), m (30 days) "
				       "or y (365 days), such as 18m; not '%s'", arg);
	o->departed_after = arg;
	return 0;
}

static int report_opt_exclude(const struct option *opt, const char *arg, int unset)
{
	struct report_options *o = opt->value;

	(void)unset;
	o->exclude[o->nr_exclude++] = arg;
	return 0;
}

/*
 * The options into rep->opt, d and ao; then OUTDIR, REV and the pathspec
 * after them; and what the options say together.
 */
static void parse_report_options(struct report *rep, struct dest_options *d, struct attribution_options *ao,
				 int argc, char **argv)
{
	struct report_options *o = &rep->opt;
	struct option options[] = {
		OPT_DEST(d),
		OPT_SOURCE(d),
		OPT_INTEGER(0, "top", &o->top, "N", "the length of the top lists (default: 20)", 1, INT_MAX),
		OPT_SIZE_T(0, "min-tokens", &o->min_tokens, "N",
			   "files smaller than N tokens are left out of the disagreement list (default: 100)",
			   0, SIZE_MAX),
		OPT_INTEGER('j', NULL, &o->jobs, "N",
			    "N processes and threads at once (1 to 256; default: one per online CPU)", 1, 256),
		OPT_SET_INT('M', NULL, &o->move, "passed to the line blame: moved lines (tokens: see --no-moves)", 1),
		OPT_SET_INT('w', NULL, &o->ignore_ws, "passed to the line blame: ignore whitespace", 1),
		OPT_ATTRIBUTION_MOVES(ao, 0),
		OPT_ATTRIBUTION_IGNORE(ao),
		OPT_CALLBACK_F(0, "replay", &o->replay, "auto|always|never",
			       "blame every file in one pass over the history (default: auto;\n"
			       "--replay is always, --no-replay never)", PARSE_OPT_OPTARG, report_opt_replay),
		OPT_CALLBACK(0, "every", &o->every, "tag|year",
			     "the code age at each tag of REV's history (default), or at the end of each year",
			     report_opt_every),
		OPT_FLAG(0, "stats", &o->stats, "on stderr: files blamed, files from the cache, the time of each step"),
		OPT_CALLBACK(0, "exclude", o, "PATHSPEC",
			     "leave the files PATHSPEC selects out of every figure (repeatable)", report_opt_exclude),
		OPT_CALLBACK(0, "departed-after", o, "DURATION",
			     "an author whose newest commit is older than this before REV's date has departed\n"
			     "(default: 1y; units d, w, m = 30 days, y = 365 days)", report_opt_departed_after),
		OPT_STRING(0, "since", &o->since, "DATE",
			   "the commit-size figures count only the commits git log --since selects"),
		OPT_STRING(0, "after", &o->since, "DATE", "the same as --since"),
		OPT_STRING(0, "until", &o->until, "DATE", "the same for git log --until"),
		OPT_STRING(0, "before", &o->until, "DATE", "the same as --until"),
		OPT_PROGRESS(&o->progress),
		OPT_FLAG(0, "no-mailmap", &o->no_mailmap, "identities as the commits write them, not through .mailmap"),
		OPT_BOOL(0, "include-vendored", &o->include_vendored,
			 "count the files .gitattributes marks linguist-vendored or linguist-generated\n"
			 "(default: left out, and counted apart)"),
		OPT_BOOL(0, "include-bots", &o->include_bots,
			 "count bots ([bot] names) among the people\n"
			 "(default: left out of the people figures, and counted apart)"),
		OPT_BOOL(0, "merge-identities", &o->merge_identities,
			 "count each group of names that share an address or differ only in case as one author\n"
			 "(default: listed, with the .mailmap lines that would merge them)"),
		OPT_END(),
	};
	int n;

	n = parse_options(argc, argv, options, report_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!o->jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o->jobs = cpus < 1 ? 1 : cpus > 256 ? 256 : (int)cpus;
	}
	if (n < 1)
		usage_msg_opt("no OUTDIR given", report_usage, options);
	o->out_dir = argv[0];
	check_dest_given(d->dest);
	split_rev_pathspec(d, n - 1, argv + 1, &o->rev, &o->pathspec, &o->nr_pathspec);
}

/* Opens DEST and the source at REV, and reads what the report needs to know first. */
static void open_report(struct report *rep, const char *dest, const char *source,
			const struct attribution_options *ao)
{
	struct report_options *o = &rep->opt;

	blame_open(&rep->ctx, dest, source, o->rev, ao);
	if (o->nr_pathspec) {
		blame_select_paths(&rep->ctx, o->rev, o->pathspec, o->nr_pathspec, &rep->selected_paths);
		rep->paths_selected = 1;
	}
	blame_left_out(&rep->ctx, o->rev, o->exclude, o->nr_exclude, !o->include_vendored, &rep->left_out);
	resolve_window(rep, rep->ctx.gitdir.buf);
	/* --replay=never: each file through its own history, not the whole tree's state either */
	rep->ctx.tried_checkpoint = o->replay == REPLAY_NEVER;
	rep->ctx.ids_only = 1;
	/* the lines are compared with the tokens without moves too (report-sections.c) */
	rep->ctx.unmoved = 1;
	rep->engine_key = rep->ctx.key.buf;
	read_config(rep, rep->ctx.gitdir.buf, source);
	if (!rep->nr_sources) {
		rep->sources = xcalloc(1, sizeof(*rep->sources));
		rep->sources[0].path = xstrdup(rep->ctx.src.buf);
		rep->nr_sources = 1;
	}
	report_cache_open(rep);
	make_dir(o->out_dir);
	setup_line_repo(rep);
}

/* --stats: what was blamed and what came from the cache, and the time of each step. */
static void print_stats(struct report *rep, size_t fresh, size_t skipped)
{
	fprintf(stderr, "tokstream report: %zu files, %zu without a view; %zu blamed, %zu from the cache; "
		"%zu commits in blame, %zu commits sized; -j %d; blamed by %s\n",
		rep->nr_files + rep->nr_no_view, rep->nr_no_view + skipped, fresh, rep->nr_files - fresh,
		rep->nr_commits, rep->nr_csizes, rep->opt.jobs, rep->blamed_by);
	fprintf(stderr, "tokstream report: code age: %zu points, counted by %s\n", rep->nr_age_samples,
		rep->age_own ? (rep->age_shared ? "the report's replays and replays of their own" : "replays of their own")
			: rep->age_shared ? "the report's replays" : "nothing (all from the cache)");
	fprintf(stderr, "tokstream report: token replay: %zu versions unloaded past its memory budget\n",
		rep->nr_unloaded);
	fprintf(stderr, "tokstream report: wall time: %s\n", rep->step_times.buf);
}

/* The steps of a report, once its options are read. */
static void run_report(struct report *rep, const char *dest, const char *source,
		       const struct attribution_options *ao)
{
	const char **pathspec = rep->opt.pathspec;
	int nr_pathspec = rep->opt.nr_pathspec;
	size_t k, fresh = 0, skipped = 0;

	step_done(rep, NULL);
	open_report(rep, dest, source, ao);
	step_done(rep, "setup");

	list_files(rep);
	age_start(rep, pathspec, nr_pathspec);
	rep->whole_tree_selected = !nr_pathspec;
	last_touch(rep, rep->ctx.gitdir.buf, rep->ctx.token, "tokens", pathspec, nr_pathspec,
		   offsetof(struct rfile, tok_last));
	last_touch(rep, rep->line_repo.buf, rep->ctx.orig, rep->nr_sources > 1 ? "lines-stitched" : "lines", pathspec,
		   nr_pathspec, offsetof(struct rfile, line_last));
	file_keys(rep);
	step_done(rep, "files listed");
	read_packs(rep);
	for (k = 0; k < rep->nr_files; k++) {
		rep->files[k].fresh = !find_entry(rep, rep->files[k].key);
		fresh += rep->files[k].fresh;
	}
	rep->sizes_from_cache = read_sizes_cache(rep, pathspec, nr_pathspec);
	blame_fresh(rep);
	age_replays(rep);
	for (k = 0; k < rep->nr_files; k++) {
		read_entry(rep, &rep->files[k]);
		skipped += rep->files[k].skipped;
	}
	step_done(rep, "cache read");
	commit_details(rep);
	find_identities(rep);
	index_authors(rep);
	commit_eras(rep);
	step_done(rep, "commits");
	commit_sizes(rep, pathspec, nr_pathspec);
	step_done(rep, "commit sizes");
	write_report(rep);
	generated_save(rep);
	step_done(rep, "report written");
	if (rep->opt.stats)
		print_stats(rep, fresh, skipped);
}

/*
 * Whether the arguments before "--" hold --merge (no revision or
 * pathspec can be spelt so without "--" before it): then they are
 * OUTDIR and reports' directories, and report-merge.c parses its own
 * options.
 */
static int wants_merge(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--merge"))
			return 1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct dest_options d = { NULL, NULL };
	struct report report;
	struct report *rep = &report;
	struct attribution_options ao;

	if (wants_merge(argc, argv))
		return cmd_report_merge(argc, argv);
	report_init(rep);
	rep->opt.exclude = xcalloc((size_t)argc + 1, sizeof(*rep->opt.exclude));
	memset(&ao, 0, sizeof(ao));
	parse_report_options(rep, &d, &ao, argc, argv);
	run_report(rep, d.dest, d.source, &ao);
	return 0;
}
