/*
 * The shell lexer: POSIX sh, bash, dash, zsh, ksh.
 *
 * Choices, kept simple on purpose:
 *   - A word is a maximal run of bytes that are not whitespace, not an
 *     operator byte (| & ; ( ) < >), not a quote (' " `) and not a '$'
 *     that starts an expansion; "\x" (a backslash and any byte but a
 *     newline) is part of the word.  So a quoted string or an expansion
 *     glued to a word is a token of its own: a"b"c is a, "b", c and
 *     pre$x.txt is pre, $x, .txt.
 *   - Operators are taken by maximal munch: | || |& & && &> &>> ; ;; ;&
 *     ;;& ( ) < > >> << <<- <<< <& >& <> >|.  A file descriptor number
 *     glued to a redirection is part of the operator: 2> 2>> 2>& 0<, and
 *     "2>&1" is 2>& and 1.
 *   - '...', "...", $'...', $"...", `...`, $(...), $((...)) and ${...} are
 *     one token each, multi-line by nature (unterminated, they end at the
 *     end of the file); inside "..." a $(...) may hold quotes of its own;
 *     in $(...) and ${...} brackets nest and quoted strings are skipped
 *     whole (a "case" pattern's unbalanced ')' inside $(...) is not
 *     understood).  $name, $1, $@ $* $# $? $- $$ $! are one token.
 *   - '#' starts a comment only at the start of a word (after whitespace,
 *     an operator byte, or at the start of the file).  A backslash-newline
 *     is whitespace.
 *   - Here-documents: after "<<" or "<<-" the next word is the delimiter
 *     (quotes and backslashes removed).  The body, from the line after the
 *     one holding the operator (the first newline between tokens) through
 *     the delimiter line, is one string token, without the whitespace it
 *     starts with; several here-documents on one line follow each other in
 *     order.  "<<-" strips leading tabs when matching the delimiter.  The
 *     pending delimiters are kept in lexer_state as offsets into the
 *     source (u.shell), up to 8 and delimiters of at most
 *     MAX_DELIM bytes; beyond that a here-document is not recognised and
 *     its body is lexed as commands.  A here-document inside $(...) is part
 *     of that token.
 */
#include "common.h"
#include "lexers.h"

enum {
	S_WORD,
	S_SPACE,
	S_OP,        /* | & ; ( ) < > */
	S_QUOTE,     /* ' " ` */
	S_DOLLAR,
	S_HASH,
	S_BACKSLASH
};

#define MAX_PENDING 8
#define MAX_DELIM 256

#define SH_CLASS(c) (LEX_IS_SPACE(c) ? S_SPACE : \
	LEX_IN(c, '|', '&', ';', '(', ')', '<', '>') ? S_OP : \
	LEX_IN(c, '\'', '"', '`') ? S_QUOTE : \
	(c) == '$' ? S_DOLLAR : (c) == '#' ? S_HASH : (c) == '\\' ? S_BACKSLASH : S_WORD)
static const unsigned char cclass[256] = { LEX_TABLE(SH_CLASS) };

static inline int is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int is_name(unsigned char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

#define NEST_FLAGS (LEX_NEST_ESCAPES | LEX_NEST_QUOTES | LEX_NEST_SQ_RAW)

/* Does the '$' at p start an expansion (a token of its own)? */
static int starts_expansion(const unsigned char *s, size_t p, size_t n)
{
	unsigned char c;

	if (p + 1 >= n)
		return 0;
	c = s[p + 1];
	return is_name(c) || c == '{' || c == '(' || c == '\'' || c == '"' ||
		c == '@' || c == '*' || c == '#' || c == '?' || c == '-' ||
		c == '$' || c == '!';
}

/* A backquoted command from the backquote at p: backslash escapes. */
static size_t scan_backquoted(const unsigned char *s, size_t p, size_t n)
{
	for (p++; p < n; p++) {
		if (s[p] == '`')
			return p + 1;
		if (s[p] == '\\' && p + 1 < n)
			p++;
	}
	return n;
}

/* A "..." string from its quote at p: $(...), ${...} and `...` inside are skipped whole. */
static size_t scan_dquoted(const unsigned char *s, size_t p, size_t n)
{
	p++;
	while (p < n) {
		unsigned char c = s[p];

		if (c == '"')
			return p + 1;
		if (c == '\\' && p + 1 < n)
			p += 2;
		else if (c == '$' && p + 1 < n && (s[p + 1] == '(' || s[p + 1] == '{'))
			p = lex_nested(s, p + 1, n, s[p + 1], s[p + 1] == '(' ? ')' : '}',
				       NEST_FLAGS, NULL);
		else if (c == '`')
			p = scan_backquoted(s, p, n);
		else
			p++;
	}
	return n;
}

/* A '...' string from its quote at p: no escapes. */
static size_t scan_squoted(const unsigned char *s, size_t p, size_t n)
{
	const unsigned char *q = p + 1 < n ? memchr(s + p + 1, '\'', n - p - 1) : NULL;

	return q ? (size_t)(q - s) + 1 : n;
}

/* A string from the quote at p: '...', "..." or `...`. */
static size_t scan_string(const unsigned char *s, size_t p, size_t n)
{
	if (s[p] == '\'')
		return scan_squoted(s, p, n);
	return s[p] == '"' ? scan_dquoted(s, p, n) : scan_backquoted(s, p, n);
}

/* The end of the expansion or quoted string at the '$' at p (starts_expansion holds). */
static size_t scan_dollar(const unsigned char *s, size_t p, size_t n)
{
	unsigned char c = s[p + 1];

	if (c == '\'')
		return lex_quoted(s, p + 1, n, LEX_QUOTED_MULTILINE);
	if (c == '"')
		return scan_dquoted(s, p + 1, n);
	if (c == '(')
		return lex_nested(s, p + 1, n, '(', ')', NEST_FLAGS, NULL);
	if (c == '{')
		return lex_nested(s, p + 1, n, '{', '}', NEST_FLAGS, NULL);
	if (is_name_start(c)) {
		p += 2;
		while (p < n && is_name(s[p]))
			p++;
		return p;
	}
	return p + 2;  /* $1, $@, $#, ... */
}

/* A word from p: up to whitespace, an operator, a quote or an expansion. */
static size_t scan_word(const unsigned char *s, size_t p, size_t n)
{
	while (p < n) {
		unsigned char c = s[p];
		int k = cclass[c];

		if (k == S_WORD || k == S_HASH) {
			p++;
		} else if (k == S_BACKSLASH) {
			if (lex_continuation_len(s, p, n))
				break;
			p += p + 1 < n ? 2 : 1;
		} else if (k == S_DOLLAR && !starts_expansion(s, p, n)) {
			p++;
		} else {
			break;
		}
	}
	return p;
}

/* The operators of several bytes, for lex_punct. */
static const char *const operators[128] = {
	['|'] = "|| |&", ['&'] = "&>> &> &&", [';'] = ";;& ;; ;&", ['<'] = "<<< <<- << <& <>",
	['>'] = ">> >& >|",
};

/*
 * The delimiter of a here-document, the word at p with its quotes and
 * backslashes removed, copied into buf (MAX_DELIM bytes): its length, or
 * -1 when there is no word at p or it is too long.  Reads at most
 * 4 * MAX_DELIM bytes of the source, so that queueing stays linear.
 */
static long heredoc_delimiter(const unsigned char *s, size_t p, size_t n, unsigned char *buf)
{
	size_t len = 0, start = p;
	unsigned char quote = 0;

	while (p < n && p - start <= 4 * MAX_DELIM) {
		unsigned char c = s[p];

		if (quote) {
			if (c == quote) {
				quote = 0;
				p++;
				continue;
			}
			if (quote == '"' && c == '\\' && p + 1 < n &&
			    (s[p + 1] == '"' || s[p + 1] == '\\' || s[p + 1] == '$' || s[p + 1] == '`'))
				c = s[++p];
		} else if (c == '\'' || c == '"') {
			quote = c;
			p++;
			continue;
		} else if (lex_is_space(c) || cclass[c] == S_OP) {
			break;
		} else if (c == '\\' && p + 1 < n) {
			c = s[++p];
		}
		if (len >= MAX_DELIM)
			return -1;
		buf[len++] = c;
		p++;
	}
	if (p - start > 4 * MAX_DELIM)
		return -1;
	return p > start ? (long)len : -1;
}

/* After a "<<" or "<<-" operator ending at p: queue the here-document it opens. */
static void queue_heredoc(struct lexer_state *ls, size_t p, int dash)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;
	unsigned char buf[MAX_DELIM];

	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	if (ls->u.shell.count >= MAX_PENDING || heredoc_delimiter(s, p, n, buf) < 0)
		return;
	lex_heredoc_push(&ls->u.shell, p, dash ? LEX_HEREDOC_TABS : 0, MAX_PENDING);
}

/*
 * The body of the oldest pending here-document, whose first line starts at
 * p: its end (past the delimiter line's delimiter, or n); the queue moves on.
 */
static size_t heredoc_body(struct lexer_state *ls, size_t p)
{
	unsigned char buf[MAX_DELIM];
	unsigned flags;
	size_t at = lex_heredoc_pop(&ls->u.shell, &flags);
	long len = heredoc_delimiter(ls->src, at, ls->len, buf);

	if (len < 0)  /* cannot happen: it was checked when queued */
		return p;
	return lex_heredoc(ls->src, p, ls->len, buf, (size_t)len, flags);
}

LEX_TOKEN_FN shell_token(struct lexer_state *ls, struct token *tok)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, p = ls->pos, e, k;
	enum token_class cls;

	for (;;) {
		while (p < n && cclass[s[p]] == S_SPACE && !(s[p] == '\n' && ls->u.shell.count))
			p++;
		if (p < n && s[p] == '\n') {
			size_t b = p + 1;

			e = heredoc_body(ls, b);
			while (b < e && lex_is_space(s[b]))
				b++;
			if (b < e) {
				p = b;
				cls = TOKEN_STRING;
				goto done;
			}
			p = e;
			continue;
		}
		if (!(k = lex_continuation_len(s, p, n)))
			break;
		p += k;
	}
	if (p >= n)
		return lex_end(ls);
	switch (cclass[s[p]]) {
	case S_OP:
		e = lex_punct(operators, s, p, n);
		cls = TOKEN_PUNCT;
		if (s[p] == '<' && e - p >= 2 && s[p + 1] == '<' && !(e - p == 3 && s[p + 2] == '<'))
			queue_heredoc(ls, e, e - p == 3);
		break;
	case S_QUOTE:
		e = scan_string(s, p, n);
		cls = TOKEN_STRING;
		break;
	case S_DOLLAR:
		if (starts_expansion(s, p, n)) {
			e = scan_dollar(s, p, n);
			cls = s[p + 1] == '(' || s[p + 1] == '\'' || s[p + 1] == '"' ? TOKEN_STRING : TOKEN_WORD;
		} else {
			e = scan_word(s, p + 1, n);
			cls = TOKEN_WORD;
		}
		break;
	case S_HASH:
		if (p == 0 || lex_is_space(s[p - 1]) || cclass[s[p - 1]] == S_OP) {
			e = lex_line_comment(s, p, n, 0);
			cls = TOKEN_COMMENT;
			break;
		}
		/* fall through */
	default:
		e = scan_word(s, p, n);
		cls = TOKEN_WORD;
		if (e < n && (s[e] == '<' || s[e] == '>')) {
			size_t d = p;

			while (d < e && s[d] >= '0' && s[d] <= '9')
				d++;
			if (d == e) {  /* a file descriptor: 2> 2>&1 */
				size_t o = e;

				e = lex_punct(operators, s, e, n);
				cls = TOKEN_PUNCT;
				if (s[o] == '<' && e - o >= 2 && s[o + 1] == '<' &&
				    !(e - o == 3 && s[o + 2] == '<'))
					queue_heredoc(ls, e, e - o == 3 && s[o + 2] == '-');
			}
		}
		break;
	}
done:
	return lex_emit(ls, tok, p, e, cls);
}

LEX_DEFINE(lexer_shell, "shell", shell_token);
