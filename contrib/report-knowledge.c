/*
 * Knowledge at risk: whose code is left without its author, and how few
 * departures would leave most of it so.  An author has departed when
 * their newest commit reachable from REV is more than --departed-after
 * before REV's commit date: the history says so, no one marks them.  A
 * token whose author departed is orphaned.  The truck factor of a
 * directory or file is the fewest authors whose departure would orphan
 * more than half of its tokens; since every token has one author, the
 * authors with the most tokens, taken first, are the fewest (as for the
 * consent cover), so it is exact and needs no search.
 *
 * The people's tokens only, as everywhere in the report: bots and the
 * files left out are out of it.
 */
#include "report.h"
#include "../tokenize/run-command.h"
#include "../tokenize/usage.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY (24LL * 60 * 60)

int parse_duration(const char *s, long long *seconds)
{
	static const struct {
		char unit;
		long long seconds;
	} units[] = { { 'd', DAY }, { 'w', 7 * DAY }, { 'm', 30 * DAY }, { 'y', 365 * DAY } };
	long long n = 0;
	size_t i;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		if (n > 10000000)  /* more days than any history has: and no overflow below */
			return -1;
		n = n * 10 + (*s - '0');
	}
	if (!*s || s[1])
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (units[i].unit == *s) {
			*seconds = n * units[i].seconds;
			return 0;
		}
	return -1;
}

size_t history_author(struct report *rep, const char *name)
{
	int isnew;
	size_t *v = smap_put(&rep->history_index, name, rep->nr_history, &isnew);

	if (isnew) {
		struct history_author *h;

		ALLOC_GROW(rep->history, rep->nr_history + 1, rep->alloc_history);
		h = &rep->history[rep->nr_history++];
		memset(h, 0, sizeof(*h));
		h->name = xstrdup(name);
		strbuf_init(&h->addresses, 0);
	}
	return *v;
}

void add_history_address(struct smap *seen, struct history_author *h, size_t k, const char *address)
{
	struct strbuf key = STRBUF_INIT;
	char *p;
	int isnew;

	if (!*address)
		return;
	strbuf_addf(&key, "%zu\n%s", k, address);
	for (p = key.buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	smap_put(seen, key.buf, 0, &isnew);
	if (isnew)
		strbuf_addf(&h->addresses, "%s%s", h->addresses.len ? ", " : "", address);
	strbuf_release(&key);
}

/*
 * One commit of git log: "ID AUTHOR-TIME COMMITTER-TIME NAME\nADDRESS\nRAW-ADDRESS"
 * (the name and the first address through the mailmap, as the report counts them).
 */
static void read_history_commit(struct report *rep, char *rec, struct smap *seen)
{
	char *name, *email, *raw_email, *end;
	long long at, ct;
	struct history_author *h;
	size_t k;

	if (strlen(rec) < 42 || rec[40] != ' ')
		return;
	rec[40] = '\0';
	at = strtoll(rec + 41, &end, 10);
	ct = strtoll(end, &end, 10);
	if (*end != ' ' || !(email = strchr(end + 1, '\n')) || !(raw_email = strchr(email + 1, '\n')))
		return;
	name = end + 1;
	*email++ = '\0';
	*raw_email++ = '\0';
	if (!strcmp(rec, rep->ctx.orig))
		rep->rev_time = ct;
	k = history_author(rep, merged_name(rep, name));
	h = &rep->history[k];
	if (!h->last_commit[0] || at > h->last_time) {
		memcpy(h->last_commit, rec, 41);
		h->last_time = at;
	}
	add_history_address(seen, h, k, email);
	add_history_address(seen, h, k, raw_email);
}

void author_history(struct report *rep)
{
	const char *argv[] = { "git", "log", "-z",
			       rep->opt.no_mailmap ? "--format=%H %at %ct %an%n%ae%n%ae"
						   : "--format=%H %at %ct %aN%n%aE%n%ae",
			       rep->ctx.orig, "--", NULL };
	struct strbuf out = STRBUF_INIT;
	struct smap seen = SMAP_INIT;
	char *p, *next;

	if (run_capture(argv, rep->line_repo.buf, &out))
		die("git log failed in '%s'", rep->line_repo.buf);
	for (p = out.buf; p < out.buf + out.len; p = next) {
		next = p + strlen(p) + 1;
		read_history_commit(rep, p, &seen);
	}
	smap_release(&seen);
	strbuf_release(&out);
}

void departures(struct report *rep)
{
	size_t i, *k;

	for (i = 0; i < rep->nr_authors; i++) {
		struct author *a = &rep->authors[i];
		const struct history_author *h;

		if (!(k = smap_get(&rep->history_index, a->name))) {
			a->addresses = "";
			continue;
		}
		h = &rep->history[*k];
		memcpy(a->last_commit, h->last_commit, sizeof(a->last_commit));
		a->last_time = h->last_time;
		a->addresses = h->addresses.buf;
		a->departed = a->last_commit[0] && rep->rev_time - a->last_time > rep->opt.departed_after_seconds;
	}
}

/* What is at risk in a directory or a file. */
struct risk {
	const char *path;
	size_t files, tokens, orphaned, authors, departed;
	size_t truck, active_truck;  /* (size_t)-1: none, for no tokens */
	const struct share *top;     /* NULL: no tokens */
};

/*
 * The truck factor counts every author, as if none had departed; the
 * active truck factor only those still active, the departed's tokens
 * orphaned already (0: more than half is).
 */
static void assess(const struct report *rep, const struct share *owners, size_t nr, struct risk *r)
{
	size_t need, held, i;

	r->authors = nr;
	r->top = nr ? &owners[0] : NULL;
	for (i = 0; i < nr; i++)
		if (rep->authors[owners[i].author].departed) {
			r->departed++;
			r->orphaned += owners[i].tokens;
		}
	r->truck = r->active_truck = (size_t)-1;
	if (!r->tokens)
		return;
	need = r->tokens / 2 + 1;
	r->truck = fewest_owners(owners, nr, need);
	held = r->orphaned;
	for (i = 0, r->active_truck = 0; i < nr && held < need; i++)
		if (!rep->authors[owners[i].author].departed) {
			held += owners[i].tokens;
			r->active_truck++;
		}
}

/* Most orphaned tokens first, then the lowest truck factor, the most tokens, by path. */
static int cmp_risk(const void *a, const void *b)
{
	const struct risk *x = a, *y = b;

	if (x->orphaned != y->orphaned)
		return x->orphaned < y->orphaned ? 1 : -1;
	if (x->truck != y->truck)
		return x->truck < y->truck ? -1 : 1;
	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* The lowest truck factor first, then the most tokens, by path. */
static int cmp_truck(const void *a, const void *b)
{
	const struct risk *x = *(const struct risk *const *)a, *y = *(const struct risk *const *)b;

	if (x->truck != y->truck)
		return x->truck < y->truck ? -1 : 1;
	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->path, y->path);
}

static void count_or_none(struct table *t, size_t n)
{
	if (n == (size_t)-1)
		table_none(t, "-");
	else
		table_count(t, n);
}

/* A row of knowledge.tsv (with_files) or knowledge-files.tsv. */
static void risk_row(struct report *rep, struct table *t, const struct risk *r, int with_files)
{
	table_text(t, r->path);
	if (with_files)
		table_count(t, r->files);
	table_count(t, r->tokens);
	table_count(t, r->orphaned);
	table_number(t, pct((double)r->orphaned, (double)r->tokens));
	table_count(t, r->authors);
	table_count(t, r->departed);
	count_or_none(t, r->truck);
	count_or_none(t, r->active_truck);
	if (r->top) {
		table_text(t, rep->authors[r->top->author].name);
		table_number(t, pct((double)r->top->tokens, (double)r->tokens));
	} else {
		table_none(t, "");
		table_none(t, "-");
	}
}

/* knowledge.tsv: every directory, every level ("." the whole selection), the most orphaned first. */
static struct table *knowledge_table(struct report *rep, const struct dir_tally *dirs, size_t nr_dirs,
				     struct risk *risks)
{
	static const char *const cols[] = { "directory", "files", "tokens", "orphaned_tokens", "orphaned_share",
					    "authors", "departed_authors", "truck_factor", "active_truck_factor",
					    "top_author", "top_author_share", NULL };
	struct table *t = table_begin(rep, "knowledge.tsv", cols);
	size_t i;

	for (i = 0; i < nr_dirs; i++) {
		memset(&risks[i], 0, sizeof(*risks));
		risks[i].path = dirs[i].path;
		risks[i].files = dirs[i].files;
		risks[i].tokens = dirs[i].tokens;
		assess(rep, dirs[i].owners, dirs[i].nr_owners, &risks[i]);
	}
	if (nr_dirs)
		qsort(risks, nr_dirs, sizeof(*risks), cmp_risk);
	for (i = 0; i < nr_dirs; i++)
		risk_row(rep, t, &risks[i], 1);
	table_end(rep, t);
	return t;
}

/* knowledge-files.tsv: every file, the most orphaned first. */
static void knowledge_files_table(struct report *rep, const struct file_people *files, size_t nr)
{
	static const char *const cols[] = { "path", "tokens", "orphaned_tokens", "orphaned_share", "authors",
					    "departed_authors", "truck_factor", "active_truck_factor", "top_author",
					    "top_author_share", NULL };
	struct table *t = table_begin(rep, "knowledge-files.tsv", cols);
	struct risk *risks = xcalloc(nr + 1, sizeof(*risks));
	size_t i;

	for (i = 0; i < nr; i++) {
		risks[i].path = files[i].path;
		risks[i].files = 1;
		risks[i].tokens = files[i].tokens;
		assess(rep, files[i].owners, files[i].nr_owners, &risks[i]);
	}
	if (nr)
		qsort(risks, nr, sizeof(*risks), cmp_risk);
	for (i = 0; i < nr; i++)
		risk_row(rep, t, &risks[i], 0);
	table_end(rep, t);
	free(risks);
}

/* knowledge-authors.tsv: the people with tokens, the most first, with their newest commit; who departed. */
static struct table *knowledge_authors_table(struct report *rep, size_t total)
{
	static const char *const cols[] = { "author", "tokens", "token_share", "last_commit", "last_date",
					    "departed", NULL };
	struct table *t = table_begin(rep, "knowledge-authors.tsv", cols);
	size_t i;

	for (i = 0; i < rep->nr_by_tokens; i++) {
		const struct author *a = rep->by_tokens[i];
		char day[16];

		day_of(a->last_time, day, sizeof(day));
		table_text(t, a->name);
		table_count(t, a->tokens);
		table_number(t, pct((double)a->tokens, (double)total));
		table_text(t, a->last_commit);
		table_text(t, day);
		table_text(t, a->departed ? "yes" : "no");
	}
	table_end(rep, t);
	return t;
}

static int cmp_history_name(const void *a, const void *b)
{
	return strcmp((*(const struct history_author *const *)a)->name, (*(const struct history_author *const *)b)->name);
}

/*
 * history-authors.tsv: every name of the history, by name, with its
 * addresses and newest commit (the time too, in seconds): what
 * departures are judged by, so that the reports of several repositories,
 * merged, judge them over all the histories, where an author may have
 * tokens in one and their newest commit in another.
 */
static void history_authors_table(struct report *rep)
{
	static const char *const cols[] = { "author", "addresses", "last_commit", "last_date", "last_time", NULL };
	struct table *t = table_begin(rep, "history-authors.tsv", cols);
	const struct history_author **sorted = xcalloc(rep->nr_history + 1, sizeof(*sorted));
	size_t i;

	for (i = 0; i < rep->nr_history; i++)
		sorted[i] = &rep->history[i];
	if (rep->nr_history)
		qsort(sorted, rep->nr_history, sizeof(*sorted), cmp_history_name);
	for (i = 0; i < rep->nr_history; i++) {
		char day[16];

		day_of(sorted[i]->last_time, day, sizeof(day));
		table_text(t, sorted[i]->name);
		table_text(t, sorted[i]->addresses.buf);
		table_text(t, sorted[i]->last_commit);
		table_text(t, day);
		table_int(t, sorted[i]->last_time);
	}
	table_end(rep, t);
	free(sorted);
}

/* Up to top rows of t, by the order of rows (indices into t), under a heading. */
static void ranked_rows(struct strbuf *pg, const struct table *t, const size_t *rows, size_t nr, const char *title)
{
	size_t i;

	strbuf_addstr(pg, title);
	strbuf_addstr(pg, "<table>");
	th_row(pg, t->cols);
	for (i = 0; i < nr; i++)
		table_html_row(pg, t, rows[i], 0, NULL);
	strbuf_addstr(pg, "</table>");
}

/* n as text in buf, or "-" for none. */
static const char *count_text(size_t n, char *buf, size_t size)
{
	if (n == (size_t)-1)
		return "-";
	snprintf(buf, size, "%zu", n);
	return buf;
}

/* The page's opening paragraph: who departed, and what the whole selection risks. */
static void knowledge_intro(struct report *rep, struct strbuf *pg, const struct risk *root, size_t departed)
{
	char now[16], cutoff[16], truck[32], active[32];

	day_of(rep->rev_time, now, sizeof(now));
	day_of(rep->rev_time - rep->opt.departed_after_seconds, cutoff, sizeof(cutoff));
	section_heading(rep, pg, "knowledge");
	if (rep->nr_merged)
		strbuf_addf(pg, "<p>An author has <em>departed</em> when their newest commit reachable from "
			    "the revision of any of the repositories is more than %s (<code>--departed-after</code>) "
			    "older than the newest of the revisions' commit dates (%s): older than %s. ",
			    rep->opt.departed_after, now, cutoff);
	else
		strbuf_addf(pg, "<p>An author has <em>departed</em> when their newest commit reachable from "
			    "the revision is more than %s (<code>--departed-after</code>) older than the "
			    "revision's commit date (%s): older than %s. ", rep->opt.departed_after, now, cutoff);
	strbuf_addf(pg, "%zu of the %zu authors with tokens %s departed", departed, rep->nr_by_tokens,
		    departed == 1 ? "has" : "have");
	if (root)
		strbuf_addf(pg, "; their tokens, %s%% of the people's, are <em>orphaned</em>. The truck factor "
			    "(the fewest authors whose departure would orphan more than half of the tokens) is %s; "
			    "of the authors still active, %s would have to leave", pct((double)root->orphaned,
			    (double)root->tokens), count_text(root->truck, truck, sizeof(truck)),
			    count_text(root->active_truck, active, sizeof(active)));
	strbuf_addstr(pg, ". Departed says only that the history has no newer commit of theirs: not that "
		      "they are gone, nor that no one else knows the code (reviewers, users, readers). "
		      "Every directory and file is in <code>knowledge.tsv</code> and <code>knowledge-files.tsv</code>, "
		      "every author's newest commit in <code>knowledge-authors.tsv</code> (and that of every name of "
		      "the history, tokens or none, in <code>history-authors.tsv</code>).</p>");
}

/* The page: the directories with the most orphaned tokens, with the lowest truck factors; the departed. */
static void knowledge_page(struct report *rep, struct strbuf *pg, const struct table *dirs_t,
			   const struct risk *risks, size_t nr_dirs, const struct table *authors_t)
{
	const struct risk **by_truck = xcalloc(nr_dirs + 1, sizeof(*by_truck));
	size_t *rows = xcalloc(nr_dirs + table_rows(authors_t) + 1, sizeof(*rows));
	size_t top = (size_t)rep->opt.top, nr = 0, nr_truck = 0, departed = 0, i;
	const struct risk *root = NULL;

	for (i = 0; i < table_rows(authors_t); i++)
		departed += rep->by_tokens[i]->departed;
	for (i = 0; i < nr_dirs; i++) {
		if (!strcmp(risks[i].path, "."))
			root = &risks[i];
		else if (risks[i].truck != (size_t)-1)
			by_truck[nr_truck++] = &risks[i];
	}
	knowledge_intro(rep, pg, root, departed);
	for (i = 0; i < nr_dirs && nr < top; i++)
		if (&risks[i] != root && risks[i].orphaned)
			rows[nr++] = i;
	if (nr)
		ranked_rows(pg, dirs_t, rows, nr, "<h3>The directories with the most orphaned tokens</h3>");
	if (nr_truck)
		qsort(by_truck, nr_truck, sizeof(*by_truck), cmp_truck);
	for (i = 0, nr = 0; i < nr_truck && nr < top; i++)
		rows[nr++] = (size_t)(by_truck[i] - risks);
	if (nr)
		ranked_rows(pg, dirs_t, rows, nr, "<h3>The directories with the lowest truck factors</h3>");
	for (i = 0, nr = 0; i < table_rows(authors_t) && nr < top; i++)
		if (rep->by_tokens[i]->departed)
			rows[nr++] = i;
	if (nr)
		ranked_rows(pg, authors_t, rows, nr, "<h3>The departed authors with the most tokens</h3>");
	free(by_truck);
	free(rows);
}

void section_knowledge(struct report *rep, struct strbuf *pg, const struct file_people *files, size_t nr_files,
		       const struct dir_tally *dirs, size_t nr_dirs)
{
	struct risk *risks = xcalloc(nr_dirs + 1, sizeof(*risks));
	struct table *dirs_t = knowledge_table(rep, dirs, nr_dirs, risks), *authors_t;

	knowledge_files_table(rep, files, nr_files);
	authors_t = knowledge_authors_table(rep, people_tokens(rep));
	history_authors_table(rep);
	knowledge_page(rep, pg, dirs_t, risks, nr_dirs, authors_t);
	free(risks);
}
