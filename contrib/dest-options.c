/*
 * The options of the commands that read a token repository
 * (dest-options.h): one parser, for html and report alike.
 */
#include "dest-options.h"
#include "../tokenize/parse.h"

#include <string.h>

int parse_dest_option(int argc, char **argv, int *i, const char **dest, const char **source, int *progress)
{
	const char *a = argv[*i], *v;

	if (!strcmp(a, "-C") && *i + 1 < argc)
		*dest = argv[++*i];
	else if (option_value("--source", argc, argv, i, &v) && v)
		*source = v;
	else if (!strcmp(a, "--progress"))
		*progress = 1;
	else if (!strcmp(a, "--no-progress"))
		*progress = 0;
	else
		return 0;
	return 1;
}
