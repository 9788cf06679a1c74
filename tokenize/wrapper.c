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

void write_atomic(const char *path, const char *buf, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd;

	strbuf_addf(&tmp, "%s.tmp%ld", path, (long)getpid());
	unlink(tmp.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (fd < 0)
		die_errno("cannot write '%s'", tmp.buf);
	if (write_in_full(fd, buf, len) < 0 || close(fd))
		die_errno("cannot write '%s'", tmp.buf);
	if (rename(tmp.buf, path))
		die_errno("cannot rename '%s'", tmp.buf);
	strbuf_release(&tmp);
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
