/*
 * test-replay [-w] [--checkpoint=FILE] DIR REV PATH...: the commit of
 * each line of each PATH at REV by the forward replay (contrib/replay.c),
 * one "PATH ID" line per line, for the tests to set beside git blame;
 * with --checkpoint, starting from FILE when it fits, and leaving it;
 * "replayed N" on stderr, the commits it went through, and "looked back
 * N", the older files it had to ask git blame for.
 */
#include "../../contrib/replay.h"
#include "../../tokenize/usage.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct replay *r;
	struct replay_options o = { 0 };
	int i = 1;

	progname = "test-replay";
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-w"))
			o.ignore_ws = 1;
		else if (!strncmp(argv[i], "--checkpoint=", 13))
			o.checkpoint = argv[i] + 13;
		else
			break;
	}
	if (argc - i < 2)
		die("usage: test-replay [-w] [--checkpoint=FILE] DIR REV PATH...");
	o.checkpoint_key = o.ignore_ws ? "test -w" : "test";
	r = replay_history(argv[i], argv[i + 1], &o);
	fprintf(stderr, "replayed %zu\nlooked back %zu\n", replay_nr_commits(r), replay_nr_looked_back(r));
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
