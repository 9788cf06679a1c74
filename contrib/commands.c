/*
 * tokstream's entry point: the global options, then the command table.
 *
 * As in Git's git.c, options that concern every command are parsed once,
 * here, before the command's name; a command parses only its own.  With
 * no command name, tokstream is the filter between git fast-export and
 * git fast-import (fastexport.c), whose options all start with '-'.
 */
#include "commands.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/strbuf.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version, as the Makefile found it (git describe, or its VERSION). */
#ifndef TOKSTREAM_VERSION
#define TOKSTREAM_VERSION "unknown"
#endif
static const char tokstream_version[] = TOKSTREAM_VERSION;

/* The command takes -C DEST: a global -C is handed to it. */
#define USE_DEST (1u << 0)
/* The command takes --source SRC: a global --source is handed to it. */
#define USE_SOURCE (1u << 1)

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned flags;
	const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct cmd_struct commands[] = {
	{ "blame", cmd_blame, USE_DEST | USE_SOURCE, "Show the commit and author of every token of a file" },
	{ "convert", cmd_convert, 0, "Create or update the token repository of one or more repositories" },
	{ "help", cmd_help, 0, "List the commands, or show the usage of one" },
	{ "html", cmd_html, USE_DEST | USE_SOURCE, "Write browsable pages of token ownership" },
	{ "map", cmd_map, USE_DEST, "Translate commit ids between a source and its token repository" },
	{ "report", cmd_report, USE_DEST | USE_SOURCE, "Write the authorship report of a revision: tables and a page" },
};

/* What -C and --source before the command's name give it. */
struct global_options {
	const char *dest, *source;
	int help, version;
};

static const char *const tokstream_usage[] = {
	"tokstream [-C DEST] [--source SRC] <command> [<args>]",
	"git fast-export ... | tokstream [FILTER-OPTIONS] | git fast-import",
	"tokstream --version",
	NULL
};

static const struct option *global_options(struct global_options *g)
{
	static struct option options[6];
	const struct option table[] = {
		OPT_STRING('C', NULL, &g->dest, "DEST",
			   "the token repository, for the commands that read one\n"
			   "(default: found from the current directory)"),
		OPT_STRING(0, "source", &g->source, "SRC", "the original repository, for blame, html and report"),
		OPT_FLAG('h', "help", &g->help, "list the commands, and the filter's options"),
		OPT_FLAG(0, "version", &g->version, "print tokstream's version"),
		OPT_END(),
	};

	memcpy(options, table, sizeof(table));
	return options;
}

static const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(void)
{
	struct global_options g;
	size_t i;

	memset(&g, 0, sizeof(g));
	usage_with_options(tokstream_usage, global_options(&g));
	printf("\nThe commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("   %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'tokstream help <command>' shows a command's usage. With no command,\n"
	      "tokstream filters a fast-export stream:\n\n", stdout);
	filter_usage(stdout);
}

/* tokstream help [COMMAND]: the list, or the command's own -h. */
static const char help_usage[] = "usage: tokstream help [COMMAND]\n";

static int cmd_help(int argc, char **argv)
{
	const struct cmd_struct *cmd;

	if (argc < 2) {
		list_commands();
		return 0;
	}
	if (argc > 2)
		usage_die(help_usage, "too many arguments");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help_usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "filter")) {
		filter_usage(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		usage_die("", "'%s' is not a tokstream command. See 'tokstream help'.", argv[1]);
	if (cmd->fn == cmd_help) {
		fputs(help_usage, stdout);
		return 0;
	}
	{
		char *cmd_argv[] = { argv[1], "-h", NULL };

		return cmd->fn(2, cmd_argv);
	}
}

/*
 * Runs cmd on argv with "-C DEST" and "--source=SRC", when given, put
 * right after the command's name.  The vector is left to the end of the
 * process: the command's parse_options() reorders its strings in place.
 */
static int run_with_globals(const struct cmd_struct *cmd, int argc, char **argv,
			    const struct global_options *g)
{
	struct strvec args = STRVEC_INIT;
	int i;

	strvec_push(&args, argv[0]);
	if (g->dest)
		strvec_pushl(&args, "-C", g->dest, NULL);
	if (g->source)
		strvec_pushf(&args, "--source=%s", g->source);
	for (i = 1; i < argc; i++)
		strvec_push(&args, argv[i]);
	return cmd->fn((int)args.nr, (char **)args.v);
}

int main(int argc, char **argv)
{
	struct global_options g;
	const struct option *options;
	const struct cmd_struct *cmd;
	struct strvec filter_argv = STRVEC_INIT;
	int n;

	progname = "tokstream";
	signal(SIGPIPE, SIG_IGN);
	memset(&g, 0, sizeof(g));
	options = global_options(&g);
	/* the filter's options are the filter's, its --source too: argv as it came */
	strvec_pushv(&filter_argv, (const char **)argv);
	n = parse_options(argc, argv, options, tokstream_usage,
			  PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_STOP_AT_UNKNOWN | PARSE_OPT_NO_INTERNAL_HELP);
	if (g.version) {
		printf("tokstream version %s\n", tokstream_version);
		return 0;
	}
	if (g.help) {
		list_commands();
		return 0;
	}
	if (n == 0 || argv[0][0] == '-') {
		if (g.dest)
			usage_msg_opt(n ? xstrfmt("-C DEST needs a command (see 'tokstream help'), "
						  "not the option '%s'", argv[0])
					: "-C DEST needs a command (see 'tokstream help')",
				      tokstream_usage, options);
		/* the filter: argv[0] is the program, its options follow */
		return cmd_filter(argc, (char **)filter_argv.v);
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		usage_die("", "'%s' is not a tokstream command. See 'tokstream help'.", argv[0]);
	if (g.dest && !(cmd->flags & USE_DEST))
		usage_msg_opt(xstrfmt("'%s' takes no -C DEST%s", cmd->name,
				      cmd->fn == cmd_convert ? " (DEST is its last argument)" : ""),
			      tokstream_usage, options);
	if (g.source && !(cmd->flags & USE_SOURCE))
		usage_msg_opt(xstrfmt("'%s' takes no --source", cmd->name), tokstream_usage, options);
	if (g.dest || g.source)
		return run_with_globals(cmd, n, argv, &g);
	return cmd->fn(n, argv);
}
