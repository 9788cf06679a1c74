/*
 * Token blame as data: the library that `blame`, `html` and `report`
 * share.  It finds DEST and reads its state (through state.c), turns the
 * attribution options into the engine's (replay.c runs it), and gives
 * the blame of a file as its original text with every token's line,
 * column and commit (struct blame_result), and the files of a revision
 * that a pathspec selects or a report leaves out.
 *
 * The command is apart, in cmd-blame.c (options, pager, the terminal,
 * porcelain and JSON output), as Git keeps blame.c apart from
 * builtin/blame.c: html and report print what this returns their own way.
 */
#include "blame.h"
#include "walk.h"
#include "../tokenize/language.h"
#include "../tokenize/lines.h"
#include "../tokenize/parse.h"
#include "../tokenize/run-command.h"
#include "../tokenize/catfile.h"
#include "../tokenize/sha1.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"
#include "../tokenize/view.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static struct commit_info *commit_by_token(struct commit_table *t, const char *token)
{
	int isnew;
	size_t *at = smap_put(&t->index, token, t->nr, &isnew);

	if (!isnew)
		return t->v[*at];
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr] = xcalloc(1, sizeof(struct commit_info));
	memcpy(t->v[t->nr]->token, token, 41);
	return t->v[t->nr++];
}

/*
 * A header line of git blame --porcelain about a person, ROLE, ROLE-mail,
 * ROLE-time or ROLE-tz (ROLE: author or committer), into its field;
 * 1 if it was one.
 */
static int porcelain_person(const char *line, const char *role, char **name, char **mail,
			    long long *time, char **tz)
{
	size_t n = strlen(role);

	if (strncmp(line, role, n))
		return 0;
	line += n;
	if (*line == ' ')
		*name = xstrdup(line + 1);
	else if (!strncmp(line, "-mail ", 6))
		*mail = xstrdup(line + 6);
	else if (!strncmp(line, "-time ", 6))
		*time = strtoll(line + 6, NULL, 10);
	else if (!strncmp(line, "-tz ", 4))
		*tz = xstrdup(line + 4);
	else
		return 0;
	return 1;
}

/*
 * Parses `git blame --porcelain`: for every final line (1-based) the
 * commit that introduced it.
 */
struct commit_info **parse_porcelain(struct commit_table *t, char *buf, size_t *nr_lines)
{
	struct commit_info **line_commit = NULL, *cur = NULL;
	size_t alloc = 0, n = 0;
	char *p, *nl;

	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		if (*p == '\t')
			continue;
		if (strlen(p) > 41 && p[40] == ' ' && is_hex40(p)) {
			char sha[41];
			unsigned long final;
			char *end;

			memcpy(sha, p, 40);
			sha[40] = '\0';
			strtoul(p + 41, &end, 10);
			final = strtoul(end, &end, 10);
			cur = commit_by_token(t, sha);
			ALLOC_GROW(line_commit, final, alloc);
			while (n < final)
				line_commit[n++] = NULL;
			line_commit[final - 1] = cur;
			continue;
		}
		if (!cur)
			continue;
		if (porcelain_person(p, "author", &cur->author, &cur->author_mail,
				     &cur->author_time, &cur->author_tz) ||
		    porcelain_person(p, "committer", &cur->committer, &cur->committer_mail,
				     &cur->committer_time, &cur->committer_tz))
			continue;
		if (!strncmp(p, "summary ", 8))
			cur->summary = xstrdup(p + 8);
		else if (!strncmp(p, "filename ", 9) && !cur->filename)
			cur->filename = xstrdup(p + 9);
	}
	*nr_lines = n;
	return line_commit;
}

struct commit_info **replay_commits(struct commit_table *t, const struct replay *r,
				    const char *path, size_t *nr_lines)
{
	const uint32_t *lines = replay_file(r, path, nr_lines);
	struct commit_info **line_commit, *last = NULL;
	uint32_t last_id = 0;
	size_t k;

	if (!lines)
		return NULL;
	line_commit = xcalloc(*nr_lines + 1, sizeof(*line_commit));
	for (k = 0; k < *nr_lines; k++) {
		if (!last || lines[k] != last_id) {
			last = commit_by_token(t, replay_commit(r, lines[k]));
			last_id = lines[k];
		}
		line_commit[k] = last;
	}
	return line_commit;
}

/* The sources DEST records, oldest first (the eras of a stitched history). */
static void recorded_sources(const struct dest_config *cfg, const char *gitdir, struct blame_ctx *ctx)
{
	size_t i;

	if (!cfg->nr_sources)
		die("'%s' records no source: give --source=SRC", gitdir);
	for (i = 0; i < cfg->nr_sources; i++) {
		ALLOC_GROW(ctx->sources, ctx->nr_sources + 1, ctx->alloc_sources);
		ctx->sources[ctx->nr_sources++] = xstrdup(cfg->sources[i]);
	}
}

/* The --lang options DEST was converted with: its views depend on them. */
static void recorded_langs(const struct dest_config *cfg, const char *gitdir)
{
	static int done;
	size_t i;

	if (done++)
		return;
	for (i = 0; i < cfg->nr_options; i++) {
		struct strbuf path = STRBUF_INIT;
		const char *err;

		if (strncmp(cfg->options[i], "--lang=", 7))
			continue;
		if (language_add_override(cfg->options[i] + 7, &err)) {
			state_path(&path, gitdir, STATE_CONFIG);
			die("%s: option %s: %s", path.buf, cfg->options[i], err);
		}
	}
}

/*
 * The details of the token commits of t, as `git blame --porcelain`
 * gives them (identities through the tree's .mailmap, as git blame and
 * git log read it), from one git log in the token repository.
 */
static void describe_commits(const char *gitdir, struct commit_table *t, int no_mailmap)
{
	const char *argv[] = { "git", "log", "--no-walk=unsorted", "--stdin", "-z", "--date=format:%z",
			       no_mailmap ? "--format=%H%x00%an%x00%ae%x00%at%x00%ad%x00%cn%x00%ce%x00%ct%x00%cd%x00%s"
					  : "--format=%H%x00%aN%x00%aE%x00%at%x00%ad%x00%cN%x00%cE%x00%ct%x00%cd%x00%s",
			       NULL };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *p, *end;
	size_t k;

	if (!t->nr)
		return;
	for (k = 0; k < t->nr; k++)
		strbuf_addf(&in, "%s\n", t->v[k]->token);
	if (run_capture_input(argv, gitdir, &in, &out))
		die("git log of the blamed commits failed in '%s'", gitdir);
	/* ten NUL-separated fields a commit, the commits NUL-separated too */
	for (p = out.buf, end = out.buf + out.len; p < end;) {
		char *f[10];
		struct commit_info *c;
		size_t *at;
		int n;

		for (n = 0; n < 10 && p < end; n++) {
			f[n] = p;
			p += strlen(p) + 1;
		}
		if (n < 10)
			die("unexpected output of git log in '%s'", gitdir);
		if (!(at = smap_get(&t->index, f[0])))
			continue;
		c = t->v[*at];
		c->author = xstrdup(f[1]);
		c->author_mail = xstrfmt("<%s>", f[2]);
		c->author_time = strtoll(f[3], NULL, 10);
		c->author_tz = xstrdup(f[4]);
		c->committer = xstrdup(f[5]);
		c->committer_mail = xstrfmt("<%s>", f[6]);
		c->committer_time = strtoll(f[7], NULL, 10);
		c->committer_tz = xstrdup(f[8]);
		c->summary = xstrdup(f[9]);
	}
	strbuf_release(&in);
	strbuf_release(&out);
}

/* Adds the token commit of the source's commit orig to the ignored ones. */
static void ignore_commit(struct blame_ctx *ctx, const char *orig, const char *where)
{
	const char *token = oid_map_token(&ctx->map, orig);
	int isnew;

	if (!token)
		die("%s: commit %s is not in the token repository: run tokstream convert", where, orig);
	smap_put(&ctx->ignore, token, 1, &isnew);
	if (isnew) {
		ALLOC_GROW(ctx->ignored, ctx->nr_ignored + 1, ctx->alloc_ignored);
		ctx->ignored[ctx->nr_ignored++] = xstrdup(orig);
	}
}

/*
 * A file of revisions to ignore, as git blame reads one: an object id
 * per line, '#' starts a comment, blank lines are skipped.  A name that
 * is no full id, or not a commit of the source, is an error, as in git.
 */
static void ignore_revs_file(struct blame_ctx *ctx, const char *path, int from_config)
{
	struct strbuf sb = STRBUF_INIT, full = STRBUF_INIT;
	char *p, *nl;

	if (path[0] != '/' && from_config)
		strbuf_addf(&full, "%s/%s", ctx->src.buf, path);
	else
		strbuf_addstr(&full, path);
	if (strbuf_read_file(&sb, full.buf)) {
		if (from_config) {
			warning("blame.ignoreRevsFile '%s' of '%s' cannot be read: no revision ignored from it",
				path, ctx->src.buf);
			goto done;
		}
		die_errno("cannot read the revisions to ignore in '%s'", path);
	}
	for (p = sb.buf; *p; p = nl + 1) {
		char *hash = strchr(p, '#'), *end;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		end = hash && hash < nl ? hash : nl;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end > p) {
			char id[41];

			if (end - p != 40 || !is_hex40(p))
				die("%s: '%.*s' is not a full commit id", full.buf, (int)(end - p), p);
			memcpy(id, p, 40);
			id[40] = '\0';
			ignore_commit(ctx, id, full.buf);
		}
		if (!*nl)
			break;
	}
done:
	strbuf_release(&sb);
	strbuf_release(&full);
}

static int original_token_lines(const char *commit, const char *path, size_t nr, uint32_t *line, void *data);
static void *lines_reader_new(void *data);
static int lines_reader_lines(void *reader, const char *commit, const char *path, size_t nr, uint32_t *line);
static void lines_reader_free(void *reader);

static void setup_engine(struct blame_ctx *ctx, const struct attribution_options *o)
{
	static const struct attribution_options defaults;
	struct strbuf cfg = STRBUF_INIT;
	size_t k, nr_configured;

	if (!o)
		o = &defaults;
	memset(&ctx->engine, 0, sizeof(ctx->engine));
	ctx->engine.min_move = o->no_moves ? 0 : o->min_move ? o->min_move : REPLAY_MIN_MOVE;
	ctx->engine.ignore_ws = o->ignore_ws;
	ctx->engine.ignore = &ctx->ignore;
	ctx->engine.token_lines = original_token_lines;
	ctx->engine.read_ahead = o->read_ahead;
	ctx->engine.lines_reader_new = lines_reader_new;
	ctx->engine.lines_reader_lines = lines_reader_lines;
	ctx->engine.lines_reader_free = lines_reader_free;
	ctx->engine.data = ctx;

	if (!o->no_config_ignore_file) {
		const char *argv[] = { "git", "config", "--get-all", "blame.ignoreRevsFile", NULL };
		char *p, *nl;

		run_capture_quiet(argv, ctx->src.buf, &cfg);
		for (p = cfg.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = '\0';
			if (*p)
				ignore_revs_file(ctx, p, 1);
		}
	}
	nr_configured = ctx->nr_ignored;
	for (k = 0; k < o->nr_ignore_files; k++)
		ignore_revs_file(ctx, o->ignore_files[k], 0);
	for (k = 0; k < o->nr_ignore_revs; k++) {
		struct strvec argv = STRVEC_INIT;
		struct strbuf out = STRBUF_INIT;

		strvec_pushl(&argv, "git", "rev-parse", "--verify", "-q", NULL);
		strvec_pushf(&argv, "%s^{commit}", o->ignore_revs[k]);
		if (run_capture(argv.v, ctx->src.buf, &out) || out.len < 40)
			die("--ignore-rev: '%s' is not a commit of '%s'", o->ignore_revs[k], ctx->src.buf);
		out.buf[40] = '\0';
		ignore_commit(ctx, out.buf, "--ignore-rev");
		strvec_clear(&argv);
		strbuf_release(&out);
	}
	ctx->default_ignores = !o->no_config_ignore_file && ctx->nr_ignored == nr_configured;
	ctx->default_options = ctx->default_ignores && ctx->engine.min_move == REPLAY_MIN_MOVE &&
			       !ctx->engine.ignore_ws;

	/*
	 * the key: the engine's revision (raised with every change to what
	 * it attributes, so that no cache or state outlives one), options,
	 * and the ignored commits in a stable order
	 */
	strbuf_addf(&ctx->key, "engine %d moves %zu ws %d ignore", ENGINE_REVISION, ctx->engine.min_move,
		    ctx->engine.ignore_ws);
	{
		char **ids = xcalloc(smap_count(&ctx->ignore) + 1, sizeof(*ids));
		const struct smap_entry *e;
		size_t n = 0;

		for (k = 0; (e = smap_next(&ctx->ignore, &k));)
			ids[n++] = e->key;
		qsort(ids, n, sizeof(*ids), cmp_strings);
		for (k = 0; k < n; k++)
			strbuf_addf(&ctx->key, " %s", ids[k]);
		free(ids);
	}
	strbuf_release(&cfg);
}

void blame_open(struct blame_ctx *ctx, const char *dest, const char *source, const char *rev,
		const struct attribution_options *o)
{
	struct strvec argv_rev = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	struct dest_config cfg;

	memset(ctx, 0, sizeof(*ctx));
	strbuf_init(&ctx->gitdir, 0);
	strbuf_init(&ctx->src, 0);
	strbuf_init(&ctx->key, 0);
	strbuf_init(&ctx->prefix, 0);
	dest = find_dest(dest, &ctx->prefix);
	git_dir_of(dest, &ctx->gitdir);
	dest_config_read(&cfg, ctx->gitdir.buf);
	recorded_langs(&cfg, ctx->gitdir.buf);
	if (source) {
		ctx->sources = xcalloc(1, sizeof(*ctx->sources));
		ctx->sources[ctx->nr_sources++] = xstrdup(source);
	} else {
		recorded_sources(&cfg, ctx->gitdir.buf, ctx);
	}
	dest_config_release(&cfg);
	strbuf_addstr(&ctx->src, ctx->sources[ctx->nr_sources - 1]);
	strvec_pushl(&argv_rev, "git", "rev-parse", "--verify", "-q", NULL);
	strvec_pushf(&argv_rev, "%s^{commit}", rev);
	if (run_capture(argv_rev.v, ctx->src.buf, &out))
		die("'%s' is not a revision of '%s'", rev, ctx->src.buf);
	strbuf_trim_newline(&out);
	if (out.len != 40)
		die("'%s' is not a commit of '%s'", rev, ctx->src.buf);
	memcpy(ctx->orig, out.buf, 41);
	commit_map_read(&ctx->map, ctx->gitdir.buf);
	ctx->token = oid_map_token(&ctx->map, ctx->orig);
	if (!ctx->token)
		die("commit %s of '%s' is not in the token repository: run tokstream convert",
		    ctx->orig, ctx->src.buf);
	setup_engine(ctx, o);
	strvec_clear(&argv_rev);
	strbuf_release(&out);
}

/*
 * The files of ctx's revision that the pathspec (made relative to the top
 * with prefix_pathspecs()) selects, into selected (each with val): as many.
 */
static size_t diff_tree_paths(struct blame_ctx *ctx, const char **pathspec, int nr_pathspec,
			      struct smap *selected, size_t val)
{
	const char *empty_argv[] = { "git", "hash-object", "-t", "tree", "/dev/null", NULL };
	struct strvec argv = STRVEC_INIT;
	struct strbuf empty = STRBUF_INIT, out = STRBUF_INIT;
	const char *p;
	size_t nr = 0;
	int i, isnew;

	if (run_capture(empty_argv, ctx->src.buf, &empty) || empty.len < 40)
		die("git hash-object failed in '%s'", ctx->src.buf);
	strbuf_setlen(&empty, strcspn(empty.buf, "\n"));
	/* the paths of REV's tree that the pathspec selects, as git diff selects them */
	strvec_pushl(&argv, "git", "diff-tree", "-r", "-z", "--name-only", "--no-renames", empty.buf,
		     ctx->orig, "--", NULL);
	for (i = 0; i < nr_pathspec; i++)
		strvec_push(&argv, pathspec[i]);
	if (run_capture(argv.v, ctx->src.buf, &out))
		die("git diff-tree failed in '%s' (a bad pathspec?)", ctx->src.buf);
	for (p = out.buf; p < out.buf + out.len; p += strlen(p) + 1) {
		if (*p) {
			smap_put(selected, p, val, &isnew);
			nr += isnew;
		}
	}
	strvec_clear(&argv);
	strbuf_release(&empty);
	strbuf_release(&out);
	return nr;
}

void blame_select_paths(struct blame_ctx *ctx, const char *rev, const char **pathspec, int nr_pathspec,
			struct smap *selected)
{
	struct strbuf what = STRBUF_INIT;
	int i;

	prefix_pathspecs(ctx->prefix.buf, pathspec, nr_pathspec);
	if (diff_tree_paths(ctx, pathspec, nr_pathspec, selected, 0))
		return;
	for (i = 0; i < nr_pathspec; i++)
		strbuf_addf(&what, "%s'%s'", i ? " " : "", pathspec[i]);
	die("pathspec %s matched no file at %s", what.buf, rev);
}

const char *const left_out_reason[] = { "", "excluded", "vendored", "generated" };

/* A linguist attribute of check-attr's: set, or a value but "false". */
static int attr_is_true(const char *value)
{
	return strcmp(value, "unspecified") && strcmp(value, "unset") && strcmp(value, "false");
}

/*
 * The paths whose .gitattributes at ctx's revision say linguist-vendored
 * or linguist-generated, read as git reads attributes from an index:
 * one made of the revision's tree in a temporary file, so that a bare
 * source serves as well as one with a work tree.
 */
static void attribute_left_out(struct blame_ctx *ctx, struct smap *left_out)
{
	struct strbuf idx = STRBUF_INIT, env = STRBUF_INIT, in = STRBUF_INIT, out = STRBUF_INIT;
	const char *ls[] = { "git", "ls-tree", "-r", "-z", "--name-only", ctx->orig, NULL };
	struct strvec read_tree = STRVEC_INIT, check = STRVEC_INIT;
	char *p, *end;

	if (run_capture(ls, ctx->src.buf, &in))
		die("git ls-tree failed in '%s'", ctx->src.buf);
	state_attributes_index_path(&idx, ctx->gitdir.buf);
	strbuf_addf(&env, "GIT_INDEX_FILE=%s", idx.buf);
	strvec_pushl(&read_tree, "env", env.buf, "git", "read-tree", ctx->orig, NULL);
	strvec_pushl(&check, "env", env.buf, "git", "check-attr", "--cached", "-z", "--stdin",
		     "linguist-vendored", "linguist-generated", NULL);
	if (run_capture(read_tree.v, ctx->src.buf, NULL) ||
	    run_capture_input(check.v, ctx->src.buf, &in, &out)) {
		unlink(idx.buf);
		die("git check-attr failed in '%s'", ctx->src.buf);
	}
	unlink(idx.buf);
	/* PATH NUL ATTRIBUTE NUL VALUE NUL, for each path and attribute */
	for (p = out.buf, end = out.buf + out.len; p < end;) {
		char *attr = p + strlen(p) + 1, *value = attr < end ? attr + strlen(attr) + 1 : end;

		if (value >= end)
			break;
		if (attr_is_true(value) && !smap_get(left_out, p))
			smap_put(left_out, p, strcmp(attr, "linguist-vendored") ? LEFT_OUT_GENERATED
										: LEFT_OUT_VENDORED, NULL);
		p = value + strlen(value) + 1;
	}
	strvec_clear(&read_tree);
	strvec_clear(&check);
	strbuf_release(&idx);
	strbuf_release(&env);
	strbuf_release(&in);
	strbuf_release(&out);
}

/* Whether the pathspec is a negative one (":!x", ":^x", ":(exclude)x"), which selects no file alone. */
static int is_negative_pathspec(const char *ps)
{
	const char *close;

	if (ps[0] != ':')
		return 0;
	if (ps[1] == '(' && (close = strchr(ps, ')'))) {
		const char *ex = strstr(ps, "exclude");

		return ex && ex < close;
	}
	/* short magic: a run of "!", "^" and "/" */
	return strcspn(ps + 1, "!^") < strspn(ps + 1, "!^/");
}

/* Whether a commit of the token history up to ctx's revision changes a file pathspec selects. */
static int selects_in_history(struct blame_ctx *ctx, const char *pathspec)
{
	const char *argv[] = { "git", "rev-list", "-1", ctx->token, "--", pathspec, NULL };
	struct strbuf out = STRBUF_INIT;
	int found;

	if (run_capture(argv, ctx->gitdir.buf, &out))
		die("git rev-list failed in '%s' (a bad pathspec?)", ctx->gitdir.buf);
	found = out.len > 0;
	strbuf_release(&out);
	return found;
}

void blame_left_out(struct blame_ctx *ctx, const char *rev, const char **exclude, int nr_exclude,
		    int attributes, struct smap *left_out)
{
	if (nr_exclude) {
		const char **given = xcalloc((size_t)nr_exclude, sizeof(*given));
		size_t nr;
		int i;

		memcpy(given, exclude, (size_t)nr_exclude * sizeof(*given));
		prefix_pathspecs(ctx->prefix.buf, exclude, nr_exclude);
		nr = diff_tree_paths(ctx, exclude, nr_exclude, left_out, LEFT_OUT_EXCLUDED);
		/*
		 * One that selects nothing, at REV or before it, is most likely
		 * a typing error: said, as git add says it (but no error, as
		 * git log takes it)
		 */
		for (i = 0; i < nr_exclude; i++) {
			struct smap one = SMAP_INIT;
			int none;

			if (is_negative_pathspec(exclude[i]))
				continue;
			none = nr_exclude == 1 ? !nr : !diff_tree_paths(ctx, exclude + i, 1, &one, 0);
			if (none && !selects_in_history(ctx, exclude[i]))
				warning("--exclude: pathspec '%s' matched no file at %s or before it",
					given[i], rev);
			smap_release(&one);
		}
		free(given);
	}
	if (attributes)
		attribute_left_out(ctx, left_out);
}

/*
 * The states other options leave, beside the default options' one,
 * which they never replace: a report with --no-moves leaves the state
 * blame without options reads.  The newest few are kept.
 */
#define MAX_OTHER_STATES 2

/* The oldest of the other options' states of kind past MAX_OTHER_STATES, removed (but keep). */
static void prune_other_states(const struct blame_ctx *ctx, const char *kind, const char *keep)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	size_t len = strlen(kind);
	struct dirent *de;
	DIR *d;

	for (;;) {
		size_t nr = 0;
		time_t oldest = 0;
		char *oldest_path = NULL;

		state_replay_path(&dir, ctx->gitdir.buf, "", 0);
		if (!(d = opendir(dir.buf)))
			break;
		while ((de = readdir(d))) {
			struct stat st;

			if (strncmp(de->d_name, kind, len) || de->d_name[len] != '-' || strchr(de->d_name, '.'))
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s%s", dir.buf, de->d_name);
			if (!strcmp(path.buf, keep) || stat(path.buf, &st))
				continue;
			nr++;
			if (!oldest_path || st.st_mtime < oldest) {
				free(oldest_path);
				oldest_path = xstrdup(path.buf);
				oldest = st.st_mtime;
			}
		}
		closedir(d);
		if (nr < MAX_OTHER_STATES) {
			free(oldest_path);
			break;
		}
		unlink(oldest_path);
		free(oldest_path);
	}
	strbuf_release(&dir);
	strbuf_release(&path);
}

void blame_state_path_of(const struct blame_ctx *ctx, const char *kind, const char *key, int is_default,
			 struct strbuf *out, int to_write)
{
	struct strbuf name = STRBUF_INIT;
	unsigned char oid[20];
	char hex[41];

	if (is_default) {
		state_replay_path(out, ctx->gitdir.buf, kind, to_write);
		return;
	}
	git_blob_oid(key, strlen(key), oid);
	oid_to_hex(oid, hex);
	strbuf_addf(&name, "%s-%.16s", kind, hex);
	state_replay_path(out, ctx->gitdir.buf, name.buf, to_write);
	strbuf_release(&name);
	if (to_write)
		prune_other_states(ctx, kind, out->buf);
}

void blame_state_path(const struct blame_ctx *ctx, struct strbuf *out, int to_write)
{
	blame_state_path_of(ctx, "tokens", ctx->key.buf, ctx->default_options, out, to_write);
}

/*
 * The whole tree's token replay at ctx's revision: from the state in
 * DEST when it fits, else from the first commit, or (only_from_state)
 * NULL without replaying anything; with only_path, a state at the
 * revision itself gives that file alone.
 */
static struct replay *replay_with_state(struct blame_ctx *ctx, int only_from_state, const char *only_path)
{
	struct replay_options o = ctx->engine;
	struct strbuf path = STRBUF_INIT;
	struct replay *r;

	/* a replay from the state rewrites it, which is then there: its directory too */
	blame_state_path(ctx, &path, !only_from_state);
	o.checkpoint = path.buf;
	o.checkpoint_key = ctx->key.buf;
	o.only_path = only_path;
	r = only_from_state ? replay_tokens_from_checkpoint(ctx->gitdir.buf, ctx->token, &o)
			    : replay_tokens(ctx->gitdir.buf, ctx->token, &o);
	strbuf_release(&path);
	return r;
}

int blame_advance_checkpoint(struct blame_ctx *ctx)
{
	struct replay *r = replay_with_state(ctx, 1, NULL);

	if (!r)
		return 0;
	replay_free(r);
	return 1;
}

void blame_replay_tree(struct blame_ctx *ctx)
{
	ctx->replay = replay_with_state(ctx, 0, NULL);
}

/*
 * One `git cat-file --batch` per repository and process, started on first
 * use (a forked worker starts its own): two processes fewer per file.
 */
static struct batch {
	char *dir;
	pid_t owner;
	struct catfile cf;
} batches[8];

#define NR_BATCHES (sizeof(batches) / sizeof(batches[0]))

void blame_stop_batches(void)
{
	size_t i;

	for (i = 0; i < NR_BATCHES; i++)
		if (batches[i].dir && batches[i].owner == getpid())
			catfile_stop(&batches[i].cf);
}

/* The blob REV:PATH, or the blob ID when ID is given (no tree to walk) */
static int cat_blob_batch(const char *dir, const char *rev, const char *path, const char *id,
			  struct strbuf *out)
{
	struct batch *b = NULL;
	struct strbuf name = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < NR_BATCHES && !b; i++)
		if (batches[i].dir && batches[i].owner == getpid() && !strcmp(batches[i].dir, dir))
			b = &batches[i];
	if (!b) {
		for (i = 0; i < NR_BATCHES && batches[i].dir && batches[i].owner == getpid(); i++)
			;
		if (i == NR_BATCHES)
			return -2;
		/* reaped at exit: a process never leaves its cat-file behind */
		if (!i)
			atexit(blame_stop_batches);
		b = &batches[i];
		/* a forked worker's copy of its parent's is not its own: dropped */
		free(b->dir);
		b->dir = xstrdup(dir);
		b->owner = getpid();
		memset(&b->cf, 0, sizeof(b->cf));
		b->cf.dir = b->dir;
	}
	if (id)
		strbuf_addstr(&name, id);
	else
		strbuf_addf(&name, "%s:%s", rev, path);
	ret = catfile_blob_by_name(&b->cf, name.buf, out);
	strbuf_release(&name);
	return ret;
}

static int cat_blob(const char *dir, const char *rev, const char *path, const char *id,
		    struct strbuf *out)
{
	struct strvec argv_cat = STRVEC_INIT;
	int status;

	if (id || !strchr(path, '\n')) {
		status = cat_blob_batch(dir, rev, path, id, out);
		if (status != -2)
			return status;
	}
	strvec_pushl(&argv_cat, "git", "cat-file", "blob", NULL);
	if (id)
		strvec_push(&argv_cat, id);
	else
		strvec_pushf(&argv_cat, "%s:%s", rev, path);
	strbuf_reset(out);
	status = run_capture_quiet(argv_cat.v, dir, out);
	strvec_clear(&argv_cat);
	return status;
}

/*
 * The line of the original file each token of the view of path at the
 * token commit starts on: the engine anchors its diff on the lines that
 * survive.  The file is read from the sources, newest first (a commit of
 * an older era is only in its own), and tokenized again; -1 when it
 * cannot be found, or does not give nr tokens.
 */
/* line[] of the nr tokens of content in lang: 0, or -1 when they are not nr. */
static int lines_of_tokens(const struct strbuf *content, const struct language *lang, size_t nr, uint32_t *line)
{
	struct lexer_state ls;
	struct token tok[256];
	size_t n = 0, scanned = 0, got, i;
	uint32_t at = 1;

	lexer_init(&ls, content->buf, content->len, lang->syntax);
	/* in batches: a call for each token costs a copy of the lexer's state */
	while ((got = lang->lexer->many(&ls, tok, sizeof(tok) / sizeof(*tok)))) {
		if (got > nr - n)
			return -1;
		for (i = 0; i < got; i++) {
			at += (uint32_t)count_newlines(content->buf + scanned, tok[i].start - scanned);
			scanned = tok[i].start;
			line[n++] = at;
		}
	}
	return n == nr ? 0 : -1;
}

static int original_token_lines(const char *commit, const char *path, size_t nr, uint32_t *line, void *data)
{
	static struct strbuf content = STRBUF_INIT;
	struct blame_ctx *ctx = data;
	const char *orig = oid_map_orig(&ctx->map, commit);
	const struct language *lang;
	size_t k = ctx->nr_sources;

	if (!orig || strchr(path, '\n'))
		return -1;
	while (k-- > 0)
		if (!cat_blob_batch(ctx->sources[k], orig, path, NULL, &content))
			break;
	if (k == SIZE_MAX)
		return -1;
	lang = language_for_file(path, content.buf, content.len);
	if (!lang || lang == &language_none)
		return -1;
	return lines_of_tokens(&content, lang, nr, line);
}

/*
 * The same from a thread that reads versions ahead (walk-ahead.h): a
 * `git cat-file --batch` of its own for each source, started when first
 * asked.  The commit map is sorted before the thread starts, and only
 * read after.
 */
struct lines_reader {
	const struct blame_ctx *ctx;
	struct catfile *cf;
	struct strbuf content;
};

static void *lines_reader_new(void *data)
{
	struct blame_ctx *ctx = data;
	struct lines_reader *lr = xcalloc(1, sizeof(*lr));
	size_t k;

	oid_map_orig(&ctx->map, ctx->token);
	lr->ctx = ctx;
	lr->cf = xcalloc(ctx->nr_sources + 1, sizeof(*lr->cf));
	for (k = 0; k < ctx->nr_sources; k++)
		lr->cf[k].dir = ctx->sources[k];
	strbuf_init(&lr->content, 0);
	return lr;
}

static int lines_reader_lines(void *reader, const char *commit, const char *path, size_t nr, uint32_t *line)
{
	struct lines_reader *lr = reader;
	const struct blame_ctx *ctx = lr->ctx;
	const char *orig = oid_map_orig((struct oid_map *)&ctx->map, commit);
	const struct language *lang;
	struct strbuf name = STRBUF_INIT;
	size_t k = ctx->nr_sources;

	if (!orig || strchr(path, '\n'))
		return -1;
	strbuf_addf(&name, "%s:%s", orig, path);
	while (k-- > 0)
		if (!catfile_blob_by_name(&lr->cf[k], name.buf, &lr->content))
			break;
	strbuf_release(&name);
	if (k == SIZE_MAX)
		return -1;
	lang = language_for_file(path, lr->content.buf, lr->content.len);
	if (!lang || lang == &language_none)
		return -1;
	return lines_of_tokens(&lr->content, lang, nr, line);
}

static void lines_reader_free(void *reader)
{
	struct lines_reader *lr = reader;
	size_t k;

	for (k = 0; k < lr->ctx->nr_sources; k++)
		catfile_stop(&lr->cf[k]);
	free(lr->cf);
	strbuf_release(&lr->content);
	free(lr);
}

/* Whether the blob with id hex holds exactly sb. */
static int is_blob_of(const char *hex, const struct strbuf *sb)
{
	unsigned char oid[20];
	char own[41];

	git_blob_oid(sb->buf, sb->len, oid);
	oid_to_hex(oid, own);
	return !strncmp(hex, own, 40);
}

/*
 * Checks that the view of res->content in the token repository is the
 * one this tokstream makes (it may have been made with --exact-comments);
 * -1 with *err set when the token repository has no view of the file.
 */
static int check_view(struct blame_ctx *ctx, const char *path, const char *view_blob,
		      struct blame_result *res, const char **err)
{
	struct strbuf view = STRBUF_INIT, stored = STRBUF_INIT;
	int ret = 0;

	view_build(&view, res->lang, res->content.buf, res->content.len, 0);
	/* a known blob id answers without reading the stored view */
	if (view_blob && is_blob_of(view_blob, &view))
		goto done;
	if (cat_blob(ctx->gitdir.buf, ctx->token, path, view_blob, &stored)) {
		*err = "it has no view in the token repository (converted with other --lang options?)";
		ret = -1;
		goto done;
	}
	if (stored.len == view.len && !memcmp(stored.buf, view.buf, view.len))
		goto done;
	strbuf_reset(&view);
	view_build(&view, res->lang, res->content.buf, res->content.len, VIEW_EXACT_COMMENTS);
	if (stored.len == res->content.len && !memcmp(stored.buf, res->content.buf, stored.len)) {
		/* kept as it is: a symbolic link, or a file --keep-other kept */
		*err = "the token repository keeps it unchanged (a symbolic link?): it has no token view";
		ret = -1;
	} else if (stored.len != view.len || memcmp(stored.buf, view.buf, view.len)) {
		die("the token view of '%s' in %s does not match the file at %s: "
		    "was it converted by another version of tokstream or with other --lang options?",
		    path, ctx->token, ctx->orig);
	}
done:
	strbuf_release(&view);
	strbuf_release(&stored);
	return ret;
}

/*
 * The commit of each token of path's view at ctx's revision, into
 * res->commits: from the whole tree's replay (made here from the state
 * an earlier one left in DEST, when it fits the options), else by the
 * walk back through the file's history, which gives the same answer.
 * For the tests that compare them, TOKSTREAM_TEST_BLAME=walk takes the
 * walk always, =state dies where the state does not fit, and =tree makes
 * the whole tree's pass (leaving its state) when none fits.
 */
static struct commit_info **token_commits(struct blame_ctx *ctx, const char *path, struct blame_result *res,
					  size_t *nr, struct commit_info ***unmoved)
{
	const char *test = getenv("TOKSTREAM_TEST_BLAME");
	int walk_only = test && !strcmp(test, "walk");
	struct commit_info **line_commit;
	struct file_blame fb;
	size_t k;

	*unmoved = NULL;
	if (!ctx->replay && !ctx->tried_checkpoint && !walk_only) {
		ctx->tried_checkpoint = 1;
		ctx->replay = replay_with_state(ctx, 1, ctx->one_file ? path : NULL);
	}
	if (!ctx->replay && test && !strcmp(test, "tree"))
		blame_replay_tree(ctx);
	if (!ctx->replay && test && !strcmp(test, "state"))
		die("TOKSTREAM_TEST_BLAME=state: no attribution state in '%s' fits", ctx->gitdir.buf);
	if (ctx->replay && !walk_only) {
		const uint32_t *origin;

		line_commit = replay_commits(&res->commits, ctx->replay, path, nr);
		if (!line_commit)
			die("'%s' is not in the token history", path);
		/* the path the token had where it was written (renames and moves followed), as the walk's */
		origin = replay_file(ctx->replay, path, nr);
		for (k = 0; k < *nr; k++)
			if (!line_commit[k]->filename)
				line_commit[k]->filename = xstrdup(replay_origin_path(ctx->replay, origin[k]));
		if (ctx->unmoved) {
			*unmoved = xcalloc(*nr + 1, sizeof(**unmoved));
			for (k = 0; k < *nr; k++)
				(*unmoved)[k] = k && origin[k] == origin[k - 1] ? (*unmoved)[k - 1] :
					commit_by_token(&res->unmoved_commits,
							replay_unmoved_commit(ctx->replay, origin[k]));
		}
		return line_commit;
	}
	if (walk_file(ctx->gitdir.buf, ctx->token, path, &ctx->engine, &fb))
		die("'%s' is not in the token history", path);
	line_commit = xcalloc(fb.nr + 1, sizeof(*line_commit));
	for (k = 0; k < fb.nr; k++) {
		struct commit_info *c = commit_by_token(&res->commits, fb.ids[fb.commit[k]]);

		/* the path the token had where it was written (renames and moves followed) */
		if (!c->filename)
			c->filename = xstrdup(fb.paths[fb.path[k]]);
		line_commit[k] = c;
	}
	if (ctx->unmoved) {
		*unmoved = xcalloc(fb.nr + 1, sizeof(**unmoved));
		for (k = 0; k < fb.nr; k++) {
			uint32_t mover = fb.mover[k] != UINT32_MAX ? fb.mover[k] : fb.commit[k];

			(*unmoved)[k] = commit_by_token(&res->unmoved_commits, fb.ids[mover]);
		}
	}
	*nr = fb.nr;
	file_blame_release(&fb);
	return line_commit;
}

int blame_file(struct blame_ctx *ctx, const char *path, struct blame_result *res, const char **err)
{
	return blame_file_at(ctx, path, NULL, NULL, res, err);
}

/* The original commit of each token commit of t. */
static void set_original_ids(struct blame_ctx *ctx, struct commit_table *t)
{
	size_t k;

	for (k = 0; k < t->nr; k++) {
		struct commit_info *c = t->v[k];
		const char *orig = oid_map_orig(&ctx->map, c->token);

		if (!orig)
			die("token commit %s is not in the commit map", c->token);
		memcpy(c->orig, orig, 41);
	}
}

int blame_file_at(struct blame_ctx *ctx, const char *path, const char *blob, const char *view_blob,
		  struct blame_result *res, const char **err)
{
	struct commit_info **line_commit, **unmoved;
	struct lexer_state ls;
	struct token tok;
	size_t nr_lines, line = 1, line_start = 0, scanned = 0;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->content, 0);
	if (cat_blob(ctx->src.buf, ctx->orig, path, blob, &res->content))
		die("'%s' does not exist at %s", path, ctx->orig);
	res->lang = language_for_file(path, res->content.buf, res->content.len);
	if (!res->lang || res->lang == &language_none) {
		*err = "no lexer claims it: it has no token view";
		return -1;
	}
	if (check_view(ctx, path, view_blob, res, err))
		return -1;

	line_commit = token_commits(ctx, path, res, &nr_lines, &unmoved);
	if (!ctx->ids_only)
		describe_commits(ctx->gitdir.buf, &res->commits, ctx->no_mailmap);

	/* original ids for the token commits */
	set_original_ids(ctx, &res->commits);
	set_original_ids(ctx, &res->unmoved_commits);

	lexer_init(&ls, res->content.buf, res->content.len, res->lang->syntax);
	while (language_next_token(res->lang, &ls, &tok)) {
		const char *nl;
		struct token_pos *t;

		while ((nl = memchr(res->content.buf + scanned, '\n', tok.start - scanned))) {
			line++;
			scanned = line_start = (size_t)(nl - res->content.buf) + 1;
		}
		scanned = tok.start;
		if (res->nr_toks >= nr_lines || !line_commit[res->nr_toks])
			die("the attribution of '%s' has %zu tokens for a view of more", path, nr_lines);
		ALLOC_GROW(res->toks, res->nr_toks + 1, res->alloc_toks);
		t = &res->toks[res->nr_toks];
		t->line = line;
		t->col = tok.start - line_start + 1;
		t->start = tok.start;
		t->len = tok.len;
		t->cls = tok.cls;
		t->commit = line_commit[res->nr_toks];
		t->commit->tokens++;
		t->unmoved = unmoved ? unmoved[res->nr_toks] : NULL;
		if (t->unmoved)
			t->unmoved->tokens++;
		res->nr_toks++;
	}
	if (res->nr_toks != nr_lines)
		die("the view of '%s' has %zu tokens but its attribution %zu",
		    path, res->nr_toks, nr_lines);
	free(line_commit);
	free(unmoved);
	return 0;
}

void commit_table_release(struct commit_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		struct commit_info *c = t->v[i];

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
	free(t->v);
	smap_release(&t->index);
	memset(t, 0, sizeof(*t));
}

void blame_result_release(struct blame_result *res)
{
	commit_table_release(&res->commits);
	commit_table_release(&res->unmoved_commits);
	free(res->toks);
	strbuf_release(&res->content);
	memset(res, 0, sizeof(*res));
}

static void line_tally_add(struct line_tally *t, struct commit_info *c)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->v[i].commit == c) {
			t->v[i].n++;
			return;
		}
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr].commit = c;
	t->v[t->nr].n = 1;
	t->nr++;
}

void line_tally_of(struct line_tally *t, const struct token_pos *toks, size_t nr, size_t first,
		   size_t pos, size_t end)
{
	size_t k;

	t->nr = 0;
	for (k = first; k < nr && (toks[k].start < end || (pos == end && toks[k].start < pos)); k++)
		if (toks[k].start + toks[k].len > pos)
			line_tally_add(t, toks[k].commit);
}

static const char *author_or_empty(const struct commit_info *c)
{
	return c->author ? c->author : "";
}

/* The tokens of the line that share i's author owns; *first: whether share i is the author's first. */
static size_t author_tokens(const struct line_tally *t, size_t i, int *first)
{
	const char *a = author_or_empty(t->v[i].commit);
	size_t j, n = 0;

	*first = 1;
	for (j = 0; j < t->nr; j++)
		if (!strcmp(author_or_empty(t->v[j].commit), a)) {
			n += t->v[j].n;
			if (j < i)
				*first = 0;
		}
	return n;
}

struct commit_info *line_owner(const struct line_tally *t, size_t *others)
{
	struct commit_info *best = NULL;
	size_t best_an = 0, best_n = 0, authors = 0, i;

	for (i = 0; i < t->nr; i++) {
		struct commit_info *c = t->v[i].commit;
		int first;
		size_t an = author_tokens(t, i, &first), n = t->v[i].n;

		authors += first;
		if (!best || an > best_an || (an == best_an && (n > best_n || (n == best_n &&
		    (c->author_time > best->author_time ||
		     (c->author_time == best->author_time && strcmp(c->orig, best->orig) < 0)))))) {
			best = c;
			best_an = an;
			best_n = n;
		}
	}
	*others = authors ? authors - 1 : 0;
	return best;
}

void day_of(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}
