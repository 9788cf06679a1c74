/*
 * tokstream html: a static, self-contained site of token blame, one page
 * per file and an index per directory.
 *
 * Every byte that comes from a repository (code, names, messages, paths)
 * is escaped for where it goes: HTML text, attributes or JavaScript
 * strings.  No path of the repository can make it write outside OUTDIR:
 * paths with empty, "." or ".." components are refused, and nothing is
 * written through a symbolic link.
 *
 * The page works without JavaScript for what must always work (the code,
 * gutter, line anchors, commit links, the legend of authors and the
 * indexes are plain HTML); the colours, their switch, the tooltip, the
 * legend's filter and the minimap are scripts (contrib/page/html.js; the
 * style, contrib/page/html.css; both embedded at build time, page.h).
 * Commit links are plain <a> elements, so that they show in the status
 * bar and open in a new tab, at the cost of page size (lua's lvm.c:
 * 1.8 MB with them, 0.8 MB without).  OUTDIR/.tokstream/pages records
 * what each page was built from, so that a re-run rebuilds only the
 * pages whose file changed.
 */
#include "commands.h"
#include "blame.h"
#include "dest-options.h"
#include "functions.h"
#include "page.h"
#include "people.h"
#include "../tokenize/escape.h"
#include "../tokenize/smap.h"
#include "../tokenize/progress.h"
#include "../tokenize/run-command.h"
#include "../tokenize/sha1.h"
#include "../tokenize/usage.h"
#include "../tokenize/wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const html_usage[] = {
	"tokstream html [-C DEST] [OPTIONS] OUTDIR [REV] [--] [PATHSPEC...]",
	NULL
};

/* the colourings a page can open with, as --by names them */
static const char *const by_names[] = { "author", "commit", "age", NULL };

static struct {
	const char *by, *commit_url;
	int jobs;
	/* what the site is of, for the top index: the source's name and path, REV and its id */
	const char *name, *source, *rev, *rev_id;
	const char **pathspec;
	int nr_pathspec;
} opt = { "author", NULL, 1, NULL, NULL, NULL, NULL, NULL, 0 };

/* ---- escaping ----------------------------------------------------------- */

/* The pages' text keeps tabs and line ends as they are (escape.h). */
static void html_escape_str(struct strbuf *sb, const char *s)
{
	if (s)
		html_escape(sb, s, strlen(s), HTML_KEEP_LAYOUT);
}

/* A JavaScript string literal that is also safe inside <script>. */
static void js_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	strbuf_addch(sb, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
			strbuf_addf(sb, "\\u%04x", *p);
		else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			strbuf_addf(sb, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 2;
		} else
			strbuf_addch(sb, (char)*p);
	}
	strbuf_addch(sb, '"');
}

/* ---- safe output paths ------------------------------------------------ */

/* 0 when every component of a repository path is a plain name. */
static int path_is_safe(const char *path)
{
	const char *p = path;

	if (!*p || *p == '/')
		return -1;
	while (*p) {
		size_t l = strcspn(p, "/");

		if (l == 0 || (l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += l;
		if (*p == '/')
			p++;
		else
			break;
	}
	return path[strlen(path) - 1] == '/' ? -1 : 0;
}

static const char *outdir;

/* Creates the directories of rel under OUTDIR, never through a symlink. */
static void make_dirs(const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = rel, *slash;
	struct stat st;

	strbuf_addstr(&sb, outdir);
	while ((slash = strchr(p, '/'))) {
		strbuf_addch(&sb, '/');
		strbuf_add(&sb, p, (size_t)(slash - p));
		if (lstat(sb.buf, &st)) {
			if (mkdir(sb.buf, 0755) && errno != EEXIST)
				die_errno("cannot create '%s'", sb.buf);
		} else if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
			die("refusing to write through '%s': not a directory of our own", sb.buf);
		}
		p = slash + 1;
	}
	strbuf_release(&sb);
}

static void write_page(const char *rel, const struct strbuf *page)
{
	struct strbuf path = STRBUF_INIT;

	make_dirs(rel);
	strbuf_addf(&path, "%s/%s", outdir, rel);
	write_atomic(path.buf, page->buf, page->len);
	strbuf_release(&path);
}

/* Whether every directory on the way to OUTDIR/rel is one of ours: no symbolic link. */
static int dirs_of_our_own(const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = rel, *slash;
	struct stat st;
	int ok = 1;

	strbuf_addstr(&sb, outdir);
	while (ok && (slash = strchr(p, '/'))) {
		strbuf_addch(&sb, '/');
		strbuf_add(&sb, p, (size_t)(slash - p));
		ok = !lstat(sb.buf, &st) && S_ISDIR(st.st_mode);
		p = slash + 1;
	}
	strbuf_release(&sb);
	return ok;
}

/* The page of a file: NAME.html (a file named "index" gets "index.file.html"). */
static void page_name(const char *path, struct strbuf *out)
{
	const char *base = strrchr(path, '/');

	strbuf_reset(out);
	strbuf_addstr(out, path);
	base = base ? base + 1 : path;
	strbuf_addstr(out, strcmp(base, "index") ? ".html" : ".file.html");
}

/* "../" once per directory of path: the way back to OUTDIR. */
static void up_path(const char *path, struct strbuf *out)
{
	const char *p;

	strbuf_reset(out);
	for (p = path; (p = strchr(p, '/')); p++)
		strbuf_addstr(out, "../");
}

/* ---- the page ----------------------------------------------------------- */

/*
 * The palette of authors and commits, shared by the pages' script, the
 * legends and the indexes' bars: ten hues far enough apart to tell from
 * each other at a glance (d3's category10, its grey replaced by navy),
 * one for each of the ten authors (or commits) that own most tokens of
 * a view.  The rest are grey (OTHERS_TEXT, OTHERS_BAR): a palette that wrapped round
 * gave the 1st, 11th and 21st the same blue, and no hue told them apart.
 */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
	"#bcbd22", "#393b79"
};
#define OTHERS_TEXT "#999"  /* the tokens of the rest, still readable */
#define OTHERS_BAR "#ccc"  /* contrib/page/html.css's .bar span.others too */
#define NR_PALETTE (sizeof(palette) / sizeof(*palette))

static void add_header(struct strbuf *pg, const char *title, const char *up)
{
	strbuf_addstr(pg, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_escape_str(pg, title);
	strbuf_addstr(pg, " - tokstream</title><style>");
	strbuf_add(pg, html_css, html_css_len);
	strbuf_addstr(pg, "</style><style id=\"dyn\"></style></head><body><header><a href=\"");
	strbuf_addstr(pg, up);
	strbuf_addstr(pg, "index.html\">top</a>");
}

/* A repository's name, as its directory's: "/src/foo", "/src/foo/.git" and "/src/foo.git" are "foo". */
static const char *repository_name(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	const char *slash;
	char *name;

	strbuf_addstr(&sb, dir);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (sb.len > 5 && !strcmp(sb.buf + sb.len - 5, "/.git"))
		strbuf_setlen(&sb, sb.len - 5);
	else if (sb.len > 4 && !strcmp(sb.buf + sb.len - 4, ".git"))
		strbuf_setlen(&sb, sb.len - 4);
	slash = strrchr(sb.buf, '/');
	name = xstrdup(slash && slash[1] ? slash + 1 : sb.buf);
	strbuf_release(&sb);
	return name;
}

/* Breadcrumbs: each directory of path links to its index. */
static void add_crumbs(struct strbuf *pg, const char *path, int is_dir)
{
	const char *p = path, *slash;
	int depth = 0, d;

	for (slash = path; (slash = strchr(slash, '/')); slash++)
		depth++;
	while ((slash = strchr(p, '/'))) {
		strbuf_addstr(pg, " / <a href=\"");
		for (d = 1; d < depth + (is_dir ? 1 : 0); d++)
			strbuf_addstr(pg, "../");
		strbuf_addstr(pg, "index.html\">");
		html_escape(pg, p, (size_t)(slash - p), HTML_KEEP_LAYOUT);
		strbuf_addstr(pg, "</a>");
		depth--;
		p = slash + 1;
	}
	strbuf_addstr(pg, " / <b>");
	html_escape_str(pg, p);
	strbuf_addstr(pg, "</b>");
}

struct owner {
	char *author;
	size_t tokens;
};

struct owners {
	struct owner *v;
	size_t nr, alloc, total;
};

static void owners_add(struct owners *o, const char *author, size_t n)
{
	size_t i;

	o->total += n;
	for (i = 0; i < o->nr; i++)
		if (!strcmp(o->v[i].author, author)) {
			o->v[i].tokens += n;
			return;
		}
	ALLOC_GROW(o->v, o->nr + 1, o->alloc);
	o->v[o->nr].author = xstrdup(author);
	o->v[o->nr].tokens = n;
	o->nr++;
}

static int cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	return x->tokens < y->tokens ? 1 : x->tokens > y->tokens ? -1 : strcmp(x->author, y->author);
}

static void owners_release(struct owners *o)
{
	size_t i;

	for (i = 0; i < o->nr; i++)
		free(o->v[i].author);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* "Alice 60.0%, Bob 40.0%" for the top n. */
static void add_top_owners(struct strbuf *pg, struct owners *o, size_t n)
{
	size_t i;

	qsort(o->v, o->nr, sizeof(*o->v), cmp_owner);
	for (i = 0; i < o->nr && i < n; i++) {
		if (i)
			strbuf_addstr(pg, ", ");
		html_escape_str(pg, o->v[i].author);
		strbuf_addf(pg, " %.1f%%", 100.0 * (double)o->v[i].tokens / (double)(o->total ? o->total : 1));
	}
}

/* Who owns how much of each function (see functions.h for what a function is). */
static void add_functions(struct strbuf *pg, struct blame_result *res)
{
	const char *src = res->content.buf;
	struct token_pos *t = res->toks;
	struct function_span *fn;
	size_t nr = find_functions(res, &fn), i, k;

	for (i = 0; i < nr; i++) {
		size_t name = fn[i].name, end = fn[i].end;
		struct owners o = { NULL, 0, 0, 0 };

		if (!i)
			strbuf_addstr(pg, "<h2>Functions</h2><table class=\"fn\"><tr><th>function</th>"
				      "<th>line</th><th>tokens</th><th>owners</th></tr>");
		for (k = name; k < end; k++)
			owners_add(&o, t[k].commit->author ? t[k].commit->author : "", 1);
		strbuf_addstr(pg, "<tr><td>");
		html_escape(pg, src + t[name].start, t[name].len, HTML_KEEP_LAYOUT);
		strbuf_addf(pg, "</td><td class=\"num\"><a href=\"#L%zu\">%zu</a></td><td class=\"num\">%zu</td><td>",
			    t[name].line, t[name].line, end - name);
		add_top_owners(pg, &o, 3);
		strbuf_addstr(pg, "</td></tr>");
		owners_release(&o);
	}
	if (nr)
		strbuf_addstr(pg, "</table>");
	free(fn);
}

/* Where --commit-url sends a reader for commit c: %H is its original id. */
static void add_commit_url(struct strbuf *pg, const struct commit_info *c)
{
	const char *p = opt.commit_url, *h;

	while ((h = strstr(p, "%H"))) {
		html_escape(pg, p, (size_t)(h - p), HTML_KEEP_LAYOUT);
		strbuf_addstr(pg, c->orig);
		p = h + 2;
	}
	html_escape_str(pg, p);
}

/* An element of commit c's colour: a link to it with --commit-url, else a span. */
static void open_commit_elem(struct strbuf *pg, const struct commit_info *c, const char *cls)
{
	if (opt.commit_url) {
		strbuf_addf(pg, "<a class=\"%s c%d\" href=\"", cls, c->group);
		add_commit_url(pg, c);
		strbuf_addstr(pg, "\">");
	} else {
		strbuf_addf(pg, "<span class=\"%s c%d\">", cls, c->group);
	}
}

static void close_commit_elem(struct strbuf *pg)
{
	strbuf_addstr(pg, opt.commit_url ? "</a>" : "</span>");
}

static const char *author_of(const struct commit_info *c)
{
	return c->author ? c->author : "";
}

/* Like a code host's blame: the main author, the short id of its commit, "+N" others. */
static void add_gutter(struct strbuf *pg, const struct line_tally *t, const struct commit_info *prev,
		       size_t line, const struct commit_info **owner)
{
	size_t others;
	const struct commit_info *c = line_owner(t, &others);

	strbuf_addf(pg, "<tr id=\"L%zu\"%s><td class=\"g\">", line,
		    c && c == prev ? " class=\"same\"" : "");
	if (c) {
		strbuf_addf(pg, "<span class=\"ga c%d\">", c->group);
		html_escape_str(pg, author_of(c));
		strbuf_addstr(pg, "</span> ");
		open_commit_elem(pg, c, "gc");
		strbuf_add(pg, c->orig, 7);
		close_commit_elem(pg);
		if (others)
			strbuf_addf(pg, " <span class=\"gn\">+%zu</span>", others);
	}
	strbuf_addf(pg, "</td><td class=\"ln\"><a href=\"#L%zu\">%zu</a></td><td>", line, line);
	*owner = c;
}

/* The source in its layout: a row per line, each token an element of its commit. */
static void add_code(struct strbuf *pg, struct blame_result *res)
{
	const char *s = res->content.buf;
	size_t len = res->content.len, pos = 0, t = 0, line = 1;
	struct strbuf cell = STRBUF_INIT;
	struct line_tally tally = { NULL, 0, 0 };
	const struct commit_info *prev = NULL;

	strbuf_addstr(pg, "<table class=\"src\" id=\"code\">");
	while (pos < len || (pos == 0 && len == 0)) {
		const char *eol = memchr(s + pos, '\n', len - pos);
		size_t end = eol ? (size_t)(eol - s) : len, p = pos;

		strbuf_reset(&cell);
		/* the tokens that ended with the newline before this line */
		while (t < res->nr_toks && res->toks[t].start + res->toks[t].len <= pos)
			t++;
		line_tally_of(&tally, res->toks, res->nr_toks, t, pos, end);
		while (p < end) {
			struct token_pos *tp = t < res->nr_toks ? &res->toks[t] : NULL;

			if (tp && tp->start + tp->len <= p) {
				t++;
			} else if (tp && tp->start <= p) {
				/* a token that spans lines (a comment, a raw string) goes on below */
				size_t tend = tp->start + tp->len, stop = tend < end ? tend : end;

				open_commit_elem(&cell, tp->commit, "t");
				html_escape(&cell, s + p, stop - p, HTML_KEEP_LAYOUT);
				close_commit_elem(&cell);
				p = stop;
				if (tend <= end)
					t++;
			} else {
				size_t next = tp && tp->start < end ? tp->start : end;

				html_escape(&cell, s + p, next - p, HTML_KEEP_LAYOUT);
				p = next;
			}
		}
		add_gutter(pg, &tally, prev, line, &prev);
		strbuf_addbuf(pg, &cell);
		strbuf_addstr(pg, "</td></tr>\n");
		if (!eol)
			break;
		pos = end + 1;
		line++;
	}
	strbuf_addstr(pg, "</table>");
	free(tally.v);
	strbuf_release(&cell);
}

/*
 * The legend beside the code.  The script fills it for the colouring
 * chosen; what is written here (the authors) is what a reader without
 * scripts sees.
 */
static void add_legend(struct strbuf *pg, struct blame_result *res)
{
	struct owners o = { NULL, 0, 0, 0 };
	size_t i;

	for (i = 0; i < res->commits.nr; i++)
		owners_add(&o, author_of(res->commits.v[i]), res->commits.v[i]->tokens);
	qsort(o.v, o.nr, sizeof(*o.v), cmp_owner);
	strbuf_addstr(pg, "<aside id=\"side\"><h2 id=\"legend-title\">Authors</h2>"
		      "<input id=\"legend-filter\" type=\"search\" placeholder=\"filter\" "
		      "aria-label=\"filter the legend\"><table class=\"legend\"><tbody id=\"legend-rows\">");
	for (i = 0; i < o.nr; i++) {
		strbuf_addf(pg, "<tr><td><span class=\"sw\" style=\"background:%s\"></span></td><td class=\"label\">",
			    i < NR_PALETTE ? palette[i] : OTHERS_TEXT);
		html_escape_str(pg, o.v[i].author);
		strbuf_addf(pg, "</td><td class=\"num\">%zu</td><td class=\"num\">%.1f%%</td></tr>",
			    o.v[i].tokens, 100.0 * (double)o.v[i].tokens / (double)(o.total ? o.total : 1));
	}
	strbuf_addstr(pg, "</tbody></table></aside>");
	owners_release(&o);
}

/* The page's script (contrib/page/html.js), after its data: the commits, the palette and the options. */
static void add_script(struct strbuf *pg, struct blame_result *res)
{
	size_t i;

	strbuf_addstr(pg, "<script>var C=[");
	for (i = 0; i < res->commits.nr; i++) {
		struct commit_info *c = res->commits.v[i];
		char day[16];

		day_of(c->author_time, day, sizeof(day));
		strbuf_addstr(pg, i ? ",\n{id:" : "\n{id:");
		js_string(pg, c->orig);
		strbuf_addstr(pg, ",a:");
		js_string(pg, c->author);
		strbuf_addstr(pg, ",d:");
		js_string(pg, day);
		strbuf_addf(pg, ",t:%lld,n:%zu,s:", c->author_time, c->tokens);
		js_string(pg, c->summary);
		strbuf_addstr(pg, "}");
	}
	strbuf_addstr(pg, "];\nvar P=[");
	for (i = 0; i < NR_PALETTE; i++)
		strbuf_addf(pg, "%s\"%s\"", i ? "," : "", palette[i]);
	strbuf_addstr(pg, "],OTHERS=\"" OTHERS_TEXT "\";\nvar BY=");
	js_string(pg, opt.by);
	strbuf_addstr(pg, ",URLT=");
	if (opt.commit_url)
		js_string(pg, opt.commit_url);
	else
		strbuf_addstr(pg, "null");
	strbuf_addstr(pg, ";\n");
	strbuf_add(pg, html_js, html_js_len);
	strbuf_addstr(pg, "</script>");
}

static void build_page(struct blame_result *res, const char *path, struct strbuf *pg)
{
	struct strbuf up = STRBUF_INIT;
	size_t i;

	for (i = 0; i < res->commits.nr; i++)
		res->commits.v[i]->group = (int)i;
	up_path(path, &up);
	add_header(pg, path, up.buf);
	add_crumbs(pg, path, 0);
	strbuf_addstr(pg, " <span id=\"by\">colour by <button value=\"author\">author</button>"
		      "<button value=\"commit\">commit</button><button value=\"age\">age</button></span>"
		      "</header><div id=\"tip\" hidden></div><div id=\"page\"><main>");
	strbuf_addf(pg, "<p>%zu tokens, %zu commits</p>", res->nr_toks, res->commits.nr);
	add_code(pg, res);
	add_functions(pg, res);
	strbuf_addstr(pg, "</main><canvas id=\"map\" hidden title=\"the whole file: click to go to a line\">"
		      "</canvas>");
	add_legend(pg, res);
	strbuf_addstr(pg, "</div>");
	add_script(pg, res);
	strbuf_addstr(pg, "</body></html>\n");
	strbuf_release(&up);
}

/* ---- the site: files, directory indexes, the cache of what is built ---- */

/*
 * What each page was built from, so that a re-run rebuilds only pages
 * whose file changed: OUTDIR/.tokstream/pages, one line per file:
 * KEY TAB PATH TAB TOKENS TAB AUTHOR=N ... (authors %-escaped).
 */
struct file_entry {
	char *path;
	char key[41];
	struct owners owners;
	int fresh;           /* to be rebuilt in this run */
	int built;           /* rebuilt: a worker sent its cache line */
};

static struct file_entry *files;
static size_t nr_files, alloc_files;

static void entry_line(struct strbuf *sb, struct file_entry *f)
{
	size_t i;

	strbuf_addf(sb, "%s\t", f->key);
	percent_escape(sb, f->path, strlen(f->path), CACHE_FIELD);
	strbuf_addf(sb, "\t%zu", f->owners.total);
	for (i = 0; i < f->owners.nr; i++) {
		strbuf_addch(sb, '\t');
		percent_escape(sb, f->owners.v[i].author, strlen(f->owners.v[i].author), CACHE_FIELD);
		strbuf_addf(sb, "=%zu", f->owners.v[i].tokens);
	}
	strbuf_addch(sb, '\n');
}

/*
 * A cache line into f: its key, path and owners, as many owners as the
 * line holds (a file of pytest has 773: a limit would drop some from
 * every index that sums the file up).
 */
static void parse_entry(char *line, struct file_entry *f)
{
	char *key = line, *path, *field, *next;

	memset(f, 0, sizeof(*f));
	path = strchr(key, '\t');
	if (!path || path - key != 40)
		return;
	*path++ = '\0';
	field = strchr(path, '\t');
	if (!field)
		return;
	*field++ = '\0';
	memcpy(f->key, key, 41);
	f->path = percent_unescape(path, strlen(path));
	/* the total is the sum of the owners: skip it */
	for (field = strchr(field, '\t'); field; field = next) {
		char *eq, *author;

		field++;
		next = strchr(field, '\t');
		if (next)
			*next = '\0';
		eq = strrchr(field, '=');
		if (!eq)
			continue;
		author = percent_unescape(field, (size_t)(eq - field));
		owners_add(&f->owners, author, (size_t)strtoul(eq + 1, NULL, 10));
		free(author);
	}
}

/* The key of a page: what the file's blame depends on. */
/*
 * The newest commit of the token history that changed each file of
 * files[] against any of its parents, in topological order (a merge
 * that brought a side's change in comes before everything it
 * contains), into last[k]: one walk of the history for every page,
 * where a `git rev-list -1 -- PATH` a page walked it once per file (on
 * curl, 2,800 walks of 39,000 commits).
 */
static void last_changes(struct blame_ctx *ctx, char (*last)[41])
{
	const char *argv[] = { "git", "log", "-m", "--topo-order", "--no-renames", "--name-only", "-z",
			       "--format=%x01%H", ctx->token, NULL };
	struct smap index = SMAP_INIT;
	struct reader r;
	struct strbuf rec = STRBUF_INIT;
	char cur[41] = "";
	size_t k, left = nr_files, *at;

	for (k = 0; k < nr_files; k++) {
		smap_put(&index, files[k].path, k, NULL);
		last[k][0] = '\0';
	}
	reader_start(&r, argv, ctx->gitdir.buf);
	while (left && reader_next(&r, &rec, '\0')) {
		const char *p = rec.buf;

		if (*p == '\001') {
			snprintf(cur, sizeof(cur), "%s", p + 1);
			continue;
		}
		while (*p == '\n')
			p++;
		if (*p && (at = smap_get(&index, p)) && !last[*at][0]) {
			memcpy(last[*at], cur, 41);
			left--;
		}
	}
	/* what git log prints after we stop reading is not wanted */
	close(r.fd);
	r.fd = -1;
	finish_command(&r.c);
	smap_release(&index);
	strbuf_release(&rec);
}

static void page_key(struct blame_ctx *ctx, const char *last, char *key)
{
	struct strbuf all = STRBUF_INIT;
	unsigned char h[20];
	int i;
	static const char hex[] = "0123456789abcdef";

	strbuf_addf(&all, "v4 %s\n %s %s %s", last, opt.by, opt.commit_url ? opt.commit_url : "",
		    ctx->key.buf);
	git_blob_oid(all.buf, all.len, h);
	for (i = 0; i < 20; i++) {
		key[2 * i] = hex[h[i] >> 4];
		key[2 * i + 1] = hex[h[i] & 15];
	}
	key[40] = '\0';
	strbuf_release(&all);
}

static void build_file(struct blame_ctx *ctx, struct file_entry *f, struct strbuf *cache_out)
{
	struct blame_result res;
	struct strbuf pg = STRBUF_INIT, name = STRBUF_INIT;
	const char *err;
	size_t i;

	if (blame_file(ctx, f->path, &res, &err)) {
		if (res.lang && res.lang != &language_none)
			warning("'%s': %s; no page", f->path, err);
		blame_result_release(&res);
		return;
	}
	build_page(&res, f->path, &pg);
	page_name(f->path, &name);
	write_page(name.buf, &pg);
	owners_release(&f->owners);
	for (i = 0; i < res.commits.nr; i++)
		owners_add(&f->owners, res.commits.v[i]->author ? res.commits.v[i]->author : "",
			   res.commits.v[i]->tokens);
	entry_line(cache_out, f);
	blame_result_release(&res);
	strbuf_release(&pg);
	strbuf_release(&name);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct file_entry *)a)->path, ((const struct file_entry *)b)->path);
}

/*
 * Removes the page of a file gone from the tree, and the index of each
 * of its directories that went with it (dirs: those of the files that
 * are left), and those directories once empty.  Never through a link.
 */
static void remove_page(const char *path, struct smap *dirs)
{
	struct strbuf rel = STRBUF_INIT, full = STRBUF_INIT;
	char *dir = xstrdup(path), *slash;

	page_name(path, &rel);
	if (dirs_of_our_own(rel.buf)) {
		strbuf_addf(&full, "%s/%s", outdir, rel.buf);
		if (unlink(full.buf) && errno != ENOENT)
			die_errno("cannot remove '%s'", full.buf);
		while ((slash = strrchr(dir, '/'))) {
			*slash = '\0';
			if (smap_get(dirs, dir))
				break;
			strbuf_reset(&full);
			strbuf_addf(&full, "%s/%s/index.html", outdir, dir);
			if (unlink(full.buf) && errno != ENOENT)
				die_errno("cannot remove '%s'", full.buf);
			strbuf_setlen(&full, full.len - strlen("/index.html"));
			rmdir(full.buf);  /* only when empty: what else is there is not ours */
		}
	}
	free(dir);
	strbuf_release(&rel);
	strbuf_release(&full);
}

/* The authors a directory page gives a colour of their own (the rest are "others"). */
#define BAR_COLOURS NR_PALETTE

/* Adds the owners of the files at or under directory dir ("" the top) to o. */
static void dir_owners(const char *dir, struct owners *o)
{
	size_t dl = strlen(dir), k, x;

	for (k = 0; k < nr_files; k++) {
		if (dl && (strncmp(files[k].path, dir, dl) || files[k].path[dl] != '/'))
			continue;
		for (x = 0; x < files[k].owners.nr; x++)
			owners_add(o, files[k].owners.v[x].author, files[k].owners.v[x].tokens);
	}
}

static void add_share(struct strbuf *pg, const char *colour, const char *who, size_t n, size_t total)
{
	double pct = 100.0 * (double)n / (double)(total ? total : 1);

	strbuf_addf(pg, "<span%s style=\"width:%.3f%%", colour ? "" : " class=\"others\"", pct);
	if (colour)
		strbuf_addf(pg, ";background:%s", colour);
	strbuf_addstr(pg, "\" title=\"");
	html_escape_str(pg, who);
	strbuf_addf(pg, ": %zu token%s, %.1f%%\"></span>", n, n == 1 ? "" : "s", pct);
}

/*
 * The shares of o as a stacked bar, largest first, in the colours of
 * rank (author -> place among the directory's authors).
 */
static void add_bar(struct strbuf *pg, struct owners *o, struct smap *rank)
{
	size_t i, others = 0, nr_others = 0;
	struct strbuf who = STRBUF_INIT;

	qsort(o->v, o->nr, sizeof(*o->v), cmp_owner);
	strbuf_addstr(pg, "<td><div class=\"bar\">");
	for (i = 0; i < o->nr; i++) {
		size_t *r = smap_get(rank, o->v[i].author);

		if (r && *r < BAR_COLOURS) {
			add_share(pg, palette[*r], o->v[i].author, o->v[i].tokens, o->total);
		} else {
			others += o->v[i].tokens;
			nr_others++;
		}
	}
	if (nr_others) {
		strbuf_addf(&who, "%zu other%s", nr_others, nr_others > 1 ? "s" : "");
		add_share(pg, NULL, who.buf, others, o->total);
	}
	strbuf_addstr(pg, "</div></td>");
	strbuf_release(&who);
}

/* How many of o's authors are people, not bots: the contributors, as report counts them. */
static size_t people_of(const struct owners *o)
{
	size_t i, n = 0;

	for (i = 0; i < o->nr; i++)
		n += !is_bot_name(o->v[i].author);
	return n;
}

/* A row of an index: the link, tokens, contributors (bots aside), the top three and the bar. */
static void index_row(struct strbuf *pg, const char *href, const char *name, struct owners *o,
		      struct smap *rank)
{
	strbuf_addstr(pg, "<tr><td><a href=\"");
	percent_escape(pg, href, strlen(href), URL_PATH);
	strbuf_addstr(pg, "\">");
	html_escape_str(pg, name);
	strbuf_addf(pg, "</a></td><td class=\"num\">%zu</td><td class=\"num\">%zu</td><td>", o->total, people_of(o));
	add_top_owners(pg, o, 3);
	strbuf_addstr(pg, "</td>");
	add_bar(pg, o, rank);
	strbuf_addstr(pg, "</tr>");
}

/* The authors of a directory with their colours: the key to its bars. */
static void add_dir_authors(struct strbuf *pg, struct owners *total, struct smap *rank)
{
	size_t i, others = 0, people = people_of(total), bots = total->nr - people;

	qsort(total->v, total->nr, sizeof(*total->v), cmp_owner);
	strbuf_addf(pg, "<p>%zu tokens, %zu %s", total->total, people, people == 1 ? "contributor" : "contributors");
	if (bots)
		strbuf_addf(pg, " and %zu %s", bots, bots == 1 ? "bot" : "bots");
	strbuf_addstr(pg, "</p><ul class=\"authors\">");
	for (i = 0; i < total->nr; i++) {
		smap_put(rank, total->v[i].author, i, NULL);
		if (i >= BAR_COLOURS) {
			others += total->v[i].tokens;
			continue;
		}
		strbuf_addf(pg, "<li><span class=\"sw\" style=\"background:%s\"></span> ", palette[i]);
		html_escape_str(pg, total->v[i].author);
		strbuf_addf(pg, " %.1f%%</li>", 100.0 * (double)total->v[i].tokens / (double)(total->total ? total->total : 1));
	}
	if (total->nr > BAR_COLOURS)
		strbuf_addf(pg, "<li><span class=\"sw\" style=\"background:" OTHERS_BAR "\"></span> %zu others %.1f%%</li>",
			    total->nr - BAR_COLOURS, 100.0 * (double)others / (double)(total->total ? total->total : 1));
	strbuf_addstr(pg, "</ul>");
}

/* Writes the index of directory d; dirv: every directory that holds a page. */
static void build_index(const char *d, char **dirv, size_t nd)
{
	size_t dl = strlen(d), k;
	struct strbuf pg = STRBUF_INIT, up = STRBUF_INIT, rel = STRBUF_INIT, name = STRBUF_INIT;
	struct owners total = { NULL, 0, 0, 0 };
	struct smap rank = SMAP_INIT;

	strbuf_addf(&rel, "%s%sindex.html", d, dl ? "/" : "");
	up_path(rel.buf, &up);
	if (!dl)
		strbuf_addf(&name, "%s at %s", opt.name, opt.rev);
	add_header(&pg, dl ? d : name.buf, up.buf);
	if (dl)
		add_crumbs(&pg, d, 1);
	strbuf_addstr(&pg, "</header><main>");
	if (!dl) {
		int i;

		/* the top index says what the site is of */
		strbuf_addstr(&pg, "<p>The token blame of <b>");
		html_escape_str(&pg, opt.source);
		strbuf_addstr(&pg, "</b> at <b>");
		html_escape_str(&pg, opt.rev);
		strbuf_addf(&pg, "</b> (%.12s)", opt.rev_id);
		for (i = 0; i < opt.nr_pathspec; i++) {
			strbuf_addstr(&pg, i ? ", <code>" : ", of <code>");
			html_escape_str(&pg, opt.pathspec[i]);
			strbuf_addstr(&pg, "</code>");
		}
		strbuf_addstr(&pg, ".</p>");
	}
	dir_owners(d, &total);
	add_dir_authors(&pg, &total, &rank);
	strbuf_addstr(&pg, "<table class=\"idx\"><tr><th>name</th><th>tokens</th>"
		      "<th>contributors</th><th>top contributors</th><th>shares</th></tr>");
	/* subdirectories, then files */
	for (k = 0; k < nd; k++) {
		const char *sd = dirv[k];
		struct owners o = { NULL, 0, 0, 0 };

		if (!*sd || strncmp(sd, d, dl) || (dl && sd[dl] != '/') ||
		    strchr(sd + dl + (dl ? 1 : 0), '/'))
			continue;
		dir_owners(sd, &o);
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/index.html", sd + dl + (dl ? 1 : 0));
		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s/", sd + dl + (dl ? 1 : 0));
		index_row(&pg, name.buf, rel.buf, &o, &rank);
		owners_release(&o);
	}
	for (k = 0; k < nr_files; k++) {
		const char *p = files[k].path, *base;

		if (strncmp(p, d, dl) || (dl && p[dl] != '/'))
			continue;
		base = p + dl + (dl ? 1 : 0);
		if (strchr(base, '/'))
			continue;
		page_name(base, &name);
		index_row(&pg, name.buf, base, &files[k].owners, &rank);
	}
	strbuf_addstr(&pg, "</table></main></body></html>\n");
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s%sindex.html", d, dl ? "/" : "");
	write_page(rel.buf, &pg);
	owners_release(&total);
	smap_release(&rank);
	strbuf_release(&pg);
	strbuf_release(&up);
	strbuf_release(&rel);
	strbuf_release(&name);
}

/* Writes DIR/index.html for every directory, from the files' owners. */
static void build_indexes(void)
{
	size_t i, j;
	char **dirv = NULL;
	size_t nd = 0, ad = 0;

	/* every directory that holds a page, the top one ("") included */
	ALLOC_GROW(dirv, nd + 1, ad);
	dirv[nd++] = xstrdup("");
	for (i = 0; i < nr_files; i++) {
		const char *p = files[i].path, *slash;

		for (slash = p; (slash = strchr(slash, '/')); slash++) {
			size_t l = (size_t)(slash - p), k;
			int have = 0;

			for (k = 0; k < nd && !have; k++)
				have = strlen(dirv[k]) == l && !strncmp(dirv[k], p, l);
			if (!have) {
				ALLOC_GROW(dirv, nd + 1, ad);
				dirv[nd] = xmalloc(l + 1);
				memcpy(dirv[nd], p, l);
				dirv[nd][l] = '\0';
				nd++;
			}
		}
	}
	for (j = 0; j < nd; j++)
		build_index(dirv[j], dirv, nd);
	free_strings(dirv, nd);
}

/* A worker's pages count on its parent's display, through a pipe: a byte a page. */
static int progress_fd = -1;
static uint64_t pages_built;

static void page_built(struct progress *p)
{
	/* a pipe that takes no byte has lost its reader: the parent is gone */
	if (progress_fd >= 0) {
		if (write_in_full(progress_fd, "", 1) < 0)
			die_errno("cannot count a page to the parent's progress");
	} else
		display_progress(p, ++pages_built);
}

/* What build_share() and pages_heard() need beyond the globals of this file. */
struct page_workers {
	struct blame_ctx *ctx;
	struct progress *p;
};

/* A byte of a worker's is a page it built (page_built()). */
static void pages_heard(size_t bytes, void *data)
{
	struct page_workers *pw = data;

	pages_built += (uint64_t)bytes;
	display_progress(pw->p, pages_built);
}

/* Worker w's pages, every nr-th fresh file; its cache lines in OUTDIR/.tokstream/pages.W. */
static int build_share(int w, int nr, int to_parent, void *data)
{
	struct page_workers *pw = data;
	struct strbuf lines = STRBUF_INIT, ppath = STRBUF_INIT;
	size_t k;

	if (pw->p)
		progress_fd = to_parent;
	for (k = (size_t)w; k < nr_files; k += (size_t)nr)
		if (files[k].fresh) {
			build_file(pw->ctx, &files[k], &lines);
			page_built(pw->p);
		}
	/* as a page: never through a symlink left in OUTDIR/.tokstream */
	strbuf_addf(&ppath, ".tokstream/pages.%d", w);
	write_page(ppath.buf, &lines);
	/* a forked worker's _exit() runs no atexit(): its own cat-file processes */
	if (to_parent >= 0)
		blame_stop_batches();
	strbuf_release(&lines);
	strbuf_release(&ppath);
	return 0;
}

/* Reads back the cache lines a worker wrote for the pages it built. */
static void read_worker_lines(const char *part, struct smap *file_index)
{
	FILE *f = fopen(part, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while (f && (n = getline(&line, &cap, f)) > 0) {
		struct file_entry e;
		size_t m, *at;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		parse_entry(line, &e);
		if (e.path && (at = smap_get(file_index, e.path))) {
			m = *at;
			owners_release(&files[m].owners);
			files[m].built = 1;
			files[m].owners = e.owners;
			memset(&e.owners, 0, sizeof(e.owners));
		}
		owners_release(&e.owners);
		free(e.path);
	}
	if (f)
		fclose(f);
	free(line);
	unlink(part);
}

/*
 * Builds the fresh pages with opt.jobs workers, each its share; their
 * cache lines come back in files.  p: the progress display, or NULL.
 */
static void build_pages(struct blame_ctx *ctx, const char *cache_path, struct smap *file_index,
			struct progress *p)
{
	struct page_workers pw = { ctx, p };
	struct strbuf part = STRBUF_INIT;
	int w;

	if (run_workers(opt.jobs, build_share, pages_heard, &pw))
		die("a worker building pages failed");
	stop_progress(&p);
	/* what the workers learnt of the files they built */
	for (w = 0; w < opt.jobs; w++) {
		strbuf_reset(&part);
		strbuf_addf(&part, "%s.%d", cache_path, w);
		read_worker_lines(part.buf, file_index);
	}
	strbuf_release(&part);
}

/* The entries of the cache of pages at path (none when there is none yet) into *old. */
static size_t read_cache(const char *path, struct file_entry **old)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, nr = 0, alloc = 0;
	ssize_t n;

	while (f && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		ALLOC_GROW(*old, nr + 1, alloc);
		parse_entry(line, &(*old)[nr]);
		if ((*old)[nr].path)
			nr++;
	}
	if (f)
		fclose(f);
	free(line);
	return nr;
}

/*
 * Which pages must be built again: those whose key changed since the
 * cache's entry, or whose page is gone.  The others take their owners
 * from the cache.  Returns how many are to be built.
 */
static size_t mark_fresh(struct blame_ctx *ctx, struct file_entry *old, size_t nr_old)
{
	struct smap old_index = SMAP_INIT;
	struct strbuf full = STRBUF_INIT, name = STRBUF_INIT;
	struct stat st;
	size_t k, nr_fresh = 0;
	char (*last)[41] = xcalloc(nr_files ? nr_files : 1, sizeof(*last));

	last_changes(ctx, last);
	for (k = 0; k < nr_old; k++)
		smap_put(&old_index, old[k].path, k, NULL);
	for (k = 0; k < nr_files; k++) {
		struct file_entry *f = &files[k];
		size_t *at = smap_get(&old_index, f->path), m;

		page_key(ctx, last[k], f->key);
		f->fresh = 1;
		if (at && !strcmp(old[m = *at].key, f->key)) {
			page_name(f->path, &name);
			strbuf_reset(&full);
			strbuf_addf(&full, "%s/%s", outdir, name.buf);
			if (!lstat(full.buf, &st) && S_ISREG(st.st_mode)) {
				f->owners = old[m].owners;
				memset(&old[m].owners, 0, sizeof(old[m].owners));
				f->fresh = 0;
			}
		}
		nr_fresh += f->fresh;
	}
	smap_release(&old_index);
	strbuf_release(&full);
	strbuf_release(&name);
	free(last);
	return nr_fresh;
}

/*
 * The files at the revision that have a lexer (those of selected, when
 * given) into files, sorted, with indexes of them and of their directories.
 */
static void list_files(struct blame_ctx *ctx, struct smap *selected, struct smap *file_index,
		       struct smap *dir_index)
{
	const char *ls[] = { "git", "ls-tree", "-r", "-z", "--name-only", ctx->orig, NULL };
	struct strbuf out = STRBUF_INIT;
	const char *p;
	size_t k;

	if (run_capture(ls, ctx->src.buf, &out))
		die("git ls-tree failed in '%s'", ctx->src.buf);
	for (p = out.buf; p < out.buf + out.len; p += strlen(p) + 1) {
		if ((selected && !smap_get(selected, p)) || language_for_path(p) == &language_none)
			continue;
		if (path_is_safe(p)) {
			warning("'%s': a path that could leave OUTDIR; skipped", p);
			continue;
		}
		ALLOC_GROW(files, nr_files + 1, alloc_files);
		memset(&files[nr_files], 0, sizeof(*files));
		files[nr_files].path = xstrdup(p);
		nr_files++;
	}
	qsort(files, nr_files, sizeof(*files), cmp_path);
	for (k = 0; k < nr_files; k++) {
		char *dir = xstrdup(files[k].path), *slash;

		smap_put(file_index, files[k].path, k, NULL);
		while ((slash = strrchr(dir, '/'))) {
			*slash = '\0';
			smap_put(dir_index, dir, 0, NULL);
		}
		free(dir);
	}
	strbuf_release(&out);
}

/*
 * The options into opt, dest, ao and progress; then OUTDIR, REV and the
 * pathspec.
 */
static void parse_html_options(int argc, char **argv, struct dest_options *d, struct attribution_options *ao,
			       int *progress, const char **rev, const char ***pathspec, int *nr_pathspec)
{
	int by = 0, n;
	struct option options[] = {
		OPT_DEST(d),
		OPT_SOURCE(d),
		OPT_CHOICE(0, "by", &by, "author|commit|age", "the colouring a page opens with (default: author)",
			   by_names),
		OPT_STRING(0, "commit-url", &opt.commit_url, "TEMPLATE",
			   "where a click on a token goes; %H is the original id"),
		OPT_INTEGER('j', NULL, &opt.jobs, "N", "build pages with N processes (1 to 256; default: 1)", 1, 256),
		OPT_PROGRESS(progress),
		OPT_ATTRIBUTION(ao),
		OPT_END(),
	};

	n = parse_options(argc, argv, options, html_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	opt.by = by_names[by];
	if (n < 1)
		usage_msg_opt("no OUTDIR given", html_usage, options);
	outdir = argv[0];
	check_dest_given(d->dest);
	split_rev_pathspec(d, n - 1, argv + 1, rev, pathspec, nr_pathspec);
}

int cmd_html(int argc, char **argv)
{
	const char *rev = "HEAD";
	const char **pathspec;
	struct dest_options d = { NULL, NULL };
	struct attribution_options ao;
	int nr_pathspec = 0, progress = -1;
	size_t nr_fresh = 0;
	struct blame_ctx ctx;
	struct strbuf cache = STRBUF_INIT, cache_path = STRBUF_INIT;
	struct file_entry *old = NULL;
	struct smap file_index = SMAP_INIT, dir_index = SMAP_INIT, selected = SMAP_INIT;
	size_t nr_old, k;
	struct stat st;

	memset(&ao, 0, sizeof(ao));
	parse_html_options(argc, argv, &d, &ao, &progress, &rev, &pathspec, &nr_pathspec);
	progress = progress_wanted(progress);
	blame_open(&ctx, d.dest, d.source, rev, &ao);
	if (nr_pathspec)
		blame_select_paths(&ctx, rev, pathspec, nr_pathspec, &selected);
	opt.source = ctx.src.buf;
	opt.name = repository_name(ctx.src.buf);
	opt.rev = rev;
	opt.rev_id = ctx.orig;
	opt.pathspec = pathspec;
	opt.nr_pathspec = nr_pathspec;

	if (lstat(outdir, &st)) {
		if (mkdir(outdir, 0755))
			die_errno("cannot create '%s'", outdir);
	} else if (!S_ISDIR(st.st_mode)) {
		die("'%s' is not a directory", outdir);
	}
	strbuf_addf(&cache_path, "%s/.tokstream", outdir);
	if (mkdir(cache_path.buf, 0755) && errno != EEXIST)
		die_errno("cannot create '%s'", cache_path.buf);
	if (lstat(cache_path.buf, &st) || !S_ISDIR(st.st_mode))
		die("refusing to write through '%s': not a directory of our own", cache_path.buf);
	strbuf_addstr(&cache_path, "/pages");
	nr_old = read_cache(cache_path.buf, &old);

	list_files(&ctx, nr_pathspec ? &selected : NULL, &file_index, &dir_index);
	nr_fresh = mark_fresh(&ctx, old, nr_old);

	/*
	 * Many pages: the attribution of the whole tree in one pass, which
	 * the workers share (a file's own history costs a walk each).
	 */
	if (nr_fresh >= 16) {
		if (progress)
			ctx.engine.progress_title = "Replaying commits";
		blame_replay_tree(&ctx);
		ctx.engine.progress_title = NULL;
	}

	build_pages(&ctx, cache_path.buf, &file_index,
		    nr_fresh ? start_progress("Building pages", nr_fresh, progress) : NULL);

	/* files no lexer claims have no page and no entry */
	for (k = 0; k < nr_files;) {
		if (files[k].fresh && !files[k].built) {
			owners_release(&files[k].owners);
			free(files[k].path);
			memmove(&files[k], &files[k + 1], (nr_files - k - 1) * sizeof(*files));
			nr_files--;
		} else {
			k++;
		}
	}
	build_indexes();
	/* pages of files gone from the tree (the whole tree only: a PATHSPEC lists a part) */
	for (k = 0; !nr_pathspec && k < nr_old; k++)
		if (!smap_get(&file_index, old[k].path) && !path_is_safe(old[k].path))
			remove_page(old[k].path, &dir_index);
	for (k = 0; k < nr_files; k++)
		entry_line(&cache, &files[k]);
	/* a PATHSPEC's run keeps what it did not look at, for the next run of the whole tree */
	for (k = 0; nr_pathspec && k < nr_old; k++)
		if (!smap_get(&file_index, old[k].path))
			entry_line(&cache, &old[k]);
	smap_release(&file_index);
	smap_release(&dir_index);
	{
		struct strbuf rel = STRBUF_INIT;

		strbuf_addstr(&rel, ".tokstream/pages");
		write_page(rel.buf, &cache);
		strbuf_release(&rel);
	}
	return 0;
}
