#include "strbuf.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;

	if (extra > SIZE_MAX - sb->len - 2)
		die("out of memory: buffer of %zu + %zu bytes", sb->len, extra);
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (!sb->alloc) {
		sb->buf = NULL;
	}
	if (sb->alloc && sb->alloc > SIZE_MAX / 3 * 2)
		sb->alloc = want;
	else
		sb->alloc = sb->alloc + sb->alloc / 2 > want ?
			sb->alloc + sb->alloc / 2 : want;
	if (sb->alloc < 64)
		sb->alloc = 64;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (!sb->len)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen(%zu) beyond allocation %zu", len, sb->alloc);
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (!strbuf_avail(sb))
		strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, strbuf_avail(sb) + 1, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for format '%s'", fmt);
	if ((size_t)n > strbuf_avail(sb)) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, strbuf_avail(sb) + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY);

	strbuf_reset(sb);
	if (fd < 0) {
		if (errno == ENOENT)
			return -1;
		die_errno("cannot read '%s'", path);
	}
	if (strbuf_read_fd(sb, fd, 0))
		die_errno("cannot read '%s'", path);
	close(fd);
	return 0;
}

int strbuf_read_fd(struct strbuf *sb, int fd, size_t size)
{
	size_t start = sb->len;
	int ret = 0;

	if (size)
		strbuf_grow(sb, size);
	while (!size || sb->len - start < size) {
		ssize_t n;

		if (strbuf_avail(sb) < 4096)
			strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, strbuf_avail(sb));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -1;	/* what was read stays, terminated */
			break;
		}
		if (!n)
			break;
		sb->len += (size_t)n;
	}
	sb->buf[sb->len] = '\0';
	return ret;
}

void strbuf_trim_newline(struct strbuf *sb)
{
	while (sb->len && sb->buf[sb->len - 1] == '\n')
		strbuf_setlen(sb, sb->len - 1);
}
