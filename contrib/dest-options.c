/*
 * The options of the commands that read a token repository
 * (dest-options.h): one spelling, for blame, html, report and map alike.
 */
#include "dest-options.h"
#include "state.h"
#include "../tokenize/run-command.h"
#include "../tokenize/strvec.h"
#include "../tokenize/usage.h"

#include <string.h>
#include <sys/stat.h>

int parse_opt_min_move(const struct option *opt, const char *arg, int unset)
{
	struct attribution_options *o = opt->value;
	uintmax_t n;

	(void)unset;
	if (parse_opt_number(opt, arg, 2, 100000, &n))
		return -1;
	o->min_move = (size_t)n;
	o->no_moves = 0;
	return 0;
}

int parse_opt_ignore_rev(const struct option *opt, const char *arg, int unset)
{
	struct attribution_options *o = opt->value;

	(void)unset;
	ALLOC_GROW(o->ignore_revs, o->nr_ignore_revs + 1, o->alloc_ignore_revs);
	o->ignore_revs[o->nr_ignore_revs++] = arg;
	return 0;
}

int parse_opt_ignore_revs_file(const struct option *opt, const char *arg, int unset)
{
	struct attribution_options *o = opt->value;

	(void)unset;
	if (!*arg) {
		/* as git blame: an empty name drops the files given so far, the configured one too */
		o->nr_ignore_files = 0;
		o->no_config_ignore_file = 1;
		return 0;
	}
	ALLOC_GROW(o->ignore_files, o->nr_ignore_files + 1, o->alloc_ignore_files);
	o->ignore_files[o->nr_ignore_files++] = arg;
	return 0;
}

void check_dest_given(const char *dest)
{
	const char *query[] = { "git", "rev-parse", "--absolute-git-dir", NULL };
	struct strbuf gitdir = STRBUF_INIT, recorded = STRBUF_INIT;
	struct stat st;

	if (!dest)
		return;
	if (stat(dest, &st))
		die_errno("-C '%s'", dest);
	if (!S_ISDIR(st.st_mode))
		die("-C '%s' is not a directory: give the token repository", dest);
	if (run_capture_quiet(query, dest, &gitdir))
		die("-C '%s' is not a git repository: give the token repository", dest);
	strbuf_trim_newline(&gitdir);
	if (is_token_repository(gitdir.buf)) {
		strbuf_release(&gitdir);
		return;
	}
	if (!recorded_dest(dest, &recorded))
		die("-C '%s' is a source repository, not a token repository: its token repository "
		    "(tokstream.dest) is '%s'; give -C '%s', or no -C inside the source",
		    dest, recorded.buf, recorded.buf);
	die("-C '%s' is no token repository, and records none (tokstream.dest): "
	    "give the DEST of tokstream convert", dest);
}

/* The source repository the command will read (as blame_open finds it), and the prefix in it. */
static void source_of(const struct dest_options *d, struct strbuf *src, struct strbuf *prefix)
{
	const char *dest = find_dest(d->dest, prefix);
	struct strbuf gitdir = STRBUF_INIT;
	struct dest_config cfg;

	strbuf_reset(src);
	if (d->source) {
		strbuf_addstr(src, d->source);
		return;
	}
	git_dir_of(dest, &gitdir);
	if (dest_config_read(&cfg, gitdir.buf) || !cfg.nr_sources)
		die("'%s' records no source: give --source=SRC", gitdir.buf);
	strbuf_addstr(src, cfg.sources[cfg.nr_sources - 1]);
	dest_config_release(&cfg);
	strbuf_release(&gitdir);
}

static int is_revision(const char *src, const char *arg)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	int is;

	strvec_pushl(&argv, "git", "rev-parse", "--verify", "-q", NULL);
	strvec_pushf(&argv, "%s^{commit}", arg);
	is = !run_capture_quiet(argv.v, src, &out);
	strvec_clear(&argv);
	strbuf_release(&out);
	return is;
}

/* Whether the pathspec arg, given in prefix, selects a file at HEAD (as blame_select_paths would). */
static int selects_files(const char *src, const char *prefix, const char *arg)
{
	const char *empty_argv[] = { "git", "hash-object", "-t", "tree", "/dev/null", NULL };
	struct strvec argv = STRVEC_INIT;
	struct strbuf empty = STRBUF_INIT, out = STRBUF_INIT;
	const char *spec = arg;
	int selects;

	if (run_capture_quiet(empty_argv, src, &empty))
		return 0;
	strbuf_trim_newline(&empty);
	prefix_pathspecs(prefix, &spec, 1);
	strvec_pushl(&argv, "git", "diff-tree", "-r", "--name-only", "--no-renames", empty.buf, "HEAD",
		     "--", spec, NULL);
	selects = !run_capture_quiet(argv.v, src, &out) && out.len;
	strvec_clear(&argv);
	strbuf_release(&empty);
	strbuf_release(&out);
	return selects;
}

/* Whether arg can only be a pathspec: magic, or a glob (as Git takes a wildcard for a path). */
static int looks_like_pathspec(const char *arg)
{
	return arg[0] == ':' || strpbrk(arg, "*?[") != NULL;
}

void split_rev_pathspec(const struct dest_options *d, int argc, char **argv, const char **rev,
			const char ***pathspec, int *nr_pathspec)
{
	struct strbuf src = STRBUF_INIT, prefix = STRBUF_INIT;
	int i, dashdash = -1, is_rev, is_path;

	*pathspec = (const char **)argv;
	*nr_pathspec = 0;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	if (dashdash >= 0) {
		if (dashdash > 1)
			die("'%s': only one revision before '--'", argv[1]);
		if (dashdash == 1)
			*rev = argv[0];
		*pathspec = (const char **)argv + dashdash + 1;
		*nr_pathspec = argc - dashdash - 1;
		return;
	}
	if (!argc)
		return;
	source_of(d, &src, &prefix);
	is_rev = is_revision(src.buf, argv[0]);
	is_path = selects_files(src.buf, prefix.buf, argv[0]) ||
		  (!is_rev && looks_like_pathspec(argv[0]));
	if (is_rev && is_path)
		die("'%s' is both a revision and a pathspec of files at HEAD: give REV -- PATHSPEC, "
		    "or -- PATHSPEC", argv[0]);
	if (!is_rev && !is_path)
		die("'%s' is not a revision of '%s', nor a pathspec of files at HEAD", argv[0], src.buf);
	if (is_rev)
		*rev = argv[0];
	*pathspec = (const char **)argv + is_rev;
	*nr_pathspec = argc - is_rev;
	strbuf_release(&src);
	strbuf_release(&prefix);
}
