/*
 * Who the authors are: one person under several names, and bots.
 *
 * The report counts one author per name (through the mailmap, as git
 * shortlog does), so one person who committed under several names with
 * one address counts several times, and silently: on express, "Tj
 * Holowaychuk", "TJ Holowaychuk" and "visionmedia" are one address and
 * three authors, none of them whole.  Here the names that look like one
 * person's are grouped: names that share an address, or that differ only
 * in case.  The report lists each group with the .mailmap lines that
 * would merge it, and --merge-identities counts each group as one author
 * in every figure.  An address is no evidence when it is not one
 * person's: GitHub's noreply@github.com, or any address that many
 * different names use (none@none in old imports); GitHub's per-user
 * ID+LOGIN@users.noreply.github.com is one person's.
 *
 * Bots ("dependabot[bot]", or a name the .mailmap maps to one) write
 * code that is no person's: the people figures leave them out, and the
 * report says how much they own; --include-bots keeps them in.
 */
#include "report.h"
#include "../tokenize/escape.h"
#include "../tokenize/usage.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An address this many different names (case aside) use is no one person's. */
#define SHARED_ADDRESS_NAMES 5

/* Addresses a host writes for many people. */
static const char *const shared_addresses[] = { "noreply@github.com", NULL };

size_t identity_of(struct report *rep, const char *fields)
{
	int isnew;
	size_t *v = smap_put(&rep->ident_index, fields, rep->nr_idents, &isnew);
	struct identity *id;
	char *field[4];
	char *p;
	int k;

	if (!isnew)
		return *v;
	ALLOC_GROW(rep->idents, rep->nr_idents + 1, rep->alloc_idents);
	id = &rep->idents[rep->nr_idents++];
	memset(id, 0, sizeof(*id));
	p = xstrdup(fields);
	for (k = 0; k < 4; k++) {
		field[k] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = '\0';
	}
	id->name = field[0];  /* owns the copy the four fields live in */
	id->email = field[1];
	id->raw_name = field[2];
	id->raw_email = field[3];
	id->author = id->name;
	return *v;
}

int left_out_of_people(const struct report *rep, const struct author *a)
{
	return a->bot && !rep->opt.include_bots;
}

/* ---- grouping the names ---- */

/* A name of the commits (bots aside), and the group it is in: a union-find forest. */
struct name_node {
	const char *name;
	size_t parent, lines, tokens, fold;  /* fold: its name case aside, as an index */
	size_t best;                         /* its identity with the most tokens: the group's address */
};

/* An address and a name that uses it. */
struct address_use {
	char *address;  /* lower-case */
	size_t node;
};

static size_t find_root(struct name_node *n, size_t i)
{
	while (n[i].parent != i) {
		n[i].parent = n[n[i].parent].parent;
		i = n[i].parent;
	}
	return i;
}

static void join(struct name_node *n, size_t a, size_t b)
{
	a = find_root(n, a);
	b = find_root(n, b);
	if (a != b)
		n[a > b ? a : b].parent = a > b ? b : a;
}

static char *lower(const char *s)
{
	char *l = xstrdup(s), *p;

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

static int cmp_address_use(const void *a, const void *b)
{
	const struct address_use *x = a, *y = b;
	int c = strcmp(x->address, y->address);

	return c ? c : (x->node > y->node) - (x->node < y->node);
}

/* Whether an address says who someone is: one person's, not a host's or many people's. */
static int personal_address(const char *address, const struct address_use *uses, size_t nr,
			    const struct name_node *nodes)
{
	size_t folds[SHARED_ADDRESS_NAMES], nr_folds = 0, i, j;

	if (!*address || !strchr(address, '@'))
		return 0;
	for (i = 0; shared_addresses[i]; i++)
		if (!strcmp(address, shared_addresses[i]))
			return 0;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < nr_folds && folds[j] != nodes[uses[i].node].fold; j++)
			;
		if (j < nr_folds)
			continue;
		if (nr_folds == SHARED_ADDRESS_NAMES - 1)
			return 0;
		folds[nr_folds++] = nodes[uses[i].node].fold;
	}
	return 1;
}

/* Joins the names that differ only in case, and those that share a personal address. */
static void join_names(struct report *rep, struct name_node *nodes, size_t nr_nodes, const size_t *node_of)
{
	struct smap folds = SMAP_INIT;
	struct address_use *uses = xcalloc(rep->nr_idents + 1, sizeof(*uses));
	size_t nr_uses = 0, i, j, k;

	for (i = 0; i < nr_nodes; i++) {
		char *l = lower(nodes[i].name);
		size_t *v = smap_put(&folds, l, i, NULL);

		nodes[i].fold = *v;
		join(nodes, i, *v);
		free(l);
	}
	for (i = 0; i < rep->nr_idents; i++) {
		if (node_of[i] == (size_t)-1)
			continue;
		uses[nr_uses].address = lower(rep->idents[i].email);
		uses[nr_uses++].node = node_of[i];
	}
	if (nr_uses)
		qsort(uses, nr_uses, sizeof(*uses), cmp_address_use);
	for (i = 0; i < nr_uses; i = j) {
		for (j = i + 1; j < nr_uses && !strcmp(uses[j].address, uses[i].address); j++)
			;
		if (personal_address(uses[i].address, uses + i, j - i, nodes))
			for (k = i + 1; k < j; k++)
				join(nodes, uses[i].node, uses[k].node);
	}
	for (i = 0; i < nr_uses; i++)
		free(uses[i].address);
	free(uses);
	smap_release(&folds);
}

/* Whether node a stands before node b in its group: the most tokens, then lines, then by name. */
static int node_before(const struct name_node *a, const struct name_node *b)
{
	if (a->tokens != b->tokens)
		return a->tokens > b->tokens;
	if (a->lines != b->lines)
		return a->lines > b->lines;
	return strcmp(a->name, b->name) < 0;
}

/* An identity of a group, with what orders it: its name's node. */
struct group_member {
	size_t ident;
	const struct identity *id;
	const struct name_node *node;
};

/* A group's identities: by their names' order, then the most tokens, then as written. */
static int cmp_group_member(const void *a, const void *b)
{
	const struct group_member *x = a, *y = b;
	const struct identity *ix = x->id, *iy = y->id;
	int c;

	if (x->node != y->node)
		return node_before(x->node, y->node) ? -1 : 1;
	if (ix->tokens != iy->tokens)
		return ix->tokens < iy->tokens ? 1 : -1;
	if (ix->lines != iy->lines)
		return ix->lines < iy->lines ? 1 : -1;
	if ((c = strcmp(ix->email, iy->email)))
		return c;
	if ((c = strcmp(ix->raw_name, iy->raw_name)))
		return c;
	return strcmp(ix->raw_email, iy->raw_email);
}

/* Puts the identities of a group in order, and names the group by its first. */
static void order_group(struct report *rep, struct name_group *ng, const struct name_node *nodes,
			const size_t *node_of)
{
	struct group_member *m = xcalloc(ng->nr_idents + 1, sizeof(*m));
	size_t k;

	for (k = 0; k < ng->nr_idents; k++) {
		m[k].ident = ng->idents[k];
		m[k].id = &rep->idents[m[k].ident];
		m[k].node = &nodes[node_of[m[k].ident]];
	}
	qsort(m, ng->nr_idents, sizeof(*m), cmp_group_member);
	for (k = 0; k < ng->nr_idents; k++)
		ng->idents[k] = m[k].ident;
	ng->name = m[0].node->name;
	ng->email = rep->idents[m[0].node->best].email;
	free(m);
}

static int cmp_group(const void *a, const void *b)
{
	const struct name_group *x = a, *y = b;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The groups of more than one name, each its identities in order, the largest group first. */
static void make_groups(struct report *rep, struct name_node *nodes, size_t nr_nodes, const size_t *node_of)
{
	size_t *group_of_root = xcalloc(nr_nodes + 1, sizeof(*group_of_root));
	size_t *names = xcalloc(nr_nodes + 1, sizeof(*names));
	size_t i, g;

	for (i = 0; i < nr_nodes; i++)
		names[find_root(nodes, i)]++;
	for (i = 0; i < nr_nodes; i++)
		if (names[i] > 1)
			group_of_root[i] = ++rep->nr_groups;
	rep->groups = xcalloc(rep->nr_groups + 1, sizeof(*rep->groups));
	for (i = 0; i < rep->nr_idents; i++) {
		struct name_group *ng;

		if (node_of[i] == (size_t)-1 || !(g = group_of_root[find_root(nodes, node_of[i])]))
			continue;
		ng = &rep->groups[g - 1];
		ng->idents = xrealloc(ng->idents, st_mult(st_add(ng->nr_idents, 1), sizeof(*ng->idents)));
		ng->idents[ng->nr_idents++] = i;
		ng->lines += rep->idents[i].lines;
		ng->tokens += rep->idents[i].tokens;
	}
	for (g = 0; g < rep->nr_groups; g++)
		order_group(rep, &rep->groups[g], nodes, node_of);
	qsort(rep->groups, rep->nr_groups, sizeof(*rep->groups), cmp_group);
	free(group_of_root);
	free(names);
}

/*
 * Each name of a group but the first takes the first's name and address
 * by a .mailmap line that names the commits' own identity; with
 * --merge-identities the report counts it under that name already.
 */
static void merge_groups(struct report *rep)
{
	size_t g, k;

	for (g = 0; g < rep->nr_groups; g++) {
		const struct name_group *ng = &rep->groups[g];

		for (k = 0; k < ng->nr_idents; k++) {
			struct identity *id = &rep->idents[ng->idents[k]];

			smap_put(&rep->group_of_name, id->name, g + 1, NULL);
			if (!strcmp(id->name, ng->name))
				continue;
			id->mailmap = xstrfmt("%s <%s> %s <%s>", ng->name, ng->email, id->raw_name, id->raw_email);
			if (rep->opt.merge_identities)
				id->author = ng->name;
		}
	}
}

void find_identities(struct report *rep)
{
	struct smap index = SMAP_INIT;
	struct name_node *nodes = xcalloc(rep->nr_idents + 1, sizeof(*nodes));
	size_t *node_of = xcalloc(rep->nr_idents + 1, sizeof(*node_of)), nr_nodes = 0, i;

	for (i = 0; i < rep->nr_commits; i++) {
		rep->idents[rep->commits[i].ident].lines += rep->commits[i].lines;
		rep->idents[rep->commits[i].ident].tokens += rep->commits[i].tokens;
	}
	for (i = 0; i < rep->nr_idents; i++) {
		const struct identity *id = &rep->idents[i];
		struct name_node *n;
		int isnew;
		size_t *v;

		node_of[i] = (size_t)-1;
		/* nor a name whose commits only moved code: it owns nothing the figures count */
		if (is_bot_name(id->name) || (!id->lines && !id->tokens))
			continue;
		v = smap_put(&index, id->name, nr_nodes, &isnew);
		n = &nodes[*v];
		if (isnew) {
			n->name = id->name;
			n->parent = nr_nodes++;
			n->best = i;
		} else if (id->tokens > rep->idents[n->best].tokens ||
			   (id->tokens == rep->idents[n->best].tokens && id->lines > rep->idents[n->best].lines)) {
			n->best = i;
		}
		n->lines += id->lines;
		n->tokens += id->tokens;
		node_of[i] = *v;
	}
	join_names(rep, nodes, nr_nodes, node_of);
	make_groups(rep, nodes, nr_nodes, node_of);
	merge_groups(rep);
	smap_release(&index);
	free(nodes);
	free(node_of);
}

const char *merged_name(struct report *rep, const char *name)
{
	size_t *g;

	if (!rep->opt.merge_identities || !(g = smap_get(&rep->group_of_name, name)))
		return name;
	return rep->groups[*g - 1].name;
}

/* ---- what the report says of them ---- */

/* The bots: bots.tsv, a paragraph of the People section. */
void section_bots(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "bot", "lines", "line_share", "tokens", "token_share", NULL };
	struct table *t = table_begin(rep, "bots.tsv", cols);
	size_t i;

	for (i = 0; i < rep->nr_bots; i++) {
		const struct author *b = rep->bots[i];

		table_text(t, b->name);
		table_count(t, b->lines);
		table_number(t, pct((double)b->lines, (double)rep->total_lines));
		table_count(t, b->tokens);
		table_number(t, pct((double)b->tokens, (double)rep->total_tokens));
	}
	table_end(rep, t);
	if (rep->nr_bots) {
		strbuf_addf(pg, "<h3>Bots</h3><p>%zu %s, whose names end in <code>[bot]</code> (as the "
			    "mailmap gives them), own %zu lines (%s%%) and %zu tokens (%s%%): ",
			    rep->nr_bots, rep->nr_bots == 1 ? "bot" : "bots", rep->bot_lines,
			    pct((double)rep->bot_lines, (double)rep->total_lines), rep->bot_tokens,
			    pct((double)rep->bot_tokens, (double)rep->total_tokens));
		strbuf_addstr(pg, rep->opt.include_bots ?
			      "with <code>--include-bots</code> they count among the people.</p>" :
			      "they count in the size of the code, not among the people (the authors, "
			      "the top lists, the distances); <code>--include-bots</code> counts them.</p>");
		table_html(pg, t, NULL);
	}
}

/* The groups of names as a table on the page, and their .mailmap lines. */
static void identities_html(struct report *rep, struct strbuf *pg, const struct table *t, size_t names)
{
	size_t g, k;

	strbuf_addf(pg, "<h3 id=\"identities\">One person under several names?</h3><p>%zu names look like "
		    "%zu %s: names that share an address, or differ only in case (an address many names "
		    "use, such as <code>noreply@github.com</code>, says nothing). ", names, rep->nr_groups,
		    rep->nr_groups == 1 ? "person" : "people");
	strbuf_addstr(pg, rep->opt.merge_identities ?
		      "With <code>--merge-identities</code> every figure counts each group as one author, "
		      "under its first name." :
		      "Every figure counts them apart, as the mailmap does; <code>--merge-identities</code> "
		      "counts each group as one author, under its first name.");
	strbuf_addstr(pg, " These lines in <code>.mailmap</code> would merge them for git too:</p><pre>");
	for (g = 0; g < rep->nr_groups; g++)
		for (k = 0; k < rep->groups[g].nr_idents; k++) {
			const struct identity *id = &rep->idents[rep->groups[g].idents[k]];

			if (id->mailmap) {
				html_text(pg, id->mailmap);
				strbuf_addch(pg, '\n');
			}
		}
	strbuf_addstr(pg, "</pre>");
	table_html(pg, t, NULL);
}

/* How many names a group has (its identities come name by name). */
static size_t group_names(const struct report *rep, const struct name_group *ng)
{
	size_t k, n = 0;

	for (k = 0; k < ng->nr_idents; k++)
		n += !k || strcmp(rep->idents[ng->idents[k]].name, rep->idents[ng->idents[k - 1]].name);
	return n;
}

/* The names that may be one person's: identities.tsv, a part of the People section. */
void section_identities(struct report *rep, struct strbuf *pg)
{
	static const char *const cols[] = { "group", "author", "name", "email", "lines", "tokens",
					    "mailmap", NULL };
	struct table *t = table_begin(rep, "identities.tsv", cols);
	size_t g, k, names = 0;

	for (g = 0; g < rep->nr_groups; g++)
		for (k = 0; k < rep->groups[g].nr_idents; k++) {
			const struct identity *id = &rep->idents[rep->groups[g].idents[k]];

			table_count(t, g + 1);
			table_text(t, rep->groups[g].name);
			table_text(t, id->name);
			table_text(t, id->email);
			table_count(t, id->lines);
			table_count(t, id->tokens);
			if (id->mailmap)
				table_text(t, id->mailmap);
			else
				table_none(t, "");
		}
	table_end(rep, t);
	for (g = 0; g < rep->nr_groups; g++)
		names += group_names(rep, &rep->groups[g]);
	if (rep->nr_groups)
		identities_html(rep, pg, t, names);
}

void summary_people(struct report *rep, struct table *summary)
{
	size_t g, names = 0;

	for (g = 0; g < rep->nr_groups; g++)
		names += group_names(rep, &rep->groups[g]);
	table_text(summary, "bots");
	table_count(summary, rep->nr_bots);
	table_text(summary, "bot_lines");
	table_count(summary, rep->bot_lines);
	table_text(summary, "bot_tokens");
	table_count(summary, rep->bot_tokens);
	table_text(summary, "bot_token_share");
	table_number(summary, pct((double)rep->bot_tokens, (double)rep->total_tokens));
	if (rep->nr_merged)
		return;  /* the groups are each report's own: not combined */
	table_text(summary, "identity_groups");
	table_count(summary, rep->nr_groups);
	table_text(summary, "identity_names");
	table_count(summary, names);
}

/* Up to three names of a list, then "and N more". */
static void some_names(struct strbuf *story, const char *const *names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr && i < 3; i++) {
		if (i)
			strbuf_addstr(story, i + 1 == nr ? " and " : ", ");
		html_text(story, names[i]);
	}
	if (nr > 3)
		strbuf_addf(story, " and %zu more", nr - 3);
}

void story_identities(struct report *rep, struct strbuf *story)
{
	const char **names = xcalloc(rep->nr_bots + 4, sizeof(*names));
	size_t i;

	if (rep->nr_bots) {
		for (i = 0; i < rep->nr_bots; i++)
			names[i] = rep->bots[i]->name;
		strbuf_addstr(story, "Bots (");
		some_names(story, names, rep->nr_bots);
		strbuf_addf(story, ") own %s%% of the tokens, %s. ",
			    pct((double)rep->bot_tokens, (double)rep->total_tokens),
			    rep->opt.include_bots ? "counted among the people (--include-bots)"
						  : "left out of the people figures");
	}
	if (rep->nr_groups) {
		const struct name_group *ng = &rep->groups[0];
		size_t g, k, n = 0, all = 0;

		for (g = 0; g < rep->nr_groups; g++)
			all += group_names(rep, &rep->groups[g]);
		names = xrealloc(names, st_mult(st_add(ng->nr_idents, 1), sizeof(*names)));
		for (k = 0; k < ng->nr_idents; k++)
			if (!n || strcmp(names[n - 1], rep->idents[ng->idents[k]].name))
				names[n++] = rep->idents[ng->idents[k]].name;
		strbuf_addf(story, "%zu names look like %zu %s (they share an address or differ only in "
			    "case; the largest group: ", all, rep->nr_groups, rep->nr_groups == 1 ? "person" : "people");
		some_names(story, names, n);
		strbuf_addstr(story, rep->opt.merge_identities ?
			      "), and count as one each (--merge-identities). " :
			      "), but count apart: <a href=\"#identities\">the groups</a> have the .mailmap "
			      "lines that would merge them, and --merge-identities counts each as one. ");
	}
	free(names);
}
