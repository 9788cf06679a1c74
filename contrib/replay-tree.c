/*
 * The files of a commit's tree, with their content: the root commits of
 * the forward pass, and the line counts of a report.
 */
#include "replay-internal.h"
#include "../tokenize/lines.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* git's line count: a last line without LF is one too */
size_t count_lines(const char *p, size_t n)
{
	return count_newlines(p, n) + (n && p[n - 1] != '\n');
}

void tree_blobs(const char *dir, const char *commit, const char **paths, size_t nr_paths,
		       tree_blob_fn *fn, void *data)
{
	const char *cat[] = { "git", "cat-file", "--batch", "--buffer", NULL };
	struct strvec ls = STRVEC_INIT;
	struct reader *rd = xmalloc(sizeof(*rd));
	struct strbuf rec = STRBUF_INIT, content = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, k;
	FILE *ids = tmpfile();

	if (!ids)
		die_errno("cannot make a temporary file");
	strvec_pushl(&ls, "git", "ls-tree", "-r", "-z", "--full-tree", commit, "--", NULL);
	for (k = 0; k < nr_paths; k++)
		strvec_push(&ls, paths[k]);
	reader_start(rd, ls.v, dir);
	while (reader_next(rd, &rec, '\0')) {
		/* "MODE TYPE ID\tPATH" */
		const char *type = strchr(rec.buf, ' '), *tab = strchr(rec.buf, '\t');
		char blob[41];

		if (!type || !tab || tab - type < 42 || tab[-41] != ' ')
			die("unexpected output of git ls-tree %s in '%s'", commit, dir);
		memcpy(blob, tab - 40, 40);
		blob[40] = '\0';
		if (!strncmp(type, " commit ", 8)) {
			fn(tab + 1, blob, NULL, 0, 1, data);
			continue;
		}
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(tab + 1);
		fprintf(ids, "%s\n", blob);
	}
	if (reader_finish(rd))
		die("git ls-tree %s failed in '%s'", commit, dir);
	if (fflush(ids) || ferror(ids))
		die_errno("cannot write a temporary file");
	rewind(ids);
	reader_start_fd(rd, cat, dir, fileno(ids));
	for (k = 0; k < nr; k++) {
		char *end;
		unsigned long long size;
		char blob[41];

		/* "ID blob SIZE", the bytes, LF */
		if (!reader_next(rd, &rec, '\n') || rec.len < 47 || strncmp(rec.buf + 40, " blob ", 6))
			die("unexpected output of git cat-file in '%s'", dir);
		memcpy(blob, rec.buf, 40);
		blob[40] = '\0';
		size = strtoull(rec.buf + 46, &end, 10);
		if (end == rec.buf + 46 || *end || size > SIZE_MAX || reader_read(rd, (size_t)size, &content) ||
		    !reader_next(rd, &rec, '\n') || rec.len)
			die("unexpected output of git cat-file in '%s'", dir);
		fn(names[k], blob, content.buf, content.len, 0, data);
		free(names[k]);
	}
	if (reader_finish(rd))
		die("git cat-file failed in '%s'", dir);
	fclose(ids);
	free(names);
	strvec_clear(&ls);
	free(rd);
	strbuf_release(&rec);
	strbuf_release(&content);
}

struct tree_lines_cb {
	tree_lines_fn *fn;
	void *data;
};

static void count_blob_lines(const char *path, const char *blob, const char *content, size_t len,
			     int submodule, void *data)
{
	struct tree_lines_cb *cb = data;

	/* a submodule's diff is one line, "Subproject commit ID" */
	if (submodule)
		cb->fn(path, blob, 1, 0, cb->data);
	else
		cb->fn(path, blob, count_lines(content, len),
		       memchr(content, '\0', len < 8000 ? len : 8000) != NULL, cb->data);
}

void tree_lines(const char *dir, const char *commit, tree_lines_fn *fn, void *data)
{
	struct tree_lines_cb cb = { fn, data };

	tree_blobs(dir, commit, NULL, 0, count_blob_lines, &cb);
}

