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
 * and takes paths relative to the current directory as Git does.
 */
#include "state.h"
#include "../tokenize/parse.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"

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

static int cmp_orig(const void *a, const void *b)
{
	return strcmp(((const struct oid_pair *)a)->orig, ((const struct oid_pair *)b)->orig);
}

const char *oid_map_token(struct oid_map *m, const char *orig)
{
	static struct oid_map *sorted_for;
	static struct oid_pair *sorted;
	static size_t sorted_nr;
	struct oid_pair key, *hit;

	if (sorted_for != m || sorted_nr != m->nr) {
		free(sorted);
		sorted = xmalloc((m->nr ? m->nr : 1) * sizeof(*sorted));
		memcpy(sorted, m->pairs, m->nr * sizeof(*sorted));
		qsort(sorted, m->nr, sizeof(*sorted), cmp_orig);
		sorted_for = m;
		sorted_nr = m->nr;
	}
	snprintf(key.orig, sizeof(key.orig), "%s", orig);
	hit = bsearch(&key, sorted, sorted_nr, sizeof(*sorted), cmp_orig);
	return hit ? hit->token : NULL;
}

void oid_map_release(struct oid_map *m)
{
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}

int git_dir_query(const char *dir, const char **query, struct strbuf *out,
		  struct strbuf *answers)
{
	const char *argv[16] = { "git", "rev-parse", "--absolute-git-dir" };
	struct strbuf all = STRBUF_INIT;
	const char *nl;
	size_t n = 3;
	int status;

	while (query && *query && n < 15)
		argv[n++] = *query++;
	argv[n] = NULL;
	status = run_capture(argv, dir, &all);
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

const char *find_dest(const char *given, struct strbuf *prefix)
{
	const char *query[] = { "git", "rev-parse", "--absolute-git-dir", "--show-prefix", NULL };
	const char *config[] = { "git", "config", "--get", "tokstream.dest", NULL };
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
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tokstream/commit-map", gitdir.buf);
	if (!access(path.buf, F_OK)) {
		found = ".";
	} else {
		struct strbuf dest = STRBUF_INIT;

		if (run_capture_quiet(config, ".", &dest) || !dest.len)
			die("'%s' is no token repository and records none (tokstream.dest): "
			    "give -C DEST, or run tokstream convert with this repository as SRC",
			    gitdir.buf);
		while (dest.len && dest.buf[dest.len - 1] == '\n')
			strbuf_setlen(&dest, dest.len - 1);
		while (answers.len && answers.buf[answers.len - 1] == '\n')
			strbuf_setlen(&answers, answers.len - 1);
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

int dest_config_read(struct dest_config *c, const char *gitdir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/tokstream/current/config", gitdir);
	if (strbuf_read_file(&text, path.buf))
		ret = -1;
	dest_config_parse(c, text.buf, text.len);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

void dest_config_release(struct dest_config *c)
{
	size_t i;

	for (i = 0; i < c->nr_options; i++)
		free(c->options[i]);
	for (i = 0; i < c->nr_sources; i++)
		free(c->sources[i]);
	free(c->options);
	free(c->sources);
	free(c->views);
	strbuf_release(&c->text);
	memset(c, 0, sizeof(*c));
}
