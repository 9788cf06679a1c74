/*
 * The report's cache, DEST/tokstream/report-cache/: what each file's two
 * blames gave (in packs of entries), the last commit that touched each
 * file (touch-*), the commit sizes (sizes-*).  Every file name in it is
 * built by report_cache_file() in the directory state.c names, and the
 * report reads the rest of DEST/tokstream/ through state.c alone.
 *
 * Kept apart from the blames so that the format of an entry, which its
 * writer (blame_one) and its reader (read_entry) must agree on, and the
 * pack format are read in one file.
 */
#include "report.h"
#include "../tokenize/escape.h"
#include "../tokenize/parse.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The SHA-1 of a string, in hex: names of cache files, keys of entries. */
static void hash_hex(const struct strbuf *sb, char *out)
{
	unsigned char h[20];

	git_blob_oid(sb->buf, sb->len, h);
	oid_to_hex(h, out);
}

/* ---- what the report reads and writes of DEST/tokstream/ (through state.c) ---- */

/* The cache's directory, made if need be. */
void report_cache_open(struct report *rep)
{
	strbuf_reset(&rep->cache.dir);
	state_report_cache_path(&rep->cache.dir, rep->ctx.gitdir.buf, 1);
}

/* The tip convert last brought each source to. */
void read_source_tips(struct report *rep)
{
	struct dest_tips tips;
	size_t i;

	dest_tips_read(&tips, rep->ctx.gitdir.buf);
	for (i = 0; i < tips.nr; i++) {
		int k = tips.v[i].source;

		if (k >= 1 && k <= rep->nr_sources)
			memcpy(rep->sources[k - 1].tip, tips.v[i].tip, 41);
	}
	dest_tips_release(&tips);
}

/*
 * The cache file of a kind ("touch", "sizes", "age") for what its
 * contents depend on (key), in path: KIND-SHA1, the SHA-1 of the key.
 */
void report_cache_file(struct report *rep, const char *kind, const struct strbuf *key, struct strbuf *path)
{
	char hex[41];

	hash_hex(key, hex);
	strbuf_addf(path, "%s/%s-%s", rep->cache.dir.buf, kind, hex);
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
void last_touch(struct report *rep, const char *dir, const char *tip, const char *name,
		       const char **pathspec, int nr_pathspec, size_t field)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT, rec = STRBUF_INIT, key = STRBUF_INIT;
	struct touch old = { SMAP_INIT, NULL, 0, 0 }, walk = { SMAP_INIT, NULL, 0, 0 };
	char old_tip[41] = "", cur[41] = "";
	struct strvec argv = STRVEC_INIT;
	struct reader *r = xmalloc(sizeof(*r));
	const struct smap_entry *e;
	size_t i;

	strbuf_addf(&key, "%s", name);
	for (i = 0; i < (size_t)nr_pathspec; i++)
		strbuf_addf(&key, "%c%s", 0, pathspec[i]);
	report_cache_file(rep, "touch", &key, &path);
	if (!strbuf_read_file(&sb, path.buf) && !strncmp(sb.buf, "tip ", 4) && sb.len > 45 && sb.buf[44] == '\n') {
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
		strvec_pushl(&argv, "git", "log", "-z", "--no-renames", "--full-history", "--name-only",
			     "--format=%x01%H", tip, NULL);
		if (old_tip[0])
			strvec_pushf(&argv, "^%s", old_tip);
		strvec_push(&argv, "--");
		for (i = 0; i < (size_t)nr_pathspec; i++)
			strvec_push(&argv, pathspec[i]);
		reader_start(r, argv.v, dir);
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
		for (i = 0; (e = smap_next(&walk.paths, &i));)
			touch_set(&old, e->key, walk.ids[e->val]);
		/* save what we know now */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "tip %s\n", tip);
		for (i = 0; (e = smap_next(&old.paths, &i));) {
			strbuf_addf(&sb, "%s\t", old.ids[e->val]);
			percent_escape(&sb, e->key, strlen(e->key), CACHE_FIELD);
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
	strvec_clear(&argv);
	free(r);
	strbuf_release(&path);
	strbuf_release(&sb);
	strbuf_release(&rec);
	strbuf_release(&key);
}

void file_keys(struct report *rep)
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
void read_packs(struct report *rep)
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
		rep->cache.names = xrealloc(rep->cache.names, st_mult(rep->cache.alloc, sizeof(*rep->cache.names)));
		sb = &rep->cache.data[rep->cache.nr];
		strbuf_init(sb, 0);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", rep->cache.dir.buf, e->d_name);
		if (strbuf_read_file(sb, path.buf))
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

const struct entry_loc *find_entry(struct report *rep, const char *key)
{
	size_t *i = smap_get(&rep->cache.index, key);

	return i ? &rep->cache.entries[*i] : NULL;
}

/* Starts a pack, under a temporary name until pack_finish(). */
void pack_start(struct report *rep, struct pack_writer *w)
{
	strbuf_init(&w->tmp, 0);
	strbuf_init(&w->buf, 0);
	strbuf_addf(&w->tmp, "%s/tmp-entries-XXXXXX", rep->cache.dir.buf);
	w->fd = mkstemp(w->tmp.buf);
	if (w->fd < 0)
		die_errno("cannot create a pack in '%s'", rep->cache.dir.buf);
	strbuf_init(&w->name, 0);
	strbuf_addf(&w->name, "%s/entries-%s.pack", rep->cache.dir.buf, w->tmp.buf + w->tmp.len - 6);
}

static void pack_flush(struct pack_writer *w)
{
	if (write_in_full(w->fd, w->buf.buf, w->buf.len) < 0)
		die_removing_temp(w->tmp.buf, w->name.buf);
	strbuf_reset(&w->buf);
}

void pack_add(struct pack_writer *w, const char *key, const char *data, size_t len)
{
	strbuf_addf(&w->buf, "%s %zu\n", key, len);
	strbuf_add(&w->buf, data, len);
	if (w->buf.len >= (1 << 20))
		pack_flush(w);
}

/* The pack is whole: it gets its name. */
void pack_finish(struct pack_writer *w)
{
	pack_flush(w);
	/* mkstemp() made it 0600 */
	if (fchmod(w->fd, 0644))
		die_removing_temp(w->tmp.buf, w->name.buf);
	commit_temp_file(w->fd, w->tmp.buf, w->name.buf);
	strbuf_release(&w->name);
	strbuf_release(&w->tmp);
	strbuf_release(&w->buf);
}

/* Reads the workers' packs; past MAX_PACKS packs, all of them into one: entries named twice once. */
void merge_packs(struct report *rep)
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
	pack_finish(&w);
	for (i = 0; i < rep->cache.nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", rep->cache.dir.buf, rep->cache.names[i]);
		if (unlink(path.buf) && errno != ENOENT)
			die_errno("cannot remove '%s'", path.buf);
	}
	strbuf_release(&path);
}

/* The cache file of the commit sizes of the pathspec, in path. */
void sizes_cache_path(struct report *rep, const char **pathspec, int nr_pathspec, struct strbuf *path)
{
	struct strbuf key = STRBUF_INIT;
	int i;

	strbuf_addf(&key, "sizes 3%c%s%cvendored %d%c%s%c%s", 0, rep->engine_key, 0, rep->opt.include_vendored,
		    0, rep->window.since, 0, rep->window.until);
	for (i = 0; i < nr_pathspec; i++)
		strbuf_addf(&key, "%c%s", 0, pathspec[i]);
	for (i = 0; i < rep->opt.nr_exclude; i++)
		strbuf_addf(&key, "%cexclude %s", 0, rep->opt.exclude[i]);
	report_cache_file(rep, "sizes", &key, path);
	strbuf_release(&key);
}

/* Reads the commit sizes of the pathspec at the tip from the cache: 1 if they were there. */
int read_sizes_cache(struct report *rep, const char **pathspec, int nr_pathspec)
{
	struct blame_ctx *ctx = &rep->ctx;
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char *p, *nl;
	int ok = 0;

	sizes_cache_path(rep, pathspec, nr_pathspec, &path);
	if (!strbuf_read_file(&sb, path.buf) && !strncmp(sb.buf, "tip ", 4) && sb.len > 45 && sb.buf[44] == '\n' &&
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

void read_entry(struct report *rep, struct rfile *f)
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
			if (sscanf(p + 43, "%zu %zu %zu", &c->lines, &c->tokens, &c->unmoved) != 3)
				die("%s: a corrupt entry", path.buf);
			ALLOC_GROW(local, nr_local + 1, alloc_local);
			local[nr_local++] = c->commit;
			rep->commits[c->commit].lines += c->lines;
			rep->commits[c->commit].tokens += c->tokens;
			rep->commits[c->commit].unmoved += c->unmoved;
		} else if (!strncmp(p, "moved ", 6)) {
			if (sscanf(p + 6, "%zu", &f->moved) != 1)
				die("%s: a corrupt entry", path.buf);
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
				fn->count = xrealloc(fn->count, st_mult(alloc, sizeof(*fn->count)));
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
