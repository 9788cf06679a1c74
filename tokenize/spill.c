/* Contents held in memory up to a limit, past it in the spill file (see spill.h). */
#include "spill.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uintmax_t spill_default_max_held(void)
{
	uintmax_t mem = 0, limit;
	FILE *f;

#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);

	if (pages > 0 && page_size > 0)
		mem = (uintmax_t)pages * (uintmax_t)page_size;
#endif
	/* a container's memory limit (cgroup v2), when it is lower */
	f = fopen("/sys/fs/cgroup/memory.max", "r");
	if (f) {
		if (fscanf(f, "%ju", &limit) == 1 && limit && (!mem || limit < mem))
			mem = limit;
		fclose(f);
	}
	return mem ? mem / 8 : (uintmax_t)256 << 20;
}

void spill_init(struct spill *s, uintmax_t max_held, size_t max_whole)
{
	memset(s, 0, sizeof(*s));
	s->max_held = max_held;
	s->max_whole = max_whole;
	s->fd = -1;
	strbuf_init(&s->buf, 0);
}

void spill_release(struct spill *s)
{
	while (s->first)
		spill_forget(s, s->first);
	if (s->fd >= 0)
		close(s->fd);
	strbuf_release(&s->buf);
	spill_init(s, s->max_held, s->max_whole);
}

static void spill_open(struct spill *s)
{
	struct strbuf path = STRBUF_INIT;
	const char *dir = getenv("TMPDIR");

	s->dir = dir && *dir ? dir : "/tmp";
	strbuf_addf(&path, "%s/tokstream-spill-XXXXXX", s->dir);
	s->fd = mkstemp(path.buf);
	if (s->fd < 0)
		die_errno("cannot create a spill file in '%s' (set TMPDIR, or raise --max-held)",
			  s->dir);
	/* unlinked at once: no exit leaves it behind */
	if (unlink(path.buf))
		die_errno("cannot unlink the spill file '%s'", path.buf);
	if (fcntl(s->fd, F_SETFD, FD_CLOEXEC))
		die_errno("fcntl on the spill file");
	strbuf_release(&path);
}

/* Appends n bytes to the spill file. */
static void spill_write(struct spill *s, const char *p, size_t n)
{
	if (s->fd < 0)
		spill_open(s);
	while (n) {
		ssize_t w = pwrite(s->fd, p, n, s->end);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die_errno("cannot write to the spill file in '%s'", s->dir);
		}
		p += w;
		n -= (size_t)w;
		s->end += w;
	}
}

static void held_append(struct spill *s, struct held *h)
{
	h->prev = s->last;
	h->next = NULL;
	if (s->last)
		s->last->next = h;
	else
		s->first = h;
	s->last = h;
	s->bytes += h->len;
	if (s->bytes > s->peak)
		s->peak = s->bytes;
}

static void held_unlink(struct spill *s, struct held *h)
{
	if (h->prev)
		h->prev->next = h->next;
	else
		s->first = h->next;
	if (h->next)
		h->next->prev = h->prev;
	else
		s->last = h->prev;
	h->prev = h->next = NULL;
	s->bytes -= h->len;
}

/* h's content, of len bytes from start in the spill file, is there now. */
static void spilled(struct spill *s, struct held *h, off_t start)
{
	h->off = start;
	h->spilled = 1;
	s->live += h->len;
	s->nr_spilled++;
	s->bytes_spilled += h->len;
}

/* Moves the content of h, held in memory, to the spill file. */
static void spill_content(struct spill *s, struct held *h)
{
	off_t start = s->end;

	spill_write(s, h->data, h->len);
	held_unlink(s, h);
	free(h->data);
	h->data = NULL;
	spilled(s, h, start);
}

/* Spills the oldest contents in memory until n more bytes fit. */
static void make_room(struct spill *s, uintmax_t n)
{
	while (s->first && s->bytes + n > s->max_held)
		spill_content(s, s->first);
}

/* The content being added goes to the spill file from now on. */
static void start_spilling(struct spill *s)
{
	if (s->fd < 0)
		spill_open(s);
	s->spilling = 1;
	s->start = s->end;
	spill_write(s, s->buf.buf, s->buf.len);
	strbuf_release(&s->buf);
}

void spill_begin(struct spill *s, uintmax_t count, int counted)
{
	strbuf_reset(&s->buf);
	s->spilling = 0;
	s->len = 0;
	if (counted && (count > s->max_held || count > s->max_whole))
		start_spilling(s);
	else if (counted)
		/*
		 * The whole content at once: grown by doubling it would be
		 * copied and its pages touched about twice.  Untouched, the
		 * reserve costs nothing if the count lies.
		 */
		strbuf_grow(&s->buf, (size_t)count);
}

void spill_add(struct spill *s, const char *p, size_t n)
{
	s->len += n;
	if (!s->spilling) {
		make_room(s, s->len);
		if (s->len > s->max_held || s->len > s->max_whole)
			start_spilling(s);
	}
	strbuf_add(&s->buf, p, n);
	if (s->spilling && s->buf.len >= SPILL_CHUNK) {
		spill_write(s, s->buf.buf, s->buf.len);
		strbuf_reset(&s->buf);
	}
}

void spill_end(struct spill *s, struct held *h)
{
	h->len = s->len;
	if (s->spilling) {
		spill_write(s, s->buf.buf, s->buf.len);
		strbuf_release(&s->buf);
		spilled(s, h, s->start);
		return;
	}
	/* the growth slack would count against the limit unseen */
	if (s->buf.alloc - s->buf.len > s->buf.len / 8 + 64) {
		s->buf.alloc = s->buf.len + 1;
		s->buf.buf = xrealloc(s->buf.buf, s->buf.alloc);
	}
	h->data = strbuf_detach(&s->buf, NULL);
	held_append(s, h);
}

void spill_read(struct spill *s, const struct held *h, size_t off, char *buf, size_t n)
{
	long r;

	if (!h->spilled)
		BUG("reading back the content of a blob held in memory");
	r = pread_in_full(s->fd, buf, n, h->off + (off_t)off);
	if (r < 0)
		die_errno("cannot read the spill file in '%s'", s->dir);
	if ((size_t)r < n)
		BUG("the spill file is shorter than what was written to it");
}

void spill_forget(struct spill *s, struct held *h)
{
	if (h->data) {
		held_unlink(s, h);
		free(h->data);
		h->data = NULL;
	} else if (h->spilled) {
		h->spilled = 0;
		s->live -= h->len;
		if (!s->live && s->end) {
			if (ftruncate(s->fd, 0))
				die_errno("cannot truncate the spill file in '%s'", s->dir);
			s->end = 0;
		}
	}
}
