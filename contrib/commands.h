/* The subcommands of tokstream built on top of the filter. */
#ifndef COMMANDS_H
#define COMMANDS_H

int cmd_convert(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
