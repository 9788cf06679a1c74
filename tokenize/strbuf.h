/*
 * A growable byte buffer, in the manner of Git's strbuf: always
 * NUL-terminated (so it can be handed to libc), may hold NUL bytes.
 */
#ifndef STRBUF_H
#define STRBUF_H

#include <stddef.h>
#include <stdarg.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Make room for at least extra more bytes beyond len. */
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* A new string, formatted. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Replace the contents of sb with the file at path.  Returns 0, or -1 when
 * the file does not exist; dies on any other error.
 */
int strbuf_read_file(struct strbuf *sb, const char *path);

/*
 * Appends what fd holds, to its end or, when size is not 0, until size
 * bytes are read (a file whose size fstat told needs no second read to see
 * its end); 0, or -1 with errno set.
 */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t size);

/* Drops the newlines at the end, as a command's output or a file's last line has them. */
void strbuf_trim_newline(struct strbuf *sb);
/* Detach the buffer; the caller owns it and must free() it. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

static inline void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

static inline void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 1 >= sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

static inline size_t strbuf_avail(const struct strbuf *sb)
{
	return sb->alloc ? sb->alloc - sb->len - 1 : 0;
}

#endif
