/*
 * tokstream convert: one command from repositories to their token
 * repository, incremental and stitched.
 *
 * For each source, oldest first, it runs
 *
 *   git fast-export | tokstream (the filter, as a child) | git fast-import
 *
 * with every process started directly (no shell), fast-import writing
 * into a private staging repository that borrows DEST's objects and
 * settings.  Only when every source went through are the new packs
 * moved into DEST, the new state written as a new generation directory,
 * and `current` switched to it by one rename; then DEST's refs are set
 * to mirror the sources' refs in one transaction.  An interrupted run
 * leaves DEST as it was, and the next run redoes the work.
 *
 * fast-export runs with --no-data: the stream names blobs by id and the
 * filter reads each from SRC when a commit first names it, so that no
 * blob waits in memory for its commit and fast-import is not left idle
 * while a release's worth of blobs passes through the filter ahead of
 * its commit.  (--identity keeps the blobs in the stream: it copies what
 * the stream says.)
 *
 * The views go to fast-import through a Unix socket pair, not a pipe: a
 * pipe's writer wakes at each read of a full pipe, and fast-import reads
 * a blob at a time, while a socket's writer sleeps until most of its
 * buffer is read.  On the Linux release history that took a tenth off
 * the wall time (t/bench/README.md).
 *
 * fast-import settings.  fast-import runs with Git's defaults and
 * fastimport.unpackLimit=0 (always a pack, so that packs are what moves
 * into DEST), and no repack afterwards; the staging repository's config
 * includes DEST's, so DEST's own settings are fast-import's.  fast-import
 * tries each new blob as a delta of the blob just before it in the
 * stream and of no other: in a history of small commits that is often
 * the file's previous version, in a commit of whole trees (a tarball
 * era) another file, and the attempt is lost work.  Measured
 * (t/bench/README.md), pack.depth=0 saves a third of the CPU time on
 * whole trees and nothing on small commits, where the pack grows 10%:
 * the defaults stay, and `git -C DEST config pack.depth 0` is the
 * user's choice.  A DEST it creates gets diff.algorithm=histogram, so
 * that git log -p and git diff there align views on rare tokens.
 */
#include "commands.h"
#include "../tokenize/parse.h"
#include "../tokenize/wrapper.h"
#include "blame.h"
#include "state.h"
#include "../tokenize/language.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/strvec.h"
#include "../tokenize/view.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/usage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const convert_usage[] = {
	"tokstream convert [FILTER-OPTIONS] [--quiet | --progress] [--stats] [--attribute] SRC... DEST",
	"",
	"Creates (or brings up to date) the bare token repository DEST from the\n"
	"git repositories SRC...; with several, each later one's root commit gets\n"
	"the tip of the earlier one's default branch as its parent.",
	NULL
};

static struct {
	struct strbuf gitdir;      /* DEST's git directory */
	struct strbuf dir;         /* DEST/tokstream */
	struct strbuf lock;
	struct strbuf next;        /* the generation being built */
	struct strbuf staging;     /* the staging repository */
	int locked;
	int took_over;             /* the lock of a run that died */
	pid_t children[3];
	/*
	 * What an interrupted run says (on_signal): DEST as it was until the
	 * new generation is in force, converted after.
	 */
	char *interrupted_before, *interrupted_after;
	volatile sig_atomic_t switched;
} run = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0, 0, { 0, 0, 0 }, NULL, NULL, 0 };

static void remove_tree(const char *path);

static void cleanup(void)
{
	int i;

	for (i = 0; i < 3; i++)
		if (run.children[i] > 0)
			kill(run.children[i], SIGTERM);
	if (run.locked) {
		unlink(run.lock.buf);
		run.locked = 0;
	}
}

/*
 * Interrupted (Ctrl-C, a kill): the stages go, upstream first, each gone
 * before the next is told, so that none dies of a write to a stage that
 * went before it, and what is left is said in one line.
 */
static void on_signal(int sig)
{
	const char *msg = run.switched ? run.interrupted_after : run.interrupted_before;
	int i;

	for (i = 0; i < 3; i++)
		if (run.children[i] > 0) {
			kill(run.children[i], SIGTERM);
			waitpid(run.children[i], NULL, 0);
			run.children[i] = 0;
		}
	cleanup();
	if (msg) {
		ssize_t n = write(2, msg, strlen(msg));

		(void)n;  /* nothing more to say where stderr is gone */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct strbuf sub = STRBUF_INIT;

	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", path, e->d_name);
		if (!lstat(sub.buf, &st) && S_ISDIR(st.st_mode))
			remove_tree(sub.buf);
		else
			unlink(sub.buf);
	}
	closedir(d);
	rmdir(path);
	strbuf_release(&sub);
}

/* One conversion at a time per DEST; a lock whose process died is stale. */
static void take_lock(void)
{
	char buf[32];
	int fd, tries;

	state_path(&run.lock, run.gitdir.buf, STATE_LOCK);
	for (tries = 0; tries < 2; tries++) {
		fd = open(run.lock.buf, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0) {
			int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

			if (write_in_full(fd, buf, (size_t)n) < 0 || close(fd))
				die_errno("cannot write '%s'", run.lock.buf);
			run.locked = 1;
			return;
		}
		if (errno != EEXIST)
			die_errno("cannot create '%s'", run.lock.buf);
		fd = open(run.lock.buf, O_RDONLY);
		if (fd >= 0) {
			ssize_t n = read(fd, buf, sizeof(buf) - 1);
			long pid;

			close(fd);
			buf[n > 0 ? n : 0] = '\0';
			pid = strtol(buf, NULL, 10);
			if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
				die("another conversion (process %ld) is updating '%s'; "
				    "if it is not running, remove '%s'", pid, run.gitdir.buf, run.lock.buf);
		}
		unlink(run.lock.buf); /* stale: its process is gone */
		run.took_over = 1;
	}
	die("cannot take the lock '%s'", run.lock.buf);
}


/* s as a quoted value of a git config file (any path: quotes, backslashes, LF) */
static void config_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(out, '\\');
		if (*s == '\n')
			strbuf_addstr(out, "\\n");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/*
 * Copies from to to.  A from that is not there is no file to copy (a
 * source added since the last run has none yet); any other error of the
 * read dies in strbuf_read_file(), as a copy cut short would be taken
 * for the whole file.
 */
static void copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;

	if (!strbuf_read_file(&sb, from))
		write_atomic(to, sb.buf, sb.len);
	strbuf_release(&sb);
}

/*
 * After a git command that writes into DEST failed: when the file system
 * of path (in DEST) is full (under 1 MiB free), say so, as the cause to
 * act on.
 */
static void die_if_full(const char *what, int status, const char *path)
{
	struct statvfs fs;
	uintmax_t avail;

	if (!path || statvfs(path, &fs))
		return;
	avail = (uintmax_t)fs.f_bavail * fs.f_frsize;
	if (avail < ((uintmax_t)1 << 20))
		die("%s failed (exit %d): the file system of '%s' is full (%ju KiB free); "
		    "free some space and run again", what, status, path, avail / 1024);
}

/* Runs a git command that writes in DEST: run.dir, or (git init) its last argument. */
static void run_git(const char *dir, const char **argv, const char *what)
{
	int status = run_capture(argv, dir, NULL);

	if (status) {
		const char *where = run.dir.len ? run.dir.buf : NULL;
		int i;

		for (i = 0; !where && argv[i]; i++)
			if (!argv[i + 1])
				where = argv[i];
		die_if_full(what, status, where);
		die("%s failed", what);
	}
}

/*
 * The commit-graph of DEST with its changed-path filters: a blame's walk
 * asks git rev-list for a file's history, and the filters let it open
 * only the trees of commits that may have changed the path (on libgit2's
 * src/diff.c, 0.19 s without them, 0.08 s with).  --split adds a layer
 * for the new commits, as git maintenance does.  Without a graph blame
 * is slower, not wrong: a failure is a warning.
 */
static void write_commit_graph(void)
{
	const char *argv[] = { "git", "commit-graph", "write", "--reachable", "--changed-paths",
			       "--split", "--no-progress", NULL };

	if (run_capture(argv, run.gitdir.buf, NULL))
		warning("git commit-graph write failed in '%s': the first blame there walks slower",
			run.gitdir.buf);
}

/* DEST's value of a git config key into out: 0, or -1 when it sets none. */
static int dest_config(const char *key, struct strbuf *out)
{
	const char *argv[] = { "git", "config", "--get", key, NULL };

	strbuf_reset(out);
	if (run_capture_quiet(argv, run.gitdir.buf, out))
		return -1;
	strbuf_trim_newline(out);
	return 0;
}

/*
 * fast-import's pack.depth: 0, no deltas, unless DEST's config sets one.
 * fast-import deltas each blob against the blob before it in the
 * stream, most often another file's, and a newer version on an older
 * one: the deltas save DEST little room (on tmux 180 MB against 232 MB
 * without) and cost fast-import a third of its time, and every reader
 * that takes a file's versions newest first (the walk of a blame, the
 * replay of a report) inflates their chains.  The repack (repack_dest)
 * finds good deltas.
 */
static const char *fast_import_depth(void)
{
	static struct strbuf opt = STRBUF_INIT;
	struct strbuf value = STRBUF_INIT;

	strbuf_reset(&opt);
	strbuf_addf(&opt, "pack.depth=%s", dest_config("pack.depth", &value) ? "0" : value.buf);
	strbuf_release(&value);
	return opt.buf;
}

/* The objects DEST holds, loose and packed, as git count-objects counts them; 0 when it cannot tell. */
static size_t dest_objects(void)
{
	const char *argv[] = { "git", "count-objects", "-v", NULL };
	struct strbuf out = STRBUF_INIT;
	const char *p;
	size_t total = 0;

	if (run_capture(argv, run.gitdir.buf, &out))
		strbuf_reset(&out);
	for (p = out.buf; *p; p++) {
		if (!strncmp(p, "count: ", 7) || !strncmp(p, "in-pack: ", 9))
			total += strtoull(strchr(p, ' ') + 1, NULL, 10);
		if (!(p = strchr(p, '\n')))
			break;
	}
	strbuf_release(&out);
	return total;
}

/*
 * git repack -f finds DEST's deltas anew, as fast-import's manual
 * advises after an import: on tmux DEST became 14 times smaller and
 * reading a file's views 10 times faster (t/bench/README.md).  A repack
 * of everything costs what it packs, so it runs when DEST holds at
 * least twice the objects its last one packed (a first conversion
 * always): each object is repacked a bounded number of times however
 * many updates come.  It keeps unreachable objects, which the marks of
 * the next update may name.  Bitmaps serve fetches, which DEST does not
 * serve.  gc.auto=0 in DEST turns it off, as it does git gc --auto.  A
 * failure leaves DEST as it was, slower to read: a warning.
 */
static void repack_dest(void)
{
	const char *repack[] = { "git", "-c", "repack.writeBitmaps=false", "repack", "-a", "-d", "-f",
				 "--keep-unreachable", "-q", NULL };
	struct strbuf out = STRBUF_INIT;
	size_t objects, packed = 0;

	if (!dest_config("gc.auto", &out) && !strcmp(out.buf, "0")) {
		strbuf_release(&out);
		return;
	}
	if (!dest_config("tokstream.packedObjects", &out))
		packed = strtoull(out.buf, NULL, 10);
	objects = dest_objects();
	if (objects && objects / 2 >= packed) {
		if (run_capture(repack, run.gitdir.buf, NULL)) {
			warning("git repack failed in '%s': blame and report read it slower", run.gitdir.buf);
		} else {
			struct strvec set = STRVEC_INIT;

			strvec_pushl(&set, "git", "config", "tokstream.packedObjects", NULL);
			strvec_pushf(&set, "%zu", dest_objects());
			if (run_capture(set.v, run.gitdir.buf, NULL))
				warning("could not record tokstream.packedObjects in '%s'", run.gitdir.buf);
			strvec_clear(&set);
		}
	}
	strbuf_release(&out);
}

/* The absolute path of dir (which must exist). */
static void absolute(const char *dir, struct strbuf *out)
{
	char *r = realpath(dir, NULL);

	if (!r)
		die_errno("cannot find '%s'", dir);
	strbuf_reset(out);
	strbuf_addstr(out, r);
	free(r);
}

struct source {
	struct strbuf path;      /* absolute */
	struct strbuf head_ref;  /* its default branch, e.g. refs/heads/main */
	struct strbuf tip;       /* that branch's commit */
};

/*
 * A partial clone (a remote.NAME.promisor, or extensions.partialClone)
 * may lack objects that its promisor remote sends on demand: fast-export
 * would fetch them one at a time, or die halfway when the remote is gone.  Such a source is
 * refused, naming the first missing object; git rev-list --missing=print
 * never fetches.  A partial clone that has every object goes on.
 */
static void check_not_partial(const char *path, const char *arg)
{
	const char *cfg[] = { "git", "config", "--get-regexp",
			      "^(remote\\..*\\.promisor|extensions\\.partialclone)$", NULL };
	const char *walk[] = { "git", "rev-list", "--objects", "--all", "--missing=print", NULL };
	struct strbuf cfg_out = STRBUF_INIT, missing = STRBUF_INIT;
	struct child c;
	int fd[2], bol = 1, in_missing = 0, done = 0, status;
	char buf[65536];
	ssize_t n, i;

	if (run_capture_quiet(cfg, path, &cfg_out)) {
		strbuf_release(&cfg_out);
		return;
	}
	if (pipe(fd))
		die_errno("pipe");
	child_init(&c, walk);
	c.dir = path;
	c.out = fd[1];
	c.close_fd[0] = fd[0];
	start_command(&c);
	close(fd[1]);
	while (!done && ((n = read(fd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))) {
		for (i = 0; i < n && !done; i++) {
			if (in_missing) {
				if (buf[i] == '\n')
					done = 1;
				else
					strbuf_addch(&missing, buf[i]);
			} else if (bol && buf[i] == '?') {
				in_missing = 1;
			}
			bol = buf[i] == '\n';
		}
	}
	close(fd[0]);
	status = finish_command(&c);
	if (in_missing)
		die("source '%s' is a partial clone and lacks object %s: "
		    "its objects are incomplete; convert a full clone (one made without --filter)",
		    arg, missing.buf);
	if (status)
		die("git rev-list --objects --all --missing=print failed in '%s' (exit %d)", arg, status);
	strbuf_release(&cfg_out);
	strbuf_release(&missing);
}

static void inspect_source(struct source *src, const char *arg)
{
	/* one rev-parse: each git command costs a process start */
	const char *query[] = { "--is-shallow-repository", "-q", "--verify", "HEAD^{commit}", NULL };
	const char *head[] = { "git", "symbolic-ref", "-q", "HEAD", NULL };
	struct strbuf out = STRBUF_INIT, answers = STRBUF_INIT;
	struct stat st;
	int no_tip;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		die("source '%s' is not a directory", arg);
	strbuf_init(&src->path, 0);
	strbuf_init(&src->head_ref, 0);
	strbuf_init(&src->tip, 0);
	no_tip = git_dir_query(arg, query, &out, &answers);
	absolute(arg, &src->path);
	/* "true" or "false", then the commit of HEAD */
	if (strncmp(answers.buf, "false\n", 6))
		die("source '%s' is a shallow clone: its history is incomplete; "
		    "convert a full clone (git fetch --unshallow)", arg);
	check_not_partial(src->path.buf, arg);
	run_capture(head, src->path.buf, &src->head_ref);
	strbuf_trim_newline(&src->head_ref);
	if (no_tip || answers.len < 6 + 41)
		die("source '%s' has no commits", arg);
	strbuf_add(&src->tip, answers.buf + 6, 40);
	strbuf_release(&out);
	strbuf_release(&answers);
}

/* Counts commits reachable from any ref of dir. */
static uintmax_t count_commits(const char *dir)
{
	const char *argv[] = { "git", "rev-list", "--count", "--all", NULL };
	struct strbuf out = STRBUF_INIT;
	uintmax_t n = 0;

	if (!run_capture(argv, dir, &out))
		n = strtoumax(out.buf, NULL, 10);
	strbuf_release(&out);
	return n;
}

static uintmax_t count_state_commits(const char *state_path)
{
	struct strbuf sb = STRBUF_INIT;
	uintmax_t n = 0;
	const char *p;

	if (!strbuf_read_file(&sb, state_path))
		for (p = sb.buf; (p = strstr(p, "\nc ")); p++)
			n++;
	strbuf_release(&sb);
	return n;
}

/* --max-held=SIZE, passed to the filter as it is (it changes no byte of DEST) */
static const char *max_held_opt;

/*
 * Starts stage slot (0 to 2) of the three: argv in dir (NULL: here),
 * reading in and writing out (-1: inherited), closing the pipe ends in
 * close_fd that are the other stages' (-1: none).
 */
static void start_stage(struct child *c, int slot, const char **argv, const char *dir,
			int in, int out, const int close_fd[3])
{
	int i;

	child_init(c, argv);
	c->dir = dir;
	c->in = in;
	c->out = out;
	for (i = 0; i < 3; i++)
		c->close_fd[i] = close_fd[i];
	start_command(c);
	run.children[slot] = c->pid;
}

/*
 * fast-export | the filter | fast-import, the three at once; dies naming
 * the stage that failed first.
 */
static void run_stages(const struct source *src, const char **fe, const char **ft, const char **fi, int stats)
{
	struct child c_fe, c_ft, c_fi;
	int p1[2], p2[2], s1, s2, s3;

	if (pipe(p1))
		die_errno("pipe");
	make_bulk_channel(p2);
	start_stage(&c_fe, 0, fe, src->path.buf, -1, p1[1], (const int[]){ p1[0], p2[0], p2[1] });
	start_stage(&c_ft, 1, ft, NULL, p1[0], p2[1], (const int[]){ p1[1], p2[0], -1 });
	start_stage(&c_fi, 2, fi, run.staging.buf, p2[0], -1, (const int[]){ p1[0], p1[1], p2[1] });

	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
	s1 = finish_command(&c_fe);
	run.children[0] = 0;
	s2 = finish_command(&c_ft);
	run.children[1] = 0;
	s3 = finish_command(&c_fi);
	run.children[2] = 0;
	/*
	 * The stage that failed first: a stage dies of SIGPIPE (or the filter
	 * of a write error) when the next one is gone, so a broken pipe is
	 * named last.  fast-import on a full disk is named as such: its tmp
	 * pack stays in the staging repository until the next run.
	 */
	if (s1 && s1 != 128 + SIGPIPE)
		die("git fast-export of '%s' failed (exit %d)", src->path.buf, s1);
	if (s3) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "git fast-import converting '%s'", src->path.buf);
		die_if_full(what.buf, s3, run.dir.buf);
		strbuf_release(&what);
	}
	if (s2)
		die("the filter failed on '%s' (exit %d)", src->path.buf, s2);
	if (s3)
		die("git fast-import failed (exit %d) converting '%s'", s3, src->path.buf);
	if (s1)
		die("git fast-export of '%s' failed (exit %d)", src->path.buf, s1);
	/* each stage's own, the filter's with the git cat-file it ran */
	if (stats)
		fprintf(stderr, "tokstream convert: cpu: git fast-export %.3f s, filter %.3f s, "
			"git fast-import %.3f s\n", cpu_seconds(&c_fe.ru), cpu_seconds(&c_ft.ru),
			cpu_seconds(&c_fi.ru));
}

/*
 * Runs fast-export | filter | fast-import for one source, with its marks
 * and state files in the generation being built.
 */
static void convert_source(struct source *src, int k, const char *self, const struct strvec *filter_opts,
			   const char *graft_parent, int progress, int stats)
{
	struct strbuf exp_marks = STRBUF_INIT, imp_marks = STRBUF_INIT, state = STRBUF_INIT;
	struct strvec fe = STRVEC_INIT, ft = STRVEC_INIT, fi = STRVEC_INIT;
	int identity = 0;
	size_t i;
	struct stat st;

	for (i = 0; i < filter_opts->nr; i++)
		identity |= !strcmp(filter_opts->v[i], "--identity");
	source_file_path(&exp_marks, run.next.buf, k, SRC_EXPORT_MARKS);
	source_file_path(&imp_marks, run.next.buf, k, SRC_IMPORT_MARKS);
	source_file_path(&state, run.next.buf, k, SRC_FILTER_STATE);
	if (stat(exp_marks.buf, &st))
		write_atomic(exp_marks.buf, "", 0);

	strvec_pushl(&fe, "git", "fast-export", "--all", "--signed-tags=strip",
		     "--tag-of-filtered-object=rewrite", "--reencode=no", "--show-original-ids",
		     "--mark-tags", "--use-done-feature", NULL);
	/*
	 * The filter reads each blob from SRC when a commit first names it:
	 * fast-import is not left idle while a release's worth of blobs
	 * passes, and none is held waiting for its commit.  An identity copy
	 * must carry the blobs, since the filter copies what the stream says.
	 */
	if (!identity)
		strvec_push(&fe, "--no-data");
	strvec_pushf(&fe, "--import-marks=%s", exp_marks.buf);
	strvec_pushf(&fe, "--export-marks=%s", exp_marks.buf);

	strvec_push(&ft, self);
	strvec_pushv(&ft, filter_opts->v);
	if (max_held_opt)
		strvec_push(&ft, max_held_opt);
	strvec_pushf(&ft, "--source=%s", src->path.buf);
	strvec_pushf(&ft, "--import-state=%s", state.buf);
	strvec_pushf(&ft, "--export-state=%s", state.buf);
	if (graft_parent)
		strvec_pushf(&ft, "--graft=%s", graft_parent);
	if (progress) {
		uintmax_t total = count_commits(src->path.buf), done = count_state_commits(state.buf);

		strvec_push(&ft, "--progress");
		strvec_pushf(&ft, "--progress-total=%ju", total > done ? total - done : 1);
	}
	if (stats)
		strvec_push(&ft, "--stats");

	/* fast-import always writes a pack, never loose objects: packs are what move into DEST */
	strvec_pushl(&fi, "git", "-c", "fastimport.unpackLimit=0", "-c", fast_import_depth(), "fast-import",
		     "--quiet", "--force", "--done", NULL);
	strvec_pushf(&fi, "--import-marks-if-exists=%s", imp_marks.buf);
	strvec_pushf(&fi, "--export-marks=%s", imp_marks.buf);

	run_stages(src, fe.v, ft.v, fi.v, stats);
	strvec_clear(&fe);
	strvec_clear(&ft);
	strvec_clear(&fi);
	strbuf_release(&exp_marks);
	strbuf_release(&imp_marks);
	strbuf_release(&state);
}

/* A marks file ":MARK ID" per line, indexed by mark. */
struct marks_file {
	struct strbuf text;
	struct { uintmax_t mark; const char *oid; } *e;
	size_t nr, alloc;
};

static int cmp_mark(const void *a, const void *b)
{
	uintmax_t x = *(const uintmax_t *)a, y = *(const uintmax_t *)b;

	return x < y ? -1 : x > y;
}

static void marks_read(struct marks_file *m, const char *path)
{
	char *p, *nl;

	strbuf_init(&m->text, 0);
	m->e = NULL;
	m->nr = m->alloc = 0;
	if (strbuf_read_file(&m->text, path))
		return;
	for (p = m->text.buf; *p; p = nl + 1) {
		char *end;

		nl = strchr(p, '\n');
		if (!nl || *p != ':')
			die("%s: corrupt marks file", path);
		*nl = '\0';
		ALLOC_GROW(m->e, m->nr + 1, m->alloc);
		m->e[m->nr].mark = strtoumax(p + 1, &end, 10);
		if (*end != ' ' || strlen(end + 1) != 40)
			die("%s: corrupt marks file", path);
		m->e[m->nr].oid = end + 1;
		m->nr++;
	}
	qsort(m->e, m->nr, sizeof(*m->e), cmp_mark);
}

static const char *marks_get(struct marks_file *m, uintmax_t mark)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->e[mid].mark == mark)
			return m->e[mid].oid;
		if (m->e[mid].mark < mark)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void marks_release(struct marks_file *m)
{
	strbuf_release(&m->text);
	free(m->e);
}

/*
 * Joins the filter's record of each commit and tag mark's original id
 * (from the stream's original-oid lines) with fast-import's marks (mark
 * -> token id).
 */
static void append_maps(int k, struct strbuf *commit_map, struct strbuf *tag_map)
{
	struct strbuf path = STRBUF_INIT, st = STRBUF_INIT;
	struct marks_file imp;
	char *p, *nl;

	source_file_path(&path, run.next.buf, k, SRC_IMPORT_MARKS);
	marks_read(&imp, path.buf);
	source_file_path(&path, run.next.buf, k, SRC_FILTER_STATE);
	if (strbuf_read_file(&st, path.buf))
		die("missing filter state '%s'", path.buf);
	for (p = st.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		uintmax_t mark;
		char *end;
		const char *tok;

		if ((p[0] != 'c' && p[0] != 't') || p[1] != ' ')
			continue;
		mark = strtoumax(p + 2, &end, 10);
		if (*end != ' ' || nl - end != 41)
			die("%s: mark :%ju has no original id", path.buf, mark);
		tok = marks_get(&imp, mark);
		if (!tok)
			die("mark :%ju of source %d is missing from fast-import's marks", mark, k + 1);
		oid_map_add(p[0] == 'c' ? commit_map : tag_map, end + 1, tok);
	}
	marks_release(&imp);
	strbuf_release(&path);
	strbuf_release(&st);
}

/* Moves the packs fast-import wrote in the staging repository into DEST. */
static void move_packs(void)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT, dir = STRBUF_INIT;
	static const char *const exts[] = { ".pack", ".rev", ".idx" };
	DIR *d;
	struct dirent *e;
	size_t x;

	strbuf_addf(&dir, "%s/objects/pack", run.staging.buf);
	/* the .idx last: a pack is used once its index is there */
	for (x = 0; x < 3; x++) {
		d = opendir(dir.buf);
		if (!d)
			die_errno("cannot read '%s'", dir.buf);
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name), el = strlen(exts[x]);

			if (l < el || strcmp(e->d_name + l - el, exts[x]))
				continue;
			strbuf_reset(&from);
			strbuf_reset(&to);
			strbuf_addf(&from, "%s/%s", dir.buf, e->d_name);
			strbuf_addf(&to, "%s/objects/pack/%s", run.gitdir.buf, e->d_name);
			if (rename(from.buf, to.buf))
				die_errno("cannot move '%s' to '%s'", from.buf, to.buf);
		}
		closedir(d);
	}
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&dir);
}

/* Replaces the symlink at path by one to target, atomically. */
static void switch_symlink(const char *target, const char *path)
{
	struct strbuf tmp = STRBUF_INIT;

	strbuf_addf(&tmp, "%s.new", path);
	unlink(tmp.buf);
	if (symlink(target, tmp.buf))
		die_errno("cannot create '%s'", tmp.buf);
	if (rename(tmp.buf, path))
		die_errno("cannot rename '%s'", tmp.buf);
	strbuf_release(&tmp);
}

/*
 * DEST's refs: the newest source's refs as they are, the older sources'
 * tags (where the newer ones have none of that name) and their other refs
 * under refs/eras/K/.
 */
struct ref_update {
	char *name;
	char tok[41];
	int era;
};

static int cmp_ref_update(const void *a, const void *b)
{
	const struct ref_update *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : y->era - x->era; /* the newest era first */
}

static void prepare_refs(struct source *srcs, int nr, struct oid_map *commits, struct oid_map *tags,
			 struct strbuf *packed)
{
	const char *fer[] = { "git", "for-each-ref", "--format=%(objectname) %(objecttype) %(refname)", NULL };
	const char *mine[] = { "git", "for-each-ref", "--format=%(objectname) %(refname)", "refs/tokstream/", NULL };
	struct strbuf out = STRBUF_INIT, have = STRBUF_INIT, script = STRBUF_INIT;
	struct ref_update *u = NULL;
	char *p, *nl;
	size_t nu = 0, au = 0, i;
	int k;

	for (k = 0; k < nr; k++) {
		strbuf_reset(&out);
		if (run_capture(fer, srcs[k].path.buf, &out))
			die("cannot list the refs of '%s'", srcs[k].path.buf);
		for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
			const char *tok = NULL;
			char *type = p + 41, *ref;

			*nl = '\0';
			if (nl - p < 43 || p[40] != ' ' || !(ref = strchr(type, ' ')))
				continue;
			*ref++ = '\0';
			p[40] = '\0';
			if (!strcmp(type, "commit"))
				tok = oid_map_token(commits, p);
			else if (!strcmp(type, "tag"))
				tok = oid_map_token(tags, p);
			else if (!strcmp(type, "blob"))
				tok = p; /* kept unchanged */
			if (!tok) {
				warning("%s of '%s' names a %s that was not converted; left out",
					ref, srcs[k].path.buf, type);
				continue;
			}
			ALLOC_GROW(u, nu + 1, au);
			if (k == nr - 1 || !strncmp(ref, "refs/tags/", 10)) {
				u[nu].name = xstrdup(ref);
			} else {
				strbuf_reset(&script);
				strbuf_addf(&script, "refs/eras/%d/%s", k + 1, ref + 5);
				u[nu].name = strbuf_detach(&script, NULL);
			}
			memcpy(u[nu].tok, tok, 41);
			u[nu].era = k;
			nu++;
		}
	}
	/* DEST's own refs/tokstream/ stay as they are */
	if (run_capture(mine, run.gitdir.buf, &have))
		die("cannot list the refs of '%s'", run.gitdir.buf);
	for (p = have.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		if (nl - p < 42 || p[40] != ' ')
			continue;
		ALLOC_GROW(u, nu + 1, au);
		u[nu].name = xstrdup(p + 41);
		memcpy(u[nu].tok, p, 40);
		u[nu].tok[40] = '\0';
		u[nu].era = nr;
		nu++;
	}
	qsort(u, nu, sizeof(*u), cmp_ref_update);
	/* every ref, sorted: the whole packed-refs file of the new generation */
	strbuf_addstr(packed, "# pack-refs with: sorted \n");
	for (i = 0; i < nu; i++) {
		if (i && !strcmp(u[i].name, u[i - 1].name))
			continue; /* an older era's ref of a name a newer one has */
		strbuf_addf(packed, "%s %s\n", u[i].tok, u[i].name);
	}
	for (i = 0; i < nu; i++)
		free(u[i].name);
	free(u);
	strbuf_release(&out);
	strbuf_release(&have);
	strbuf_release(&script);
}

/* Whether the directory dir (of refs) holds a loose ref. */
static int has_loose_refs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strbuf sub = STRBUF_INIT;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		struct stat st;
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.' || (l > 5 && !strcmp(e->d_name + l - 5, ".lock")))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, e->d_name);
		if (!lstat(sub.buf, &st))
			found = S_ISDIR(st.st_mode) ? has_loose_refs(sub.buf) : 1;
	}
	closedir(d);
	strbuf_release(&sub);
	return found;
}

/*
 * DEST's refs live in the generation: DEST/packed-refs is a symlink to
 * tokstream/current/packed-refs (packed_refs_link) and DEST keeps no
 * loose refs, so the one rename that switches `current` switches the
 * refs and the maps together.  (Git writes packed-refs through the
 * symlink: its lock files follow it.)  Made before the switch, with the
 * refs as they are; returns 1 when it can only be made after it (a first
 * conversion into a DEST that has refs).
 */
static int link_packed_refs(int fresh, const char *cur)
{
	const char *pack[] = { "git", "pack-refs", "--all", "--prune", NULL };
	struct strbuf link = STRBUF_INIT, sb = STRBUF_INIT, to = STRBUF_INIT;
	char target[256];
	ssize_t n;
	int later = 0, is_link;

	strbuf_addf(&link, "%s/packed-refs", run.gitdir.buf);
	n = readlink(link.buf, target, sizeof(target) - 1);
	is_link = n == (ssize_t)strlen(packed_refs_link) && !memcmp(target, packed_refs_link, (size_t)n);
	if (run.took_over) {
		/* a run killed inside git pack-refs left its lock */
		strbuf_addf(&to, "%s/packed-refs.lock", run.gitdir.buf);
		unlink(to.buf);
		generation_file_path(&to, cur, GEN_PACKED_REFS);
		strbuf_addstr(&to, ".lock");
		unlink(to.buf);
		strbuf_reset(&to);
	}
	strbuf_addf(&sb, "%s/refs", run.gitdir.buf);
	/* fold loose refs in (a dangling link has none to fold: no run finished) */
	if (has_loose_refs(sb.buf) && !(fresh && is_link))
		run_git(run.gitdir.buf, pack, "git pack-refs");
	strbuf_reset(&sb);
	if (is_link)
		goto done;
	if (strbuf_read_file(&sb, link.buf))
		strbuf_reset(&sb);
	if (!fresh) {
		generation_file_path(&to, cur, GEN_PACKED_REFS);
		write_atomic(to.buf, sb.buf, sb.len);
	} else {
		const char *p = sb.buf;

		while (p && *p) {
			if (*p != '#' && *p != '\n')
				later = 1;
			p = strchr(p, '\n');
			if (p)
				p++;
		}
		if (later)
			goto done;
	}
	switch_symlink(packed_refs_link, link.buf);
done:
	strbuf_release(&link);
	strbuf_release(&sb);
	strbuf_release(&to);
	return later;
}

/* HEAD names the newest source's default branch. */
static void set_head(struct source *srcs, int nr)
{
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT, have = STRBUF_INIT;

	if (!srcs[nr - 1].head_ref.len)
		return;
	strbuf_addf(&want, "ref: %s\n", srcs[nr - 1].head_ref.buf);
	strbuf_addf(&path, "%s/HEAD", run.gitdir.buf);
	if (strbuf_read_file(&have, path.buf) || strcmp(have.buf, want.buf)) {
		/*
		 * renamed into place, as git does, but not from HEAD.lock: a
		 * kill could leave that, and git would take HEAD for locked
		 */
		write_atomic(path.buf, want.buf, want.len);
	}
	strbuf_release(&path);
	strbuf_release(&want);
	strbuf_release(&have);
}

/* What the views depend on besides the options: the format and the language table. */
static void views_fingerprint(struct strbuf *out)
{
	FILE *f = tmpfile();
	struct strbuf list = STRBUF_INIT;
	unsigned char h[20];
	char buf[4096];
	size_t n, i;

	if (!f)
		die_errno("tmpfile");
	fprintf(f, "view-format %d\n", VIEW_FORMAT_VERSION);
	language_list(f);
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&list, buf, n);
	fclose(f);
	git_blob_oid(list.buf, list.len, h);
	for (i = 0; i < 20; i++)
		strbuf_addf(out, "%02x", h[i]);
	strbuf_release(&list);
}

/*
 * In a process of its own: the conversion is done and stays done whatever
 * happens here (a source whose HEAD the token repository lacks, say);
 * a failure costs the next report the commits since the state's tip.
 */
static int advance_checkpoint(const char *source, int quiet, int make)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (!pid) {
		struct blame_ctx bc;
		int moved;

		/* the lock and the children are the parent's */
		run.locked = 0;
		memset(run.children, 0, sizeof(run.children));
		memset(&bc, 0, sizeof(bc));
		blame_open(&bc, run.gitdir.buf, source, "HEAD", NULL);
		moved = blame_advance_checkpoint(&bc);
		if (!moved && make) {
			/* none that fits: the whole history, once */
			blame_replay_tree(&bc);
			moved = 1;
		}
		if (moved && !quiet)
			fprintf(stderr, "tokstream: the attribution state in '%s' follows HEAD\n", run.gitdir.buf);
		fflush(NULL);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (!make)
			warning("the attribution state in '%s' was not brought to HEAD; the next report replays more",
				run.gitdir.buf);
		return -1;
	}
	return 0;
}

struct convert_options {
	struct strvec filter_opts;  /* given, or those DEST records */
	int quiet, progress, stats, attribute;
};

/* --keep-other, --exact-comments, --identity: recorded in DEST as given */
static int convert_opt_filter(const struct option *opt, const char *arg, int unset)
{
	struct convert_options *o = opt->value;

	(void)arg;
	(void)unset;
	strvec_pushf(&o->filter_opts, "--%s", opt->long_name);
	return 0;
}

/* --lang LANG:GLOB, recorded as --lang=LANG:GLOB */
static int convert_opt_lang(const struct option *opt, const char *arg, int unset)
{
	struct convert_options *o = opt->value;
	const char *err;

	(void)unset;
	if (language_add_override(arg, &err))
		return parse_opt_error(opt, "'%s': %s", arg, err);
	strvec_pushf(&o->filter_opts, "--lang=%s", arg);
	return 0;
}

static int convert_opt_max_held(const struct option *opt, const char *arg, int unset)
{
	uintmax_t size;

	(void)unset;
	if (parse_size(arg, &size))
		return parse_opt_error(opt, "takes a size (digits, then k, m or g), not '%s'", arg);
	*(const char **)opt->value = xstrfmt("--max-held=%s", arg);
	return 0;
}

/* The options before SRC... DEST: the index of the first SRC. */
static int parse_convert_options(int argc, char **argv, struct convert_options *o)
{
	struct option options[] = {
		OPT_CALLBACK_F(0, "keep-other", o, NULL, "as for the filter; recorded in DEST, later runs reuse it",
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG, convert_opt_filter),
		OPT_CALLBACK_F(0, "exact-comments", o, NULL, "the same", PARSE_OPT_NOARG | PARSE_OPT_NONEG,
			       convert_opt_filter),
		OPT_CALLBACK(0, "lang", o, "LANG:GLOB", "the same", convert_opt_lang),
		OPT_CALLBACK_F(0, "identity", o, NULL, "the same", PARSE_OPT_NOARG | PARSE_OPT_NONEG,
			       convert_opt_filter),
		OPT_CALLBACK(0, "max-held", &max_held_opt, "SIZE",
			     "as for the filter (blobs held in memory); changes no output, not recorded",
			     convert_opt_max_held),
		OPT_SET_INT('q', "quiet", &o->quiet, "no progress display, no --stats", 1),
		OPT_BOOL(0, "progress", &o->progress, "a progress display (default: when stderr is a terminal)"),
		OPT_FLAG(0, "stats", &o->stats, "the filter's counts for each source, the CPU time of each stage"),
		OPT_FLAG(0, "attribute", &o->attribute,
			 "also attribute every token of HEAD's tree (one pass over the history),\n"
			 "kept in DEST so that blame, html and report start from it; later\n"
			 "runs bring it to the new HEAD (they do so whenever DEST has it)"),
		OPT_END(),
	};
	int n;

	strvec_init(&o->filter_opts);
	o->progress = -1;
	n = parse_options(argc, argv, options, convert_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n < 2)
		usage_msg_opt("need at least one SRC and a DEST", convert_usage, options);
	if (o->progress < 0)
		o->progress = isatty(2);
	if (o->quiet)
		o->progress = o->stats = 0;
	return n;
}

/* The filter is this very program. */
static void self_path(struct strbuf *self)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n > 0) {
		buf[n] = '\0';
		strbuf_addstr(self, buf);
	} else {
		strbuf_addstr(self, "tokstream");
	}
}

/* A new bare repository at path; what names the step if git init fails. */
static void init_bare(const char *path, const char *what)
{
	const char *argv[] = { "git", "init", "--quiet", "--bare", path, NULL };

	run_git(NULL, argv, what);
}

/* A new bare DEST, made beside it and renamed into place: a kill leaves no half repository. */
static void create_dest(const char *dest)
{
	struct strbuf to = STRBUF_INIT, tmp = STRBUF_INIT;
	/* git log -p and git diff in DEST: Git's default diff misaligns views (README) */
	const char *histogram[] = { "git", "config", "diff.algorithm", "histogram", NULL };

	strbuf_addstr(&to, dest);
	while (to.len > 1 && to.buf[to.len - 1] == '/')
		strbuf_setlen(&to, to.len - 1);
	strbuf_addf(&tmp, "%s.tokstream-init", to.buf);
	remove_tree(tmp.buf);
	init_bare(tmp.buf, "git init --bare");
	run_git(tmp.buf, histogram, "git config diff.algorithm");
	if (rename(tmp.buf, to.buf))
		die_errno("cannot rename '%s' to '%s'", tmp.buf, to.buf);
	strbuf_release(&to);
	strbuf_release(&tmp);
}

static int is_empty_directory(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/*
 * An existing DEST that is no repository at all is refused in one line
 * of our own: git's "not a git repository" would come first otherwise.
 */
static void check_dest_repository(const char *dest, const struct stat *st)
{
	const char *query[] = { "git", "rev-parse", "--git-dir", NULL };
	struct strbuf out = STRBUF_INIT;

	if (!S_ISDIR(st->st_mode))
		die("'%s' is not a directory: DEST is a bare repository (convert makes it when it does not exist)",
		    dest);
	if (run_capture_quiet(query, dest, &out))
		die("'%s' is neither a git repository nor empty: DEST is a bare repository "
		    "(convert makes it when it does not exist, or in an empty directory)", dest);
	strbuf_release(&out);
}

/* DEST's git directory and DEST/tokstream, locked for this run. */
static void open_dest(const char *dest)
{
	const char *query[] = { "--is-bare-repository", NULL };
	struct strbuf out = STRBUF_INIT;

	git_dir_query(dest, query, &run.gitdir, &out);
	if (strncmp(out.buf, "true", 4))
		die("'%s' is not a bare repository: the token repository must be bare", dest);
	strbuf_release(&out);
	state_path(&run.dir, run.gitdir.buf, STATE_DIR);
	if (mkdir(run.dir.buf, 0755) && errno != EEXIST)
		die_errno("cannot create '%s'", run.dir.buf);
	if (access(run.dir.buf, W_OK))
		die_errno("cannot write in '%s'", run.dir.buf);
	die_cleanup = cleanup;
	run.interrupted_before = xstrfmt("tokstream: interrupted: '%s' is as it was before this run; "
					 "run tokstream convert again to convert\n", dest);
	run.interrupted_after = xstrfmt("tokstream: interrupted: '%s' is converted; its old generations "
					"and staging files go at the next run\n", dest);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);
	take_lock();
}

/*
 * The configuration of this run (the views' fingerprint, the filter
 * options, the sources) into config; against the one recorded in cur
 * (the generation in force, unless fresh), which must agree, and whose
 * options are taken when none are given.
 */
static void check_recorded(const char *dest, const char *cur, int fresh, struct convert_options *o,
			   const struct source *srcs, int nr_src, struct strbuf *config)
{
	struct strbuf path = STRBUF_INIT, views = STRBUF_INIT;
	struct dest_config old;
	size_t k;
	int j;

	memset(&old, 0, sizeof(old));
	if (!fresh) {
		generation_file_path(&path, cur, GEN_CONFIG);
		if (dest_config_read_file(&old, path.buf))
			die("'%s' is missing: convert afresh into a new DEST", path.buf);
		/* none given: reuse the recorded ones */
		if (!o->filter_opts.nr)
			for (k = 0; k < old.nr_options; k++)
				strvec_push(&o->filter_opts, old.options[k]);
	}
	views_fingerprint(&views);
	if (!fresh && (!old.views || strcmp(old.views, views.buf)))
		die("'%s' was converted by a tokstream whose lexers or languages differ from "
		    "this one's: its views would not match; convert afresh into a new DEST", dest);
	if (!fresh && old.nr_options != o->filter_opts.nr)
		goto other_options;
	for (k = 0; !fresh && k < o->filter_opts.nr; k++)
		if (strcmp(old.options[k], o->filter_opts.v[k]))
			goto other_options;
	if (!fresh && old.nr_sources != (size_t)nr_src)
		goto other_sources;
	for (j = 0; !fresh && j < nr_src; j++)
		if (strcmp(old.sources[j], srcs[j].path.buf))
			goto other_sources;
	dest_config_add_views(config, views.buf);
	for (k = 0; k < o->filter_opts.nr; k++)
		dest_config_add_option(config, o->filter_opts.v[k]);
	for (j = 0; j < nr_src; j++)
		dest_config_add_source(config, srcs[j].path.buf);
	dest_config_release(&old);
	strbuf_release(&path);
	strbuf_release(&views);
	return;
other_options:
	die("'%s' was converted with other options (recorded in %s); "
	    "convert afresh into a new DEST to change them", dest, path.buf);
other_sources:
	die("'%s' was converted from other sources (recorded in %s); "
	    "give the same sources, or convert afresh into a new DEST", dest, path.buf);
}

/*
 * A new generation beside the one in force, the sources' marks and
 * filter states carried into it, and a staging repository that borrows
 * DEST's objects and settings.
 */
static void prepare_generation(int gen, const char *cur, int fresh, int nr_src)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, dest_config = STRBUF_INIT;
	int k;

	generation_path(&run.next, run.gitdir.buf, gen + 1, 1);
	remove_tree(run.next.buf);
	if (mkdir(run.next.buf, 0755))
		die_errno("cannot create '%s'", run.next.buf);
	state_path(&run.staging, run.gitdir.buf, STATE_STAGING);
	remove_tree(run.staging.buf);
	init_bare(run.staging.buf, "git init --bare (staging)");
	strbuf_addf(&path, "%s/objects/info/alternates", run.staging.buf);
	strbuf_addf(&text, "%s/objects\n", run.gitdir.buf);
	write_atomic(path.buf, text.buf, text.len);
	/*
	 * fast-import runs here and writes DEST's packs: DEST's own
	 * settings (pack.depth, pack.compression, ...) are to be its
	 * settings, as they would be in DEST.
	 */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/config", run.staging.buf);
	strbuf_addf(&dest_config, "%s/config", run.gitdir.buf);
	if (strbuf_read_file(&text, path.buf))
		die_errno("cannot read '%s'", path.buf);
	strbuf_addstr(&text, "[include]\n\tpath = ");
	config_quote(&text, dest_config.buf);
	strbuf_addch(&text, '\n');
	write_atomic(path.buf, text.buf, text.len);
	for (k = 0; !fresh && k < nr_src; k++) {
		enum source_file f;

		for (f = 0; f < NR_SOURCE_FILES; f++) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

			source_file_path(&a, cur, k, f);
			source_file_path(&b, run.next.buf, k, f);
			copy_file(a.buf, b.buf);
			strbuf_release(&a);
			strbuf_release(&b);
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&dest_config);
}

/*
 * Every source in turn, each later era grafted onto the tip of the one
 * before on its first conversion; the maps of the new generation
 * rewritten after each, and read back into commits.
 */
static void convert_sources(struct source *srcs, int nr_src, const char *cur, int fresh,
			    const struct convert_options *o, const char *self, struct oid_map *commits,
			    struct strbuf *tag_map, struct strbuf *tips)
{
	struct strbuf commit_map = STRBUF_INIT, path = STRBUF_INIT;
	struct dest_tips old_tips;
	struct stat st;
	int i, k;

	memset(&old_tips, 0, sizeof(old_tips));
	if (!fresh) {
		generation_file_path(&path, cur, GEN_TIPS);
		dest_tips_read_file(&old_tips, path.buf);
	}
	memset(commits, 0, sizeof(*commits));
	for (k = 0; k < nr_src; k++) {
		const char *graft = NULL, *ref = srcs[k].head_ref.len ? srcs[k].head_ref.buf : "HEAD";
		const struct dest_tip *was = dest_tips_find(&old_tips, k + 1);

		if (!fresh && k < nr_src - 1 &&
		    (!was || strcmp(was->tip, srcs[k].tip.buf) || strcmp(was->ref, ref)))
			die("source %d ('%s') is not where it was: only the newest source may "
			    "gain commits; convert afresh into a new DEST", k + 1, srcs[k].path.buf);
		dest_tips_add(tips, k + 1, srcs[k].tip.buf, ref);
		source_file_path(&path, run.next.buf, k, SRC_EXPORT_MARKS);
		if (k > 0 && stat(path.buf, &st)) {
			/* the first conversion of a later era: graft it onto the earlier one */
			graft = oid_map_token(commits, srcs[k - 1].tip.buf);
			if (!graft)
				die("the tip of source %d was not converted", k);
		}
		convert_source(&srcs[k], k, self, &o->filter_opts, graft, o->progress, o->stats);
		strbuf_reset(&commit_map);
		strbuf_reset(tag_map);
		/* tags that this run did not export again keep their old lines */
		if (!fresh) {
			generation_file_path(&path, cur, GEN_TAG_MAP);
			strbuf_read_file(tag_map, path.buf);
		}
		for (i = 0; i <= k; i++)
			append_maps(i, &commit_map, tag_map);
		generation_file_path(&path, run.next.buf, GEN_COMMIT_MAP);
		write_atomic(path.buf, commit_map.buf, commit_map.len);
		oid_map_release(commits);
		oid_map_read(commits, path.buf);
	}
	dest_tips_release(&old_tips);
	strbuf_release(&commit_map);
	strbuf_release(&path);
}

/* Writes the file f of the new generation. */
static void write_generation_file(enum generation_file f, const struct strbuf *content)
{
	struct strbuf path = STRBUF_INIT;

	generation_file_path(&path, run.next.buf, f);
	write_atomic(path.buf, content->buf, content->len);
	strbuf_release(&path);
}

/*
 * The commit point: objects first, then the new generation with its
 * maps, config and refs, which takes effect with the switch of
 * `current`; the generation's name goes to gen_name.
 */
static void switch_generation(int gen, const char *cur, int fresh, struct source *srcs, int nr_src,
			      struct oid_map *commits, const struct strbuf *tag_map,
			      const struct strbuf *config, const struct strbuf *tips, struct strbuf *gen_name)
{
	struct strbuf path = STRBUF_INIT, ref_script = STRBUF_INIT;
	struct oid_map tags;
	int link_later;

	move_packs();
	write_generation_file(GEN_TAG_MAP, tag_map);
	write_generation_file(GEN_CONFIG, config);
	write_generation_file(GEN_TIPS, tips);
	/* the refs too: the switch of current is the switch of the refs */
	link_later = link_packed_refs(fresh, cur);
	generation_file_path(&path, run.next.buf, GEN_TAG_MAP);
	oid_map_read(&tags, path.buf);
	prepare_refs(srcs, nr_src, commits, &tags, &ref_script);
	write_generation_file(GEN_PACKED_REFS, &ref_script);
	generation_path(&path, run.gitdir.buf, gen + 1, 0);
	remove_tree(path.buf);
	if (rename(run.next.buf, path.buf))
		die_errno("cannot rename '%s'", run.next.buf);
	/*
	 * The map's link goes through current, and a first conversion's
	 * HEAD names a branch no ref holds yet: both are made before the
	 * switch, so that a run killed right after it leaves DEST whole.
	 */
	state_path(&path, run.gitdir.buf, STATE_COMMIT_MAP);
	switch_symlink(commit_map_link, path.buf);
	if (fresh && !link_later)
		set_head(srcs, nr_src);
	generation_name(gen_name, gen + 1);
	state_path(&path, run.gitdir.buf, STATE_CURRENT);
	switch_symlink(gen_name->buf, path.buf);
	if (link_later) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/packed-refs", run.gitdir.buf);
		switch_symlink(packed_refs_link, path.buf);
	}
	if (!fresh || link_later)
		set_head(srcs, nr_src);
	oid_map_release(&tags);
	strbuf_release(&path);
	strbuf_release(&ref_script);
}

/* Every generation but keep, also those a killed run left behind. */
static void remove_old_generations(const char *keep)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d = opendir(run.dir.buf);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!is_generation_name(e->d_name) || !strcmp(e->d_name, keep))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", run.dir.buf, e->d_name);
		remove_tree(path.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
}

/*
 * What a source's tokstream.dest names, against DEST (resolved): blame,
 * html and report run in the source use that one, and only that one
 * holds the attribution state they have made (DEST/tokstream/replay/).
 */
enum recorded_dest {
	RECORDED_NONE,       /* none: the source's first conversion */
	RECORDED_THIS,       /* DEST itself, however it is spelled */
	RECORDED_GONE,       /* a path that no longer exists */
	RECORDED_NO_TOKENS,  /* something that is no token repository */
	RECORDED_OTHER       /* another token repository */
};

static enum recorded_dest check_recorded_dest(const struct source *src, const char *dest,
					      struct strbuf *was)
{
	struct strbuf path = STRBUF_INIT;
	enum recorded_dest r;
	char *real;

	if (recorded_dest(src->path.buf, was))
		return RECORDED_NONE;
	/* one set by hand may be relative: to the source, as a path in its config */
	if (was->buf[0] != '/')
		strbuf_addf(&path, "%s/", src->path.buf);
	strbuf_addbuf(&path, was);
	real = realpath(path.buf, NULL);
	if (!real)
		r = errno == ENOENT || errno == ENOTDIR ? RECORDED_GONE : RECORDED_NO_TOKENS;
	else if (!strcmp(real, dest))
		r = RECORDED_THIS;
	else if (!is_token_repository(real))
		r = RECORDED_NO_TOKENS;
	else
		r = RECORDED_OTHER;
	free(real);
	strbuf_release(&path);
	return r;
}

/* s as one word of a shell command: as it is when that is safe, else in single quotes. */
static void add_shell_word(struct strbuf *out, const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789/._-+,:@%=";

	if (*s && !s[strspn(s, safe)]) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	strbuf_addch(out, '\'');
}

/* The source keeps another token repository: say how to make DEST its default instead. */
static void warn_dest_kept(const char *src, const char *was, const char *dest)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addstr(&cmd, "git -C ");
	add_shell_word(&cmd, src);
	strbuf_addstr(&cmd, " config tokstream.dest ");
	add_shell_word(&cmd, dest);
	warning("tokstream.dest of '%s' stays '%s' (blame, html and report there use it); "
		"to use '%s' instead: %s", src, was, dest, cmd.buf);
	strbuf_release(&cmd);
}

/*
 * Records DEST as tokstream.dest in each source, so that blame, html
 * and report run there find it without -C; but a source that names
 * another token repository keeps it: that is where the attribution
 * state of its blames is (a blame of a fraction of a second there takes
 * minutes in a new DEST), and a DEST made for a trial must not take its
 * place unseen.  The first conversion into a new DEST says so, once,
 * with the command that makes it the default.  A recorded DEST that is
 * gone, or is no token repository, is replaced, and that is said too:
 * the setting never changes silently.
 */
static void record_dest_in_sources(const struct source *srcs, int nr_src, int fresh)
{
	struct strbuf dest = STRBUF_INIT, was = STRBUF_INIT;
	const char *why;
	int k;

	absolute(run.gitdir.buf, &dest);
	for (k = 0; k < nr_src; k++) {
		const char *src = srcs[k].path.buf;

		why = NULL;
		switch (check_recorded_dest(&srcs[k], dest.buf, &was)) {
		case RECORDED_NONE:
			break;
		case RECORDED_THIS:
			continue;
		case RECORDED_OTHER:
			if (fresh)
				warn_dest_kept(src, was.buf, dest.buf);
			continue;
		case RECORDED_GONE:
			why = "which no longer exists";
			break;
		case RECORDED_NO_TOKENS:
			why = "which is no token repository";
			break;
		}
		if (record_dest(src, dest.buf))
			warning("could not record tokstream.dest in '%s' (its config is read-only?): "
				"give -C DEST there", src);
		else if (why)
			warning("tokstream.dest of '%s' named '%s', %s: it names '%s' now",
				src, was.buf, why, dest.buf);
	}
	strbuf_release(&dest);
	strbuf_release(&was);
}

int cmd_convert(int argc, char **argv)
{
	struct convert_options o;
	struct strbuf config = STRBUF_INIT, path = STRBUF_INIT, cur = STRBUF_INIT, tag_map = STRBUF_INIT,
		tips = STRBUF_INIT, self = STRBUF_INIT, gen_name = STRBUF_INIT;
	int nr_src, gen, fresh, k, attribute_failed = 0;
	struct source *srcs;
	const char *dest;
	struct oid_map commits;
	struct stat st;

	memset(&o, 0, sizeof(o));
	nr_src = parse_convert_options(argc, argv, &o) - 1;
	dest = argv[nr_src];
	srcs = xcalloc((size_t)nr_src, sizeof(*srcs));
	for (k = 0; k < nr_src; k++)
		inspect_source(&srcs[k], argv[k]);
	self_path(&self);
	if (stat(dest, &st) || is_empty_directory(dest))
		create_dest(dest);
	else
		check_dest_repository(dest, &st);
	open_dest(dest);

	/* the recorded options and sources, and what changed */
	gen = current_generation(run.gitdir.buf);
	fresh = gen == 0;
	if (fresh)
		run.interrupted_before = xstrfmt("tokstream: interrupted: '%s' holds no conversion yet; "
						 "run tokstream convert again to convert\n", dest);
	generation_path(&cur, run.gitdir.buf, gen, 0);
	check_recorded(dest, cur.buf, fresh, &o, srcs, nr_src, &config);
	prepare_generation(gen, cur.buf, fresh, nr_src);
	convert_sources(srcs, nr_src, cur.buf, fresh, &o, self.buf, &commits, &tag_map, &tips);
	switch_generation(gen, cur.buf, fresh, srcs, nr_src, &commits, &tag_map, &config, &tips, &gen_name);
	run.switched = 1;
	record_dest_in_sources(srcs, nr_src, fresh);
	remove_old_generations(gen_name.buf);
	remove_tree(run.staging.buf);
	repack_dest();
	write_commit_graph();
	/*
	 * The whole tree's attribution that a report or html page left in
	 * DEST follows the new tip, so that blame there reads it at once.
	 */
	state_replay_path(&path, run.gitdir.buf, "tokens", 0);
	if ((o.attribute || !access(path.buf, F_OK)) &&
	    advance_checkpoint(srcs[nr_src - 1].path.buf, o.quiet, o.attribute) && o.attribute)
		attribute_failed = 1;
	cleanup();
	if (!o.quiet)
		fprintf(stderr, "tokstream: %s: %zu commits from %d source%s\n", run.gitdir.buf,
			commits.nr, nr_src, nr_src > 1 ? "s" : "");
	oid_map_release(&commits);
	strvec_clear(&o.filter_opts);
	if (attribute_failed)
		die("'%s' is converted, but attributing the tokens of HEAD failed (see above)", run.gitdir.buf);
	return 0;
}
