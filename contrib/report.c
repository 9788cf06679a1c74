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
 */
#include "commands.h"
#include "report.h"
#include "age.h"
#include "blame.h"
#include "functions.h"
#include "../tokenize/escape.h"
#include "../tokenize/parse.h"
#include "../tokenize/smap.h"
#include "../tokenize/json.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/progress.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	"    --ignore-rev REV, --ignore-revs-file FILE   attribute those revisions' changes, by lines\n"
	"                       and by tokens, as if they had not made them\n"
	"    --replay=auto|always|never   blame every file in one pass over the history (default: auto)\n"
	"    --every=tag|year   the code age at each tag of REV's history (default), or at the end of each year\n"
	"    --stats            on stderr: files blamed, files from the cache, the time of each step\n"
	"    --exclude=PATHSPEC leave the files PATHSPEC selects out of every figure (repeatable)\n"
	"    --since=DATE, --until=DATE   the commit-size figures count only the commits\n"
	"                       git log --since/--until selects (dates as git log takes them)\n"
	"    --progress, --no-progress   progress on stderr (default: when it is a terminal)\n"
	"    --no-mailmap       identities as the commits write them, not through .mailmap\n"
	"    --include-vendored count the files .gitattributes marks linguist-vendored or\n"
	"                       linguist-generated (default: left out, and counted apart)\n";




/* the line blame of every file, when the history is replayed (replay.c) */

/* ---- small helpers -------------------------------------------------------- */

/* --stats: the wall time of each step, so that a slow report says where */

/*
 * With -j 2 or more, work that does not depend on other work (the replay
 * of the lines beside that of the tokens, the commit sizes beside both)
 * runs in a thread of its own: most of its time is the git process it
 * reads, and the threads keep those processes busy at once.
 */
struct side_job {
	void (*fn)(void *);
	void *arg;
	pthread_t thread;
	int threaded;
};

static void *side_job_main(void *p)
{
	struct side_job *j = p;

	j->fn(j->arg);
	return NULL;
}

/* Starts fn(arg) in a thread, or with -j 1 (or no thread to be had) runs it now. */
static void side_job_start(struct report *rep, struct side_job *j, void (*fn)(void *), void *arg)
{
	j->fn = fn;
	j->arg = arg;
	j->threaded = rep->opt.jobs > 1 && !pthread_create(&j->thread, NULL, side_job_main, j);
	if (!j->threaded)
		fn(arg);
}

static void side_job_finish(struct side_job *j)
{
	if (j->threaded && pthread_join(j->thread, NULL))
		die("cannot join a thread");
	j->threaded = 0;
}

static void step_done(struct report *rep, const char *name)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (rep->last_step.tv_sec || rep->last_step.tv_nsec)
		strbuf_addf(&rep->step_times, "%s%s %.2f s", rep->step_times.len ? ", " : "", name,
			    (double)(now.tv_sec - rep->last_step.tv_sec) + (double)(now.tv_nsec - rep->last_step.tv_nsec) / 1e9);
	rep->last_step = now;
}

/* The SHA-1 of a string, in hex: names of cache files. */
static void hash_hex(const struct strbuf *sb, char *out)
{
	unsigned char h[20];

	git_blob_oid(sb->buf, sb->len, h);
	oid_to_hex(h, out);
}

static int read_whole(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "r");
	char chunk[65536];
	size_t n;

	strbuf_reset(sb);
	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(sb, chunk, n);
	fclose(f);
	return 0;
}

/* A share of total as a percentage with two decimals. */
static const char *pct(double n, double total)
{
	static char buf[8][32];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%.2f", total > 0 ? 100.0 * n / total : 0.0);
	return buf[k];
}

static double absd(double x)
{
	return x < 0 ? -x : x;
}

static int year_of(long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	return tm.tm_year + 1900;
}

static void day_of(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

/* ---- what DEST records: its sources, their tips, the filter options ---- */



static void read_config(struct report *rep, const char *gitdir, const char *source_opt)
{
	struct strbuf path = STRBUF_INIT, tips = STRBUF_INIT;
	struct dest_config cfg;
	char *p, *nl;
	size_t alloc = 0, i;

	dest_config_read(&cfg, gitdir);
	for (i = 0; i < cfg.nr_sources; i++) {
		ALLOC_GROW(rep->sources, (size_t)rep->nr_sources + 1, alloc);
		rep->sources[rep->nr_sources].path = xstrdup(cfg.sources[i]);
		rep->sources[rep->nr_sources].tip[0] = '\0';
		rep->nr_sources++;
	}
	rep->keep_other = cfg.keep_other;
	dest_config_release(&cfg);
	strbuf_addf(&path, "%s/tokstream/current/tips", gitdir);
	read_whole(path.buf, &tips);
	for (p = tips.buf; p && *p; p = nl ? nl + 1 : NULL) {
		int k;
		char tip[41];

		nl = strchr(p, '\n');
		if (sscanf(p, "%d %40s", &k, tip) == 2 && k >= 1 && k <= rep->nr_sources && is_hex40(tip))
			memcpy(rep->sources[k - 1].tip, tip, 41);
	}
	/* --source names the newest era's repository */
	if (source_opt) {
		if (!rep->nr_sources) {
			ALLOC_GROW(rep->sources, 1, alloc);
			rep->nr_sources = 1;
			rep->sources[0].tip[0] = '\0';
		} else {
			free(rep->sources[rep->nr_sources - 1].path);
		}
		rep->sources[rep->nr_sources - 1].path = xstrdup(source_opt);
	}
	strbuf_release(&path);
	strbuf_release(&tips);
}

/* Reverse lookups of the commit map: token id -> original id. */

static const char *orig_of(struct report *rep, const char *token)
{
	struct blame_ctx *ctx = &rep->ctx;
	size_t *i;

	if (!rep->token_to_orig.nr) {
		size_t k;

		for (k = 0; k < ctx->map.nr; k++)
			smap_put(&rep->token_to_orig, ctx->map.pairs[k].token, k, NULL);
	}
	i = smap_get(&rep->token_to_orig, token);
	return i ? ctx->map.pairs[*i].orig : NULL;
}

static void git_in(const char *dir, const char **argv, const char *what)
{
	if (run_capture(argv, dir, NULL))
		die("%s failed in '%s'", what, dir);
}

/*
 * Line blame must cross the seams of a stitched history as token blame
 * does: a bare repository that borrows the objects of every source
 * (alternates) and grafts each later era's root onto the commit DEST
 * grafted it onto (git replace --graft).  Identities go through the
 * newest source's mailmap, as they would there.
 */
static void setup_line_repo(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf dir = STRBUF_INIT, alt = STRBUF_INIT, gd = STRBUF_INIT, out = STRBUF_INIT,
		path = STRBUF_INIT, mm = STRBUF_INIT;
	struct stat st;
	int k;

	strbuf_addbuf(&rep->line_repo, &ctx->src);
	if (rep->nr_sources < 2)
		return;
	strbuf_addf(&dir, "%s/lines.git", rep->cache.dir.buf);
	if (stat(dir.buf, &st)) {
		const char *argv[] = { "git", "init", "-q", "--bare", dir.buf, NULL };

		git_in(rep->cache.dir.buf, argv, "git init");
	}
	for (k = 0; k < rep->nr_sources; k++) {
		git_dir_of(k == rep->nr_sources - 1 ? ctx->src.buf : rep->sources[k].path, &gd);
		strbuf_addf(&alt, "%s/objects\n", gd.buf);
	}
	strbuf_addf(&path, "%s/objects/info", dir.buf);
	make_dir(path.buf);
	strbuf_addstr(&path, "/alternates");
	write_atomic(path.buf, alt.buf, alt.len);
	{
		const char *bare[] = { "git", "rev-parse", "--is-bare-repository", NULL };
		const char *unset_blob[] = { "git", "config", "--unset-all", "mailmap.blob", NULL };
		const char *unset_file[] = { "git", "config", "--unset-all", "mailmap.file", NULL };
		const char *set[] = { "git", "config", NULL, NULL, NULL };

		run_capture_quiet(unset_blob, dir.buf, NULL);
		run_capture_quiet(unset_file, dir.buf, NULL);
		strbuf_reset(&out);
		run_capture(bare, ctx->src.buf, &out);
		if (!strncmp(out.buf, "true", 4)) {
			const char *head[] = { "git", "rev-parse", "--verify", "-q", "HEAD^{commit}", NULL };

			strbuf_reset(&out);
			if (!run_capture(head, ctx->src.buf, &out)) {
				strbuf_trim_newline(&out);
				strbuf_addf(&mm, "%s:.mailmap", out.buf);
				set[2] = "mailmap.blob";
			}
		} else {
			const char *top[] = { "git", "rev-parse", "--show-toplevel", NULL };

			strbuf_reset(&out);
			run_capture(top, ctx->src.buf, &out);
			strbuf_trim_newline(&out);
			strbuf_addf(&mm, "%s/.mailmap", out.buf);
			set[2] = "mailmap.file";
		}
		if (set[2]) {
			set[3] = mm.buf;
			git_in(dir.buf, set, "git config");
		}
	}
	/* the seams, as DEST has them */
	for (k = 1; k < rep->nr_sources; k++) {
		const char *roots[] = { "git", "rev-list", "--max-parents=0", rep->sources[k].tip, NULL };
		char *p, *nl;

		if (!rep->sources[k].tip[0])
			continue;
		strbuf_reset(&out);
		if (run_capture(roots, k == rep->nr_sources - 1 ? ctx->src.buf : rep->sources[k].path, &out))
			die("cannot list the root commits of '%s'", rep->sources[k].path);
		for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			const char *tok, *porig;
			char root[41], parent_spec[64];
			const char *argv_p[] = { "git", "rev-parse", "--verify", "-q", parent_spec, NULL };
			struct strbuf par = STRBUF_INIT;

			*nl = '\0';
			if (strlen(p) != 40)
				continue;
			memcpy(root, p, 41);
			tok = oid_map_token(&ctx->map, root);
			if (!tok)
				continue;
			snprintf(parent_spec, sizeof(parent_spec), "%s^1", tok);
			if (!run_capture_quiet(argv_p, ctx->gitdir.buf, &par)) {
				strbuf_trim_newline(&par);
				porig = orig_of(rep, par.buf);
				if (porig) {
					char pbuf[41];
					const char *argv_r[] = { "git", "replace", "-f", "--graft", root, pbuf, NULL };

					memcpy(pbuf, porig, 41);
					git_in(dir.buf, argv_r, "git replace --graft");
					strbuf_addf(&rep->line_grafts, " %s %s", root, pbuf);
				}
			}
			strbuf_release(&par);
		}
	}
	strbuf_reset(&rep->line_repo);
	strbuf_addbuf(&rep->line_repo, &dir);
	strbuf_release(&dir);
	strbuf_release(&alt);
	strbuf_release(&gd);
	strbuf_release(&out);
	strbuf_release(&path);
	strbuf_release(&mm);
}

/* ---- the files and what their blames depend on ------------------------- */





static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct rfile *)a)->path, ((const struct rfile *)b)->path);
}

static int is_token_path(struct report *rep, const char *path)
{
	return !is_git_control_file(path) && !(rep->keep_other && language_for_path(path) == &language_none);
}

/* The files a pathspec selects (blame_select_paths); with none given, every file. */

/*
 * The files the figures leave out (blame_left_out: --exclude, vendored,
 * generated), and how many files and tokens of the tree each reason took.
 */

static void count_left_out_tokens(const char *path, const char *blob, size_t lines, int binary, void *data)
{
	struct report *rep = data;
	size_t *why = smap_get(&rep->left_out_files, path);

	(void)blob;
	(void)binary;
	if (why)
		rep->left_out_total[*why].tokens += lines;
}

static void list_files(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	const char *ls[] = { "git", "ls-tree", "-r", "-z", ctx->orig, NULL };
	struct strbuf out = STRBUF_INIT;
	size_t *why;
	char *p;

	if (run_capture(ls, ctx->src.buf, &out))
		die("git ls-tree failed in '%s'", ctx->src.buf);
	for (p = out.buf; p < out.buf + out.len; p += strlen(p) + 1) {
		char *tab = strchr(p, '\t');
		const struct language *lang;

		/* "100644 blob ID\tPATH": regular files only (links and submodules are no views) */
		if (!tab || tab - p != 52 || (strncmp(p, "100644 blob ", 12) && strncmp(p, "100755 blob ", 12)))
			continue;
		if (rep->paths_selected && !smap_get(&rep->selected_paths, tab + 1))
			continue;
		lang = language_for_path(tab + 1);
		if (lang == &language_none || is_git_control_file(tab + 1))
			continue;
		if (rep->left_out.nr && (why = smap_get(&rep->left_out, tab + 1))) {
			rep->left_out_total[*why].files++;
			smap_put(&rep->left_out_files, tab + 1, *why, NULL);
			continue;
		}
		ALLOC_GROW(rep->files, rep->nr_files + 1, rep->alloc_files);
		memset(&rep->files[rep->nr_files], 0, sizeof(*rep->files));
		rep->files[rep->nr_files].path = xstrdup(tab + 1);
		memcpy(rep->files[rep->nr_files].blob, p + 12, 40);
		rep->files[rep->nr_files].blob[40] = '\0';
		rep->nr_files++;
	}
	/* a file without a view in the token tree has no token blame: no need to ask */
	{
		const char *lt[] = { "git", "ls-tree", "-r", "-z", ctx->token, NULL };
		struct smap views = { NULL, 0, 0 };
		size_t k, kept = 0;

		strbuf_reset(&out);
		if (run_capture(lt, ctx->gitdir.buf, &out))
			die("git ls-tree failed in '%s'", ctx->gitdir.buf);
		/* "MODE blob ID\tPATH": the view's blob, by its offset in out */
		for (p = out.buf; p < out.buf + out.len; p += strlen(p) + 1) {
			char *tab = strchr(p, '\t');

			if (tab && tab - p == 52 && !strncmp(p + 6, " blob ", 6))
				smap_put(&views, tab + 1, (size_t)(p + 12 - out.buf), NULL);
		}
		for (k = 0; k < rep->nr_files; k++) {
			size_t *at = smap_get(&views, rep->files[k].path);

			if (at) {
				memcpy(rep->files[k].view_blob, out.buf + *at, 40);
				rep->files[k].view_blob[40] = '\0';
				rep->files[kept++] = rep->files[k];
			} else {
				free(rep->files[k].path);
				rep->nr_no_view++;
			}
		}
		rep->nr_files = kept;
		smap_release(&views);
	}
	/* the tokens of the files left out: the lines of their views */
	if (rep->left_out_files.nr)
		tree_lines(ctx->gitdir.buf, ctx->token, count_left_out_tokens, rep);
	qsort(rep->files, rep->nr_files, sizeof(*rep->files), cmp_file);
	strbuf_release(&out);
}

/* A map of paths to commit ids. */
struct touch {
	struct smap paths;
	char (*ids)[41];
	size_t nr, alloc;
};

static void touch_set(struct touch *t, const char *path, const char *id)
{
	int isnew;
	size_t *v = smap_put(&t->paths, path, t->nr, &isnew);

	if (isnew) {
		ALLOC_GROW(t->ids, t->nr + 1, t->alloc);
		t->nr++;
	}
	memcpy(t->ids[*v], id, 41);
}

static void touch_release(struct touch *t)
{
	smap_release(&t->paths);
	free(t->ids);
	memset(t, 0, sizeof(*t));
}

static int is_ancestor(const char *dir, const char *a, const char *b)
{
	const char *argv[] = { "git", "merge-base", "--is-ancestor", a, b, NULL };

	return !run_capture_quiet(argv, dir, NULL);
}

/*
 * For every file, the newest commit of tip's history in dir that touched
 * it (every non-merge commit counts: --full-history), into the field at
 * offset `field` of struct rfile.  What a walk learnt is kept in the cache
 * under `name`; a later tip walks only the commits that are new.
 */
static void last_touch(struct report *rep, const char *dir, const char *tip, const char *name,
		       const char **pathspec, int nr_pathspec, size_t field)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT, rec = STRBUF_INIT, key = STRBUF_INIT;
	struct touch old = { { NULL, 0, 0 }, NULL, 0, 0 }, walk = { { NULL, 0, 0 }, NULL, 0, 0 };
	char old_tip[41] = "", h[41], cur[41] = "";
	const char **argv = xcalloc((size_t)nr_pathspec + 16, sizeof(*argv));
	struct reader *r = xmalloc(sizeof(*r));
	size_t i;
	int n = 0;

	strbuf_addf(&key, "%s", name);
	for (i = 0; i < (size_t)nr_pathspec; i++)
		strbuf_addf(&key, "%c%s", 0, pathspec[i]);
	hash_hex(&key, h);
	strbuf_addf(&path, "%s/touch-%s", rep->cache.dir.buf, h);
	if (!read_whole(path.buf, &sb) && !strncmp(sb.buf, "tip ", 4) && sb.len > 45 && sb.buf[44] == '\n') {
		char *p = sb.buf + 45, *nl;

		memcpy(old_tip, sb.buf + 4, 40);
		old_tip[40] = '\0';
		for (; (nl = strchr(p, '\n')); p = nl + 1) {
			char *pth;

			*nl = '\0';
			if (nl - p < 42 || p[40] != '\t')
				continue;
			p[40] = '\0';
			pth = percent_unescape(p + 41, strlen(p + 41));
			touch_set(&old, pth, p);
			free(pth);
		}
		if (strcmp(old_tip, tip) && !is_ancestor(dir, old_tip, tip)) {
			/* another line of history: start afresh */
			touch_release(&old);
			old_tip[0] = '\0';
		}
	}
	if (strcmp(old_tip, tip)) {
		char not_old[48];

		argv[n++] = "git";
		argv[n++] = "log";
		argv[n++] = "-z";
		argv[n++] = "--no-renames";
		argv[n++] = "--full-history";
		argv[n++] = "--name-only";
		argv[n++] = "--format=%x01%H";
		argv[n++] = tip;
		if (old_tip[0]) {
			snprintf(not_old, sizeof(not_old), "^%s", old_tip);
			argv[n++] = not_old;
		}
		argv[n++] = "--";
		for (i = 0; i < (size_t)nr_pathspec; i++)
			argv[n++] = pathspec[i];
		reader_start(r, argv, dir);
		while (reader_next(r, &rec, '\0')) {
			const char *p = rec.buf;

			if (*p == '\001') {
				if (rec.len >= 41)
					memcpy(cur, p + 1, 40);
				cur[40] = '\0';
				continue;
			}
			while (*p == '\n')
				p++;
			if (*p && cur[0] && !smap_get(&walk.paths, p))
				touch_set(&walk, p, cur);
		}
		if (reader_finish(r))
			die("git log failed in '%s'", dir);
		for (i = 0; i < walk.paths.cap; i++)
			if (walk.paths.v[i].key)
				touch_set(&old, walk.paths.v[i].key, walk.ids[walk.paths.v[i].val]);
		/* save what we know now */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "tip %s\n", tip);
		for (i = 0; i < old.paths.cap; i++)
			if (old.paths.v[i].key) {
				strbuf_addf(&sb, "%s\t", old.ids[old.paths.v[i].val]);
				percent_escape(&sb, old.paths.v[i].key, strlen(old.paths.v[i].key), CACHE_FIELD);
				strbuf_addch(&sb, '\n');
			}
		write_atomic(path.buf, sb.buf, sb.len);
	}
	for (i = 0; i < rep->nr_files; i++) {
		size_t *v = smap_get(&old.paths, rep->files[i].path);
		char *dst = (char *)&rep->files[i] + field;

		if (v)
			memcpy(dst, old.ids[*v], 41);
		else
			strcpy(dst, "-");
	}
	touch_release(&old);
	touch_release(&walk);
	free(argv);
	free(r);
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&rec);
	strbuf_release(&key);
}

static void file_keys(struct report *rep)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < rep->nr_files; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%c%s%c%s%c%s%c%s%c%s%s%c%d", CACHE_VERSION, 0, rep->files[i].path, 0,
			    rep->files[i].blob, 0, rep->files[i].tok_last, 0, rep->files[i].line_last, 0,
			    rep->opt.move ? " -M" : "", rep->opt.ignore_ws ? " -w" : "", 0, rep->nr_sources);
		strbuf_addch(&sb, 0);
		strbuf_addstr(&sb, rep->engine_key);
		hash_hex(&sb, rep->files[i].key);
	}
	strbuf_release(&sb);
}

/*
 * The entries are kept in packs, report-cache/entries-*.pack, each entry
 * "KEY LENGTH\n" and its LENGTH bytes: one pack per worker and report,
 * written under a temporary name and renamed when whole, so that a killed
 * report leaves whole packs or none.  (A file per entry made the file
 * system's inode allocation cost more than the blames on a tree of
 * 78,000 files.)  Past MAX_PACKS packs, a report that wrote new entries
 * merges them all into one.
 */
#define MAX_PACKS 16




static int is_pack_name(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "entries-", 8) && n > 13 && !strcmp(name + n - 5, ".pack");
}

static int pack_is_read(struct report *rep, const char *name)
{
	size_t i;

	for (i = 0; i < rep->cache.nr; i++)
		if (!strcmp(rep->cache.names[i], name))
			return 1;
	return 0;
}

/* Reads the packs of the cache not read yet into memory, and indexes their entries. */
static void read_packs(struct report *rep)
{
	DIR *d = opendir(rep->cache.dir.buf);
	struct dirent *e;
	struct strbuf path = STRBUF_INIT;

	if (!d)
		die_errno("cannot read '%s'", rep->cache.dir.buf);
	while ((e = readdir(d))) {
		struct strbuf *sb;
		char *p, *end;

		if (!is_pack_name(e->d_name) || pack_is_read(rep, e->d_name))
			continue;
		ALLOC_GROW(rep->cache.data, rep->cache.nr + 1, rep->cache.alloc);
		rep->cache.names = xrealloc(rep->cache.names, rep->cache.alloc * sizeof(*rep->cache.names));
		sb = &rep->cache.data[rep->cache.nr];
		strbuf_init(sb, 0);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", rep->cache.dir.buf, e->d_name);
		if (read_whole(path.buf, sb))
			die_errno("cannot read '%s'", path.buf);
		rep->cache.names[rep->cache.nr] = xstrdup(e->d_name);
		for (p = sb->buf, end = sb->buf + sb->len; p < end;) {
			char *sp = memchr(p, ' ', (size_t)(end - p)), *nl, *q;
			unsigned long long len;
			int isnew;

			nl = sp ? memchr(sp, '\n', (size_t)(end - sp)) : NULL;
			if (!sp || sp - p != 40 || !nl)
				die("%s: a corrupt pack (remove it, or the whole cache directory)", path.buf);
			*sp = '\0';
			len = strtoull(sp + 1, &q, 10);
			if (q != nl || q == sp + 1 || len > (unsigned long long)(end - (nl + 1)))
				die("%s: a corrupt pack (remove it, or the whole cache directory)", path.buf);
			smap_put(&rep->cache.index, p, rep->cache.nr_entries, &isnew);
			if (isnew) {
				ALLOC_GROW(rep->cache.entries, rep->cache.nr_entries + 1, rep->cache.alloc_entries);
				memcpy(rep->cache.entries[rep->cache.nr_entries].key, p, 41);
				rep->cache.entries[rep->cache.nr_entries].pack = rep->cache.nr;
				rep->cache.entries[rep->cache.nr_entries].off = (size_t)(nl + 1 - sb->buf);
				rep->cache.entries[rep->cache.nr_entries].len = (size_t)len;
				rep->cache.nr_entries++;
			}
			p = nl + 1 + len;
		}
		rep->cache.nr++;
	}
	closedir(d);
	strbuf_release(&path);
}

static const struct entry_loc *find_entry(struct report *rep, const char *key)
{
	size_t *i = smap_get(&rep->cache.index, key);

	return i ? &rep->cache.entries[*i] : NULL;
}

/* A pack being written: under a temporary name until pack_finish(). */

static void pack_start(struct report *rep, struct pack_writer *w)
{
	strbuf_init(&w->tmp, 0);
	strbuf_init(&w->buf, 0);
	strbuf_addf(&w->tmp, "%s/tmp-entries-XXXXXX", rep->cache.dir.buf);
	w->fd = mkstemp(w->tmp.buf);
	if (w->fd < 0)
		die_errno("cannot create a pack in '%s'", rep->cache.dir.buf);
}

static void pack_flush(struct pack_writer *w)
{
	const char *p = w->buf.buf;
	size_t len = w->buf.len;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die_errno("cannot write '%s'", w->tmp.buf);
		p += n;
		len -= (size_t)n;
	}
	strbuf_reset(&w->buf);
}

static void pack_add(struct pack_writer *w, const char *key, const char *data, size_t len)
{
	strbuf_addf(&w->buf, "%s %zu\n", key, len);
	strbuf_add(&w->buf, data, len);
	if (w->buf.len >= (1 << 20))
		pack_flush(w);
}

/* The pack is whole: it gets its name (entries-XXXXXX.pack, from the temporary one). */
static void pack_finish(struct report *rep, struct pack_writer *w)
{
	struct strbuf name = STRBUF_INIT;

	pack_flush(w);
	if (fchmod(w->fd, 0644) || close(w->fd))
		die_errno("cannot write '%s'", w->tmp.buf);
	strbuf_addf(&name, "%s/entries-%s.pack", rep->cache.dir.buf, w->tmp.buf + w->tmp.len - 6);
	if (rename(w->tmp.buf, name.buf))
		die_errno("cannot rename '%s'", w->tmp.buf);
	strbuf_release(&name);
	strbuf_release(&w->tmp);
	strbuf_release(&w->buf);
}

/* Reads the workers' packs; past MAX_PACKS packs, all of them into one: entries named twice once. */
static void merge_packs(struct report *rep)
{
	struct pack_writer w;
	struct strbuf path = STRBUF_INIT;
	size_t i;

	read_packs(rep);  /* the workers' new ones */
	if (rep->cache.nr <= MAX_PACKS)
		return;
	pack_start(rep, &w);
	for (i = 0; i < rep->cache.nr_entries; i++) {
		const struct entry_loc *e = &rep->cache.entries[i];
		pack_add(&w, e->key, rep->cache.data[e->pack].buf + e->off, e->len);
	}
	pack_finish(rep, &w);
	for (i = 0; i < rep->cache.nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", rep->cache.dir.buf, rep->cache.names[i]);
		if (unlink(path.buf) && errno != ENOENT)
			die_errno("cannot remove '%s'", path.buf);
	}
	strbuf_release(&path);
}

/* ---- one file: both blames, summed up into a cache entry --------------- */

/*
 * The cache entry of a file:
 *   tokstream-report 1
 *   path PATH
 *   lang LANGUAGE                      (or: skip REASON)
 *   size LINES CODE-LINES TOKENS COMMENT-TOKENS
 *   c ORIGINAL-ID LINES TOKENS         one per commit, by lines and by tokens
 *   f LINE TOKENS NAME I:N...          one per function: N of its tokens from the I-th commit
 * (PATH, NAME and REASON %-escaped).
 */
static void blame_one(struct report *rep, struct rfile *f, struct strbuf *entry)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct blame_result res;
	struct commit_table lt = { NULL, 0, 0 };
	struct commit_info **lc;
	struct strbuf out = STRBUF_INIT;
	struct smap ids = { NULL, 0, 0 };
	struct function_span *fn;
	const char **argv = xcalloc(12 + 2 * ctx->nr_ignored, sizeof(*argv)), *err;
	size_t nr_lines = 0, lines = 0, code_lines = 0, comment_tokens = 0, i, nr_c = 0, nr_fn, k;
	size_t *c_lines = NULL, *c_tokens = NULL, alloc_c = 0, *cnt, *touched;
	char **c_id = NULL;
	char *code;
	int n = 0;

	strbuf_reset(entry);
	strbuf_addstr(entry, CACHE_VERSION "\npath ");
	percent_escape(entry, f->path, strlen(f->path), CACHE_FIELD);
	strbuf_addch(entry, '\n');
	if (blame_file_at(ctx, f->path, f->blob, f->view_blob, &res, &err)) {
		strbuf_addstr(entry, "skip ");
		percent_escape(entry, err, strlen(err), CACHE_FIELD);
		strbuf_addch(entry, '\n');
		blame_result_release(&res);
		free(argv);
		return;
	}
	if (rep->line_replay) {
		lc = replay_commits(&lt, rep->line_replay, f->path, &nr_lines);
		if (!lc)
			die("'%s' is not in the replay of '%s'", f->path, rep->line_repo.buf);
	} else {
		argv[n++] = "git";
		argv[n++] = "blame";
		argv[n++] = "--porcelain";
		if (rep->opt.move)
			argv[n++] = "-M";
		if (rep->opt.ignore_ws)
			argv[n++] = "-w";
		for (i = 0; i < ctx->nr_ignored; i++) {
			argv[n++] = "--ignore-rev";
			argv[n++] = ctx->ignored[i];
		}
		argv[n++] = ctx->orig;
		argv[n++] = "--";
		argv[n++] = f->path;
		argv[n] = NULL;
		if (run_capture(argv, rep->line_repo.buf, &out))
			die("git blame of '%s' failed in '%s'", f->path, rep->line_repo.buf);
		lc = parse_porcelain(&lt, out.buf, &nr_lines);
	}

	/* lines as git blame counts them: a last line without LF is one */
	for (i = 0; i < res.content.len; i++)
		lines += res.content.buf[i] == '\n';
	if (res.content.len && res.content.buf[res.content.len - 1] != '\n')
		lines++;
	if (nr_lines != lines)
		die("git blame of '%s' gave %zu lines for a file of %zu", f->path, nr_lines, lines);

	/* code lines: those that hold a token that is not a comment */
	code = xcalloc(lines + 1, 1);
	for (i = 0; i < res.nr_toks; i++) {
		struct token_pos *t = &res.toks[i];
		size_t l = t->line, j;

		if (t->cls == TOKEN_COMMENT) {
			comment_tokens++;
			continue;
		}
		for (j = t->start; ; j++) {
			if (l >= 1 && l <= lines)
				code[l - 1] = 1;
			if (j >= t->start + t->len)
				break;
			if (res.content.buf[j] == '\n')
				l++;
		}
	}
	for (i = 0; i < lines; i++)
		code_lines += code[i];
	free(code);

	/* the commits of the file, by lines and by tokens */
#define COMMIT_INDEX(id, out_idx) do { \
		int isnew_; \
		size_t *v_ = smap_put(&ids, (id), nr_c, &isnew_); \
		if (isnew_) { \
			ALLOC_GROW(c_lines, nr_c + 1, alloc_c); \
			c_tokens = xrealloc(c_tokens, alloc_c * sizeof(*c_tokens)); \
			c_id = xrealloc(c_id, alloc_c * sizeof(*c_id)); \
			c_lines[nr_c] = c_tokens[nr_c] = 0; \
			c_id[nr_c] = xstrdup(id); \
			nr_c++; \
		} \
		(out_idx) = *v_; \
	} while (0)
	for (i = 0; i < res.commits.nr; i++) {
		struct commit_info *c = res.commits.v[i];
		size_t idx;

		COMMIT_INDEX(c->orig, idx);
		c->group = (int)idx;
		c_tokens[idx] += c->tokens;
	}
	for (i = 0; i < nr_lines; i++) {
		size_t idx;

		if (!lc[i])
			die("git blame of '%s' gave no commit for line %zu", f->path, i + 1);
		COMMIT_INDEX(lc[i]->token, idx);
		c_lines[idx]++;
	}
#undef COMMIT_INDEX
	strbuf_addf(entry, "lang %s\nsize %zu %zu %zu %zu\n", res.lang->name, lines, code_lines,
		    res.nr_toks, comment_tokens);
	for (i = 0; i < nr_c; i++)
		strbuf_addf(entry, "c %s %zu %zu\n", c_id[i], c_lines[i], c_tokens[i]);

	/* functions: their tokens by commit */
	nr_fn = find_functions(&res, &fn);
	cnt = xcalloc(nr_c + 1, sizeof(*cnt));
	touched = xcalloc(nr_c + 1, sizeof(*touched));
	for (k = 0; k < nr_fn; k++) {
		struct token_pos *name = &res.toks[fn[k].name];
		size_t nt = 0, j;

		for (j = fn[k].name; j < fn[k].end; j++) {
			size_t g = (size_t)res.toks[j].commit->group;

			if (!cnt[g]++)
				touched[nt++] = g;
		}
		strbuf_addf(entry, "f %zu %zu ", name->line, fn[k].end - fn[k].name);
		percent_escape(entry, res.content.buf + name->start, name->len, CACHE_FIELD);
		for (j = 0; j < nt; j++) {
			strbuf_addf(entry, " %zu:%zu", touched[j], cnt[touched[j]]);
			cnt[touched[j]] = 0;
		}
		strbuf_addch(entry, '\n');
	}
	free(fn);
	free(cnt);
	free(touched);
	for (i = 0; i < nr_c; i++)
		free(c_id[i]);
	free(c_id);
	free(c_lines);
	free(c_tokens);
	smap_release(&ids);
	free(lc);
	for (i = 0; i < lt.nr; i++) {
		struct commit_info *c = lt.v[i];

		free(c->author);
		free(c->author_mail);
		free(c->author_tz);
		free(c->committer);
		free(c->committer_mail);
		free(c->committer_tz);
		free(c->summary);
		free(c->filename);
		free(c);
	}
	free(lt.v);
	free(argv);
	blame_result_release(&res);
	strbuf_release(&out);
}



/*
 * The tokens each commit added to and removed from each file, as the
 * attribution engine's diff found them (its on_change), by "COMMIT PATH".
 */


static void record_change(const char *commit, const char *path, size_t added, size_t removed, void *data)
{
	struct report *rep = report_of_ctx(data);
	struct strbuf key = STRBUF_INIT;
	size_t *at;
	int isnew;

		strbuf_addf(&key, "%s %s", commit, path);
	at = smap_put(&rep->change_index, key.buf, rep->nr_file_changes, &isnew);
	if (isnew) {
		ALLOC_GROW(rep->file_changes, rep->nr_file_changes + 1, rep->alloc_file_changes);
		memset(&rep->file_changes[rep->nr_file_changes++], 0, sizeof(*rep->file_changes));
	}
	rep->file_changes[*at].added += added;
	rep->file_changes[*at].removed += removed;
	strbuf_release(&key);
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

/* The cache file of the commit sizes of the pathspec, in path. */
static void sizes_cache_path(struct report *rep, const char **pathspec, int nr_pathspec, struct strbuf *path)
{
	struct strbuf key = STRBUF_INIT;
	char h[41];
	int i;

	strbuf_addf(&key, "sizes 2%c%s%cvendored %d%c%s%c%s", 0, rep->engine_key, 0, rep->opt.include_vendored,
		    0, rep->window.since, 0, rep->window.until);
	for (i = 0; i < nr_pathspec; i++)
		strbuf_addf(&key, "%c%s", 0, pathspec[i]);
	for (i = 0; i < rep->opt.nr_exclude; i++)
		strbuf_addf(&key, "%cexclude %s", 0, rep->opt.exclude[i]);
	hash_hex(&key, h);
	strbuf_addf(path, "%s/sizes-%s", rep->cache.dir.buf, h);
	strbuf_release(&key);
}

/* Reads the commit sizes of the pathspec at the tip from the cache: 1 if they were there. */
static int read_sizes_cache(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char *p, *nl;
	int ok = 0;

	sizes_cache_path(rep, pathspec, nr_pathspec, &path);
	if (!read_whole(path.buf, &sb) && !strncmp(sb.buf, "tip ", 4) && sb.len > 45 && sb.buf[44] == '\n' &&
	    !strncmp(sb.buf + 4, ctx->token, 40)) {
		for (p = sb.buf + 45; (nl = strchr(p, '\n')); p = nl + 1) {
			struct csize *c;

			*nl = '\0';
			ALLOC_GROW(rep->csizes, rep->nr_csizes + 1, rep->alloc_csizes);
			c = &rep->csizes[rep->nr_csizes];
			if (strlen(p) < 44 || p[40] != ' ' ||
			    sscanf(p + 41, "%zu %zu", &c->added, &c->removed) != 2)
				die("%s: corrupt", path.buf);
			memcpy(c->token, p, 40);
			c->token[40] = '\0';
			rep->nr_csizes++;
		}
		ok = 1;
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return ok;
}

/*
 * Every non-merge commit of the token history of the tip that changes a
 * selected token file (git log --name-only, so that the pathspec means
 * what it means to git), with the tokens it adds to and removes from
 * them by the attribution engine's diff: the whole tree's replay, the
 * one blame_fresh() made or one made here.  Kept in the cache per
 * pathspec and tip.
 */
static void commit_sizes(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	const char **argv = xcalloc((size_t)nr_pathspec + 16, sizeof(*argv));
	struct strbuf rec = STRBUF_INIT, key = STRBUF_INIT, path = STRBUF_INIT, sb = STRBUF_INIT;
	struct strbuf since = STRBUF_INIT, until = STRBUF_INIT;
	struct reader *r;
	char cur[41] = "";
	size_t i, a = 0, rm = 0;
	int n = 0, counted = 0;

	if (rep->sizes_from_cache)
		goto done;
	if (rep->opt.since)
		strbuf_addstr(&since, rep->window.since);
	if (rep->opt.until)
		strbuf_addstr(&until, rep->window.until);
	if (!rep->changes_recorded) {
		struct replay_options o = ctx->engine;

		o.on_change = record_change;
		if (progress_wanted(rep->opt.progress))
			o.progress_title = "Replaying commits for their sizes";
		replay_free(replay_tokens(ctx->gitdir.buf, ctx->token, &o));
		rep->changes_recorded = 1;
	}
	argv[n++] = "git";
	argv[n++] = "log";
	argv[n++] = "-z";
	argv[n++] = "--no-merges";
	argv[n++] = "--full-history";
	argv[n++] = "--no-renames";
	argv[n++] = "--name-only";
	argv[n++] = "--format=%x01%H";
	if (since.len)
		argv[n++] = since.buf;
	if (until.len)
		argv[n++] = until.buf;
	argv[n++] = ctx->token;
	argv[n++] = "--";
	for (i = 0; i < (size_t)nr_pathspec; i++)
		argv[n++] = pathspec[i];
	r = xmalloc(sizeof(*r));
	reader_start(r, argv, ctx->gitdir.buf);
	/* "\001COMMIT", NUL, then "\nPATH", NUL and "PATH", NUL... */
	for (;;) {
		int more = reader_next(r, &rec, '\0');
		const char *p = rec.buf;
		size_t *at;

		if (!more || *p == '\001') {
			if (counted) {
				ALLOC_GROW(rep->csizes, rep->nr_csizes + 1, rep->alloc_csizes);
				memcpy(rep->csizes[rep->nr_csizes].token, cur, 41);
				rep->csizes[rep->nr_csizes].added = a;
				rep->csizes[rep->nr_csizes].removed = rm;
				rep->nr_csizes++;
			}
			if (!more)
				break;
			if (rec.len != 41)
				die("unexpected output of git log in '%s'", ctx->gitdir.buf);
			memcpy(cur, p + 1, 41);
			a = rm = 0;
			counted = 0;
			continue;
		}
		while (*p == '\n')
			p++;
		if (!*p || !is_token_path(rep, p) || (rep->left_out.nr && smap_get(&rep->left_out, p)))
			continue;
		counted = 1;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s %s", cur, p);
		if ((at = smap_get(&rep->change_index, key.buf))) {
			a += rep->file_changes[*at].added;
			rm += rep->file_changes[*at].removed;
		}
	}
	if (reader_finish(r))
		die("git log failed in '%s'", ctx->gitdir.buf);
	free(r);
	sizes_cache_path(rep, pathspec, nr_pathspec, &path);
	strbuf_addf(&sb, "tip %s\n", ctx->token);
	for (i = 0; i < rep->nr_csizes; i++)
		strbuf_addf(&sb, "%s %zu %zu\n", rep->csizes[i].token, rep->csizes[i].added, rep->csizes[i].removed);
	write_atomic(path.buf, sb.buf, sb.len);
done:
	free(argv);
	strbuf_release(&rec);
	strbuf_release(&key);
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&since);
	strbuf_release(&until);
}

static void replay_lines(void *data)
{
	struct report *rep = data;
	struct blame_ctx *ctx = &rep->ctx;
	struct replay_options o = { 0 };
	struct strbuf path = STRBUF_INIT, key = STRBUF_INIT;

	blame_checkpoint_path(ctx->gitdir.buf, "lines", 1, &path);
	strbuf_addf(&key, "lines ws %d%s", rep->opt.ignore_ws, rep->line_grafts.buf);
	o.ignore_ws = rep->opt.ignore_ws;
	o.checkpoint = path.buf;
	o.checkpoint_key = key.buf;
	age_hook(&o, 1);
	rep->line_replay = replay_history(rep->line_repo.buf, ctx->orig, &o);
	strbuf_release(&path);
	strbuf_release(&key);
}

/*
 * Whether an earlier replay of the whole tree left its state: a replay
 * then costs only the commits since, less than the history of each file.
 */
static int has_checkpoint(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf path = STRBUF_INIT;
	int ret;

	blame_checkpoint_path(ctx->gitdir.buf, "tokens", 0, &path);
	ret = !access(path.buf, F_OK);
	strbuf_release(&path);
	return ret;
}

/* Blames the fresh files, in opt.jobs processes; each writes its entries into the cache. */
static void blame_fresh(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	size_t *todo = xcalloc(rep->nr_files + 1, sizeof(*todo)), nr_todo = 0, k;
	pid_t *pids = xcalloc((size_t)rep->opt.jobs, sizeof(*pids));
	int w, jobs, use_replay = 0;

	for (k = 0; k < rep->nr_files; k++)
		if (rep->files[k].fresh)
			todo[nr_todo++] = k;

	/*
	 * One pass over each history costs about what blaming every file of
	 * the tree one by one costs, so it pays when the whole tree is
	 * selected and more than a few of its files are to be blamed.  Line
	 * blame with -M or ignored revisions needs git blame's own search.
	 */
	if (rep->opt.replay == REPLAY_ALWAYS)
		use_replay = nr_todo > 0;
	else if (rep->opt.replay == REPLAY_AUTO)
		use_replay = (rep->whole_tree_selected && (nr_todo >= 32 || nr_todo * 4 >= rep->nr_files ||
						      (nr_todo && has_checkpoint(rep)))) ||
			     (nr_todo && age_wants(0));  /* the code age needs the pass anyway */
	if (use_replay) {
		struct side_job lines;
		int line_side = !rep->opt.move && !ctx->nr_ignored;

		if (line_side)
			side_job_start(rep, &lines, replay_lines, rep);
		if (!rep->sizes_from_cache)
			ctx->engine.on_change = record_change;  /* the commit sizes, from the same pass */
		if (progress_wanted(rep->opt.progress))
			ctx->engine.progress_title = "Replaying commits";
		age_hook(&ctx->engine, 0);
		blame_replay_tree(ctx);
		age_unhook(&ctx->engine);
		ctx->engine.progress_title = NULL;
		ctx->engine.on_change = NULL;
		rep->changes_recorded = !rep->sizes_from_cache;
		if (line_side)
			side_job_finish(&lines);
		step_done(rep, "replays");
		rep->blamed_by = line_side ? "one replay of each history"
				      : "one replay of the token history, git blame of each file by lines";
	} else if (nr_todo) {
		rep->blamed_by = "the history of each file by tokens, git blame of each file by lines";
	}
	jobs = (size_t)rep->opt.jobs > nr_todo ? (int)nr_todo : rep->opt.jobs;  /* 0: nothing to blame */
	fflush(NULL);
	for (w = 0; w < jobs; w++) {
		pids[w] = jobs > 1 ? fork() : 0;
		if (pids[w] < 0)
			die_errno("fork");
		if (pids[w] == 0) {
			struct strbuf entry = STRBUF_INIT;
			struct pack_writer pw;

			pack_start(rep, &pw);
			for (k = (size_t)w; k < nr_todo; k += (size_t)jobs) {
				struct rfile *f = &rep->files[todo[k]];

				blame_one(rep, f, &entry);
				pack_add(&pw, f->key, entry.buf, entry.len);
			}
			pack_finish(rep, &pw);
			strbuf_release(&entry);
			if (jobs > 1) {
				fflush(NULL);
				_exit(0);
			}
		}
	}
	for (w = 0; w < jobs && jobs > 1; w++) {
		int status;

		if (waitpid(pids[w], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("a worker blaming files failed");
	}
	free(todo);
	free(pids);
	/* the new entries, for read_entry(); and no more than MAX_PACKS packs */
	if (nr_todo)
		merge_packs(rep);
	step_done(rep, "files blamed");
	if (ctx->replay)
		replay_free(ctx->replay);
	if (rep->line_replay)
		replay_free(rep->line_replay);
	ctx->replay = rep->line_replay = NULL;
}

/* ---- code age over time: the points are counted in the replays ---------- */


/* list_files()' rule, for a regular file that has a view */
static int age_counts(const char *path)
{
	return language_for_path(path) != &language_none && !is_git_control_file(path);
}

/* Finds the points of the history and what the cache knows of them (age.h). */
static void age_start(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct age_options o;
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT;
	const char **repos = xcalloc((size_t)rep->nr_sources + 1, sizeof(*repos));
	char h[41];
	int k;

	for (k = 0; k < rep->nr_sources; k++)
		repos[k] = k == rep->nr_sources - 1 ? ctx->src.buf : rep->sources[k].path;
	rep->age_lines = !rep->opt.move && !ctx->nr_ignored;
	/* what the counts depend on besides the commit: the options of both replays, the pathspec */
	strbuf_addf(&key, "age 1%c%s%clines ws %d%s%c%d%c%d", 0, rep->engine_key, 0, rep->opt.ignore_ws,
		    rep->line_grafts.buf, 0, rep->age_lines, 0, (int)rep->opt.every);
	for (k = 0; k < nr_pathspec; k++)
		strbuf_addf(&key, "%c%s", 0, pathspec[k]);
	hash_hex(&key, h);
	strbuf_addf(&path, "%s/age-%s", rep->cache.dir.buf, h);
	memset(&o, 0, sizeof(o));
	o.every = rep->opt.every;
	o.line_repo = rep->line_repo.buf;
	o.tag_repos = repos;
	o.nr_tag_repos = (size_t)rep->nr_sources;
	o.pathspec = pathspec;
	o.nr_pathspec = nr_pathspec;
	o.counts = age_counts;
	o.year_of = year_of;
	o.lines = rep->age_lines;
	o.cache = path.buf;
	age_begin(ctx, &o);
	strbuf_release(&key);
	/* path and repos stay: the options are kept */
}

/*
 * The replays that count the points the report's own did not (it made
 * none: every file came from the cache, or --replay=never), each from
 * the checkpoint when that has not gone past a point; then the counts.
 */
static void age_replays(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct side_job lines;
	int need_lines = age_wants(1);

	rep->age_shared = age_counted() > 0;
	rep->age_own = need_lines || age_wants(0);
	if (need_lines)
		side_job_start(rep, &lines, replay_lines, rep);
	if (age_wants(0)) {
		if (!rep->sizes_from_cache && !rep->changes_recorded) {
			ctx->engine.on_change = record_change;  /* the commit sizes, from the same pass */
			rep->changes_recorded = 1;
		}
		age_hook(&ctx->engine, 0);
		blame_replay_tree(ctx);
		age_unhook(&ctx->engine);
		ctx->engine.on_change = NULL;
		replay_free(ctx->replay);
		ctx->replay = NULL;
	}
	if (need_lines) {
		side_job_finish(&lines);
		replay_free(rep->line_replay);
		rep->line_replay = NULL;
	}
	rep->age_samples = age_end(&rep->nr_age_samples);
	step_done(rep, "code age");
}

/* ---- everything together ------------------------------------------------ */




static size_t commit_of(struct report *rep, const char *id)
{
	int isnew;
	size_t *v = smap_put(&rep->commit_index, id, rep->nr_commits, &isnew);

	if (isnew) {
		ALLOC_GROW(rep->commits, rep->nr_commits + 1, rep->alloc_commits);
		memset(&rep->commits[rep->nr_commits], 0, sizeof(*rep->commits));
		memcpy(rep->commits[rep->nr_commits].id, id, 41);
		rep->nr_commits++;
	}
	return *v;
}

static void read_entry(struct report *rep, struct rfile *f)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	const struct entry_loc *e = find_entry(rep, f->key);
	char *p, *nl;
	size_t nr_local = 0, *local = NULL, alloc_local = 0, alloc_c = 0, alloc_fn = 0;

	if (!e)
		die("the report cache in '%s' has no entry for '%s'", rep->cache.dir.buf, f->path);
	strbuf_addf(&path, "%s/%s", rep->cache.dir.buf, rep->cache.names[e->pack]);
	strbuf_add(&sb, rep->cache.data[e->pack].buf + e->off, e->len);
	if (strncmp(sb.buf, CACHE_VERSION "\n", sizeof(CACHE_VERSION)))
		die("%s: a corrupt entry", path.buf);
	for (p = sb.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		if (!strncmp(p, "skip ", 5)) {
			f->skipped = 1;
		} else if (!strncmp(p, "lang ", 5)) {
			f->lang = xstrdup(p + 5);
		} else if (!strncmp(p, "size ", 5)) {
			if (sscanf(p + 5, "%zu %zu %zu %zu", &f->lines, &f->code_lines, &f->tokens,
				   &f->comment_tokens) != 4)
				die("%s: a corrupt entry", path.buf);
		} else if (!strncmp(p, "c ", 2) && strlen(p) > 43 && p[42] == ' ') {
			struct fcount *c;

			p[42] = '\0';
			ALLOC_GROW(f->c, f->nr_c + 1, alloc_c);
			c = &f->c[f->nr_c++];
			c->commit = commit_of(rep, p + 2);
			if (sscanf(p + 43, "%zu %zu", &c->lines, &c->tokens) != 2)
				die("%s: a corrupt entry", path.buf);
			ALLOC_GROW(local, nr_local + 1, alloc_local);
			local[nr_local++] = c->commit;
			rep->commits[c->commit].lines += c->lines;
			rep->commits[c->commit].tokens += c->tokens;
		} else if (!strncmp(p, "f ", 2)) {
			struct ffunc *fn;
			char *q = p + 2, *end, *name;
			size_t alloc = 0;

			ALLOC_GROW(f->fn, f->nr_fn + 1, alloc_fn);
			fn = &f->fn[f->nr_fn++];
			memset(fn, 0, sizeof(*fn));
			fn->line = strtoul(q, &end, 10);
			fn->tokens = strtoul(end, &end, 10);
			name = end + 1;
			q = name + strcspn(name, " ");
			fn->name = percent_unescape(name, (size_t)(q - name));
			while (*q == ' ') {
				size_t i = strtoul(q + 1, &end, 10), nt;

				if (*end != ':' || i >= nr_local)
					die("%s: a corrupt entry", path.buf);
				nt = strtoul(end + 1, &end, 10);
				ALLOC_GROW(fn->commit, fn->nr + 1, alloc);
				fn->count = xrealloc(fn->count, alloc * sizeof(*fn->count));
				fn->commit[fn->nr] = local[i];
				fn->count[fn->nr] = nt;
				fn->nr++;
				q = end;
			}
		}
	}
	if (!f->skipped && !f->lang)
		die("%s: a corrupt entry", path.buf);
	free(local);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/* Authors (mailmapped names) and author times of the commits, from the line repository. */
static void commit_details(struct report *rep)
{
	const char *argv[] = { "git", "log", "--no-walk=unsorted", "--stdin", "-z",
			       rep->opt.no_mailmap ? "--format=%H %at %an" : "--format=%H %at %aN", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *next;
	size_t i;

	if (!rep->nr_commits)
		return;
	for (i = 0; i < rep->nr_commits; i++)
		strbuf_addf(&in, "%s\n", rep->commits[i].id);
	if (run_capture_input(argv, rep->line_repo.buf, &in, &out))
		die("git log failed in '%s'", rep->line_repo.buf);
	for (p = out.buf; p < out.buf + out.len; p = next) {
		char *end;
		size_t *v;
		long long t;

		next = p + strlen(p) + 1;

		if (strlen(p) < 42 || p[40] != ' ')
			continue;
		p[40] = '\0';
		v = smap_get(&rep->commit_index, p);
		t = strtoll(p + 41, &end, 10);
		if (!v || *end != ' ')
			continue;
		rep->commits[*v].time = t;
		rep->commits[*v].author = xstrdup(end + 1);
		rep->commits[*v].known = 1;
	}
	for (i = 0; i < rep->nr_commits; i++) {
		int isnew;
		size_t *v;

		if (!rep->commits[i].known)
			die("commit %s is not in '%s'", rep->commits[i].id, rep->line_repo.buf);
		v = smap_put(&rep->author_index, rep->commits[i].author, rep->nr_authors, &isnew);
		if (isnew) {
			ALLOC_GROW(rep->authors, rep->nr_authors + 1, rep->alloc_authors);
			memset(&rep->authors[rep->nr_authors], 0, sizeof(*rep->authors));
			rep->authors[rep->nr_authors].name = rep->commits[i].author;
			rep->nr_authors++;
		}
		rep->commits[i].author_idx = *v;
		rep->authors[*v].lines += rep->commits[i].lines;
		rep->authors[*v].tokens += rep->commits[i].tokens;
	}
	strbuf_release(&in);
	strbuf_release(&out);
}

/* The era of each commit: the first source (oldest first) that has it. */
static void commit_eras(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	int k;
	size_t i;

	for (i = 0; i < rep->nr_commits; i++)
		rep->commits[i].era = rep->nr_sources > 1 ? 0 : 1;
	for (k = 0; k < rep->nr_sources - 1; k++) {
		const char *argv[] = { "git", "cat-file", "--batch-check=%(objectname) %(objecttype)", NULL };
		char *p, *nl;

		strbuf_reset(&in);
		strbuf_reset(&out);
		for (i = 0; i < rep->nr_commits; i++)
			if (!rep->commits[i].era)
				strbuf_addf(&in, "%s\n", rep->commits[i].id);
		if (!in.len)
			break;
		if (run_capture_input(argv, rep->sources[k].path, &in, &out))
			die("git cat-file failed in '%s'", rep->sources[k].path);
		for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			size_t *v;

			*nl = '\0';
			if (strlen(p) < 41 || strcmp(p + 40, " commit"))
				continue;
			p[40] = '\0';
			v = smap_get(&rep->commit_index, p);
			if (v)
				rep->commits[*v].era = k + 1;
		}
	}
	for (i = 0; i < rep->nr_commits; i++)
		if (!rep->commits[i].era)
			rep->commits[i].era = rep->nr_sources;
	(void)ctx;
	strbuf_release(&in);
	strbuf_release(&out);
}

/* ---- commit sizes in tokens, from the token repository's history ------- */

/* ---- the tables ------------------------------------------------------------ */

struct lang_total {
	const char *name;
	size_t files, lines, code_lines, tokens, comment_tokens;
};

struct year_total {
	int year;
	size_t lines, tokens;
};


static int cmp_by_tokens(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The list of all authors: by tokens, then by lines. */
static int cmp_all(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_by_lines(const void *a, const void *b)
{
	const struct author *x = *(const struct author *const *)a, *y = *(const struct author *const *)b;

	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void rank_authors(struct report *rep)
{
	size_t i;

	rep->by_tokens = xcalloc(rep->nr_authors + 1, sizeof(*rep->by_tokens));
	rep->by_lines = xcalloc(rep->nr_authors + 1, sizeof(*rep->by_lines));
	for (i = 0; i < rep->nr_authors; i++) {
		rep->total_lines += rep->authors[i].lines;
		rep->total_tokens += rep->authors[i].tokens;
		if (rep->authors[i].tokens)
			rep->by_tokens[rep->nr_by_tokens++] = &rep->authors[i];
		if (rep->authors[i].lines)
			rep->by_lines[rep->nr_by_lines++] = &rep->authors[i];
	}
	qsort(rep->by_tokens, rep->nr_by_tokens, sizeof(*rep->by_tokens), cmp_by_tokens);
	qsort(rep->by_lines, rep->nr_by_lines, sizeof(*rep->by_lines), cmp_by_lines);
	for (i = 0; i < rep->nr_by_tokens; i++)
		rep->by_tokens[i]->rank_tokens = i + 1;
	for (i = 0; i < rep->nr_by_lines; i++)
		rep->by_lines[i]->rank_lines = i + 1;
}

static void rank_str(size_t rank, char *buf, size_t size)
{
	if (rank)
		snprintf(buf, size, "%zu", rank);
	else
		snprintf(buf, size, "-");
}

/*
 * The total variation distance between two distributions over authors,
 * given as counts: half the sum of the differences of the shares, in
 * percent; the share of the code that changes hands between the counts.
 */
static double distance(const size_t *l, const size_t *t, size_t n, size_t lt, size_t tt)
{
	double d = 0;
	size_t i;

	if (!lt || !tt)
		return 0;
	for (i = 0; i < n; i++)
		d += absd((double)l[i] / (double)lt - (double)t[i] / (double)tt);
	return 50.0 * d;
}

/* A file's owners, by lines and by tokens. */

static int cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static size_t file_owners(struct report *rep, struct rfile *f, struct owner **out)
{
	struct owner *o = NULL;
	size_t nr = 0, alloc = 0, i, j;

	for (i = 0; i < f->nr_c; i++) {
		size_t a = rep->commits[f->c[i].commit].author_idx;

		for (j = 0; j < nr && o[j].author != a; j++)
			;
		if (j == nr) {
			ALLOC_GROW(o, nr + 1, alloc);
			o[nr].author = a;
			o[nr].name = rep->authors[a].name;
			o[nr].lines = o[nr].tokens = 0;
			nr++;
		}
		o[j].lines += f->c[i].lines;
		o[j].tokens += f->c[i].tokens;
	}
	if (nr)
		qsort(o, nr, sizeof(*o), cmp_owner);
	*out = o;
	return nr;
}

static void file_distances(struct report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nr_files; i++) {
		struct owner *o;
		size_t nr = file_owners(rep, &rep->files[i], &o);
		size_t *l = xcalloc(nr + 1, sizeof(*l)), *t = xcalloc(nr + 1, sizeof(*t));

		for (j = 0; j < nr; j++) {
			l[j] = o[j].lines;
			t[j] = o[j].tokens;
		}
		rep->files[i].distance = distance(l, t, nr, rep->files[i].lines, rep->files[i].tokens);
		free(l);
		free(t);
		free(o);
	}
}

/*
 * The report's tables.  Each is written as OUTDIR/NAME.tsv and kept, cell
 * by cell with its type, for report.json: both outputs come from the same
 * cells, so that report.json can neither miss a table nor differ from the
 * TSV files.  A table is begun with its file and columns, filled a cell
 * at a time in the order of the columns (a row ends after its last
 * column), and written by table_end.
 */




static struct table *table_begin(struct report *rep, const char *file, const char *const *cols)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->file = file;
	t->cols = cols;
	while (cols[t->nr_cols])
		t->nr_cols++;
	ALLOC_GROW(rep->tables, rep->nr_tables + 1, rep->alloc_tables);
	rep->tables[rep->nr_tables++] = t;
	return t;
}

/* Adds a cell of type holding text, which the table takes. */
static void table_cell(struct table *t, enum cell_type type, char *text)
{
	if (t->written)
		BUG("a cell added to %s after it was written", t->file);
	ALLOC_GROW(t->cells, t->nr_cells + 1, t->alloc_cells);
	t->cells[t->nr_cells].type = type;
	t->cells[t->nr_cells].text = text;
	t->nr_cells++;
}

static void table_text(struct table *t, const char *s)
{
	table_cell(t, CELL_TEXT, xstrdup(s ? s : ""));
}

static void table_count(struct table *t, size_t n)
{
	table_cell(t, CELL_INTEGER, xstrfmt("%zu", n));
}

static void table_int(struct table *t, long long n)
{
	table_cell(t, CELL_INTEGER, xstrfmt("%lld", n));
}

/*
 * A number as the TSV shows it ("12.50": report.json has the same
 * digits); text that is no number ("-", or a share of nothing) is null.
 */
static void table_number(struct table *t, const char *text)
{
	table_cell(t, json_is_number(text) ? CELL_NUMBER : CELL_NONE, xstrdup(text));
}

static void table_fixed(struct table *t, double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	table_number(t, buf);
}

/* No value: shown ("" or "-") in the TSV, null in report.json. */
static void table_none(struct table *t, const char *shown)
{
	table_cell(t, CELL_NONE, xstrdup(shown));
}

/* A rank, or "-" for an author absent from that count. */
static void table_rank(struct table *t, size_t rank)
{
	if (rank)
		table_count(t, rank);
	else
		table_none(t, "-");
}

static size_t table_rows(const struct table *t)
{
	return t->nr_cells / t->nr_cols;
}

/* Writes OUTDIR/FILE: the header, then a line per row. */
static void table_end(struct report *rep, struct table *t)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	size_t i;

	if (t->nr_cells % t->nr_cols)
		BUG("%s: %zu cells for rows of %zu", t->file, t->nr_cells, t->nr_cols);
	for (i = 0; i < t->nr_cols; i++) {
		tsv_field(&sb, t->cols[i]);
		strbuf_addch(&sb, i + 1 < t->nr_cols ? '\t' : '\n');
	}
	for (i = 0; i < t->nr_cells; i++) {
		if (t->cells[i].type == CELL_TEXT)
			tsv_field(&sb, t->cells[i].text);
		else
			strbuf_addstr(&sb, t->cells[i].text);
		strbuf_addch(&sb, (i + 1) % t->nr_cols ? '\t' : '\n');
	}
	strbuf_addf(&path, "%s/%s", rep->opt.out_dir, t->file);
	write_atomic(path.buf, sb.buf, sb.len);
	t->written = 1;
	strbuf_release(&sb);
	strbuf_release(&path);
}

/* ---- charts: grouped bars as inline SVG --------------------------------- */

static double nice_max(double m)
{
	static const double steps[] = { 1, 2, 5, 10, 20, 25, 50, 100 };
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (m <= steps[i])
			return steps[i];
	return 100.0 * (double)(long long)(m / 100 + 0.999999);
}

/* Bars of one or two series (percentages) over n labelled categories. */
static void svg_bars(struct strbuf *pg, const char *title, size_t n, char **labels,
		     const double *a, const double *b, const char *name_a, const char *name_b)
{
	int left = 48, top = 28, height = 180, bottom = 64, group = b ? 30 : 22, bar = b ? 13 : 18;
	int width, i, ticks = 5;
	double max = 0, ymax;
	size_t k;

	/* few categories get wider bars */
	if (n && (int)n * group < 420) {
		group = 420 / (int)n > 64 ? 64 : 420 / (int)n;
		bar = b ? group * 2 / 5 : group * 3 / 5;
	}
	width = left + (int)n * group + 16;

	for (k = 0; k < n; k++) {
		if (a[k] > max)
			max = a[k];
		if (b && b[k] > max)
			max = b[k];
	}
	ymax = nice_max(max > 0 ? max : 1);
	if (width < 360)
		width = 360;
	strbuf_addf(pg, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		    width, top + height + bottom, width, top + height + bottom);
	html_text(pg, title);
	strbuf_addstr(pg, "\"><title>");
	html_text(pg, title);
	strbuf_addstr(pg, "</title>");
	for (i = 0; i <= ticks; i++) {
		double v = ymax * i / ticks;
		double y = top + height - height * (double)i / ticks;

		strbuf_addf(pg, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%g%%</text>",
			    left, width - 8, y, y, left - 4, y + 4, v);
	}
	for (k = 0; k < n; k++) {
		int x = left + (int)k * group + 4, s;

		for (s = 0; s < (b ? 2 : 1); s++) {
			double v = s ? b[k] : a[k], h = height * v / ymax;

			strbuf_addf(pg, "<rect class=\"s%d\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>",
				    s + 1, x + s * bar, top + height - h, bar, h);
			html_text(pg, labels[k]);
			strbuf_addstr(pg, ", ");
			html_text(pg, s ? name_b : name_a);
			strbuf_addf(pg, ": %.2f%%</title></rect>", v);
		}
		strbuf_addf(pg, "<text class=\"lab\" transform=\"translate(%d,%d) rotate(-45)\">",
			    x + (b ? bar : bar / 2), top + height + 12);
		html_text(pg, labels[k]);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addf(pg, "<rect class=\"s1\" x=\"%d\" y=\"6\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"15\">",
		    left, left + 14);
	html_text(pg, name_a);
	strbuf_addstr(pg, "</text>");
	if (b) {
		strbuf_addf(pg, "<rect class=\"s2\" x=\"%d\" y=\"6\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"15\">",
			    left + 120, left + 134);
		html_text(pg, name_b);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addstr(pg, "</svg>\n");
}

/* ---- the report ------------------------------------------------------------ */

static const char page_css[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:8px 20px 40px;color:#222}"
	"h1{font-size:1.5em}h2{margin-top:1.8em;border-bottom:1px solid #ddd}"
	"table{border-collapse:collapse;margin:.6em 0}td,th{padding:2px 10px;text-align:left;vertical-align:top}"
	"th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"tr:nth-child(even) td{background:#fafafa}code,.id{font-family:ui-monospace,monospace;font-size:.9em}"
	".meta{color:#555}.story{background:#f6f8fa;border:1px solid #ddd;padding:4px 16px;border-radius:4px}"
	"svg.chart{display:block;margin:.6em 0;font-size:11px}svg .grid{stroke:#e3e3e3}"
	"svg .tick{text-anchor:end;fill:#555}svg .lab{text-anchor:end;fill:#333}"
	"svg .s1{fill:#1f77b4}svg .s2{fill:#ff7f0e}";

static void th_row(struct strbuf *pg, const char *const *cols)
{
	strbuf_addstr(pg, "<tr>");
	for (; *cols; cols++) {
		strbuf_addstr(pg, "<th>");
		html_text(pg, *cols);
		strbuf_addstr(pg, "</th>");
	}
	strbuf_addstr(pg, "</tr>\n");
}

static void td(struct strbuf *pg, const char *s)
{
	strbuf_addstr(pg, "<td>");
	html_text(pg, s);
	strbuf_addstr(pg, "</td>");
}

static void tdn(struct strbuf *pg, const char *s)
{
	strbuf_addstr(pg, "<td class=\"n\">");
	html_text(pg, s);
	strbuf_addstr(pg, "</td>");
}

static void tdz(struct strbuf *pg, size_t n)
{
	strbuf_addf(pg, "<td class=\"n\">%zu</td>", n);
}

static int cmp_lang(const void *a, const void *b)
{
	const struct lang_total *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_year(const void *a, const void *b)
{
	return ((const struct year_total *)a)->year - ((const struct year_total *)b)->year;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_largest(const void *a, const void *b)
{
	const struct csize *x = a, *y = b;
	size_t cx = x->added + x->removed, cy = y->added + y->removed;

	if (cx != cy)
		return cx < cy ? 1 : -1;
	if (x->added != y->added)
		return x->added < y->added ? 1 : -1;
	return strcmp(x->token, y->token);
}

static int cmp_distance(const void *a, const void *b)
{
	const struct rfile *x = *(const struct rfile *const *)a, *y = *(const struct rfile *const *)b;

	if (x->distance != y->distance)
		return x->distance < y->distance ? 1 : -1;
	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->path, y->path);
}

struct old_fn {
	struct rfile *file;
	struct ffunc *fn;
	size_t oldest;
};

static int cmp_old_fn(const void *a, const void *b)
{
	const struct old_fn *x = a, *y = b;
	int c;

	if (x->oldest != y->oldest)
		return x->oldest < y->oldest ? 1 : -1;
	if (x->fn->tokens != y->fn->tokens)
		return x->fn->tokens < y->fn->tokens ? -1 : 1;  /* the denser first */
	c = strcmp(x->file->path, y->file->path);
	return c ? c : (x->fn->line < y->fn->line ? -1 : x->fn->line > y->fn->line);
}

/* Histogram buckets: [lo, hi] inclusive. */
struct bucket {
	const char *label;
	long long lo, hi;
	size_t n;
};

static void histogram(struct report *rep, struct strbuf *pg, const char *file, const char *title, const char *what,
		      struct bucket *bk, size_t nb, size_t total)
{
	double *v = xcalloc(nb, sizeof(*v));
	char **labels = xcalloc(nb, sizeof(*labels));
	static const char *const cols[] = { "bucket", "commits", "share", NULL };
	struct table *t = table_begin(rep, file, cols);
	size_t i;

	for (i = 0; i < nb; i++) {
		v[i] = total ? 100.0 * (double)bk[i].n / (double)total : 0;
		labels[i] = (char *)bk[i].label;
		table_text(t, bk[i].label);
		table_count(t, bk[i].n);
		table_number(t, pct((double)bk[i].n, (double)total));
	}
	table_end(rep, t);
	svg_bars(pg, title, nb, labels, v, NULL, what, NULL);
	free(v);
	free(labels);
}

/* Author, date and subject of some original commits, for the largest-commits table. */
struct detail {
	char *author, *subject;
	long long time;
};

static void commit_subjects(struct report *rep, char (*ids)[41], size_t n, struct detail *d)
{
	const char *argv[] = { "git", "log", "--no-walk=unsorted", "--stdin", "-z",
			       rep->opt.no_mailmap ? "--format=%H %at %an%n%s" : "--format=%H %at %aN%n%s", NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *next;
	size_t i;

	for (i = 0; i < n; i++) {
		d[i].author = d[i].subject = NULL;
		d[i].time = 0;
		strbuf_addf(&in, "%s\n", ids[i]);
	}
	if (!n)
		return;
	if (run_capture_input(argv, rep->line_repo.buf, &in, &out))
		die("git log failed in '%s'", rep->line_repo.buf);
	for (p = out.buf; p < out.buf + out.len; p = next) {
		char *nl = strchr(p, '\n'), *end;

		next = p + strlen(p) + 1;

		if (!nl || strlen(p) < 42 || p[40] != ' ')
			continue;
		*nl = '\0';
		for (i = 0; i < n; i++)
			if (!strncmp(ids[i], p, 40) && !d[i].author) {
				d[i].time = strtoll(p + 41, &end, 10);
				d[i].author = xstrdup(*end == ' ' ? end + 1 : "");
				d[i].subject = xstrdup(nl + 1);
			}
	}
	strbuf_release(&in);
	strbuf_release(&out);
}

/*
 * The layout version of report.json: raised when a member goes, is
 * renamed, or changes its type or meaning; new members and new tables
 * leave it as it is.
 */
#define REPORT_JSON_VERSION 1

static void json_cell(struct json_writer *j, const struct cell *c)
{
	switch (c->type) {
	case CELL_TEXT:
		json_string(j, c->text);
		break;
	case CELL_INTEGER:
	case CELL_NUMBER:
		json_number(j, c->text);
		break;
	case CELL_NONE:
		json_null(j);
		break;
	}
}

/* What the report is of: the revision, the files, the attribution's options. */
static void json_report_subject(struct report *rep, struct json_writer *j, const char *rev,
				const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	int wrap = j->wrap_depth, i;
	size_t k;

	json_key(j, "version");
	json_int(j, REPORT_JSON_VERSION);
	json_key(j, "source");
	json_string(j, ctx->src.buf);
	json_key(j, "revision");
	json_string(j, ctx->orig);
	json_key(j, "revision_name");
	json_string(j, rev);
	json_key(j, "token_revision");
	json_string(j, ctx->token);
	j->wrap_depth = 1;
	json_key(j, "pathspec");
	json_array_begin(j);
	for (i = 0; i < nr_pathspec; i++)
		json_string(j, pathspec[i]);
	json_array_end(j);
	j->wrap_depth = 2;
	json_key(j, "engine");
	json_object_begin(j);
	json_key(j, "revision");
	json_int(j, ENGINE_REVISION);
	json_key(j, "min_move");
	json_uint(j, ctx->engine.min_move);
	json_key(j, "ignore_whitespace");
	json_bool(j, ctx->engine.ignore_ws);
	json_key(j, "ignored_revisions");
	json_array_begin(j);
	for (k = 0; k < ctx->nr_ignored; k++)
		json_string(j, ctx->ignored[k]);
	json_array_end(j);
	json_object_end(j);
	json_key(j, "options");
	json_object_begin(j);
	json_key(j, "top");
	json_int(j, rep->opt.top);
	json_key(j, "min_tokens");
	json_uint(j, rep->opt.min_tokens);
	json_key(j, "line_moves");
	json_bool(j, rep->opt.move);
	json_key(j, "line_ignore_whitespace");
	json_bool(j, rep->opt.ignore_ws);
	json_key(j, "since");
	json_string_or_null(j, rep->opt.since);
	json_key(j, "until");
	json_string_or_null(j, rep->opt.until);
	json_key(j, "mailmap");
	json_bool(j, !rep->opt.no_mailmap);
	json_key(j, "include_vendored");
	json_bool(j, rep->opt.include_vendored);
	json_key(j, "every");
	json_string(j, rep->opt.every == AGE_EVERY_YEAR ? "year" : "tag");
	json_key(j, "exclude");
	json_array_begin(j);
	for (k = 0; k < (size_t)rep->opt.nr_exclude; k++)
		json_string(j, rep->opt.exclude[k]);
	json_array_end(j);
	json_object_end(j);
	j->wrap_depth = wrap;
}

/*
 * OUTDIR/report.json (contrib/schema/report.schema.json): what the
 * report is of, then every table of the report, named by its file less
 * ".tsv", its columns and a row object per TSV line.
 */
static void write_report_json(struct report *rep, const char *rev, const char **pathspec, int nr_pathspec)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	struct json_writer j;
	size_t i, c;

	json_init(&j, &out, 4);
	json_object_begin(&j);
	json_report_subject(rep, &j, rev, pathspec, nr_pathspec);
	json_key(&j, "tables");
	json_object_begin(&j);
	for (i = 0; i < rep->nr_tables; i++) {
		struct table *t = rep->tables[i];
		size_t len = strlen(t->file);

		if (!t->written)
			BUG("table %s was never written", t->file);
		strbuf_reset(&path);
		strbuf_add(&path, t->file, len > 4 && !strcmp(t->file + len - 4, ".tsv") ? len - 4 : len);
		json_key(&j, path.buf);
		json_object_begin(&j);
		json_key(&j, "file");
		json_string(&j, t->file);
		j.wrap_depth = 3;
		json_key(&j, "columns");
		json_array_begin(&j);
		for (c = 0; c < t->nr_cols; c++)
			json_string(&j, t->cols[c]);
		json_array_end(&j);
		j.wrap_depth = 4;
		json_key(&j, "rows");
		json_array_begin(&j);
		for (c = 0; c < t->nr_cells; c++) {
			if (c % t->nr_cols == 0)
				json_object_begin(&j);
			json_key(&j, t->cols[c % t->nr_cols]);
			json_cell(&j, &t->cells[c]);
			if ((c + 1) % t->nr_cols == 0)
				json_object_end(&j);
			free(t->cells[c].text);
		}
		json_array_end(&j);
		json_object_end(&j);
		free(t->cells);
		free(t);
	}
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	free(rep->tables);
	rep->tables = NULL;
	rep->nr_tables = rep->alloc_tables = 0;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/report.json", rep->opt.out_dir);
	write_atomic(path.buf, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&path);
}

/*
 * What the figures leave out and why (left-out.tsv; on the page only
 * when there is something): a vendored library or a generated parser
 * can hold most of a tree's tokens and make a stranger its top author.
 */
static void write_left_out(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "reason", "files", "tokens", NULL };
	struct table *t = table_begin(rep, "left-out.tsv", cols);
	size_t files = 0, r;

	for (r = LEFT_OUT_EXCLUDED; r < NR_LEFT_OUT; r++) {
		if (!rep->left_out_total[r].files)
			continue;
		table_text(t, left_out_reason[r]);
		table_count(t, rep->left_out_total[r].files);
		table_count(t, rep->left_out_total[r].tokens);
		files += rep->left_out_total[r].files;
	}
	if (files) {
		strbuf_addf(pg, "<p>Left out of every figure: %zu file%s (", files, files == 1 ? "" : "s");
		for (r = LEFT_OUT_EXCLUDED; r < NR_LEFT_OUT; r++)
			if (rep->left_out_total[r].files)
				strbuf_addf(pg, "%s%s: %zu files, %zu tokens",
					    pg->buf[pg->len - 1] == '(' ? "" : "; ", left_out_reason[r],
					    rep->left_out_total[r].files, rep->left_out_total[r].tokens);
		strbuf_addstr(pg, "). Vendored and generated files are those <code>.gitattributes</code> "
			      "marks <code>linguist-vendored</code> or <code>linguist-generated</code>; "
			      "<code>--include-vendored</code> counts them, <code>--exclude</code> leaves "
			      "more out.</p>");
	}
	table_end(rep, t);
}

/* ---- code age over time: the section --------------------------------------- */

/*
 * Stacked areas of nr_s series over nr_x points, v[s * nr_x + x] the
 * share of series s at point x (the shares of a point add up to 100),
 * the first series at the bottom and in blue, the last in red.
 */
static void svg_areas(struct strbuf *pg, const char *title, size_t nr_x, char **xlabels,
		      size_t nr_s, char **slabels, const double *v)
{
	int left = 48, top = 28, height = 180, bottom = 64, per_col = 12, plot, width, i;
	double step, *cum = xcalloc(nr_x + 1, sizeof(*cum));
	size_t x, s, every = (nr_x + 29) / 30;

	plot = nr_x * 16 < 360 ? 360 : nr_x * 16 > 800 ? 800 : (int)nr_x * 16;
	step = nr_x > 1 ? (double)plot / (double)(nr_x - 1) : 0;
	width = left + plot + 24 + (int)((nr_s + (size_t)per_col - 1) / (size_t)per_col) * 64;
	strbuf_addf(pg, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
		    width, top + height + bottom, width, top + height + bottom);
	html_text(pg, title);
	strbuf_addstr(pg, "\"><title>");
	html_text(pg, title);
	strbuf_addf(pg, "</title><text x=\"%d\" y=\"15\" font-weight=\"bold\">", left);
	html_text(pg, title);
	strbuf_addstr(pg, "</text>");
	for (i = 0; i <= 5; i++) {
		double y = top + height - height * i / 5.0;

		strbuf_addf(pg, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%d%%</text>",
			    left, left + plot, y, y, left - 4, y + 4, 20 * i);
	}
#define AREA_X(x) (nr_x > 1 ? left + step * (double)(x) : (double)left + (x) * (double)plot)
#define AREA_Y(p) (top + height - height * ((p) > 100 ? 100 : (p)) / 100.0)
	for (s = 0; s < nr_s; s++) {
		double hue = nr_s > 1 ? 240.0 * (double)(nr_s - 1 - s) / (double)(nr_s - 1) : 240.0;
		size_t n = nr_x > 1 ? nr_x : 2;

		strbuf_addf(pg, "<polygon fill=\"hsl(%.0f,65%%,55%%)\" stroke=\"#fff\" stroke-width=\"0.5\" points=\"", hue);
		for (x = 0; x < n; x++) {
			size_t at = nr_x > 1 ? x : 0;

			strbuf_addf(pg, "%.1f,%.1f ", AREA_X(x), AREA_Y(cum[at] + v[s * nr_x + at]));
		}
		for (x = n; x-- > 0;)
			strbuf_addf(pg, "%.1f,%.1f ", AREA_X(x), AREA_Y(cum[nr_x > 1 ? x : 0]));
		strbuf_setlen(pg, pg->len - 1);
		strbuf_addstr(pg, "\"><title>");
		html_text(pg, slabels[s]);
		strbuf_addstr(pg, "</title></polygon>");
		for (x = 0; x < nr_x; x++)
			cum[x] += v[s * nr_x + x];
	}
	/* the last point (REV) is always named; before it, every so many */
	for (x = 0; x < nr_x; x++) {
		if ((nr_x - 1 - x) % every)
			continue;
		strbuf_addf(pg, "<text class=\"lab\" transform=\"translate(%.1f,%d) rotate(-45)\">",
			    AREA_X(x), top + height + 12);
		html_text(pg, xlabels[x]);
		strbuf_addstr(pg, "</text>");
	}
#undef AREA_X
#undef AREA_Y
	/* the legend: the newest on top, as in the stack */
	for (s = 0; s < nr_s; s++) {
		size_t row = nr_s - 1 - s;
		int lx = left + plot + 24 + (int)(row / (size_t)per_col) * 64, ly = top + (int)(row % (size_t)per_col) * 15;
		double hue = nr_s > 1 ? 240.0 * (double)(nr_s - 1 - s) / (double)(nr_s - 1) : 240.0;

		strbuf_addf(pg, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"hsl(%.0f,65%%,55%%)\"/>"
			    "<text x=\"%d\" y=\"%d\">", lx, ly, hue, lx + 14, ly + 9);
		html_text(pg, slabels[s]);
		strbuf_addstr(pg, "</text>");
	}
	strbuf_addstr(pg, "</svg>\n");
	free(cum);
}

/* The code age: age.tsv, a chart by tokens and one by lines, a table of the points. */
static void write_age(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "sample", "date", "commit", "year", "lines", "line_share", "tokens",
					    "token_share", NULL };
	static const char *const tcols[] = { "sample", "date", "commit", "lines", "tokens", NULL };
	size_t n = rep->nr_age_samples, nr_y = 0, alloc_y = 0, k, y, j;
	int *years = NULL;
	double *vl, *vt;
	char **xlabels = xcalloc(n + 1, sizeof(*xlabels)), **ylabels, day[16];
	struct table *t;

	/* the years of origin of every point, in order */
	for (k = 0; k < n; k++)
		for (y = 0; y < rep->age_samples[k].nr_years; y++) {
			int yr = rep->age_samples[k].years[y].year;

			for (j = 0; j < nr_y && years[j] < yr; j++)
				;
			if (j < nr_y && years[j] == yr)
				continue;
			ALLOC_GROW(years, nr_y + 1, alloc_y);
			memmove(years + j + 1, years + j, (nr_y - j) * sizeof(*years));
			years[j] = yr;
			nr_y++;
		}
	vl = xcalloc(nr_y * n + 1, sizeof(*vl));
	vt = xcalloc(nr_y * n + 1, sizeof(*vt));
	ylabels = xcalloc(nr_y + 1, sizeof(*ylabels));
	for (j = 0; j < nr_y; j++)
		ylabels[j] = xstrfmt("%d", years[j]);

	t = table_begin(rep, "age.tsv", cols);
	for (k = 0; k < n; k++) {
		const struct age_sample *a = &rep->age_samples[k];

		xlabels[k] = (char *)a->name;
		day_of(a->time, day, sizeof(day));
		for (y = 0, j = 0; y < a->nr_years; y++) {
			const struct age_year *ay = &a->years[y];

			while (years[j] != ay->year)
				j++;
			vl[j * n + k] = a->lines ? 100.0 * (double)ay->lines / (double)a->lines : 0;
			vt[j * n + k] = a->tokens ? 100.0 * (double)ay->tokens / (double)a->tokens : 0;
			table_text(t, a->name);
			table_text(t, day);
			table_text(t, a->orig);
			table_int(t, ay->year);
			if (rep->age_lines) {
				table_count(t, ay->lines);
				table_number(t, pct((double)ay->lines, (double)a->lines));
			} else {
				table_none(t, "-");
				table_none(t, "-");
			}
			table_count(t, ay->tokens);
			table_number(t, pct((double)ay->tokens, (double)a->tokens));
		}
	}
	table_end(rep, t);

	strbuf_addf(pg, "<h3 id=\"age\">Code age over time</h3><p>The share of the code by year of origin "
		    "at %s, and at the revision itself: %zu %s, in the order of the history, counted in the "
		    "same replays of the whole history as the rest; the oldest year at the bottom.",
		    rep->opt.every == AGE_EVERY_YEAR ? "the last commit of each year on its first-parent line"
						: "each tag of its history",
		    n, n == 1 ? "point" : "points");
	if (!rep->age_lines)
		strbuf_addstr(pg, " By tokens only: with -M or ignored revisions the lines are blamed by "
			      "<code>git blame</code>, not by a replay.");
	strbuf_addstr(pg, "</p>");
	svg_areas(pg, "Share of the tokens by year of origin over time", n, xlabels, nr_y, ylabels, vt);
	if (rep->age_lines)
		svg_areas(pg, "Share of the lines by year of origin over time", n, xlabels, nr_y, ylabels, vl);
	strbuf_addstr(pg, "<table>");
	th_row(pg, tcols);
	for (k = 0; k < n; k++) {
		const struct age_sample *a = &rep->age_samples[k];

		day_of(a->time, day, sizeof(day));
		strbuf_addstr(pg, "<tr>");
		td(pg, a->name);
		td(pg, day);
		strbuf_addf(pg, "<td class=\"id\">%s</td>", a->orig);
		if (rep->age_lines)
			tdz(pg, a->lines);
		else
			tdn(pg, "-");
		tdz(pg, a->tokens);
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addstr(pg, "</table>");
	for (j = 0; j < nr_y; j++)
		free(ylabels[j]);
	free(ylabels);
	free(xlabels);
	free(years);
	free(vl);
	free(vt);
}

static void write_report(struct report *rep, const char *rev, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf pg = STRBUF_INIT, story = STRBUF_INIT;
	struct lang_total *langs = NULL;
	struct year_total *years = NULL;
	size_t nr_langs = 0, alloc_langs = 0, nr_years = 0, alloc_years = 0, i, j, k;
	size_t nr_top = (size_t)rep->opt.top, code_lines = 0, lines = 0, tokens = 0, comment_tokens = 0, nfiles = 0;
	size_t in_both = 0, same_rank = 0, oldest = (size_t)-1;
	double overall, *era_l, *era_t, ymd_l = 0, ymd_t = 0;
	int ymd_year = 0;
	char r1[32], r2[32];
	struct rfile **dis;
	size_t nr_dis = 0;
	static const char *const sum_cols[] = { "figure", "value", NULL };
	struct table *sum = table_begin(rep, "summary.tsv", sum_cols);

	/* ---- 1. size ---- */
	for (i = 0; i < rep->nr_files; i++) {
		struct rfile *f = &rep->files[i];

		if (f->skipped)
			continue;
		for (j = 0; j < nr_langs && strcmp(langs[j].name, f->lang); j++)
			;
		if (j == nr_langs) {
			ALLOC_GROW(langs, nr_langs + 1, alloc_langs);
			memset(&langs[j], 0, sizeof(*langs));
			langs[j].name = f->lang;
			nr_langs++;
		}
		langs[j].files++;
		langs[j].lines += f->lines;
		langs[j].code_lines += f->code_lines;
		langs[j].tokens += f->tokens;
		langs[j].comment_tokens += f->comment_tokens;
		nfiles++;
		lines += f->lines;
		code_lines += f->code_lines;
		tokens += f->tokens;
		comment_tokens += f->comment_tokens;
	}
	if (nr_langs)
		qsort(langs, nr_langs, sizeof(*langs), cmp_lang);
	{
		static const char *const cols[] = { "language", "files", "lines", "code_lines", "tokens",
						    "comment_tokens", "tokens_per_code_line", NULL };

		struct table *t = table_begin(rep, "size.tsv", cols);

		strbuf_addstr(&pg, "<h2 id=\"size\">1. Size</h2><p>Tokens against non-blank, non-comment lines "
			      "(lines that hold at least one token that is not a comment); every token counts, "
			      "a comment is one token.</p><table>");
		th_row(&pg, cols);
		for (k = 0; k <= nr_langs; k++) {
			struct lang_total tot = { "total", nfiles, lines, code_lines, tokens, comment_tokens };
			struct lang_total *l = k < nr_langs ? &langs[k] : &tot;
			char ratio[32];

			if (l->code_lines)
				snprintf(ratio, sizeof(ratio), "%.2f", (double)l->tokens / (double)l->code_lines);
			else
				snprintf(ratio, sizeof(ratio), "-");
			table_text(t, l->name);
			table_count(t, l->files);
			table_count(t, l->lines);
			table_count(t, l->code_lines);
			table_count(t, l->tokens);
			table_count(t, l->comment_tokens);
			table_number(t, ratio);
			strbuf_addstr(&pg, k < nr_langs ? "<tr>" : "<tr class=\"total\">");
			td(&pg, l->name);
			tdz(&pg, l->files);
			tdz(&pg, l->lines);
			tdz(&pg, l->code_lines);
			tdz(&pg, l->tokens);
			tdz(&pg, l->comment_tokens);
			tdn(&pg, ratio);
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, t);
	}
	write_left_out(rep, &pg);

	/* ---- 2. people ---- */
	rank_authors(rep);
	{
		static const char *const cols[] = { "author", "lines", "line_share", "line_rank", "tokens",
						    "token_share", "token_rank", NULL };
		struct author **all = xcalloc(rep->nr_authors + 1, sizeof(*all));

		for (i = 0; i < rep->nr_authors; i++)
			all[i] = &rep->authors[i];
		struct table *t = table_begin(rep, "authors.tsv", cols);

		qsort(all, rep->nr_authors, sizeof(*all), cmp_all);
		for (i = 0; i < rep->nr_authors; i++) {
			table_text(t, all[i]->name);
			table_count(t, all[i]->lines);
			table_number(t, pct((double)all[i]->lines, (double)rep->total_lines));
			table_rank(t, all[i]->rank_lines);
			table_count(t, all[i]->tokens);
			table_number(t, pct((double)all[i]->tokens, (double)rep->total_tokens));
			table_rank(t, all[i]->rank_tokens);
		}
		table_end(rep, t);
		free(all);
	}
	{
		static const char *const cols[] = { "rank", "by_tokens", "token_share", "its_line_rank",
						    "by_lines", "line_share", "its_token_rank", NULL };
		size_t n = rep->nr_by_tokens > rep->nr_by_lines ? rep->nr_by_tokens : rep->nr_by_lines;
		struct table *tt = table_begin(rep, "top.tsv", cols);

		if (n > nr_top)
			n = nr_top;
		strbuf_addf(&pg, "<h2 id=\"people\">2. People</h2><p>%zu %s in blame by lines, "
			    "%zu by tokens (names through the mailmap).</p>", rep->nr_by_lines,
			    rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens);
		strbuf_addf(&pg, "<h3>The top %zu by tokens and by lines</h3><table>", nr_top);
		th_row(&pg, cols);
		for (i = 0; i < n; i++) {
			struct author *t = i < rep->nr_by_tokens ? rep->by_tokens[i] : NULL;
			struct author *l = i < rep->nr_by_lines ? rep->by_lines[i] : NULL;

			table_count(tt, i + 1);
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td>", i + 1);
			if (t) {
				rank_str(t->rank_lines, r1, sizeof(r1));
				table_text(tt, t->name);
				table_number(tt, pct((double)t->tokens, (double)rep->total_tokens));
				table_rank(tt, t->rank_lines);
				td(&pg, t->name);
				tdn(&pg, pct((double)t->tokens, (double)rep->total_tokens));
				tdn(&pg, r1);
			} else {
				table_none(tt, "");
				table_none(tt, "");
				table_none(tt, "");
				strbuf_addstr(&pg, "<td></td><td></td><td></td>");
			}
			if (l) {
				rank_str(l->rank_tokens, r2, sizeof(r2));
				table_text(tt, l->name);
				table_number(tt, pct((double)l->lines, (double)rep->total_lines));
				table_rank(tt, l->rank_tokens);
				td(&pg, l->name);
				tdn(&pg, pct((double)l->lines, (double)rep->total_lines));
				tdn(&pg, r2);
			} else {
				table_none(tt, "");
				table_none(tt, "");
				table_none(tt, "");
				strbuf_addstr(&pg, "<td></td><td></td><td></td>");
			}
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, tt);
	}
	{
		static const char *const cols[] = { "author", "in_top_by", "rank", "share", "other_rank",
						    "other_share", NULL };
		struct table *t = table_begin(rep, "top-only.tsv", cols);
		int pass;

		strbuf_addf(&pg, "<h3>In only one of the two top %zu</h3><table>", nr_top);
		th_row(&pg, cols);
		for (pass = 0; pass < 2; pass++) {
			struct author **list = pass ? rep->by_lines : rep->by_tokens;
			size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens;

			for (i = 0; i < nr && i < nr_top; i++) {
				struct author *a = list[i];
				size_t other = pass ? a->rank_tokens : a->rank_lines;
				const char *share = pass ? pct((double)a->lines, (double)rep->total_lines)
							 : pct((double)a->tokens, (double)rep->total_tokens);
				const char *oshare = pass ? pct((double)a->tokens, (double)rep->total_tokens)
							  : pct((double)a->lines, (double)rep->total_lines);

				if (other && other <= nr_top) {
					if (!pass) {
						in_both++;
						same_rank += other == i + 1;
					}
					continue;
				}
				rank_str(other, r1, sizeof(r1));
				table_text(t, a->name);
				table_text(t, pass ? "lines" : "tokens");
				table_count(t, i + 1);
				table_number(t, share);
				table_rank(t, other);
				table_number(t, oshare);
				strbuf_addstr(&pg, "<tr>");
				td(&pg, a->name);
				td(&pg, pass ? "lines" : "tokens");
				tdz(&pg, i + 1);
				tdn(&pg, share);
				tdn(&pg, r1);
				tdn(&pg, oshare);
				strbuf_addstr(&pg, "</tr>\n");
			}
		}
		strbuf_addstr(&pg, "</table>");
		if (!table_rows(t))
			strbuf_addstr(&pg, "<p>None: both lists hold the same authors.</p>");
		table_end(rep, t);
	}
	/* eras */
	era_l = xcalloc((size_t)rep->nr_sources + 1, sizeof(*era_l));
	era_t = xcalloc((size_t)rep->nr_sources + 1, sizeof(*era_t));
	{
		static const char *const cols[] = { "era", "source", "lines", "line_share", "tokens",
						    "token_share", NULL };
		size_t *el = xcalloc((size_t)rep->nr_sources + 1, sizeof(*el)), *et = xcalloc((size_t)rep->nr_sources + 1, sizeof(*et));
		char **labels = xcalloc((size_t)rep->nr_sources + 1, sizeof(*labels));
		struct table *t = table_begin(rep, "eras.tsv", cols);
		int e;

		for (i = 0; i < rep->nr_commits; i++) {
			el[rep->commits[i].era - 1] += rep->commits[i].lines;
			et[rep->commits[i].era - 1] += rep->commits[i].tokens;
		}
		strbuf_addstr(&pg, rep->nr_sources > 1 ?
			      "<h3>Eras</h3><p>The share of the code from each source of a stitched "
			      "history (era 1 is the oldest).</p><table>" :
			      "<h3>Eras</h3><p>One source, one era: the history is not stitched.</p><table>");
		th_row(&pg, cols);
		for (e = 0; e < rep->nr_sources; e++) {
			era_l[e] = rep->total_lines ? 100.0 * (double)el[e] / (double)rep->total_lines : 0;
			era_t[e] = rep->total_tokens ? 100.0 * (double)et[e] / (double)rep->total_tokens : 0;
			table_int(t, e + 1);
			table_text(t, rep->sources[e].path);
			table_count(t, el[e]);
			table_number(t, pct((double)el[e], (double)rep->total_lines));
			table_count(t, et[e]);
			table_number(t, pct((double)et[e], (double)rep->total_tokens));
			strbuf_addf(&pg, "<tr><td class=\"n\">%d</td>", e + 1);
			td(&pg, rep->sources[e].path);
			tdz(&pg, el[e]);
			tdn(&pg, pct((double)el[e], (double)rep->total_lines));
			tdz(&pg, et[e]);
			tdn(&pg, pct((double)et[e], (double)rep->total_tokens));
			strbuf_addstr(&pg, "</tr>\n");
			labels[e] = xmalloc(32);
			snprintf(labels[e], 32, "era %d", e + 1);
		}
		strbuf_addstr(&pg, "</table>");
		if (rep->nr_sources > 1)
			svg_bars(&pg, "Share of the code by era", (size_t)rep->nr_sources, labels, era_l, era_t,
				 "by lines", "by tokens");
		for (e = 0; e < rep->nr_sources; e++)
			free(labels[e]);
		free(labels);
		free(el);
		free(et);
		table_end(rep, t);
	}

	/* ---- 3. year of origin ---- */
	for (i = 0; i < rep->nr_commits; i++) {
		int y = year_of(rep->commits[i].time);

		for (j = 0; j < nr_years && years[j].year != y; j++)
			;
		if (j == nr_years) {
			ALLOC_GROW(years, nr_years + 1, alloc_years);
			years[j].year = y;
			years[j].lines = years[j].tokens = 0;
			nr_years++;
		}
		years[j].lines += rep->commits[i].lines;
		years[j].tokens += rep->commits[i].tokens;
	}
	if (nr_years)
		qsort(years, nr_years, sizeof(*years), cmp_year);
	{
		static const char *const cols[] = { "year", "lines", "line_share", "tokens", "token_share", NULL };
		double *yl = xcalloc(nr_years + 1, sizeof(*yl)), *yt = xcalloc(nr_years + 1, sizeof(*yt));
		char **labels = xcalloc(nr_years + 1, sizeof(*labels));
		struct table *t = table_begin(rep, "years.tsv", cols);

		strbuf_addstr(&pg, "<h2 id=\"years\">3. Year of origin</h2><p>The share of the code by the "
			      "year (UTC) of the author date of the commit that introduced it.</p>");
		for (i = 0; i < nr_years; i++) {
			yl[i] = rep->total_lines ? 100.0 * (double)years[i].lines / (double)rep->total_lines : 0;
			yt[i] = rep->total_tokens ? 100.0 * (double)years[i].tokens / (double)rep->total_tokens : 0;
			labels[i] = xmalloc(16);
			snprintf(labels[i], 16, "%d", years[i].year);
			table_int(t, years[i].year);
			table_count(t, years[i].lines);
			table_number(t, pct((double)years[i].lines, (double)rep->total_lines));
			table_count(t, years[i].tokens);
			table_number(t, pct((double)years[i].tokens, (double)rep->total_tokens));
		}
		svg_bars(&pg, "Share of the code by year of origin", nr_years, labels, yl, yt,
			 "by lines", "by tokens");
		strbuf_addstr(&pg, "<table>");
		th_row(&pg, cols);
		for (i = 0; i < nr_years; i++) {
			strbuf_addstr(&pg, "<tr>");
			tdn(&pg, labels[i]);
			tdz(&pg, years[i].lines);
			tdn(&pg, pct((double)years[i].lines, (double)rep->total_lines));
			tdz(&pg, years[i].tokens);
			tdn(&pg, pct((double)years[i].tokens, (double)rep->total_tokens));
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, t);
		/* the year where the two measures differ most, for the story */
		for (i = 0, j = 0; i < nr_years; i++)
			if (absd(yl[i] - yt[i]) > absd(yl[j] - yt[j]))
				j = i;
		if (nr_years) {
			ymd_year = years[j].year;
			ymd_l = yl[j];
			ymd_t = yt[j];
		}
		for (i = 0; i < nr_years; i++)
			free(labels[i]);
		free(labels);
		free(yl);
		free(yt);
	}
	write_age(rep, &pg);

	/* ---- 4. commit sizes ---- */
	{
		static const char *const cols[] = { "figure", "value", "share", NULL };
		size_t n = rep->nr_csizes, small = 0, only_removed = 0, one_one = 0, le10 = 0, churn0 = 0,
			churn_pos10 = 0, churn_neg = 0, *changed = xcalloc(n + 1, sizeof(*changed));
		double median = 0;
		struct bucket cb[] = {
			{ "0", 0, 0, 0 }, { "1", 1, 1, 0 }, { "2", 2, 2, 0 }, { "3", 3, 3, 0 },
			{ "4-10", 4, 10, 0 }, { "11-30", 11, 30, 0 }, { "31-100", 31, 100, 0 },
			{ "101-300", 101, 300, 0 }, { "301-1000", 301, 1000, 0 },
			{ "1001-10000", 1001, 10000, 0 }, { ">10000", 10001, -1, 0 },
		};
		struct bucket chb[] = {
			{ "<-100", -(1LL << 62), -101, 0 }, { "-100..-11", -100, -11, 0 },
			{ "-10..-1", -10, -1, 0 }, { "0", 0, 0, 0 }, { "1..10", 1, 10, 0 },
			{ "11..100", 11, 100, 0 }, { ">100", 101, 1LL << 62, 0 },
		};
		struct csize *largest;
		char (*ids)[41];
		struct detail *d;
		struct table *lt;
		size_t nl;

		for (i = 0; i < n; i++) {
			size_t a = rep->csizes[i].added, r = rep->csizes[i].removed;
			long long churn = (long long)a - (long long)r;

			changed[i] = a + r;
			small += a <= 3 && r <= 3;
			only_removed += a == 0 && r > 0;
			one_one += a == 1 && r == 1;
			le10 += a + r <= 10;
			churn0 += churn == 0;
			churn_pos10 += churn > 0 && churn <= 10;
			churn_neg += churn < 0;
			for (k = 0; k < sizeof(cb) / sizeof(cb[0]); k++)
				if ((long long)(a + r) >= cb[k].lo && (cb[k].hi < 0 || (long long)(a + r) <= cb[k].hi))
					cb[k].n++;
			for (k = 0; k < sizeof(chb) / sizeof(chb[0]); k++)
				if (churn >= chb[k].lo && churn <= chb[k].hi)
					chb[k].n++;
		}
		if (n) {
			qsort(changed, n, sizeof(*changed), cmp_size);
			median = n % 2 ? (double)changed[n / 2] : ((double)changed[n / 2 - 1] + (double)changed[n / 2]) / 2;
		}
		{
			struct table *t = table_begin(rep, "commit-sizes.tsv", cols);
			const struct { const char *figure; size_t count; } figures[] = {
				{ "commits", n }, { "added_le_3_and_removed_le_3", small },
				{ "only_removed", only_removed }, { "added_1_and_removed_1", one_one },
				{ "changed_le_10", le10 }, { NULL, 0 }, { "churn_zero", churn0 },
				{ "churn_1_to_10", churn_pos10 }, { "churn_negative", churn_neg },
			};

			for (k = 0; k < sizeof(figures) / sizeof(figures[0]); k++) {
				if (!figures[k].figure) {
					/* a median is no count: it has no share */
					table_text(t, "median_changed");
					table_fixed(t, median, 1);
					table_none(t, "-");
					continue;
				}
				table_text(t, figures[k].figure);
				table_count(t, figures[k].count);
				table_number(t, pct((double)figures[k].count, (double)n));
			}
			table_end(rep, t);
		}

		strbuf_addf(&pg, "<h2 id=\"commits\">4. Commit sizes in tokens</h2><p>%zu non-merge commits of the "
			    "token history", n);
		if (rep->opt.since) {
			strbuf_addstr(&pg, " since ");
			html_text(&pg, rep->opt.since);
		}
		if (rep->opt.until) {
			strbuf_addstr(&pg, " until ");
			html_text(&pg, rep->opt.until);
		}
		strbuf_addstr(&pg, " change the selected files; a commit's size is the tokens it adds and "
			    "removes (the attribution engine's token diff), its churn the tokens added minus "
			    "the tokens removed. A commit that changes only whitespace changes no token "
			    "and is not among them.</p><table>");
		{
			static const char *const c2[] = { "commits", "number", "share", NULL };

			th_row(&pg, c2);
		}
#define ROW(label, v) do { strbuf_addstr(&pg, "<tr>"); td(&pg, label); tdz(&pg, v); \
		tdn(&pg, pct((double)(v), (double)n)); strbuf_addstr(&pg, "</tr>\n"); } while (0)
		ROW("add at most 3 and remove at most 3 tokens", small);
		ROW("only remove tokens", only_removed);
		ROW("add one token and remove one", one_one);
		ROW("change (add + remove) at most 10 tokens", le10);
		ROW("have zero churn", churn0);
		ROW("have a positive churn of at most 10", churn_pos10);
		ROW("have a negative churn", churn_neg);
#undef ROW
		strbuf_addf(&pg, "<tr><td>median tokens changed</td><td class=\"n\">%.1f</td><td></td></tr></table>",
			    median);
		strbuf_addstr(&pg, "<h3>Tokens changed per commit</h3>");
		histogram(rep, &pg, "changed-histogram.tsv", "Commits by tokens changed (added + removed)",
			  "share of commits", cb, sizeof(cb) / sizeof(cb[0]), n);
		strbuf_addstr(&pg, "<h3>Churn per commit</h3>");
		histogram(rep, &pg, "churn-histogram.tsv", "Commits by churn (tokens added minus removed)",
			  "share of commits", chb, sizeof(chb) / sizeof(chb[0]), n);

		/* the largest */
		largest = xcalloc(n + 1, sizeof(*largest));
		memcpy(largest, rep->csizes, n * sizeof(*largest));
		qsort(largest, n, sizeof(*largest), cmp_largest);
		nl = n < nr_top ? n : nr_top;
		ids = xcalloc(nl + 1, sizeof(*ids));
		d = xcalloc(nl + 1, sizeof(*d));
		for (i = 0; i < nl; i++) {
			const char *o = orig_of(rep, largest[i].token);

			if (!o)
				die("token commit %s is not in the commit map", largest[i].token);
			memcpy(ids[i], o, 41);
		}
		commit_subjects(rep, ids, nl, d);
		{
			static const char *const c3[] = { "rank", "original", "token", "added", "removed", "changed",
							  "author", "date", "summary", NULL };

			lt = table_begin(rep, "largest-commits.tsv", c3);
			strbuf_addf(&pg, "<h3>The %zu largest commits</h3><table>", nl);
			th_row(&pg, c3);
		}
		for (i = 0; i < nl; i++) {
			char day[16];

			day_of(d[i].time, day, sizeof(day));
			table_count(lt, i + 1);
			table_text(lt, ids[i]);
			table_text(lt, largest[i].token);
			table_count(lt, largest[i].added);
			table_count(lt, largest[i].removed);
			table_count(lt, largest[i].added + largest[i].removed);
			table_text(lt, d[i].author);
			table_text(lt, day);
			table_text(lt, d[i].subject);
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td><td class=\"id\">%.12s</td><td class=\"id\">%.12s</td>",
				    i + 1, ids[i], largest[i].token);
			tdz(&pg, largest[i].added);
			tdz(&pg, largest[i].removed);
			tdz(&pg, largest[i].added + largest[i].removed);
			td(&pg, d[i].author);
			td(&pg, day);
			td(&pg, d[i].subject);
			strbuf_addstr(&pg, "</tr>\n");
			free(d[i].author);
			free(d[i].subject);
		}
		strbuf_addstr(&pg, "</table>");
		table_end(rep, lt);
		{
			static const char *const c4[] = { "original", "token", "added", "removed", "changed", NULL };
			struct table *t = table_begin(rep, "commits.tsv", c4);

			for (i = 0; i < n; i++) {
				const char *o = orig_of(rep, rep->csizes[i].token);

				if (!o)
					die("token commit %s is not in the commit map", rep->csizes[i].token);
				table_text(t, o);
				table_text(t, rep->csizes[i].token);
				table_count(t, rep->csizes[i].added);
				table_count(t, rep->csizes[i].removed);
				table_count(t, rep->csizes[i].added + rep->csizes[i].removed);
			}
			table_end(rep, t);
		}
		table_text(sum, "commits");
		table_count(sum, n);
		table_text(sum, "commits_changed_le_10");
		table_number(sum, pct((double)le10, (double)n));
		table_text(sum, "median_changed");
		table_fixed(sum, median, 1);
		free(largest);
		free(ids);
		free(d);
		free(changed);
	}

	/* ---- 5. where the two measures disagree ---- */
	file_distances(rep);
	{
		static const char *const cols[] = { "path", "language", "lines", "code_lines", "tokens",
						    "authors_by_lines", "authors_by_tokens", "top_by_lines",
						    "top_line_share", "top_by_tokens", "top_token_share",
						    "distance", NULL };

		struct table *t = table_begin(rep, "files.tsv", cols);

		dis = xcalloc(rep->nr_files + 1, sizeof(*dis));
		for (i = 0; i < rep->nr_files; i++) {
			struct rfile *f = &rep->files[i];
			struct owner *o;
			size_t no, nal = 0, nat = 0, bl = 0, bt = 0;

			if (f->skipped)
				continue;
			no = file_owners(rep, f, &o);
			for (j = 0; j < no; j++) {
				nal += o[j].lines > 0;
				nat += o[j].tokens > 0;
				if (o[j].lines > o[bl].lines ||
				    (o[j].lines == o[bl].lines && strcmp(rep->authors[o[j].author].name, rep->authors[o[bl].author].name) < 0))
					bl = j;
				if (o[j].tokens > o[bt].tokens ||
				    (o[j].tokens == o[bt].tokens && strcmp(rep->authors[o[j].author].name, rep->authors[o[bt].author].name) < 0))
					bt = j;
			}
			table_text(t, f->path);
			table_text(t, f->lang);
			table_count(t, f->lines);
			table_count(t, f->code_lines);
			table_count(t, f->tokens);
			table_count(t, nal);
			table_count(t, nat);
			if (no) {
				table_text(t, rep->authors[o[bl].author].name);
				table_number(t, pct((double)o[bl].lines, (double)f->lines));
				table_text(t, rep->authors[o[bt].author].name);
				table_number(t, pct((double)o[bt].tokens, (double)f->tokens));
				table_fixed(t, f->distance, 2);
			} else {
				for (j = 0; j < 4; j++)
					table_none(t, "");
				table_none(t, "-");
			}
			if (f->lines && f->tokens && f->tokens >= rep->opt.min_tokens)
				dis[nr_dis++] = f;
			free(o);
		}
		table_end(rep, t);
		if (nr_dis)
			qsort(dis, nr_dis, sizeof(*dis), cmp_distance);
	}
	{
		static const char *const cols[] = { "rank", "path", "distance", "author", "lines", "line_share",
						    "tokens", "token_share", NULL };
		size_t n = nr_dis < nr_top ? nr_dis : nr_top;
		struct table *t = table_begin(rep, "disagreement.tsv", cols);

		strbuf_addf(&pg, "<h2 id=\"disagree\">5. Where lines and tokens disagree most</h2><p>The files "
			    "(of at least %zu tokens) whose ownership differs most between the two counts. "
			    "The distance is the total variation distance between the shares of the authors by "
			    "lines and by tokens: half the sum of the differences, the share of the file that "
			    "changes hands when tokens are counted instead of lines.</p>", rep->opt.min_tokens);
		for (i = 0; i < n; i++) {
			struct rfile *f = dis[i];
			struct owner *o;
			size_t no = file_owners(rep, f, &o);
			static const char *const c2[] = { "author", "lines", "line share", "tokens", "token share", NULL };

			strbuf_addf(&pg, "<h3>%zu. <code>", i + 1);
			html_text(&pg, f->path);
			strbuf_addf(&pg, "</code>: distance %.2f%%</h3><p>%zu lines, %zu tokens</p><table>",
				    f->distance, f->lines, f->tokens);
			th_row(&pg, c2);
			for (j = 0; j < no; j++) {
				table_count(t, i + 1);
				table_text(t, f->path);
				table_fixed(t, f->distance, 2);
				table_text(t, rep->authors[o[j].author].name);
				table_count(t, o[j].lines);
				table_number(t, pct((double)o[j].lines, (double)f->lines));
				table_count(t, o[j].tokens);
				table_number(t, pct((double)o[j].tokens, (double)f->tokens));
				strbuf_addstr(&pg, "<tr>");
				td(&pg, rep->authors[o[j].author].name);
				tdz(&pg, o[j].lines);
				tdn(&pg, pct((double)o[j].lines, (double)f->lines));
				tdz(&pg, o[j].tokens);
				tdn(&pg, pct((double)o[j].tokens, (double)f->tokens));
				strbuf_addstr(&pg, "</tr>\n");
			}
			strbuf_addstr(&pg, "</table>");
			free(o);
		}
		if (!n)
			strbuf_addstr(&pg, "<p>No file is large enough.</p>");
		table_end(rep, t);
	}
	{
		size_t *l = xcalloc(rep->nr_authors + 1, sizeof(*l)), *t = xcalloc(rep->nr_authors + 1, sizeof(*t));

		for (i = 0; i < rep->nr_authors; i++) {
			l[i] = rep->authors[i].lines;
			t[i] = rep->authors[i].tokens;
		}
		overall = distance(l, t, rep->nr_authors, rep->total_lines, rep->total_tokens);
		free(l);
		free(t);
	}

	/* ---- 6. the oldest code ---- */
	{
		static const char *const cols[] = { "rank", "path", "function", "line", "tokens", "oldest_tokens",
						    "oldest_share", NULL };
		struct old_fn *of = NULL;
		size_t nr_of = 0, alloc_of = 0, n;
		struct strbuf what = STRBUF_INIT;
		struct table *t = table_begin(rep, "oldest-functions.tsv", cols);

		if (rep->nr_sources < 2)
			for (i = 0; i < rep->nr_commits; i++) {
				if (!rep->commits[i].tokens)
					continue;
				if (oldest == (size_t)-1 || rep->commits[i].time < rep->commits[oldest].time ||
				    (rep->commits[i].time == rep->commits[oldest].time && strcmp(rep->commits[i].id, rep->commits[oldest].id) < 0))
					oldest = i;
			}
		for (i = 0; i < rep->nr_files; i++)
			for (j = 0; j < rep->files[i].nr_fn; j++) {
				struct ffunc *fn = &rep->files[i].fn[j];
				size_t m = 0;

				for (k = 0; k < fn->nr; k++)
					if (rep->nr_sources > 1 ? rep->commits[fn->commit[k]].era == 1 : fn->commit[k] == oldest)
						m += fn->count[k];
				if (!m)
					continue;
				ALLOC_GROW(of, nr_of + 1, alloc_of);
				of[nr_of].file = &rep->files[i];
				of[nr_of].fn = fn;
				of[nr_of].oldest = m;
				nr_of++;
			}
		if (nr_of)
			qsort(of, nr_of, sizeof(*of), cmp_old_fn);
		if (rep->nr_sources > 1) {
			strbuf_addstr(&what, "the oldest era (");
			html_text(&what, rep->sources[0].path);
			strbuf_addstr(&what, ")");
		} else if (oldest != (size_t)-1) {
			char day[16];

			day_of(rep->commits[oldest].time, day, sizeof(day));
			strbuf_addf(&what, "the oldest commit that still owns tokens, <span class=\"id\">%.12s</span> "
				    "by ", rep->commits[oldest].id);
			html_text(&what, rep->commits[oldest].author);
			strbuf_addf(&what, " of %s", day);
		} else {
			strbuf_addstr(&what, "the oldest commit");
		}
		strbuf_addf(&pg, "<h2 id=\"oldest\">6. The oldest code</h2><p>The functions holding the most "
			    "tokens from %s.</p><table>", what.buf);
		th_row(&pg, cols);
		n = nr_of < nr_top ? nr_of : nr_top;
		for (i = 0; i < n; i++) {
			table_count(t, i + 1);
			table_text(t, of[i].file->path);
			table_text(t, of[i].fn->name);
			table_count(t, of[i].fn->line);
			table_count(t, of[i].fn->tokens);
			table_count(t, of[i].oldest);
			table_number(t, pct((double)of[i].oldest, (double)of[i].fn->tokens));
			strbuf_addf(&pg, "<tr><td class=\"n\">%zu</td><td><code>", i + 1);
			html_text(&pg, of[i].file->path);
			strbuf_addstr(&pg, "</code></td><td><code>");
			html_text(&pg, of[i].fn->name);
			strbuf_addstr(&pg, "</code></td>");
			tdz(&pg, of[i].fn->line);
			tdz(&pg, of[i].fn->tokens);
			tdz(&pg, of[i].oldest);
			tdn(&pg, pct((double)of[i].oldest, (double)of[i].fn->tokens));
			strbuf_addstr(&pg, "</tr>\n");
		}
		strbuf_addstr(&pg, "</table>");
		if (!n)
			strbuf_addstr(&pg, "<p>No function holds such tokens.</p>");
		table_end(rep, t);
		free(of);
		strbuf_release(&what);
	}

	/* ---- 7. the story, in numbers ---- */
	{
		size_t ntop = rep->nr_by_tokens < nr_top ? rep->nr_by_tokens : nr_top;
		struct author *moves[3] = { NULL, NULL, NULL };
		size_t nmoves = 0;
		int same = overall < 5.0 && (ntop == 0 || in_both * 5 >= ntop * 4);

		/* the largest rank changes among the authors of either top list */
		for (i = 0; i < rep->nr_authors; i++) {
			struct author *a = &rep->authors[i];
			size_t dm, m;

			if (!a->rank_lines || !a->rank_tokens || (a->rank_lines > nr_top && a->rank_tokens > nr_top))
				continue;
			dm = a->rank_lines > a->rank_tokens ? a->rank_lines - a->rank_tokens : a->rank_tokens - a->rank_lines;
			if (!dm)
				continue;
			for (m = 0; m < 3; m++) {
				size_t dn;

				if (!moves[m]) {
					moves[m] = a;
					break;
				}
				dn = moves[m]->rank_lines > moves[m]->rank_tokens ? moves[m]->rank_lines - moves[m]->rank_tokens
										  : moves[m]->rank_tokens - moves[m]->rank_lines;
				if (dm > dn || (dm == dn && strcmp(a->name, moves[m]->name) < 0)) {
					memmove(&moves[m + 1], &moves[m], (2 - m) * sizeof(*moves));
					moves[m] = a;
					break;
				}
			}
		}
		for (nmoves = 0; nmoves < 3 && moves[nmoves]; nmoves++)
			;
		strbuf_addf(&story, "<div class=\"story\"><p><b>%s</b> ", same ?
			    "By and large, lines and tokens tell the same story here." :
			    "Lines and tokens tell different stories here.");
		strbuf_addf(&story, "%zu %s in blame by lines, %zu by tokens. Of the top %zu by "
			    "tokens, %zu %s also in the top %zu by lines, %zu at the same rank. ",
			    rep->nr_by_lines, rep->nr_by_lines == 1 ? "author appears" : "authors appear", rep->nr_by_tokens,
			    ntop, in_both, in_both == 1 ? "is" : "are", nr_top, same_rank);
		if (rep->nr_by_lines <= 1 && rep->nr_by_tokens <= 1)
			strbuf_addstr(&story, "(With one author, the two counts cannot disagree about people.) ");
		if (nmoves) {
			strbuf_addstr(&story, "The largest rank changes: ");
			for (i = 0; i < nmoves; i++) {
				if (i)
					strbuf_addstr(&story, i + 1 == nmoves ? " and " : ", ");
				html_text(&story, moves[i]->name);
				strbuf_addf(&story, " (%zu by lines, %zu by tokens)", moves[i]->rank_lines,
					    moves[i]->rank_tokens);
			}
			strbuf_addstr(&story, ". ");
		}
		{
			int pass;

			for (pass = 0; pass < 2; pass++) {
				struct author **list = pass ? rep->by_lines : rep->by_tokens;
				size_t nr = pass ? rep->nr_by_lines : rep->nr_by_tokens, shown = 0;

				for (i = 0; i < nr && i < nr_top; i++) {
					size_t other = pass ? list[i]->rank_tokens : list[i]->rank_lines;

					if (other && other <= nr_top)
						continue;
					if (!shown++)
						strbuf_addf(&story, "Only in the top %zu by %s: ", nr_top,
							    pass ? "lines" : "tokens");
					else
						strbuf_addstr(&story, ", ");
					html_text(&story, list[i]->name);
				}
				if (shown)
					strbuf_addstr(&story, ". ");
			}
		}
		strbuf_addf(&story, "Between the two counts, %.2f%% of the code changes hands (the total variation "
			    "distance between the authors' shares by lines and by tokens).</p><p>", overall);
		if (rep->nr_sources > 1)
			strbuf_addf(&story, "The oldest era holds %.2f%% of the lines and %.2f%% of the tokens. ",
				    era_l[0], era_t[0]);
		else if (oldest != (size_t)-1)
			strbuf_addf(&story, "The oldest commit still holds %s%% of the lines and %s%% of the tokens. ",
				    pct((double)rep->commits[oldest].lines, (double)rep->total_lines),
				    pct((double)rep->commits[oldest].tokens, (double)rep->total_tokens));
		if (ymd_year)
			strbuf_addf(&story, "By year of origin the counts differ most for %d: %.2f%% of the lines, "
				    "%.2f%% of the tokens. ", ymd_year, ymd_l, ymd_t);
		if (nr_dis && dis[0]->distance > 0) {
			strbuf_addstr(&story, "The file where they disagree most is <code>");
			html_text(&story, dis[0]->path);
			strbuf_addf(&story, "</code> (distance %.2f%%). ", dis[0]->distance);
		}
		strbuf_addf(&story, "There are %s tokens for every non-blank, non-comment line.</p></div>",
			    code_lines ? pct((double)tokens, 100.0 * (double)code_lines) : "-");

		{
			const struct { const char *figure; size_t count; } counts[] = {
				{ "files", nfiles }, { "lines", lines }, { "code_lines", code_lines }, { "tokens", tokens },
			}, people[] = {
				{ "authors_by_lines", rep->nr_by_lines }, { "authors_by_tokens", rep->nr_by_tokens },
				{ "top", nr_top }, { "top_in_both", in_both }, { "top_same_rank", same_rank },
			};

			for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
				table_text(sum, counts[k].figure);
				table_count(sum, counts[k].count);
			}
			table_text(sum, "tokens_per_code_line");
			table_number(sum, code_lines ? pct((double)tokens, 100.0 * (double)code_lines) : "-");
			for (k = 0; k < sizeof(people) / sizeof(people[0]); k++) {
				table_text(sum, people[k].figure);
				table_count(sum, people[k].count);
			}
		}
		table_text(sum, "distance");
		table_fixed(sum, overall, 2);
		table_text(sum, "oldest_era_line_share");
		table_fixed(sum, era_l[0], 2);
		table_text(sum, "oldest_era_token_share");
		table_fixed(sum, era_t[0], 2);
		if (oldest != (size_t)-1) {
			table_text(sum, "oldest_commit");
			table_text(sum, rep->commits[oldest].id);
			table_text(sum, "oldest_commit_line_share");
			table_number(sum, pct((double)rep->commits[oldest].lines, (double)rep->total_lines));
			table_text(sum, "oldest_commit_token_share");
			table_number(sum, pct((double)rep->commits[oldest].tokens, (double)rep->total_tokens));
		}
		if (nr_dis) {
			table_text(sum, "most_disagreeing_distance");
			table_fixed(sum, dis[0]->distance, 2);
		}
		table_text(sum, "verdict");
		table_text(sum, same ? "same" : "different");
		table_end(rep, sum);
	}

	/* ---- the page ---- */
	{
		struct strbuf page = STRBUF_INIT, path = STRBUF_INIT;
		static const char *const tables[] = {
			"summary.tsv", "size.tsv", "authors.tsv", "top.tsv", "top-only.tsv", "eras.tsv",
			"years.tsv", "age.tsv", "commit-sizes.tsv", "changed-histogram.tsv", "churn-histogram.tsv",
			"largest-commits.tsv", "commits.tsv", "files.tsv", "disagreement.tsv", "oldest-functions.tsv", NULL
		};

		strbuf_addstr(&page, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			      "<meta name=\"viewport\" content=\"width=device-width\"><title>Lines and tokens: ");
		html_text(&page, ctx->src.buf);
		strbuf_addstr(&page, "</title><style>");
		strbuf_addstr(&page, page_css);
		strbuf_addstr(&page, "</style></head><body><h1>Lines and tokens: <code>");
		html_text(&page, ctx->src.buf);
		strbuf_addstr(&page, "</code></h1><p class=\"meta\">At ");
		html_text(&page, rev);
		strbuf_addf(&page, " (<span class=\"id\">%s</span>, token commit <span class=\"id\">%s</span>)",
			    ctx->orig, ctx->token);
		if (nr_pathspec) {
			strbuf_addstr(&page, ", files matching");
			for (i = 0; i < (size_t)nr_pathspec; i++) {
				strbuf_addstr(&page, " <code>");
				html_text(&page, pathspec[i]);
				strbuf_addstr(&page, "</code>");
			}
		}
		strbuf_addf(&page, ": %zu files, %zu lines, %zu tokens.", nfiles, lines, tokens);
		if (rep->nr_sources > 1)
			strbuf_addf(&page, " A history stitched from %d repositories.", rep->nr_sources);
		strbuf_addstr(&page, "</p>");
		strbuf_addbuf(&page, &story);
		strbuf_addbuf(&page, &pg);
		strbuf_addstr(&page, "<h2>The tables</h2><p>Each table is also a file of tab-separated values "
			      "beside this page:");
		for (i = 0; tables[i]; i++)
			strbuf_addf(&page, " <a href=\"%s\">%s</a>", tables[i], tables[i]);
		strbuf_addstr(&page, "; and all of them, with what the report is of, in one JSON document: "
			      "<a href=\"report.json\">report.json</a>.</p></body></html>\n");
		strbuf_addf(&path, "%s/index.html", rep->opt.out_dir);
		write_atomic(path.buf, page.buf, page.len);
		strbuf_release(&page);
		strbuf_release(&path);
	}
	write_report_json(rep, rev, pathspec, nr_pathspec);
	free(langs);
	free(years);
	free(era_l);
	free(era_t);
	free(dis);
	strbuf_release(&pg);
	strbuf_release(&story);
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
	rep->engine_key = "";
	rep->blamed_by = "nothing";
	strbuf_init(&rep->line_repo, 0);
	strbuf_init(&rep->line_grafts, 0);
	strbuf_init(&rep->cache.dir, 0);
	strbuf_init(&rep->step_times, 0);
}

int cmd_report(int argc, char **argv)
{
	const char *dest = NULL, *source = NULL, *rev = "HEAD";
	const char **pathspec;
	int nr_pathspec = 0, i;
	struct report report;
	struct report *rep = &report;
	struct stat st;
	size_t k, fresh = 0, skipped = 0;
	struct attribution_options ao;

	report_init(rep);
	pathspec = xcalloc((size_t)argc + 1, sizeof(*pathspec));
	rep->opt.exclude = xcalloc((size_t)argc + 1, sizeof(*rep->opt.exclude));
	memset(&ao, 0, sizeof(ao));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-C") && i + 1 < argc)
			dest = argv[++i];
		else if (!strcmp(a, "--source") && i + 1 < argc)
			source = argv[++i];
		else if (!strncmp(a, "--source=", 9))
			source = a + 9;
		else if (!strncmp(a, "--top=", 6))
			rep->opt.top = atoi(a + 6);
		else if (!strncmp(a, "--min-tokens=", 13))
			rep->opt.min_tokens = (size_t)strtoul(a + 13, NULL, 10);
		else if (!strcmp(a, "-j") && i + 1 < argc)
			rep->opt.jobs = jobs_arg(argv[++i]);
		else if (!strncmp(a, "-j", 2) && a[2])
			rep->opt.jobs = jobs_arg(a + 2);
		else if (!strcmp(a, "-M"))
			rep->opt.move = 1;
		else if (!strcmp(a, "-w"))
			rep->opt.ignore_ws = 1;
		else if (!strcmp(a, "--stats"))
			rep->opt.stats = 1;
		else if (!strncmp(a, "--exclude=", 10) || (!strcmp(a, "--exclude") && i + 1 < argc))
			rep->opt.exclude[rep->opt.nr_exclude++] = a[9] ? a + 10 : argv[++i];
		else if (!strncmp(a, "--since=", 8) || !strncmp(a, "--after=", 8))
			rep->opt.since = a + 8;
		else if (!strncmp(a, "--until=", 8))
			rep->opt.until = a + 8;
		else if (!strncmp(a, "--before=", 9))
			rep->opt.until = a + 9;
		else if (!strcmp(a, "--no-mailmap"))
			rep->opt.no_mailmap = 1;
		else if (!strcmp(a, "--progress"))
			rep->opt.progress = 1;
		else if (!strcmp(a, "--no-progress"))
			rep->opt.progress = 0;
		else if (!strcmp(a, "--include-vendored"))
			rep->opt.include_vendored = 1;
		else if (!strcmp(a, "--no-include-vendored"))
			rep->opt.include_vendored = 0;
		else if (!strncmp(a, "--every=", 8) && age_parse_every(a + 8, &rep->opt.every))
			usage_die(report_usage, "--every takes tag or year, not '%s'", a + 8);
		else if (!strncmp(a, "--every=", 8))
			continue;
		else if (strcmp(a, "-C") && parse_attribution_option(&ao, argc, argv, &i))
			continue;
		else if (!strcmp(a, "--replay=auto"))
			rep->opt.replay = REPLAY_AUTO;
		else if (!strcmp(a, "--replay=always") || !strcmp(a, "--replay"))
			rep->opt.replay = REPLAY_ALWAYS;
		else if (!strcmp(a, "--replay=never") || !strcmp(a, "--no-replay"))
			rep->opt.replay = REPLAY_NEVER;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(report_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else
			usage_die(report_usage, "unknown option '%s'", a);
	}
	if (!rep->opt.jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		rep->opt.jobs = cpus < 1 ? 1 : cpus > 256 ? 256 : (int)cpus;
	} else if (rep->opt.jobs < 1 || rep->opt.jobs > 256) {
		usage_die(report_usage, "-j takes a number from 1 to 256");
	}
	if (rep->opt.top < 1)
		usage_die(report_usage, "--top takes a positive number");
	if (i >= argc)
		usage_die(report_usage, "no OUTDIR given");
	rep->opt.out_dir = argv[i++];
	if (i < argc)
		rev = argv[i++];
	for (; i < argc; i++)
		pathspec[nr_pathspec++] = argv[i];

	step_done(rep, NULL);
	blame_open(&rep->ctx, dest, source, rev, &ao);
	if (nr_pathspec) {
		blame_select_paths(&rep->ctx, rev, pathspec, nr_pathspec, &rep->selected_paths);
		rep->paths_selected = 1;
	}
	blame_left_out(&rep->ctx, rep->opt.exclude, rep->opt.nr_exclude, !rep->opt.include_vendored, &rep->left_out);
	resolve_window(rep, rep->ctx.gitdir.buf);
	/* --replay=never: each file through its own history, not the whole tree's state either */
	rep->ctx.tried_checkpoint = rep->opt.replay == REPLAY_NEVER;
	rep->ctx.ids_only = 1;
	rep->engine_key = rep->ctx.key.buf;
	read_config(rep, rep->ctx.gitdir.buf, source);
	if (!rep->nr_sources) {
		rep->sources = xcalloc(1, sizeof(*rep->sources));
		rep->sources[0].path = xstrdup(rep->ctx.src.buf);
		rep->nr_sources = 1;
	}
	strbuf_addf(&rep->cache.dir, "%s/tokstream/report-cache", rep->ctx.gitdir.buf);
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "%s/tokstream", rep->ctx.gitdir.buf);
		make_dir(d.buf);
		strbuf_release(&d);
	}
	make_dir(rep->cache.dir.buf);
	if (lstat(rep->opt.out_dir, &st)) {
		if (mkdir(rep->opt.out_dir, 0755))
			die_errno("cannot create '%s'", rep->opt.out_dir);
	} else if (!S_ISDIR(st.st_mode)) {
		die("'%s' is not a directory", rep->opt.out_dir);
	}
	setup_line_repo(rep);
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
	commit_eras(rep);
	step_done(rep, "commits");
	commit_sizes(rep, pathspec, nr_pathspec);
	step_done(rep, "commit sizes");
	write_report(rep, rev, pathspec, nr_pathspec);
	step_done(rep, "report written");
	if (rep->opt.stats) {
		fprintf(stderr, "tokstream report: %zu files, %zu without a view; %zu blamed, %zu from the cache; "
			"%zu commits in blame, %zu commits sized; -j %d; blamed by %s\n",
			rep->nr_files + rep->nr_no_view, rep->nr_no_view + skipped, fresh, rep->nr_files - fresh,
			rep->nr_commits, rep->nr_csizes, rep->opt.jobs, rep->blamed_by);
		fprintf(stderr, "tokstream report: code age: %zu points, counted by %s\n", rep->nr_age_samples,
			rep->age_own ? (rep->age_shared ? "the report's replays and replays of their own" : "replays of their own")
				: rep->age_shared ? "the report's replays" : "nothing (all from the cache)");
		fprintf(stderr, "tokstream report: wall time: %s\n", rep->step_times.buf);
	}
	return 0;
}
