/*
 * The language table: one row per language.  A language joins by adding a
 * row here (and, unless the generic lexer serves it, a file in lexers/).
 */
#include "language.h"
#include "usage.h"
#include "../lexers/lexers.h"

#include <fnmatch.h>
#include <string.h>
#include <strings.h>

static const struct language languages[] = {
	{ "c", &lexer_c, NULL, ".c .h", NULL, NULL, NULL },
	{ "c++", &lexer_c, NULL,
	  ".cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .ipp .tcc .inl .C .H",
	  NULL, NULL, NULL },
	{ "asm-cpp", &lexer_c, NULL, ".S", NULL, NULL, NULL },
	{ "devicetree", &lexer_c, NULL, ".dts .dtsi", NULL, NULL, NULL },
	{ "javascript", &lexer_javascript, NULL, ".js .mjs .cjs .jsx", NULL, NULL, "node" },
	{ "typescript", &lexer_javascript, NULL, ".ts .tsx .mts .cts", NULL, NULL, NULL },
	{ "csharp", &lexer_csharp, NULL, ".cs", NULL, NULL, NULL },
	{ "php", &lexer_php, NULL, ".php .phtml .php3 .php4 .php5 .phps", NULL, NULL, "php" },
	{ "python", &lexer_python, NULL, ".py .pyi", NULL, NULL, "python" },
	{ "java", &lexer_java, NULL, ".java", NULL, NULL, NULL },
	{ "shell", &lexer_shell, NULL, ".sh .bash .zsh .ksh", ".bashrc .bash_profile .profile .zshrc", NULL,
	  "sh bash dash zsh ksh ash" },
	{ "perl", &lexer_perl, NULL, ".pl .pm .t .pod", NULL, NULL, "perl" },
	{ "text", &lexer_text, NULL, ".txt .md .markdown .rst .adoc .asciidoc .bib",
	  "README* COPYING* LICENSE* CHANGES* NEWS* AUTHORS* CONTRIBUTING* INSTALL* TODO* "
	  "ChangeLog* MAINTAINERS CREDITS COMMIT_EDITMSG *.msg", "Documentation/*", NULL },
	{ "tex", &lexer_tex, NULL, ".tex .sty .cls .ltx", NULL, NULL, NULL },
	{ "makefile", &lexer_generic, &syntax_makefile, ".mk .make .am",
	  "Makefile makefile GNUmakefile Kbuild Makefile.* Kbuild.*", NULL, "make" },
	{ "kconfig", &lexer_generic, &syntax_kconfig, NULL, "Kconfig Kconfig.*", NULL, NULL },
	{ "tcl", &lexer_generic, &syntax_tcl, ".tcl .tk", NULL, NULL, "tclsh wish" },
	{ "ruby", &lexer_generic, &syntax_ruby, ".rb .rake .gemspec", "Rakefile Gemfile", NULL, "ruby" },
	{ "lua", &lexer_generic, &syntax_lua, ".lua", NULL, NULL, "lua" },
	{ "sql", &lexer_generic, &syntax_sql, ".sql", NULL, NULL, NULL },
	{ "yaml", &lexer_generic, &syntax_yaml, ".yml .yaml", NULL, NULL, NULL },
	{ "toml", &lexer_generic, &syntax_toml, ".toml", NULL, NULL, NULL },
	{ "ini", &lexer_generic, &syntax_ini, ".ini .cfg .conf",
	  ".gitconfig .gitmodules .editorconfig gitconfig", NULL, NULL },
	{ "json", &lexer_generic, &syntax_json, ".json", NULL, NULL, NULL },
	{ "css", &lexer_generic, &syntax_css, ".css .scss .less", NULL, NULL, NULL },
	{ "html", &lexer_generic, &syntax_html, ".html .htm .xml .xsl .xslt .svg .xhtml", NULL, NULL, NULL },
	{ "asm", &lexer_generic, &syntax_asm, ".s .asm", NULL, NULL, NULL },
	{ "awk", &lexer_generic, &syntax_awk, ".awk", NULL, NULL, "awk gawk mawk nawk" },
	{ "m4", &lexer_generic, &syntax_m4, ".ac .m4", "configure.ac configure.in", NULL, NULL },
	{ "cmake", &lexer_generic, &syntax_cmake, ".cmake", "CMakeLists.txt", NULL, NULL },
	{ "go", &lexer_go, NULL, ".go", NULL, NULL, NULL },
	{ "rust", &lexer_rust, NULL, ".rs", NULL, NULL, NULL },
	/* new languages above this line */
};

#define NR_LANGUAGES (sizeof(languages) / sizeof(languages[0]))

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
	for (i = 0; i < NR_LANGUAGES; i++)
		if (!strcmp(languages[i].name, name))
			return &languages[i];
	return NULL;
}

const struct language *language_by_index(size_t i)
{
	return i < NR_LANGUAGES ? &languages[i] : NULL;
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
	for (i = 0; i < NR_LANGUAGES; i++)
		if (glob_in_list(languages[i].filenames, base, PLAIN_NAMES))
			return &languages[i];
	if (dot && dot != base) {
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < NR_LANGUAGES; i++)
				if (in_list(languages[i].extensions, dot, strlen(dot), pass))
					return &languages[i];
	}
	for (i = 0; i < NR_LANGUAGES; i++)
		if (glob_in_list(languages[i].filenames, base, NAME_GLOBS))
			return &languages[i];
	for (i = 0; i < NR_LANGUAGES; i++)
		if (glob_in_list(languages[i].paths, path, ALL_GLOBS))
			return &languages[i];
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
		for (i = 0; i < NR_LANGUAGES; i++)
			if (interpreter_matches(languages[i].interpreters, base, (size_t)(we - base)))
				return &languages[i];
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

	for (i = 0; i < NR_LANGUAGES; i++) {
		const struct language *l = &languages[i];

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
