/*
 * The Perl lexer.
 *
 * Perl cannot be lexed without parsing it; this lexer makes the usual
 * decisions from the previous significant token (comments, POD and
 * here-document bodies do not count), which it keeps in lexer_state:
 * u.perl holds its class, start and length (and whether the token before
 * it was "sub").  A term is expected at the
 * start, after an operator or an opening bracket, after a '}' that ends
 * its line (a block), and after a named operator such as split, grep, if,
 * and, return; after a variable, a number, a string or a closing bracket
 * an operator is.  That decides
 *   - "/" : a regular expression /.../flags, or division (after any other
 *     bareword too: "FOO / 2");
 *   - "%", "&", "*" : the sigil of %hash, &code, *glob, or an operator;
 *   - "<" : a readline <FH> <$fh> <>, or an operator; "<<" a here-document
 *     <<"EOF" (also after a variable: print $fh <<EOF), or a shift;
 *   - "-" : a file test "-e", a negative number "-1" and a "-bareword"
 *     string (one token each, as PPI has them), or minus;
 *   - "x4" : the repetition operator x and 4, "x=" an operator.
 *
 * One token each: POD (a line starting "=word" through the "=cut" line,
 * or to the end of the file) and '#' comments (class comment); "__END__"
 * or "__DATA__" and the rest of the file (comment, or string for
 * __DATA__); '...', "...", `...`; the quote-like operators q qq qw qx m qr
 * s tr y with any delimiter, bracketing delimiters nesting (q{a{b}c}),
 * both parts of s{...}{...}, s/.../.../ and tr, and their modifiers, but
 * not when the word is a hash key or a method name or is followed by "=>",
 * "=", ";", ")", "}" or a ',' after blanks ($h{s}, ->y, s => 1, (q , 1));
 * s,a,b, and qw,a b, with the comma right after the word are quote-like,
 * as Perl takes them and as the core library writes them; after "=~" any
 * delimiter goes; a here-document operator
 * <<"EOF", <<'EOF', <<EOF, <<~EOF, <<\EOF and its body, which, as in the
 * shell lexer, is the string token from the line after the operator's
 * through the terminator line (up to 6 pending, in u.perl.heredocs;
 * beyond that the body is lexed as code).  Unterminated strings run
 * to the end of the file: Perl's are multi-line by nature.
 *
 * Variables are words: $x @x %x &x *x $#x $x::y $::x ${name} ${^NAME} $1
 * $_ $$ $& $^W ...; before a '{' or another sigil ("@{", "$$x", "%$h") the
 * sigil is a token of its own (a cast).  Names with "::" (Foo::Bar) are one
 * word; the postfix dereferences ->@* ->$#* ->%* one token.  Numbers take
 * '_', 0x, 0b, exponents and v-strings (1.2.3, v5.36.0); a prototype
 * "($$;@)" after "sub NAME" is one token.
 *
 * t/agree/perl.sh measures the agreement with PPI on Perl's own library.
 */
#include "common.h"
#include "lexers.h"

enum {
	L_OTHER,
	L_SPACE,
	L_IDENT,
	L_DIGIT,
	L_DOLLAR,
	L_AT,
	L_SIGIL,    /* % & * */
	L_QUOTE,    /* ' " ` */
	L_HASH,
	L_EQUALS,
	L_SLASH,
	L_LT,
	L_MINUS,
	L_DOT,
	L_LPAREN,
	L_PUNCT
};

#define MAX_PENDING 6
#define MAX_DELIM 256

enum expect { TERM, OPERATOR, BAREWORD };

#define PERL_CLASS(c) (LEX_IS_SPACE(c) ? L_SPACE : \
	LEX_IS_IDENT(c) ? L_IDENT : LEX_IS_DIGIT(c) ? L_DIGIT : \
	(c) == '$' ? L_DOLLAR : (c) == '@' ? L_AT : LEX_IN(c, '%', '&', '*') ? L_SIGIL : \
	LEX_IN(c, '\'', '"', '`') ? L_QUOTE : (c) == '#' ? L_HASH : (c) == '=' ? L_EQUALS : \
	(c) == '/' ? L_SLASH : (c) == '<' ? L_LT : (c) == '-' ? L_MINUS : (c) == '.' ? L_DOT : \
	(c) == '(' ? L_LPAREN : \
	LEX_IN(c, '!', ')', '+', ',', ':', ';', '>', '?', '[', '\\', ']', '^', '{', '|', \
	       '}', '~') ? L_PUNCT : L_OTHER)
static const unsigned char cclass[256] = { LEX_TABLE(PERL_CLASS) };

static inline int is_ident(unsigned char c)
{
	return cclass[c] == L_IDENT || cclass[c] == L_DIGIT;
}

static inline int is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Is s[b..b+len) the NUL-terminated word w? */
static inline int word_is(const unsigned char *s, size_t b, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(s + b, w, len);
}

static int in_words(const unsigned char *s, size_t b, size_t len, const char *const *list)
{
	for (; *list; list++)
		if (word_is(s, b, len, *list))
			return 1;
	return 0;
}

/* Named operators and functions after which a term (so /regex/) comes. */
static const char *const term_words[] = {
	"split", "grep", "map", "join", "push", "unshift", "return", "and", "or",
	"not", "xor", "if", "elsif", "unless", "while", "until", "when", "print",
	"lt", "gt", "le", "ge", "eq", "ne", "cmp", "x", "defined", "ref", NULL
};

static const char *const quote_words[] = {
	"q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y", NULL
};

/*
 * What the previous significant token lets come next at p.  A '}' that
 * ends its line is taken to end a block, so a statement follows.
 */
static enum expect expecting(const struct lexer_state *ls, size_t p)
{
	const unsigned char *s = ls->src;
	size_t b = ls->u.perl.prev_start, len = ls->u.perl.prev_len;

	switch (ls->u.perl.prev) {	/* 0 at the start: default */
	case TOKEN_NUMBER:
	case TOKEN_STRING:
		return OPERATOR;
	case TOKEN_PUNCT:
		if (len == 1 && s[b] == '}')
			return memchr(s + b + 1, '\n', p - b - 1) ? TERM : OPERATOR;
		return len == 1 && (s[b] == ')' || s[b] == ']') ? OPERATOR : TERM;
	case TOKEN_WORD:
		if (s[b] == '$' || s[b] == '@' || s[b] == '%' || s[b] == '&' || s[b] == '*')
			return OPERATOR;
		return in_words(s, b, len, term_words) ? TERM : BAREWORD;
	default:
		return TERM;
	}
}

/* A name from p: identifier parts joined by "::", which may lead or trail. */
static size_t scan_name(const unsigned char *s, size_t p, size_t n)
{
	for (;;) {
		while (p < n && is_ident(s[p]))
			p++;
		if (p + 1 < n && s[p] == ':' && s[p + 1] == ':')
			p += 2;
		else
			return p;
	}
}

/* From the delimiter at p, the end of a part delimited by it (backslash escapes). */
static size_t scan_delimited(const unsigned char *s, size_t p, size_t n)
{
	unsigned char d = s[p];

	for (p++; p < n; p++) {
		if (s[p] == d)
			return p + 1;
		if (s[p] == '\\' && p + 1 < n)
			p++;
	}
	return n;
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

/* One part of a quote-like operator from its delimiter at p. */
static size_t scan_part(const unsigned char *s, size_t p, size_t n)
{
	unsigned char close = closing_bracket(s[p]);

	if (close)
		return lex_nested(s, p, n, s[p], close, LEX_NEST_ESCAPES, NULL);
	return scan_delimited(s, p, n);
}

/*
 * The quote-like operator whose word s[b..e) was just read: the end of the
 * whole construct, or 0 when the word is not used as one here.
 */
static size_t scan_quote_like(const struct lexer_state *ls, size_t b, size_t e)
{
	const unsigned char *s = ls->src;
	const struct lex_perl_state *pv = &ls->u.perl;
	size_t n = ls->len, d = e, len = e - b, pb = pv->prev_start;
	int two = word_is(s, b, len, "s") || word_is(s, b, len, "tr") || word_is(s, b, len, "y");
	int flags = two || word_is(s, b, len, "m") || word_is(s, b, len, "qr");
	unsigned char c;

	if (pv->prev == TOKEN_PUNCT && pv->prev_len == 2 && s[pb] == '-' && s[pb + 1] == '>')
		return 0;  /* a method: $obj->s(...) */
	if (pv->prev == TOKEN_WORD && word_is(s, pb, pv->prev_len, "sub"))
		return 0;
	while (d < n && lex_is_space(s[d]))
		d++;
	if (d >= n)
		return 0;
	c = s[d];
	if (pv->prev == TOKEN_PUNCT && pv->prev_len == 2 &&
	    (s[pb] == '=' || s[pb] == '!') && s[pb + 1] == '~') {
		if (d > e && (c == '#' || is_ident(c)))
			return 0;  /* after =~ any delimiter: s,a,b, */
	} else if (c == '=' || (c == ',' && d > e) || c == ';' || c == ')' || c == '}' ||
		   c == '>' || (d > e && (c == '#' || is_ident(c)))) {
		return 0;  /* but s,a,b, and qw,a b, as the core library writes them */
	}
	e = scan_part(s, d, n);
	if (two && e < n) {
		if (closing_bracket(c)) {
			while (e < n && lex_is_space(s[e]))
				e++;
			if (e < n)
				e = scan_part(s, e, n);
		} else {
			e = scan_delimited(s, e - 1, n);
		}
	}
	if (flags)
		while (e < n && is_alpha(s[e]))
			e++;
	return e;
}

/*
 * A here-document operator at p ("<<" then "~"?, and "EOF", "'EOF'",
 * '"EOF"', "`EOF`", "\EOF", or a quoted one after blanks): 1 and its end,
 * the delimiter and whether it is indented (<<~), or 0.
 */
static int heredoc_operator(const unsigned char *s, size_t p, size_t n, size_t *end,
			    size_t *dstart, size_t *dlen, int *indent)
{
	size_t q = p + 2, d;

	*indent = q < n && s[q] == '~';
	q += (size_t)*indent;
	if (q < n && s[q] == '\\')
		q++;
	else
		while (q < n && (s[q] == ' ' || s[q] == '\t'))
			q++;
	if (q < n && (s[q] == '"' || s[q] == '\'' || s[q] == '`')) {
		unsigned char quote = s[q];

		for (d = q + 1; d < n && s[d] != quote && s[d] != '\n'; d++)
			if (d - q > MAX_DELIM)
				return 0;
		if (d >= n || s[d] != quote)
			return 0;
		*dstart = q + 1;
		*dlen = d - q - 1;
		*end = d + 1;
		return 1;
	}
	if (q >= n || cclass[s[q]] != L_IDENT || (q > p + 2 + (size_t)*indent && s[q - 1] != '\\'))
		return 0;
	for (d = q; d < n && is_ident(s[d]); d++)
		if (d - q > MAX_DELIM)
			return 0;
	*dstart = q;
	*dlen = d - q;
	*end = d;
	return 1;
}

/*
 * May the "<<" at p open a here-document?  Where a term is expected; but
 * also after a variable ("print $fh <<EOF") unless blanks come before the
 * delimiter, since shifting by a string or a bareword makes no sense; not
 * after a number or a closing ')' or ']'.
 */
static int heredoc_allowed(const struct lexer_state *ls, size_t p)
{
	const unsigned char *s = ls->src;
	size_t b = ls->u.perl.prev_start;
	unsigned char c = p + 2 < ls->len ? s[p + 2] : 0;

	if (expecting(ls, p) != OPERATOR)
		return 1;
	if (ls->u.perl.prev == TOKEN_NUMBER ||
	    (ls->u.perl.prev == TOKEN_PUNCT && (s[b] == ')' || s[b] == ']')))
		return 0;
	return c == '"' || c == '\'' || c == '~' || cclass[c] == L_IDENT;
}

/* The end of the body of the oldest pending here-document, whose first line starts at p. */
static size_t heredoc_body(struct lexer_state *ls, size_t p)
{
	unsigned flags;
	size_t op = lex_heredoc_pop(&ls->u.perl.heredocs, &flags), end, dstart, dlen;
	int indent;

	if (!heredoc_operator(ls->src, op, ls->len, &end, &dstart, &dlen, &indent))
		return p;  /* cannot happen: it was checked when queued */
	return lex_heredoc(ls->src, p, ls->len, ls->src + dstart, dlen,
			   indent ? LEX_HEREDOC_INDENT : 0);
}

/*
 * POD from the '=' at the start of a line at p: through the "=cut" line,
 * or to the end of the file, without the whitespace that ends either.
 */
static size_t scan_pod(const unsigned char *s, size_t p, size_t n)
{
	size_t b = p, e;

	for (;;) {
		const unsigned char *nl = memchr(s + p, '\n', n - p);

		e = nl ? (size_t)(nl - s) : n;
		if (lex_starts(s, p, n, "=cut") && (p + 4 >= n || !is_ident(s[p + 4])))
			break;
		if (!nl)
			break;
		p = e + 1;
	}
	while (e > b + 1 && lex_is_space(s[e - 1]))
		e--;
	return e;
}

/* A number from the digit (or ".digit") at p, or a v-string's digits after "v". */
static size_t scan_number(const unsigned char *s, size_t p, size_t n)
{
	if (p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X' ||
					 s[p + 1] == 'b' || s[p + 1] == 'B')) {
		for (p += 2; p < n && (is_ident(s[p])); p++)
			;
		return p;
	}
	p = lex_digits(s, p, n, 10);
	while (p + 1 < n && s[p] == '.' && lex_is_digit(s[p + 1]))  /* 1.5, 1.2.3 */
		p = lex_digits(s, p + 1, n, 10);
	if (p + 1 < n && (s[p] == 'e' || s[p] == 'E')) {
		size_t q = p + 1;

		if (q + 1 < n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < n && lex_is_digit(s[q]))
			p = lex_digits(s, q, n, 10);
	}
	return p;
}

/* Does the byte after a '$' make a punctuation variable ($&, $/, $0, ...)? */
static inline int punct_var(unsigned char c)
{
	return c && strchr("&`'+!@/\\,;.<>()[]|?-~^=%:\"0", c) != NULL;
}

/* The variable at the sigil at p (p + 1 < n is not required). */
static size_t scan_variable(const unsigned char *s, size_t p, size_t n)
{
	unsigned char sigil = s[p], c = p + 1 < n ? s[p + 1] : 0;
	size_t q;

	if (sigil == '$' && c == '#') {
		if (p + 2 < n && (s[p + 2] == '{' || s[p + 2] == '$'))
			return p + 2;
		if (p + 2 < n && (cclass[s[p + 2]] == L_IDENT || s[p + 2] == ':'))
			return scan_name(s, p + 2, n);
		return p + 2;
	}
	if (c == '{') {  /* ${name}, ${^NAME}, or a cast */
		q = p + 2;
		while (q < n && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < n && s[q] == '^')
			q++;
		if (q < n && (cclass[s[q]] == L_IDENT || s[q] == ':')) {
			q = scan_name(s, q, n);
			while (q < n && (s[q] == ' ' || s[q] == '\t'))
				q++;
			if (q < n && s[q] == '}')
				return q + 1;
		}
		return p + 1;
	}
	if (c == '$') {
		if (sigil == '$' && !(p + 2 < n && (cclass[s[p + 2]] == L_IDENT ||
						  s[p + 2] == '{' || s[p + 2] == '$' || s[p + 2] == ':')))
			return p + 2;  /* $$, the process id */
		return p + 1;
	}
	if (c == '^' && p + 2 < n && ((s[p + 2] >= 'A' && s[p + 2] <= 'Z') || s[p + 2] == '_' ||
				      s[p + 2] == '[' || s[p + 2] == ']' || s[p + 2] == '?'))
		return p + 3;
	if (cclass[c] == L_IDENT || (c == ':' && p + 2 < n && s[p + 2] == ':'))
		return scan_name(s, p + 1, n);
	if (lex_is_digit(c)) {
		for (q = p + 1; q < n && lex_is_digit(s[q]); q++)
			;
		return sigil == '$' ? q : p + 1;
	}
	if (sigil == '$' && punct_var(c))
		return p + 2;
	if ((sigil == '@' || sigil == '%') && (c == '-' || c == '+' || (c == '!' && sigil == '%')))
		return p + 2;
	return p + 1;
}

/* A readline or glob <FH>, <$fh>, <>, <<>> at p: its end, or 0. */
static size_t scan_readline(const unsigned char *s, size_t p, size_t n)
{
	size_t q = p + 1;

	if (lex_starts(s, p, n, "<<>>"))
		return p + 4;
	if (q < n && s[q] == '$')
		q++;
	while (q < n && (is_ident(s[q]) || s[q] == ':'))
		q++;
	return q < n && s[q] == '>' ? q + 1 : 0;
}

/* A prototype "($$;@)" from the '(' at p: its end, or 0. */
static size_t scan_prototype(const unsigned char *s, size_t p, size_t n)
{
	size_t q;

	for (q = p + 1; q < n && q - p < 64; q++) {
		if (s[q] == ')')
			return q + 1;
		if (!strchr("$@%&*;\\[]+_ \t", s[q]) || !s[q])
			return 0;
	}
	return 0;
}

/* The operators of several bytes, for lex_punct. */
static const char *const puncts[128] = {
	/* comparison and matching */
	['<'] = "<=> <<= <= <<", ['>'] = ">>= >> >=", ['='] = "== => =~", ['!'] = "!= !~", ['~'] = "~~",
	/* arithmetic and logic, and their assignments */
	['*'] = "**= ** *=", ['/'] = "//= // /=", ['|'] = "||= || |=", ['&'] = "&&= && &=",
	['-'] = "-> -- -=", ['+'] = "++ +=", ['^'] = "^=", ['%'] = "%=",
	/* ranges, concatenation and packages */
	['.'] = "... .. .=", [':'] = "::",
};

/*
 * Past the whitespace at *p, and past the bodies of the pending
 * here-documents at the line break that starts them: 1 when one of those
 * bodies is the next token (s[*p..*end)), else 0.
 */
LEX_INLINE int skip_space(struct lexer_state *ls, size_t *p, size_t *end)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, q = *p;

	for (;;) {
		size_t b, e;

		while (q < n && cclass[s[q]] == L_SPACE && !(s[q] == '\n' && ls->u.perl.heredocs.count))
			q++;
		if (q >= n || s[q] != '\n')
			break;
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

/* Was the previous significant token the two bytes a b? */
static int prev_is_pair(const struct lexer_state *ls, unsigned char a, unsigned char b)
{
	const struct lex_perl_state *pv = &ls->u.perl;

	return pv->prev == TOKEN_PUNCT && pv->prev_len == 2 &&
		ls->src[pv->prev_start] == a && ls->src[pv->prev_start + 1] == b;
}

/* A postfix dereference after "->" at p (->@* ->$#* ->%*): its end, or 0. */
LEX_INLINE size_t scan_postfix_deref(const struct lexer_state *ls, size_t p)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e = p + 1;

	if (!prev_is_pair(ls, '-', '>') || !strchr("$@%&*", s[p]) || !s[p])
		return 0;
	if (s[p] == '$' && e < n && s[e] == '#')
		e++;
	return e < n && s[e] == '*' ? e + 1 : 0;
}

/* Is s[b..e) all digits? */
static int all_digits(const unsigned char *s, size_t b, size_t e)
{
	while (b < e && lex_is_digit(s[b]))
		b++;
	return b == e;
}

/*
 * The operator x where an operator is expected at p, the start of the
 * word s[p..e): "x4" (x and 4) and "x=": its end, or 0.
 */
static size_t scan_repetition(const struct lexer_state *ls, size_t p, size_t e)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	if (s[p] != 'x')
		return 0;
	if (e > p + 1 && all_digits(s, p + 1, e) && expecting(ls, p) == OPERATOR)
		return p + 1;
	if (e == p + 1 && e < n && s[e] == '=' &&
	    !(e + 1 < n && (s[e + 1] == '=' || s[e + 1] == '~' || s[e + 1] == '>')) &&
	    expecting(ls, p) == OPERATOR)
		return e + 1;
	return 0;
}

/* A bareword at p: a name, __END__ or __DATA__ and the rest of the file, a v-string. */
static size_t scan_bareword(const unsigned char *s, size_t p, size_t e, size_t n,
			    enum token_class *cls)
{
	e = scan_name(s, e, n);
	*cls = TOKEN_WORD;
	if (word_is(s, p, e - p, "__END__") || word_is(s, p, e - p, "__DATA__")) {
		*cls = s[p + 2] == 'E' ? TOKEN_COMMENT : TOKEN_STRING;
		for (e = n; e > p && lex_is_space(s[e - 1]); e--)
			;
	} else if (s[p] == 'v' && e - p >= 2 && lex_is_digit(s[p + 1]) && all_digits(s, p + 1, e) &&
		   e + 1 < n && s[e] == '.' && lex_is_digit(s[e + 1])) {
		e = scan_number(s, p + 1, n);  /* v5.36.0 */
		*cls = TOKEN_NUMBER;
	}
	return e;
}

/* The token from the identifier byte at p. */
static size_t word_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e, q;

	for (e = p + 1; e < n && is_ident(s[e]); e++)
		;
	if ((q = scan_repetition(ls, p, e))) {
		*cls = q == p + 1 ? TOKEN_WORD : TOKEN_PUNCT;
		return q;
	}
	if (in_words(s, p, e - p, quote_words) && !(e + 1 < n && s[e] == ':' && s[e + 1] == ':') &&
	    (q = scan_quote_like(ls, p, e))) {
		*cls = TOKEN_STRING;
		return q;
	}
	return scan_bareword(s, p, e, n, cls);
}

/* A variable from the sigil at p: a word, or the sigil alone (a cast) as a punctuator. */
static size_t variable_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	size_t e = scan_variable(s, p, n);

	*cls = e - p == 1 ? TOKEN_PUNCT : TOKEN_WORD;
	return e;
}

/* An operator at p. */
static size_t punct_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	*cls = TOKEN_PUNCT;
	return lex_punct(puncts, s, p, n);
}

/* % & * at p: the sigil of a variable where a term is expected, else an operator. */
static size_t sigil_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;
	unsigned char c = p + 1 < n ? s[p + 1] : 0;

	if (expecting(ls, p) != OPERATOR && p + 1 < n && c != s[p] &&
	    (cclass[c] == L_IDENT || c == '{' || c == '$' || c == ':' || c == '^' ||
	     (s[p] == '%' && (c == '+' || c == '-' || c == '!'))))
		return variable_token(s, p, n, cls);
	return punct_token(s, p, n, cls);
}

/* '=' at p: POD at the start of a line, else an operator. */
static size_t equals_token(const unsigned char *s, size_t p, size_t n, enum token_class *cls)
{
	if ((p == 0 || s[p - 1] == '\n') && p + 1 < n && is_alpha(s[p + 1])) {
		*cls = TOKEN_COMMENT;
		return scan_pod(s, p, n);
	}
	return punct_token(s, p, n, cls);
}

/* '/' at p: a regular expression where a term is expected, else an operator. */
static size_t slash_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e;

	if (expecting(ls, p) != TERM)
		return punct_token(s, p, n, cls);
	for (e = scan_delimited(s, p, n); e < n && is_alpha(s[e]); e++)
		;
	*cls = TOKEN_STRING;
	return e;
}

/* '<' at p: a here-document operator (queued), a readline <FH>, or an operator. */
static size_t lt_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len, e, dstart, dlen;
	int indent;

	*cls = TOKEN_STRING;
	if (p + 1 < n && s[p + 1] == '<' && heredoc_allowed(ls, p) &&
	    heredoc_operator(s, p, n, &e, &dstart, &dlen, &indent)) {
		lex_heredoc_push(&ls->u.perl.heredocs, p, 0, MAX_PENDING);
		return e;
	}
	if (expecting(ls, p) != OPERATOR && (e = scan_readline(s, p, n)))
		return e;
	return punct_token(s, p, n, cls);
}

/* '-' at p: where a term is expected a file test, a negative number or a -bareword; else minus. */
static size_t minus_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	if (expecting(ls, p) == OPERATOR || p + 1 >= n)
		return punct_token(s, p, n, cls);
	*cls = TOKEN_PUNCT;
	if (strchr("rwxoRWXOezsfdlpSbcugktTBAMC", s[p + 1]) && s[p + 1] &&
	    (p + 2 >= n || !is_ident(s[p + 2])) &&
	    !(p + 2 < n && (s[p + 2] == '>' || s[p + 2] == '=')))
		return p + 2;  /* a file test */
	if (lex_is_digit(s[p + 1])) {
		*cls = TOKEN_NUMBER;
		return scan_number(s, p + 1, n);
	}
	if (cclass[s[p + 1]] == L_IDENT) {
		*cls = TOKEN_WORD;
		return scan_name(s, p + 1, n);  /* -bareword, a string */
	}
	return punct_token(s, p, n, cls);
}

/* '(' at p: a prototype after "sub NAME" or "sub", else a parenthesis. */
static size_t lparen_token(const struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const struct lex_perl_state *pv = &ls->u.perl;
	size_t r;

	*cls = TOKEN_PUNCT;
	if (pv->prev == TOKEN_WORD &&
	    (word_is(ls->src, pv->prev_start, pv->prev_len, "sub") || pv->after_sub) &&
	    (r = scan_prototype(ls->src, p, ls->len)))
		return r;
	return p + 1;
}

/* The token at p, the first byte of one, decided by its class. */
LEX_INLINE size_t scan_token(struct lexer_state *ls, size_t p, enum token_class *cls)
{
	const unsigned char *s = ls->src;
	size_t n = ls->len;

	switch (cclass[s[p]]) {
	case L_IDENT:
		return word_token(ls, p, cls);
	case L_DOT:
		if (!(p + 1 < n && lex_is_digit(s[p + 1]) && expecting(ls, p) != OPERATOR))
			return punct_token(s, p, n, cls);
		/* fall through */
	case L_DIGIT:
		*cls = TOKEN_NUMBER;
		return scan_number(s, p, n);
	case L_DOLLAR:
	case L_AT:
		return variable_token(s, p, n, cls);
	case L_SIGIL:
		return sigil_token(ls, p, cls);
	case L_QUOTE:
		*cls = TOKEN_STRING;
		return lex_quoted(s, p, n, LEX_QUOTED_MULTILINE);
	case L_HASH:
		*cls = TOKEN_COMMENT;
		return lex_line_comment(s, p, n, 0);
	case L_EQUALS:
		return equals_token(s, p, n, cls);
	case L_SLASH:
		return slash_token(ls, p, cls);
	case L_LT:
		return lt_token(ls, p, cls);
	case L_MINUS:
		return minus_token(ls, p, cls);
	case L_LPAREN:
		return lparen_token(ls, p, cls);
	case L_PUNCT:
		return punct_token(s, p, n, cls);
	default:
		*cls = TOKEN_OTHER;
		return p + 1;
	}
}

/* s[p..e) of class cls is the previous significant token from now on. */
static void remember(struct lexer_state *ls, size_t p, size_t e, enum token_class cls)
{
	struct lex_perl_state *pv = &ls->u.perl;

	pv->after_sub = pv->prev == TOKEN_WORD && word_is(ls->src, pv->prev_start, pv->prev_len, "sub");
	pv->prev = cls;
	pv->prev_start = p;
	pv->prev_len = e - p;
}

LEX_TOKEN_FN perl_token(struct lexer_state *ls, struct token *tok)
{
	size_t p = ls->pos, e;
	enum token_class cls;

	if (skip_space(ls, &p, &e))  /* a here-document body: not significant */
		return lex_emit(ls, tok, p, e, TOKEN_STRING);
	if (p >= ls->len)
		return lex_end(ls);
	if ((e = scan_postfix_deref(ls, p)))
		cls = TOKEN_PUNCT;
	else
		e = scan_token(ls, p, &cls);
	/* comments and POD are not significant; __END__ is */
	if (cls != TOKEN_COMMENT || ls->src[p] == '_')
		remember(ls, p, e, cls);
	return lex_emit(ls, tok, p, e, cls);
}

LEX_DEFINE(lexer_perl, "perl", perl_token);
