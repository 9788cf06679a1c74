/*
 * Objects of a repository by id, from one `git cat-file --batch`: asked
 * for when wanted, or ahead, and answered in the order asked.
 *
 * Asking ahead lets cat-file find and inflate the next objects while the
 * caller works on this one, and their answers wait in the channel (a
 * socket pair, see make_bulk_channel): a read takes several at once,
 * instead of a round trip and two waits each.
 */
#ifndef CATFILE_H
#define CATFILE_H

#include "run-command.h"
#include "strbuf.h"

#include <stdint.h>
#include <stdio.h>

#define CATFILE_AHEAD 64   /* questions asked ahead and not answered yet, at most */

struct catfile {
	const char *dir;    /* the repository (NULL: the current directory) */
	struct child c;     /* c.pid 0: not started */
	FILE *to, *from;
	unsigned char asked[CATFILE_AHEAD][20]; /* asked, not yet answered, oldest first */
	size_t asked_first, asked_nr;
	uintmax_t unused;   /* answers to questions asked ahead, thrown away */
};

#define CATFILE_INIT(dir) { (dir), { 0 }, NULL, NULL, { { 0 } }, 0, 0, 0 }

enum catfile_answer {
	CATFILE_FOUND,      /* *size bytes of content follow, read with catfile_read() */
	CATFILE_MISSING,    /* no such object */
	CATFILE_FAILED      /* git cat-file could not be run, or stopped */
};

/*
 * Asks ahead for oid, unless CATFILE_AHEAD questions wait already (or it
 * is one of them): 1 if it was asked.  The question goes out with the next
 * catfile_get() or catfile_flush().
 */
int catfile_ask_ahead(struct catfile *cf, const unsigned char *oid);
int catfile_was_asked(const struct catfile *cf, const unsigned char *oid);
/* Sends the questions asked ahead: 0, or -1 when cat-file is gone. */
int catfile_flush(struct catfile *cf);

/*
 * The answer about oid, asked now unless it was asked ahead (the answers
 * to questions asked before it are read and thrown away): its type (at
 * most 15 bytes) and size.  Then read its size bytes of content with
 * catfile_read() and end with catfile_end() before the next catfile_get().
 */
enum catfile_answer catfile_get(struct catfile *cf, const unsigned char *oid,
				char type[16], size_t *size);
/*
 * The same for an object name cat-file takes (REV:PATH, an abbreviated
 * id; no LF in it), asked now: nothing may be asked ahead.
 */
enum catfile_answer catfile_get_name(struct catfile *cf, const char *name,
				     char type[16], size_t *size);
/*
 * The blob cat-file takes name for (as catfile_get_name()), whole, in out
 * (emptied first): 0; -1 when there is none, or the object is no blob.
 * Dies when cat-file fails.
 */
int catfile_blob_by_name(struct catfile *cf, const char *name, struct strbuf *out);
/* n bytes of the content into buf: 0, or -1 if cat-file stopped first. */
int catfile_read(struct catfile *cf, void *buf, size_t n);
/* The end of an answer (the LF after the content): 0, or -1. */
int catfile_end(struct catfile *cf);

/* Closes the pipe and the channel to cat-file, and waits for it. */
void catfile_stop(struct catfile *cf);

#endif
