/*
 * The options of the commands that read a token repository
 * (dest-options.h): one parser, for html and report alike.
 */
#include "dest-options.h"

#include <string.h>

int parse_dest_option(int argc, char **argv, int *i, const char **dest, const char **source, int *progress)
{
	const char *a = argv[*i];

	if (!strcmp(a, "-C") && *i + 1 < argc)
		*dest = argv[++*i];
	else if (!strcmp(a, "--source") && *i + 1 < argc)
		*source = argv[++*i];
	else if (!strncmp(a, "--source=", 9))
		*source = a + 9;
	else if (!strcmp(a, "--progress"))
		*progress = 1;
	else if (!strcmp(a, "--no-progress"))
		*progress = 0;
	else
		return 0;
	return 1;
}
