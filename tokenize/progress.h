/*
 * Progress on stderr, as Git shows it: "TITLE:  45% (1771/3949)",
 * rewritten in place (\r) at each new percent, ending in ", done.".
 * Every command that runs long shows its progress through this, and
 * only through this.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>

struct progress;

/*
 * Whether a command shows progress: its --progress (1) or --no-progress
 * (0) when given (-1: not), else whether stderr is a terminal.
 */
int progress_wanted(int option);

/* A progress display of total steps (0: unknown); NULL when !wanted. */
struct progress *start_progress(const char *title, uint64_t total, int wanted);
/* n steps are done; p may be NULL. */
void display_progress(struct progress *p, uint64_t n);
/* The last line, ", done."; frees *p and sets it to NULL. */
void stop_progress(struct progress **p);

#endif
