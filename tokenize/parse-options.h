/*
 * Command-line options, parsed from one table per command, in the manner
 * of Git's parse-options:
 *
 *   --name=VALUE and --name VALUE (an optional value: only --name=VALUE),
 *   -x VALUE and -xVALUE, flags bundled (-wM, -qj4),
 *   --no-name where the option allows it,
 *   -- ends the options,
 *   -h and --help print the usage, made from the table, and exit 0.
 *
 * Numbers are whole decimal numbers within the option's range, nothing
 * else: "2x", "-1", "", "lots" and values past the range are usage
 * errors.  Every usage error is one "tokstream: error: ..." line that
 * names the option and what is wrong, then the usage, and exit 129.
 */
#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,             /* a heading in the usage (help); no option */
	OPTION_SET_INT,           /* *(int *)value = defval; --no-NAME: 0 */
	OPTION_INTEGER,           /* *(int *)value: a number from min to max */
	OPTION_SIZE_T,            /* *(size_t *)value: a number from min to max */
	OPTION_STRING,            /* *(const char **)value */
	OPTION_CHOICE,            /* *(int *)value: the index of the value in choices */
	OPTION_CALLBACK,          /* callback(opt, arg, unset) */
	OPTION_LOWLEVEL_CALLBACK, /* ll_callback(ctx, opt, arg, unset): may take more of argv */
};

/* The option has no --no-NAME form. */
#define PARSE_OPT_NONEG (1u << 0)
/* A callback that takes no value. */
#define PARSE_OPT_NOARG (1u << 1)
/* The value is optional, and given only as --name=VALUE; without it, defval (CHOICE) or NULL. */
#define PARSE_OPT_OPTARG (1u << 2)
/* Not listed in the usage. */
#define PARSE_OPT_HIDDEN (1u << 3)

struct option;
struct parse_opt_ctx;

/*
 * A callback's arg is the value (NULL for a NOARG option, an optional
 * value not given, or --no-NAME, when unset is 1).  It returns 0, or
 * parse_opt_error()'s -1.
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);
typedef int parse_opt_ll_cb(struct parse_opt_ctx *ctx, const struct option *opt, const char *arg,
			    int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;         /* the value's name in the usage ("N", "DEST") */
	const char *help;         /* may hold '\n': each line under the one before */
	unsigned flags;
	intmax_t defval;          /* SET_INT's value; an OPTARG CHOICE's without a value */
	uintmax_t min, max;       /* INTEGER's and SIZE_T's range */
	const char *const *choices;  /* CHOICE's values, NULL-terminated */
	parse_opt_cb *callback;
	parse_opt_ll_cb *ll_callback;
};

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
#define OPT_SET_INT_F(s, l, v, h, i, f) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .help = (h), .defval = (i), .flags = (f) }
/* A flag: 1 when given, 0 with --no-NAME. */
#define OPT_BOOL(s, l, v, h) OPT_SET_INT_F(s, l, v, h, 1, 0)
/* A flag with no --no-NAME form. */
#define OPT_FLAG(s, l, v, h) OPT_SET_INT_F(s, l, v, h, 1, PARSE_OPT_NONEG)
#define OPT_SET_INT(s, l, v, h, i) OPT_SET_INT_F(s, l, v, h, i, PARSE_OPT_NONEG)
#define OPT_INTEGER(s, l, v, a, h, lo, hi) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .flags = PARSE_OPT_NONEG, .min = (lo), .max = (hi) }
#define OPT_SIZE_T(s, l, v, a, h, lo, hi) \
	{ .type = OPTION_SIZE_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .flags = PARSE_OPT_NONEG, .min = (lo), .max = (hi) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .flags = PARSE_OPT_NONEG }
#define OPT_CHOICE(s, l, v, a, h, c) \
	{ .type = OPTION_CHOICE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .flags = PARSE_OPT_NONEG, .choices = (c) }
#define OPT_CALLBACK_F(s, l, v, a, h, f, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .flags = (f), .callback = (cb) }
#define OPT_CALLBACK(s, l, v, a, h, cb) OPT_CALLBACK_F(s, l, v, a, h, PARSE_OPT_NONEG, cb)
#define OPT_LOWLEVEL_CALLBACK(s, l, v, a, h, f, cb) \
	{ .type = OPTION_LOWLEVEL_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = (f), .ll_callback = (cb) }

/* parse_options() stops at the first argument that is no option (else it goes on past it). */
#define PARSE_OPT_STOP_AT_NON_OPTION (1u << 0)
/* It stops at an option the table does not have, kept with the rest (else: a usage error). */
#define PARSE_OPT_STOP_AT_UNKNOWN (1u << 1)
/* -h and --help are the table's, if it has them (else: the usage, and exit 0). */
#define PARSE_OPT_NO_INTERNAL_HELP (1u << 2)

/* Where a parse is: what a low-level callback may look at and take. */
struct parse_opt_ctx {
	char **argv;              /* the arguments not looked at yet */
	int argc;
	int nr_out;               /* the non-options kept so far */
	const char *const *usage;
	const struct option *options;
	const char *opt_name;     /* the option being parsed, as given: "-j", "--top" */
};

/*
 * Parses argv[1..argc) (argv[0] is the command's name) by options, and
 * returns how many arguments that are no options remain, moved to
 * argv[0...], in their order.  Dies (exit 129) on a usage error; prints
 * the usage and exits 0 on -h or --help.
 */
int parse_options(int argc, char **argv, const struct option *options,
		  const char *const *usage, unsigned flags);

/* For a low-level callback: the next argument, taken (NULL at the end). */
const char *parse_opt_next_arg(struct parse_opt_ctx *ctx);

/*
 * For a callback: records the message, "OPTION " and then fmt, that the
 * usage error will give; returns -1.
 */
int parse_opt_error(const struct option *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * For a callback: arg as a whole number from min to max into *v; -1
 * (with the error recorded) when it is none.
 */
int parse_opt_number(const struct option *opt, const char *arg, uintmax_t min, uintmax_t max,
		     uintmax_t *v);

/* The usage, made from the table: on stdout, or on stderr after "error: MSG" with exit 129. */
void usage_with_options(const char *const *usage, const struct option *options);
_Noreturn void usage_msg_opt(const char *msg, const char *const *usage, const struct option *options);

#endif
