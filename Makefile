# tokstream: a token-level history of a Git repository.
#
#   make                 build ./tokstream and ./tokenize
#   make test            run the test suite (t/)
#   make demo            convert this project's own history and show a token blame
#   make install prefix=DIR   DIR/bin (tokenize as tokstream-tokenize), and the
#                        manual pages in DIR/share/man/man1
#   make SANITIZE=1      build with -fsanitize=address,undefined

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
# What every build needs, kept apart from CFLAGS, so that `make
# CFLAGS=...` changes the optimisation and adds checks, not the language
# or the warnings; -pthread: the report runs independent steps in threads.
ALL_CFLAGS = -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread $(CFLAGS)
ALL_LDFLAGS = -pthread $(LDFLAGS)
prefix ?= /usr/local
bindir = $(prefix)/bin
mandir = $(prefix)/share/man
# The version when this is no checkout of tokstream's own history (a
# tarball); in one, `git describe` names it (TOKSTREAM-VERSION-FILE).
VERSION = 0.1
PROVE ?= prove
PROVE_OPTS ?=

ifdef SANITIZE
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=address,undefined
# the tests that run a program tens of thousands of times run fewer (t0030)
TEST_ENV = TOKSTREAM_SANITIZE=1
endif

LIB_OBJS = tokenize/strbuf.o tokenize/strvec.o tokenize/hashtable.o tokenize/smap.o tokenize/spill.o tokenize/wrapper.o tokenize/parse.o tokenize/parse-options.o tokenize/progress.o tokenize/lines.o tokenize/quote.o tokenize/usage.o tokenize/sha1.o tokenize/run-command.o tokenize/catfile.o tokenize/prefetch.o tokenize/language.o tokenize/view.o tokenize/json.o tokenize/json-read.o tokenize/escape.o \
	$(patsubst %.c,%.o,$(wildcard lexers/*.c))
TOKSTREAM_OBJS = fastexport.o contrib/tokdiff.o contrib/attribute.o contrib/replay.o contrib/replay-log.o contrib/replay-checkpoint.o contrib/replay-tree.o contrib/walk.o contrib/walk-ahead.o contrib/age.o contrib/convert.o contrib/map.o contrib/state.o contrib/blame.o contrib/cmd-blame.o contrib/html.o contrib/functions.o contrib/dest-options.o contrib/report.o \
	contrib/report-files.o contrib/report-cache.o contrib/report-blame.o contrib/report-stats.o \
	contrib/report-table.o contrib/report-page.o contrib/report-sections.o contrib/report-survival.o \
	contrib/report-generated.o contrib/report-people.o contrib/report-kinds.o contrib/report-consent.o \
	contrib/report-knowledge.o contrib/report-read.o contrib/report-merge.o contrib/people.o $(PAGE_ASSETS:=.o)
# The pages' stylesheets and script, files of their own so that they read
# and check as CSS and JavaScript; contrib/embed.sh makes each a C source
# beside it (html.css: html.css.c), built into tokstream (contrib/page.h).
PAGE_ASSETS = contrib/page/html.css contrib/page/html.js contrib/page/report.css
# the command table and main(), apart: the fuzzing harnesses link the rest
TOKSTREAM_MAIN = contrib/commands.o
HEADERS = $(wildcard tokenize/*.h lexers/*.h contrib/*.h)

PROGRAMS = tokstream tokenize/tokenize
# tokstream(1) and git-tokstream(1), from the README's command sections
MAN_PAGES = tokstream.1 git-tokstream.1
# programs the tests use to reach inside (as Git's t/helper)
TEST_PROGRAMS = t/helper/test-replay t/helper/test-tokdiff t/helper/test-functions t/helper/test-wrapper

all: $(PROGRAMS) $(MAN_PAGES)

# The version: a tag vX.Y as git describe finds it, else VERSION and the
# commit (0.1-g1a2b3c4, -dirty with changes), else (no checkout of this
# tree) VERSION.  The file changes only when the version does, so that
# only then is commands.o, which prints it, built again.
TOKSTREAM-VERSION-FILE: FORCE
	@if test "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)"; then \
		v=$$(git describe --match 'v[0-9]*' --dirty 2>/dev/null | sed 's/^v//'); \
		test -n "$$v" || v=$(VERSION)-g$$(git describe --always --dirty); \
	else \
		v=$(VERSION); \
	fi; \
	if test "$$v" != "$$(cat $@ 2>/dev/null)"; then echo "$$v" >$@; fi

contrib/commands.o: TOKSTREAM-VERSION-FILE
contrib/commands.o: ALL_CFLAGS += -DTOKSTREAM_VERSION='"$(shell cat TOKSTREAM-VERSION-FILE)"'

%.1: README.md contrib/readme-man.awk TOKSTREAM-VERSION-FILE
	awk -v name=$* -v version="$$(cat TOKSTREAM-VERSION-FILE)" -f contrib/readme-man.awk README.md >$@+ && mv $@+ $@

tokstream: $(TOKSTREAM_MAIN) $(TOKSTREAM_OBJS) $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

tokenize/tokenize: tokenize/tokenize.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

t/helper/test-replay: t/helper/test-replay.o contrib/replay.o contrib/replay-log.o contrib/replay-checkpoint.o contrib/replay-tree.o contrib/attribute.o contrib/walk.o contrib/walk-ahead.o contrib/tokdiff.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

t/helper/test-tokdiff: t/helper/test-tokdiff.o contrib/tokdiff.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

t/helper/test-functions: t/helper/test-functions.o contrib/functions.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

t/helper/test-wrapper: t/helper/test-wrapper.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

# Named as targets, so that make keeps them (t/fuzz/run.sh compiles
# them); the assets' empty recipe, so that it looks for no rule to make
# an asset from its own object (the built-in %: %.o, a circle).
$(PAGE_ASSETS:=.c): %.c: % contrib/embed.sh
	sh contrib/embed.sh $< >$@+ && mv $@+ $@
$(PAGE_ASSETS): ;

%.o: %.c $(HEADERS)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

demo: all
	sh contrib/demo.sh

test: all $(TEST_PROGRAMS)
	cd t && $(TEST_ENV) $(PROVE) $(PROVE_OPTS) ./t[0-9]*.sh

# git-tokstream: so that `git tokstream blame FILE` runs it as a Git
# command, and git-tokstream(1) what `git tokstream --help` shows;
# tokenize under a name of tokstream's, not one as generic as "tokenize"
install: all
	mkdir -p $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	cp tokstream $(DESTDIR)$(bindir)/
	cp tokenize/tokenize $(DESTDIR)$(bindir)/tokstream-tokenize
	ln -sf tokstream $(DESTDIR)$(bindir)/git-tokstream
	cp $(MAN_PAGES) $(DESTDIR)$(mandir)/man1/

man: $(MAN_PAGES)

clean:
	rm -f $(PROGRAMS) $(TEST_PROGRAMS) $(MAN_PAGES) TOKSTREAM-VERSION-FILE *.o tokenize/*.o lexers/*.o contrib/*.o t/helper/*.o
	rm -f $(PAGE_ASSETS:=.c) $(PAGE_ASSETS:=.o)
	rm -rf t/trash* t/out

.PHONY: all demo test install man clean FORCE

# Agreement of the lexers with production tokenizers on real code (see README).
agree: all
	sh t/agree/run.sh

# libFuzzer harnesses for the stream parser and every lexer (see t/fuzz/run.sh).
fuzz: all
	sh t/fuzz/run.sh

# The kept corpus and the regressions, run once each: what CI runs.
fuzz-replay: all
	FUZZ_SECONDS=0 sh t/fuzz/run.sh

# The speed measures, each beside its pair (t/bench/README.md, t/bench/run.sh).
# BENCH_RUNS=N runs (default 5); CORPUS=kernel adds the Linux point-release
# history (downloaded with apt-get download on first use).
bench: all
	BENCH_RUNS='$(BENCH_RUNS)' CORPUS='$(CORPUS)' bash t/bench/run.sh

.PHONY: agree fuzz fuzz-replay bench

# Git's own fast-import tests (t9300 of Git 2.39) with every git fast-import
# fed through the filter (t/t0150-git-t9300.sh, README "Compatibility").
# GIT_SRC: an unpacked Git source tree (apt-get source git, deb-src lines
# enabled); it is built here as far as its tests need.  Without one the
# test is skipped, saying why.
GIT_SRC ?= /var/tmp/git-src/git-2.39.5
GIT_SRC_MAKE = NO_CURL=1 NO_OPENSSL=1 NO_GETTEXT=1 NO_TCLTK=1 NO_PERL=1 NO_PYTHON=1
compat: all
	if test -f '$(GIT_SRC)/t/t9300-fast-import.sh'; then \
		$(MAKE) -C '$(GIT_SRC)' $(GIT_SRC_MAKE) t/helper/test-tool GIT-BUILD-OPTIONS && \
		$(MAKE) -C '$(GIT_SRC)/templates' $(GIT_SRC_MAKE); \
	fi
	cd t && TOKSTREAM_GIT_SRC='$(GIT_SRC)' $(PROVE) $(PROVE_OPTS) -v ./t0150-git-t9300.sh

.PHONY: compat

# How often token blame names the commit that wrote a token (t/accuracy/README.md):
# a generated history with known authors, and lua's history against git blame -w.
accuracy: all
	sh t/accuracy/run.sh

.PHONY: accuracy
