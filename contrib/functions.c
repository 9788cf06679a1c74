/*
 * Functions in a blamed file, from its tokens: shared by `tokstream html`
 * and `tokstream report`.
 */
#include "functions.h"
#include "../tokenize/usage.h"

#include <string.h>

/*
 * The words that a parenthesis follows but that name no function: the
 * statements, and the keywords of anonymous functions (JavaScript's
 * `function (...) {`) and of Go's methods, whose receiver `func (r *T)`
 * comes before the name.
 */
static int is_keyword_before_paren(const char *s, size_t n)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "return", "sizeof", "do", "else",
		"foreach", "using", "lock", "fixed", "synchronized", "elif", "with", "match",
		"function", "func", NULL
	};
	size_t i;

	for (i = 0; kw[i]; i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], s, n))
			return 1;
	return 0;
}

/* The byte of a one-byte token (a bracket, a colon, ...), else 0. */
static char punct_of(const char *src, const struct token_pos *t)
{
	return t->len == 1 ? src[t->start] : 0;
}

static int is_open(char c)
{
	return c == '(' || c == '[' || c == '{';
}

static int is_close(char c)
{
	return c == ')' || c == ']' || c == '}';
}

/* The line the token t ends on: a string or a comment may hold line breaks. */
static size_t end_line(const char *src, const struct token_pos *t)
{
	const char *p = src + t->start, *e = p + t->len;
	size_t line = t->line;

	while ((p = memchr(p, '\n', (size_t)(e - p)))) {
		p++;
		line++;
	}
	return line;
}

/*
 * Does the token k (after k - 1) start a logical line of Python: the first
 * of its physical line, outside brackets, the line before not continued
 * by a backslash?
 */
static int starts_logical_line(const char *src, const struct token_pos *t, size_t k, int depth)
{
	const char *gap;

	if (depth > 0 || t[k].line <= end_line(src, &t[k - 1]))
		return 0;
	gap = src + t[k - 1].start + t[k - 1].len;
	return !memchr(gap, '\\', (size_t)(src + t[k].start - gap));
}

/*
 * The end (one past the last token) of the Python function whose `def` is
 * token def: its signature runs to the colon outside brackets (a
 * signature may wrap, and close with `)` at the `def`'s indentation; a
 * default may hold a lambda's colon), and its body to the first logical
 * line, not a comment, indented at or left of the line of the `def`
 * (`async def` and a def after a decorator's line alike).  Comments
 * left of the body that come before that line are not the function's.
 */
static size_t python_function_end(const char *src, const struct token_pos *t, size_t n,
				  size_t def)
{
	size_t indent = t[def].col, k = def, end;
	int depth = 0;

	while (k > 0 && t[k - 1].line == t[def].line)
		indent = t[--k].col;
	for (k = def + 1; k < n; k++) {
		char c = punct_of(src, &t[k]);

		if (is_open(c))
			depth++;
		else if (is_close(c) && depth > 0)
			depth--;
		else if (c == ':' && !depth)
			break;
	}
	for (k++; k < n; k++) {
		char c = punct_of(src, &t[k]);

		if (t[k].cls != TOKEN_COMMENT && t[k].col <= indent &&
		    starts_logical_line(src, t, k, depth))
			break;
		if (is_open(c))
			depth++;
		else if (is_close(c) && depth > 0)
			depth--;
	}
	end = k < n ? k : n;
	while (end > def + 2 && t[end - 1].cls == TOKEN_COMMENT && t[end - 1].col <= indent)
		end--;
	return end;
}

/*
 * Where the body of a function of a language with braces opens, the
 * parameters ending at token close: the first `{` within 64 tokens, before
 * any `;`, `}` or `=` (so that a call or a declaration is no function),
 * past what may come between: qualifiers, `throws`, attributes, a return
 * type.  In C, old-style (K&R) parameter declarations `int a; char *b;`
 * come between too: a `;` is then taken when a word follows the `)` and
 * `;` is the last token before the `{`.  In C and C++, the braces of a
 * member initialized in a constructor's list (`: x{1}, y{2} {`) are
 * passed over.  Returns the index of the `{`, or n when there is none.
 */
static size_t brace_body(const char *src, const struct token_pos *t, size_t n, size_t close,
			 int c_family, int c)
{
	size_t k, limit = close + 64;
	int after_colon = 0, declarations = 0;

	for (k = close + 1; k < n && k < limit; k++) {
		char p = punct_of(src, &t[k]);

		if (p == '{' && c_family && after_colon && t[k - 1].cls == TOKEN_WORD &&
		    (punct_of(src, &t[k - 2]) == ',' || punct_of(src, &t[k - 2]) == ':')) {
			int depth = 0;

			for (; k < n; k++) {
				p = punct_of(src, &t[k]);
				if (p == '{')
					depth++;
				else if (p == '}' && --depth == 0)
					break;
			}
			continue;
		}
		if (p == '{')
			return declarations && punct_of(src, &t[k - 1]) != ';' ? n : k;
		if (p == ':')
			after_colon = 1;
		if (p == ';' && c && k > close + 1 && t[close + 1].cls == TOKEN_WORD) {
			declarations = 1;
			continue;
		}
		if (p == ';' || p == '}' || p == '=')
			return n;
	}
	return n;
}

/*
 * The end of the function whose name is token name, followed by `(`, in a
 * language with braces: one past the `}` that closes its body, or 0 when
 * no body follows its parameters.
 */
static size_t brace_function_end(const struct blame_result *res, size_t name)
{
	const char *src = res->content.buf;
	const struct token_pos *t = res->toks;
	size_t n = res->nr_toks, k, end;
	const char *lang = res->lang ? res->lang->name : "";
	int c = !strcmp(lang, "c"), c_family = c || !strcmp(lang, "c++"), depth = 0;

	for (k = name + 1; k < n; k++) {
		char p = punct_of(src, &t[k]);

		if (p == '(')
			depth++;
		else if (p == ')' && --depth == 0)
			break;
	}
	if (k >= n || (k = brace_body(src, t, n, k, c_family, c)) >= n)
		return 0;
	for (depth = 0, end = k; end < n; end++) {
		char p = punct_of(src, &t[end]);

		if (p == '{')
			depth++;
		else if (p == '}' && --depth == 0)
			break;
	}
	return end < n ? end + 1 : end;
}

size_t find_functions(const struct blame_result *res, struct function_span **out)
{
	const char *src = res->content.buf;
	const struct token_pos *t = res->toks;
	size_t n = res->nr_toks, i, nr = 0, alloc = 0;
	int python = res->lang && !strcmp(res->lang->name, "python");

	*out = NULL;
	for (i = 0; i + 1 < n; i++) {
		size_t name = i, end;

		if (python) {
			if (!(t[i].len == 3 && !memcmp(src + t[i].start, "def", 3) && t[i + 1].cls == TOKEN_WORD))
				continue;
			name = i + 1;
			end = python_function_end(src, t, n, i);
		} else {
			if (t[i].cls != TOKEN_WORD || punct_of(src, &t[i + 1]) != '(' ||
			    is_keyword_before_paren(src + t[i].start, t[i].len))
				continue;
			if (!(end = brace_function_end(res, i)))
				continue;
		}
		ALLOC_GROW(*out, nr + 1, alloc);
		(*out)[nr].name = name;
		(*out)[nr].end = end;
		nr++;
		i = end > i + 1 ? end - 1 : i;
	}
	return nr;
}
