#include "state.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_hex40(const char *s)
{
	int i;

	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

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
