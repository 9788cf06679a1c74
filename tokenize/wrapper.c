#include "wrapper.h"
#include "strbuf.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

long write_in_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t left = len;

	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	return (long)len;
}

long pread_in_full(int fd, void *buf, size_t len, off_t offset)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, p + got, len - got, offset + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (long)got;
}

/* atomic_file_write()'s buffer is written out when it holds this much. */
#define ATOMIC_FILE_CHUNK (1 << 20)

void die_removing_temp(const char *tmp, const char *path)
{
	int err = errno;

	unlink(tmp);
	errno = err;
	die_errno("cannot write '%s'", path);
}

/*
 * The directory of path synced: a rename is an entry of the directory,
 * durable only once the directory is.  A file system that cannot sync a
 * directory (EINVAL) keeps its entries as it keeps them.
 */
static void sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf dir = STRBUF_INIT;
	int fd;

	if (!slash)
		strbuf_addch(&dir, '.');
	else
		strbuf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	fd = open(dir.buf, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die_errno("cannot sync the directory of '%s'", path);
	if (fsync(fd) && errno != EINVAL) {
		close(fd);
		die_errno("cannot sync the directory of '%s'", path);
	}
	close(fd);
	strbuf_release(&dir);
}

void commit_temp_file(int fd, const char *tmp, const char *path)
{
	if (fsync(fd)) {
		close(fd);
		die_removing_temp(tmp, path);
	}
	if (close(fd) || rename(tmp, path))
		die_removing_temp(tmp, path);
	sync_dir_of(path);
}

void atomic_file_open(struct atomic_file *f, const char *path)
{
	f->path = xstrdup(path);
	strbuf_init(&f->tmp, 0);
	strbuf_init(&f->buf, 0);
	strbuf_addf(&f->tmp, "%s.tmp%ld", path, (long)getpid());
	/* one a killed run of an earlier process of this id left */
	unlink(f->tmp.buf);
	f->fd = open(f->tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (f->fd < 0)
		die_errno("cannot write '%s'", path);
}

static void atomic_file_flush(struct atomic_file *f)
{
	if (write_in_full(f->fd, f->buf.buf, f->buf.len) < 0) {
		close(f->fd);
		die_removing_temp(f->tmp.buf, f->path);
	}
	strbuf_reset(&f->buf);
}

void atomic_file_write(struct atomic_file *f, const void *data, size_t len)
{
	if (f->buf.len + len < ATOMIC_FILE_CHUNK) {
		strbuf_add(&f->buf, data, len);
		return;
	}
	atomic_file_flush(f);
	/* a large piece as it is, not copied first */
	if (write_in_full(f->fd, data, len) < 0) {
		close(f->fd);
		die_removing_temp(f->tmp.buf, f->path);
	}
}

void atomic_file_commit(struct atomic_file *f)
{
	atomic_file_flush(f);
	commit_temp_file(f->fd, f->tmp.buf, f->path);
	free(f->path);
	strbuf_release(&f->tmp);
	strbuf_release(&f->buf);
}

void write_atomic(const char *path, const char *buf, size_t len)
{
	struct atomic_file f;

	atomic_file_open(&f, path);
	atomic_file_write(&f, buf, len);
	atomic_file_commit(&f);
}

void make_dir(const char *path)
{
	struct stat st;

	if (!lstat(path, &st)) {
		if (!S_ISDIR(st.st_mode))
			die("'%s' is not a directory", path);
		return;
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		die_errno("cannot create '%s'", path);
}

int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void free_strings(char **v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}
