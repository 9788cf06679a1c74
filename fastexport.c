/*
 * tokstream: a filter from a `git fast-export` stream to a `git
 * fast-import` stream in which every blob is replaced by its token view.
 *
 *   git fast-export --all --signed-tags=strip --reencode=no |
 *   tokstream | git fast-import
 *
 * The reader follows fast-import.c: read a command line, match it by
 * prefix, parse its arguments strictly, one function per command.
 * Everything but blob contents passes through byte for byte, so every
 * input commit yields one output commit with the same parents, message
 * and identities.
 *
 * The language of a blob is known only from the path a commit gives it,
 * and blobs come before the commits that name them: blobs are held until
 * a commit names them, then one view per (blob, language) is emitted
 * before that commit.  Held contents stay in memory up to --max-held
 * bytes; past it they go to an unlinked temporary file (see "held
 * blobs" below).
 *
 * What it refuses.  The filter never refuses what git fast-import would
 * take in the same pipeline: it checks what it must understand to do its
 * job (the command structure, data lengths, the marks it defines, the
 * paths that choose a lexer), and where fast-import's verdict depends on
 * what the filter cannot see (its command line, the repository it
 * writes: a `from` naming a branch the destination has, a mark from a
 * marks file of fast-import's own) the input passes for fast-import to
 * judge.  What fast-import would certainly refuse is refused here first,
 * with the input's line number, so that the error names the input and
 * not the filter's output.
 *
 * All or nothing.  The output starts with `feature done` and ends with
 * `done` only after the whole input was read without error, so that a
 * truncated or malformed input, or a crash, makes fast-import stop
 * without updating a ref.  `checkpoint` and `progress` flush the output
 * at once: a frontend waiting for fast-import to act on them is not kept
 * waiting.  The views' marks start at 2^40, above any exporter's.
 *
 * Memory.  A blob the stream names by object id only (fast-export
 * --no-data, as convert runs it) is never held: it is read from the
 * source when a commit names it, into one buffer every such blob reuses,
 * and tokenized at once.  Such blobs are asked ahead: the input is read
 * in blocks of 64 KiB, well ahead of the parser, and the blobs the M
 * lines there name by id are asked of one `git cat-file --batch` up to
 * 64 at a time (tokenize/prefetch.c), so that it inflates the next ones
 * while the filter tokenizes this one; a blob no guess foresaw (read
 * before and wanted in a new language, a tree) is asked of a second
 * one, and a wrong guess (a message line that looks like an M line)
 * costs only the reading of its answer.  A blob the stream carries is
 * held from its `blob` command until the commit that names it is
 * written; with a source repository it is then released and read again
 * if a later commit wants it in another language, so fast-export's
 * streams hold one commit's blobs at a time.  A saved stream (stdin a
 * regular file) holds none: each blob stays in the file and is read
 * again with pread() when it is written.  The spill file is made by
 * mkstemp() on the first spill and unlinked at once, so that no exit,
 * not even SIGKILL, leaves it behind.
 */
#include "tokenize/catfile.h"
#include "tokenize/language.h"
#include "tokenize/lines.h"
#include "tokenize/quote.h"
#include "tokenize/run-command.h"
#include "tokenize/sha1.h"
#include "tokenize/strbuf.h"
#include "tokenize/strvec.h"
#include "tokenize/usage.h"
#include "tokenize/view.h"
#include "tokenize/wrapper.h"
#include "tokenize/parse.h"
#include "tokenize/prefetch.h"
#include "tokenize/smap.h"
#include "tokenize/spill.h"
#include "tokenize/hashtable.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: git fast-export --all --signed-tags=strip --reencode=no | tokstream [OPTIONS] | git fast-import\n"
	"\n"
	"    --identity             copy every blob unchanged (proves the stream handling)\n"
	"    --keep-other           keep files no lexer claims, unchanged (default: drop them)\n"
	"    --exact-comments       keep the whitespace inside comments\n"
	"    --lang LANG:GLOB       tokenize paths matching GLOB as LANG (none: drop them)\n"
	"    --source GITDIR        read blobs the stream names by object id from GITDIR\n"
	"    --max-held SIZE        hold at most SIZE bytes of blobs in memory (k, m, g),\n"
	"                           the rest in a temporary file (default: 1/8 of memory)\n"
	"    --stats                print counts at the end (on stderr)\n"
	"    --progress             report progress on stderr\n"
	"    --quiet                neither stats nor progress\n"
	"    --graft [ROOT:]PARENT  give the first root commit (or the root whose\n"
	"                           original id is ROOT) the parent PARENT\n"
	"    --import-state FILE    start from the marks and views a previous run saved\n"
	"    --import-marks=FILE    the marks of an earlier run, as git fast-import gets them\n"
	"    --import-marks-if-exists=FILE   the same, if FILE exists\n"
	"    --done                 require 'done' at the end, as git fast-import --done\n"
	"    --date-format=FMT      the date format git fast-import is given (raw, raw-permissive,\n"
	"                           rfc2822, now)\n"
	"    --export-state FILE    save them at the end, for a later incremental run\n"
	"    --languages            list the languages and the paths each one claims\n";

/* Marks of the views we create start here, far above any exporter's marks. */
#define VIEW_MARK_BASE ((uintmax_t)1 << 40)

/*
 * Blobs larger than this are treated as binary files (dropped, or kept
 * unchanged), as Git treats files above core.bigFileThreshold (512 MiB
 * by default) as binary: a lexer needs the whole content and its view in
 * memory at once, and no source file is this large.  A fixed size, not
 * one derived from --max-held: the token history must not depend on the
 * memory a run was given.
 */
#define BIG_BLOB ((size_t)512 << 20)

/*
 * The first bytes of a blob are kept as they arrive, to classify it
 * without reading it back: content_is_binary() looks at 8000 bytes,
 * language_for_shebang() at 256.
 */
#define HEAD_BYTES 8000

/* A buffer that grew past this for one blob is freed, not kept for the next. */
#define KEPT_BUFFER ((size_t)1 << 20)

struct filter_options {
	int identity, keep_other, stats, progress, quiet;
	unsigned view_flags;
	const char *source;
	const char *import_state, *export_state;
	const char *graft_root, *graft_parent;
	uintmax_t progress_total;
	const char *date_format;        /* --date-format, as fast-import's */
	int dates_raw;                  /* it is raw: dates are checked (see check_ident()) */
	int import_marks_given;         /* --import-marks[-if-exists] */
	uintmax_t max_held;             /* --max-held */
	int max_held_given;
};

struct input {
	char buf[1 << 16];
	size_t pos, end;
	int eof;
	uintmax_t line;       /* lines consumed so far */
	uintmax_t bytes;      /* bytes consumed so far */
	int seekable;         /* stdin is a regular file (see input_file_check()) */
	off_t base;           /* its offset when the stream began */
};

struct output {
	char buf[1 << 20];
	size_t len;
	uintmax_t bytes;
};

/*
 * The blob being read: its first bytes and its size; its content goes to
 * the spill store or is left in the input file.
 */
struct blob_sink {
	int in_input;
	off_t off;            /* where it starts in the input */
	size_t len;
	char head[HEAD_BYTES];
	size_t head_len;
};

struct filter_stats {
	uintmax_t commits, tags, resets, blobs_in, views_out, raw_out, dropped;
	uintmax_t fetched, fetched_bytes, fetched_ahead;  /* blobs read from the source */
	uintmax_t files[64], tokens[64];
	const struct language *langs[64];
};

/*
 * The filter: all that a run knows, handed to every function that needs
 * any of it.  filter_init() makes a fresh one; filter_release() frees
 * what it holds and makes it fresh again.
 */
struct filter {
	struct filter_options opt;
	struct input in;
	struct output out;

	/* the command being parsed */
	struct strbuf cmd;              /* its current line, without the LF */
	int cmd_pending;                /* cmd was read but not yet handled */
	int cmd_eof;                    /* the last read_command() hit the end */
	uintmax_t cmd_line;             /* the input line number of cmd */
	char command_name[64];          /* the top-level command, for errors */
	struct strbuf *comment_sink;    /* see read_command() */
	struct strbuf text;             /* the commit, tag, reset or alias written */
	struct strbuf data;             /* the bytes of a data command */
	struct strbuf path, path2;      /* the paths of a file command */
	/* the mark of the commit or tag being parsed: it names nothing until that is done */
	uintmax_t defining_mark;
	/*
	 * The commit being parsed is on a notes ref (refs/notes/...): its
	 * files are notes, kept unchanged, and those named by an annotated
	 * commit's original id become N commands (see flush_notes()).
	 * notes_inline: it has inline data, and is written as it is.
	 */
	int on_notes_ref, notes_inline;
	struct blob **named;            /* the blobs it names, released after it */
	size_t nr_named, alloc_named;

	/* objects */
	struct hashtable marks;         /* every mark defined, by number */
	struct hashtable oids;          /* the blobs without a mark, by object id */
	struct hashtable orig_commits;  /* the marks of commits by their original ids */
	struct {
		struct blob **v;        /* every blob record, to be freed */
		size_t nr, alloc;
	} blobs;
	uintmax_t next_view_mark;

	/* the blobs' contents */
	struct spill held;              /* the stream's blobs, until their commits */
	struct blob_sink sink;
	struct strbuf readback;         /* a held blob read back whole */
	/*
	 * A blob the stream names by id only (git fast-export --no-data, as
	 * convert runs it) is read from the source when a commit names it,
	 * into this one buffer, and tokenized at once: it is not held, since
	 * it can be read again in the rare case that a later path wants it
	 * in another language.  A history's worth of blobs thus costs no
	 * allocation and no fresh pages each, and no more memory than its
	 * largest blob.
	 */
	struct {
		struct strbuf buf;
		struct blob *owner;     /* whose content buf holds, NULL: none */
	} fetched;
	struct strbuf view;             /* the view being made */
	int source_has_blobs;           /* -1: not known yet (see blob_release()) */

	/* the source repository (see catfile_request()) */
	struct catfile source_ahead, source_now, *source_answer;
	/*
	 * The blobs that M lines ahead of the parser name by object id,
	 * asked of git cat-file ahead (tokenize/prefetch.h): from the first
	 * blob a commit names by id that is read from the source (a stream
	 * of git fast-export --no-data), until a blob command shows that the
	 * stream carries its blobs.
	 */
	struct prefetch prefetch;

	/* refs and paths */
	struct smap refs_written, refs_held, ref_dirs;  /* see ref_written(), ref_hold() */
	/*
	 * The files the token tree lacks because they were dropped (no lexer
	 * claims them, or binary): a rename or copy of one has nothing to
	 * move.
	 */
	struct smap dropped_paths;

	/* the notes commits waiting (see queue_notes_commit()) */
	struct strbuf notes_queue;
	uintmax_t *queued_marks;
	size_t nr_queued_marks, alloc_queued_marks;

	/* what the stream asked */
	int seen_done_feature, wrote_done_feature, seen_data_command;
	int relative_marks;             /* feature relative-marks */

	time_t last_progress, start_time;
	struct filter_stats stats;
};

/* ---- input ------------------------------------------------------------ */

/* Where an error is, for die(): the input line, and the command it is in. */
static void position(const void *data, char *buf, size_t size)
{
	const struct filter *f = data;

	if (f->command_name[0])
		snprintf(buf, size, "line %ju: %s: ", f->cmd_line, f->command_name);
	else
		snprintf(buf, size, "line %ju: ", f->cmd_line);
}

static int fill(struct filter *f)
{
	ssize_t n;

	if (f->in.eof)
		return 0;
	do {
		n = read(0, f->in.buf, sizeof(f->in.buf));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		die_errno("read error on stdin");
	if (!n) {
		f->in.eof = 1;
		return 0;
	}
	f->in.pos = 0;
	f->in.end = (size_t)n;
	prefetch_scan(&f->prefetch, f->in.buf, f->in.end, f->in.bytes);
	return 1;
}

/* Reads one line into sb (without its LF); 0 at end of input. */
static int read_line(struct filter *f, struct strbuf *sb)
{
	int any = 0;

	strbuf_reset(sb);
	for (;;) {
		char *nl;
		size_t take;

		if (f->in.pos == f->in.end && !fill(f))
			break;
		any = 1;
		nl = memchr(f->in.buf + f->in.pos, '\n', f->in.end - f->in.pos);
		take = nl ? (size_t)(nl - (f->in.buf + f->in.pos)) : f->in.end - f->in.pos;
		strbuf_add(sb, f->in.buf + f->in.pos, take);
		f->in.pos += take;
		f->in.bytes += take;
		if (nl) {
			f->in.pos++;
			f->in.bytes++;
			f->in.line++;
			return 1;
		}
	}
	if (any)
		die("unexpected end of input in the middle of the line '%.*s'",
		    (int)(sb->len < 64 ? sb->len : 64), sb->buf);
	return 0;
}

static void out_line(struct filter *f, const struct strbuf *sb);
static void start_data_commands(struct filter *f);

/*
 * Reads the next command line into f->cmd, unless one is pending; 0 at
 * the end of input.  fast-import ignores a line that begins with '#'
 * wherever it reads a command line, inside commands too: such comments
 * go to the command being built (f->comment_sink; NULL: straight to the
 * output).
 */
static int read_command(struct filter *f)
{
	if (f->cmd_pending) {
		f->cmd_pending = 0;
		return !f->cmd_eof;
	}
	for (;;) {
		f->cmd_line = f->in.line + 1;
		f->cmd_eof = !read_line(f, &f->cmd);
		/* fast-import would read the line up to it: a ref, a path, a mark cut short */
		if (!f->cmd_eof && memchr(f->cmd.buf, '\0', f->cmd.len))
			die("NUL byte in the command line '%.*s'", 64, f->cmd.buf);
		if (f->cmd_eof || f->cmd.buf[0] != '#')
			return !f->cmd_eof;
		if (f->comment_sink) {
			strbuf_addbuf(f->comment_sink, &f->cmd);
			strbuf_addch(f->comment_sink, '\n');
		} else {
			/* fast-import counts a comment as a data command: no feature or option after it */
			start_data_commands(f);
			out_line(f, &f->cmd);
		}
	}
}

/* Leave f->cmd for the next read_command(). */
static void unread_command(struct filter *f)
{
	f->cmd_pending = 1;
}

/* Copies the command line into sb unchanged, as the command being written has it. */
static void copy_line(struct filter *f, struct strbuf *sb)
{
	strbuf_add(sb, f->cmd.buf, f->cmd.len);
	strbuf_addch(sb, '\n');
}

static int peek_byte(struct filter *f)
{
	if (f->in.pos == f->in.end && !fill(f))
		return EOF;
	return (unsigned char)f->in.buf[f->in.pos];
}

static void skip_optional_lf(struct filter *f)
{
	if (peek_byte(f) == '\n') {
		f->in.pos++;
		f->in.bytes++;
		f->in.line++;
	}
}

static int skip_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t l = strlen(prefix);

	if (strncmp(s, prefix, l))
		return 0;
	*rest = s + l;
	return 1;
}

/* Parses a decimal count strictly: digits only, no sign, no overflow. */
static uintmax_t parse_count(const char *s, const char *what)
{
	uintmax_t v;
	const char *end;

	if (!*s)
		die("%s: missing count", what);
	if (!(end = scan_decimal(s, &v)))
		die("%s: count '%s' is too large", what, s);
	if (*end)
		die("%s: invalid count '%s'", what, s);
	return v;
}

/*
 * Where the bytes of a data command go, piece by piece as they arrive;
 * and what is told their count first.
 */
typedef void data_fn(void *ctx, const char *p, size_t n);
typedef void data_begin_fn(void *ctx, uintmax_t count, int counted);

/*
 * The data command (the current line): both the exact-count and the
 * delimited form.  The bytes are handed to add() as they arrive, in
 * pieces of at most the input buffer (a line, for the delimited form), so
 * a lying count allocates nothing before the bytes are there and a large
 * blob can go to the spill file instead of memory.  begin(), if given, is
 * told the count before the bytes (counted 0: the delimited form).
 */
static void parse_data_to(struct filter *f, data_begin_fn *begin, data_fn *add, void *ctx)
{
	const char *arg;

	if (!skip_prefix(f->cmd.buf, "data ", &arg))
		die("expected 'data', got '%.*s'", 64, f->cmd.buf);
	if (arg[0] == '<' && arg[1] == '<') {
		struct strbuf delim = STRBUF_INIT, l = STRBUF_INIT;

		strbuf_addstr(&delim, arg + 2);
		if (!delim.len)
			die("data: empty delimiter");
		if (begin)
			begin(ctx, 0, 0);
		for (;;) {
			if (!read_line(f, &l))
				die("data: end of input before the delimiter '%s'", delim.buf);
			if (l.len == delim.len && !memcmp(l.buf, delim.buf, l.len))
				break;
			add(ctx, l.buf, l.len);
			add(ctx, "\n", 1);
		}
		strbuf_release(&delim);
		strbuf_release(&l);
	} else {
		uintmax_t want = parse_count(arg, "data"), got = 0;

		if (begin)
			begin(ctx, want, 1);
		while (want) {
			size_t take;

			if (f->in.pos == f->in.end && !fill(f))
				die("data: end of input after %ju of %ju bytes", got, got + want);
			take = f->in.end - f->in.pos;
			if (take > want)
				take = (size_t)want;
			add(ctx, f->in.buf + f->in.pos, take);
			f->in.line += count_newlines(f->in.buf + f->in.pos, take);
			f->in.pos += take;
			f->in.bytes += take;
			want -= take;
			got += take;
		}
	}
	skip_optional_lf(f);
}

static void add_to_strbuf(void *ctx, const char *p, size_t n)
{
	strbuf_add(ctx, p, n);
}

/* The data command's bytes into out (messages, inline files: held whole). */
static void parse_data(struct filter *f, struct strbuf *out)
{
	strbuf_reset(out);
	parse_data_to(f, NULL, add_to_strbuf, out);
}

/* ---- output ----------------------------------------------------------- */

static void write_fully(const char *p, size_t n)
{
	if (write_in_full(1, p, n) < 0)
		die_errno("write error on stdout");
}

static void out_flush(struct filter *f)
{
	write_fully(f->out.buf, f->out.len);
	f->out.len = 0;
}

static void out_write(struct filter *f, const void *p, size_t n)
{
	f->out.bytes += n;
	if (n > sizeof(f->out.buf) - f->out.len) {
		out_flush(f);
		if (n >= sizeof(f->out.buf)) {
			write_fully(p, n);
			return;
		}
	}
	memcpy(f->out.buf + f->out.len, p, n);
	f->out.len += n;
}

static void out_str(struct filter *f, const char *s)
{
	out_write(f, s, strlen(s));
}

static void out_buf(struct filter *f, const struct strbuf *sb)
{
	out_write(f, sb->buf, sb->len);
}

static void out_line(struct filter *f, const struct strbuf *sb)
{
	out_buf(f, sb);
	out_write(f, "\n", 1);
}

static void out_line_printf(struct filter *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void out_line_printf(struct filter *f, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(buf) - 1)
		BUG("out_line_printf: line too long");
	buf[n++] = '\n';
	out_write(f, buf, (size_t)n);
}

static void out_data(struct filter *f, const void *p, size_t n)
{
	char hdr[40];

	snprintf(hdr, sizeof(hdr), "data %zu\n", n);
	out_str(f, hdr);
	out_write(f, p, n);
	out_write(f, "\n", 1);
}

/* ---- objects: marks, blobs, views -------------------------------------- */

/*
 * OBJ_IMPORTED: a mark of an earlier run, from a marks file of git
 * fast-import (--import-marks): only its object id in the destination is
 * known (kept as the entry's original_oid), not its kind.
 */
enum object_kind { OBJ_BLOB = 1, OBJ_COMMIT, OBJ_TAG, OBJ_IMPORTED };

struct view {
	struct view *next;
	const struct language *lang;
	uintmax_t mark;
};

struct blob {
	unsigned char oid[20];
	uintmax_t mark;          /* the input mark, 0 if none */
	struct held content;     /* its size, and its bytes while held (tokenize/spill.h) */
	off_t input_off;         /* where the content is in the input file, when in_input */
	unsigned in_input : 1;   /* held where it is in the input file */
	unsigned binary : 1;
	unsigned raw_written : 1;
	unsigned named : 1;      /* named by the commit being parsed */
	unsigned classified : 1; /* binary and shebang are known */
	const struct language *shebang;
	struct view *views;
	char *original_oid;
};

struct mark_entry {
	uintmax_t mark;          /* 0: a free slot */
	enum object_kind kind;
	struct blob *blob;
	char *original_oid;      /* of commits and tags, when the stream names it */
	int queued;              /* a notes commit not yet written */
};

static size_t hash_mark(uintmax_t m)
{
	m ^= m >> 33;
	m *= 0xff51afd7ed558ccdULL;
	m ^= m >> 33;
	return (size_t)m;
}

static size_t mark_entry_hash(const void *entry)
{
	return hash_mark(((const struct mark_entry *)entry)->mark);
}

static int mark_entry_in_use(const void *entry)
{
	return ((const struct mark_entry *)entry)->mark != 0;
}

static int mark_entry_matches(const void *entry, const void *mark)
{
	return ((const struct mark_entry *)entry)->mark == *(const uintmax_t *)mark;
}

static const struct hashtable_type mark_table = {
	sizeof(struct mark_entry), 1024, mark_entry_hash, mark_entry_in_use, NULL, NULL
};

/* An object id's hash: its first bytes, as uniform as any hash of them. */
static size_t hash_oid(const unsigned char *oid)
{
	size_t h;

	memcpy(&h, oid, sizeof(h));
	return h;
}

/* The blobs without a mark, by object id. */
struct oid_entry {
	struct blob *blob;       /* NULL: a free slot */
};

static size_t oid_entry_hash(const void *entry)
{
	return hash_oid(((const struct oid_entry *)entry)->blob->oid);
}

static int oid_entry_matches(const void *entry, const void *oid)
{
	return !memcmp(((const struct oid_entry *)entry)->blob->oid, oid, 20);
}

static int oid_entry_in_use(const void *entry)
{
	return ((const struct oid_entry *)entry)->blob != NULL;
}

static const struct hashtable_type oid_table = {
	sizeof(struct oid_entry), 1024, oid_entry_hash, oid_entry_in_use, NULL, NULL
};

/* The sets of names (smap, values unused): a path, whole, LF and all when it was C-quoted. */
static int set_has(const struct smap *set, const char *name)
{
	return smap_get(set, name) != NULL;
}

static void set_add(struct smap *set, const char *name)
{
	smap_put(set, name, 0, NULL);
}

static void set_remove(struct smap *set, const char *name)
{
	smap_remove(set, name);
}

/*
 * The marks of commits by their original ids, for notes: a notes tree
 * names the commits it annotates by their original ids, which the token
 * repository does not have.
 */
struct orig_commit {
	unsigned char oid[20];
	uintmax_t mark;          /* 0: a free slot */
};

static size_t orig_commit_hash(const void *entry)
{
	return hash_oid(((const struct orig_commit *)entry)->oid);
}

static int orig_commit_in_use(const void *entry)
{
	return ((const struct orig_commit *)entry)->mark != 0;
}

static int orig_commit_matches(const void *entry, const void *oid)
{
	return !memcmp(((const struct orig_commit *)entry)->oid, oid, 20);
}

static const struct hashtable_type orig_commit_table = {
	sizeof(struct orig_commit), 1024, orig_commit_hash, orig_commit_in_use, NULL, NULL
};

static void orig_commit_add(struct filter *f, const char *hex, uintmax_t mark)
{
	unsigned char oid[20];
	struct orig_commit *e;
	int isnew;

	if (hex_to_oid(hex, strlen(hex), oid))
		return;
	e = hashtable_insert(&f->orig_commits, &orig_commit_table, hash_oid(oid),
			     orig_commit_matches, oid, &isnew);
	memcpy(e->oid, oid, 20);
	e->mark = mark;
}

/* The mark of the commit a notes path (fanned out or not) names, or 0. */
static uintmax_t note_target(struct filter *f, const char *path)
{
	char hex[41];
	unsigned char oid[20];
	const struct orig_commit *e;
	size_t n = 0;

	for (; *path && n < 41; path++)
		if (*path != '/')
			hex[n++] = *path;
	if (*path || n != 40 || hex_to_oid(hex, 40, oid))
		return 0;
	e = hashtable_find(&f->orig_commits, &orig_commit_table, hash_oid(oid), orig_commit_matches, oid);
	return e ? e->mark : 0;
}

static struct blob *new_blob(struct filter *f)
{
	ALLOC_GROW(f->blobs.v, f->blobs.nr + 1, f->blobs.alloc);
	return f->blobs.v[f->blobs.nr++] = xcalloc(1, sizeof(struct blob));
}

static struct mark_entry *mark_lookup(struct filter *f, uintmax_t mark)
{
	return hashtable_find(&f->marks, &mark_table, hash_mark(mark), mark_entry_matches, &mark);
}

static void flush_notes(struct filter *f);

/*
 * The mark a command names as its argument.  A queued notes commit is
 * written before the command that names it, so that fast-import has the
 * mark declared; a notes commit naming one waits in the queue with it.
 */
static struct mark_entry *mark_named(struct filter *f, uintmax_t mark)
{
	struct mark_entry *e = mark_lookup(f, mark);

	if (e && e->queued && !f->on_notes_ref)
		flush_notes(f);
	return e;
}

static void mark_define(struct filter *f, uintmax_t mark, enum object_kind kind, struct blob *blob)
{
	int isnew;
	struct mark_entry *e = hashtable_insert(&f->marks, &mark_table, hash_mark(mark),
						mark_entry_matches, &mark, &isnew);

	/* fast-import lets a mark be defined again: the last one counts */
	if (!isnew) {
		free(e->original_oid);
		e->original_oid = NULL;
		e->queued = 0;
	}
	e->mark = mark;
	e->kind = kind;
	e->blob = blob;
}

static struct blob *oid_lookup(struct filter *f, const unsigned char *oid)
{
	struct oid_entry *e = hashtable_find(&f->oids, &oid_table, hash_oid(oid), oid_entry_matches, oid);

	return e ? e->blob : NULL;
}

static void oid_insert(struct filter *f, struct blob *b)
{
	int isnew;
	struct oid_entry *e = hashtable_insert(&f->oids, &oid_table, hash_oid(b->oid),
					       oid_entry_matches, b->oid, &isnew);

	if (isnew)
		e->blob = b;
}

/* ---- held blobs: in memory up to --max-held, past it in the spill file --- */

/*
 * A blob is held from its blob command until the commit that names it is
 * written (for good, when no source repository can give it again), in
 * the spill store (tokenize/spill.h): in memory up to --max-held, past it
 * in the spill file.  A spilled blob is read back (pread) when a view is
 * made of it, and copied out in pieces when it is written unchanged.
 */

/* n bytes at off of b's content, from the spill file or the input file. */
static void content_read(struct filter *f, const struct blob *b, size_t off, char *buf, size_t n)
{
	off_t at = b->input_off + (off_t)off;
	long r;

	if (!b->in_input) {
		spill_read(&f->held, &b->content, off, buf, n);
		return;
	}
	r = pread_in_full(0, buf, n, at);
	if (r < 0)
		die_errno("cannot read stdin again at offset %jd", (intmax_t)at);
	if ((size_t)r < n)
		die("stdin is shorter than it was: the input file changed while it was read");
}

static void blob_classify(struct blob *b, const char *head, size_t head_len, size_t len)
{
	b->binary = len > BIG_BLOB || content_is_binary(head, head_len);
	b->shebang = language_for_shebang(head, head_len);
	b->classified = 1;
}

/*
 * When stdin is a regular file (a saved stream), a blob's content can be
 * read again where it is: such a blob is held as its offset in the
 * input, neither in memory nor in the spill file.  Copying a whole
 * history's blobs into fresh memory, only to tokenize each once, costs
 * more than the reads again.
 */
static void input_file_check(struct filter *f)
{
	struct stat st;
	off_t at;

	f->in.seekable = 0;
	if (fstat(0, &st) || !S_ISREG(st.st_mode))
		return;
	at = lseek(0, 0, SEEK_CUR);
	if (at < 0)
		return;
	f->in.seekable = 1;
	f->in.base = at;
}

/* A blob of count bytes (if counted) begins. */
static void sink_reset(struct filter *f, uintmax_t count, int counted)
{
	f->sink.in_input = 0;
	f->sink.len = f->sink.head_len = 0;
	if (counted && count > SIZE_MAX)
		die("data: %ju bytes do not fit in memory on this machine", count);
}

static void sink_begin(struct filter *f, uintmax_t count, int counted)
{
	sink_reset(f, count, counted);
	spill_begin(&f->held, count, counted);
}

/*
 * A blob of the stream begins: in a saved stream, it stays where it is
 * (in the delimited form too: its lines are the bytes of the file up to
 * the delimiter).
 */
static void sink_begin_stream(void *ctx, uintmax_t count, int counted)
{
	struct filter *f = ctx;

	if (!f->in.seekable) {
		sink_begin(f, count, counted);
		return;
	}
	sink_reset(f, count, counted);
	f->sink.in_input = 1;
	f->sink.off = f->in.base + (off_t)f->in.bytes;
}

static void sink_add(void *ctx, const char *p, size_t n)
{
	struct filter *f = ctx;

	if (f->sink.head_len < HEAD_BYTES) {
		size_t k = n < HEAD_BYTES - f->sink.head_len ? n : HEAD_BYTES - f->sink.head_len;

		memcpy(f->sink.head + f->sink.head_len, p, k);
		f->sink.head_len += k;
	}
	if (n > SIZE_MAX - f->sink.len)
		die("data: the blob does not fit in memory on this machine");
	f->sink.len += n;
	if (!f->sink.in_input)
		spill_add(&f->held, p, n);
}

/* The blob is complete: b gets its content, held in memory or spilled. */
static void sink_end(struct filter *f, struct blob *b)
{
	blob_classify(b, f->sink.head, f->sink.head_len, f->sink.len);
	if (f->sink.in_input) {
		b->content.len = f->sink.len;
		b->input_off = f->sink.off;
		b->in_input = 1;
		f->sink.in_input = 0;
	} else {
		spill_end(&f->held, &b->content);
	}
}

/* The Git object id of b, read back in pieces if it is spilled. */
static void blob_oid(struct filter *f, struct blob *b)
{
	char chunk[1 << 16];
	struct sha1_ctx c;
	char hdr[32];
	int n;
	size_t done, len = b->content.len;

	if (b->content.data) {
		git_blob_oid(b->content.data, len, b->oid);
		return;
	}
	n = snprintf(hdr, sizeof(hdr), "blob %zu", len);
	sha1_init(&c);
	sha1_update(&c, hdr, (size_t)n + 1);
	for (done = 0; done < len;) {
		size_t k = len - done < sizeof(chunk) ? len - done : sizeof(chunk);

		content_read(f, b, done, chunk, k);
		sha1_update(&c, chunk, k);
		done += k;
	}
	sha1_final(&c, b->oid);
}

/*
 * The whole content of b in memory, read back from the spill file if it
 * is there: valid until blob_content_done().
 */
static const char *blob_content(struct filter *f, struct blob *b)
{
	size_t len = b->content.len;

	if (b->content.data)
		return b->content.data;
	if (f->fetched.owner == b)
		return f->fetched.buf.buf;
	strbuf_reset(&f->readback);
	strbuf_grow(&f->readback, len);
	content_read(f, b, 0, f->readback.buf, len);
	strbuf_setlen(&f->readback, len);
	return f->readback.buf;
}

static void blob_content_done(struct filter *f)
{
	if (f->readback.alloc > KEPT_BUFFER)
		strbuf_release(&f->readback);
}

/* Whether b's content is held, in memory or in the spill file. */
static int blob_held(const struct blob *b)
{
	return b->content.data || b->content.spilled;
}

/* ---- reading objects the stream names by id: git cat-file --batch ----- */

/*
 * Two of them in the source: one asked ahead for the blobs that the M
 * lines past the parser name (f->source_ahead, see f->prefetch), in
 * order, and one asked for what no guess foresaw (f->source_now: a blob
 * read before, wanted in a new language; a tree; a tag's target), so
 * that such a question does not throw away the answers waiting ahead of
 * it.  The answer being read is on f->source_answer.
 */
static void catfile_stop_all(struct filter *f)
{
	catfile_stop(&f->source_ahead);
	catfile_stop(&f->source_now);
}

/* Whether the blob oid was read already: it is wanted again only in a new language. */
static int blob_known(const unsigned char *oid, void *data)
{
	struct blob *b = oid_lookup(data, oid);

	return b && b->classified;
}

/*
 * Asks the source repository for object oid of the given type (unless
 * it was asked ahead), and asks ahead for the blobs of the next lines;
 * returns its size, whose bytes follow on f->source_answer.  Dies with a
 * message that names the object.
 */
static size_t catfile_request(struct filter *f, const unsigned char *oid, const char *want)
{
	char hex[41], type[16];
	size_t size = 0;
	enum catfile_answer a;

	oid_to_hex(oid, hex);
#ifdef TOKSTREAM_FUZZ
	die("object %s is not in the stream (the fuzzing build reads no repository)", hex);
#endif
	f->source_ahead.dir = f->source_now.dir = f->opt.source;
	if (catfile_was_asked(&f->source_ahead, oid)) {
		f->source_answer = &f->source_ahead;
		f->stats.fetched_ahead++;
	} else {
		f->source_answer = &f->source_now;
	}
	prefetch_ask(&f->prefetch, &f->source_ahead, f->in.bytes, blob_known, f);
	/*
	 * A cat-file that could not start in the source (no repository there)
	 * exits at once: whether the flush or the answer finds it gone first
	 * is a race, and both mean the same to the user.
	 */
	a = catfile_flush(&f->source_ahead) ? CATFILE_FAILED :
		catfile_get(f->source_answer, oid, type, &size);
	if (a == CATFILE_FAILED)
		die("object %s is not in the stream and cannot be read from the source "
		    "repository (run in it, or give --source=GITDIR)", hex);
	if (a == CATFILE_MISSING)
		die("object %s is not in the stream, nor in the source repository%s%s",
		    hex, f->opt.source ? " " : "", f->opt.source ? f->opt.source : "");
	if (strcmp(type, want))
		die("object %s is not a %s", hex, want);
	return size;
}

/* Reads n bytes of the answer into buf, or dies naming the object. */
static void catfile_content(struct filter *f, const unsigned char *oid, void *buf, size_t n)
{
	char hex[41];

	if (!catfile_read(f->source_answer, buf, n))
		return;
	oid_to_hex(oid, hex);
	die("git cat-file: short read of %s", hex);
}

static void catfile_content_end(struct filter *f, const unsigned char *oid)
{
	char hex[41];

	if (!catfile_end(f->source_answer))
		return;
	oid_to_hex(oid, hex);
	die("git cat-file: short read of %s", hex);
}

/* Reads object oid of the given type from the source repository into *data (malloc'd). */
static void catfile_read_object(struct filter *f, const unsigned char *oid, const char *type,
				char **data, size_t *len)
{
	*len = catfile_request(f, oid, type);
	*data = xmalloc(*len + 1);
	catfile_content(f, oid, *data, *len);
	catfile_content_end(f, oid);
}

/*
 * Make sure b's content is at hand (it was released, or never in the
 * stream): read from the source into the fetched buffer, or, when it is
 * larger than --max-held allows in memory, in pieces as a blob of the
 * stream is, to be held or spilled.
 */
static void blob_load(struct filter *f, struct blob *b)
{
	char chunk[1 << 16];
	size_t left;

	if (blob_held(b) || b->in_input || f->fetched.owner == b)
		return;
	if (!f->opt.identity)
		prefetch_start(&f->prefetch, f->in.buf + f->in.pos, f->in.end - f->in.pos, f->in.bytes);
	left = catfile_request(f, b->oid, "blob");
	f->stats.fetched++;
	f->stats.fetched_bytes += left;
	if (left <= f->held.max_held && left <= BIG_BLOB) {
		f->fetched.owner = NULL;
		strbuf_reset(&f->fetched.buf);
		strbuf_grow(&f->fetched.buf, left);
		catfile_content(f, b->oid, f->fetched.buf.buf, left);
		catfile_content_end(f, b->oid);
		strbuf_setlen(&f->fetched.buf, left);
		b->content.len = left;
		blob_classify(b, f->fetched.buf.buf, left < HEAD_BYTES ? left : HEAD_BYTES, left);
		f->fetched.owner = b;
		return;
	}
	sink_begin(f, left, 1);
	while (left) {
		size_t k = left < sizeof(chunk) ? left : sizeof(chunk);

		catfile_content(f, b->oid, chunk, k);
		sink_add(f, chunk, k);
		left -= k;
	}
	catfile_content_end(f, b->oid);
	sink_end(f, b);
}

/*
 * A released blob is read again from the source repository if a later
 * commit needs a view in another language.  Whether the source has the
 * stream's blobs is asked once, of the first blob released
 * (f->source_has_blobs): a stream with no such repository at hand
 * (another exporter's, or one run outside the source) keeps every
 * blob's content instead.
 */
static void blob_release(struct filter *f, struct blob *b)
{
	if (b->in_input || !blob_held(b))
		return;  /* it costs no memory (or it came from the source) */
#ifdef TOKSTREAM_FUZZ
	f->source_has_blobs = 0;
#endif
	if (f->source_has_blobs < 0) {
		char hex[41];
		const char *argv[] = { "git", "cat-file", "-e", hex, NULL };

		oid_to_hex(b->oid, hex);
		f->source_has_blobs = !run_capture_quiet(argv, f->opt.source, NULL);
	}
	if (!f->source_has_blobs)
		return;
	spill_forget(&f->held, &b->content);
}

/* ---- writing blobs: raw copies and views ------------------------------- */

/* The data reference by which the output names b unchanged. */
static void raw_ref(struct blob *b, struct strbuf *ref)
{
	char hex[41];

	if (b->mark) {
		strbuf_addf(ref, ":%ju", b->mark);
	} else {
		oid_to_hex(b->oid, hex);
		strbuf_addstr(ref, hex);
	}
}

/* A data command with b's content, copied in pieces if it is spilled. */
static void out_blob(struct filter *f, struct blob *b)
{
	char chunk[1 << 16];
	char hdr[40];
	size_t done, len = b->content.len;

	if (b->content.data || f->fetched.owner == b) {
		out_data(f, blob_content(f, b), len);
		return;
	}
	snprintf(hdr, sizeof(hdr), "data %zu\n", len);
	out_str(f, hdr);
	for (done = 0; done < len;) {
		size_t k = len - done < sizeof(chunk) ? len - done : sizeof(chunk);

		content_read(f, b, done, chunk, k);
		out_write(f, chunk, k);
		done += k;
	}
	out_write(f, "\n", 1);
}

static void write_raw(struct filter *f, struct blob *b)
{
	char hdr[64];

	if (b->raw_written)
		return;
	blob_load(f, b);
	out_str(f, "blob\n");
	if (b->mark) {
		snprintf(hdr, sizeof(hdr), "mark :%ju\n", b->mark);
		out_str(f, hdr);
	}
	if (b->original_oid) {
		out_str(f, "original-oid ");
		out_str(f, b->original_oid);
		out_str(f, "\n");
	}
	out_blob(f, b);
	b->raw_written = 1;
	f->stats.raw_out++;
}

static void count_language(struct filter *f, const struct language *lang, size_t tokens)
{
	size_t i;

	for (i = 0; i < 64 && f->stats.langs[i] && f->stats.langs[i] != lang; i++)
		;
	if (i == 64)
		return;
	f->stats.langs[i] = lang;
	f->stats.files[i]++;
	f->stats.tokens[i] += tokens;
}

/* The view in lang of len bytes at data, into f->view, counted for --stats. */
static void build_view(struct filter *f, const struct language *lang, const char *data, size_t len)
{
	size_t tokens;

	strbuf_reset(&f->view);
	tokens = view_build(&f->view, lang, data, len, f->opt.view_flags);
	f->stats.views_out++;
	count_language(f, lang, tokens);
}

/* The mark of b's view in lang, writing the view first if it is new. */
static uintmax_t write_view(struct filter *f, struct blob *b, const struct language *lang)
{
	struct view *v;
	char hdr[64];

	for (v = b->views; v; v = v->next)
		if (v->lang == lang)
			return v->mark;
	blob_load(f, b);
	build_view(f, lang, blob_content(f, b), b->content.len);
	blob_content_done(f);
	v = xmalloc(sizeof(*v));
	v->lang = lang;
	v->mark = f->next_view_mark++;
	v->next = b->views;
	b->views = v;
	snprintf(hdr, sizeof(hdr), "blob\nmark :%ju\n", v->mark);
	out_str(f, hdr);
	out_data(f, f->view.buf, f->view.len);
	if (f->view.alloc > (1 << 24))
		strbuf_release(&f->view);
	return v->mark;
}

/* ---- paths ----------------------------------------------------------- */

/*
 * A path must be canonical: no empty component (a leading, doubled or
 * trailing slash), no "." or ".." component.  Git trees cannot hold them
 * (fast-import accepts "." and ".." and makes trees fsck rejects).  The
 * empty path, the root, is left to the commands that allow it.
 */
static void check_path(const char *path)
{
	const char *p = path;

	if (!*p)
		return;
	for (;;) {
		size_t l = strcspn(p, "/");

		if (!l)
			die("path '%s' has an empty component", path);
		if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			die("path '%s' has a '%.*s' component", path, (int)l, p);
		if (!p[l])
			return;
		p += l + 1;
	}
}

/*
 * Reads a path as fast-import does: the line is a C string to it, so a
 * NUL ends the path and the rest of the line is not looked at.  A path
 * that starts with '"' and unquotes cleanly is the quoted one; one that
 * does not (no closing quote, a bad escape) is taken literally, as
 * fast-import takes it.
 */
static void parse_path(const char **p, const char *end, struct strbuf *sb, int stop_at_space)
{
	const char *s = *p, *nul = memchr(s, '\0', (size_t)(end - s));
	const char *lim = nul ? nul : end, *q = NULL;

	strbuf_reset(sb);
	if (s < lim && *s == '"') {
		const char *err;

		q = unquote_c_style(sb, s, lim, &err);
		if (!q)
			strbuf_reset(sb);
	}
	if (q) {
		s = q;
	} else {
		const char *e = stop_at_space ? memchr(s, ' ', (size_t)(lim - s)) : NULL;

		if (!e)
			e = lim;
		strbuf_add(sb, s, (size_t)(e - s));
		s = e;
	}
	if (s == lim && nul)
		s = end;
	/* an escaped NUL ends the path too: fast-import uses it as a C string */
	strbuf_setlen(sb, strlen(sb->buf));
	check_path(sb->buf);
	*p = s;
}

/* Appends path to sb, C-quoted, as fast-import accepts in every position. */
static void quote_path(struct strbuf *sb, const char *path, size_t len)
{
	size_t i;

	strbuf_addch(sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)path[i];

		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\%03o", c);
		else
			strbuf_addch(sb, c);
	}
	strbuf_addch(sb, '"');
}

enum treatment { DROP, RAW, VIEW };

/* How the file at path with content b goes into the token tree. */
static enum treatment treatment_of(struct filter *f, const char *path, struct blob *b,
				   const struct language **lang)
{
	*lang = NULL;
	if (f->opt.identity || is_git_control_file(path))
		return RAW;
	*lang = language_for_path(path);
	if (*lang == &language_none)
		return DROP;
	if (!*lang)
		*lang = b->shebang;
	if (*lang && b->binary)
		*lang = NULL;
	if (*lang)
		return VIEW;
	return f->opt.keep_other ? RAW : DROP;
}

/*
 * What the path alone says of the treatment: two paths with the same
 * class treat the same content the same way.
 */
static const void *path_class(struct filter *f, const char *path)
{
	static const char raw_class;

	if (f->opt.identity || is_git_control_file(path))
		return &raw_class;
	return language_for_path(path);
}

/* ---- references to objects ---------------------------------------------- */

static uintmax_t parse_mark_ref(const char *s, const char **end)
{
	uintmax_t v;
	const char *p;

	if (*s < '0' || *s > '9')
		die("invalid mark ':%s'", s);
	if (!(p = scan_decimal(s, &v)))
		die("mark ':%s' is too large", s);
	if (!v)
		die("mark :0 is not a mark");
	*end = p;
	return v;
}

static void flush_notes(struct filter *f);
static void check_refname(const char *name, const char *what);
static int ref_written(struct filter *f, const char *name);
static struct blob *blob_for_oid(struct filter *f, const unsigned char *oid);

/*
 * The blob a tag names by object id, or NULL if it names no blob.  git
 * fast-export --no-data names a tagged blob so: one the stream named
 * already is ours; any other is asked of the source repository, as its
 * content will be, since the destination has only what the output wrote.
 */
static struct blob *blob_of_tag_target(struct filter *f, const char *hex)
{
	unsigned char oid[20];
	struct strbuf type = STRBUF_INIT;
	const char *argv[] = { "git", "cat-file", "-t", hex, NULL };
	struct blob *b;
	int is_blob;

	if (strlen(hex) != 40 || hex_to_oid(hex, 40, oid))
		return NULL;
	b = oid_lookup(f, oid);
	if (b)
		return b;
#ifdef TOKSTREAM_FUZZ
	return NULL;
#endif
	is_blob = !run_capture_quiet(argv, f->opt.source, &type) && !strcmp(type.buf, "blob\n");
	strbuf_release(&type);
	return is_blob ? blob_for_oid(f, oid) : NULL;
}

/*
 * A commit-ish in from, merge, reset, tag and N: a mark, an object id or a
 * ref name.  A mark of the stream must name a commit, as fast-import
 * requires, except in a tag (any_object), which may tag a blob or a tag;
 * returns the blob it names, if it names one of ours.  What only the
 * destination can resolve passes unchecked: a mark of an earlier run
 * (fast-import's --import-marks, which the filter may not be shown), and
 * any name other than a mark, which fast-import resolves as a branch of
 * the stream or as a revision of the repository it writes
 * ("refs/heads/main", "main~2").
 */
static struct blob *check_commitish(struct filter *f, const char *s, int any_object)
{
	const char *end;
	struct mark_entry *e;
	uintmax_t mark;

	if (!*s)
		die("missing commit-ish");
	if (*s != ':') {
		size_t n = strlen(s);

		if ((n == 40 || n == 64) && strspn(s, "0123456789abcdef") == n)
			return any_object ? blob_of_tag_target(f, s) : NULL;
		return NULL;
	}
	mark = parse_mark_ref(s + 1, &end);
	if (mark == f->defining_mark)
		die("%s names the object being defined", s);
	if (*end)
		die("invalid mark reference '%s'", s);
	e = mark_named(f, mark);
	if (!e || e->kind == OBJ_IMPORTED)
		return NULL;
	if (!any_object && e->kind != OBJ_COMMIT)
		die("%s names a %s, not a commit", s, e->kind == OBJ_BLOB ? "blob" : "tag");
	return e->kind == OBJ_BLOB ? e->blob : NULL;
}

/*
 * A ref name as git check-ref-format takes it (fast-import refuses the
 * others): no control characters, space, ~ ^ : ? * [ or backslash, no
 * "..", "@{" or "//", no component that starts with "." or ends with
 * ".lock", and no "/" or "." at the end.
 */
static void check_refname(const char *name, const char *what)
{
	const char *p, *comp = name;

	if (!*name || !strcmp(name, "@"))
		die("%s: invalid ref name '%s'", what, name);
	for (p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f || strchr(" ~^:?*[\\", c) ||
		    (c == '.' && p[1] == '.') || (c == '@' && p[1] == '{') ||
		    (c == '/' && p[1] == '/'))
			die("%s: invalid ref name '%s'", what, name);
		if (c == '/' || !p[1]) {
			const char *e = c == '/' ? p : p + 1;

			if (*comp == '.' || (e - comp >= 5 && !strncmp(e - 5, ".lock", 5)))
				die("%s: invalid ref name '%s'", what, name);
			comp = p + 1;
		}
	}
	if (p[-1] == '/' || p[-1] == '.')
		die("%s: invalid ref name '%s'", what, name);
}

static void define_mark_line(struct filter *f, const char *line, enum object_kind kind,
			     struct blob *blob, uintmax_t *mark)
{
	const char *arg, *end;

	if (!skip_prefix(line, "mark :", &arg))
		die("invalid mark line '%s'", line);
	*mark = parse_mark_ref(arg, &end);
	if (*end)
		die("invalid mark line '%s'", line);
	if (*mark >= VIEW_MARK_BASE)
		die("mark :%ju is too large (marks must be below %ju)", *mark, VIEW_MARK_BASE);
	mark_define(f, *mark, kind, blob);
}

/* ---- commands ------------------------------------------------------------ */

static void name_blob(struct filter *f, struct blob *b)
{
	if (b->named)
		return;
	b->named = 1;
	ALLOC_GROW(f->named, f->nr_named + 1, f->alloc_named);
	f->named[f->nr_named++] = b;
}

static void release_named(struct filter *f)
{
	size_t i;

	for (i = 0; i < f->nr_named; i++) {
		f->named[i]->named = 0;
		blob_release(f, f->named[i]);
	}
	f->nr_named = 0;
	/* a large blob's buffer is not kept for the small ones that follow */
	if (f->fetched.buf.alloc > KEPT_BUFFER * 16) {
		f->fetched.owner = NULL;
		strbuf_release(&f->fetched.buf);
	}
}

static void parse_blob(struct filter *f)
{
	struct blob *b = new_blob(f);

	prefetch_stop(&f->prefetch);	/* this stream carries its blobs */
	read_command(f);
	if (!strncmp(f->cmd.buf, "mark ", 5)) {
		define_mark_line(f, f->cmd.buf, OBJ_BLOB, b, &b->mark);
		read_command(f);
	}
	if (!strncmp(f->cmd.buf, "original-oid ", 13)) {
		b->original_oid = xstrdup(f->cmd.buf + 13);
		read_command(f);
	}
	if (f->cmd_eof)
		die("end of input before the blob's data");
	parse_data_to(f, sink_begin_stream, sink_add, f);
	sink_end(f, b);
	/*
	 * git fast-export's original-oid of a blob is its object id; other
	 * exporters' identifiers are not, so compute it.
	 */
	if (!b->original_oid || hex_to_oid(b->original_oid, strlen(b->original_oid), b->oid))
		blob_oid(f, b);
	if (!b->mark)
		oid_insert(f, b);
	f->stats.blobs_in++;
	/*
	 * An unchanged copy needs no path: --identity writes every blob as
	 * it comes, so that fast-import's marks hold it even if no commit
	 * names it (a later run may, by mark).
	 */
	if (f->opt.identity) {
		write_raw(f, b);
		if (!b->in_input)
			spill_forget(&f->held, &b->content);
	}
}

/*
 * The record of the blob with this id: one the stream gave without a
 * mark, or one outside the stream, which exists in the destination
 * already (for unchanged copies) and whose content is read lazily.
 */
static struct blob *blob_for_oid(struct filter *f, const unsigned char *oid)
{
	struct blob *b = oid_lookup(f, oid);

	if (!b) {
		b = new_blob(f);
		memcpy(b->oid, oid, 20);
		/* unchanged copies of it exist in the destination only in identity mode */
		b->raw_written = f->opt.identity;
		oid_insert(f, b);
	}
	return b;
}

/*
 * The mark a data reference ":N" names; NULL if neither the stream nor
 * --import-marks defined it (fast-import may have it from a marks file
 * of its own command line).
 */
static struct mark_entry *mark_of_dataref(struct filter *f, const char *ref, size_t len)
{
	char tmp[64];
	const char *end;
	struct mark_entry *e;

	if (len >= sizeof(tmp))
		die("invalid mark reference '%.*s'", (int)len, ref);
	memcpy(tmp, ref + 1, len - 1);
	tmp[len - 1] = '\0';
	e = mark_named(f, parse_mark_ref(tmp, &end));
	if (*end)
		die("invalid mark reference '%.*s'", (int)len, ref);
	return e;
}

/* A mark a data reference names that this run has no blob for: NULL if none. */
static struct mark_entry *foreign_dataref(struct filter *f, const char *ref, size_t len,
					  int *unknown)
{
	struct mark_entry *e;

	*unknown = 0;
	if (ref[0] != ':')
		return NULL;
	e = mark_of_dataref(f, ref, len);
	*unknown = !e;
	return e && e->kind == OBJ_IMPORTED ? e : NULL;
}

/*
 * The blob that e, the mark a data reference ":N" names, is (NULL: a mark
 * this run does not know).  A mark of an earlier run names a blob outside
 * the stream, which gets a record of its own, loaded lazily.
 */
static struct blob *blob_of_mark(struct filter *f, const struct mark_entry *e, const char *ref,
				 size_t len)
{
	unsigned char oid[20];

	if (!e)
		die("mark %.*s is not defined: a blob of an earlier run cannot be "
		    "tokenized without its content (give --import-marks the marks "
		    "file git fast-import reads, and --source a repository that has the blob)",
		    (int)len, ref);
	if (e->kind == OBJ_IMPORTED) {
		if (hex_to_oid(e->original_oid, strlen(e->original_oid), oid))
			die("mark %.*s of the marks file has no object id this filter reads", (int)len, ref);
		return blob_for_oid(f, oid);
	}
	if (e->kind != OBJ_BLOB)
		die("mark %.*s is not a blob", (int)len, ref);
	return e->blob;
}

/*
 * The blob a data reference names.  A reference by object id to a blob
 * outside the stream gets a record of its own, loaded lazily.
 */
static struct blob *resolve_dataref(struct filter *f, const char *ref, size_t len)
{
	unsigned char oid[20];

	if (ref[0] == ':')
		return blob_of_mark(f, mark_of_dataref(f, ref, len), ref, len);
	if (hex_to_oid(ref, len, oid))
		die("invalid data reference '%.*s'", (int)len, ref);
	return blob_for_oid(f, oid);
}

/* Appends to the commit the file command that puts content b at path. */
static void add_file(struct filter *f, struct strbuf *commit, const char *mode,
		     const char *path_text, size_t path_text_len, const char *path, struct blob *b)
{
	const struct language *lang;

	if (!b->classified)
		blob_load(f, b);
	switch (treatment_of(f, path, b, &lang)) {
	case DROP:
		set_add(&f->dropped_paths, path);
		/* the path may hold a view from before: it must go */
		strbuf_addstr(commit, "D ");
		strbuf_add(commit, path_text, path_text_len);
		strbuf_addch(commit, '\n');
		f->stats.dropped++;
		return;
	case RAW:
		set_remove(&f->dropped_paths, path);
		write_raw(f, b);
		strbuf_addf(commit, "M %s ", mode);
		raw_ref(b, commit);
		break;
	case VIEW:
		set_remove(&f->dropped_paths, path);
		strbuf_addf(commit, "M %s :%ju", mode, write_view(f, b, lang));
		break;
	}
	strbuf_addch(commit, ' ');
	strbuf_add(commit, path_text, path_text_len);
	strbuf_addch(commit, '\n');
}

static void expand_tree(struct filter *f, struct strbuf *commit, const unsigned char *tree_oid,
			const char *prefix);

/* An M command, as parse_filemodify() reads it. */
struct filemodify {
	unsigned mode;              /* as fast-import reads it: 644 and 755 are 100644 and 100755 */
	char mode_text[16];         /* as the input writes it (in octal if that is longer) */
	const char *ref;            /* the data reference, in f->cmd */
	size_t ref_len;
	const char *path_text;      /* the path as the input writes it, to the end of f->cmd */
	size_t path_text_len;
	const char *path;           /* the path it names */
};

/* The path as the input writes it, after "D " or "M MODE REF ". */
static void add_path_line(struct strbuf *commit, const char *prefix, const struct filemodify *m)
{
	strbuf_addstr(commit, prefix);
	strbuf_add(commit, m->path_text, m->path_text_len);
	strbuf_addch(commit, '\n');
}

/* M with inline data: the view (or the content) goes inline too. */
static void filemodify_inline(struct filter *f, struct strbuf *commit, const struct filemodify *m)
{
	struct blob tmp = { 0 };
	const struct language *lang;
	enum treatment t;
	/* the next command line, the data, takes the place of the one the path is in */
	char *path_text = xmalloc(m->path_text_len + 1);

	f->notes_inline |= f->on_notes_ref;
	memcpy(path_text, m->path_text, m->path_text_len);
	path_text[m->path_text_len] = '\0';
	if (m->mode == 0160000 || m->mode == 040000)
		die("M: inline data for mode %s", m->mode_text);
	if (!read_command(f))
		die("M: end of input before inline data");
	parse_data(f, &f->data);
	blob_classify(&tmp, f->data.buf, f->data.len, f->data.len);
	t = m->mode == 0120000 ? RAW : treatment_of(f, m->path, &tmp, &lang);
	if (t == DROP) {
		set_add(&f->dropped_paths, m->path);
		strbuf_addf(commit, "D %s\n", path_text);
		f->stats.dropped++;
	} else {
		set_remove(&f->dropped_paths, m->path);
		strbuf_addf(commit, "M %s inline %s\n", m->mode_text, path_text);
		if (t == VIEW) {
			build_view(f, lang, f->data.buf, f->data.len);
			strbuf_addf(commit, "data %zu\n", f->view.len);
			strbuf_addbuf(commit, &f->view);
		} else {
			strbuf_addf(commit, "data %zu\n", f->data.len);
			strbuf_addbuf(commit, &f->data);
		}
		strbuf_addch(commit, '\n');
	}
	free(path_text);
}

/* Whether the file goes into the token tree unchanged, whatever its path says. */
static int filemodify_is_raw(struct filter *f, const struct filemodify *m)
{
	return m->mode == 0120000 || f->opt.identity || f->on_notes_ref;
}

/* M of a blob of this run: the file command for its view, or for it unchanged. */
static void filemodify_blob(struct filter *f, struct strbuf *commit, const struct filemodify *m,
			    struct blob *b)
{
	if (filemodify_is_raw(f, m)) {
		write_raw(f, b);
		strbuf_addf(commit, "M %s ", m->mode_text);
		raw_ref(b, commit);
		add_path_line(commit, " ", m);
	} else {
		add_file(f, commit, m->mode_text, m->path_text, m->path_text_len, m->path, b);
	}
	name_blob(f, b);
}

/* M of a mark ":N". */
static void filemodify_mark(struct filter *f, struct strbuf *commit, const struct filemodify *m)
{
	struct mark_entry *e;

	if (m->mode == 040000) {
		if (!f->opt.identity)
			die("M 040000: a tree must be named by its object id to be tokenized");
		copy_line(f, commit);
		return;
	}
	e = mark_of_dataref(f, m->ref, m->ref_len);
	if (m->mode == 0160000) {
		/* a gitlink: the mark must be a commit's, as fast-import checks it */
		if (e && e->kind != OBJ_COMMIT && e->kind != OBJ_IMPORTED)
			die("M 160000: mark %.*s is not a commit", (int)m->ref_len, m->ref);
		copy_line(f, commit);
		return;
	}
	if ((!e || e->kind == OBJ_IMPORTED) && filemodify_is_raw(f, m)) {
		/* a blob of an earlier run, copied unchanged: fast-import has it */
		copy_line(f, commit);
		return;
	}
	filemodify_blob(f, commit, m, blob_of_mark(f, e, m->ref, m->ref_len));
}

/* M of an object id. */
static void filemodify_oid(struct filter *f, struct strbuf *commit, const struct filemodify *m)
{
	unsigned char oid[20];

	if (m->mode == 040000 && f->opt.identity) {
		copy_line(f, commit);
		return;
	}
	if (hex_to_oid(m->ref, m->ref_len, oid)) {
		if (m->mode == 040000)
			die("M 040000: a tree must be named by its object id to be tokenized");
		die("invalid data reference '%.*s'", (int)m->ref_len, m->ref);
	}
	if (m->mode == 0160000) {
		/* a gitlink names a commit of another repository: untouched */
		copy_line(f, commit);
		return;
	}
	if (m->mode == 040000) {
		/* a whole tree of the source: each of its files, as if named here */
		add_path_line(commit, "D ", m);
		expand_tree(f, commit, oid, m->path);
		return;
	}
	filemodify_blob(f, commit, m, blob_for_oid(f, oid));
}

/* The mode of an M command, in octal, in 16 bits as fast-import reads it (0100644 is 100644). */
static void parse_mode(const char *p, const char *sp, struct filemodify *m)
{
	const char *q;

	m->mode = 0;
	for (q = p; q < sp; q++) {
		if (*q < '0' || *q > '7')
			die("M: invalid mode '%.*s'", (int)(sp - p), p);
		m->mode = (uint16_t)((m->mode << 3) | (unsigned)(*q - '0'));
	}
	if (m->mode == 0644 || m->mode == 0755)
		m->mode |= 0100000;
	if (m->mode != 0100644 && m->mode != 0100755 && m->mode != 0120000 &&
	    m->mode != 0160000 && m->mode != 040000)
		die("M: invalid mode '%.*s'", (int)(sp - p), p);
	if (sp - p < (ptrdiff_t)sizeof(m->mode_text)) {
		memcpy(m->mode_text, p, (size_t)(sp - p));
		m->mode_text[sp - p] = '\0';
	} else {
		snprintf(m->mode_text, sizeof(m->mode_text), "%o", m->mode);
	}
}

/*
 * M MODE REF PATH: the mode and the path are read here, the data
 * reference by one function for each kind, as fast-import's
 * file_change_m() reads them.
 */
static void parse_filemodify(struct filter *f, struct strbuf *commit, struct strbuf *path)
{
	const char *p = f->cmd.buf + 2, *end = f->cmd.buf + f->cmd.len, *sp;
	struct filemodify m;

	sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || sp == p)
		die("M: invalid mode in '%.*s'", 80, f->cmd.buf);
	parse_mode(p, sp, &m);
	m.ref = sp + 1;
	sp = memchr(m.ref, ' ', (size_t)(end - m.ref));
	if (!sp)
		die("M: missing path in '%.*s'", 80, f->cmd.buf);
	m.ref_len = (size_t)(sp - m.ref);
	m.path_text = sp + 1;
	m.path_text_len = (size_t)(end - m.path_text);
	p = m.path_text;
	parse_path(&p, end, path, 0);
	if (p != end)
		die("M: garbage after the path");
	m.path = path->buf;

	if (m.ref_len == 6 && !memcmp(m.ref, "inline", 6))
		filemodify_inline(f, commit, &m);
	else if (m.ref[0] == ':')
		filemodify_mark(f, commit, &m);
	else
		filemodify_oid(f, commit, &m);
}

/*
 * M 040000 names a whole tree of the source: put each of its files in
 * the token tree as if the stream had named it.
 */
static void expand_tree(struct filter *f, struct strbuf *commit, const unsigned char *tree_oid,
			const char *prefix)
{
	char *buf, *p, *end;
	size_t len;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	catfile_read_object(f, tree_oid, "tree", &buf, &len);
	for (p = buf, end = buf + len; p < end;) {
		char *sp = memchr(p, ' ', (size_t)(end - p)), *nul;
		unsigned long mode;
		const unsigned char *oid;

		if (!sp || !(nul = memchr(sp, '\0', (size_t)(end - sp))) || end - nul < 21)
			die("corrupt tree object");
		mode = strtoul(p, NULL, 8);
		oid = (const unsigned char *)nul + 1;
		strbuf_reset(&path);
		if (*prefix) {
			strbuf_addstr(&path, prefix);
			strbuf_addch(&path, '/');
		}
		strbuf_add(&path, sp + 1, (size_t)(nul - sp - 1));
		strbuf_reset(&text);
		quote_path(&text, path.buf, path.len);
		if (mode == 040000) {
			expand_tree(f, commit, oid, path.buf);
		} else if (mode == 0160000) {
			char hex[41];

			oid_to_hex(oid, hex);
			strbuf_addf(commit, "M 160000 %s %s\n", hex, text.buf);
		} else {
			struct blob *b = blob_for_oid(f, oid);

			if (mode == 0120000) {
				write_raw(f, b);
				strbuf_addstr(commit, "M 120000 ");
				raw_ref(b, commit);
				strbuf_addf(commit, " %s\n", text.buf);
			} else {
				add_file(f, commit, mode & 0111 ? "100755" : "100644",
					 text.buf, text.len, path.buf, b);
			}
			name_blob(f, b);
		}
		p = nul + 21;
	}
	free(buf);
	strbuf_release(&path);
	strbuf_release(&text);
}

static void parse_filedelete(struct filter *f, struct strbuf *commit, struct strbuf *path)
{
	const char *p = f->cmd.buf + 2, *end = f->cmd.buf + f->cmd.len;

	parse_path(&p, end, path, 0);
	if (p != end)
		die("D: garbage after the path");
	copy_line(f, commit);
}

/* C and R: they pass through when both paths get the same treatment. */
static void parse_copy_rename(struct filter *f, struct strbuf *commit, struct strbuf *src,
			      struct strbuf *dst)
{
	const char *p = f->cmd.buf + 2, *end = f->cmd.buf + f->cmd.len;
	char op = f->cmd.buf[0];
	const char *dst_text;

	parse_path(&p, end, src, 1);
	if (p >= end || *p != ' ')
		die("%c: missing destination path", op);
	dst_text = ++p;
	parse_path(&p, end, dst, 0);
	if (p != end)
		die("%c: garbage after the destination path", op);
	if (path_class(f, src->buf) != path_class(f, dst->buf)) {
		const struct language *a = language_for_path(src->buf), *b = language_for_path(dst->buf);

		die("%s '%s' to '%s' changes how the file is tokenized (%s to %s); "
		    "export without -M and -C so the stream carries the content",
		    op == 'R' ? "renaming" : "copying", src->buf, dst->buf,
		    is_git_control_file(src->buf) ? "unchanged" : a ? a->name : "by content",
		    is_git_control_file(dst->buf) ? "unchanged" : b ? b->name : "by content");
	}
	if (set_has(&f->dropped_paths, src->buf)) {
		/* not in the token tree: what lands at dst has no view either */
		strbuf_addf(commit, "D %.*s\n", (int)(end - dst_text), dst_text);
		set_add(&f->dropped_paths, dst->buf);
		if (op == 'R')
			set_remove(&f->dropped_paths, src->buf);
		return;
	}
	copy_line(f, commit);
}

/* N: notes are kept unchanged. */
static void parse_notemodify(struct filter *f, struct strbuf *commit)
{
	const char *ref = f->cmd.buf + 2, *sp = strchr(ref, ' ');
	size_t ref_len;

	if (!sp)
		die("N: missing commit-ish");
	ref_len = (size_t)(sp - ref);
	check_commitish(f, sp + 1, 0);
	if (ref_len == 6 && !memcmp(ref, "inline", 6)) {
		f->notes_inline |= f->on_notes_ref;
		copy_line(f, commit);
		if (!read_command(f))
			die("N: end of input before inline data");
		parse_data(f, &f->data);
		strbuf_addf(commit, "data %zu\n", f->data.len);
		strbuf_addbuf(commit, &f->data);
		strbuf_addch(commit, '\n');
	} else {
		struct blob *b;
		int unknown;

		if (foreign_dataref(f, ref, ref_len, &unknown) || unknown) {
			/* a note of an earlier run: unchanged, fast-import has it */
			copy_line(f, commit);
			return;
		}
		b = resolve_dataref(f, ref, ref_len);
		write_raw(f, b);
		strbuf_addstr(commit, "N ");
		raw_ref(b, commit);
		strbuf_addf(commit, " %s\n", sp + 1);
		name_blob(f, b);
	}
}

static _Noreturn void die_back_channel(const char *what)
{
	die("'%s' needs fast-import's back channel (--cat-blob-fd), "
	    "which a filter between two processes cannot offer", what);
}

static int is_back_channel_command(const char *s)
{
	return !strncmp(s, "cat-blob ", 9) || !strncmp(s, "ls ", 3) ||
	       !strncmp(s, "get-mark ", 9);
}

static void back_channel_check(struct filter *f)
{
	if (is_back_channel_command(f->cmd.buf)) {
		char name[16];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(f->cmd.buf, " "), f->cmd.buf);
		die_back_channel(name);
	}
}

/*
 * The refs this stream has given commits (f->refs_written): a commit
 * without "from" on any other ref is a root.  A reset without "from"
 * empties the branch: fast-import makes its next commit a root again.
 */
static int ref_written(struct filter *f, const char *name)
{
	return set_has(&f->refs_written, name);
}

static void ref_mark_written(struct filter *f, const char *name)
{
	set_add(&f->refs_written, name);
}

static void ref_unmark_written(struct filter *f, const char *name)
{
	set_remove(&f->refs_written, name);
}

/*
 * The refs that will hold an object at the end (f->refs_held: branches
 * with a commit, tags), and how many of them each directory above them
 * holds (f->ref_dirs): no ref may be the directory of another
 * ("refs/heads/a" and "refs/heads/a/b"), which fast-import finds only
 * when it writes the refs, at the very end.
 */
static void ref_dirs_count(struct filter *f, const char *name, int up)
{
	struct strbuf dir = STRBUF_INIT;
	const char *p;

	for (p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		int isnew;
		size_t *n;

		strbuf_reset(&dir);
		strbuf_add(&dir, name, (size_t)(p - name));
		n = smap_put(&f->ref_dirs, dir.buf, 0, &isnew);
		*n = up ? *n + 1 : *n - 1;
	}
	strbuf_release(&dir);
}

/* name will hold an object: it must be no directory of another such ref, nor under one. */
static void ref_hold(struct filter *f, const char *name)
{
	struct strbuf dir = STRBUF_INIT;
	size_t *n = smap_get(&f->ref_dirs, name);
	const char *p;

	if (set_has(&f->refs_held, name))
		return;
	if (n && *n)
		die("ref '%s' would be the directory of other refs of the stream", name);
	for (p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		strbuf_reset(&dir);
		strbuf_add(&dir, name, (size_t)(p - name));
		if (set_has(&f->refs_held, dir.buf))
			die("ref '%s' would be under ref '%s' of the stream", name, dir.buf);
	}
	strbuf_release(&dir);
	set_add(&f->refs_held, name);
	ref_dirs_count(f, name, 1);
}

/* name is emptied (a reset without from): fast-import writes no such ref. */
static void ref_release(struct filter *f, const char *name)
{
	if (!set_has(&f->refs_held, name))
		return;
	set_remove(&f->refs_held, name);
	ref_dirs_count(f, name, 0);
}

static int graft_applies(struct filter *f, const char *original_oid)
{
	if (!f->opt.graft_parent)
		return 0;
	return !f->opt.graft_root || !strcmp(f->opt.graft_root, original_oid);
}

/* The date formats fast-import knows: 1 for raw, whose dates the filter can check */
static int date_format_checks(const char *f, const char *what)
{
	if (!strcmp(f, "raw"))
		return 1;
	if (strcmp(f, "raw-permissive") && strcmp(f, "rfc2822") && strcmp(f, "now"))
		die("%s: unknown date format '%s' (git fast-import would refuse it)", what, f);
	return 0;
}

/*
 * An identity as fast-import takes it: "[NAME ]<EMAIL> WHEN".  Checked
 * here so that the filter fails where fast-import would, with the line
 * number of the input.  WHEN is checked only when the filter was told the
 * format is raw ("SECONDS +ZONE"), by its own --date-format=raw: the
 * filter needs no date, and a format fast-import alone was given
 * (--date-format=raw-permissive, rfc2822), which also overrides the
 * stream's feature date-format, would take what the raw format refuses;
 * told nothing, the filter leaves WHEN for fast-import to judge.  As
 * fast-import reads them, raw seconds are an unsigned long and the zone
 * at most 1400 (the digits of +HHMM as one number).
 */
static void check_ident(struct filter *f, const char *s, const char *what)
{
	const char *lt = s + strcspn(s, "<>"), *gt, *p;
	uintmax_t v;

	if (*lt != '<')
		die("%s: missing < in the identity", what);
	if (lt != s && lt[-1] != ' ')
		die("%s: missing space before < in the identity", what);
	gt = lt + 1 + strcspn(lt + 1, "<>");
	if (*gt != '>')
		die("%s: missing > in the identity", what);
	if (gt[1] != ' ')
		die("%s: missing space after > in the identity", what);
	if (!f->opt.dates_raw)
		return;
	p = gt + 2;
	if (*p < '0' || *p > '9' || !(p = scan_decimal(p, &v)) || v > ULONG_MAX ||
	    p[0] != ' ' || (p[1] != '+' && p[1] != '-') || p[2] < '0' || p[2] > '9' ||
	    !(p = scan_decimal(p + 2, &v)) || v > 1400 || *p)
		die("%s: invalid date '%s' (expected SECONDS +ZONE)", what, gt + 2);
}

/*
 * Commits on notes refs wait until the end (or until something names
 * them), in f->notes_queue: git fast-export writes them before the commits they annotate,
 * whose marks their notes must name, for fast-import to file each note
 * under the token commit's id.  Their file commands are then rewritten:
 * "M MODE REF PATH" becomes "N REF :MARK" and "D PATH" a null-note N
 * when PATH is the original id of a commit of the stream.
 */

static void queue_add(struct filter *f, const char *p, size_t n)
{
	strbuf_add(&f->notes_queue, &n, sizeof(n));
	strbuf_add(&f->notes_queue, p, n);
}

static void queue_notes_commit(struct filter *f, const struct strbuf *commit, size_t files_start,
			       uintmax_t mark)
{
	/* a record: the header (up to the message and parents), then the file commands */
	queue_add(f, commit->buf, files_start);
	queue_add(f, commit->buf + files_start, commit->len - files_start);
	if (mark) {
		mark_lookup(f, mark)->queued = 1;
		ALLOC_GROW(f->queued_marks, f->nr_queued_marks + 1, f->alloc_queued_marks);
		f->queued_marks[f->nr_queued_marks++] = mark;
	}
}

static const char *queue_take(const char *p, const char **data, size_t *n)
{
	memcpy(n, p, sizeof(*n));
	*data = p + sizeof(*n);
	return *data + *n;
}

static void flush_notes(struct filter *f)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = f->notes_queue.buf, *end = f->notes_queue.buf + f->notes_queue.len;
	size_t i;

	for (i = 0; i < f->nr_queued_marks; i++)
		mark_lookup(f, f->queued_marks[i])->queued = 0;
	f->nr_queued_marks = 0;
	while (p < end) {
		const char *head, *files, *l, *files_end, *nl;
		size_t head_len, files_len;

		p = queue_take(p, &head, &head_len);
		p = queue_take(p, &files, &files_len);
		out_write(f, head, head_len);
		files_end = files + files_len;
		for (l = files; l < files_end; l = nl + 1) {
			uintmax_t target = 0;
			const char *path = NULL, *ref = NULL;

			nl = memchr(l, '\n', (size_t)(files_end - l));
			if (!nl)
				BUG("a queued notes commit without its last LF");
			strbuf_reset(&line);
			strbuf_add(&line, l, (size_t)(nl - l));
			if (!strncmp(line.buf, "M ", 2)) {
				ref = strchr(line.buf + 2, ' ');
				path = ref ? strchr(ref + 1, ' ') : NULL;
				if (path)
					target = note_target(f, path + 1);
			} else if (!strncmp(line.buf, "D ", 2)) {
				target = note_target(f, line.buf + 2);
			}
			if (target && path) {
				out_str(f, "N ");
				out_write(f, ref + 1, (size_t)(path - ref - 1));
				out_line_printf(f, " :%ju", target);
			} else if (target) {
				out_line_printf(f, "N 0000000000000000000000000000000000000000 :%ju", target);
			} else {
				out_line(f, &line);
			}
		}
		out_str(f, "\n");
	}
	strbuf_reset(&f->notes_queue);
	strbuf_release(&line);
}

/*
 * The mark line of a commit or tag, if it has one: the mark it defines,
 * which names nothing until the command is done (0: none).
 */
static uintmax_t parse_defining_mark(struct filter *f, struct strbuf *text, enum object_kind kind)
{
	uintmax_t mark;

	if (strncmp(f->cmd.buf, "mark ", 5))
		return 0;
	define_mark_line(f, f->cmd.buf, kind, NULL, &mark);
	f->defining_mark = mark;
	copy_line(f, text);
	read_command(f);
	return mark;
}

/*
 * The identity line called name (author, committer, tagger), if it comes
 * next: checked and copied; whether it came.
 */
static int parse_ident_line(struct filter *f, struct strbuf *text, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(f->cmd.buf, name, n) || f->cmd.buf[n] != ' ')
		return 0;
	check_ident(f, f->cmd.buf + n + 1, name);
	copy_line(f, text);
	read_command(f);
	return 1;
}

static void parse_commit(struct filter *f)
{
	struct strbuf *commit = &f->text, original = STRBUF_INIT, ref = STRBUF_INIT;
	uintmax_t mark;
	int has_parent = 0;
	size_t files_start;

	strbuf_reset(commit);
	check_refname(f->cmd.buf + 7, "commit");
	ref_hold(f, f->cmd.buf + 7);
	f->comment_sink = commit;
	strbuf_addstr(&ref, f->cmd.buf + 7);
	f->on_notes_ref = !f->opt.identity && !strncmp(ref.buf, "refs/notes/", 11);
	copy_line(f, commit);
	read_command(f);
	mark = parse_defining_mark(f, commit, OBJ_COMMIT);
	if (!strncmp(f->cmd.buf, "original-oid ", 13)) {
		strbuf_addstr(&original, f->cmd.buf + 13);
		copy_line(f, commit);
		read_command(f);
	}
	parse_ident_line(f, commit, "author");
	if (f->cmd_eof || !parse_ident_line(f, commit, "committer"))
		die("expected 'committer', got '%.*s'", 64, f->cmd_eof ? "end of input" : f->cmd.buf);
	if (!strncmp(f->cmd.buf, "gpgsig", 6) && (f->cmd.buf[6] == ' ' || !f->cmd.buf[6])) {
		/* a signature cannot verify on the rewritten commit */
		read_command(f);
		parse_data(f, &f->data);
		read_command(f);
	}
	if (!strncmp(f->cmd.buf, "encoding ", 9)) {
		copy_line(f, commit);
		read_command(f);
	}
	if (f->cmd_eof)
		die("end of input before the commit message");
	parse_data(f, &f->data);
	strbuf_addf(commit, "data %zu\n", f->data.len);
	strbuf_addbuf(commit, &f->data);
	strbuf_addch(commit, '\n');

	if (read_command(f) && !strncmp(f->cmd.buf, "from ", 5)) {
		check_commitish(f, f->cmd.buf + 5, 0);
		copy_line(f, commit);
		read_command(f);
		has_parent = 1;
	}
	while (!f->cmd_eof && !strncmp(f->cmd.buf, "merge ", 6)) {
		check_commitish(f, f->cmd.buf + 6, 0);
		copy_line(f, commit);
		read_command(f);
		has_parent = 1;
	}
	if (mark && original.len) {
		mark_lookup(f, mark)->original_oid = xstrdup(original.buf);
		orig_commit_add(f, original.buf, mark);
	}
	if (!has_parent && !ref_written(f, ref.buf) && graft_applies(f, original.buf)) {
		/* the grafted root's tree is its own: nothing of the parent's stays */
		strbuf_addf(commit, "from %s\ndeleteall\n", f->opt.graft_parent);
		f->opt.graft_parent = NULL;
	}
	ref_mark_written(f, ref.buf);
	files_start = commit->len;
	f->notes_inline = 0;
	for (; !f->cmd_eof; read_command(f)) {
		const char *s = f->cmd.buf;

		if (s[0] == 'M' && s[1] == ' ')
			parse_filemodify(f, commit, &f->path);
		else if (s[0] == 'D' && s[1] == ' ')
			parse_filedelete(f, commit, &f->path);
		else if ((s[0] == 'R' || s[0] == 'C') && s[1] == ' ')
			parse_copy_rename(f, commit, &f->path, &f->path2);
		else if (s[0] == 'N' && s[1] == ' ')
			parse_notemodify(f, commit);
		else if (!strcmp(s, "deleteall"))
			copy_line(f, commit);
		else if (s[0] == '#')
			copy_line(f, commit);
		else if (is_back_channel_command(s))
			back_channel_check(f);
		else
			break;
	}
	/* the line that ended the commit belongs to the next command */
	if (!f->cmd_eof)
		unread_command(f);
	f->comment_sink = NULL;
	if (f->on_notes_ref && !f->notes_inline) {
		queue_notes_commit(f, commit, files_start, mark);
	} else {
		out_buf(f, commit);
		out_str(f, "\n");
	}
	release_named(f);
	f->defining_mark = 0;
	f->on_notes_ref = 0;
	f->stats.commits++;
	strbuf_release(&original);
	strbuf_release(&ref);
}

/* The start of a trailing signature block in a tag message, or len. */
static size_t signature_start(const char *msg, size_t len)
{
	static const char *const markers[] = {
		"-----BEGIN PGP SIGNATURE-----", "-----BEGIN PGP MESSAGE-----",
		"-----BEGIN SSH SIGNATURE-----", "-----BEGIN SIGNED MESSAGE-----",
	};
	size_t pos = 0, found = len;

	while (pos < len) {
		const char *nl = memchr(msg + pos, '\n', len - pos);
		size_t i;

		for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
			size_t ml = strlen(markers[i]);

			if (len - pos >= ml && !memcmp(msg + pos, markers[i], ml)) {
				found = pos;
				break;
			}
		}
		if (!nl)
			break;
		pos = (size_t)(nl - msg) + 1;
	}
	return found;
}

/* The target of a tag, or the commit of a reset; a blob a tag names is written first. */
static void copy_target(struct filter *f, struct strbuf *sb, const char *keyword,
			const char *target, int any_object)
{
	struct blob *b = check_commitish(f, target, any_object);

	if (!b) {
		copy_line(f, sb);
		return;
	}
	write_raw(f, b);
	blob_release(f, b);
	strbuf_addf(sb, "%s ", keyword);
	raw_ref(b, sb);
	strbuf_addch(sb, '\n');
}

static void parse_tag(struct filter *f)
{
	struct strbuf *tag = &f->text;
	uintmax_t mark;

	strbuf_reset(tag);
	check_refname(f->cmd.buf + 4, "tag");
	{
		struct strbuf ref = STRBUF_INIT;

		strbuf_addf(&ref, "refs/tags/%s", f->cmd.buf + 4);
		ref_hold(f, ref.buf);
		strbuf_release(&ref);
	}
	f->comment_sink = tag;
	copy_line(f, tag);
	read_command(f);
	mark = parse_defining_mark(f, tag, OBJ_TAG);
	if (strncmp(f->cmd.buf, "from ", 5) || f->cmd_eof)
		die("expected 'from', got '%.*s'", 64, f->cmd_eof ? "end of input" : f->cmd.buf);
	copy_target(f, tag, "from", f->cmd.buf + 5, 1);
	read_command(f);
	if (!strncmp(f->cmd.buf, "original-oid ", 13)) {
		if (mark)
			mark_lookup(f, mark)->original_oid = xstrdup(f->cmd.buf + 13);
		copy_line(f, tag);
		read_command(f);
	}
	parse_ident_line(f, tag, "tagger");
	if (f->cmd_eof)
		die("end of input before the tag message");
	parse_data(f, &f->data);
	f->data.len = signature_start(f->data.buf, f->data.len);
	strbuf_addf(tag, "data %zu\n", f->data.len);
	strbuf_add(tag, f->data.buf, f->data.len);
	strbuf_addch(tag, '\n');
	f->comment_sink = NULL;
	out_buf(f, tag);
	f->defining_mark = 0;
	f->stats.tags++;
}

static void parse_reset(struct filter *f)
{
	struct strbuf *reset = &f->text, ref = STRBUF_INIT;

	strbuf_reset(reset);
	check_refname(f->cmd.buf + 6, "reset");
	strbuf_addstr(&ref, f->cmd.buf + 6);
	f->comment_sink = reset;
	copy_line(f, reset);
	if (read_command(f)) {
		if (!strncmp(f->cmd.buf, "from ", 5)) {
			copy_target(f, reset, "from", f->cmd.buf + 5, 0);
			ref_mark_written(f, ref.buf);
			ref_hold(f, ref.buf);
		} else {
			ref_unmark_written(f, ref.buf);
			ref_release(f, ref.buf);
			unread_command(f);
		}
	}
	f->comment_sink = NULL;
	out_buf(f, reset);
	f->stats.resets++;
	strbuf_release(&ref);
}

static void parse_alias(struct filter *f)
{
	struct strbuf *alias = &f->text;
	uintmax_t mark;
	const char *arg, *end;
	struct mark_entry *target;

	strbuf_reset(alias);
	copy_line(f, alias);
	f->comment_sink = alias;
	if (!read_command(f) || strncmp(f->cmd.buf, "mark ", 5))
		die("expected 'mark'");
	strbuf_addstr(alias, f->cmd.buf);
	strbuf_addch(alias, '\n');
	strbuf_reset(&f->data);
	strbuf_addstr(&f->data, f->cmd.buf);
	if (!read_command(f) || !skip_prefix(f->cmd.buf, "to ", &arg))
		die("expected 'to'");
	if (*arg == ':') {
		parse_mark_ref(arg + 1, &end);
		if (*end)
			die("invalid mark reference '%s'", arg);
		target = mark_named(f, strtoumax(arg + 1, NULL, 10));
		if (!target || target->kind == OBJ_IMPORTED) {
			/* fast-import resolves it, from its own marks */
			define_mark_line(f, f->data.buf, OBJ_IMPORTED, NULL, &mark);
			mark_lookup(f, mark)->original_oid = xstrdup(target ? target->original_oid : "");
		} else {
			define_mark_line(f, f->data.buf, target->kind, target->blob, &mark);
		}
		/* aliases of blobs live here only: their users are rewritten */
		if (target && target->kind == OBJ_BLOB) {
			f->comment_sink = NULL;
			return;
		}
	} else {
		/* fast-import resolves it as it resolves a from */
		check_commitish(f, arg, 0);
		define_mark_line(f, f->data.buf, OBJ_IMPORTED, NULL, &mark);
		mark_lookup(f, mark)->original_oid = xstrdup("");
	}
	copy_line(f, alias);
	/* fast-import reads the line after "to" as an optional LF, whatever it is */
	strbuf_addch(alias, '\n');
	f->comment_sink = NULL;
	out_buf(f, alias);
}

/*
 * Reads a marks file of git fast-import (":MARK OBJECT-ID" lines): the
 * marks of an earlier run, whose kinds only the destination knows.  A
 * file named in the stream is read as fast-import would find it (under
 * the repository's info/fast-import/ after feature relative-marks); one
 * that cannot be read there leaves its marks unknown, for fast-import to
 * judge (if_missing: a missing file is no error).
 */
static void import_marks(struct filter *f, const char *path, int if_missing, int from_stream)
{
	struct strbuf where = STRBUF_INIT, line = STRBUF_INIT;
	FILE *fp;

#ifdef TOKSTREAM_FUZZ
	if (from_stream)
		return;		/* the fuzzer reads no file a stream names */
#endif
	if (from_stream && f->relative_marks && path[0] != '/') {
		struct strvec argv = STRVEC_INIT;
		int failed;

		strvec_pushl(&argv, "git", "rev-parse", "--git-path", NULL);
		strvec_pushf(&argv, "info/fast-import/%s", path);
		failed = run_capture_quiet(argv.v, NULL, &where) || !where.len;
		strvec_clear(&argv);
		if (failed) {
			strbuf_release(&where);
			return;
		}
		strbuf_setlen(&where, where.len - 1);
	} else {
		strbuf_addstr(&where, path);
	}
	fp = fopen(where.buf, "r");
	if (!fp) {
		if (from_stream || (if_missing && errno == ENOENT)) {
			strbuf_release(&where);
			return;
		}
		die_errno("cannot read the marks file '%s'", where.buf);
	}
	for (;;) {
		const char *end;
		uintmax_t mark;
		unsigned char oid[20];
		int c;

		strbuf_reset(&line);
		while ((c = getc(fp)) != EOF && c != '\n')
			strbuf_addch(&line, (char)c);
		if (!line.len && c == EOF)
			break;
		if (line.buf[0] != ':' || line.buf[1] < '1' || line.buf[1] > '9' ||
		    !(end = scan_decimal(line.buf + 1, &mark)) || *end != ' ' ||
		    (strlen(end + 1) != 40 && strlen(end + 1) != 64) ||
		    (strlen(end + 1) == 40 && hex_to_oid(end + 1, 40, oid))) {
			if (from_stream)
				break;  /* fast-import will say what is wrong with it */
			die("%s: corrupt mark line '%.*s'", where.buf, 64, line.buf);
		}
		if (mark < VIEW_MARK_BASE) {
			mark_define(f, mark, OBJ_IMPORTED, NULL);
			mark_lookup(f, mark)->original_oid = xstrdup(end + 1);
		}
	}
	if (ferror(fp))
		die_errno("cannot read the marks file '%s'", where.buf);
	fclose(fp);
	strbuf_release(&where);
	strbuf_release(&line);
}

static void parse_feature(struct filter *f)
{
	const char *name = f->cmd.buf + 8;
	static const char *const known[] = {
		"date-format=", "export-marks=", "import-marks=", "import-marks-if-exists=",
		"relative-marks", "no-relative-marks", "force", "notes", "done",
		"get-mark", "cat-blob", "ls", "alias", "rewrite-submodules-to=",
		"rewrite-submodules-from=", NULL
	};
	size_t i;

	for (i = 0; known[i]; i++) {
		size_t l = strlen(known[i]);

		if (known[i][l - 1] == '=' ? !strncmp(name, known[i], l) : !strcmp(name, known[i]))
			break;
	}
	if (!known[i])
		die("unknown feature '%s' (git fast-import would refuse it)", name);
	/*
	 * Only the format is checked: fast-import's command line, which the
	 * filter cannot see, may override the stream's (dates_raw).
	 */
	if (!strncmp(name, "date-format=", 12))
		date_format_checks(name + 12, "feature");
	if (!strcmp(name, "relative-marks"))
		f->relative_marks = 1;
	else if (!strcmp(name, "no-relative-marks"))
		f->relative_marks = 0;
	/*
	 * Marks files named in the stream pass: fast-import takes them when
	 * run with --allow-unsafe-features, which this filter cannot see.
	 * The marks of one it imports are read here too, unless the command
	 * line named its own (which fast-import then reads instead).
	 */
	if (!strncmp(name, "import-marks=", 13) && !f->opt.import_marks_given)
		import_marks(f, name + 13, 1, 1);
	else if (!strncmp(name, "import-marks-if-exists=", 23) && !f->opt.import_marks_given)
		import_marks(f, name + 23, 1, 1);

	if (!strcmp(name, "done")) {
		f->seen_done_feature = 1;
		if (f->wrote_done_feature)
			return;
		f->wrote_done_feature = 1;
	}
	if (!strcmp(name, "cat-blob") || !strcmp(name, "ls") || !strcmp(name, "get-mark"))
		die_back_channel(name);
	out_line(f, &f->cmd);
}

static void start_data_commands(struct filter *f)
{
	if (f->seen_data_command)
		return;
	f->seen_data_command = 1;
	if (!f->wrote_done_feature) {
		out_str(f, "feature done\n");
		f->wrote_done_feature = 1;
	}
}

/* ---- progress and stats --------------------------------------------------- */

static void show_progress(struct filter *f, int final)
{
	time_t now = time(NULL);

	if (!f->opt.progress || f->opt.quiet || (!final && now == f->last_progress))
		return;
	if (!f->start_time)
		f->start_time = now;
	f->last_progress = now;
	if (f->opt.progress_total) {
		uintmax_t el = (uintmax_t)(now - f->start_time);

		fprintf(stderr, "tokstream: commits %ju/%ju (%ju%%), %ju commits/s, %.1f MiB read, %ju:%02ju elapsed%s",
			f->stats.commits, f->opt.progress_total,
			f->stats.commits * 100 / f->opt.progress_total,
			el ? f->stats.commits / el : f->stats.commits, (double)f->in.bytes / (1 << 20),
			el / 60, el % 60, final ? ", done.\n" : isatty(2) ? "\r" : "\n");
		return;
	}
	fprintf(stderr, "tokstream: %ju commits, %.1f MiB read%s", f->stats.commits,
		(double)f->in.bytes / (1 << 20), final ? ", done.\n" : "\n");
}

/* The peak resident memory of this process in KiB (VmHWM), 0 if unknown. */
static uintmax_t peak_memory(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	uintmax_t kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kib = strtoumax(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

static void show_stats(struct filter *f)
{
	struct rusage self, children;
	uintmax_t peak;
	size_t i;

	if (!f->opt.stats || f->opt.quiet)
		return;
	fprintf(stderr, "tokstream: commits %ju, tags %ju, resets %ju\n",
		f->stats.commits, f->stats.tags, f->stats.resets);
	fprintf(stderr, "tokstream: blobs in %ju, token blobs out %ju, unchanged blobs out %ju, files dropped %ju\n",
		f->stats.blobs_in, f->stats.views_out, f->stats.raw_out, f->stats.dropped);
	fprintf(stderr, "tokstream: bytes in %ju, bytes out %ju\n", f->in.bytes, f->out.bytes);
	fprintf(stderr, "tokstream: held at most %ju bytes (--max-held %ju), spilled blobs %ju, spilled bytes %ju\n",
		f->held.peak, f->held.max_held, f->held.nr_spilled, f->held.bytes_spilled);
	fprintf(stderr, "tokstream: blobs read from the source %ju (%ju bytes), %ju of them asked ahead, "
		"answers asked ahead and not used %ju\n",
		f->stats.fetched, f->stats.fetched_bytes, f->stats.fetched_ahead, f->source_ahead.unused);
	if ((peak = peak_memory()))
		fprintf(stderr, "tokstream: peak memory %ju KiB\n", peak);
	/* the git commands it ran: git cat-file reading the blobs of --no-data */
	if (!getrusage(RUSAGE_SELF, &self) && !getrusage(RUSAGE_CHILDREN, &children))
		fprintf(stderr, "tokstream: cpu %.3f s, git commands it ran %.3f s\n",
			cpu_seconds(&self), cpu_seconds(&children));
	for (i = 0; i < 64 && f->stats.langs[i]; i++)
		fprintf(stderr, "tokstream: %-12s files %ju, tokens %ju\n",
			f->stats.langs[i]->name, f->stats.files[i], f->stats.tokens[i]);
}

/* ---- state across runs, for incremental conversion ------------------------ */

/*
 * What a later run needs of this one: the kind of every mark, and for
 * blobs their id (to read them again from the source) and the marks of
 * the views and the unchanged copy already in the destination.
 */
static void export_state(struct filter *f, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct atomic_file out;
	const struct mark_entry *e;
	size_t i = 0;

	atomic_file_open(&out, path);
	strbuf_addf(&sb, "tokstream-state 1\nnext-view-mark %ju\n", f->next_view_mark);
	atomic_file_write(&out, sb.buf, sb.len);
	while ((e = hashtable_next(&f->marks, &mark_table, &i))) {
		char hex[41];
		struct view *v;

		if (e->kind == OBJ_IMPORTED)
			continue;
		strbuf_reset(&sb);
		if (e->kind != OBJ_BLOB) {
			strbuf_addf(&sb, "%c %ju%s%s\n", e->kind == OBJ_COMMIT ? 'c' : 't', e->mark,
				    e->original_oid ? " " : "", e->original_oid ? e->original_oid : "");
			atomic_file_write(&out, sb.buf, sb.len);
			continue;
		}
		oid_to_hex(e->blob->oid, hex);
		/* r: unchanged copy written; x: binary; !LANG: the "#!" line's language */
		strbuf_addf(&sb, "b %ju %s %s", e->mark, hex,
			    e->blob->raw_written ? (e->blob->binary ? "rx" : "r")
						 : (e->blob->binary ? "x" : "-"));
		if (e->blob->shebang)
			strbuf_addf(&sb, " !%s", e->blob->shebang->name);
		for (v = e->blob->views; v; v = v->next)
			strbuf_addf(&sb, " %s=%ju", v->lang->name, v->mark);
		strbuf_addch(&sb, '\n');
		atomic_file_write(&out, sb.buf, sb.len);
	}
	atomic_file_commit(&out);
	strbuf_release(&sb);
}

static void import_state(struct filter *f, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uintmax_t lineno = 0;

	if (!fp) {
		if (errno == ENOENT)
			return;
		die_errno("cannot read '%s'", path);
	}
	while ((n = getline(&line, &cap, fp)) > 0) {
		char *p = line, *end;
		uintmax_t mark;

		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "tokstream-state 1"))
				die("%s: not a tokstream state file", path);
			continue;
		}
		if (!strncmp(line, "next-view-mark ", 15)) {
			f->next_view_mark = strtoumax(line + 15, &end, 10);
			if (*end || f->next_view_mark < VIEW_MARK_BASE)
				die("%s:%ju: corrupt line", path, lineno);
			continue;
		}
		if ((p[0] != 'c' && p[0] != 't' && p[0] != 'b') || p[1] != ' ')
			die("%s:%ju: corrupt line", path, lineno);
		/*
		 * git fast-export keeps only its commit marks from run to run and
		 * hands the numbers of blobs and tags out again: so do we.
		 */
		if (p[0] != 'c')
			continue;
		mark = strtoumax(p + 2, &end, 10);
		if (!mark || (*end && *end != ' '))
			die("%s:%ju: corrupt line", path, lineno);
		if (p[0] != 'b') {
			mark_define(f, mark, p[0] == 'c' ? OBJ_COMMIT : OBJ_TAG, NULL);
			if (*end == ' ') {
				mark_lookup(f, mark)->original_oid = xstrdup(end + 1);
				if (p[0] == 'c')
					orig_commit_add(f, end + 1, mark);
			}
			continue;
		} else {
			struct blob *b = new_blob(f);

			p = end + 1;
			if (hex_to_oid(p, strnlen(p, 40) == 40 ? 40 : 0, b->oid) || p[40] != ' ')
				die("%s:%ju: corrupt line", path, lineno);
			b->mark = mark;
			b->classified = 1;
			for (p += 41; *p && *p != ' '; p++) {
				if (*p == 'r')
					b->raw_written = 1;
				else if (*p == 'x')
					b->binary = 1;
				else if (*p != '-')
					die("%s:%ju: corrupt line", path, lineno);
			}
			if (p[0] == ' ' && p[1] == '!') {
				char *sp = strchr(p + 2, ' ');

				if (sp)
					*sp = '\0';
				b->shebang = language_by_name(p + 2);
				if (!b->shebang)
					die("%s:%ju: unknown language '%s'", path, lineno, p + 2);
				p = sp ? (*sp = ' ', sp) : p + strlen(p);
			}
			while (*p == ' ') {
				char *eq = strchr(++p, '='), *sp;
				struct view *v;

				if (!eq)
					die("%s:%ju: corrupt line", path, lineno);
				*eq = '\0';
				v = xmalloc(sizeof(*v));
				v->lang = language_by_name(p);
				if (!v->lang || v->lang == &language_none)
					die("%s:%ju: unknown language '%s'", path, lineno, p);
				v->mark = strtoumax(eq + 1, &sp, 10);
				if (*sp && *sp != ' ')
					die("%s:%ju: corrupt line", path, lineno);
				v->next = b->views;
				b->views = v;
				p = sp;
			}
			mark_define(f, mark, OBJ_BLOB, b);
		}
	}
	if (ferror(fp))
		die_errno("cannot read '%s'", path);
	free(line);
	fclose(fp);
}

/* ---- main --------------------------------------------------------------- */

/* "n", "nk", "nm", "ng": what fast-import takes for a size or a count */
static int is_number(const char *v, int unit)
{
	size_t n = strspn(v, "0123456789");

	if (!n)
		return 0;
	if (unit && v[n] && strchr("kKmMgG", v[n]))
		n++;
	return !v[n];
}

/*
 * An option for git (options for other programs fast-import ignores):
 * one that fast-import takes in a stream, or it would refuse the stream.
 */
static void check_option(const char *option)
{
	static const struct {
		const char *name;
		int value;       /* 0: none; 1: a count; 2: a size; 3: a path */
	} known[] = {
		{ "quiet", 0 }, { "stats", 0 }, { "allow-unsafe-features", 0 },
		{ "depth=", 1 }, { "active-branches=", 1 }, { "max-pack-size=", 2 },
		{ "big-file-threshold=", 2 }, { "export-pack-edges=", 3 },
	};
	size_t i;

	if (strncmp(option, "git ", 4))
		return;
	option += 4;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t n = strlen(known[i].name);

		if (!known[i].value ? !strcmp(option, known[i].name) :
		    !strncmp(option, known[i].name, n) &&
		    (known[i].value == 3 ? option[n] != '\0' : is_number(option + n, known[i].value == 2)))
			return;
	}
	die("option 'git %.*s' is one git fast-import does not take in a stream", 64, option);
}

static void parse_stream(struct filter *f)
{
	input_file_check(f);
	while (read_command(f)) {
		const char *s = f->cmd.buf;

		snprintf(f->command_name, sizeof(f->command_name), "%.*s",
			 (int)(strcspn(s, " ") < 40 ? strcspn(s, " ") : 40), s);
		if (!f->cmd.len) {
			continue;
		} else if (s[0] == '#') {
			out_line(f, &f->cmd);
		} else if (!strncmp(s, "feature ", 8)) {
			if (f->seen_data_command)
				die("feature command after data commands");
			parse_feature(f);
		} else if (!strncmp(s, "option ", 7)) {
			if (f->seen_data_command)
				die("option command after data commands");
			check_option(s + 7);
			out_line(f, &f->cmd);
		} else if (!strcmp(s, "blob")) {
			start_data_commands(f);
			parse_blob(f);
		} else if (!strncmp(s, "commit ", 7)) {
			start_data_commands(f);
			parse_commit(f);
		} else if (!strncmp(s, "tag ", 4)) {
			start_data_commands(f);
			parse_tag(f);
		} else if (!strncmp(s, "reset ", 6)) {
			start_data_commands(f);
			parse_reset(f);
		} else if (!strcmp(s, "alias")) {
			start_data_commands(f);
			parse_alias(f);
		} else if (!strcmp(s, "checkpoint") || !strncmp(s, "progress ", 9) ||
			   !strcmp(s, "progress")) {
			/* the frontend may wait for fast-import to act on them: now */
			start_data_commands(f);
			out_line(f, &f->cmd);
			out_flush(f);
		} else if (!strcmp(s, "done")) {
			f->command_name[0] = '\0';
			return;
		} else if (is_back_channel_command(s)) {
			back_channel_check(f);
		} else {
			die("unknown command '%.*s'", 64, s);
		}
		show_progress(f, 0);
		/* errors between commands are no command's */
		f->command_name[0] = '\0';
	}
	f->command_name[0] = '\0';
	if (f->seen_done_feature)
		die("end of input without 'done' (the stream asked for 'feature done')");
}

static void parse_options(struct filter *f, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *value;

		if (!strcmp(a, "--identity"))
			f->opt.identity = 1;
		else if (!strcmp(a, "--keep-other"))
			f->opt.keep_other = 1;
		else if (!strcmp(a, "--exact-comments"))
			f->opt.view_flags |= VIEW_EXACT_COMMENTS;
		else if (!strcmp(a, "--stats"))
			f->opt.stats = 1;
		else if (!strcmp(a, "--progress"))
			f->opt.progress = 1;
		else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
			f->opt.quiet = 1;
		else if (option_value("--source", argc, argv, &i, &f->opt.source)) {
			if (!f->opt.source || !*f->opt.source)
				usage_die(usage_text, "--source needs a git directory");
		} else if (option_value("--lang", argc, argv, &i, &value)) {
			parse_lang_option(value, usage_text);
		} else if (option_value("--graft", argc, argv, &i, &value)) {
			const char *colon = value ? strrchr(value, ':') : NULL;

			if (!value || !*value)
				usage_die(usage_text, "--graft needs [ROOT:]PARENT");
			if (colon && colon != value) {
				f->opt.graft_root = xstrdup(value);
				((char *)f->opt.graft_root)[colon - value] = '\0';
				f->opt.graft_parent = colon + 1;
			} else {
				f->opt.graft_parent = value;
			}
			if (!*f->opt.graft_parent)
				usage_die(usage_text, "--graft needs a PARENT");
		} else if (option_value("--max-held", argc, argv, &i, &value)) {
			if (!value)
				usage_die(usage_text, "--max-held needs a SIZE");
			if (parse_size(value, &f->opt.max_held))
				usage_die(usage_text, "--max-held=%s: not a size (digits, then k, m or g)", value);
			f->opt.max_held_given = 1;
		} else if (!strncmp(a, "--import-marks=", 15)) {
			import_marks(f, a + 15, 0, 0);
			f->opt.import_marks_given = 1;
		} else if (!strncmp(a, "--import-marks-if-exists=", 25)) {
			import_marks(f, a + 25, 1, 0);
			f->opt.import_marks_given = 1;
		} else if (!strcmp(a, "--done")) {
			f->seen_done_feature = 1;
		} else if (!strncmp(a, "--date-format=", 14)) {
			f->opt.date_format = a + 14;
			f->opt.dates_raw = date_format_checks(f->opt.date_format, "--date-format");
		} else if (option_value("--import-state", argc, argv, &i, &f->opt.import_state)) {
			if (!f->opt.import_state)
				usage_die(usage_text, "--import-state needs a FILE");
		} else if (option_value("--export-state", argc, argv, &i, &f->opt.export_state)) {
			if (!f->opt.export_state)
				usage_die(usage_text, "--export-state needs a FILE");
		} else if (!strncmp(a, "--progress-total=", 17)) {
			f->opt.progress_total = strtoumax(a + 17, NULL, 10);
		} else if (!strcmp(a, "--languages")) {
			language_list(stdout);
			exit(0);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			exit(0);
		} else {
			usage_die(usage_text, "unknown option '%s'", a);
		}
	}
}

/* ---- the filter's life --------------------------------------------------- */

static void filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
	strbuf_init(&f->cmd, 0);
	strbuf_init(&f->text, 0);
	strbuf_init(&f->data, 0);
	strbuf_init(&f->path, 0);
	strbuf_init(&f->path2, 0);
	strbuf_init(&f->readback, 0);
	strbuf_init(&f->fetched.buf, 0);
	strbuf_init(&f->view, 0);
	strbuf_init(&f->notes_queue, 0);
	spill_init(&f->held, 0, BIG_BLOB);
	f->next_view_mark = VIEW_MARK_BASE;
	f->source_has_blobs = -1;
}

static void free_blob(struct blob *b)
{
	while (b->views) {
		struct view *v = b->views;

		b->views = v->next;
		free(v);
	}
	free(b->original_oid);
	free(b);
}

/*
 * Frees all that f holds, and makes it a fresh filter again; the output
 * not written yet is dropped.
 */
static void filter_release(struct filter *f)
{
	struct mark_entry *e;
	size_t i;

	/* first: it holds the contents of the blobs */
	spill_release(&f->held);
	for (i = 0; i < f->blobs.nr; i++)
		free_blob(f->blobs.v[i]);
	free(f->blobs.v);
	for (i = 0; (e = hashtable_next(&f->marks, &mark_table, &i));)
		free(e->original_oid);
	hashtable_release(&f->marks);
	hashtable_release(&f->oids);
	hashtable_release(&f->orig_commits);
	smap_release(&f->refs_written);
	smap_release(&f->refs_held);
	smap_release(&f->ref_dirs);
	smap_release(&f->dropped_paths);
	free(f->named);
	free(f->queued_marks);
	catfile_stop_all(f);
	strbuf_release(&f->cmd);
	strbuf_release(&f->text);
	strbuf_release(&f->data);
	strbuf_release(&f->path);
	strbuf_release(&f->path2);
	strbuf_release(&f->readback);
	strbuf_release(&f->fetched.buf);
	strbuf_release(&f->view);
	strbuf_release(&f->notes_queue);
	free((char *)f->opt.graft_root);
	filter_init(f);
}

#ifdef TOKSTREAM_FUZZ
/*
 * For t/fuzz/fuzz-stream.c: the filter from fd 0 to fd 1, each time from
 * a fresh state, with die() jumping back to the harness.
 */
struct filter *fuzz_filter_new(void)
{
	struct filter *f = xmalloc(sizeof(*f));

	filter_init(f);
	return f;
}

void fuzz_filter_reset(struct filter *f)
{
	filter_release(f);
	/* small, so that the harness reaches the spill file too */
	f->held.max_held = 4096;
	f->source_has_blobs = 0;
}

void fuzz_filter_run(struct filter *f)
{
	die_position = position;
	die_position_data = f;
	parse_stream(f);
	die_position = NULL;
	flush_notes(f);
	start_data_commands(f);
	out_str(f, "done\n");
	out_flush(f);
}

#endif

void filter_usage(FILE *out)
{
	fputs(usage_text, out);
}

int cmd_filter(int argc, char **argv)
{
	struct filter *f = xmalloc(sizeof(*f));

	filter_init(f);
	parse_options(f, argc, argv);
	f->held.max_held = f->opt.max_held_given ? f->opt.max_held : spill_default_max_held();
	if (f->opt.import_state)
		import_state(f, f->opt.import_state);
	die_position = position;
	die_position_data = f;
	parse_stream(f);
	die_position = NULL;
	if (f->opt.graft_parent && f->opt.graft_root)
		die("--graft: no root commit with original id %s in the stream", f->opt.graft_root);
	flush_notes(f);
	start_data_commands(f);
	if (f->opt.export_state)
		export_state(f, f->opt.export_state);
	out_str(f, "done\n");
	out_flush(f);
	catfile_stop_all(f);
	show_progress(f, 1);
	show_stats(f);
	filter_release(f);
	free(f);
	return 0;
}
