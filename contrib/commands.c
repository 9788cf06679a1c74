/*
 * tokstream's entry point: the global options, then the command table.
 *
 * As in Git's git.c, options that concern every command are parsed once,
 * here, before the command's name; a command parses only its own.  With
 * no command name, tokstream is the filter between git fast-export and
 * git fast-import (fastexport.c), whose options all start with '-'.
 */
#include "commands.h"
#include "../tokenize/usage.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The command takes -C DEST: a global -C is handed to it. */
#define USE_DEST (1u << 0)

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned flags;
	const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct cmd_struct commands[] = {
	{ "blame", cmd_blame, USE_DEST, "Show the commit and author of every token of a file" },
	{ "convert", cmd_convert, 0, "Create or update the token repository of one or more repositories" },
	{ "help", cmd_help, 0, "List the commands, or show the usage of one" },
	{ "html", cmd_html, USE_DEST, "Write browsable pages of token ownership" },
	{ "map", cmd_map, USE_DEST, "Translate commit ids between a source and its token repository" },
	{ "report", cmd_report, USE_DEST, "Write the authorship report of a revision: tables and a page" },
};

static const char tokstream_usage[] =
	"usage: tokstream [-C DEST] <command> [<args>]\n"
	"   or: git fast-export ... | tokstream [FILTER-OPTIONS] | git fast-import\n"
	"\n"
	"    -C DEST     the token repository, for the commands that read one\n"
	"                (default: found from the current directory)\n";

static const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(FILE *out)
{
	size_t i;

	fputs(tokstream_usage, out);
	fputs("\nThe commands:\n", out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'tokstream help <command>' shows a command's usage. With no command,\n"
	      "tokstream filters a fast-export stream:\n\n", out);
	filter_usage(out);
}

/* tokstream help [COMMAND]: the list, or the command's own -h. */
static const char help_usage[] = "usage: tokstream help [COMMAND]\n";

static int cmd_help(int argc, char **argv)
{
	const struct cmd_struct *cmd;
	char *cmd_argv[3];

	if (argc < 2) {
		list_commands(stdout);
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
		die("'%s' is not a tokstream command. See 'tokstream help'.", argv[1]);
	if (cmd->fn == cmd_help) {
		fputs(help_usage, stdout);
		return 0;
	}
	cmd_argv[0] = argv[1];
	cmd_argv[1] = "-h";
	cmd_argv[2] = NULL;
	return cmd->fn(2, cmd_argv);
}

/* argv with "-C DEST" put right after the command's name. */
static char **with_dest(int argc, char **argv, const char *dest)
{
	char **v = xcalloc((size_t)argc + 3, sizeof(*v));

	v[0] = argv[0];
	v[1] = "-C";
	v[2] = (char *)dest;
	memcpy(v + 3, argv + 1, (size_t)(argc - 1) * sizeof(*v));
	return v;
}

int main(int argc, char **argv)
{
	const char *dest = NULL;
	const struct cmd_struct *cmd;

	progname = "tokstream";
	signal(SIGPIPE, SIG_IGN);
	argc--;
	argv++;
	while (argc > 0) {
		if (!strcmp(argv[0], "-C")) {
			if (argc < 2)
				usage_die(tokstream_usage, "-C needs a token repository");
			dest = argv[1];
			argc -= 2;
			argv += 2;
		} else if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
			if (dest || argc > 1)
				break;
			list_commands(stdout);
			return 0;
		} else {
			break;
		}
	}
	if (argc == 0 || argv[0][0] == '-') {
		if (dest)
			usage_die(tokstream_usage, "-C DEST needs a command (see 'tokstream help')");
		/* the filter: argv[0] is the program, its options follow */
		return cmd_filter(argc + 1, argv - 1);
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		die("'%s' is not a tokstream command. See 'tokstream help'.", argv[0]);
	if (dest) {
		if (!(cmd->flags & USE_DEST))
			usage_die(tokstream_usage, "'%s' takes no -C DEST%s", cmd->name,
				  cmd->fn == cmd_convert ? " (DEST is its last argument)" : "");
		return cmd->fn(argc + 2, with_dest(argc, argv, dest));
	}
	return cmd->fn(argc, argv);
}
