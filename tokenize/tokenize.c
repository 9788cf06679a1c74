/*
 * tokenize: write the token view of files, exactly the bytes tokstream
 * stores for them.
 */
#include "language.h"
#include "parse.h"
#include "strbuf.h"
#include "usage.h"
#include "view.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: tokenize [-l LANG] [--lang=LANG:GLOB]... [--positions] [--exact-comments] [FILE...]\n"
	"       tokenize --list\n"
	"\n"
	"    -l, --language LANG    lex every file (and stdin) as LANG\n"
	"    --lang LANG:GLOB       lex paths matching GLOB as LANG (none: skip them)\n"
	"    --positions            prefix each token with LINE:COL and a tab\n"
	"    --exact-comments       keep the whitespace inside comments\n"
	"    --list                 list the languages and the paths each claims\n";

/* view_flush_fn: out goes to stdout in blocks. */
static void write_view(struct strbuf *out, void *data)
{
	(void)data;
	if (write_in_full(1, out->buf, out->len) < 0)
		die_errno("write error");
	strbuf_reset(out);
}

/*
 * The whole of fd into sb: in one read, when fd is a file whose size fstat
 * tells.  On an error, the views in pending are written before dying.
 */
static void read_fd(int fd, size_t size, struct strbuf *sb, const char *name,
		    struct strbuf *pending)
{
	if (strbuf_read_fd(sb, fd, size)) {
		write_view(pending, NULL);
		die_errno("cannot read '%s'", name);
	}
}

/*
 * Files from this size up are mapped, not read: a read copies every byte
 * (and, into a buffer grown for the file, faults in fresh pages), where a
 * mapping shares the page cache's.  Below it, a read into the buffer that
 * the files share costs less than the mapping's own calls.
 */
#define MAP_MIN_SIZE (256 * 1024)

/*
 * The content of fd: mapped (*mapped set, to be unmapped by the caller)
 * when it is a regular file of at least MAP_MIN_SIZE bytes, at its start,
 * else read into
 * sb.  The lexers read nothing past the length, so a mapping needs no NUL.
 */
static const char *load_fd(int fd, struct strbuf *sb, const char *name,
			   struct strbuf *pending, size_t *len, size_t *mapped)
{
	struct stat st;
	size_t size = 0;

	*mapped = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		size = (size_t)st.st_size;
	/* stdin may have been read in part before: its rest is read */
	if (size >= MAP_MIN_SIZE && lseek(fd, 0, SEEK_CUR) == 0) {
		void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			*mapped = size;
			*len = size;
			return p;
		}
	}
	strbuf_reset(sb);
	read_fd(fd, size, sb, name, pending);
	*len = sb->len;
	return sb->buf;
}

int main(int argc, char **argv)
{
	const struct language *forced = NULL;
	unsigned flags = 0;
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT;
	const char *buf;
	size_t len, mapped;
	int i, status = 0;

	progname = "tokenize";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *value;

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-l") || !strcmp(a, "--language")) {
			if (++i >= argc)
				usage_die(usage_text, "%s needs a language", a);
			if (!(forced = language_by_name(argv[i])) || forced == &language_none)
				usage_die(usage_text, "unknown language '%s' (see --list)", argv[i]);
		} else if (!strncmp(a, "--language=", 11) || !strncmp(a, "-l", 2) ) {
			const char *name = a[1] == 'l' ? a + 2 : a + 11;

			if (!(forced = language_by_name(name)) || forced == &language_none)
				usage_die(usage_text, "unknown language '%s' (see --list)", name);
		} else if (option_value("--lang", argc, argv, &i, &value)) {
			parse_lang_option(value, usage_text);
		} else if (!strcmp(a, "--positions")) {
			flags |= VIEW_POSITIONS;
		} else if (!strcmp(a, "--exact-comments")) {
			flags |= VIEW_EXACT_COMMENTS;
		} else if (!strcmp(a, "--list")) {
			language_list(stdout);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			usage_die(usage_text, "unknown option '%s'", a);
		} else {
			break;
		}
	}
	if (i >= argc) {
		if (!forced)
			usage_die(usage_text, "reading stdin needs -l LANG");
		buf = load_fd(0, &src, "stdin", &out, &len, &mapped);
		view_build_flushing(&out, forced, buf, len, flags, write_view, NULL);
		write_view(&out, NULL);
		if (mapped)
			munmap((void *)buf, mapped);
		strbuf_release(&src);
		strbuf_release(&out);
		return 0;
	}
	for (; i < argc; i++) {
		const char *path = argv[i];
		const struct language *lang;
		int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;

		if (fd < 0) {
			write_view(&out, NULL);	/* the views before it come first */
			fprintf(stderr, "tokenize: error: cannot open '%s': %s\n", path, strerror(errno));
			status = 1;
			continue;
		}
		buf = load_fd(fd, &src, path, &out, &len, &mapped);
		if (fd)
			close(fd);
		lang = forced ? forced : language_for_file(path, buf, len);
		if (!lang || lang == &language_none) {
			if (!forced) {
				write_view(&out, NULL);
				fprintf(stderr, "tokenize: warning: no language claims '%s', skipped (use -l)\n", path);
			}
		} else {
			/* the views of small files are written together */
			view_build_flushing(&out, lang, buf, len, flags, write_view, NULL);
		}
		if (mapped)
			munmap((void *)buf, mapped);
	}
	write_view(&out, NULL);
	strbuf_release(&src);
	strbuf_release(&out);
	return status;
}
