/*
 * Reading and writing files safely: each helper exists once, everything
 * calls it.
 */
#ifndef WRAPPER_H
#define WRAPPER_H

#include "strbuf.h"

#include <stddef.h>
#include <sys/types.h>

/*
 * A file that must survive a crash, written whole or not at all: its
 * bytes go to a temporary file beside it (PATH.tmpPID: the same file
 * system, so that the rename is atomic), which atomic_file_commit()
 * syncs, renames over path (never writing through a symlink there) and
 * makes durable by syncing path's directory, where the rename is.  A
 * crash leaves the old file or the new one, never a part of either.  On
 * any failure the temporary file is removed and the program dies with
 * one line naming path and the error.
 */
struct atomic_file {
	char *path;
	struct strbuf tmp;
	/* what atomic_file_write() took, written out in large pieces */
	struct strbuf buf;
	int fd;
};

void atomic_file_open(struct atomic_file *f, const char *path);
void atomic_file_write(struct atomic_file *f, const void *data, size_t len);
void atomic_file_commit(struct atomic_file *f);

/* Writes path as an atomic_file of the len bytes of buf. */
void write_atomic(const char *path, const char *buf, size_t len);

/*
 * The end of every file written whole: tmp (open as fd, written) synced,
 * closed and renamed to path, and path's directory synced.  For writers
 * that name their temporary file themselves (mkstemp()); on failure, as
 * an atomic_file's.
 */
void commit_temp_file(int fd, const char *tmp, const char *path);

/* Removes tmp, then dies naming path and errno's error: a write of path failed. */
_Noreturn void die_removing_temp(const char *tmp, const char *path);

/*
 * Writes all len bytes of buf to fd, again after a short write or an
 * interrupted one: len, or -1 with errno set.  Every write loop is this.
 */
long write_in_full(int fd, const void *buf, size_t len);

/*
 * Reads len bytes at offset of fd into buf, again after a short read or
 * an interrupted one: the bytes read (fewer than len only at the end of
 * the file), or -1 with errno set.
 */
long pread_in_full(int fd, void *buf, size_t len, off_t offset);

/* Creates the directory path unless it is one already; dies when it cannot. */
void make_dir(const char *path);

/* Frees the nr strings of v, then v itself. */
void free_strings(char **v, size_t nr);

/* qsort()'s order of an array of strings (char *), by strcmp(). */
int cmp_strings(const void *a, const void *b);

#endif
