/*
 * tokstream's commands: the filter (fastexport.c) and the subcommands
 * built on top of it, as the command table (commands.c) runs them.
 * Each takes its own argv, argv[0] being its name.
 */
#ifndef COMMANDS_H
#define COMMANDS_H

#include <stdio.h>

int cmd_filter(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* The filter's usage, for tokstream -h. */
void filter_usage(FILE *out);

#endif
