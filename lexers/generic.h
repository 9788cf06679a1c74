/*
 * The generic lexer: one lexer for the long tail of languages, configured
 * by a table that names the language's comments, strings, operators and
 * extra word characters.  A language joins with a `const struct
 * generic_syntax` in lexers/generic.c, an extern line in lexers/lexers.h
 * and a row in lexers/languages.c naming &lexer_generic and the syntax.
 *
 * At each position, the first rule that applies makes the token:
 *
 *  1. comments, in the order listed (list "--[[" style variants and longer
 *     openers first); an opener that begins with a letter must start a word
 *     and one that ends with a letter must end one ("dnl", "=begin");
 *  2. long brackets, with GEN_LONG_BRACKETS: "[[ ... ]]", "[==[ ... ]==]"
 *     are one string token (Lua's long strings, CMake's bracket arguments);
 *  3. strings, in the order listed (list '"""' before '"');
 *  3a. with GEN_SLASH_REGEX, a regular expression "/.../" (see below);
 *  4. with GEN_BACKSLASH_ESCAPE, a backslash and the byte after it (unless
 *     that is whitespace or starts a UTF-8 sequence) are one token: "\#";
 *  5. a word: a run of letters, digits, '_', bytes >= 0x80 and the extra
 *     word bytes, optionally ended by one suffix byte not followed by
 *     '=' (Ruby's "empty?" but "a!=b"); one that starts with a digit is a
 *     number, which also takes a '.' before a digit and an exponent sign
 *     ("1.5e-3", "0x1F", "10px");
 *  6. an operator: the longest listed one that matches;
 *  7. any other byte, alone (punctuation, or "other" for control bytes).
 */
#ifndef GENERIC_H
#define GENERIC_H

/* Where a comment opener counts (flags may be combined, all must hold). */
enum {
	GC_LINE_START = 1 << 0,   /* first non-blank of its line, or after a GB_SEP byte */
	GC_COLUMN0 = 1 << 1,      /* at the very start of its line */
	GC_WORD_START = 1 << 2,   /* at the start of the file or after whitespace */
	GC_BEFORE_SPACE = 1 << 3, /* followed by whitespace or the end of the file */
	GC_NEST = 1 << 4,         /* a block comment whose openers nest */
	GC_LONG_BRACKET = 1 << 5, /* a line comment opener followed by a long
				     bracket is a long comment: Lua's "--[[",
				     CMake's "#[[" */
	GC_CLOSE_LINE = 1 << 6,   /* the rest of the closer's line is comment too
				     (Ruby's "=end") */
	GC_SPLICE = 1 << 7,       /* a backslash at the end of the line continues
				     a line comment (make) */
	GC_FILE_START = 1 << 8    /* only at the start of the file (Lua skips a
				     first line starting with '#', for "#!") */
};

struct generic_comment {
	const char *open;
	const char *close; /* NULL: a line comment */
	unsigned flags;
};

enum {
	GS_BACKSLASH = 1 << 0,   /* backslash escapes the next byte */
	GS_DOUBLED = 1 << 1,     /* a doubled closer stands for itself: 'it''s' */
	GS_MULTILINE = 1 << 2,   /* may span lines; unterminated, it runs to the
				    end of the file (otherwise to the end of its line) */
	GS_NOT_IN_WORD = 1 << 3, /* not right after a word byte: "don't" has no quote */
	GS_IN_TAG = 1 << 4       /* GEN_MARKUP only: only inside a <tag> */
};

struct generic_string {
	const char *open;
	const char *close; /* NULL: the same as open */
	unsigned flags;
};

enum {
	GEN_LONG_BRACKETS = 1 << 0,
	GEN_BACKSLASH_ESCAPE = 1 << 1,
	/*
	 * HTML and XML: a '<' that starts a tag ("<a", "</", "<!", "<?")
	 * enters the tag, a punctuation token ending in '>' leaves it; the
	 * GS_IN_TAG strings are recognised only inside, so that the
	 * apostrophes of the text are not quotes.
	 */
	GEN_MARKUP = 1 << 2,
	/*
	 * awk: a '/' where an operand may start (not after a word,
	 * number, string, ')' or ']') opens a regular expression, one string
	 * token up to the next '/' on its line that is neither escaped nor in
	 * a [...] class; with no such '/' on the line, the '/' is division.
	 */
	GEN_SLASH_REGEX = 1 << 3
};

/* What a byte is, in a syntax's bytes[] table (GENERIC_BYTES). */
enum {
	GB_WORD = 1 << 0,
	GB_DIGIT = 1 << 1,   /* a word that starts with one is a number */
	GB_SUFFIX = 1 << 2,  /* may end a word */
	GB_SEP = 1 << 3,     /* starts a command: GC_LINE_START holds after it */
	GB_OPEN = 1 << 4     /* may start a comment or string opener */
};

/*
 * The bytes[] of a syntax whose words also take the bytes for which word
 * is true (letters, digits, '_' and bytes >= 0x80 are word bytes in every
 * syntax), whose words may end in one byte for which suffix is true, whose
 * commands start after a byte for which sep is true, and one of whose
 * comment or string openers starts with a word byte for which opens is
 * true ("dnl"): constant expressions of c, for LEX_TABLE.  Any byte but a
 * word byte may start an opener; so that words (most tokens) need not
 * look for one, a word byte that does must be named in opens.
 */
#define GENERIC_BYTES(c, word, suffix, sep, opens) \
	((LEX_IS_IDENT(c) || (word) ? GB_WORD : LEX_IS_DIGIT(c) ? GB_WORD | GB_DIGIT : GB_OPEN) | \
	 ((suffix) ? GB_SUFFIX : 0) | ((sep) ? GB_SEP : 0) | ((opens) ? GB_OPEN : 0))
#define GENERIC_PLAIN_BYTES(c) GENERIC_BYTES(c, 0, 0, 0, 0)

#define GENERIC_MAX_COMMENTS 6
#define GENERIC_MAX_STRINGS 6

struct generic_syntax {
	const char *name;
	struct generic_comment comments[GENERIC_MAX_COMMENTS]; /* up to open == NULL */
	struct generic_string strings[GENERIC_MAX_STRINGS];    /* up to open == NULL */
	/* operators of several bytes, as lex_punct takes them: by first byte, longest first */
	const char *operators[128];
	unsigned char bytes[256];  /* LEX_TABLE of GENERIC_BYTES */
	unsigned flags;
};

#endif
