/*
 * Functions in a blamed file, found from its tokens alone (no parser):
 * what `tokstream html` summarizes per function and `tokstream report`
 * searches for the oldest code.
 */
#ifndef FUNCTIONS_H
#define FUNCTIONS_H

#include <stddef.h>
#include "blame.h"

struct function_span {
	size_t name;   /* the index of the token naming the function */
	size_t end;    /* one past its last token: its tokens are [name, end) */
};

/*
 * The functions of res, in order, outermost only: for languages with
 * braces, a name (not a keyword such as `if`, `function` or `func`), then
 * (...), then a `{` before any `;` opens a body that runs to its matching
 * `}` (C's old-style parameter declarations and C++'s member initializers
 * may come between); for Python, `def NAME` runs past its signature, which
 * may wrap, to the first logical line, not a comment, indented at or left
 * of the `def`'s line; for Ruby, `def NAME` runs to the `end` that
 * closes it (keywords that open a block closed by `end` counted, but
 * modifiers), and braces are blocks, no functions.  Returns their
 * number; *out is allocated (free() it), NULL when there are none.
 */
size_t find_functions(const struct blame_result *res, struct function_span **out);

#endif
