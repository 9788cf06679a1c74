/*
 * tokstream blame: who wrote each token of a file, shown on the file as
 * it is (its real layout), with the original commit ids; or the same as
 * porcelain records or one JSON document, for programs.
 *
 * Only the command is here: its options, the pager and the three ways of
 * printing a blame.  The blame itself is the library in blame.c, which
 * html and report share, as Git keeps builtin/blame.c apart from
 * blame.c.
 */
#include "commands.h"
#include "blame.h"
#include "dest-options.h"
#include "functions.h"
#include "../tokenize/escape.h"
#include "../tokenize/run-command.h"
#include "../tokenize/json.h"
#include "../tokenize/parse.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const blame_usage[] = {
	"tokstream blame [-C DEST] [OPTIONS] PATH [REV]",
	NULL
};

/*
 * The layout version of blame --json: raised when a member goes, is
 * renamed, or changes its type or meaning; new members leave it as it is.
 */
#define BLAME_JSON_VERSION 1

/* ---- the pager ---------------------------------------------------------- */

static pid_t pager_pid;

static void wait_for_pager(void)
{
	if (!pager_pid)
		return;
	fflush(stdout);
	fclose(stdout);
	waitpid(pager_pid, NULL, 0);
	pager_pid = 0;
}

static void setup_pager(void)
{
	const char *pager = getenv("GIT_PAGER");
	int fd[2];

	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	if (pipe(fd))
		return;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		return;
	}
	if (!pager_pid) {
		dup2(fd[0], 0);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], 1);
	close(fd[0]);
	close(fd[1]);
	atexit(wait_for_pager);
}

/* ---- porcelain and JSON ------------------------------------------------- */

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* ROLE, ROLE-mail, ROLE-time and ROLE-tz lines, as git blame --porcelain has them */
static void print_person(const char *role, const char *name, const char *mail, long long time,
			 const char *tz)
{
	printf("%s %s\n%s-mail %s\n%s-time %lld\n%s-tz %s\n", role, or_empty(name),
	       role, or_empty(mail), role, time, role, or_empty(tz));
}

static void print_porcelain(struct token_pos *toks, size_t nr, const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct commit_info *c = toks[i].commit;

		printf("%zu %zu %zu %s\n", toks[i].line, toks[i].col, toks[i].len, c->orig);
		if (c->shown)
			continue;
		c->shown = 1;
		print_person("author", c->author, c->author_mail, c->author_time, c->author_tz);
		print_person("committer", c->committer, c->committer_mail, c->committer_time,
			     c->committer_tz);
		printf("summary %s\nfilename %s\n", or_empty(c->summary),
		       c->filename ? c->filename : path);
	}
}

static void json_text(struct json_writer *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, or_empty(s));
}

/* the members ROLE, ROLE_mail, ROLE_time and ROLE_tz of a commit */
static void json_person(struct json_writer *j, const char *role, const char *name, const char *mail,
			long long time, const char *tz)
{
	struct strbuf key = STRBUF_INIT;

	json_text(j, role, name);
	strbuf_addf(&key, "%s_mail", role);
	json_text(j, key.buf, mail);
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_time", role);
	json_key(j, key.buf);
	json_int(j, time);
	strbuf_reset(&key);
	strbuf_addf(&key, "%s_tz", role);
	json_text(j, key.buf, tz);
	strbuf_release(&key);
}

/* The commits, described once, keyed by original id, in the order of their first token. */
static void json_commits(struct json_writer *j, struct blame_result *res, const char *path)
{
	size_t i;

	json_key(j, "commits");
	json_object_begin(j);
	for (i = 0; i < res->nr_toks; i++) {
		struct commit_info *c = res->toks[i].commit;

		if (c->shown)
			continue;
		c->shown = 1;
		json_key(j, c->orig);
		json_object_begin(j);
		json_person(j, "author", c->author, c->author_mail, c->author_time, c->author_tz);
		json_person(j, "committer", c->committer, c->committer_mail, c->committer_time,
			    c->committer_tz);
		json_text(j, "summary", c->summary);
		json_text(j, "filename", c->filename ? c->filename : path);
		json_object_end(j);
	}
	json_object_end(j);
}

/*
 * The porcelain's information as one JSON document (contrib/schema/
 * blame.schema.json): the commits, then the tokens.
 */
static void print_json(struct blame_result *res, const char *path, const char *orig)
{
	struct strbuf out = STRBUF_INIT;
	struct json_writer j;
	size_t i;

	json_init(&j, &out, 2);
	json_object_begin(&j);
	json_key(&j, "version");
	json_int(&j, BLAME_JSON_VERSION);
	json_key(&j, "path");
	json_string(&j, path);
	json_key(&j, "revision");
	json_string(&j, orig);
	json_commits(&j, res, path);
	json_key(&j, "tokens");
	json_array_begin(&j);
	for (i = 0; i < res->nr_toks; i++) {
		json_object_begin(&j);
		json_key(&j, "line");
		json_uint(&j, res->toks[i].line);
		json_key(&j, "column");
		json_uint(&j, res->toks[i].col);
		json_key(&j, "length");
		json_uint(&j, res->toks[i].len);
		json_key(&j, "commit");
		json_string(&j, res->toks[i].commit->orig);
		json_object_end(&j);
		/* a large file's document goes out as it is made */
		if (out.len > 65536) {
			fwrite(out.buf, 1, out.len, stdout);
			strbuf_reset(&out);
		}
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

/* ---- the terminal ------------------------------------------------------- */

/*
 * Names go into fixed columns: they are cut and padded by the columns a
 * terminal gives them, not by bytes, which split UTF-8 ("Hovm\xc3") and
 * misalign every line whose name is not ASCII.
 */
struct code_range {
	unsigned lo, hi;
};

/*
 * No column of their own (Unicode 14): the combining marks (Mn, Me) of
 * the scripts up to Thai and the blocks of combining marks, Hangul
 * vowels and finals after a leading consonant, the invisible characters
 * (zero width space and joiners, direction marks, word joiner, U+FEFF).
 */
static const struct code_range zero_width[] = {
	{ 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD }, { 0x05BF, 0x05BF },
	{ 0x05C1, 0x05C2 }, { 0x05C4, 0x05C5 }, { 0x05C7, 0x05C7 }, { 0x0610, 0x061A },
	{ 0x064B, 0x065F }, { 0x0670, 0x0670 }, { 0x06D6, 0x06DC }, { 0x06DF, 0x06E4 },
	{ 0x06E7, 0x06E8 }, { 0x06EA, 0x06ED }, { 0x0711, 0x0711 }, { 0x0730, 0x074A },
	{ 0x07A6, 0x07B0 }, { 0x07EB, 0x07F3 }, { 0x07FD, 0x07FD }, { 0x0816, 0x0819 },
	{ 0x081B, 0x0823 }, { 0x0825, 0x0827 }, { 0x0829, 0x082D }, { 0x0859, 0x085B },
	{ 0x0898, 0x089F }, { 0x08CA, 0x08E1 }, { 0x08E3, 0x0902 }, { 0x093A, 0x093A },
	{ 0x093C, 0x093C }, { 0x0941, 0x0948 }, { 0x094D, 0x094D }, { 0x0951, 0x0957 },
	{ 0x0962, 0x0963 }, { 0x0981, 0x0981 }, { 0x09BC, 0x09BC }, { 0x09C1, 0x09C4 },
	{ 0x09CD, 0x09CD }, { 0x09E2, 0x09E3 }, { 0x09FE, 0x0A02 }, { 0x0A3C, 0x0A3C },
	{ 0x0A41, 0x0A51 }, { 0x0A70, 0x0A71 }, { 0x0A75, 0x0A75 }, { 0x0A81, 0x0A82 },
	{ 0x0ABC, 0x0ABC }, { 0x0AC1, 0x0AC8 }, { 0x0ACD, 0x0ACD }, { 0x0AE2, 0x0AE3 },
	{ 0x0AFA, 0x0B01 }, { 0x0B3C, 0x0B3C }, { 0x0B3F, 0x0B3F }, { 0x0B41, 0x0B44 },
	{ 0x0B4D, 0x0B56 }, { 0x0B62, 0x0B63 }, { 0x0B82, 0x0B82 }, { 0x0BC0, 0x0BC0 },
	{ 0x0BCD, 0x0BCD }, { 0x0C00, 0x0C00 }, { 0x0C04, 0x0C04 }, { 0x0C3C, 0x0C3C },
	{ 0x0C3E, 0x0C40 }, { 0x0C46, 0x0C56 }, { 0x0C62, 0x0C63 }, { 0x0C81, 0x0C81 },
	{ 0x0CBC, 0x0CBC }, { 0x0CBF, 0x0CBF }, { 0x0CC6, 0x0CC6 }, { 0x0CCC, 0x0CCD },
	{ 0x0CE2, 0x0CE3 }, { 0x0D00, 0x0D01 }, { 0x0D3B, 0x0D3C }, { 0x0D41, 0x0D44 },
	{ 0x0D4D, 0x0D4D }, { 0x0D62, 0x0D63 }, { 0x0D81, 0x0D81 }, { 0x0DCA, 0x0DCA },
	{ 0x0DD2, 0x0DD6 }, { 0x0E31, 0x0E31 }, { 0x0E34, 0x0E3A }, { 0x0E47, 0x0E4E },
	{ 0x1160, 0x11FF }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x200B, 0x200F },
	{ 0x2060, 0x2064 }, { 0x20D0, 0x20FF }, { 0x302A, 0x302D }, { 0x3099, 0x309A },
	{ 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF },
};

/*
 * Two columns: the characters of East Asian Width W or F (Unicode 14;
 * unassigned code points between two of them taken with them): Hangul,
 * kana, CJK ideographs, Yi, fullwidth forms, emoji.  A character in
 * neither table is taken for one column, as the letters of most scripts.
 */
static const struct code_range wide[] = {
	{ 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A }, { 0x23E9, 0x23EC },
	{ 0x23F0, 0x23F0 }, { 0x23F3, 0x23F3 }, { 0x25FD, 0x25FE }, { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 }, { 0x267F, 0x267F }, { 0x2693, 0x2693 }, { 0x26A1, 0x26A1 },
	{ 0x26AA, 0x26AB }, { 0x26BD, 0x26BE }, { 0x26C4, 0x26C5 }, { 0x26CE, 0x26CE },
	{ 0x26D4, 0x26D4 }, { 0x26EA, 0x26EA }, { 0x26F2, 0x26F3 }, { 0x26F5, 0x26F5 },
	{ 0x26FA, 0x26FA }, { 0x26FD, 0x26FD }, { 0x2705, 0x2705 }, { 0x270A, 0x270B },
	{ 0x2728, 0x2728 }, { 0x274C, 0x274C }, { 0x274E, 0x274E }, { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27B0, 0x27B0 }, { 0x27BF, 0x27BF },
	{ 0x2B1B, 0x2B1C }, { 0x2B50, 0x2B50 }, { 0x2B55, 0x2B55 }, { 0x2E80, 0x303E },
	{ 0x3041, 0x3247 }, { 0x3250, 0x4DBF }, { 0x4E00, 0xA4C6 }, { 0xA960, 0xA97C },
	{ 0xAC00, 0xD7A3 }, { 0xF900, 0xFAD9 }, { 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6B },
	{ 0xFF01, 0xFF60 }, { 0xFFE0, 0xFFE6 }, { 0x16FE0, 0x1B2FB }, { 0x1F004, 0x1F004 },
	{ 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A }, { 0x1F200, 0x1F320 },
	{ 0x1F32D, 0x1F335 }, { 0x1F337, 0x1F37C }, { 0x1F37E, 0x1F393 }, { 0x1F3A0, 0x1F3CA },
	{ 0x1F3CF, 0x1F3D3 }, { 0x1F3E0, 0x1F3F0 }, { 0x1F3F4, 0x1F3F4 }, { 0x1F3F8, 0x1F43E },
	{ 0x1F440, 0x1F440 }, { 0x1F442, 0x1F4FC }, { 0x1F4FF, 0x1F53D }, { 0x1F54B, 0x1F54E },
	{ 0x1F550, 0x1F567 }, { 0x1F57A, 0x1F57A }, { 0x1F595, 0x1F596 }, { 0x1F5A4, 0x1F5A4 },
	{ 0x1F5FB, 0x1F64F }, { 0x1F680, 0x1F6C5 }, { 0x1F6CC, 0x1F6CC }, { 0x1F6D0, 0x1F6D2 },
	{ 0x1F6D5, 0x1F6DF }, { 0x1F6EB, 0x1F6EC }, { 0x1F6F4, 0x1F6FC }, { 0x1F7E0, 0x1F7F0 },
	{ 0x1F90C, 0x1F93A }, { 0x1F93C, 0x1F945 }, { 0x1F947, 0x1F9FF }, { 0x1FA70, 0x1FAF6 },
	{ 0x20000, 0x3134A },
};

/* Is cp in the sorted ranges r[0..nr)? */
static int in_ranges(unsigned cp, const struct code_range *r, size_t nr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

static size_t code_point_width(unsigned cp)
{
	if (in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(zero_width[0])))
		return 0;
	if (in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])))
		return 2;
	return 1;
}

/* The columns s (NULL: none) takes on a terminal, as add_columns writes it. */
static size_t columns_of(const char *s)
{
	const unsigned char *u = (const unsigned char *)or_empty(s);
	size_t n = strlen((const char *)u), i = 0, cols = 0;

	while (i < n) {
		unsigned cp = 0;
		size_t bad = 0, len = utf8_decode(u + i, n - i, &cp, &bad);

		cols += len ? code_point_width(cp) : 1;
		i += len ? len : bad;
	}
	return cols;
}

/*
 * Appends s (NULL: nothing) to sb as width columns, as "%-W.Ws" would
 * for ASCII: cut, when cut is set, after the last whole character that
 * fits, then padded with spaces.  What is not UTF-8 goes out as U+FFFD,
 * so that no broken sequence reaches the terminal, cut or not.
 */
static void add_columns(struct strbuf *sb, const char *s, size_t width, int cut)
{
	const unsigned char *u = (const unsigned char *)or_empty(s);
	size_t n = strlen((const char *)u), i = 0, cols = 0;

	while (i < n) {
		unsigned cp = 0;
		size_t bad = 0, len = utf8_decode(u + i, n - i, &cp, &bad);
		size_t w = len ? code_point_width(cp) : 1;

		if (cut && cols + w > width)
			break;
		if (len)
			strbuf_add(sb, u + i, len);
		else
			strbuf_addstr(sb, "\xEF\xBF\xBD");
		i += len ? len : bad;
		cols += w;
	}
	for (; cols < width; cols++)
		strbuf_addch(sb, ' ');
}


static const int palette[] = {
	33, 166, 34, 162, 37, 136, 61, 160, 28, 129, 31, 172, 64, 125, 25, 94,
	69, 203, 71, 170, 38, 178, 99, 167, 35, 133, 74, 214, 106, 139
};
#define NR_PALETTE (sizeof(palette) / sizeof(palette[0]))

/* what the colours tell; the names of --by, in the same order */
enum by { BY_COMMIT, BY_AUTHOR, BY_AGE };
static const char *const by_names[] = { "commit", "author", "age", NULL };

static int cmp_share(const void *a, const void *b)
{
	const struct commit_info *x = *(const struct commit_info *const *)a;
	const struct commit_info *y = *(const struct commit_info *const *)b;

	return x->tokens < y->tokens ? 1 : x->tokens > y->tokens ? -1 : strcmp(x->orig, y->orig);
}

struct author_share {
	int group;
	size_t tokens;
	const char *name;
};

static int cmp_author_share(const void *a, const void *b)
{
	const struct author_share *x = a, *y = b;
	int cmp;

	if (x->tokens != y->tokens)
		return x->tokens < y->tokens ? 1 : -1;
	cmp = strcmp(or_empty(x->name), or_empty(y->name));
	return cmp ? cmp : x->group - y->group;
}

static int cmp_group(const void *a, const void *b)
{
	const struct commit_info *x = *(const struct commit_info *const *)a;
	const struct commit_info *y = *(const struct commit_info *const *)b;

	return x->group != y->group ? x->group - y->group : cmp_share(a, b);
}

/*
 * The groups of BY_AUTHOR, numbered as the commits are ranked: the
 * author of the most tokens first (ties by name), with the first colour;
 * order sorted by group, each author's commits together, so that the
 * legend lists the authors by their share and not by their largest
 * commit's.
 */
static void rank_authors(struct commit_info **order, size_t nr_commits, int groups)
{
	struct author_share *share = xcalloc(groups ? (size_t)groups : 1, sizeof(*share));
	int *rank = xcalloc(groups ? (size_t)groups : 1, sizeof(*rank));
	size_t i;
	int g;

	for (g = 0; g < groups; g++)
		share[g].group = g;
	for (i = 0; i < nr_commits; i++) {
		share[order[i]->group].tokens += order[i]->tokens;
		share[order[i]->group].name = order[i]->author;
	}
	qsort(share, (size_t)groups, sizeof(*share), cmp_author_share);
	for (g = 0; g < groups; g++)
		rank[share[g].group] = g;
	for (i = 0; i < nr_commits; i++) {
		order[i]->group = rank[order[i]->group];
		order[i]->color = palette[order[i]->group % NR_PALETTE];
	}
	qsort(order, nr_commits, sizeof(*order), cmp_group);
	free(rank);
	free(share);
}

/*
 * The commits of res, largest share first (with BY_AUTHOR, largest
 * author first), each with its group (the commit, or with BY_AUTHOR its
 * author) and colour; as many as res has.
 */
static struct commit_info **color_commits(struct blame_result *res, enum by by)
{
	size_t nr_commits = res->commits.nr, i;
	struct commit_info **order = xcalloc(nr_commits ? nr_commits : 1, sizeof(*order));
	long long oldest = 0, newest = 0;
	int groups = 0;

	for (i = 0; i < nr_commits; i++)
		order[i] = res->commits.v[i];
	qsort(order, nr_commits, sizeof(*order), cmp_share);
	for (i = 0; i < nr_commits; i++) {
		struct commit_info *c = order[i];
		size_t j;

		if (!oldest || c->author_time < oldest)
			oldest = c->author_time;
		if (c->author_time > newest)
			newest = c->author_time;
		c->group = groups;
		if (by == BY_AUTHOR)
			for (j = 0; j < i; j++)
				if (order[j]->author && c->author && !strcmp(order[j]->author, c->author)) {
					c->group = order[j]->group;
					break;
				}
		if (c->group == groups)
			groups++;
		c->color = palette[c->group % NR_PALETTE];
	}
	if (by == BY_AUTHOR)
		rank_authors(order, nr_commits, groups);
	if (by == BY_AGE)
		for (i = 0; i < nr_commits; i++) {
			/* old is blue, new is red: the 256-colour ramp 21..196 in six steps */
			static const int ramp[] = { 21, 27, 33, 39, 45, 51, 50, 226, 214, 208, 202, 196 };
			double f = newest > oldest ? (double)(order[i]->author_time - oldest) / (double)(newest - oldest) : 1;

			order[i]->color = ramp[(int)(f * 11 + 0.5)];
		}
	return order;
}

#define GUTTER_WIDTH 25

/*
 * --date: each commit's author date as git log --date=FORMAT writes it,
 * by token id, for the gutter; width is the widest.  Unused without it.
 */
struct gutter_dates {
	struct smap index;   /* token id -> its place in date */
	char **date;
	size_t nr, width;
};

/*
 * The gutter of the line [pos, end) whose tokens are toks[first] up to
 * the first that starts at or after end, appended to sb: the commit
 * line_owner() names (html's gutter's), and how many other authors;
 * GUTTER_WIDTH columns.
 */
static void line_gutter(const struct token_pos *toks, size_t nr, size_t first, size_t pos, size_t end,
			struct line_tally *tally, const struct gutter_dates *dates, struct strbuf *sb)
{
	struct commit_info *best;
	size_t others;
	struct strbuf field = STRBUF_INIT;

	line_tally_of(tally, toks, nr, first, pos, end);
	best = line_owner(tally, &others);
	if (best) {
		strbuf_addf(&field, "%.8s ", best->orig);
		add_columns(&field, best->author, 12, 1);
		if (dates) {
			size_t *at = smap_get(&dates->index, best->token);

			strbuf_addch(&field, ' ');
			add_columns(&field, at ? dates->date[*at] : NULL, dates->width, 0);
		}
		if (others)
			strbuf_addf(&field, " +%zu", others);
		else
			strbuf_addstr(&field, "   ");
	}
	add_columns(sb, field.buf, GUTTER_WIDTH + (dates ? dates->width + 1 : 0), 0);
	strbuf_release(&field);
}

/*
 * The file, each line behind its gutter, each token in its commit's colour.
 * A token that spans lines (a comment, a docstring, a raw string) stays
 * toks[t], begun before pos, on every line it covers, empty ones too, and
 * is passed where it ends.  The tokens are left as they are: a remainder
 * moved to the next line's start was never reached when that line was
 * empty, and held every later token back.
 */
static void print_lines(struct blame_result *res, int color, const char *in_range,
			const struct gutter_dates *dates, char **line_blame, size_t nr_line_blame)
{
	const char *src = res->content.buf;
	size_t len = res->content.len, nr = res->nr_toks;
	const struct token_pos *toks = res->toks;
	size_t t = 0, line = 1, pos = 0;
	struct strbuf gutter = STRBUF_INIT, out = STRBUF_INIT;
	struct line_tally tally = { NULL, 0, 0 };

	while (pos < len) {
		const char *eol = memchr(src + pos, '\n', len - pos);
		size_t end = eol ? (size_t)(eol - src) : len;

		/* a token that ended with the newline before this line */
		while (t < nr && toks[t].start < pos && toks[t].start + toks[t].len <= pos)
			t++;
		strbuf_reset(&gutter);
		strbuf_reset(&out);
		line_gutter(toks, nr, t, pos, end, &tally, dates, &gutter);
		if (line_blame)
			strbuf_addf(&out, "%-8.8s ",
				    line - 1 < nr_line_blame && line_blame[line - 1] ? line_blame[line - 1] : "");
		strbuf_addf(&out, "%s %5zu  ", gutter.buf, line);
		while (pos < end) {
			if (t < nr && toks[t].start <= pos) {
				/* colour up to the token's end or the line's, whichever comes first */
				size_t tend = toks[t].start + toks[t].len, stop = tend < end ? tend : end;

				if (color)
					strbuf_addf(&out, "\033[38;5;%dm", toks[t].commit->color);
				strbuf_add(&out, src + pos, stop - pos);
				if (color)
					strbuf_addstr(&out, "\033[m");
				pos = stop;
				if (tend <= end)
					t++;
			} else {
				strbuf_addch(&out, src[pos]);
				pos++;
			}
		}
		strbuf_addch(&out, '\n');
		/* a line out of every -L range is passed, its tokens with it */
		if (!in_range || in_range[line])
			fwrite(out.buf, 1, out.len, stdout);
		if (!eol)
			break;
		pos = end + 1;
		line++;
	}
	strbuf_release(&gutter);
	strbuf_release(&out);
	free(tally.v);
}

/* "1 token", "2 tokens": the singular padded, so that the shares stay in line */
static const char *tokens_word(size_t n)
{
	return n == 1 ? "token " : "tokens";
}

/*
 * The legend: each commit (or author) with its colour and share of the
 * tokens.  A commit's author is cut at 20 columns; an author's name is
 * whole, and the column of names as wide as the widest (at least 30), so
 * that the figures stay in line whatever the names.
 */
static void print_legend(struct commit_info **order, size_t nr_commits, size_t total, enum by by, int color)
{
	struct strbuf who = STRBUF_INIT;
	size_t i, names = 30;

	for (i = 0; by == BY_AUTHOR && i < nr_commits; i++) {
		size_t w = columns_of(order[i]->author);

		if (w > names)
			names = w;
	}
	for (i = 0; i < nr_commits; i++) {
		struct commit_info *c = order[i];
		char date[16];

		strbuf_reset(&who);
		if (by == BY_AUTHOR) {
			size_t n = 0, j;

			/* an author's commits are together in order (rank_authors) */
			if (i && order[i - 1]->group == c->group)
				continue;
			for (j = i; j < nr_commits && order[j]->group == c->group; j++)
				n += order[j]->tokens;
			if (!n)
				continue;  /* none in the -L ranges */
			if (color)
				printf("\033[38;5;%dm#####\033[m ", c->color);
			add_columns(&who, c->author, names, 0);
			printf("%s %6zu %s %5.1f%%\n", who.buf, n, tokens_word(n),
			       100.0 * (double)n / (double)total);
			continue;
		}
		if (!c->tokens)
			continue;  /* none in the -L ranges */
		day_of(c->author_time, date, sizeof(date));
		if (color)
			printf("\033[38;5;%dm#####\033[m ", c->color);
		add_columns(&who, c->author, 20, 1);
		printf("%.10s %s %s %6zu %s %5.1f%%  %s\n", c->orig, date,
		       who.buf, c->tokens, tokens_word(c->tokens),
		       100.0 * (double)c->tokens / (double)total, or_empty(c->summary));
	}
	strbuf_release(&who);
}

static void print_terminal(struct blame_result *res, enum by by, int color, const char *in_range,
			   size_t nr_in_range, const struct gutter_dates *dates,
			   char **line_blame, size_t nr_line_blame)
{
	struct commit_info **order = color_commits(res, by);

	print_lines(res, color, in_range, dates, line_blame, nr_line_blame);
	printf("\n");
	print_legend(order, res->commits.nr, nr_in_range ? nr_in_range : 1, by, color);
	free(order);
}

/* git blame's commit (a token id) of each line of path, for --line; as many lines. */
static char **git_line_blame(struct blame_ctx *ctx, const char *path, size_t *nr_lines)
{
	const char *argv[] = { "git", "blame", "--porcelain", ctx->orig, "--", path, NULL };
	struct commit_table line_commits = { 0 };
	struct commit_info **lc;
	struct strbuf out = STRBUF_INIT;
	char **line_blame;
	size_t j;

	if (run_capture(argv, ctx->src.buf, &out))
		die("git blame of '%s' failed in the source repository", path);
	lc = parse_porcelain(&line_commits, out.buf, nr_lines);
	line_blame = xcalloc(*nr_lines ? *nr_lines : 1, sizeof(*line_blame));
	for (j = 0; j < *nr_lines; j++)
		line_blame[j] = lc[j] ? xstrdup(lc[j]->token) : NULL;
	free(lc);
	commit_table_release(&line_commits);
	strbuf_release(&out);
	return line_blame;
}

/*
 * PATH must be a file at REV: a directory, or nothing, is said so here
 * (the blame would only find no file).
 */
static void check_blame_path(const struct blame_ctx *ctx, const char *path, const char *rev)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;

	strvec_pushl(&argv, "git", "cat-file", "-t", NULL);
	strvec_pushf(&argv, "%s:%s", ctx->orig, path);
	if (run_capture_quiet(argv.v, ctx->src.buf, &out))
		die("'%s' does not exist at %s", path, rev);
	strbuf_trim_newline(&out);
	if (!strcmp(out.buf, "tree"))
		die("'%s' is a directory at %s: blame takes a file (html and report take directories)",
		    path, rev);
	strvec_clear(&argv);
	strbuf_release(&out);
}

/* ---- -L and --date ------------------------------------------------------ */

/* What the command line of blame says. */
struct blame_options {
	struct dest_options d;
	struct attribution_options ao;
	int porcelain, json, show_line, no_pager, no_mailmap;
	int by;       /* enum by */
	int color;    /* enum color_when */
	const char **ranges;   /* -L, as given */
	size_t nr_ranges, alloc_ranges;
	const char *date;      /* --date: the gutter's date format; NULL: none */
	const char *path, *rev;
};

/*
 * An -L range as git blame writes one: START,END, START,+N (N lines from
 * START), START,-N (N lines up to START), START (to the end), ,END; or
 * :FUNCNAME.  Lines are 1-based.
 */
struct range_spec {
	const char *funcname;    /* :FUNCNAME; the rest unused */
	size_t start, end;       /* 0: not given */
	char sign;               /* '+' or '-' before end, or 0 */
};

/* A line number, at least 1, at *p: moves *p past it; -1 if there is none. */
static int scan_line(const char **p, size_t *v)
{
	uintmax_t n;
	const char *end;

	if (**p < '0' || **p > '9' || !(end = scan_decimal(*p, &n)) || !n || n > SIZE_MAX / 2)
		return -1;
	*v = (size_t)n;
	*p = end;
	return 0;
}

static int parse_range_spec(const char *arg, struct range_spec *r)
{
	const char *p = arg;

	memset(r, 0, sizeof(*r));
	if (arg[0] == ':')
		return arg[1] ? (r->funcname = arg + 1, 0) : -1;
	if (*p != ',' && scan_line(&p, &r->start))
		return -1;
	if (!*p)
		return r->start ? 0 : -1;
	if (*p++ != ',')
		return -1;
	if (*p == '+' || *p == '-') {
		if (!r->start)
			return -1;
		r->sign = *p++;
	}
	return scan_line(&p, &r->end) || *p ? -1 : 0;
}

static int blame_opt_range(const struct option *opt, const char *arg, int unset)
{
	struct blame_options *o = opt->value;
	struct range_spec r;

	(void)unset;
	if (parse_range_spec(arg, &r))
		return parse_opt_error(opt, "takes START,END, START,+N, START,-N, START, ,END or :FUNCNAME "
				       "(lines from 1), not '%s'", arg);
	ALLOC_GROW(o->ranges, o->nr_ranges + 1, o->alloc_ranges);
	o->ranges[o->nr_ranges++] = arg;
	return 0;
}

/* git log's --date formats, each also with -local; and format:... */
static const char *const date_formats[] = {
	"relative", "local", "iso", "iso8601", "iso-strict", "iso8601-strict", "rfc", "rfc2822",
	"short", "raw", "human", "unix", "default", NULL
};

static int blame_opt_date(const struct option *opt, const char *arg, int unset)
{
	size_t i, n = strlen(arg);

	(void)unset;
	if (!strncmp(arg, "format:", 7) || !strncmp(arg, "format-local:", 13)) {
		*(const char **)opt->value = arg;
		return 0;
	}
	if (n > 6 && !strcmp(arg + n - 6, "-local"))
		n -= 6;
	for (i = 0; date_formats[i]; i++)
		if (strlen(date_formats[i]) == n && !strncmp(arg, date_formats[i], n)) {
			*(const char **)opt->value = arg;
			return 0;
		}
	{
		/* the names from the table, so that the message lists every one it takes */
		struct strbuf names = STRBUF_INIT;
		int ret;

		for (i = 0; date_formats[i]; i++)
			strbuf_addf(&names, "%s, ", date_formats[i]);
		ret = parse_opt_error(opt, "takes %sor format:STRFTIME (each but format: also with -local), "
				      "not '%s'", names.buf, arg);
		strbuf_release(&names);
		return ret;
	}
}

/* The line where the function whose name is toks[name] starts: its type and qualifiers too. */
static size_t function_start_line(const struct blame_result *res, size_t name)
{
	size_t k = name;

	while (k > 0 && res->toks[k - 1].line < res->toks[name].line &&
	       (res->toks[k - 1].cls == TOKEN_WORD ||
		(res->toks[k - 1].len == 1 && res->content.buf[res->toks[k - 1].start] == '*')))
		k--;
	return res->toks[k].line;
}

/* The last line of toks[k]: a comment or a string may span lines. */
static size_t token_end_line(const struct blame_result *res, size_t k)
{
	const struct token_pos *t = &res->toks[k];
	const char *p = res->content.buf + t->start, *end = p + t->len;
	size_t line = t->line;

	for (; p < end; p++)
		line += *p == '\n';
	return line;
}

/*
 * The lines of the function named (exactly, else as a regular expression
 * matches its name) funcname, the first one so named; dies when there is
 * none.
 */
static void function_lines(const struct blame_result *res, const char *path, const char *funcname,
			   size_t *start, size_t *end)
{
	struct function_span *fn;
	size_t nr = find_functions(res, &fn), k, found = nr;
	regex_t re;
	int pass;

	for (pass = 0; pass < 2 && found == nr; pass++) {
		if (pass && regcomp(&re, funcname, REG_EXTENDED | REG_NOSUB))
			die("-L :%s: not a regular expression", funcname);
		for (k = 0; k < nr && found == nr; k++) {
			const struct token_pos *t = &res->toks[fn[k].name];
			char *name = xstrfmt("%.*s", (int)t->len, res->content.buf + t->start);

			if (pass ? !regexec(&re, name, 0, NULL, 0) : !strcmp(name, funcname))
				found = k;
			free(name);
		}
		if (pass)
			regfree(&re);
	}
	if (found == nr)
		die("-L :%s: no function of that name in '%s'", funcname, path);
	*start = function_start_line(res, fn[found].name);
	*end = token_end_line(res, fn[found].end - 1);
	free(fn);
}

/*
 * The lines the -L ranges select, as in_range[LINE] (1-based), or NULL
 * without one; dies when a range starts past the end of the file.
 */
static char *resolve_ranges(const struct blame_options *o, const struct blame_result *res,
			    const char *path)
{
	size_t nr_lines = 0, i, k;
	char *in_range;

	if (!o->nr_ranges)
		return NULL;
	for (k = 0; k < res->content.len; k++)
		nr_lines += res->content.buf[k] == '\n';
	if (res->content.len && res->content.buf[res->content.len - 1] != '\n')
		nr_lines++;
	in_range = xcalloc(nr_lines + 2, 1);
	for (i = 0; i < o->nr_ranges; i++) {
		struct range_spec r;
		size_t start, end;

		parse_range_spec(o->ranges[i], &r);
		if (r.funcname) {
			function_lines(res, path, r.funcname, &start, &end);
		} else {
			start = r.start ? r.start : 1;
			if (start > nr_lines)
				die("-L %s: '%s' has only %zu line%s", o->ranges[i], path, nr_lines,
				    nr_lines == 1 ? "" : "s");
			end = r.sign == '+' ? start + r.end - 1
			    : r.sign == '-' ? start : r.end ? r.end : nr_lines;
			if (r.sign == '-')
				start = r.end >= start ? 1 : start - r.end + 1;
			if (end < start) {
				size_t swap = start;

				start = end;
				end = swap;
			}
		}
		for (k = start; k <= end && k <= nr_lines; k++)
			in_range[k] = 1;
	}
	return in_range;
}

/*
 * The tokens of res whose first byte is in range: only those are shown
 * and counted, each commit's count (for the legend) made again.  Returns
 * how many; toks keeps them all, for the layout of the lines.
 */
static size_t count_in_range(struct blame_result *res, const char *in_range)
{
	size_t k, nr = 0;

	if (!in_range)
		return res->nr_toks;
	for (k = 0; k < res->commits.nr; k++)
		res->commits.v[k]->tokens = 0;
	for (k = 0; k < res->nr_toks; k++)
		if (in_range[res->toks[k].line]) {
			res->toks[k].commit->tokens++;
			nr++;
		}
	return nr;
}

/* Only the tokens in range, for --porcelain and --json, moved to the front of res->toks. */
static void drop_out_of_range(struct blame_result *res, const char *in_range)
{
	size_t k, nr = 0;

	if (!in_range)
		return;
	for (k = 0; k < res->nr_toks; k++)
		if (in_range[res->toks[k].line])
			res->toks[nr++] = res->toks[k];
	res->nr_toks = nr;
}

/* The author dates of res's commits, as git log --date=format writes them, from DEST. */
static void read_dates(struct gutter_dates *d, const char *gitdir, const struct blame_result *res,
		       const char *format)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	char *p, *end;
	size_t k;
	int isnew;

	memset(d, 0, sizeof(*d));
	d->date = xcalloc(res->commits.nr + 1, sizeof(*d->date));
	strvec_pushl(&argv, "git", "log", "--no-walk=unsorted", "--stdin", "-z", NULL);
	strvec_pushf(&argv, "--date=%s", format);
	strvec_push(&argv, "--format=%H %ad");
	for (k = 0; k < res->commits.nr; k++)
		strbuf_addf(&in, "%s\n", res->commits.v[k]->token);
	if (res->commits.nr && run_capture_input(argv.v, gitdir, &in, &out))
		die("git log --date=%s failed in '%s'", format, gitdir);
	for (p = out.buf, end = out.buf + out.len; p < end; p += strlen(p) + 1) {
		size_t cols = 0;
		const char *q;

		if (strlen(p) < 41)
			continue;
		p[40] = '\0';
		smap_put(&d->index, p, d->nr, &isnew);
		d->date[d->nr++] = xstrdup(p + 41);
		for (q = p + 41; *q; q++)
			cols += ((unsigned char)*q & 0xC0) != 0x80;
		if (cols > d->width)
			d->width = cols;
		p[40] = ' ';
	}
	strvec_clear(&argv);
	strbuf_release(&in);
	strbuf_release(&out);
}

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
static const char *const color_names[] = { "auto", "always", "never", NULL };

/*
 * -C before PATH names DEST; after PATH it is git blame's copy
 * detection, kept for old command lines (--moves, -M are the options).
 */
static int blame_opt_dest(struct parse_opt_ctx *ctx, const struct option *opt, const char *arg, int unset)
{
	struct blame_options *o = opt->value;

	(void)unset;
	if (ctx->nr_out) {
		if (arg)
			return parse_opt_error(opt, "after PATH takes no value (it means --moves)");
		warning("-C after PATH means --moves (git blame's -C); it is deprecated: "
			"give --moves, and -C DEST before PATH");
		o->ao.no_moves = 0;
		return 0;
	}
	if (!arg && !(arg = parse_opt_next_arg(ctx)))
		return parse_opt_error(opt, "needs a value, DEST");
	o->d.dest = arg;
	return 0;
}

static void parse_blame_options(struct blame_options *o, int argc, char **argv)
{
	struct option options[] = {
		OPT_LOWLEVEL_CALLBACK('C', NULL, o, "DEST",
				      "the token repository (default: found from the current directory);\n"
				      "after PATH: --moves, as git blame's -C (deprecated)",
				      PARSE_OPT_NONEG, blame_opt_dest),
		OPT_SOURCE(&o->d),
		OPT_FLAG(0, "porcelain", &o->porcelain,
			 "one record per token: LINE COL LENGTH ORIGINAL-ID, commit details once"),
		OPT_FLAG(0, "json", &o->json, "the same as one JSON document (README: \"Output for programs\")"),
		OPT_CHOICE(0, "by", &o->by, "commit|author|age", "what the colours tell (default: commit)", by_names),
		OPT_FLAG(0, "line", &o->show_line, "show git blame's commit for each line beside"),
		OPT_CHOICE(0, "color", &o->color, "auto|always|never",
			   "colours when stdout is a terminal (default), always, or never", color_names),
		OPT_SET_INT(0, "no-pager", &o->no_pager, "write to stdout, not through a pager", 1),
		OPT_FLAG(0, "no-mailmap", &o->no_mailmap, "identities as the commits write them, not through .mailmap"),
		OPT_CALLBACK('L', NULL, o, "START,END",
			     "only the lines START to END (also START,+N, START,-N, ,END, :FUNCNAME);\n"
			     "repeatable", blame_opt_range),
		OPT_CALLBACK(0, "date", &o->date, "FORMAT",
			     "the date of the gutter's commit, as git log --date=FORMAT writes it\n"
			     "(relative, iso, short, unix, default, format:STRFTIME, ...)", blame_opt_date),
		OPT_ATTRIBUTION(&o->ao),
		OPT_END(),
	};
	int n;

	n = parse_options(argc, argv, options, blame_usage, 0);
	if (n < 1)
		usage_msg_opt("no PATH given", blame_usage, options);
	if (n > 2)
		usage_msg_opt("too many arguments", blame_usage, options);
	if (o->json && o->porcelain)
		usage_msg_opt("--json and --porcelain cannot be used together", blame_usage, options);
	o->path = argv[0];
	o->rev = n > 1 ? argv[1] : "HEAD";
}

int cmd_blame(int argc, char **argv)
{
	const char *path, *err;
	struct blame_options o;
	struct blame_ctx ctx;
	struct blame_result res;
	struct gutter_dates dates;
	char **line_blame = NULL, *in_range;
	size_t nr_line_blame = 0, nr_in_range;
	int color;

	memset(&o, 0, sizeof(o));
	o.by = BY_COMMIT;
	o.color = COLOR_AUTO;
	parse_blame_options(&o, argc, argv);
	check_dest_given(o.d.dest);
	/* one file's history: its versions read on a second thread while this one diffs */
	o.ao.read_ahead = 1;
	blame_open(&ctx, o.d.dest, o.d.source, o.rev, &o.ao);
	ctx.no_mailmap = o.no_mailmap;
	ctx.one_file = 1;
	path = work_tree_path(ctx.prefix.buf, o.path);
	check_blame_path(&ctx, path, o.rev);
	if (blame_file(&ctx, path, &res, &err))
		die("'%s': %s", path, err);
	in_range = resolve_ranges(&o, &res, path);

	if (o.porcelain || o.json) {
		drop_out_of_range(&res, in_range);
		if (o.porcelain)
			print_porcelain(res.toks, res.nr_toks, path);
		else
			print_json(&res, path, ctx.orig);
		return 0;
	}
	nr_in_range = count_in_range(&res, in_range);
	if (o.date)
		read_dates(&dates, ctx.gitdir.buf, &res, o.date);
	color = o.color == COLOR_ALWAYS || (o.color == COLOR_AUTO && isatty(1));
	if (!o.no_pager && isatty(1))
		setup_pager();
	if (o.show_line)
		line_blame = git_line_blame(&ctx, path, &nr_line_blame);
	print_terminal(&res, o.by, color, in_range, nr_in_range, o.date ? &dates : NULL,
		       line_blame, nr_line_blame);
	free_strings(line_blame, nr_line_blame);
	blame_result_release(&res);
	return 0;
}
