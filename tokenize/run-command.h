/* Running git and other programs, without a shell in between. */
#ifndef RUN_COMMAND_H
#define RUN_COMMAND_H

#include <sys/types.h>
#include <sys/resource.h>
#include "strbuf.h"

struct child {
	const char **argv;     /* argv[0] is looked up in PATH */
	const char *dir;       /* chdir there first, if set */
	int in, out;           /* file descriptors for stdin/stdout; -1: inherit */
	int close_fd[4];       /* descriptors the child must close (-1: none) */
	int no_stderr;         /* send the child's stderr to /dev/null */
	pid_t pid;
	struct rusage ru;      /* after finish_command: what it and its children used */
};

/* pipe(), its two ends closed in every child at exec */
void make_pipe(int fd[2]);
/*
 * The same for a stream of bulk data to a reader slower than its writer
 * (fd[0] to read, fd[1] to write): a Unix socket pair whose writer
 * sleeps until most of its buffer has drained, where a pipe's writer
 * wakes at each read of a full pipe.
 */
void make_bulk_channel(int fd[2]);
void child_init(struct child *c, const char **argv);
void start_command(struct child *c);
/* Waits; returns the exit status, or 128 + signal number. */
int finish_command(struct child *c);
/* The CPU time of a resource usage, user and system, in seconds. */
double cpu_seconds(const struct rusage *ru);
/* Runs argv and returns its exit status; its stdout goes to out if given. */
int run_capture(const char **argv, const char *dir, struct strbuf *out);
/* The same, with the child's stderr silenced: for questions whose "no" is an answer. */
int run_capture_quiet(const char **argv, const char *dir, struct strbuf *out);
/* The same as run_capture, with input on the child's stdin (through a temporary file). */
int run_capture_input(const char **argv, const char *dir, const struct strbuf *input,
		      struct strbuf *out);

/*
 * The output of a child, record by record as it comes: records end with
 * a separator byte ('\n' for lines, '\0' for -z output).
 */
struct reader {
	struct child c;
	int fd;
	char buf[65536];
	size_t pos, len;
	int eof;
};

/* Starts argv in dir with its stdout going to r. */
void reader_start(struct reader *r, const char **argv, const char *dir);
/* The same, its stdin read from the descriptor in (-1: inherited). */
void reader_start_fd(struct reader *r, const char **argv, const char *dir, int in);
/* The next record, without its separator, in rec; 0 at the end. */
int reader_next(struct reader *r, struct strbuf *rec, int sep);
/* The next n bytes, in out; -1 if the output ends first. */
int reader_read(struct reader *r, size_t n, struct strbuf *out);
/* Closes the pipe and waits: the child's exit status. */
int reader_finish(struct reader *r);

/*
 * Worker w's share of nr (w from 0): 0 when it did it.  to_parent is
 * the worker's end of a pipe whose bytes the parent's heard() counts
 * (progress), or -1 in this process; the worker must not close it, as
 * its end of file is what tells the parent the worker is gone.
 */
typedef int worker_fn(int w, int nr, int to_parent, void *data);
typedef void worker_heard_fn(size_t bytes, void *data);

/*
 * Runs nr workers at once, each in a process forked from this one, or
 * the one in this process when nr is 1 (none when it is 0).  A forked
 * worker ends with _exit(), after flushing every stdio stream: it runs
 * no atexit() handler, so work stops what it started itself.  heard
 * (or NULL) is called in this process as the workers write to their
 * to_parent.  At the first worker that fails (a non-zero return, an
 * exit status or a signal) the others are stopped with SIGTERM; every
 * worker is reaped before run_workers returns: 0 if all succeeded, -1
 * otherwise, for the caller to die saying what failed.
 */
int run_workers(int nr, worker_fn *work, worker_heard_fn *heard, void *data);

#endif
