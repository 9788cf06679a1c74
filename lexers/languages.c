/*
 * The language table: one row per language, naming its lexer (and, for
 * the generic lexer, its syntax) and the paths and "#!" interpreters it
 * claims.  A language joins by adding a row here (and, unless the generic
 * lexer serves it, a file in lexers/); tokenize/language.c looks rows up.
 */
#include "lexers.h"

const struct language language_table[] = {
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
	/* what GitHub's Linguist takes for Ruby, but .spec and .fcgi, which other languages share */
	{ "ruby", &lexer_ruby, NULL,
	  ".rb .rake .gemspec .ru .builder .rabl .jbuilder .podspec .thor .rbi .rbw .rbx .ruby "
	  ".prawn .god .eye .watchr .mspec .pluginspec",
	  "Rakefile Gemfile Guardfile Vagrantfile Podfile Capfile Berksfile Brewfile Thorfile "
	  "Dangerfile Fastfile Deliverfile Snapfile Puppetfile Jarfile Mavenfile Buildfile "
	  "Steepfile buildfile Appraisals .irbrc .pryrc .simplecov",
	  NULL, "ruby jruby macruby rbx" },
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

const size_t language_table_size = sizeof(language_table) / sizeof(language_table[0]);
