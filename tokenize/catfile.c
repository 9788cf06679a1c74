/*
 * Objects by id from one `git cat-file --batch` (see catfile.h).
 *
 * Why ask ahead: a question at a time costs a round trip and two waits
 * for every blob, while cat-file, asked for the next ones, finds and
 * inflates them while the caller tokenizes this one, and their answers
 * wait in the channel between the two processes.
 *
 * Why a socket pair and not a pipe (make_bulk_channel): a pipe's writer
 * is woken at every read of a full pipe, and a reader that takes an
 * object at a time keeps waking it for one more object's worth; a
 * socket's writer sleeps until most of its buffer has been read.  On the
 * Linux release history the filter's CPU time fell from 4.9-5.6 s to
 * 4.4-4.7 s with cat-file's answers through a socket pair
 * (t/bench/README.md).
 */
#include "catfile.h"
#include "sha1.h"
#include "usage.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void start(struct catfile *cf)
{
	static const char *argv[] = { "git", "cat-file", "--batch", NULL };
	int to[2], from[2];

	make_pipe(to);
	make_bulk_channel(from);
	child_init(&cf->c, argv);
	cf->c.dir = cf->dir;
	cf->c.in = to[0];
	cf->c.out = from[1];
	start_command(&cf->c);
	close(to[0]);
	close(from[1]);
	cf->to = fdopen(to[1], "w");
	cf->from = fdopen(from[0], "r");
	if (!cf->to || !cf->from)
		die_errno("fdopen");
	/* room for the answers asked ahead, so that one read takes several */
	setvbuf(cf->from, NULL, _IOFBF, (size_t)1 << 16);
}

static int ask(struct catfile *cf, const unsigned char *oid)
{
	char hex[41];

	if (!cf->c.pid)
		start(cf);
	oid_to_hex(oid, hex);
	return fprintf(cf->to, "%s\n", hex) < 0 ? -1 : 0;
}

int catfile_was_asked(const struct catfile *cf, const unsigned char *oid)
{
	size_t i;

	for (i = 0; i < cf->asked_nr; i++)
		if (!memcmp(cf->asked[(cf->asked_first + i) % CATFILE_AHEAD], oid, 20))
			return 1;
	return 0;
}

int catfile_ask_ahead(struct catfile *cf, const unsigned char *oid)
{
	if (cf->asked_nr == CATFILE_AHEAD || catfile_was_asked(cf, oid) || ask(cf, oid))
		return 0;
	memcpy(cf->asked[(cf->asked_first + cf->asked_nr) % CATFILE_AHEAD], oid, 20);
	cf->asked_nr++;
	return 1;
}

int catfile_flush(struct catfile *cf)
{
	return cf->c.pid && fflush(cf->to) ? -1 : 0;
}

/*
 * "NAME TYPE SIZE", or "NAME missing" (or "ambiguous", for a name): the
 * type and size, or the answer's kind.  The NAME of a question asked is
 * the object id, or whatever name was asked, which has no LF but may
 * have spaces: the answer is read from its end.
 */
static enum catfile_answer read_header(struct catfile *cf, char type[16], size_t *size)
{
	char line[4096], *sp, *t, *end;
	uintmax_t n;

	if (!fgets(line, sizeof(line), cf->from) || !strchr(line, '\n') ||
	    !(sp = strrchr(line, ' ')))
		return CATFILE_FAILED;
	if (!strcmp(sp, " missing\n") || !strcmp(sp, " ambiguous\n"))
		return CATFILE_MISSING;
	n = strtoumax(sp + 1, &end, 10);
	if (end == sp + 1 || *end != '\n' || n > SIZE_MAX - 1)
		return CATFILE_FAILED;
	*sp = '\0';
	if (!(t = strrchr(line, ' ')) || strlen(t + 1) > 15)
		return CATFILE_FAILED;
	strcpy(type, t + 1);
	*size = (size_t)n;
	return CATFILE_FOUND;
}

/* Reads the answer to a question asked ahead that is not wanted after all. */
static int skip_answer(struct catfile *cf)
{
	char type[16], chunk[4096];
	size_t size;

	switch (read_header(cf, type, &size)) {
	case CATFILE_MISSING:
		return 0;
	case CATFILE_FAILED:
		return -1;
	case CATFILE_FOUND:
		break;
	}
	while (size) {
		size_t k = size < sizeof(chunk) ? size : sizeof(chunk);

		if (catfile_read(cf, chunk, k))
			return -1;
		size -= k;
	}
	return catfile_end(cf);
}

enum catfile_answer catfile_get(struct catfile *cf, const unsigned char *oid,
				char type[16], size_t *size)
{
	int asked = catfile_was_asked(cf, oid);

	if (!asked && ask(cf, oid))
		return CATFILE_FAILED;
	if (catfile_flush(cf))
		return CATFILE_FAILED;
	/* the answers before its own, when it was asked ahead; every one, when not */
	while (cf->asked_nr) {
		int match = !memcmp(cf->asked[cf->asked_first], oid, 20);

		cf->asked_first = (cf->asked_first + 1) % CATFILE_AHEAD;
		cf->asked_nr--;
		if (match)
			break;
		if (skip_answer(cf))
			return CATFILE_FAILED;
		cf->unused++;
	}
	return read_header(cf, type, size);
}

enum catfile_answer catfile_get_name(struct catfile *cf, const char *name,
				     char type[16], size_t *size)
{
	if (cf->asked_nr)
		BUG("an object asked by name after others asked ahead");
	if (!cf->c.pid)
		start(cf);
	if (fprintf(cf->to, "%s\n", name) < 0 || fflush(cf->to))
		return CATFILE_FAILED;
	return read_header(cf, type, size);
}

int catfile_blob_by_name(struct catfile *cf, const char *name, struct strbuf *out)
{
	enum catfile_answer a;
	char type[16];
	size_t size;

	a = catfile_get_name(cf, name, type, &size);
	if (a == CATFILE_FAILED)
		die("git cat-file --batch failed in '%s'", cf->dir ? cf->dir : ".");
	if (a == CATFILE_MISSING)
		return -1;
	strbuf_reset(out);
	strbuf_grow(out, size);
	if (catfile_read(cf, out->buf, size) || catfile_end(cf))
		die("git cat-file --batch failed in '%s'", cf->dir ? cf->dir : ".");
	strbuf_setlen(out, size);
	return strcmp(type, "blob") ? -1 : 0;
}

int catfile_read(struct catfile *cf, void *buf, size_t n)
{
	return fread(buf, 1, n, cf->from) == n ? 0 : -1;
}

int catfile_end(struct catfile *cf)
{
	return fgetc(cf->from) == '\n' ? 0 : -1;
}

void catfile_stop(struct catfile *cf)
{
	if (!cf->c.pid)
		return;
	fclose(cf->to);
	fclose(cf->from);
	finish_command(&cf->c);
	cf->asked_nr = 0;
}
