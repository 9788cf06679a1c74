#include "progress.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct progress {
	char *title;
	uint64_t total, last_n;
	int last_percent;
	time_t last_shown;
};

int progress_wanted(int option)
{
	return option >= 0 ? option : isatty(2);
}

static void show(struct progress *p, uint64_t n, const char *end)
{
	if (p->total)
		fprintf(stderr, "%s: %3d%% (%ju/%ju)%s", p->title,
			(int)(n > p->total ? 100 : n * 100 / p->total), (uintmax_t)n, (uintmax_t)p->total, end);
	else
		fprintf(stderr, "%s: %ju%s", p->title, (uintmax_t)n, end);
	fflush(stderr);
}

struct progress *start_progress(const char *title, uint64_t total, int wanted)
{
	struct progress *p;

	if (!wanted)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = xstrdup(title);
	p->total = total;
	p->last_percent = -1;
	p->last_shown = time(NULL);
	return p;
}

void display_progress(struct progress *p, uint64_t n)
{
	time_t now;
	int percent;

	if (!p)
		return;
	p->last_n = n;
	percent = p->total ? (int)(n > p->total ? 100 : n * 100 / p->total) : -1;
	now = time(NULL);
	/* as git: at each new percent (each second when the total is unknown), in place */
	if (p->total ? percent == p->last_percent : now == p->last_shown)
		return;
	p->last_percent = percent;
	p->last_shown = now;
	show(p, n, "\r");
}

void stop_progress(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	show(p, p->last_n, ", done.\n");
	free(p->title);
	free(p);
	*pp = NULL;
}
