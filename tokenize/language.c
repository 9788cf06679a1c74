/*
 * Which language a path is in: lookup by name, path, "#!" line and
 * --lang override, in the language table (language_table, which
 * lexers/languages.c defines: the lexers are named there, not here).
 */
#include "language.h"
#include "usage.h"

#include <fnmatch.h>
#include <string.h>
#include <strings.h>

const struct language language_none = { "none", NULL, NULL, NULL, NULL, NULL, NULL };

struct override {
	const struct language *lang;
	char *glob;
};

static struct override *overrides;
static size_t nr_overrides, alloc_overrides;

void lexer_init(struct lexer_state *ls, const void *src, size_t len,
		const struct generic_syntax *syntax)
{
	memset(ls, 0, sizeof(*ls));
	ls->src = src;
	ls->len = len;
	ls->syntax = syntax;
}

const struct language *language_by_name(const char *name)
{
	size_t i;

	if (!strcmp(name, "none"))
		return &language_none;
	for (i = 0; i < language_table_size; i++)
		if (!strcmp(language_table[i].name, name))
			return &language_table[i];
	return NULL;
}

const struct language *language_by_index(size_t i)
{
	return i < language_table_size ? &language_table[i] : NULL;
}

/* Is word (of length wlen) one of the space-separated items of list? */
static int in_list(const char *list, const char *word, size_t wlen, int icase)
{
	const char *p = list;

	while (p && *p) {
		size_t l = strcspn(p, " ");

		if (l == wlen && !(icase ? strncasecmp(p, word, l) : strncmp(p, word, l)))
			return 1;
		p += l;
		p += strspn(p, " ");
	}
	return 0;
}

enum glob_kind { PLAIN_NAMES, NAME_GLOBS, ALL_GLOBS };

/*
 * Does any space-separated glob of list match s?  PLAIN_NAMES looks only at
 * the items without a wildcard ("Makefile"), NAME_GLOBS only at the others
 * ("README*").
 */
static int glob_in_list(const char *list, const char *s, enum glob_kind kind)
{
	const char *p = list;
	char glob[256];

	while (p && *p) {
		size_t l;
		int wild = 0, escape = 0;

		/* the item's length, whether it has a wildcard or an escape, in one pass */
		for (l = 0; p[l] && p[l] != ' '; l++) {
			if (p[l] == '*' || p[l] == '?' || p[l] == '[')
				wild = 1;
			else if (p[l] == '\\')
				escape = 1;
		}
		if (l >= sizeof(glob) || (kind != ALL_GLOBS && wild != (kind == NAME_GLOBS))) {
			/* not an item of this kind */
		} else if (!wild && !escape) {
			/* it matches only itself */
			if (!strncmp(p, s, l) && !s[l])
				return 1;
		} else {
			memcpy(glob, p, l);
			glob[l] = '\0';
			if (!fnmatch(glob, s, 0))
				return 1;
		}
		for (p += l; *p == ' '; p++)
			;
	}
	return 0;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const struct language *language_for_path(const char *path)
{
	const char *base = basename_of(path), *dot = strrchr(base, '.');
	size_t i;
	int pass;

	for (i = nr_overrides; i-- > 0;) {
		const char *glob = overrides[i].glob;

		if (!fnmatch(glob, strchr(glob, '/') ? path : base, 0))
			return overrides[i].lang;
	}
	/*
	 * Plain file names first, then extensions, then file-name globs, then
	 * path globs.  A plain name is the most specific claim (CMakeLists.txt
	 * is CMake, not text); a name glob is a loose one, so a real
	 * language's extension beats it (README.c is C, README is text).
	 */
	for (i = 0; i < language_table_size; i++)
		if (glob_in_list(language_table[i].filenames, base, PLAIN_NAMES))
			return &language_table[i];
	if (dot && dot != base) {
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < language_table_size; i++)
				if (in_list(language_table[i].extensions, dot, strlen(dot), pass))
					return &language_table[i];
	}
	for (i = 0; i < language_table_size; i++)
		if (glob_in_list(language_table[i].filenames, base, NAME_GLOBS))
			return &language_table[i];
	for (i = 0; i < language_table_size; i++)
		if (glob_in_list(language_table[i].paths, path, ALL_GLOBS))
			return &language_table[i];
	return NULL;
}

/* Does the interpreter name (e.g. "python3.11") match the list entry ("python")? */
static int interpreter_matches(const char *list, const char *name, size_t len)
{
	const char *p = list;

	while (p && *p) {
		size_t l = strcspn(p, " "), k;

		if (len >= l && !strncmp(p, name, l)) {
			for (k = l; k < len && ((name[k] >= '0' && name[k] <= '9') || name[k] == '.'); k++)
				;
			if (k == len)
				return 1;
		}
		p += l;
		p += strspn(p, " ");
	}
	return 0;
}

const struct language *language_for_shebang(const void *buf, size_t len)
{
	const char *s = buf, *end, *w, *we;
	size_t i;
	int env = 0;

	if (len < 2 || s[0] != '#' || s[1] != '!')
		return NULL;
	end = memchr(s, '\n', len < 256 ? len : 256);
	if (!end)
		end = s + (len < 256 ? len : 256);
	w = s + 2;
	for (;;) {
		const char *base;

		while (w < end && (*w == ' ' || *w == '\t'))
			w++;
		we = w;
		while (we < end && *we != ' ' && *we != '\t' && *we != '\r')
			we++;
		if (we == w)
			return NULL;
		base = w;
		for (const char *q = w; q < we; q++)
			if (*q == '/')
				base = q + 1;
		if (!env && we - base == 3 && !strncmp(base, "env", 3)) {
			env = 1;
			w = we;
			continue;
		}
		if (env && (*w == '-' || memchr(w, '=', (size_t)(we - w)))) {
			w = we; /* env's options and VAR=value assignments */
			continue;
		}
		for (i = 0; i < language_table_size; i++)
			if (interpreter_matches(language_table[i].interpreters, base, (size_t)(we - base)))
				return &language_table[i];
		return NULL;
	}
}

int content_is_binary(const void *buf, size_t len)
{
	return memchr(buf, '\0', len < 8000 ? len : 8000) != NULL;
}

const struct language *language_for_file(const char *path, const void *buf, size_t len)
{
	const struct language *lang = path ? language_for_path(path) : NULL;

	if (!lang)
		lang = language_for_shebang(buf, len);
	if (lang && content_is_binary(buf, len))
		return NULL;
	return lang;
}

int language_add_override(const char *spec, const char **err)
{
	const char *colon = strchr(spec, ':');
	char name[64];
	const struct language *lang;

	if (!colon || colon == spec || !colon[1]) {
		*err = "expected LANG:GLOB";
		return -1;
	}
	if ((size_t)(colon - spec) >= sizeof(name)) {
		*err = "unknown language";
		return -1;
	}
	memcpy(name, spec, (size_t)(colon - spec));
	name[colon - spec] = '\0';
	lang = language_by_name(name);
	if (!lang) {
		*err = "unknown language (see --list)";
		return -1;
	}
	ALLOC_GROW(overrides, nr_overrides + 1, alloc_overrides);
	overrides[nr_overrides].lang = lang;
	overrides[nr_overrides].glob = xstrdup(colon + 1);
	nr_overrides++;
	return 0;
}

static void list_field(FILE *out, const char *label, const char *list)
{
	if (list && *list)
		fprintf(out, " %s %s;", label, list);
}

void language_list(FILE *out)
{
	size_t i;

	for (i = 0; i < language_table_size; i++) {
		const struct language *l = &language_table[i];

		fprintf(out, "%s\t", l->name);
		list_field(out, "extensions", l->extensions);
		list_field(out, "names", l->filenames);
		list_field(out, "paths", l->paths);
		list_field(out, "#!", l->interpreters);
		fputc('\n', out);
	}
}

void parse_lang_option(const char *spec, const char *usage_text)
{
	const char *err;

	if (!spec)
		usage_die(usage_text, "--lang needs LANG:GLOB");
	if (language_add_override(spec, &err))
		usage_die(usage_text, "--lang=%s: %s", spec, err);
}

int is_git_control_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, ".gitattributes") ||
	       (base == path && (!strcmp(path, ".mailmap") || !strcmp(path, ".gitmodules")));
}
