/*
 * Consent: whose consent a relicensing needs.  Every token surviving at
 * REV in the selection has exactly one author, the one the engine
 * attributes it to: who introduced it to this history (moved and copied
 * code keeps its author; a commit that imported or vendored code owns it,
 * unless it is left out).  So the authors whose consent covers a share
 * of the tokens are found greedily, the most tokens first, and what an
 * author who does not consent leaves to rewrite is their tokens per file.
 *
 * As in the rest of the report bots, and the files left out, are out of
 * it (--include-bots, --include-vendored put them in); the shares here
 * are of the people's tokens, so that the consent of everyone is 100%.
 */
#include "report.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shares of the tokens the cover figures reach, in percent. */
static const unsigned cover_percent[] = { 90, 99, 100 };
#define NR_COVERS (sizeof(cover_percent) / sizeof(*cover_percent))

/* Whether commit a is older than commit b: by author date, then by id. */
static int commit_older(const struct gcommit *a, const struct gcommit *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return strcmp(a->id, b->id) < 0;
}

static void stamp(struct commit_stamp *s, const struct gcommit *c)
{
	memcpy(s->id, c->id, sizeof(s->id));
	s->time = c->time;
}

void owning_commits(struct report *rep)
{
	size_t *first = xcalloc(rep->nr_authors + 1, sizeof(*first));
	size_t *last = xcalloc(rep->nr_authors + 1, sizeof(*last));
	size_t i, j;

	for (i = 0; i < rep->nr_authors; i++)
		first[i] = last[i] = (size_t)-1;
	for (i = 0; i < rep->nr_files; i++) {
		const struct rfile *f = &rep->files[i];

		if (f->skipped)
			continue;
		for (j = 0; j < f->nr_c; j++) {
			size_t c = f->c[j].commit, a = rep->commits[c].author_idx;

			if (!f->c[j].tokens)
				continue;
			if (first[a] == (size_t)-1 || commit_older(&rep->commits[c], &rep->commits[first[a]]))
				first[a] = c;
			if (last[a] == (size_t)-1 || commit_older(&rep->commits[last[a]], &rep->commits[c]))
				last[a] = c;
		}
	}
	for (i = 0; i < rep->nr_authors; i++)
		if (first[i] != (size_t)-1) {
			stamp(&rep->authors[i].first_owning, &rep->commits[first[i]]);
			stamp(&rep->authors[i].last_owning, &rep->commits[last[i]]);
		}
	free(first);
	free(last);
}

/* A commit's id and its author date (UTC) as two cells. */
static void commit_cells(struct table *t, const struct commit_stamp *c)
{
	char day[16];

	day_of(c->time, day, sizeof(day));
	table_text(t, c->id);
	table_text(t, day);
}

/* How many of files hold tokens of each author. */
static size_t *files_of_authors(struct report *rep, const struct file_people *files, size_t nr_files)
{
	size_t *count = xcalloc(rep->nr_authors + 1, sizeof(*count)), i, j;

	for (i = 0; i < nr_files; i++)
		for (j = 0; j < files[i].nr_owners; j++)
			count[files[i].owners[j].author]++;
	return count;
}

/*
 * consent.tsv: the people with tokens, in the order of consent (the most
 * tokens first); the times of their commits last, by which the commits
 * of the reports of several repositories, merged, are ordered.
 */
static struct table *consent_table(struct report *rep, const size_t *files, size_t total)
{
	static const char *const cols[] = { "rank", "author", "addresses", "tokens", "token_share",
					    "cumulative_share", "files", "first_commit", "first_date",
					    "last_commit", "last_date", "first_time", "last_time", NULL };
	struct table *t = table_begin(rep, "consent.tsv", cols);
	size_t i, held = 0;

	for (i = 0; i < rep->nr_by_tokens; i++) {
		const struct author *a = rep->by_tokens[i];

		held += a->tokens;
		table_count(t, i + 1);
		table_text(t, a->name);
		table_text(t, a->addresses);
		table_count(t, a->tokens);
		table_number(t, pct((double)a->tokens, (double)total));
		table_number(t, pct((double)held, (double)total));
		table_count(t, files[a - rep->authors]);
		commit_cells(t, &a->first_owning);
		commit_cells(t, &a->last_owning);
		table_int(t, a->first_owning.time);
		table_int(t, a->last_owning.time);
	}
	table_end(rep, t);
	return t;
}

/* consent-files.tsv: every file's people, the most tokens first: what each would leave to rewrite. */
static void consent_files_table(struct report *rep, const struct file_people *files, size_t nr_files)
{
	static const char *const cols[] = { "path", "author", "tokens", "token_share", NULL };
	struct table *t = table_begin(rep, "consent-files.tsv", cols);
	size_t i, j;

	for (i = 0; i < nr_files; i++)
		for (j = 0; j < files[i].nr_owners; j++) {
			table_text(t, files[i].path);
			table_text(t, files[i].owners[j].name);
			table_count(t, files[i].owners[j].tokens);
			table_number(t, pct((double)files[i].owners[j].tokens, (double)files[i].tokens));
		}
	table_end(rep, t);
}

/* The fewest authors whose consent covers percent of tokens. */
static size_t cover(const struct share *owners, size_t nr, size_t tokens, unsigned percent)
{
	return fewest_owners(owners, nr, (tokens * percent + 99) / 100);
}

static int cmp_dir_tokens(const void *a, const void *b)
{
	const struct dir_tally *x = *(const struct dir_tally *const *)a, *y = *(const struct dir_tally *const *)b;

	if ((x->depth == 0) != (y->depth == 0))
		return x->depth == 0 ? -1 : 1;
	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* consent-cover.tsv: the whole selection ("."), then each top-level directory, the most tokens first. */
static struct table *consent_cover_table(struct report *rep, const struct dir_tally *dirs, size_t nr_dirs)
{
	static const char *const cols[] = { "directory", "tokens", "authors", "authors_for_90",
					    "authors_for_99", "authors_for_100", NULL };
	struct table *t = table_begin(rep, "consent-cover.tsv", cols);
	const struct dir_tally **scopes = xcalloc(nr_dirs + 1, sizeof(*scopes));
	size_t nr = 0, i, k;

	for (i = 0; i < nr_dirs; i++)
		if (dirs[i].depth <= 1)
			scopes[nr++] = &dirs[i];
	if (nr)
		qsort(scopes, nr, sizeof(*scopes), cmp_dir_tokens);
	for (i = 0; i < nr; i++) {
		table_text(t, scopes[i]->path);
		table_count(t, scopes[i]->tokens);
		table_count(t, scopes[i]->nr_owners);
		for (k = 0; k < NR_COVERS; k++)
			table_count(t, cover(scopes[i]->owners, scopes[i]->nr_owners, scopes[i]->tokens,
					     cover_percent[k]));
	}
	table_end(rep, t);
	free(scopes);
	return t;
}

/* The (up to) three of files holding most of author a's tokens, with their counts, as text. */
static void largest_files_of(const struct file_people *files, size_t nr_files, size_t a, struct strbuf *out)
{
	struct share best[3];
	size_t nr = 0, i, j, k;

	for (i = 0; i < nr_files; i++) {
		size_t tokens = 0;

		for (j = 0; j < files[i].nr_owners; j++)
			if (files[i].owners[j].author == a)
				tokens = files[i].owners[j].tokens;
		if (!tokens || (nr == 3 && tokens <= best[2].tokens))
			continue;
		for (k = nr < 3 ? nr++ : 2; k > 0 && best[k - 1].tokens < tokens; k--)
			best[k] = best[k - 1];
		best[k].tokens = tokens;
		best[k].name = files[i].path;
	}
	for (k = 0; k < nr; k++)
		strbuf_addf(out, "%s%s (%zu)", k ? ", " : "", best[k].name, best[k].tokens);
}

/* The page: what a token's author is, the cover figures, the top authors and where their tokens are. */
static void consent_page(struct report *rep, struct strbuf *pg, const struct file_people *files, size_t nr_files,
			 const struct table *authors, const struct table *covers, size_t total)
{
	static const char *const cols[] = { "rank", "author", "tokens", "token_share", "cumulative_share",
					    "files", "first_date", "last_date", "largest files (tokens)", NULL };
	const struct cell *root = covers->cells;  /* the first row: the whole selection */
	size_t n = table_rows(authors) < (size_t)rep->opt.top ? table_rows(authors) : (size_t)rep->opt.top, i;
	struct strbuf largest = STRBUF_INIT;

	section_heading(rep, pg, "consent");
	strbuf_addstr(pg, "<p>Whose consent relicensing the selection needs. "
		      "A token's author is who introduced it to this history: code moved or copied keeps its "
		      "author as the engine attributes it, and a commit that imported or vendored code owns "
		      "what it imported unless that is left out. ");
	if (table_rows(covers))
		strbuf_addf(pg, "Of the %zu tokens people wrote, the consent of %s of the %s authors covers "
			    "90%%, of %s 99%%, of all %s 100%%. ", total, root[3].text, root[2].text,
			    root[4].text, root[5].text);
	strbuf_addf(pg, "Shares are of the people's tokens; bots%s and the files left out are out of it, as "
		    "everywhere in this report. Each author's tokens per file, what would have to be rewritten "
		    "without their consent, are in <code>consent-files.tsv</code>; their addresses in "
		    "<code>consent.tsv</code>.</p>", rep->opt.include_bots ? " (counted in with --include-bots)" : "");
	strbuf_addstr(pg, "<h3>The fewest authors whose consent covers 90%, 99% and 100% of the tokens</h3>");
	table_html(pg, covers, NULL);
	strbuf_addf(pg, "<h3>The top %zu in the order of consent</h3><table>", n);
	th_row(pg, cols);
	for (i = 0; i < n; i++) {
		static const size_t shown[] = { 0, 1, 3, 4, 5, 6, 8, 10 };
		size_t k;

		strbuf_addstr(pg, "<tr>");
		for (k = 0; k < sizeof(shown) / sizeof(*shown); k++) {
			const struct cell *c = &authors->cells[i * authors->nr_cols + shown[k]];

			if (c->type == CELL_TEXT)
				td(pg, c->text);
			else
				tdn(pg, c->text);
		}
		strbuf_reset(&largest);
		largest_files_of(files, nr_files, (size_t)(rep->by_tokens[i] - rep->authors), &largest);
		td(pg, largest.buf);
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addstr(pg, "</table>");
	strbuf_release(&largest);
}

void section_consent(struct report *rep, struct strbuf *pg, const struct file_people *files, size_t nr_files,
		     const struct dir_tally *dirs, size_t nr_dirs)
{
	size_t *files_of = files_of_authors(rep, files, nr_files), total = people_tokens(rep);
	struct table *authors = consent_table(rep, files_of, total), *covers;

	consent_files_table(rep, files, nr_files);
	covers = consent_cover_table(rep, dirs, nr_dirs);
	consent_page(rep, pg, files, nr_files, authors, covers, total);
	free(files_of);
}
