/*
 * The files of DEST/tokstream/ (see state.h), and finding DEST.
 *
 * Why DEST keeps no loose refs: Git cannot update several loose refs
 * atomically across a crash.  DEST/packed-refs is a symbolic link to
 * tokstream/current/packed-refs, so the one rename that switches
 * `current` to a new generation switches the refs and the commit map
 * together; a run killed before it leaves DEST as it was.  The lock,
 * DEST/tokstream/lock, holds the pid of the run; a lock whose process
 * is gone is taken over.
 *
 * Finding DEST without -C: convert records DEST's absolute path in the
 * config of every source as tokstream.dest, so a command run in a
 * source's work tree finds its token repository as Git finds its own,
 * and takes paths relative to the current directory as Git does.  (A
 * source that already names another token repository keeps it: see
 * record_dest_in_sources() in convert.c.)
 */
#include "state.h"
#include "../tokenize/parse.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oid_map_read(struct oid_map *m, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t lineno = 0;

	memset(m, 0, sizeof(*m));
	if (!f) {
		if (errno == ENOENT)
			return;
		die_errno("cannot read '%s'", path);
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (strlen(line) != 82 || line[40] != ' ' || line[81] != '\n' ||
		    !is_hex40(line) || !is_hex40(line + 41))
			die("%s:%zu: corrupt line", path, lineno);
		ALLOC_GROW(m->pairs, m->nr + 1, m->alloc);
		memcpy(m->pairs[m->nr].orig, line, 40);
		m->pairs[m->nr].orig[40] = '\0';
		memcpy(m->pairs[m->nr].token, line + 41, 40);
		m->pairs[m->nr].token[40] = '\0';
		m->nr++;
	}
	fclose(f);
}

void commit_map_read(struct oid_map *m, const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;

	state_path(&path, gitdir, STATE_COMMIT_MAP);
	oid_map_read(m, path.buf);
	strbuf_release(&path);
}

static int cmp_orig(const void *a, const void *b)
{
	return strcmp(((const struct oid_pair *)a)->orig, ((const struct oid_pair *)b)->orig);
}

static int cmp_token(const void *a, const void *b)
{
	return strcmp(((const struct oid_pair *)a)->token, ((const struct oid_pair *)b)->token);
}

/*
 * A lookup by binary search in s, a copy of m's pairs sorted one way.  The
 * copy belongs to the map, so that lookups in two maps by turns (convert's
 * commits and tags) do not sort one again each time; it is made again when
 * the map has grown.
 */
static const struct oid_pair *sorted_lookup(struct sorted_pairs *s, const struct oid_map *m,
					    const struct oid_pair *key,
					    int (*cmp)(const void *, const void *))
{
	if (!s->v || s->nr != m->nr) {
		free(s->v);
		s->v = xmalloc(st_mult(m->nr ? m->nr : 1, sizeof(*s->v)));
		memcpy(s->v, m->pairs, m->nr * sizeof(*s->v));
		qsort(s->v, m->nr, sizeof(*s->v), cmp);
		s->nr = m->nr;
	}
	return bsearch(key, s->v, s->nr, sizeof(*s->v), cmp);
}

const char *oid_map_token(struct oid_map *m, const char *orig)
{
	const struct oid_pair *hit;
	struct oid_pair key;

	snprintf(key.orig, sizeof(key.orig), "%s", orig);
	hit = sorted_lookup(&m->by_orig, m, &key, cmp_orig);
	return hit ? hit->token : NULL;
}

const char *oid_map_orig(struct oid_map *m, const char *token)
{
	const struct oid_pair *hit;
	struct oid_pair key;

	snprintf(key.token, sizeof(key.token), "%s", token);
	hit = sorted_lookup(&m->by_token, m, &key, cmp_token);
	return hit ? hit->orig : NULL;
}

void oid_map_release(struct oid_map *m)
{
	free(m->pairs);
	free(m->by_orig.v);
	free(m->by_token.v);
	memset(m, 0, sizeof(*m));
}

void oid_map_add(struct strbuf *text, const char *orig, const char *token)
{
	strbuf_addf(text, "%.40s %.40s\n", orig, token);
}

/* The names of the layout (state.h), each in one place. */
static const char *const state_names[NR_STATE_FILES] = {
	[STATE_DIR] = "",
	[STATE_LOCK] = "/lock",
	[STATE_CURRENT] = "/current",
	[STATE_COMMIT_MAP] = "/commit-map",
	[STATE_CONFIG] = "/current/config",
	[STATE_TIPS] = "/current/tips",
	[STATE_STAGING] = "/staging.git",
	[STATE_REPORT_CACHE] = "/report-cache",
};

/* in the order of enum generation_file, and of enum source_file */
static const char *const generation_names[] = { "commit-map", "tag-map", "config", "tips", "packed-refs" };
static const char *const source_names[] = { "export-marks", "import-marks", "filter-state" };
_Static_assert(sizeof(generation_names) / sizeof(*generation_names) == NR_GEN_FILES,
	       "a name for each generation file");
_Static_assert(sizeof(source_names) / sizeof(*source_names) == NR_SOURCE_FILES,
	       "a name for each file of a source");

/* relative: to tokstream/, and to DEST's git directory */
const char commit_map_link[] = "current/commit-map";
const char packed_refs_link[] = "tokstream/current/packed-refs";

void state_path(struct strbuf *out, const char *gitdir, enum state_file f)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/tokstream%s", gitdir, state_names[f]);
}

void state_replay_path(struct strbuf *out, const char *gitdir, const char *name, int to_write)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/tokstream/replay", gitdir);
	if (to_write)
		make_dir(out->buf);
	strbuf_addf(out, "/%s", name);
}

void state_attributes_index_path(struct strbuf *out, const char *gitdir)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/tokstream/attributes-index-%ld", gitdir, (long)getpid());
}

void state_report_cache_path(struct strbuf *out, const char *gitdir, int to_write)
{
	if (to_write) {
		state_path(out, gitdir, STATE_DIR);
		make_dir(out->buf);
	}
	state_path(out, gitdir, STATE_REPORT_CACHE);
	if (to_write)
		make_dir(out->buf);
}

void generation_name(struct strbuf *out, int gen)
{
	strbuf_reset(out);
	strbuf_addf(out, "gen-%d", gen);
}

void generation_path(struct strbuf *out, const char *gitdir, int gen, int building)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/tokstream/gen-%d%s", gitdir, gen, building ? ".tmp" : "");
}

int is_generation_name(const char *name)
{
	return !strncmp(name, "gen-", 4);
}

int current_generation(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	char target[256];
	ssize_t n;
	int gen = 0;

	state_path(&path, gitdir, STATE_CURRENT);
	n = readlink(path.buf, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		if (!is_generation_name(target) || (gen = atoi(target + 4)) <= 0)
			die("'%s' is corrupt", path.buf);
	}
	strbuf_release(&path);
	return gen;
}

void generation_file_path(struct strbuf *out, const char *gen_dir, enum generation_file f)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", gen_dir, generation_names[f]);
}

void source_file_path(struct strbuf *out, const char *gen_dir, int k, enum source_file f)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/src-%d.%s", gen_dir, k, source_names[f]);
}

int git_dir_query(const char *dir, const char **query, struct strbuf *out,
		  struct strbuf *answers)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf all = STRBUF_INIT;
	const char *nl;
	int status;

	strvec_pushl(&argv, "git", "rev-parse", "--absolute-git-dir", NULL);
	if (query)
		strvec_pushv(&argv, query);
	status = run_capture(argv.v, dir, &all);
	strvec_clear(&argv);
	nl = memchr(all.buf, '\n', all.len);
	if ((status && status != 1) || !nl || nl == all.buf)
		die("'%s' is not a git repository", dir);
	strbuf_reset(out);
	strbuf_add(out, all.buf, (size_t)(nl - all.buf));
	if (answers) {
		strbuf_reset(answers);
		strbuf_add(answers, nl + 1, all.len - (size_t)(nl + 1 - all.buf));
	}
	strbuf_release(&all);
	return status;
}

void git_dir_of(const char *dir, struct strbuf *out)
{
	if (git_dir_query(dir, NULL, out, NULL))
		die("'%s' is not a git repository", dir);
}

int is_token_repository(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	int is;

	state_path(&path, gitdir, STATE_COMMIT_MAP);
	is = !access(path.buf, F_OK);
	strbuf_release(&path);
	return is;
}

int recorded_dest(const char *dir, struct strbuf *out)
{
	const char *config[] = { "git", "config", "--get", "tokstream.dest", NULL };

	strbuf_reset(out);
	if (run_capture_quiet(config, dir, out))
		strbuf_reset(out);
	strbuf_trim_newline(out);
	return out->len ? 0 : -1;
}

const char *find_dest(const char *given, struct strbuf *prefix)
{
	const char *query[] = { "git", "rev-parse", "--absolute-git-dir", "--show-prefix", NULL };
	struct strbuf gitdir = STRBUF_INIT, answers = STRBUF_INIT, path = STRBUF_INIT;
	const char *found, *nl;

	strbuf_reset(prefix);
	if (given)
		return given;
	if (run_capture_quiet(query, ".", &answers) || !(nl = strchr(answers.buf, '\n')))
		die("not in a git repository: give -C DEST, the token repository");
	strbuf_add(&gitdir, answers.buf, (size_t)(nl - answers.buf));
	strbuf_reset(&path);
	strbuf_addstr(&path, nl + 1);
	strbuf_reset(&answers);
	strbuf_addbuf(&answers, &path);
	if (is_token_repository(gitdir.buf)) {
		found = ".";
	} else {
		struct strbuf dest = STRBUF_INIT;

		if (recorded_dest(".", &dest))
			die("'%s' is no token repository and records none (tokstream.dest): "
			    "give -C DEST, or run tokstream convert with this repository as SRC",
			    gitdir.buf);
		strbuf_trim_newline(&answers);
		strbuf_addbuf(prefix, &answers);
		found = strbuf_detach(&dest, NULL);
	}
	strbuf_release(&gitdir);
	strbuf_release(&answers);
	strbuf_release(&path);
	return found;
}

int record_dest(const char *src, const char *dest)
{
	const char *argv[] = { "git", "config", "tokstream.dest", dest, NULL };
	struct strbuf out = STRBUF_INIT;
	int status = run_capture_quiet(argv, src, &out);

	strbuf_release(&out);
	return status;
}

char *prefix_path(const char *prefix, const char *path)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = path;

	if (*path != '/')
		strbuf_addstr(&out, prefix);
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* an empty or "." component: nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;

			if (!out.len)
				die("'%s' is outside the repository", path);
			strbuf_setlen(&out, out.len - 1);
			slash = strrchr(out.buf, '/');
			strbuf_setlen(&out, slash ? (size_t)(slash - out.buf) + 1 : 0);
		} else {
			strbuf_add(&out, p, n);
			if (p[n])
				strbuf_addch(&out, '/');
		}
		p += n + (p[n] == '/');
	}
	if (out.len && out.buf[out.len - 1] == '/')
		strbuf_setlen(&out, out.len - 1);
	if (!out.len)
		strbuf_addch(&out, '.');
	return strbuf_detach(&out, NULL);
}

char *work_tree_path(const char *prefix, const char *path)
{
	if (!strncmp(path, ":/", 2))
		return prefix_path("", path + 2);
	if (!strncmp(path, ":(top)", 6))
		return prefix_path("", path + 6);
	return *prefix ? prefix_path(prefix, path) : xstrdup(path);
}

void prefix_pathspecs(const char *prefix, const char **pathspec, int nr)
{
	int i;

	if (!*prefix)
		return;
	for (i = 0; i < nr; i++) {
		const char *ps = pathspec[i], *close;

		if (ps[0] != ':') {
			pathspec[i] = prefix_path(prefix, ps);
		} else if (ps[1] == '(' && (close = strchr(ps, ')'))) {
			if (!strstr(ps, "top") || strstr(ps, "top") > close)
				pathspec[i] = xstrfmt("%.*s%s", (int)(close + 1 - ps), ps,
						      prefix_path(prefix, close + 1));
		} else {
			/* short magic: ":!", ":^" (exclude), ":/" (top) */
			size_t n = strspn(ps + 1, "!^/");

			if (!memchr(ps + 1, '/', n))
				pathspec[i] = xstrfmt(":%.*s%s", (int)n, ps + 1,
						      prefix_path(prefix, ps + 1 + n));
		}
	}
}

void dest_config_parse(struct dest_config *c, const char *text, size_t len)
{
	size_t alloc_options = 0, alloc_sources = 0;
	const char *p, *end, *nl;

	memset(c, 0, sizeof(*c));
	strbuf_init(&c->text, 0);
	strbuf_add(&c->text, text, len);
	for (p = c->text.buf, end = p + c->text.len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!strncmp(p, "views ", 6)) {
			c->views = xstrfmt("%.*s", (int)(nl - p - 6), p + 6);
		} else if (!strncmp(p, "option ", 7)) {
			ALLOC_GROW(c->options, c->nr_options + 1, alloc_options);
			c->options[c->nr_options++] = xstrfmt("%.*s", (int)(nl - p - 7), p + 7);
			if (nl - p == 19 && !strncmp(p + 7, "--keep-other", 12))
				c->keep_other = 1;
		} else if (!strncmp(p, "source ", 7)) {
			ALLOC_GROW(c->sources, c->nr_sources + 1, alloc_sources);
			c->sources[c->nr_sources++] = xstrfmt("%.*s", (int)(nl - p - 7), p + 7);
		}
	}
}

/*
 * The text of the file at path or, when path is NULL, of the state file
 * f of DEST at gitdir: -1 (and no text) when there is none.
 */
static int read_state_text(struct strbuf *text, const char *path, const char *gitdir,
			   enum state_file f)
{
	struct strbuf where = STRBUF_INIT;
	int ret;

	if (!path) {
		state_path(&where, gitdir, f);
		path = where.buf;
	}
	ret = strbuf_read_file(text, path) ? -1 : 0;
	strbuf_release(&where);
	return ret;
}

static int read_config(struct dest_config *c, const char *path, const char *gitdir)
{
	struct strbuf text = STRBUF_INIT;
	int ret = read_state_text(&text, path, gitdir, STATE_CONFIG);

	dest_config_parse(c, text.buf, text.len);
	strbuf_release(&text);
	return ret;
}

int dest_config_read_file(struct dest_config *c, const char *path)
{
	return read_config(c, path, NULL);
}

int dest_config_read(struct dest_config *c, const char *gitdir)
{
	return read_config(c, NULL, gitdir);
}

void dest_config_add_views(struct strbuf *text, const char *views)
{
	strbuf_addf(text, "tokstream-config 1\nviews %s\n", views);
}

void dest_config_add_option(struct strbuf *text, const char *option)
{
	strbuf_addf(text, "option %s\n", option);
}

void dest_config_add_source(struct strbuf *text, const char *path)
{
	strbuf_addf(text, "source %s\n", path);
}

void dest_config_release(struct dest_config *c)
{
	free_strings(c->options, c->nr_options);
	free_strings(c->sources, c->nr_sources);
	free(c->views);
	strbuf_release(&c->text);
	memset(c, 0, sizeof(*c));
}

void dest_tips_add(struct strbuf *text, int source, const char *tip, const char *ref)
{
	strbuf_addf(text, "%d %s %s\n", source, tip, ref);
}

/* "K TIP REF" lines; one that does not start with a number and a full id is passed over */
static void dest_tips_parse(struct dest_tips *t, const char *text)
{
	const char *p, *nl;

	for (p = text; p && *p; p = nl ? nl + 1 : NULL) {
		struct dest_tip tip;
		const char *ref;

		nl = strchr(p, '\n');
		if (sscanf(p, "%d %40s", &tip.source, tip.tip) != 2 || !is_hex40(tip.tip))
			continue;
		/* REF: the rest of the line (sscanf's spaces may have passed its end) */
		ref = strstr(p, tip.tip) + 40;
		if (nl && ref > nl)
			ref = nl;
		else if (*ref == ' ')
			ref++;
		tip.ref = xstrfmt("%.*s", (int)((nl ? nl : ref + strlen(ref)) - ref), ref);
		ALLOC_GROW(t->v, t->nr + 1, t->alloc);
		t->v[t->nr++] = tip;
	}
}

static int read_tips(struct dest_tips *t, const char *path, const char *gitdir)
{
	struct strbuf text = STRBUF_INIT;
	int ret = read_state_text(&text, path, gitdir, STATE_TIPS);

	memset(t, 0, sizeof(*t));
	dest_tips_parse(t, text.buf);
	strbuf_release(&text);
	return ret;
}

int dest_tips_read_file(struct dest_tips *t, const char *path)
{
	return read_tips(t, path, NULL);
}

int dest_tips_read(struct dest_tips *t, const char *gitdir)
{
	return read_tips(t, NULL, gitdir);
}

const struct dest_tip *dest_tips_find(const struct dest_tips *t, int source)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->v[i].source == source)
			return &t->v[i];
	return NULL;
}

void dest_tips_release(struct dest_tips *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].ref);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
