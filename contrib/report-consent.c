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

/* How many files an author owns tokens in, and the oldest and newest commits that own them. */
struct consent_author {
	size_t files;
	size_t first, last;  /* indices in commits[]; (size_t)-1: none */
};

/* Whether commit a is older than commit b: by author date, then by id. */
static int commit_older(const struct report *rep, size_t a, size_t b)
{
	if (rep->commits[a].time != rep->commits[b].time)
		return rep->commits[a].time < rep->commits[b].time;
	return strcmp(rep->commits[a].id, rep->commits[b].id) < 0;
}

/* Each author's files and the span of the commits that own their surviving tokens. */
static struct consent_author *consent_authors(struct report *rep)
{
	struct consent_author *ca = xcalloc(rep->nr_authors + 1, sizeof(*ca));
	size_t *last_file = xcalloc(rep->nr_authors + 1, sizeof(*last_file));
	size_t i, j;

	for (i = 0; i < rep->nr_authors; i++)
		ca[i].first = ca[i].last = (size_t)-1;
	for (i = 0; i < rep->nr_files; i++) {
		const struct rfile *f = &rep->files[i];

		if (f->skipped)
			continue;
		for (j = 0; j < f->nr_c; j++) {
			size_t c = f->c[j].commit, a = rep->commits[c].author_idx;

			if (!f->c[j].tokens)
				continue;
			if (last_file[a] != i + 1) {
				last_file[a] = i + 1;
				ca[a].files++;
			}
			if (ca[a].first == (size_t)-1 || commit_older(rep, c, ca[a].first))
				ca[a].first = c;
			if (ca[a].last == (size_t)-1 || commit_older(rep, ca[a].last, c))
				ca[a].last = c;
		}
	}
	free(last_file);
	return ca;
}

/* A commit's id and its author date (UTC) as two cells. */
static void commit_cells(struct report *rep, struct table *t, size_t c)
{
	char day[16];

	day_of(rep->commits[c].time, day, sizeof(day));
	table_text(t, rep->commits[c].id);
	table_text(t, day);
}

/* consent.tsv: the people with tokens, in the order of consent (the most tokens first). */
static struct table *consent_table(struct report *rep, const struct consent_author *ca, size_t total)
{
	static const char *const cols[] = { "rank", "author", "addresses", "tokens", "token_share",
					    "cumulative_share", "files", "first_commit", "first_date",
					    "last_commit", "last_date", NULL };
	struct table *t = table_begin(rep, "consent.tsv", cols);
	size_t i, held = 0;

	for (i = 0; i < rep->nr_by_tokens; i++) {
		const struct author *a = rep->by_tokens[i];
		size_t k = (size_t)(a - rep->authors);

		held += a->tokens;
		table_count(t, i + 1);
		table_text(t, a->name);
		table_text(t, a->addresses);
		table_count(t, a->tokens);
		table_number(t, pct((double)a->tokens, (double)total));
		table_number(t, pct((double)held, (double)total));
		table_count(t, ca[k].files);
		commit_cells(rep, t, ca[k].first);
		commit_cells(rep, t, ca[k].last);
	}
	table_end(rep, t);
	return t;
}

/* consent-files.tsv: every file's people, the most tokens first: what each would leave to rewrite. */
static void consent_files_table(struct report *rep)
{
	static const char *const cols[] = { "path", "author", "tokens", "token_share", NULL };
	struct table *t = table_begin(rep, "consent-files.tsv", cols);
	size_t i, j;

	for (i = 0; i < rep->nr_files; i++) {
		struct rfile *f = &rep->files[i];
		struct owner *o;
		size_t no, tokens = 0;

		if (f->skipped)
			continue;
		no = file_owners(rep, f, &o);
		for (j = 0; j < no; j++)
			tokens += o[j].tokens;
		for (j = 0; j < no && o[j].tokens; j++) {
			table_text(t, f->path);
			table_text(t, o[j].name);
			table_count(t, o[j].tokens);
			table_number(t, pct((double)o[j].tokens, (double)tokens));
		}
		free(o);
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

/* The (up to) three files holding most of author a's tokens, with their counts, as text. */
static void largest_files_of(struct report *rep, size_t a, struct strbuf *out)
{
	struct share best[3];
	size_t nr = 0, i, j, k;

	for (i = 0; i < rep->nr_files; i++) {
		const struct rfile *f = &rep->files[i];
		size_t tokens = 0;

		if (f->skipped)
			continue;
		for (j = 0; j < f->nr_c; j++)
			if (rep->commits[f->c[j].commit].author_idx == a)
				tokens += f->c[j].tokens;
		if (!tokens || (nr == 3 && tokens <= best[2].tokens))
			continue;
		for (k = nr < 3 ? nr++ : 2; k > 0 && best[k - 1].tokens < tokens; k--)
			best[k] = best[k - 1];
		best[k].tokens = tokens;
		best[k].name = f->path;
	}
	for (k = 0; k < nr; k++)
		strbuf_addf(out, "%s%s (%zu)", k ? ", " : "", best[k].name, best[k].tokens);
}

/* The page: what a token's author is, the cover figures, the top authors and where their tokens are. */
static void consent_page(struct report *rep, struct strbuf *pg, const struct table *authors,
			 const struct table *covers, size_t total)
{
	static const char *const cols[] = { "rank", "author", "tokens", "token_share", "cumulative_share",
					    "files", "first_date", "last_date", "largest files (tokens)", NULL };
	const struct cell *root = covers->cells;  /* the first row: the whole selection */
	size_t n = table_rows(authors) < (size_t)rep->opt.top ? table_rows(authors) : (size_t)rep->opt.top, i;
	struct strbuf files = STRBUF_INIT;

	section_heading(pg, "consent");
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
		strbuf_reset(&files);
		largest_files_of(rep, (size_t)(rep->by_tokens[i] - rep->authors), &files);
		td(pg, files.buf);
		strbuf_addstr(pg, "</tr>\n");
	}
	strbuf_addstr(pg, "</table>");
	strbuf_release(&files);
}

void section_consent(struct report *rep, struct strbuf *pg, const struct dir_tally *dirs, size_t nr_dirs)
{
	struct consent_author *ca = consent_authors(rep);
	size_t total = people_tokens(rep);
	struct table *authors = consent_table(rep, ca, total), *covers;

	consent_files_table(rep);
	covers = consent_cover_table(rep, dirs, nr_dirs);
	consent_page(rep, pg, authors, covers, total);
	free(ca);
}
