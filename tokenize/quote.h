/* Git's C-style quoting of paths ("a\tb", "\303\251"), as diff and fast-export print it. */
#ifndef QUOTE_H
#define QUOTE_H

#include "strbuf.h"

/*
 * Unquotes the quoted path at s (s[0] is '"') into out (appended).
 * Returns the byte after the closing quote, or NULL when it is malformed
 * or runs past end, with *err saying which.
 */
const char *unquote_c_style(struct strbuf *out, const char *s, const char *end, const char **err);

#endif
