/*
 * test-replay [-w] DIR REV PATH...: the commit of each line of each PATH
 * at REV by the forward replay (contrib/replay.c), one "PATH ID" line per
 * line, for the tests to set beside git blame.
 */
#include "../../contrib/replay.h"
#include "../../tokenize/usage.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct replay *r;
	int i = 1, ignore_ws = 0;

	progname = "test-replay";
	if (i < argc && !strcmp(argv[i], "-w")) {
		ignore_ws = 1;
		i++;
	}
	if (argc - i < 2)
		die("usage: test-replay [-w] DIR REV PATH...");
	r = replay_history(argv[i], argv[i + 1], ignore_ws);
	for (i += 2; i < argc; i++) {
		size_t nr, k;
		const uint32_t *lines = replay_file(r, argv[i], &nr);

		if (!lines)
			die("'%s' is not a file at the tip", argv[i]);
		for (k = 0; k < nr; k++)
			printf("%s %s\n", argv[i], replay_commit(r, lines[k]));
	}
	replay_free(r);
	return 0;
}
