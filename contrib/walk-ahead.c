/*
 * The versions of a blamed file read ahead (see walk-ahead.h).
 *
 * The walk of one file spends most of its time on what each version is
 * before it can be diffed: the view read from the token repository and
 * hashed, the original read and lexed for each token's line.  None of it
 * depends on the walk's answer so far, and the file's history (git
 * rev-list's rows, in the order the walk mostly takes them) says which
 * versions come next; so a thread of its own reads them, with its own
 * `git cat-file` and readers of the originals, while the walk's thread
 * diffs.  The walk takes a version read ahead only when its blob id is
 * the one the walk's tree names, and reads any other itself: the answer
 * is the same, only sooner.
 */
#include "walk-ahead.h"
#include "../tokenize/catfile.h"
#include "../tokenize/sha1.h"
#include "../tokenize/smap.h"
#include "../tokenize/strbuf.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"
#include "tokdiff.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What the thread holds read and not yet taken, at most: it waits beyond. */
#define AHEAD_BYTES ((size_t)64 << 20)

enum ahead_state { AHEAD_QUEUED, AHEAD_READING, AHEAD_READY, AHEAD_TAKEN };

struct ahead {
	char id[41];            /* the commit in the token repository */
	char *path;
	enum ahead_state state;
	int found;              /* a blob at id:path */
	unsigned char oid[20];  /* its id */
	uint64_t *hash;
	uint32_t *line;         /* NULL: not known */
	size_t nr;
};

struct read_ahead {
	const struct replay_options *opts;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* under lock: the versions asked for, in order, and where the thread is */
	struct ahead *v;
	size_t nr, alloc, next, held;
	struct smap index;      /* "ID\tPATH" -> v[] */
	int stop;
	/* the thread's own */
	struct catfile cf;
	void *lines;
};

static void key_of(struct strbuf *key, const char *id, const char *path)
{
	strbuf_reset(key);
	strbuf_addf(key, "%s\t%s", id, path);
}

static size_t bytes_of(const struct ahead *a)
{
	return a->nr * (sizeof(*a->hash) + sizeof(*a->line));
}

/* Reads version a (a copy: the list may move meanwhile) into a, outside the lock. */
static void read_version(struct read_ahead *ra, struct ahead *a, struct strbuf *name, struct strbuf *view)
{
	strbuf_reset(name);
	strbuf_addf(name, "%s:%s", a->id, a->path);
	if (catfile_blob_by_name(&ra->cf, name->buf, view))
		return;
	a->found = 1;
	git_blob_oid(view->buf, view->len, a->oid);
	a->hash = hash_lines(view->buf, view->len, ra->opts->ignore_ws, &a->nr);
	if (ra->lines && a->nr) {
		a->line = xmalloc(st_mult(a->nr, sizeof(*a->line)));
		if (ra->opts->lines_reader_lines(ra->lines, a->id, a->path, a->nr, a->line)) {
			free(a->line);
			a->line = NULL;
		}
	}
}

static void *read_ahead_main(void *data)
{
	struct read_ahead *ra = data;
	struct strbuf name = STRBUF_INIT, view = STRBUF_INIT;

	pthread_mutex_lock(&ra->lock);
	while (!ra->stop) {
		struct ahead a;
		size_t k;

		if (ra->next == ra->nr || ra->held >= AHEAD_BYTES) {
			pthread_cond_wait(&ra->changed, &ra->lock);
			continue;
		}
		k = ra->next++;
		if (ra->v[k].state != AHEAD_QUEUED)
			continue;
		ra->v[k].state = AHEAD_READING;
		a = ra->v[k];
		pthread_mutex_unlock(&ra->lock);
		read_version(ra, &a, &name, &view);
		pthread_mutex_lock(&ra->lock);
		ra->v[k] = a;
		ra->v[k].state = AHEAD_READY;
		ra->held += bytes_of(&a);
		pthread_cond_broadcast(&ra->changed);
	}
	pthread_mutex_unlock(&ra->lock);
	strbuf_release(&name);
	strbuf_release(&view);
	return NULL;
}

struct read_ahead *read_ahead_start(const char *dir, const struct replay_options *opts)
{
	struct read_ahead *ra = xcalloc(1, sizeof(*ra));

	ra->opts = opts;
	ra->cf.dir = dir;
	if (opts->lines_reader_new)
		ra->lines = opts->lines_reader_new(opts->data);
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->changed, NULL);
	if (pthread_create(&ra->thread, NULL, read_ahead_main, ra)) {
		/* no thread: the walk reads every version itself */
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->changed);
		if (ra->lines)
			opts->lines_reader_free(ra->lines);
		free(ra);
		return NULL;
	}
	return ra;
}

void read_ahead_want(struct read_ahead *ra, const char *id, const char *path)
{
	struct strbuf key = STRBUF_INIT;
	int isnew;

	/* cat-file takes a name a line: a path with a LF is read by the walk alone */
	if (strchr(path, '\n'))
		return;
	key_of(&key, id, path);
	pthread_mutex_lock(&ra->lock);
	smap_put(&ra->index, key.buf, ra->nr, &isnew);
	if (isnew) {
		ALLOC_GROW(ra->v, ra->nr + 1, ra->alloc);
		memset(&ra->v[ra->nr], 0, sizeof(ra->v[ra->nr]));
		memcpy(ra->v[ra->nr].id, id, 41);
		ra->v[ra->nr].path = xstrdup(path);
		ra->nr++;
		pthread_cond_broadcast(&ra->changed);
	}
	pthread_mutex_unlock(&ra->lock);
	strbuf_release(&key);
}

int read_ahead_take(struct read_ahead *ra, const char *id, const char *path, const unsigned char *oid,
		    uint64_t **hash, uint32_t **line, size_t *nr)
{
	struct strbuf key = STRBUF_INIT;
	struct ahead a;
	size_t *at;

	key_of(&key, id, path);
	pthread_mutex_lock(&ra->lock);
	at = smap_get(&ra->index, key.buf);
	strbuf_release(&key);
	if (!at) {
		pthread_mutex_unlock(&ra->lock);
		return 0;
	}
	while (ra->v[*at].state == AHEAD_READING)
		pthread_cond_wait(&ra->changed, &ra->lock);
	a = ra->v[*at];
	ra->v[*at].state = AHEAD_TAKEN;
	ra->v[*at].hash = NULL;
	ra->v[*at].line = NULL;
	if (a.state == AHEAD_READY) {
		ra->held -= bytes_of(&a);
		pthread_cond_broadcast(&ra->changed);
	}
	pthread_mutex_unlock(&ra->lock);
	if (a.state != AHEAD_READY || !a.found || memcmp(a.oid, oid, 20)) {
		free(a.hash);
		free(a.line);
		return 0;
	}
	*hash = a.hash;
	*line = a.line;
	*nr = a.nr;
	return 1;
}

void read_ahead_stop(struct read_ahead *ra)
{
	size_t k;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->changed);
	pthread_mutex_unlock(&ra->lock);
	if (pthread_join(ra->thread, NULL))
		die("the thread that reads versions ahead could not be joined");
	for (k = 0; k < ra->nr; k++) {
		free(ra->v[k].path);
		free(ra->v[k].hash);
		free(ra->v[k].line);
	}
	free(ra->v);
	smap_release(&ra->index);
	catfile_stop(&ra->cf);
	if (ra->lines)
		ra->opts->lines_reader_free(ra->lines);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->changed);
	free(ra);
}
