/*
 * Running the blames: each fresh file's token blame and line blame,
 * summed up into a cache entry (blame_one), in -j worker processes; the
 * replays of the whole history that make many blames at once, the commit
 * sizes and the code age come out of the same passes, so they are
 * started here too, beside each other in threads where they can be.
 */
#include "report.h"
#include "functions.h"
#include "../tokenize/escape.h"
#include "../tokenize/progress.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

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

/* ---- one file: both blames, summed up into a cache entry ---- */

/*
 * The line blame of a file: from the replay of the lines when there is
 * one and no ignored revision made the file's lines, else git blame.
 */
static struct commit_info **line_blame(struct report *rep, struct rfile *f, struct commit_table *lt,
				       size_t *nr_lines)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strvec argv = STRVEC_INIT;
	struct commit_info **lc;
	struct strbuf out = STRBUF_INIT;
	size_t i;

	if (rep->line_replay && !(ctx->nr_ignored && replay_file_by_ignored(rep->line_replay, f->path))) {
		lc = replay_commits(lt, rep->line_replay, f->path, nr_lines);
		if (!lc)
			die("'%s' is not in the replay of '%s'", f->path, rep->line_repo.buf);
		return lc;
	}
	strvec_pushl(&argv, "git", "blame", "--porcelain", NULL);
	if (rep->opt.move)
		strvec_push(&argv, "-M");
	if (rep->opt.ignore_ws)
		strvec_push(&argv, "-w");
	for (i = 0; i < ctx->nr_ignored; i++)
		strvec_pushl(&argv, "--ignore-rev", ctx->ignored[i], NULL);
	strvec_pushl(&argv, ctx->orig, "--", f->path, NULL);
	if (run_capture(argv.v, rep->line_repo.buf, &out))
		die("git blame of '%s' failed in '%s'", f->path, rep->line_repo.buf);
	lc = parse_porcelain(lt, out.buf, nr_lines);
	strvec_clear(&argv);
	strbuf_release(&out);
	return lc;
}

/* The lines of the file as git blame counts them: a last line without LF is one. */
static size_t blamed_lines(const struct strbuf *content)
{
	size_t lines = 0, i;

	for (i = 0; i < content->len; i++)
		lines += content->buf[i] == '\n';
	if (content->len && content->buf[content->len - 1] != '\n')
		lines++;
	return lines;
}

/* The code lines of lines (those that hold a token that is not a comment); and the comments. */
static size_t code_lines_of(const struct blame_result *res, size_t lines, size_t *comment_tokens)
{
	char *code = xcalloc(lines + 1, 1);
	size_t code_lines = 0, i;

	*comment_tokens = 0;
	for (i = 0; i < res->nr_toks; i++) {
		const struct token_pos *t = &res->toks[i];
		size_t l = t->line, j;

		if (t->cls == TOKEN_COMMENT) {
			(*comment_tokens)++;
			continue;
		}
		for (j = t->start; ; j++) {
			if (l >= 1 && l <= lines)
				code[l - 1] = 1;
			if (j >= t->start + t->len)
				break;
			if (res->content.buf[j] == '\n')
				l++;
		}
	}
	for (i = 0; i < lines; i++)
		code_lines += code[i];
	free(code);
	return code_lines;
}

/* The commits of a file, each with its lines and tokens, in the order first met. */
struct file_commits {
	struct smap ids;
	char **id;
	size_t *lines, *tokens, *unmoved;
	size_t nr, alloc;
};

static size_t file_commit(struct file_commits *fc, const char *id)
{
	int isnew;
	size_t *v = smap_put(&fc->ids, id, fc->nr, &isnew);

	if (isnew) {
		ALLOC_GROW(fc->lines, fc->nr + 1, fc->alloc);
		fc->tokens = xrealloc(fc->tokens, st_mult(fc->alloc, sizeof(*fc->tokens)));
		fc->unmoved = xrealloc(fc->unmoved, st_mult(fc->alloc, sizeof(*fc->unmoved)));
		fc->id = xrealloc(fc->id, st_mult(fc->alloc, sizeof(*fc->id)));
		fc->lines[fc->nr] = fc->tokens[fc->nr] = fc->unmoved[fc->nr] = 0;
		fc->id[fc->nr] = xstrdup(id);
		fc->nr++;
	}
	return *v;
}

static void file_commits_release(struct file_commits *fc)
{
	free_strings(fc->id, fc->nr);
	free(fc->lines);
	free(fc->tokens);
	free(fc->unmoved);
	smap_release(&fc->ids);
}

/* The "f" lines of the entry: each function's tokens by the index of their commit. */
static void entry_functions(struct strbuf *entry, struct blame_result *res, size_t nr_c)
{
	struct function_span *fn;
	size_t nr_fn = find_functions(res, &fn), k, j;
	size_t *cnt = xcalloc(nr_c + 1, sizeof(*cnt)), *touched = xcalloc(nr_c + 1, sizeof(*touched));

	for (k = 0; k < nr_fn; k++) {
		struct token_pos *name = &res->toks[fn[k].name];
		size_t nt = 0;

		for (j = fn[k].name; j < fn[k].end; j++) {
			size_t g = (size_t)res->toks[j].commit->group;

			if (!cnt[g]++)
				touched[nt++] = g;
		}
		strbuf_addf(entry, "f %zu %zu ", name->line, fn[k].end - fn[k].name);
		percent_escape(entry, res->content.buf + name->start, name->len, CACHE_FIELD);
		for (j = 0; j < nt; j++) {
			strbuf_addf(entry, " %zu:%zu", touched[j], cnt[touched[j]]);
			cnt[touched[j]] = 0;
		}
		strbuf_addch(entry, '\n');
	}
	free(fn);
	free(cnt);
	free(touched);
}

/*
 * The cache entry of a file:
 *   CACHE_VERSION (report.h)
 *   path PATH
 *   lang LANGUAGE                      (or: skip REASON)
 *   size LINES CODE-LINES TOKENS COMMENT-TOKENS
 *   c ORIGINAL-ID LINES TOKENS UNMOVED one per commit, by lines, by tokens and by tokens
 *                                      without moves (the mover owns what it moved)
 *   moved TOKENS                       the tokens whose commit moves change
 *   f LINE TOKENS NAME I:N...          one per function: N of its tokens from the I-th commit
 * (PATH, NAME and REASON %-escaped).
 */
static void blame_one(struct report *rep, struct rfile *f, struct strbuf *entry)
{
	struct blame_result res, line_res;
	struct file_commits fc;
	struct commit_info **lc;
	const char *err;
	size_t nr_lines = 0, lines, code_lines, comment_tokens, moved = 0, i;

	strbuf_reset(entry);
	strbuf_addstr(entry, CACHE_VERSION "\npath ");
	percent_escape(entry, f->path, strlen(f->path), CACHE_FIELD);
	strbuf_addch(entry, '\n');
	if (blame_file_at(&rep->ctx, f->path, f->blob, f->view_blob, &res, &err)) {
		strbuf_addstr(entry, "skip ");
		percent_escape(entry, err, strlen(err), CACHE_FIELD);
		strbuf_addch(entry, '\n');
		blame_result_release(&res);
		return;
	}
	/* the line blame's commits are released as a blame's are */
	memset(&line_res, 0, sizeof(line_res));
	strbuf_init(&line_res.content, 0);
	lc = line_blame(rep, f, &line_res.commits, &nr_lines);
	lines = blamed_lines(&res.content);
	if (nr_lines != lines)
		die("git blame of '%s' gave %zu lines for a file of %zu", f->path, nr_lines, lines);
	code_lines = code_lines_of(&res, lines, &comment_tokens);

	/* the commits of the file, by lines and by tokens */
	memset(&fc, 0, sizeof(fc));
	for (i = 0; i < res.commits.nr; i++) {
		struct commit_info *c = res.commits.v[i];
		size_t idx = file_commit(&fc, c->orig);

		c->group = (int)idx;
		fc.tokens[idx] += c->tokens;
	}
	for (i = 0; i < nr_lines; i++) {
		size_t idx;

		if (!lc[i])
			die("git blame of '%s' gave no commit for line %zu", f->path, i + 1);
		idx = file_commit(&fc, lc[i]->token);  /* before fc.lines is read: it may move */
		fc.lines[idx]++;
	}
	/* a commit that only moved code here has tokens without moves alone: after the others */
	for (i = 0; i < res.unmoved_commits.nr; i++) {
		const struct commit_info *c = res.unmoved_commits.v[i];
		size_t idx = file_commit(&fc, c->orig);

		fc.unmoved[idx] += c->tokens;
	}
	for (i = 0; i < res.nr_toks; i++)
		moved += res.toks[i].unmoved && strcmp(res.toks[i].unmoved->token, res.toks[i].commit->token);
	strbuf_addf(entry, "lang %s\nsize %zu %zu %zu %zu\n", res.lang->name, lines, code_lines,
		    res.nr_toks, comment_tokens);
	for (i = 0; i < fc.nr; i++)
		strbuf_addf(entry, "c %s %zu %zu %zu\n", fc.id[i], fc.lines[i], fc.tokens[i], fc.unmoved[i]);
	strbuf_addf(entry, "moved %zu\n", moved);
	entry_functions(entry, &res, fc.nr);
	file_commits_release(&fc);
	free(lc);
	blame_result_release(&line_res);
	blame_result_release(&res);
}

/* The report a blame_ctx is part of: the engine's callbacks get &rep->ctx as their data. */
static struct report *report_of_ctx(void *ctx)
{
	return (struct report *)((char *)ctx - offsetof(struct report, ctx));
}

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
 * The changes of the history that the figures leave out, by "TOKEN-COMMIT
 * PATH" into out: those the pathspecs of --exclude select at the commit,
 * and the generated files, by their names and the blob the commit gives
 * them (the one it removed, for a deletion): a deleted generated tree
 * is no author's change, wherever REV stands.
 */
static void history_left_out(struct report *rep, const char **pathspec, int nr_pathspec, struct smap *out)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strvec argv = STRVEC_INIT;
	struct strbuf rec = STRBUF_INIT, key = STRBUF_INIT;
	char (*blobs)[41] = NULL, (*keys)[82] = NULL;
	const char **paths = NULL;
	size_t nr = 0, alloc = 0, k;
	const char *cur = NULL;
	struct reader r;
	int i;

	if (rep->opt.nr_exclude) {
		strvec_pushl(&argv, "git", "log", "-z", "--no-merges", "--full-history", "--no-renames",
			     "--name-only", "--format=%x01%H", ctx->token, "--", NULL);
		for (i = 0; i < rep->opt.nr_exclude; i++)
			strvec_push(&argv, rep->opt.exclude[i]);
		reader_start(&r, argv.v, ctx->gitdir.buf);
		while (reader_next(&r, &rec, '\0')) {
			const char *p = rec.buf;

			if (*p == '\001') {
				strbuf_reset(&key);
				strbuf_addf(&key, "%s ", p + 1);
				continue;
			}
			while (*p == '\n')
				p++;
			if (*p && key.len == 41) {
				strbuf_setlen(&key, 41);
				strbuf_addstr(&key, p);
				smap_put(out, key.buf, 0, NULL);
			}
		}
		if (reader_finish(&r))
			die("git log failed in '%s'", ctx->gitdir.buf);
		strvec_clear(&argv);
	}
	if (rep->opt.include_vendored)
		goto done;
	/* ":OLDMODE NEWMODE OLD NEW STATUS", NUL, PATH, NUL, of each commit of the source */
	strvec_pushl(&argv, "git", "log", "-z", "--no-merges", "--full-history", "--no-renames", "--raw",
		     "--no-abbrev", "--format=%x01%H", ctx->orig, "--", NULL);
	for (i = 0; i < nr_pathspec; i++)
		strvec_push(&argv, pathspec[i]);
	reader_start(&r, argv.v, rep->line_repo.buf);
	while (reader_next(&r, &rec, '\0')) {
		const char *p = rec.buf, *blob, *mode;
		int regular;

		if (*p == '\001') {
			cur = oid_map_token(&ctx->map, p + 1);
			continue;
		}
		while (*p == '\n')
			p++;
		if (*p != ':' || rec.len < 98 || !cur)
			continue;
		blob = p[97] == 'D' ? p + 15 : p + 56;
		mode = p[97] == 'D' ? p + 1 : p + 8;
		/* regular files only: a submodule's "blob" is a commit of another repository */
		regular = !strncmp(mode, "100644", 6) || !strncmp(mode, "100755", 6);
		ALLOC_GROW(keys, nr + 1, alloc);
		blobs = xrealloc(blobs, st_mult(alloc, sizeof(*blobs)));
		paths = xrealloc(paths, st_mult(alloc, sizeof(*paths)));
		memcpy(blobs[nr], blob, 40);  /* before the next record, the path, takes rec */
		blobs[nr][40] = '\0';
		if (!reader_next(&r, &rec, '\0'))
			break;
		if (!regular)
			continue;
		memcpy(keys[nr], cur, 40);
		keys[nr][40] = '\0';
		paths[nr++] = xstrdup(rec.buf);
	}
	if (reader_finish(&r))
		die("git log failed in '%s'", rep->line_repo.buf);
	generated_read_blobs(rep, blobs, paths, nr);
	for (k = 0; k < nr; k++) {
		const char *detail;

		if (generated_reason(rep, paths[k], blobs[k], &detail) == LEFT_IN)
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s %s", keys[k], paths[k]);
		smap_put(out, key.buf, 0, NULL);
	}
	for (k = 0; k < nr; k++)
		free((char *)paths[k]);
done:
	free(blobs);
	free(keys);
	free(paths);
	strvec_clear(&argv);
	strbuf_release(&rec);
	strbuf_release(&key);
}

/*
 * Every non-merge commit of the token history of the tip that changes a
 * selected token file (git log --name-only, so that the pathspec means
 * what it means to git), with the tokens it adds to and removes from
 * them by the attribution engine's diff: the whole tree's replay, the
 * one blame_fresh() made or one made here.  Kept in the cache per
 * pathspec and tip.
 */
void commit_sizes(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strvec argv = STRVEC_INIT;
	struct strbuf rec = STRBUF_INIT, key = STRBUF_INIT, path = STRBUF_INIT, sb = STRBUF_INIT;
	struct smap left_out = SMAP_INIT;
	struct reader *r;
	char cur[41] = "";
	size_t i, a = 0, rm = 0;
	int counted = 0;

	if (rep->sizes_from_cache)
		goto done;
	if (!rep->changes_recorded) {
		struct replay_options o = ctx->engine;

		o.on_change = record_change;
		if (progress_wanted(rep->opt.progress))
			o.progress_title = "Replaying commits for their sizes";
		replay_free(replay_tokens(ctx->gitdir.buf, ctx->token, &o));
		rep->changes_recorded = 1;
	}
	strvec_pushl(&argv, "git", "log", "-z", "--no-merges", "--full-history", "--no-renames",
		     "--name-only", "--format=%x01%H", NULL);
	if (rep->opt.since)
		strvec_push(&argv, rep->window.since);
	if (rep->opt.until)
		strvec_push(&argv, rep->window.until);
	strvec_pushl(&argv, ctx->token, "--", NULL);
	for (i = 0; i < (size_t)nr_pathspec; i++)
		strvec_push(&argv, pathspec[i]);
	history_left_out(rep, pathspec, nr_pathspec, &left_out);
	r = xmalloc(sizeof(*r));
	reader_start(r, argv.v, ctx->gitdir.buf);
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
		if (!*p || !is_token_path(rep, p) || smap_get(&rep->left_out, p))
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s %s", cur, p);
		if (smap_get(&left_out, key.buf))
			continue;
		counted = 1;
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
	smap_release(&left_out);
	strvec_clear(&argv);
	strbuf_release(&rec);
	strbuf_release(&key);
	strbuf_release(&path);
	strbuf_release(&sb);
}

static void replay_lines(void *data)
{
	struct report *rep = data;
	struct blame_ctx *ctx = &rep->ctx;
	struct replay_options o = { 0 };
	struct strbuf path = STRBUF_INIT, key = STRBUF_INIT;
	struct smap ignore = SMAP_INIT;
	char **ids = xcalloc(ctx->nr_ignored + 1, sizeof(*ids));
	size_t k;

	/* the ignored commits only mark the files they made: git blame's search is theirs */
	strbuf_addf(&key, "lines ws %d%s", rep->opt.ignore_ws, rep->line_grafts.buf);
	if (ctx->nr_ignored) {
		memcpy(ids, ctx->ignored, ctx->nr_ignored * sizeof(*ids));
		qsort(ids, ctx->nr_ignored, sizeof(*ids), cmp_strings);
	}
	for (k = 0; k < ctx->nr_ignored; k++) {
		smap_put(&ignore, ids[k], 1, NULL);
		strbuf_addf(&key, "%s %s", k ? "" : " marks", ids[k]);
	}
	o.ignore = ctx->nr_ignored ? &ignore : NULL;
	blame_state_path_of(ctx, "lines", key.buf, ctx->default_ignores && !rep->opt.ignore_ws, &path, 1);
	o.ignore_ws = rep->opt.ignore_ws;
	o.checkpoint = path.buf;
	o.checkpoint_key = key.buf;
	age_hook(rep->age, &o, 1);
	rep->line_replay = replay_history(rep->line_repo.buf, ctx->orig, &o);
	strbuf_release(&path);
	strbuf_release(&key);
	smap_release(&ignore);
	free(ids);
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

	blame_state_path(ctx, &path, 0);
	ret = !access(path.buf, F_OK);
	strbuf_release(&path);
	return ret;
}

/* The fresh files, for the workers that blame them. */
struct blame_todo {
	struct report *rep;
	size_t *todo, nr;
};

/* Worker w's blames, every nr-th fresh file, into a pack of the cache's. */
static int blame_share(int w, int nr, int to_parent, void *data)
{
	struct blame_todo *t = data;
	struct strbuf entry = STRBUF_INIT;
	struct pack_writer pw;
	size_t k;

	pack_start(t->rep, &pw);
	for (k = (size_t)w; k < t->nr; k += (size_t)nr) {
		struct rfile *f = &t->rep->files[t->todo[k]];

		blame_one(t->rep, f, &entry);
		pack_add(&pw, f->key, entry.buf, entry.len);
	}
	pack_finish(&pw);
	strbuf_release(&entry);
	/* a forked worker's _exit() runs no atexit(): its own cat-file processes */
	if (to_parent >= 0)
		blame_stop_batches();
	return 0;
}

/* Blames the fresh files, in opt.jobs processes; each writes its entries into the cache. */
void blame_fresh(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	size_t *todo = xcalloc(rep->nr_files + 1, sizeof(*todo)), nr_todo = 0, k;
	struct blame_todo t = { rep, todo, 0 };
	int jobs, use_replay = 0;

	for (k = 0; k < rep->nr_files; k++)
		if (rep->files[k].fresh)
			todo[nr_todo++] = k;

	/*
	 * One pass over each history costs about what blaming every file of
	 * the tree one by one costs, so it pays when the whole tree is
	 * selected and more than a few of its files are to be blamed.  Line
	 * blame with -M needs git blame's own search, and so do the files
	 * an ignored revision made (line_blame).
	 */
	if (rep->opt.replay == REPLAY_ALWAYS)
		use_replay = nr_todo > 0;
	else if (rep->opt.replay == REPLAY_AUTO)
		use_replay = (rep->whole_tree_selected && (nr_todo >= 32 || nr_todo * 4 >= rep->nr_files ||
						      (nr_todo && has_checkpoint(rep)))) ||
			     (nr_todo && age_wants(rep->age, 0));  /* the code age needs the pass anyway */
	if (use_replay) {
		struct side_job lines;
		int line_side = !rep->opt.move;

		if (line_side)
			side_job_start(rep, &lines, replay_lines, rep);
		if (!rep->sizes_from_cache)
			ctx->engine.on_change = record_change;  /* the commit sizes, from the same pass */
		if (progress_wanted(rep->opt.progress))
			ctx->engine.progress_title = "Replaying commits";
		age_hook(rep->age, &ctx->engine, 0);
		blame_replay_tree(ctx);
		age_unhook(&ctx->engine);
		ctx->engine.progress_title = NULL;
		ctx->engine.on_change = NULL;
		rep->changes_recorded = !rep->sizes_from_cache;
		if (line_side)
			side_job_finish(&lines);
		step_done(rep, "replays");
		rep->blamed_by = !line_side ? "one replay of the token history, git blame of each file by lines"
				 : ctx->nr_ignored ? "one replay of each history, git blame by lines where an ignored revision made the file"
				 : "one replay of each history";
	} else if (nr_todo) {
		rep->blamed_by = "the history of each file by tokens, git blame of each file by lines";
	}
	jobs = (size_t)rep->opt.jobs > nr_todo ? (int)nr_todo : rep->opt.jobs;  /* 0: nothing to blame */
	t.nr = nr_todo;
	if (run_workers(jobs, blame_share, NULL, &t))
		die("a worker blaming files failed");
	free(todo);
	/* the new entries, for read_entry(); and no more than MAX_PACKS packs */
	if (nr_todo)
		merge_packs(rep);
	step_done(rep, "files blamed");
	if (ctx->replay) {
		rep->nr_unloaded = replay_nr_unloaded(ctx->replay);
		replay_free(ctx->replay);
	}
	if (rep->line_replay)
		replay_free(rep->line_replay);
	ctx->replay = rep->line_replay = NULL;
}

/* ---- code age over time: the points are counted in the replays ---- */


/* list_files()' rule, for a regular file that has a view */
static int age_counts(const char *path)
{
	return language_for_path(path) != &language_none && !is_git_control_file(path);
}

/* The code age's judge(): the blobs of the points, read for their markers. */
static void age_judge(char (*blobs)[41], const char **paths, size_t nr, void *data)
{
	struct report *rep = data;

	if (!rep->opt.include_vendored)
		generated_read_blobs(rep, blobs, paths, nr);
}

/*
 * The code age's left_out(): what the report leaves out at REV by path
 * (--exclude, the attributes), and the generated files by their names
 * and the blob at the point.
 */
static int age_left_out(const char *path, const char *blob, void *data)
{
	struct report *rep = data;
	const char *detail;

	return smap_get(&rep->left_out, path) ||
	       generated_reason(rep, path, blob, &detail) != LEFT_IN;
}

/* Finds the points of the history and what the cache knows of them (age.h). */
void age_start(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct age_options o;
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT;
	const char **repos = xcalloc((size_t)rep->nr_sources + 1, sizeof(*repos));
	int k;

	for (k = 0; k < rep->nr_sources; k++)
		repos[k] = k == rep->nr_sources - 1 ? ctx->src.buf : rep->sources[k].path;
	rep->age_lines = !rep->opt.move && !ctx->nr_ignored;
	/* what the counts depend on besides the commit: the options of both replays, the pathspec */
	strbuf_addf(&key, "age 1%c%s%clines ws %d%s%c%d%c%d", 0, rep->engine_key, 0, rep->opt.ignore_ws,
		    rep->line_grafts.buf, 0, rep->age_lines, 0, (int)rep->opt.every);
	for (k = 0; k < nr_pathspec; k++)
		strbuf_addf(&key, "%c%s", 0, pathspec[k]);
	/* and what is left out: the same at every point, the attributes' files as at REV */
	strbuf_addf(&key, "%cleft out 1 %d", 0, rep->opt.include_vendored);
	for (k = 0; k < rep->opt.nr_exclude; k++)
		strbuf_addf(&key, "%cexclude %s", 0, rep->opt.exclude[k]);
	for (k = 0; (size_t)k < rep->nr_left_out_list; k++)
		if (rep->left_out_list[k].reason == LEFT_OUT_VENDORED || rep->left_out_list[k].reason == LEFT_OUT_GENERATED)
			strbuf_addf(&key, "%c%zu %s", 0, rep->left_out_list[k].reason, rep->left_out_list[k].path);
	report_cache_file(rep, "age", &key, &path);
	memset(&o, 0, sizeof(o));
	o.every = rep->opt.every;
	o.line_repo = rep->line_repo.buf;
	o.tag_repos = repos;
	o.nr_tag_repos = (size_t)rep->nr_sources;
	o.pathspec = pathspec;
	o.nr_pathspec = nr_pathspec;
	o.counts = age_counts;
	o.exclude = rep->opt.exclude;
	o.nr_exclude = rep->opt.nr_exclude;
	o.judge = age_judge;
	o.left_out = age_left_out;
	o.data = rep;
	o.year_of = year_of;
	o.lines = rep->age_lines;
	o.cache = path.buf;
	rep->age = age_begin(ctx, &o);
	strbuf_release(&key);
	/* path and repos stay: the options are kept */
}

/*
 * The replays that count the points the report's own did not (it made
 * none: every file came from the cache, or --replay=never), each from
 * the checkpoint when that has not gone past a point; then the counts.
 */
void age_replays(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct side_job lines;
	int need_lines = age_wants(rep->age, 1);

	rep->age_shared = age_counted(rep->age) > 0;
	rep->age_own = need_lines || age_wants(rep->age, 0);
	if (need_lines)
		side_job_start(rep, &lines, replay_lines, rep);
	if (age_wants(rep->age, 0)) {
		if (!rep->sizes_from_cache && !rep->changes_recorded) {
			ctx->engine.on_change = record_change;  /* the commit sizes, from the same pass */
			rep->changes_recorded = 1;
		}
		age_hook(rep->age, &ctx->engine, 0);
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
	rep->age_samples = age_end(rep->age, &rep->nr_age_samples);
	step_done(rep, "code age");
}
