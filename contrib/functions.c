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

/* Is token t the word w? */
static int token_is(const char *src, const struct token_pos *t, const char *w)
{
	size_t n = strlen(w);

	return t->cls == TOKEN_WORD && t->len == n && !memcmp(src + t->start, w, n);
}

/* Is token t one of the words of list? */
static int token_in(const char *src, const struct token_pos *t, const char *const *list)
{
	for (; *list; list++)
		if (token_is(src, t, *list))
			return 1;
	return 0;
}

/* Does token k follow a '.', "&." or "::", so that it is a method's name (x.class, range.end)? */
static int ruby_method_name(const char *src, const struct token_pos *t, size_t k)
{
	const struct token_pos *b = &t[k - 1];

	return k > 0 && b->cls == TOKEN_PUNCT &&
		((b->len == 1 && src[b->start] == '.') ||
		 (b->len == 2 && (!memcmp(src + b->start, "&.", 2) || !memcmp(src + b->start, "::", 2))));
}

/*
 * Does the Ruby keyword token k (if, unless, while, until) follow an
 * expression on its line, so that it is a modifier (x = 1 if y) and opens
 * nothing?  A value ends just before it: a name (not a keyword after
 * which an expression starts), a literal, or a closing bracket.
 */
static int ruby_modifier(const char *src, const struct token_pos *t, size_t k)
{
	static const char *const expression_starts[] = {
		"and", "or", "not", "then", "else", "elsif", "do", "begin", "ensure",
		"rescue", "when", "in", "case", "if", "unless", "while", "until", NULL
	};
	const struct token_pos *b;
	char c;

	if (k == 0 || end_line(src, &t[k - 1]) != t[k].line)
		return 0;
	b = &t[k - 1];
	switch (b->cls) {
	case TOKEN_WORD:
		return !token_in(src, b, expression_starts) && src[b->start + b->len - 1] != ':';
	case TOKEN_NUMBER:
	case TOKEN_STRING:
		return 1;
	case TOKEN_PUNCT:
		c = punct_of(src, b);
		return c == ')' || c == ']' || c == '}';
	default:
		return 0;
	}
}

/*
 * The name of the Ruby method whose "def" is token def: the token after
 * it, or after "self." and "obj." written together (def self.name); n
 * when there is none.
 */
static size_t ruby_def_name(const char *src, const struct token_pos *t, size_t n, size_t def)
{
	size_t k = def + 1;

	if (k + 2 < n && t[k + 1].start == t[k].start + t[k].len &&
	    t[k + 2].start == t[k + 1].start + t[k + 1].len && t[k + 1].cls == TOKEN_PUNCT &&
	    ((t[k + 1].len == 1 && src[t[k + 1].start] == '.') ||
	     (t[k + 1].len == 2 && !memcmp(src + t[k + 1].start, "::", 2))))
		k += 2;
	return k < n && (t[k].cls == TOKEN_WORD || t[k].cls == TOKEN_PUNCT) ? k : n;
}

/*
 * Is the Ruby method whose name is token name endless (def x = expr,
 * def x(a) = expr)?  Then the index of its '=', else 0.
 */
static size_t ruby_endless(const char *src, const struct token_pos *t, size_t n, size_t name)
{
	size_t k = name + 1;
	int depth = 0;

	if (k < n && punct_of(src, &t[k]) == '(') {
		for (; k < n; k++) {
			char c = punct_of(src, &t[k]);

			if (c == '(')
				depth++;
			else if (c == ')' && --depth == 0)
				break;
		}
		k++;
	}
	return k < n && punct_of(src, &t[k]) == '=' ? k : 0;
}

/*
 * The end of the Ruby method whose "def" is token def and whose name is
 * token name: one past the "end" that closes it, counting the keywords
 * that open a block closed by "end" (class module def if unless while
 * until case begin for do), but a modifier if, unless, while or until
 * after an expression, the "do" of "while x do", and an endless def;
 * an endless method runs to the end of its expression's line (later lines
 * while brackets are open).  Braces are no blocks here: { } is a block
 * of a call, never a function's body.
 */
static size_t ruby_function_end(const char *src, const struct token_pos *t, size_t n, size_t name)
{
	static const char *const openers[] = {
		"class", "module", "case", "begin", "for", "do", NULL
	};
	static const char *const conditionals[] = { "if", "unless", "while", "until", NULL };
	size_t k = ruby_endless(src, t, n, name), depth = 1, loop_line = 0, brackets = 0;

	if (k) {
		for (k++; k < n; k++) {
			char c = punct_of(src, &t[k]);

			if (!brackets && t[k].line > end_line(src, &t[k - 1]))
				break;
			if (is_open(c))
				brackets++;
			else if (is_close(c) && brackets)
				brackets--;
		}
		return k;
	}
	for (k = name + 1; k < n; k++) {
		const struct token_pos *w = &t[k];

		if (w->cls != TOKEN_WORD || ruby_method_name(src, t, k))
			continue;
		if (token_is(src, w, "end")) {
			if (!--depth)
				return k + 1;
		} else if (token_is(src, w, "do")) {
			if (loop_line == w->line)
				loop_line = 0;  /* while x do: the loop's, not a block's */
			else
				depth++;
		} else if (token_is(src, w, "def")) {
			size_t inner = ruby_def_name(src, t, n, k);

			if (inner >= n)
				continue;
			if (!ruby_endless(src, t, n, inner))
				depth++;
			k = inner;
		} else if (token_in(src, w, conditionals)) {
			if (ruby_modifier(src, t, k))
				continue;
			depth++;
			if (!token_is(src, w, "if") && !token_is(src, w, "unless"))
				loop_line = w->line;
		} else if (token_in(src, w, openers)) {
			depth++;
			if (token_is(src, w, "for"))
				loop_line = w->line;
		}
	}
	return n;
}

/* The line __END__, which ends Ruby's code: a token, or n. */
static int ruby_code_ends(const char *src, const struct token_pos *t, size_t n, size_t k)
{
	return t[k].col == 1 && token_is(src, &t[k], "__END__") &&
		(k + 1 >= n || t[k + 1].line > t[k].line);
}

size_t find_functions(const struct blame_result *res, struct function_span **out)
{
	const char *src = res->content.buf;
	const struct token_pos *t = res->toks;
	size_t n = res->nr_toks, i, nr = 0, alloc = 0;
	int python = res->lang && !strcmp(res->lang->name, "python");
	int ruby = res->lang && !strcmp(res->lang->name, "ruby");

	*out = NULL;
	for (i = 0; i + 1 < n; i++) {
		size_t name = i, end;

		if (ruby) {
			if (ruby_code_ends(src, t, n, i))
				break;
			if (!token_is(src, &t[i], "def") || ruby_method_name(src, t, i) ||
			    (name = ruby_def_name(src, t, n, i)) >= n)
				continue;
			end = ruby_function_end(src, t, n, name);
		} else if (python) {
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
