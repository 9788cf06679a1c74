/* posix_spawn_file_actions_addchdir_np, where glibc has it */
#define _GNU_SOURCE
#include "run-command.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/*
 * A channel (pipe or socket pair) whose ends no other child inherits:
 * with children started from several threads at once, a write end leaked
 * into another thread's child would hold its reader's end of file back
 * until that child exits.
 */
static void close_on_exec(const int fd[2])
{
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) || fcntl(fd[1], F_SETFD, FD_CLOEXEC))
		die_errno("fcntl");
}

void make_pipe(int fd[2])
{
	if (pipe(fd))
		die_errno("pipe");
	close_on_exec(fd);
}

/*
 * Why a socket: a pipe's writer is woken at each read of a full pipe, and
 * a slow reader reads often and little (fast-import a blob at a time), so
 * the writer runs for one more blob's worth each time: on the kernel
 * releases the filter switched out 176,000 times writing into
 * fast-import's pipe, 55,000 into cat's.  A stream socket's writer is
 * woken only once no more than a quarter of its send buffer is unread:
 * 117,000 times, and the conversion took a tenth less wall time.  The
 * size asked is capped by the system (net.core.wmem_max on Linux).
 */
void make_bulk_channel(int fd[2])
{
	int sv[2], size = 1 << 20;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		/* where sockets are not allowed (a sandbox), a pipe does the same, slower */
		make_pipe(fd);
		return;
	}
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	if (shutdown(sv[0], SHUT_WR) || shutdown(sv[1], SHUT_RD))
		die_errno("shutdown");
	close_on_exec(sv);
	fd[0] = sv[0];
	fd[1] = sv[1];
}

void child_init(struct child *c, const char **argv)
{
	memset(c, 0, sizeof(*c));
	c->argv = argv;
	c->in = c->out = -1;
	c->close_fd[0] = c->close_fd[1] = c->close_fd[2] = c->close_fd[3] = -1;
}

/*
 * The child the old way, fork() then exec: where posix_spawn cannot
 * start it in another directory.
 */
static pid_t fork_command(struct child *c)
{
	pid_t pid = fork();

	if (pid < 0)
		die_errno("cannot fork %s", c->argv[0]);
	if (!pid) {
		int i;

		if (c->in >= 0 && c->in != 0) {
			dup2(c->in, 0);
			close(c->in);
		}
		if (c->out >= 0 && c->out != 1) {
			dup2(c->out, 1);
			close(c->out);
		}
		for (i = 0; i < 4; i++)
			if (c->close_fd[i] > 2)
				close(c->close_fd[i]);
		if (c->no_stderr) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0) {
				dup2(null, 2);
				close(null);
			}
		}
		if (c->dir && chdir(c->dir)) {
			fprintf(stderr, "%s: fatal: cannot enter '%s': %s\n", progname, c->dir, strerror(errno));
			_exit(128);
		}
		execvp(c->argv[0], (char *const *)c->argv);
		fprintf(stderr, "%s: fatal: cannot run %s: %s\n", progname, c->argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* posix_spawn can start a child in another directory where libc says so (glibc 2.29 on). */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
#define spawn_chdir(fa, dir) posix_spawn_file_actions_addchdir_np(fa, dir)
#else
#define spawn_chdir(fa, dir) ENOSYS
#endif

/*
 * Why posix_spawn: fork() copies the page tables of the whole process,
 * and a blame or report holding a large state starts hundreds of git
 * commands; on pytest's history a fifth of a blame's time went to fork
 * and to unmapping the copy at exec.  posix_spawn shares the memory
 * until exec.  Where it cannot change directory, the child is forked.
 */
void start_command(struct child *c)
{
	posix_spawn_file_actions_t fa;
	int err = 0, i;

	fflush(NULL);
	if (posix_spawn_file_actions_init(&fa))
		die_errno("posix_spawn_file_actions_init");
	if (c->in >= 0 && c->in != 0)
		err = err ? err : posix_spawn_file_actions_adddup2(&fa, c->in, 0);
	if (c->out >= 0 && c->out != 1)
		err = err ? err : posix_spawn_file_actions_adddup2(&fa, c->out, 1);
	if (c->in > 2 && c->in != c->out)
		err = err ? err : posix_spawn_file_actions_addclose(&fa, c->in);
	if (c->out > 2)
		err = err ? err : posix_spawn_file_actions_addclose(&fa, c->out);
	/* the ends that are not the child's are closed at exec (close_on_exec) or here */
	for (i = 0; i < 4; i++)
		if (c->close_fd[i] > 2 && c->close_fd[i] != c->in && c->close_fd[i] != c->out)
			err = err ? err : posix_spawn_file_actions_addclose(&fa, c->close_fd[i]);
	if (c->no_stderr)
		err = err ? err : posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (c->dir)
		err = err ? err : spawn_chdir(&fa, c->dir);
	if (!err)
		err = posix_spawnp(&c->pid, c->argv[0], &fa, NULL, (char *const *)c->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	/* it could not start (no directory, no program): the child says why, as it always did */
	if (err)
		c->pid = fork_command(c);
}

int finish_command(struct child *c)
{
	int status;

	while (wait4(c->pid, &status, 0, &c->ru) < 0) {
		if (errno != EINTR)
			die_errno("waitpid");
	}
	c->pid = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

double cpu_seconds(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_stime.tv_sec +
		((double)ru->ru_utime.tv_usec + (double)ru->ru_stime.tv_usec) / 1e6;
}

/* Runs argv with stdin from in (-1: inherited); its stdout goes to out if given. */
static int capture(const char **argv, const char *dir, int in, struct strbuf *out, int quiet)
{
	struct child c;
	int fd[2] = { -1, -1 }, status;

	child_init(&c, argv);
	c.dir = dir;
	c.in = in;
	c.no_stderr = quiet;
	if (out) {
		make_pipe(fd);
		c.out = fd[1];
		c.close_fd[0] = fd[0];
	}
	start_command(&c);
	if (out) {
		close(fd[1]);
		/* a read error ends the output there, as the end of it would */
		(void)strbuf_read_fd(out, fd[0], 0);
		close(fd[0]);
	}
	status = finish_command(&c);
	return status;
}

int run_capture(const char **argv, const char *dir, struct strbuf *out)
{
	return capture(argv, dir, -1, out, 0);
}

int run_capture_quiet(const char **argv, const char *dir, struct strbuf *out)
{
	return capture(argv, dir, -1, out, 1);
}

void reader_start(struct reader *r, const char **argv, const char *dir)
{
	reader_start_fd(r, argv, dir, -1);
}

void reader_start_fd(struct reader *r, const char **argv, const char *dir, int in)
{
	int fd[2];

	make_pipe(fd);
	child_init(&r->c, argv);
	r->c.dir = dir;
	r->c.in = in;
	r->c.out = fd[1];
	r->c.close_fd[0] = fd[0];
	start_command(&r->c);
	close(fd[1]);
	r->fd = fd[0];
	r->pos = r->len = 0;
	r->eof = 0;
}

/* Fills the empty buffer; 0 at the end of the output. */
static int reader_fill(struct reader *r)
{
	for (;;) {
		ssize_t n;

		if (r->eof)
			return 0;
		n = read(r->fd, r->buf, sizeof(r->buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("cannot read the output of %s", r->c.argv[0]);
		if (!n) {
			r->eof = 1;
			return 0;
		}
		r->pos = 0;
		r->len = (size_t)n;
		return 1;
	}
}

int reader_next(struct reader *r, struct strbuf *rec, int sep)
{
	strbuf_reset(rec);
	for (;;) {
		char *end;

		if (r->pos < r->len) {
			end = memchr(r->buf + r->pos, sep, r->len - r->pos);
			if (end) {
				strbuf_add(rec, r->buf + r->pos, (size_t)(end - (r->buf + r->pos)));
				r->pos = (size_t)(end - r->buf) + 1;
				return 1;
			}
			strbuf_add(rec, r->buf + r->pos, r->len - r->pos);
			r->pos = r->len;
		}
		if (!reader_fill(r))
			return rec->len > 0;
	}
}

int reader_read(struct reader *r, size_t n, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_grow(out, n);
	while (n) {
		size_t k;

		if (r->pos == r->len && !reader_fill(r))
			return -1;
		k = r->len - r->pos < n ? r->len - r->pos : n;
		strbuf_add(out, r->buf + r->pos, k);
		r->pos += k;
		n -= k;
	}
	return 0;
}

int reader_finish(struct reader *r)
{
	close(r->fd);
	return finish_command(&r->c);
}

/* Runs argv with input on its stdin; its stdout goes to out. */
int run_capture_input(const char **argv, const char *dir, const struct strbuf *input,
		      struct strbuf *out)
{
	FILE *in = tmpfile();
	int status;

	if (!in || fwrite(input->buf, 1, input->len, in) != input->len || fflush(in))
		die_errno("cannot write a temporary file");
	rewind(in);
	status = capture(argv, dir, fileno(in), out, 0);
	fclose(in);
	return status;
}

/*
 * A forked worker as its parent sees it.  Its pipe's end of file says
 * it is gone, whichever way it went, so that the parent can wait for
 * the first of its workers to end rather than for each in turn.
 */
struct worker {
	pid_t pid;	/* 0 once reaped */
	int fd;		/* the read end of its pipe; -1 at its end of file */
};

/* Reaps w: 0 if it exited with status 0. */
static int reap_worker(struct worker *w)
{
	int status;

	while (waitpid(w->pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	w->pid = 0;
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

/* Stops the workers still there and reaps them, leaving none behind. */
static void stop_workers(struct worker *workers, int nr)
{
	int w;

	for (w = 0; w < nr; w++)
		if (workers[w].pid)
			kill(workers[w].pid, SIGTERM);
	for (w = 0; w < nr; w++) {
		if (workers[w].pid)
			reap_worker(&workers[w]);
		if (workers[w].fd >= 0)
			close(workers[w].fd);
		workers[w].fd = -1;
	}
}

/*
 * The flush: what the worker wrote through stdio would otherwise be
 * lost at _exit().  _exit(), not exit(): the atexit() handlers are the
 * parent's, for its own files and processes, of which the worker has
 * only a copy.
 */
static _Noreturn void worker_main(int w, int nr, int fd, worker_fn *work, void *data)
{
	int ret = work(w, nr, fd, data);

	if (fflush(NULL))
		die_errno("worker %d cannot write its output", w);
	_exit(ret ? 1 : 0);
}

static void start_worker(struct worker *workers, int w, int nr, worker_fn *work, void *data)
{
	int fd[2];

	make_pipe(fd);
	workers[w].pid = fork();
	if (workers[w].pid < 0) {
		int err = errno;

		workers[w].pid = 0;
		close(fd[0]);
		close(fd[1]);
		stop_workers(workers, w);
		errno = err;
		die_errno("cannot fork a worker");
	}
	if (!workers[w].pid) {
		close(fd[0]);
		worker_main(w, nr, fd[1], work, data);
	}
	/* a later worker would inherit it and hold this one's end of file back */
	close(fd[1]);
	workers[w].fd = fd[0];
}

/* Reads what worker w wrote; at its end of file reaps it: 1 if it failed. */
static int hear_worker(struct worker *w, worker_heard_fn *heard, void *data)
{
	char buf[4096];
	ssize_t n = read(w->fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n > 0) {
		if (heard)
			heard((size_t)n, data);
		return 0;
	}
	close(w->fd);
	w->fd = -1;
	return reap_worker(w);
}

/* Waits for every worker, or for the first that fails: -1 then. */
static int wait_workers(struct worker *workers, int nr, worker_heard_fn *heard, void *data)
{
	struct pollfd *pfd = xcalloc((size_t)nr, sizeof(*pfd));
	int left = nr, w, ret = 0;

	while (left && !ret) {
		for (w = 0; w < nr; w++) {
			pfd[w].fd = workers[w].fd;	/* poll() skips those at -1 */
			pfd[w].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)nr, -1) < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		for (w = 0; w < nr && !ret; w++) {
			if (!pfd[w].revents || workers[w].fd < 0)
				continue;
			if (hear_worker(&workers[w], heard, data))
				ret = -1;
			else if (workers[w].fd < 0)
				left--;
		}
	}
	free(pfd);
	return ret;
}

int run_workers(int nr, worker_fn *work, worker_heard_fn *heard, void *data)
{
	struct worker *workers;
	int w, ret;

	if (nr <= 1)
		return nr && work(0, 1, -1, data) ? -1 : 0;
	workers = xcalloc((size_t)nr, sizeof(*workers));
	/* what this process has buffered would otherwise be written again by each worker */
	fflush(NULL);
	for (w = 0; w < nr; w++)
		start_worker(workers, w, nr, work, data);
	ret = wait_workers(workers, nr, heard, data);
	stop_workers(workers, nr);
	free(workers);
	return ret;
}
