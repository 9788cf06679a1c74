/*
 * The Ruby lexer.
 *
 * One token each, whatever its length and however many lines it spans:
 *   - a string "..." '...' `...`, a quoted symbol :"..." :'...', a
 *     character literal ?a ?\n ?\C-a ?\u{1F600}, a regular expression
 *     /.../flags, and a percent literal %w[] %W %i %I %q %Q %r{}flags %s
 *     %x %() with any delimiter (brackets ( [ { < nest, so %w[a [b]] is
 *     one token);
 *   - an interpolation #{...} stays inside its literal: its braces nest,
 *     and the strings inside it (which may hold interpolations of their
 *     own, up to MAX_NESTING deep; deeper, a quote is a plain byte there)
 *     are skipped whole, so a '}' or a quote in them ends nothing;
 *   - a here-document: its opening marker <<~ID, <<-ID, <<ID, <<~'ID',
 *     <<~"ID", <<~`ID` is one string token where it stands, and its body,
 *     from the line after the marker's through the line of the
 *     terminator, is one more, where it stands, without the whitespace it
 *     starts with (as the shell and Perl lexers have it).  Several markers
 *     on one line take the following bodies in order; up to
 *     LEX_MAX_HEREDOCS are pending, and a body beyond them is lexed as
 *     code.  The code after a marker on its line stays code;
 *   - a comment: '#' to the end of its line, and =begin at the start of a
 *     line through the line of =end;
 *   - a symbol :name :name? :name= :@ivar :$global and :+ :[]= :<=> (the
 *     operator names), a label name: (a hash key, Ruby's tLABEL), a
 *     variable @x @@x $x $1 $! $" $-w, a name with its ? or ! (empty?,
 *     save!), and after "def" a setter's name=, [] and []=, +@ -@.
 * Ruby cannot be lexed without parsing it; what a '/', '%', '?', '<<' or
 * ':' starts is decided, as Ruby's own lexer does, from the previous
 * significant token (u.ruby): where an operand is expected (at the start,
 * after an operator, '(', ',', a keyword such as if, when, and, return,
 * or a line break) it opens a literal; after a value (a number, a
 * literal, a variable, a constant, ')', ']', '}', end, self) it is an
 * operator, and after "." or "def" a method name.  After a bare name,
 * which may be a method called without parentheses (puts /x/, foo %w[a]),
 * it opens a literal when a blank comes before it and none after, as
 * Ruby, which warns of an "ambiguous first argument", reads it for a
 * method; such a guess must hold: a regular expression must close on its
 * line, a percent literal at all, else the byte is an operator and no
 * guess is made again before where the failed one stopped looking (so
 * the lexer stays linear), and a here-document needs an indented (~ -),
 * quoted or capitalized terminator ("x <<y" is a shift).  "class <<self"
 * is never a here-document.
 *
 * Unterminated literals run to the end of the file (Ruby's strings span
 * lines).  A line __END__ ends the code: the rest of the file is lexed
 * as prose, words and punctuation as the text lexer has them, since it
 * holds data or (Sinatra) templates whose lines change one by one.
 * Numbers take '_', 0x 0b 0o 0d, a fraction, an exponent and the r and i
 * suffixes; a backslash before a line break is white space.
 */
#include "common.h"
#include "lexers.h"

enum {
	R_OTHER,     /* a byte that is a token by itself */
	R_SPACE,
	R_IDENT,     /* A-Z a-z _ and every byte >= 0x80 (UTF-8 is never split) */
	R_DIGIT,
	R_DQUOTE,    /* " and ` */
	R_SQUOTE,
	R_HASH,
	R_AT,
	R_DOLLAR,
	R_COLON,
	R_SLASH,
	R_PERCENT,
	R_QUESTION,
	R_LT,
	R_EQUALS,
	R_BRACKET,   /* [ : [] and []= after "def" */
	R_PUNCT
};

/* Nesting of literals in interpolations past which a quote is a plain byte. */
#define MAX_NESTING 16
/* The longest here-document terminator taken, so that a marker is read in bounded time. */
#define MAX_DELIM 256

#define RUBY_CLASS(c) (LEX_IS_SPACE(c) ? R_SPACE : \
	LEX_IS_IDENT(c) ? R_IDENT : LEX_IS_DIGIT(c) ? R_DIGIT : \
	(c) == '"' || (c) == '`' ? R_DQUOTE : (c) == '\'' ? R_SQUOTE : (c) == '#' ? R_HASH : \
	(c) == '@' ? R_AT : (c) == '$' ? R_DOLLAR : (c) == ':' ? R_COLON : (c) == '/' ? R_SLASH : \
	(c) == '%' ? R_PERCENT : (c) == '?' ? R_QUESTION : (c) == '<' ? R_LT : \
	(c) == '=' ? R_EQUALS : (c) == '[' ? R_BRACKET : \
	LEX_IN(c, '!', '&', '(', ')', '*', '+', ',', '-', '.', ';', '>', ']', '^', '{', '|', \
	       '}', '~') ? R_PUNCT : R_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(RUBY_CLASS) };

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	['*'] = "**= ** *=", ['='] = "=== == =~ =>", ['!'] = "!= !~", ['<'] = "<=> <<= <= <<",
	['>'] = ">>= >= >>", ['&'] = "&&= && &= &.", ['|'] = "||= || |=", ['.'] = "... ..",
	[':'] = "::", ['-'] = "-> -=", ['+'] = "+=", ['/'] = "/=", ['%'] = "%=", ['^'] = "^=",
};

/* What the previous significant token lets a '/', '%', '?', '<<' or ':' start. */
enum expect {
	EXPECT_OPERAND,  /* a literal: at the start, after an operator or a keyword */
	EXPECT_ARG,      /* after a bare name: a literal if blank before and none after */
	EXPECT_OPERATOR, /* after a value */
	EXPECT_NAME      /* after "." or "def": a method's name, an operator too */
};

static inline int is_ident(unsigned char c)
{
	return cclass[c] == R_IDENT || cclass[c] == R_DIGIT;
}

static inline int is_upper(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

/* Is s[b..b+len) one of the NUL-terminated words of list? */
static int in_words(const unsigned char *s, size_t b, size_t len, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == len && !memcmp(s + b, *list, len))
			return 1;
	return 0;
}

/* The keywords after which an operand comes, so /x/ is a regular expression. */
static const char *const operand_keywords[] = {
	"and", "begin", "case", "class", "do", "else", "elsif", "ensure", "if", "in",
	"module", "not", "or", "rescue", "return", "then", "unless", "until", "when",
	"while", "break", "next", NULL
};

/* The keywords that are values, so a '/' after them divides. */
static const char *const value_keywords[] = {
	"end", "self", "nil", "true", "false", "redo", "retry", "__FILE__", "__LINE__",
	"__ENCODING__", "__method__", NULL
};

/* What the previous significant token lets come at p. */
static enum expect expecting(const struct lexer_state *ls)
{
	const struct lex_ruby_state *rs = &ls->u.ruby;
	const unsigned char *s = ls->src;
	size_t b = rs->prev_start, len = rs->prev_len;

	if (rs->def_name)
		return EXPECT_NAME;
	switch (rs->prev) {
	case TOKEN_PUNCT:
		if (len == 1 && s[b] == '.')
			return EXPECT_NAME;
		if ((len == 2 && s[b] == '&' && s[b + 1] == '.') || (len == 2 && s[b] == ':'))
			return EXPECT_NAME;
		if (rs->newline)
			return EXPECT_OPERAND;
		if (len == 1 && (s[b] == ')' || s[b] == ']' || s[b] == '}'))
			return EXPECT_OPERATOR;
		return EXPECT_OPERAND;
	case TOKEN_WORD:
		if (rs->newline)
			return EXPECT_OPERAND;
		if (s[b] == '@' || s[b] == '$' || s[b] == ':' || is_upper(s[b]))
			return EXPECT_OPERATOR;  /* a variable, a symbol, a constant */
		if (s[b + len - 1] == ':')
			return EXPECT_OPERAND;   /* a label */
		if (rs->prev_name)
			return EXPECT_ARG;
		if (in_words(s, b, len, operand_keywords))
			return EXPECT_OPERAND;
		return in_words(s, b, len, value_keywords) ? EXPECT_OPERATOR : EXPECT_ARG;
	case TOKEN_NUMBER:
	case TOKEN_STRING:
		return rs->newline ? EXPECT_OPERAND : EXPECT_OPERATOR;
	default:
		return EXPECT_OPERAND;
	}
}

/*
 * May an ambiguous literal start at p, where expect is what may come: an
 * operand is expected, or after a bare name a blank comes before p and
 * none after, and no guess failed beyond p.
 */
static int literal_may_start(const struct lexer_state *ls, enum expect expect, size_t p)
{
	const unsigned char *s = ls->src;

	if (expect == EXPECT_OPERAND)
		return 1;
	return expect == EXPECT_ARG && p > 0 && lex_is_hspace(s[p - 1]) && p + 1 < ls->len &&
		!lex_is_space(s[p + 1]) && p >= ls->u.ruby.guess_horizon;
}

static unsigned char closing_bracket(unsigned char c)
{
	switch (c) {
	case '(': return ')';
	case '[': return ']';
	case '{': return '}';
	case '<': return '>';
	default: return 0;
	}
}

static size_t scan_literal(const unsigned char *s, size_t p, size_t n, unsigned char close,
			   int interpolates, unsigned depth, int *closed);

/*
 * End of the interpolation whose '{' is at p (after its '#'): past the
 * '}' that balances it, or n.  Braces nest; the literals inside are
 * skipped whole, up to MAX_NESTING deep: strings, a character literal of
 * a quote (?"), and a regular expression where a '/' follows an opening
 * bracket, an operator or a comma ("#{caller[/`(.*)'/, 1]}").
 */
static size_t scan_interpolation(const unsigned char *s, size_t p, size_t n, unsigned depth)
{
	size_t braces = 1;
	unsigned char last = '{';  /* the last byte of code but blanks */

	for (p++; p < n;) {
		unsigned char c = s[p];

		if (c == '{') {
			braces++;
			p++;
		} else if (c == '}') {
			p++;
			if (!--braces)
				return p;
		} else if (c == '?' && p + 1 < n && (s[p + 1] == '"' || s[p + 1] == '\'' || s[p + 1] == '`')) {
			p += 2;
		} else if (c == '\'') {
			p = lex_quoted(s, p, n, LEX_QUOTED_MULTILINE);
		} else if ((c == '"' || c == '`' || (c == '/' && strchr("([{,=~!|&;?:", last))) &&
			   depth < MAX_NESTING) {
			p = scan_literal(s, p, n, c, 1, depth + 1, NULL);
		} else {
			p++;
		}
		if (!lex_is_space(c))
			last = c;
	}
	return n;
}

/*
 * End of the literal whose opening delimiter is at p and which closes with
 * close: past the closer, or n (*closed, if not NULL, tells which).  A
 * bracketing delimiter nests; a backslash escapes the next byte;
 * interpolates: #{...} is skipped whole.
 */
static size_t scan_literal(const unsigned char *s, size_t p, size_t n, unsigned char close,
			   int interpolates, unsigned depth, int *closed)
{
	unsigned char open = s[p];
	size_t nesting = 0;

	if (closed)
		*closed = 0;
	for (p++; p < n;) {
		unsigned char c = s[p];

		if (c == '\\') {
			p += 2;
		} else if (c == close) {
			p++;
			if (!nesting) {
				if (closed)
					*closed = 1;
				return p;
			}
			nesting--;
		} else if (c == open && open != close) {
			nesting++;
			p++;
		} else if (c == '#' && interpolates && p + 1 < n && s[p + 1] == '{') {
			p = scan_interpolation(s, p + 1, n, depth);
		} else {
			p++;
		}
	}
	return n;
}

/* Past the letters of a regular expression's flags at p. */
static size_t scan_flags(const unsigned char *s, size_t p, size_t n)
{
	while (p < n && s[p] >= 'a' && s[p] <= 'z')
		p++;
	return p;
}

/* A name from the identifier byte at p, and its ? or ! (not that of != or ?=). */
static size_t scan_name(const unsigned char *s, size_t p, size_t n)
{
	p = lex_span_idents(s, p + 1, n, 0, cclass, R_IDENT, R_DIGIT);
	if (p < n && (s[p] == '?' || s[p] == '!') && !(p + 1 < n && s[p + 1] == '='))
		p++;
	return p;
}

/*
 * A setter's '=' at p after a method's name (def name=, :name=): its end
 * with the '=', or p when the '=' is that of ==, =~ or =>.
 */
static size_t setter_equals(const unsigned char *s, size_t p, size_t n)
{
	if (p < n && s[p] == '=' &&
	    !(p + 1 < n && (s[p + 1] == '~' || s[p + 1] == '>' ||
			    (s[p + 1] == '=' && !(p + 2 < n && s[p + 2] == '>')))))
		return p + 1;
	return p;
}

/* A number from the digit at p. */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	if (p + 1 < n && s[p] == '0' && strchr("xXbBoOdD", s[p + 1]) && s[p + 1]) {
		for (p += 2; p < n && is_ident(s[p]); p++)
			;
		return p;
	}
	p = lex_digits(s, p, n, 10);
	if (p + 1 < n && s[p] == '.' && lex_is_digit(s[p + 1]))
		p = lex_digits(s, p + 1, n, 10);
	if (p + 1 < n && (s[p] == 'e' || s[p] == 'E')) {
		size_t q = p + 1;

		if (q + 1 < n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < n && lex_is_digit(s[q]))
			p = lex_digits(s, q, n, 10);
	}
	if (p < n && s[p] == 'r')  /* rational, then imaginary: 3r 2i 1ri */
		p++;
	if (p < n && s[p] == 'i')
		p++;
	return p;
}

/* The punctuation variables: $! $@ $~ $" ... (and $0 as a name). */
static inline int special_global(unsigned char c)
{
	return c && strchr("~*$?!@/\\;,.=:<>\"&`'+", c) != NULL;
}

/* A variable from the '@' or '$' at p: the word, or the byte alone. */
static size_t scan_variable(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1;

	if (s[p] == '@' && q < n && s[q] == '@')
		q++;
	if (q < n && cclass[s[q]] == R_IDENT)
		return lex_span_idents(s, q + 1, n, 0, cclass, R_IDENT, R_DIGIT);
	if (s[p] == '@' || q >= n)
		return p + 1;
	if (lex_is_digit(s[q]))
		return lex_digits(s, q, n, 10);
	if (s[q] == '-' && q + 1 < n && is_ident(s[q + 1]))
		return q + 2;  /* $-w */
	return special_global(s[q]) ? q + 1 : q;
}

/*
 * A character literal from the '?' at p: its end, or p when none is
 * there (a blank after the '?', or a letter followed by more of a name).
 */
static size_t scan_character(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1, k;

	if (q >= n || lex_is_space(s[q]))
		return p;
	if (s[q] != '\\') {
		if (is_ident(s[q]) && s[q] < 0x80 && q + 1 < n && is_ident(s[q + 1]))
			return p;
		k = lex_utf8_len(s[q]);
		return n - q < k ? n : q + k;
	}
	for (q++; q + 1 < n && (s[q] == 'M' || s[q] == 'C') && s[q + 1] == '-'; q += 2)
		;  /* \M-\C-x */
	if (q < n && s[q] == 'u' && q + 1 < n && s[q + 1] == '{') {
		for (k = q + 2; k < n && k - q < 64 && s[k] != '}' && s[k] != '\n'; k++)
			;
		return k < n && s[k] == '}' ? k + 1 : k;
	}
	if (q < n && s[q] == 'u') {
		for (k = q + 1; k < n && k - q <= 4 && lex_is_hex(s[k]); k++)
			;
		return k;
	}
	if (q < n && s[q] == 'x') {
		for (k = q + 1; k < n && k - q <= 2 && lex_is_hex(s[k]); k++)
			;
		return k;
	}
	if (q < n && s[q] >= '0' && s[q] <= '7') {
		for (k = q + 1; k < n && k - q < 3 && s[k] >= '0' && s[k] <= '7'; k++)
			;
		return k;
	}
	if (q >= n)
		return n;
	k = lex_utf8_len(s[q]);
	return n - q < k ? n : q + k;
}

/*
 * A percent literal from the '%' at p: its end, or p when none is there
 * (a '%' before a blank, or a letter that names no literal).
 */
static size_t scan_percent(const unsigned char *s, size_t p, size_t n, int *closed)
{
	size_t q = p + 1, e;
	int interpolates = 1, regex = 0;
	unsigned char close;

	if (q < n && LEX_IS_LETTER(s[q])) {
		if (!strchr("qQwWiIrsx", s[q]))
			return p;
		interpolates = strchr("QWIrx", s[q]) != NULL;
		regex = s[q] == 'r';
		q++;
	}
	if (q >= n || s[q] < 0x21 || s[q] > 0x7e || is_ident(s[q]))
		return p;
	close = closing_bracket(s[q]);
	e = scan_literal(s, q, n, close ? close : s[q], interpolates, 0, closed);
	return regex ? scan_flags(s, e, n) : e;
}

/* Past the blanks of a line continuation or white space at p, noting line breaks. */
LEX_INLINE size_t skip_blanks(struct lexer_state *ls, size_t p)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, k;

	for (;;) {
		while (p < n && cclass[s[p]] == R_SPACE && s[p] != '\n')
			p++;
		if (p < n && s[p] == '\\' && (k = lex_continuation_len(s, p, n))) {
			p += k;
			continue;
		}
		return p;
	}
}

/*
 * A here-document marker at the "<<" at p: 1 and its end, where its
 * terminator is (s[*dstart..*dstart + *dlen)) and whether the terminator
 * may be indented (<<~ and <<-); else 0.
 */
static int heredoc_marker(const unsigned char *s, size_t p, size_t n, size_t *end,
			  size_t *dstart, size_t *dlen, int *indent)
{
	size_t q = p + 2, d;

	*indent = q < n && (s[q] == '~' || s[q] == '-');
	q += (size_t)*indent;
	if (q < n && (s[q] == '"' || s[q] == '\'' || s[q] == '`')) {
		unsigned char quote = s[q];

		for (d = q + 1; d < n && s[d] != quote && s[d] != '\n' && s[d] != '\r'; d++)
			if (d - q > MAX_DELIM)
				return 0;
		if (d >= n || s[d] != quote || d == q + 1)
			return 0;
		*dstart = q + 1;
		*dlen = d - q - 1;
		*end = d + 1;
		return 1;
	}
	if (q >= n || cclass[s[q]] != R_IDENT)
		return 0;
	for (d = q; d < n && is_ident(s[d]); d++)
		if (d - q > MAX_DELIM)
			return 0;
	*dstart = q;
	*dlen = d - q;
	*end = d;
	return 1;
}

/* The end of the body of the oldest pending here-document, whose first line starts at p. */
static size_t heredoc_body(struct lexer_state *ls, size_t p)
{
	unsigned flags;
	size_t at = lex_heredoc_pop(&ls->u.ruby.heredocs, &flags), end, dstart, dlen;
	int indent;

	if (!heredoc_marker(ls->src, at, ls->len, &end, &dstart, &dlen, &indent))
		return p;  /* cannot happen: it was checked when queued */
	return lex_heredoc(ls->src, p, ls->len, ls->src + dstart, dlen,
			   indent ? LEX_HEREDOC_INDENT : 0);
}

/*
 * Past the white space at *p, and past the bodies of the pending
 * here-documents at the line break that starts them: 1 when one of those
 * bodies is the next token (s[*p..*end)), else 0.
 */
LEX_INLINE int skip_space(struct lexer_state *ls, size_t *p, size_t *end)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, q = *p;

	for (;;) {
		size_t b, e;

		q = skip_blanks(ls, q);
		if (q >= n || s[q] != '\n')
			break;
		ls->u.ruby.newline = 1;
		if (!ls->u.ruby.heredocs.count) {
			q++;
			continue;
		}
		b = q + 1;
		e = heredoc_body(ls, b);
		while (b < e && lex_is_space(s[b]))
			b++;
		if (b < e) {
			*p = b;
			*end = e;
			return 1;
		}
		q = e;
	}
	*p = q;
	return 0;
}

/* Is p at the start of a line, the word w[0..len) there and then a blank or the end of the line? */
static int line_starts_with(const unsigned char *s, size_t p, size_t n, const char *w, int alone)
{
	size_t len = strlen(w), q = p + len;

	if ((p > 0 && s[p - 1] != '\n') || !lex_starts(s, p, n, w))
		return 0;
	if (q < n && s[q] == '\r')
		q++;
	return q >= n || s[q] == '\n' || (!alone && lex_is_hspace(s[q]));
}

/* An =begin comment from p: through the =end line, or to the end of the file. */
static size_t scan_embedded_doc(const unsigned char *s, size_t p, size_t n)
{
	size_t b = p, e = n;

	for (;;) {
		const unsigned char *nl = memchr(s + p, '\n', n - p);

		if (!nl)
			break;
		p = (size_t)(nl - s) + 1;
		if (line_starts_with(s, p, n, "=end", 0)) {
			nl = memchr(s + p, '\n', n - p);
			e = nl ? (size_t)(nl - s) : n;
			break;
		}
	}
	while (e > b + 1 && lex_is_space(s[e - 1]))
		e--;
	return e;
}

/* A word from the identifier byte at p: a name, a label, __END__, a setter after "def". */
static size_t word_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e = scan_name(s, p, n);

	*cls = TOKEN_WORD;
	if (ls->u.ruby.def_name)
		return setter_equals(s, e, n);
	if (e < n && s[e] == ':' && !(e + 1 < n && s[e + 1] == ':') &&
	    expecting(ls) != EXPECT_NAME)
		return e + 1;  /* a label */
	if (e - p == 7 && line_starts_with(s, p, n, "__END__", 1)) {
		ls->u.ruby.data = 1;
		return e;
	}
	return e;
}

/*
 * The operators that are methods, longest first, as the names of symbols
 * (:<=>, :[]=); not those that are not (:&&, :=>, :+=).
 */
static const char *const operator_methods[] = {
	"[]=", "[]", "===", "<=>", "==", "=~", "!=", "!~", "**", "<<", ">>", "<=", ">=",
	"+@", "-@", "!@", "~@", "+", "-", "*", "/", "%", "<", ">", "!", "~", "^", "&",
	"|", "`", NULL
};

/* The end of the operator method's name at p, or 0. */
static size_t operator_method(const unsigned char *s, size_t p, size_t n)
{
	const char *const *o;

	for (o = operator_methods; *o; o++)
		if (lex_starts(s, p, n, *o))
			return p + strlen(*o);
	return 0;
}

/* ':' at p: "::", a symbol, a quoted symbol, or the colon of a ternary or a label. */
static size_t colon_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, q = p + 1, e;
	unsigned char c = q < n ? s[q] : 0;

	*cls = TOKEN_PUNCT;
	if (c == ':')
		return p + 2;
	if (q >= n || (expecting(ls) == EXPECT_OPERATOR && ls->u.ruby.prev_start + ls->u.ruby.prev_len == p))
		return q;  /* x ? 1:2 */
	if (c == '"' || c == '\'') {
		*cls = TOKEN_STRING;
		return scan_literal(s, q, n, c, c == '"', 0, NULL);
	}
	*cls = TOKEN_WORD;
	if (cclass[c] == R_IDENT)
		return setter_equals(s, scan_name(s, q, n), n);
	if (c == '@' || c == '$')
		return (e = scan_variable(s, q, n)) > q + 1 ? e : (*cls = TOKEN_PUNCT, q);
	if ((e = operator_method(s, q, n)))
		return e;
	*cls = TOKEN_PUNCT;
	return q;
}

/* '/' at p: a regular expression where one may start, else an operator. */
static size_t slash_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;
	enum expect expect = expecting(ls);
	int closed;

	*cls = TOKEN_STRING;
	if (expect == EXPECT_OPERAND)
		return scan_flags(s, scan_literal(s, p, n, '/', 1, 0, NULL), n);
	if (literal_may_start(ls, expect, p) && s[p + 1] != '=') {
		e = scan_literal(s, p, n, '/', 1, 0, &closed);
		if (closed && !memchr(s + p, '\n', e - p))
			return scan_flags(s, e, n);
		ls->u.ruby.guess_horizon = e;
	}
	*cls = TOKEN_PUNCT;
	return lex_punct(puncts, s, p, n);
}

/* '%' at p: a percent literal where one may start, else an operator. */
static size_t percent_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;
	enum expect expect = expecting(ls);
	int closed;

	*cls = TOKEN_STRING;
	if (literal_may_start(ls, expect, p) && !(expect == EXPECT_ARG && s[p + 1] == '=') &&
	    (e = scan_percent(s, p, n, &closed)) > p) {
		if (closed || expect == EXPECT_OPERAND)
			return e;
		ls->u.ruby.guess_horizon = e;
	}
	*cls = TOKEN_PUNCT;
	return lex_punct(puncts, s, p, n);
}

/* '?' at p: a character literal where one may start, else the ternary operator. */
static size_t question_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	size_t e;

	*cls = TOKEN_STRING;
	if (literal_may_start(ls, expecting(ls), p) && (e = scan_character(ls->src, p, ls->len)) > p)
		return e;
	*cls = TOKEN_PUNCT;
	return p + 1;
}

/* Was the previous significant token the word w? */
static int prev_is_word(const struct lexer_state *ls, const char *w)
{
	const struct lex_ruby_state *rs = &ls->u.ruby;

	return rs->prev == TOKEN_WORD && rs->prev_len == strlen(w) &&
		!memcmp(ls->src + rs->prev_start, w, rs->prev_len);
}

/* '<' at p: a here-document marker (its body queued) where one may start, else an operator. */
static size_t lt_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e, dstart, dlen;
	enum expect expect = expecting(ls);
	int indent;

	*cls = TOKEN_PUNCT;
	if (p + 1 >= n || s[p + 1] != '<' || !literal_may_start(ls, expect, p) ||
	    prev_is_word(ls, "class") || !heredoc_marker(s, p, n, &e, &dstart, &dlen, &indent))
		return lex_punct(puncts, s, p, n);
	if (expect == EXPECT_ARG && !indent && !is_upper(s[dstart]) && dstart == p + 2)
		return lex_punct(puncts, s, p, n);  /* x <<y: a shift */
	lex_heredoc_push(&ls->u.ruby.heredocs, p, 0, LEX_MAX_HEREDOCS);
	*cls = TOKEN_STRING;
	return e;
}

/* '[' at p: "[]" or "[]=" as a method's name after "def", else a bracket. */
static size_t bracket_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	*cls = TOKEN_PUNCT;
	if (ls->u.ruby.def_name && p + 1 < n && s[p + 1] == ']')
		return p + 2 < n && s[p + 2] == '=' ? p + 3 : p + 2;
	return p + 1;
}

/* An operator at p: after "def", the unary +@ -@ !@ ~@ too. */
static size_t punct_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	*cls = TOKEN_PUNCT;
	if (ls->u.ruby.def_name && strchr("+-!~", s[p]) && p + 1 < n && s[p + 1] == '@')
		return p + 2;
	return lex_punct(puncts, s, p, n);
}

/* The token at p, the first byte of one, decided by its class. */
LEX_INLINE size_t scan_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;

	switch (cclass[s[p]]) {
	case R_IDENT:
		if ((e = lex_bom(s, p, n))) {
			*cls = TOKEN_OTHER;
			return e;
		}
		return word_token(ls, p, cls);
	case R_DIGIT:
		*cls = TOKEN_NUMBER;
		return scan_number(s, p, n);
	case R_DQUOTE:
		if (s[p] == '`' && expecting(ls) == EXPECT_NAME)
			break;  /* def `(cmd) */
		*cls = TOKEN_STRING;
		return scan_literal(s, p, n, s[p], 1, 0, NULL);
	case R_SQUOTE:
		*cls = TOKEN_STRING;
		return lex_quoted(s, p, n, LEX_QUOTED_MULTILINE);
	case R_HASH:
		*cls = TOKEN_COMMENT;
		return lex_line_comment(s, p, n, 0);
	case R_AT:
	case R_DOLLAR:
		e = scan_variable(s, p, n);
		*cls = e - p > 1 ? TOKEN_WORD : TOKEN_PUNCT;
		return e;
	case R_COLON:
		return colon_token(ls, p, cls);
	case R_SLASH:
		return slash_token(ls, p, cls);
	case R_PERCENT:
		return percent_token(ls, p, cls);
	case R_QUESTION:
		return question_token(ls, p, cls);
	case R_LT:
		return lt_token(ls, p, cls);
	case R_EQUALS:
		if (line_starts_with(s, p, n, "=begin", 0)) {
			*cls = TOKEN_COMMENT;
			return scan_embedded_doc(s, p, n);
		}
		break;
	case R_BRACKET:
		return bracket_token(ls, p, cls);
	case R_PUNCT:
		break;
	default:
		*cls = TOKEN_OTHER;
		return p + 1;
	}
	return punct_token(ls, p, cls);
}

/* Past __END__: a word of letters, digits and '_', or any other byte alone. */
static size_t prose_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if (is_ident(s[p])) {
		*cls = TOKEN_WORD;
		return lex_span_idents(s, p + 1, n, 0, cclass, R_IDENT, R_DIGIT);
	}
	*cls = s[p] < 0x20 || s[p] == 0x7f ? TOKEN_OTHER : TOKEN_PUNCT;
	return p + 1;
}

/*
 * s[p..e) of class cls is the previous significant token from now on.
 * After "def", def_name is 1 until the method's name has passed: a word
 * followed by a '.' is the receiver of "def self.name" (def_name 2 for
 * the '.', then 1 again for the name).
 */
static void remember(struct lexer_state *ls, size_t p, size_t e, enum token_class cls)
{
	struct lex_ruby_state *rs = &ls->u.ruby;
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	/* as expecting() says EXPECT_NAME, without its look at keywords, on every token */
	rs->prev_name = cls == TOKEN_WORD &&
		(rs->def_name || (rs->prev == TOKEN_PUNCT &&
				  ((rs->prev_len == 1 && s[rs->prev_start] == '.') ||
				   (rs->prev_len == 2 && (s[rs->prev_start] == ':' ||
							  (s[rs->prev_start] == '&' &&
							   s[rs->prev_start + 1] == '.'))))));
	if (rs->def_name == 1 && cls == TOKEN_WORD && e + 1 < n && s[e] == '.' && s[e + 1] != '.')
		rs->def_name = 2;
	else
		rs->def_name = rs->def_name == 2 && cls == TOKEN_PUNCT && e - p == 1 && s[p] == '.';
	rs->prev = cls;
	rs->prev_start = p;
	rs->prev_len = e - p;
	rs->newline = 0;
	if (cls == TOKEN_WORD && e - p == 3 && !memcmp(s + p, "def", 3) && !rs->prev_name)
		rs->def_name = 1;
}

LEX_TOKEN_FN ruby_token(struct lexer_state *ls, struct token *tok)
{
	size_t p = ls->pos, e;
	enum token_class cls;

	if (ls->u.ruby.data) {
		p = lex_span(ls->src, p, ls->len, cclass, R_SPACE, R_SPACE);
		if (p >= ls->len)
			return lex_end(ls);
		e = prose_token(ls->src, p, ls->len, &cls);
		return lex_emit(ls, tok, p, e, cls);
	}
	if (skip_space(ls, &p, &e))  /* a here-document body: not significant */
		return lex_emit(ls, tok, p, e, TOKEN_STRING);
	if (p >= ls->len)
		return lex_end(ls);
	e = scan_token(ls, p, &cls);
	if (cls != TOKEN_COMMENT)
		remember(ls, p, e, cls);
	return lex_emit(ls, tok, p, e, cls);
}

/* Only strings and comments hold line breaks (a line continuation is white space). */
LEX_DEFINE_BREAKS(lexer_ruby, "ruby", ruby_token, LEX_BREAKS_STRINGS);
