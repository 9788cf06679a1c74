/*
 * tokstream map: translate commit ids between a repository and its token
 * repository, either way, through the commit map.
 */
#include "commands.h"
#include "state.h"
#include "dest-options.h"
#include "../tokenize/parse-options.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"

#include <stdio.h>
#include <string.h>

static const char *const map_usage[] = {
	"tokstream map [-C DEST] REV...",
	"",
	"Prints, for each commit id (full or abbreviated) its counterpart: the\n"
	"token commit of an original commit, or the original of a token commit;\n"
	"for any other revision of the source (HEAD~1, a tag), its token commit.",
	NULL
};

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

/*
 * The full id of rev, a revision of the newest source DEST records that
 * is no commit id (HEAD~1, main, v1.0); dies when it is none.
 */
static void source_revision(const char *gitdir, const char *rev, char *full)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	struct dest_config cfg;
	const char *src;

	if (dest_config_read(&cfg, gitdir) || !cfg.nr_sources)
		die("'%s' is not a commit id (4 to 40 hex digits), and '%s' records no source to read it in",
		    rev, gitdir);
	src = cfg.sources[cfg.nr_sources - 1];
	strvec_pushl(&argv, "git", "rev-parse", "--verify", "-q", NULL);
	strvec_pushf(&argv, "%s^{commit}", rev);
	if (run_capture_quiet(argv.v, src, &out) || out.len < 40)
		die("'%s' is neither a commit id nor a revision of '%s'", rev, src);
	memcpy(full, out.buf, 40);
	full[40] = '\0';
	dest_config_release(&cfg);
	strvec_clear(&argv);
	strbuf_release(&out);
}

int cmd_map(int argc, char **argv)
{
	struct dest_options d = { NULL, NULL };
	struct strbuf prefix = STRBUF_INIT;
	struct strbuf gitdir = STRBUF_INIT;
	struct oid_map map;
	const char *dest;
	struct option options[] = {
		OPT_DEST(&d),
		OPT_END(),
	};
	int nr, i;

	nr = parse_options(argc, argv, options, map_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!nr)
		usage_msg_opt("no id given", map_usage, options);
	check_dest_given(d.dest);
	dest = find_dest(d.dest, &prefix);
	git_dir_of(dest, &gitdir);
	commit_map_read(&map, gitdir.buf);
	if (!map.nr)
		die("'%s' has no commit map: is it a token repository made by 'tokstream convert'?", dest);
	for (i = 0; i < nr; i++) {
		char want[41];
		const char *found = NULL;
		size_t n = strlen(argv[i]), k, j;
		int matches = 0;

		if (!hex_prefix(argv[i])) {
			source_revision(gitdir.buf, argv[i], want);
			n = 40;
		} else {
			for (k = 0; k <= n; k++)
				want[k] = (char)(argv[i][k] >= 'A' && argv[i][k] <= 'F' ? argv[i][k] + 32 : argv[i][k]);
		}
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
