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
#include "../tokenize/parse.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"
#include "../tokenize/run-command.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char report_usage[] =
	"usage: tokstream report [-C DEST] [OPTIONS] OUTDIR [REV] [PATHSPEC...]\n"
	"\n"
	"    -C DEST            the token repository (default: found from the current directory)\n"
	"    --source SRC       the original repository (default: the newest source DEST records)\n"
	"    --top=N            the length of the top lists (default: 20)\n"
	"    --min-tokens=N     files smaller than N tokens are left out of the disagreement list (default: 100)\n"
	"    -j N               N processes and threads at once (default: one per online CPU)\n"
	"    -M                 passed to the line blame: moved lines (tokens: see --no-moves)\n"
	"    -w                 passed to the line blame: ignore whitespace\n"
	"    --no-moves         the token attribution does not look for moved and copied tokens\n"
	"                       (--moves: it does, the default)\n"
	"    --min-move=N       a moved or copied run is at least N tokens long (default: 12)\n"
	"    --ignore-rev REV, --ignore-revs-file FILE   attribute those revisions' changes, by lines\n"
	"                       and by tokens, as if they had not made them\n"
	"    --replay=auto|always|never   blame every file in one pass over the history (default: auto;\n"
	"                       --replay is always, --no-replay never)\n"
	"    --every=tag|year   the code age at each tag of REV's history (default), or at the end of each year\n"
	"    --stats            on stderr: files blamed, files from the cache, the time of each step\n"
	"    --exclude=PATHSPEC leave the files PATHSPEC selects out of every figure (repeatable)\n"
	"    --since=DATE, --until=DATE   (or --after, --before) the commit-size figures count only the commits\n"
	"                       git log --since/--until selects (dates as git log takes them)\n"
	"    --progress, --no-progress   progress on stderr (default: when it is a terminal)\n"
	"    --no-mailmap       identities as the commits write them, not through .mailmap\n"
	"    --include-vendored count the files .gitattributes marks linguist-vendored or\n"
	"                       linguist-generated (default: left out, and counted apart;\n"
	"                       --no-include-vendored says so)\n"
	"    --include-bots     count bots ([bot] names) among the people (default: left out of the\n"
	"                       people figures, and counted apart)\n"
	"    --merge-identities count each group of names that share an address or differ only in\n"
	"                       case as one author (default: listed, with the .mailmap lines that\n"
	"                       would merge them)\n";

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
static void resolve_window(struct report *rep, const char *dir)
{
	const char *argv[] = { "git", "rev-parse", NULL, NULL, NULL };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *nl;
	int n = 2;

	if (rep->opt.since) {
		strbuf_addf(&a, "--since=%s", rep->opt.since);
		argv[n++] = a.buf;
	}
	if (rep->opt.until) {
		strbuf_addf(&b, "--until=%s", rep->opt.until);
		argv[n++] = b.buf;
	}
	if (n == 2)
		return;
	if (run_capture(argv, dir, &out))
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
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&out);
}

/* The number of -j N, or -1 (an error) if N is not one from 1 to 256. */
static int jobs_arg(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return *s >= '0' && *s <= '9' && !*end && n >= 1 && n <= 256 ? (int)n : -1;
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
	rep->engine_key = "";
	rep->blamed_by = "nothing";
	strbuf_init(&rep->line_repo, 0);
	strbuf_init(&rep->line_grafts, 0);
	strbuf_init(&rep->cache.dir, 0);
	strbuf_init(&rep->step_times, 0);
}

/*
 * Takes argv[*i] (and its argument) when it is one of the report's own
 * options; 1 if taken.  -h and -- are the caller's.
 */
static int parse_report_option(struct report *rep, int argc, char **argv, int *i)
{
	struct report_options *o = &rep->opt;
	const char *a = argv[*i], *v;

	if (!strncmp(a, "--top=", 6))
		o->top = atoi(a + 6);
	else if (!strncmp(a, "--min-tokens=", 13))
		o->min_tokens = (size_t)strtoul(a + 13, NULL, 10);
	else if (!strcmp(a, "-j") && *i + 1 < argc)
		o->jobs = jobs_arg(argv[++*i]);
	else if (!strncmp(a, "-j", 2) && a[2])
		o->jobs = jobs_arg(a + 2);
	else if (!strcmp(a, "-M"))
		o->move = 1;
	else if (!strcmp(a, "-w"))
		o->ignore_ws = 1;
	else if (!strcmp(a, "--stats"))
		o->stats = 1;
	else if (option_value("--exclude", argc, argv, i, &v) && v)
		o->exclude[o->nr_exclude++] = v;
	else if (!strncmp(a, "--since=", 8) || !strncmp(a, "--after=", 8))
		o->since = a + 8;
	else if (!strncmp(a, "--until=", 8))
		o->until = a + 8;
	else if (!strncmp(a, "--before=", 9))
		o->until = a + 9;
	else if (!strcmp(a, "--no-mailmap"))
		o->no_mailmap = 1;
	else if (!strcmp(a, "--include-vendored"))
		o->include_vendored = 1;
	else if (!strcmp(a, "--no-include-vendored"))
		o->include_vendored = 0;
	else if (!strcmp(a, "--include-bots"))
		o->include_bots = 1;
	else if (!strcmp(a, "--no-include-bots"))
		o->include_bots = 0;
	else if (!strcmp(a, "--merge-identities"))
		o->merge_identities = 1;
	else if (!strcmp(a, "--no-merge-identities"))
		o->merge_identities = 0;
	else if (!strncmp(a, "--every=", 8) && age_parse_every(a + 8, &o->every))
		usage_die(report_usage, "--every takes tag or year, not '%s'", a + 8);
	else if (!strncmp(a, "--every=", 8))
		return 1;
	else if (!strcmp(a, "--replay=auto"))
		o->replay = REPLAY_AUTO;
	else if (!strcmp(a, "--replay=always") || !strcmp(a, "--replay"))
		o->replay = REPLAY_ALWAYS;
	else if (!strcmp(a, "--replay=never") || !strcmp(a, "--no-replay"))
		o->replay = REPLAY_NEVER;
	else
		return 0;
	return 1;
}

/* What the options say together, and OUTDIR, REV and the pathspec after them (from argv[i]). */
static void finish_options(struct report *rep, int argc, char **argv, int i)
{
	struct report_options *o = &rep->opt;

	if (!o->jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o->jobs = cpus < 1 ? 1 : cpus > 256 ? 256 : (int)cpus;
	} else if (o->jobs < 1 || o->jobs > 256) {
		usage_die(report_usage, "-j takes a number from 1 to 256");
	}
	if (o->top < 1)
		usage_die(report_usage, "--top takes a positive number");
	if (i >= argc)
		usage_die(report_usage, "no OUTDIR given");
	o->out_dir = argv[i++];
	if (i < argc)
		o->rev = argv[i++];
	for (; i < argc; i++)
		o->pathspec[o->nr_pathspec++] = argv[i];
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
	blame_left_out(&rep->ctx, o->exclude, o->nr_exclude, !o->include_vendored, &rep->left_out);
	resolve_window(rep, rep->ctx.gitdir.buf);
	/* --replay=never: each file through its own history, not the whole tree's state either */
	rep->ctx.tried_checkpoint = o->replay == REPLAY_NEVER;
	rep->ctx.ids_only = 1;
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

int cmd_report(int argc, char **argv)
{
	const char *dest = NULL, *source = NULL;
	struct report report;
	struct report *rep = &report;
	struct attribution_options ao;
	int i;

	report_init(rep);
	rep->opt.pathspec = xcalloc((size_t)argc + 1, sizeof(*rep->opt.pathspec));
	rep->opt.exclude = xcalloc((size_t)argc + 1, sizeof(*rep->opt.exclude));
	memset(&ao, 0, sizeof(ao));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (parse_dest_option(argc, argv, &i, &dest, &source, &rep->opt.progress) ||
		    parse_report_option(rep, argc, argv, &i))
			continue;
		else if (strcmp(a, "-C") && parse_attribution_option(&ao, argc, argv, &i))
			continue;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(report_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else
			usage_die(report_usage, "unknown option '%s'", a);
	}
	finish_options(rep, argc, argv, i);
	run_report(rep, dest, source, &ao);
	return 0;
}
