/*
 * The lexers, for the language table (lexers/languages.c): nothing
 * outside lexers/ names them.  What lexers share is in lexers/common.h;
 * see lexers/README.md.
 */
#ifndef LEXERS_H
#define LEXERS_H

#include "../tokenize/lexer.h"

extern const struct lexer lexer_c;
extern const struct lexer lexer_javascript;
extern const struct lexer lexer_csharp;
extern const struct lexer lexer_php;
extern const struct lexer lexer_python;
extern const struct lexer lexer_java;
extern const struct lexer lexer_shell;
extern const struct lexer lexer_text, lexer_tex;
extern const struct lexer lexer_generic; /* configured by a struct generic_syntax: */
extern const struct generic_syntax syntax_makefile, syntax_kconfig, syntax_tcl,
	syntax_lua, syntax_sql, syntax_yaml, syntax_toml, syntax_ini,
	syntax_json, syntax_css, syntax_html, syntax_asm, syntax_awk, syntax_m4,
	syntax_cmake;
extern const struct lexer lexer_perl;
extern const struct lexer lexer_go;
extern const struct lexer lexer_rust;
extern const struct lexer lexer_ruby;
/* new lexers above this line */

#endif
