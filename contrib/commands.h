/* The subcommands of tokstream built on top of the filter. */
#ifndef COMMANDS_H
#define COMMANDS_H

#include <stdint.h>

int cmd_convert(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* A size as Git's options take one (digits, then k, m or g); -1 if s is not one. */
int parse_size(const char *s, uintmax_t *size);

#endif
