/*
 * tokstream map: translate commit ids between a repository and its token
 * repository, either way, through the commit map.
 */
#include "commands.h"
#include "state.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <string.h>

static const char map_usage[] =
	"usage: tokstream map [-C DEST] ID...\n"
	"\n"
	"    -C DEST    the token repository (default: found from the current directory)\n"
	"\n"
	"Prints, for each full or abbreviated commit id, its counterpart:\n"
	"the token commit of an original commit, or the original of a token commit.\n";

static int hex_prefix(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 4 || n > 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

int cmd_map(int argc, char **argv)
{
	const char *dest = NULL;
	struct strbuf prefix = STRBUF_INIT;
	struct strbuf gitdir = STRBUF_INIT;
	struct oid_map map;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-C")) {
			if (++i >= argc)
				usage_die(map_usage, "-C needs a directory");
			dest = argv[i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(map_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			usage_die(map_usage, "unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc)
		usage_die(map_usage, "no id given");
	dest = find_dest(dest, &prefix);
	git_dir_of(dest, &gitdir);
	commit_map_read(&map, gitdir.buf);
	if (!map.nr)
		die("'%s' has no commit map: is it a token repository made by 'tokstream convert'?", dest);
	for (; i < argc; i++) {
		char want[41];
		const char *found = NULL;
		size_t n = strlen(argv[i]), k, j;
		int matches = 0;

		if (!hex_prefix(argv[i]))
			die("'%s' is not a commit id (4 to 40 hex digits)", argv[i]);
		for (k = 0; k <= n; k++)
			want[k] = (char)(argv[i][k] >= 'A' && argv[i][k] <= 'F' ? argv[i][k] + 32 : argv[i][k]);
		for (j = 0; j < map.nr; j++) {
			const char *hit = NULL;

			if (!strncmp(map.pairs[j].orig, want, n))
				hit = map.pairs[j].token;
			else if (!strncmp(map.pairs[j].token, want, n))
				hit = map.pairs[j].orig;
			if (hit && (!found || strcmp(found, hit))) {
				found = hit;
				matches++;
			}
		}
		if (!matches)
			die("%s: no such commit in the commit map of '%s'", argv[i], dest);
		if (matches > 1)
			die("%s: ambiguous: it abbreviates %d commits", argv[i], matches);
		printf("%s\n", found);
	}
	oid_map_release(&map);
	strbuf_release(&gitdir);
	return 0;
}
