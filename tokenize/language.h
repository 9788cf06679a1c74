/*
 * Which language a file is in, from its path (and, for paths no name or
 * extension claims, its "#!" line), and how to lex it.
 */
#ifndef LANGUAGE_H
#define LANGUAGE_H

#include <stddef.h>
#include <stdio.h>

#include "lexer.h"

/* The pseudo-language of --lang=none:GLOB: such paths are dropped. */
extern const struct language language_none;

const struct language *language_by_name(const char *name);
/* The i-th row of the table, or NULL past its end: for walking every language. */
const struct language *language_by_index(size_t i);

/*
 * The language claimed by the path alone: overrides first (last match
 * wins, may be &language_none), then plain file names, extensions,
 * file-name globs ("README*"), and path globs; so a claimed extension
 * beats a glob.  NULL when only the content ("#!" line) can tell.
 */
const struct language *language_for_path(const char *path);

/* The language a "#!" first line names, or NULL. */
const struct language *language_for_shebang(const void *buf, size_t len);

/* Binary content: a NUL byte in the first 8000 bytes, as Git decides. */
int content_is_binary(const void *buf, size_t len);

/*
 * Everything together, as tokstream and tokenize decide: NULL (or
 * &language_none) when no lexer claims the file.
 */
const struct language *language_for_file(const char *path, const void *buf, size_t len);

/* Parse LANG:GLOB (as given to --lang); returns 0, or -1 with *err set. */
int language_add_override(const char *spec, const char **err);

/* --lang=LANG:GLOB as every command takes it: dies with usage on a bad one. */
void parse_lang_option(const char *spec, const char *usage_text);

/*
 * Files Git itself reads from a tree (.gitattributes anywhere, .mailmap
 * and .gitmodules at the top): not tokens, kept unchanged in the token tree.
 */
int is_git_control_file(const char *path);

/* The table, for --list and --languages. */
void language_list(FILE *out);

/* The lexer call with the bookkeeping every caller needs (previous token). */
static inline int language_next_token(const struct language *lang,
				      struct lexer_state *ls, struct token *tok)
{
	if (!lang->lexer->next(ls, tok))
		return 0;
	lex_set_prev(ls, tok);
	return 1;
}

#endif
