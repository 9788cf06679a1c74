/*
 * Code and prose apart.  A project's documentation (Markdown,
 * reStructuredText, AsciiDoc, plain text: the files the text lexer
 * reads) is tokens too, and where it holds most of them, as in pytest's
 * doc/ and changelog, every figure of the report is mostly about prose:
 * its top authors are the documentation's, its tokens per line a
 * paragraph's.  The report gives the size and the people of each kind
 * apart, always in the tables, and at the top of the page when prose
 * holds most tokens.
 */
#include "report.h"
#include "../tokenize/escape.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[NR_KINDS] = { "code", "prose" };

enum kind kind_of_language(const char *lang)
{
	return lang && !strcmp(lang, "text") ? KIND_PROSE : KIND_CODE;
}

static int cmp_kind_tokens(const void *a, const void *b)
{
	const struct kind_author *x = *(const struct kind_author *const *)a, *y = *(const struct kind_author *const *)b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_kind_lines(const void *a, const void *b)
{
	const struct kind_author *x = *(const struct kind_author *const *)a, *y = *(const struct kind_author *const *)b;

	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct kind_author *count_kinds(struct report *rep)
{
	struct kind_author *ka = xcalloc(st_add(st_mult(NR_KINDS, rep->nr_authors), 1), sizeof(*ka));
	size_t i, j;

	memset(rep->kinds, 0, sizeof(rep->kinds));
	for (i = 0; i < NR_KINDS * rep->nr_authors; i++)
		ka[i].name = rep->authors[i % rep->nr_authors].name;
	for (i = 0; i < rep->nr_files; i++) {
		const struct rfile *f = &rep->files[i];
		enum kind k = kind_of_language(f->lang);
		struct kind_figures *kf = &rep->kinds[k];

		if (f->skipped)
			continue;
		kf->files++;
		kf->lines += f->lines;
		kf->code_lines += f->code_lines;
		kf->tokens += f->tokens;
		kf->comment_tokens += f->comment_tokens;
		for (j = 0; j < f->nr_c; j++) {
			size_t a = rep->commits[f->c[j].commit].author_idx;

			if (left_out_of_people(rep, &rep->authors[a]))
				continue;
			ka[k * rep->nr_authors + a].lines += f->c[j].lines;
			ka[k * rep->nr_authors + a].tokens += f->c[j].tokens;
		}
	}
	return ka;
}

/* Ranks the authors of kind k (row of ka) and writes their rows of authors-by-kind.tsv. */
static void kind_authors(struct report *rep, struct table *t, enum kind k, struct kind_author *row)
{
	struct kind_figures *kf = &rep->kinds[k];
	struct kind_author **list = xcalloc(rep->nr_authors + 1, sizeof(*list));
	size_t nr = 0, i;

	for (i = 0; i < rep->nr_authors; i++)
		if (row[i].lines || row[i].tokens)
			list[nr++] = &row[i];
	qsort(list, nr, sizeof(*list), cmp_kind_lines);
	for (i = 0; i < nr && list[i]->lines; i++)
		list[i]->rank_lines = i + 1;
	kf->authors_by_lines = i;
	qsort(list, nr, sizeof(*list), cmp_kind_tokens);
	for (i = 0; i < nr && list[i]->tokens; i++)
		list[i]->rank_tokens = i + 1;
	kf->authors_by_tokens = i;
	if (nr && list[0]->tokens) {
		kf->top = list[0]->name;
		kf->top_tokens = list[0]->tokens;
	}
	for (i = 0; i < nr; i++) {
		table_text(t, kind_name[k]);
		table_text(t, list[i]->name);
		table_count(t, list[i]->lines);
		table_number(t, pct((double)list[i]->lines, (double)kf->lines));
		table_rank(t, list[i]->rank_lines);
		table_count(t, list[i]->tokens);
		table_number(t, pct((double)list[i]->tokens, (double)kf->tokens));
		table_rank(t, list[i]->rank_tokens);
	}
	free(list);
}

void section_kinds(struct report *rep, struct strbuf *pg, struct kind_author *ka)
{
	static const char *const cols[] = { "kind", "files", "lines", "code_lines", "tokens", "token_share",
					    "authors_by_lines", "authors_by_tokens", "top_by_tokens",
					    "top_token_share", NULL };
	static const char *const author_cols[] = { "kind", "author", "lines", "line_share", "line_rank",
						   "tokens", "token_share", "token_rank", NULL };
	size_t total = 0;
	struct table *t;
	int k;

	t = table_begin(rep, "authors-by-kind.tsv", author_cols);
	for (k = 0; k < NR_KINDS; k++) {
		kind_authors(rep, t, (enum kind)k, ka + (size_t)k * rep->nr_authors);
		total += rep->kinds[k].tokens;
	}
	table_end(rep, t);
	t = table_begin(rep, "kinds.tsv", cols);
	for (k = 0; k < NR_KINDS; k++) {
		const struct kind_figures *kf = &rep->kinds[k];

		table_text(t, kind_name[k]);
		table_count(t, kf->files);
		table_count(t, kf->lines);
		table_count(t, kf->code_lines);
		table_count(t, kf->tokens);
		table_number(t, pct((double)kf->tokens, (double)total));
		table_count(t, kf->authors_by_lines);
		table_count(t, kf->authors_by_tokens);
		if (kf->top) {
			table_text(t, kf->top);
			table_number(t, pct((double)kf->top_tokens, (double)kf->tokens));
		} else {
			table_none(t, "");
			table_none(t, "");
		}
	}
	table_end(rep, t);
	if (rep->kinds[KIND_CODE].tokens && rep->kinds[KIND_PROSE].tokens) {
		strbuf_addstr(pg, "<h3>Code and prose</h3><p>Prose is documentation: the files read as "
			      "text (Markdown, reStructuredText, AsciiDoc, plain text); the rest is code. "
			      "Authors of each, bots aside unless <code>--include-bots</code> "
			      "(<code>authors-by-kind.tsv</code>: every author of each).</p>");
		table_html(pg, t, NULL);
	}
}

void summary_kinds(struct report *rep, struct table *summary)
{
	size_t total = rep->kinds[KIND_CODE].tokens + rep->kinds[KIND_PROSE].tokens;

	table_text(summary, "code_tokens");
	table_count(summary, rep->kinds[KIND_CODE].tokens);
	table_text(summary, "prose_tokens");
	table_count(summary, rep->kinds[KIND_PROSE].tokens);
	table_text(summary, "prose_token_share");
	table_number(summary, pct((double)rep->kinds[KIND_PROSE].tokens, (double)total));
}

/* A kind's figures in words: its files, lines and tokens, its authors by each, the one with most tokens. */
static void kind_in_words(struct strbuf *story, const struct kind_figures *kf, const char *what)
{
	strbuf_addf(story, "<b>%s</b>: %zu %s, %zu lines, %zu tokens; %zu %s by lines, %zu by tokens",
		    what, kf->files, kf->files == 1 ? "file" : "files", kf->lines, kf->tokens, kf->authors_by_lines,
		    kf->authors_by_lines == 1 ? "author" : "authors", kf->authors_by_tokens);
	if (kf->top) {
		strbuf_addstr(story, ", the most tokens ");
		html_text(story, kf->top);
		strbuf_addf(story, "'s (%s%%)", pct((double)kf->top_tokens, (double)kf->tokens));
	}
}

void story_kinds(struct report *rep, struct strbuf *story)
{
	const struct kind_figures *code = &rep->kinds[KIND_CODE], *prose = &rep->kinds[KIND_PROSE];
	size_t total = code->tokens + prose->tokens;

	if (prose->tokens * 2 <= total)
		return;
	strbuf_addf(story, "<p><b>Most of this selection is prose:</b> %s%% of its tokens are "
		    "documentation (Markdown, reStructuredText, AsciiDoc, plain text), and the figures "
		    "below count it with the code. Apart, ",
		    pct((double)prose->tokens, (double)total));
	kind_in_words(story, code, "code");
	strbuf_addstr(story, "; ");
	kind_in_words(story, prose, "prose");
	strbuf_addstr(story, " (<code>kinds.tsv</code>, <code>authors-by-kind.tsv</code>).</p>");
}
