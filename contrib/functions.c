/*
 * Functions in a blamed file, from its tokens: shared by `tokstream html`
 * and `tokstream report`.
 */
#include "functions.h"
#include "../tokenize/usage.h"

#include <string.h>

static int is_keyword_before_paren(const char *s, size_t n)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "catch", "return", "sizeof", "do", "else",
		"foreach", "using", "lock", "fixed", "synchronized", "elif", "with", "match", NULL
	};
	size_t i;

	for (i = 0; kw[i]; i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], s, n))
			return 1;
	return 0;
}

size_t find_functions(const struct blame_result *res, struct function_span **out)
{
	const char *src = res->content.buf;
	const struct token_pos *t = res->toks;
	size_t n = res->nr_toks, i, nr = 0, alloc = 0;
	int python = res->lang && !strcmp(res->lang->name, "python");

	*out = NULL;
	for (i = 0; i + 1 < n; i++) {
		size_t name = i, end, k;

		if (python) {
			if (!(t[i].len == 3 && !memcmp(src + t[i].start, "def", 3) && t[i + 1].cls == TOKEN_WORD))
				continue;
			name = i + 1;
			for (end = i + 2; end < n && !(t[end].line > t[i].line && t[end].col <= t[i].col); end++)
				;
		} else {
			int depth = 0;

			if (t[i].cls != TOKEN_WORD || t[i + 1].len != 1 || src[t[i + 1].start] != '(' ||
			    is_keyword_before_paren(src + t[i].start, t[i].len))
				continue;
			for (k = i + 1; k < n; k++) {
				char c = t[k].len == 1 ? src[t[k].start] : 0;

				if (c == '(')
					depth++;
				else if (c == ')' && --depth == 0)
					break;
			}
			for (k++; k < n && k < i + 64; k++) {
				char c = t[k].len == 1 ? src[t[k].start] : 0;

				if (c == '{' || c == ';' || c == '}' || c == '=')
					break;
			}
			if (k >= n || t[k].len != 1 || src[t[k].start] != '{')
				continue;
			for (depth = 0, end = k; end < n; end++) {
				char c = t[end].len == 1 ? src[t[end].start] : 0;

				if (c == '{')
					depth++;
				else if (c == '}' && --depth == 0)
					break;
			}
			if (end < n)
				end++;
		}
		ALLOC_GROW(*out, nr + 1, alloc);
		(*out)[nr].name = name;
		(*out)[nr].end = end;
		nr++;
		i = end > i + 1 ? end - 1 : i;
	}
	return nr;
}
