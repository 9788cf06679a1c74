/*
 * What the report blames: DEST's sources and their tips, the repository
 * the line blame runs in (one that crosses the seams of a stitched
 * history as token blame does), and the files of the revision that are
 * selected, and those left out and why.
 */
#include "report.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- what DEST records: its sources, their tips, the filter options ---- */



void read_config(struct report *rep, const char *gitdir, const char *source_opt)
{
	struct dest_config cfg;
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
	read_source_tips(rep);
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
}

/* Reverse lookups of the commit map: token id -> original id. */
const char *orig_of(struct report *rep, const char *token)
{
	return oid_map_orig(&rep->ctx.map, token);
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
void setup_line_repo(struct report *rep)
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
		const char *setting = NULL;  /* where the mailmap is: mailmap.blob or mailmap.file */

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
				setting = "mailmap.blob";
			}
		} else {
			const char *top[] = { "git", "rev-parse", "--show-toplevel", NULL };

			strbuf_reset(&out);
			run_capture(top, ctx->src.buf, &out);
			strbuf_trim_newline(&out);
			strbuf_addf(&mm, "%s/.mailmap", out.buf);
			setting = "mailmap.file";
		}
		if (setting) {
			const char *set[] = { "git", "config", setting, mm.buf, NULL };

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

/* ---- the files ---- */





static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct rfile *)a)->path, ((const struct rfile *)b)->path);
}

int is_token_path(struct report *rep, const char *path)
{
	return !is_git_control_file(path) && !(rep->keep_other && language_for_path(path) == &language_none);
}

/* tree_lines()' callback: the tokens of a file left out are the lines of its view. */
static void count_left_out_tokens(const char *path, const char *blob, size_t lines, int binary, void *data)
{
	struct report *rep = data;
	size_t *at = smap_get(&rep->left_out_files, path);

	(void)blob;
	(void)binary;
	if (at) {
		rep->left_out_list[*at].tokens = lines;
		rep->left_out_total[rep->left_out_list[*at].reason].tokens += lines;
	}
}

/* Leaves path out of every figure, for reason (detail: the rule that said so). */
static void leave_out(struct report *rep, const char *path, size_t reason, const char *detail)
{
	struct left_out_file *l;

	ALLOC_GROW(rep->left_out_list, rep->nr_left_out_list + 1, rep->alloc_left_out_list);
	l = &rep->left_out_list[rep->nr_left_out_list];
	l->path = xstrdup(path);
	l->detail = detail;
	l->reason = reason;
	l->tokens = 0;
	smap_put(&rep->left_out_files, path, rep->nr_left_out_list++, NULL);
	rep->left_out_total[reason].files++;
}

/* The files with a view that a tool wrote, as their names and first lines say: left out. */
static void leave_out_generated(struct report *rep)
{
	char (*blobs)[41] = xcalloc(rep->nr_files + 1, sizeof(*blobs));
	const char **paths = xcalloc(rep->nr_files + 1, sizeof(*paths));
	size_t k, kept = 0;

	if (rep->opt.include_vendored)
		return;
	for (k = 0; k < rep->nr_files; k++) {
		memcpy(blobs[k], rep->files[k].blob, 41);
		paths[k] = rep->files[k].path;
	}
	generated_read_blobs(rep, blobs, paths, rep->nr_files);
	for (k = 0; k < rep->nr_files; k++) {
		struct rfile *f = &rep->files[k];
		const char *detail;
		size_t why = generated_reason(rep, f->path, f->blob, &detail);

		if (why == LEFT_IN) {
			rep->files[kept++] = *f;
			continue;
		}
		leave_out(rep, f->path, why, detail);
		free(f->path);
	}
	rep->nr_files = kept;
	free(blobs);
	free(paths);
}

void list_files(struct report *rep)
{
	struct blame_ctx *ctx = &rep->ctx;
	const char *ls[] = { "git", "ls-tree", "-r", "-z", ctx->orig, NULL };
	struct strbuf out = STRBUF_INIT;
	/* the files to leave out, once it is known that they have a view */
	struct smap leaving = SMAP_INIT;
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
		if ((why = smap_get(&rep->left_out, tab + 1)))
			smap_put(&leaving, tab + 1, *why, NULL);
		ALLOC_GROW(rep->files, rep->nr_files + 1, rep->alloc_files);
		memset(&rep->files[rep->nr_files], 0, sizeof(*rep->files));
		rep->files[rep->nr_files].path = xstrdup(tab + 1);
		memcpy(rep->files[rep->nr_files].blob, p + 12, 40);
		rep->files[rep->nr_files].blob[40] = '\0';
		rep->nr_files++;
	}
	/*
	 * a file without a view in the token tree has no token blame: no
	 * need to ask; nor to say that it is left out, since no figure
	 * would have counted it (the Size table counts files with a view)
	 */
	{
		const char *lt[] = { "git", "ls-tree", "-r", "-z", ctx->token, NULL };
		struct smap views = SMAP_INIT;
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

			if (at && (why = smap_get(&leaving, rep->files[k].path))) {
				leave_out(rep, rep->files[k].path, *why, NULL);
				free(rep->files[k].path);
			} else if (at) {
				memcpy(rep->files[k].view_blob, out.buf + *at, 40);
				rep->files[k].view_blob[40] = '\0';
				rep->files[kept++] = rep->files[k];
			} else {
				if (!smap_get(&leaving, rep->files[k].path))
					rep->nr_no_view++;
				free(rep->files[k].path);
			}
		}
		rep->nr_files = kept;
		smap_release(&views);
	}
	smap_release(&leaving);
	leave_out_generated(rep);
	/* the tokens of the files left out: the lines of their views */
	if (smap_count(&rep->left_out_files))
		tree_lines(ctx->gitdir.buf, ctx->token, count_left_out_tokens, rep);
	qsort(rep->files, rep->nr_files, sizeof(*rep->files), cmp_file);
	strbuf_release(&out);
}
