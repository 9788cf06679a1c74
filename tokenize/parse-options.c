/*
 * The option parser of every command (parse-options.h), after Git's
 * parse-options.c: a table says what each option is, and this file
 * alone knows how an option is spelled, how its value is given, and
 * what a number is.
 */
#include "parse-options.h"
#include "parse.h"
#include "strbuf.h"
#include "usage.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The width of the options' column in the usage, as Git's. */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

/* The option being parsed, as given ("-j", "--top"), and a callback's error. */
static const char *current_name;
static struct strbuf error_msg = STRBUF_INIT;

int parse_opt_error(const struct option *opt, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&error_msg);
	if (current_name)
		strbuf_addf(&error_msg, "%s ", current_name);
	else if (opt->long_name)
		strbuf_addf(&error_msg, "--%s ", opt->long_name);
	else
		strbuf_addf(&error_msg, "-%c ", opt->short_name);
	va_start(ap, fmt);
	strbuf_vaddf(&error_msg, fmt, ap);
	va_end(ap);
	return -1;
}

int parse_opt_number(const struct option *opt, const char *arg, uintmax_t min, uintmax_t max,
		     uintmax_t *v)
{
	const char *end;

	if (*arg >= '0' && *arg <= '9' && (end = scan_decimal(arg, v)) && !*end &&
	    *v >= min && *v <= max)
		return 0;
	if ((max == UINTMAX_MAX || max == SIZE_MAX || max == INT_MAX) && !min)
		return parse_opt_error(opt, "takes a number, not '%s'", arg);
	if (max == UINTMAX_MAX || max == SIZE_MAX || max == INT_MAX)
		return parse_opt_error(opt, "takes a number of at least %ju, not '%s'", min, arg);
	return parse_opt_error(opt, "takes a number from %ju to %ju, not '%s'", min, max, arg);
}

/* "commit, author or age" */
static void add_choices(struct strbuf *sb, const char *const *choices)
{
	size_t i;

	for (i = 0; choices[i]; i++)
		strbuf_addf(sb, "%s%s", !i ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
}

static int takes_value(const struct option *opt)
{
	switch (opt->type) {
	case OPTION_SET_INT:
		return 0;
	case OPTION_CALLBACK:
	case OPTION_LOWLEVEL_CALLBACK:
		return !(opt->flags & PARSE_OPT_NOARG);
	default:
		return 1;
	}
}

/* The value of opt, or -1 with the error recorded. */
static int set_value(const struct option *opt, const char *arg, int unset)
{
	uintmax_t n;
	size_t i;

	switch (opt->type) {
	case OPTION_SET_INT:
		*(int *)opt->value = unset ? 0 : (int)opt->defval;
		return 0;
	case OPTION_INTEGER:
		if (parse_opt_number(opt, arg, opt->min, opt->max, &n))
			return -1;
		*(int *)opt->value = (int)n;
		return 0;
	case OPTION_SIZE_T:
		if (parse_opt_number(opt, arg, opt->min, opt->max, &n))
			return -1;
		*(size_t *)opt->value = (size_t)n;
		return 0;
	case OPTION_STRING:
		*(const char **)opt->value = unset ? NULL : arg;
		return 0;
	case OPTION_CHOICE:
		if (!arg) {
			*(int *)opt->value = (int)opt->defval;
			return 0;
		}
		for (i = 0; opt->choices[i]; i++)
			if (!strcmp(arg, opt->choices[i])) {
				*(int *)opt->value = (int)i;
				return 0;
			}
		{
			struct strbuf sb = STRBUF_INIT;
			int ret;

			add_choices(&sb, opt->choices);
			ret = parse_opt_error(opt, "takes %s, not '%s'", sb.buf, arg);
			strbuf_release(&sb);
			return ret;
		}
	case OPTION_CALLBACK:
		return opt->callback(opt, arg, unset);
	default:
		BUG("option type %d has no value to set", (int)opt->type);
	}
}

const char *parse_opt_next_arg(struct parse_opt_ctx *ctx)
{
	if (!ctx->argc)
		return NULL;
	ctx->argc--;
	return *ctx->argv++;
}

/*
 * Runs opt, found as spelled in ctx->opt_name: arg is what came after
 * '=' or stuck to a short option (NULL: nothing).  -1 on an error.
 */
static int run_option(struct parse_opt_ctx *ctx, const struct option *opt, const char *arg, int unset)
{
	current_name = ctx->opt_name;
	if (unset && (opt->flags & PARSE_OPT_NONEG))
		return parse_opt_error(opt, "cannot be negated");
	if (unset && arg)
		return parse_opt_error(opt, "takes no value");
	if (!takes_value(opt) && arg)
		return parse_opt_error(opt, "takes no value");
	if (opt->type == OPTION_LOWLEVEL_CALLBACK)
		return opt->ll_callback(ctx, opt, arg, unset);
	if (takes_value(opt) && !arg && !unset && !(opt->flags & PARSE_OPT_OPTARG)) {
		arg = parse_opt_next_arg(ctx);
		if (!arg)
			return parse_opt_error(opt, "needs a value%s%s", opt->argh ? ", " : "",
					       opt->argh ? opt->argh : "");
	}
	return set_value(opt, arg, unset);
}

static _Noreturn void die_option_error(struct parse_opt_ctx *ctx)
{
	usage_msg_opt(error_msg.buf, ctx->usage, ctx->options);
}

/* --NAME[=VALUE] or --no-NAME, at arg (past the "--"); -2 when there is no such option. */
static int parse_long(struct parse_opt_ctx *ctx, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *opt;
	int unset;

	for (unset = 0; unset < 2; unset++) {
		const char *name = arg + (unset ? 3 : 0);
		size_t n = len - (unset ? 3 : 0);

		if (unset && (len < 3 || strncmp(arg, "no-", 3)))
			break;
		for (opt = ctx->options; opt->type != OPTION_END; opt++) {
			if (!opt->long_name || strlen(opt->long_name) != n || strncmp(opt->long_name, name, n))
				continue;
			if (unset && (opt->flags & PARSE_OPT_NONEG))
				continue;
			if (run_option(ctx, opt, eq ? eq + 1 : NULL, unset))
				die_option_error(ctx);
			return 0;
		}
	}
	return -2;
}

/*
 * -x..., at arg (past the "-"): flags, the last may take the rest as its
 * value; -2 when the first is no option.
 */
static int parse_short(struct parse_opt_ctx *ctx, const char *arg)
{
	static char name[3] = "-?";
	const char *first = arg;

	while (*arg) {
		const struct option *opt;

		for (opt = ctx->options; opt->type != OPTION_END; opt++)
			if (opt->short_name && opt->short_name == *arg)
				break;
		name[1] = *arg;
		ctx->opt_name = name;
		if (opt->type == OPTION_END) {
			if (arg == first)
				return -2;
			strbuf_reset(&error_msg);
			strbuf_addf(&error_msg, "unknown option '%s'", name);
			die_option_error(ctx);
		}
		arg++;
		if (takes_value(opt)) {
			if (run_option(ctx, opt, *arg ? arg : NULL, 0))
				die_option_error(ctx);
			return 0;
		}
		if (run_option(ctx, opt, NULL, 0))
			die_option_error(ctx);
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct option *options,
		  const char *const *usage, unsigned flags)
{
	struct parse_opt_ctx ctx;
	char **out = argv;

	memset(&ctx, 0, sizeof(ctx));
	ctx.argv = argv + 1;
	ctx.argc = argc - 1;
	ctx.usage = usage;
	ctx.options = options;
	while (ctx.argc) {
		const char *arg = parse_opt_next_arg(&ctx);
		int known;

		if (arg[0] != '-' || !arg[1]) {
			out[ctx.nr_out++] = (char *)arg;
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			continue;
		}
		if (!strcmp(arg, "--"))
			break;
		if (!(flags & PARSE_OPT_NO_INTERNAL_HELP) && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			usage_with_options(usage, options);
			exit(0);
		}
		if (arg[1] == '-') {
			/* the name without its value, for the messages */
			struct strbuf name = STRBUF_INIT;

			strbuf_add(&name, arg, strcspn(arg, "="));
			ctx.opt_name = name.buf;
			known = parse_long(&ctx, arg + 2);
			strbuf_release(&name);
		} else {
			known = parse_short(&ctx, arg + 1);
		}
		current_name = NULL;
		if (known == -2 && (flags & PARSE_OPT_STOP_AT_UNKNOWN)) {
			/* it stays, with everything after it */
			ctx.argv--;
			ctx.argc++;
			break;
		}
		if (known == -2) {
			strbuf_reset(&error_msg);
			strbuf_addf(&error_msg, "unknown option '%.*s'", (int)strcspn(arg, "="), arg);
			die_option_error(&ctx);
		}
	}
	while (ctx.argc)
		out[ctx.nr_out++] = (char *)parse_opt_next_arg(&ctx);
	out[ctx.nr_out] = NULL;
	return ctx.nr_out;
}

/* ---- the usage ---------------------------------------------------------- */

/* "-j N", "--top=N", "--[no-]progress", "-q, --quiet", "--replay[=WHEN]" */
static void option_spelling(struct strbuf *sb, const struct option *opt)
{
	int value = takes_value(opt) && opt->argh;

	if (opt->short_name)
		strbuf_addf(sb, "-%c", opt->short_name);
	if (opt->short_name && opt->long_name)
		strbuf_addstr(sb, ", ");
	if (opt->long_name)
		strbuf_addf(sb, "--%s%s", opt->flags & PARSE_OPT_NONEG ||
			    opt->type != OPTION_SET_INT ? "" : "[no-]", opt->long_name);
	if (!value)
		return;
	if (opt->flags & PARSE_OPT_OPTARG)
		strbuf_addf(sb, "[=%s]", opt->argh);
	else if (opt->long_name)
		strbuf_addf(sb, "=%s", opt->argh);
	else
		strbuf_addf(sb, " %s", opt->argh);
}

static void print_usage(struct strbuf *out, const char *const *usage, const struct option *options)
{
	const struct option *opt;
	size_t i;

	for (i = 0; usage[i] && *usage[i]; i++)
		strbuf_addf(out, "%s%s\n", i ? "   or: " : "usage: ", usage[i]);
	/* after an empty line, what the command does */
	if (usage[i])
		for (i++; usage[i]; i++)
			strbuf_addf(out, "\n%s\n", usage[i]);
	if (options->type != OPTION_END && options->type != OPTION_GROUP)
		strbuf_addch(out, '\n');
	for (opt = options; opt->type != OPTION_END; opt++) {
		const char *h = opt->help ? opt->help : "", *nl;
		size_t start = out->len;

		if (opt->type == OPTION_GROUP) {
			strbuf_addf(out, "\n%s\n", h);
			continue;
		}
		if (opt->flags & PARSE_OPT_HIDDEN)
			continue;
		strbuf_addstr(out, "    ");
		option_spelling(out, opt);
		/* the help in its column, or under a spelling too long for it */
		if (out->len - start > USAGE_OPTS_WIDTH + 4) {
			strbuf_addch(out, '\n');
			start = out->len;
		}
		while (out->len - start < USAGE_OPTS_WIDTH + 4 + USAGE_GAP)
			strbuf_addch(out, ' ');
		/* each line of the help under the first */
		while ((nl = strchr(h, '\n'))) {
			strbuf_addf(out, "%.*s\n%*s", (int)(nl - h), h, USAGE_OPTS_WIDTH + 4 + USAGE_GAP, "");
			h = nl + 1;
		}
		strbuf_addf(out, "%s\n", h);
	}
}

void usage_with_options(const char *const *usage, const struct option *options)
{
	struct strbuf sb = STRBUF_INIT;

	print_usage(&sb, usage, options);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

void usage_msg_opt(const char *msg, const char *const *usage, const struct option *options)
{
	struct strbuf sb = STRBUF_INIT;

	print_usage(&sb, usage, options);
	usage_die(sb.buf, "%s", msg);
}
