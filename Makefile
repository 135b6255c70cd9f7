# neon_ai_tools: PGXS build of the extension module, its install script and tests.
#
#   make && make install          build and install the extension
#   make installcheck             pg_regress suites (test/sql + expected/)
#   make prove_installcheck       TAP suites (test/t/*.pl), own clusters

EXTENSION = neon_ai_tools

# The version, in one place: the control file's default_version.  The MCP
# program's --version, META.json and make dist's file name follow it
# (test/release checks that they agree).
NAT_VERSION := $(shell sed -n "s/^default_version[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" $(dir $(firstword $(MAKEFILE_LIST)))$(EXTENSION).control)

MODULE_big = neon_ai_tools
# The module's folders, bottom layer first: each uses only those before it
# (README, "Layout"; scripts/layers.pl checks it).  src/mcp is the MCP
# program, built on its own below.
NAT_LAYERS = base registry plan tools answer run entry
OBJS = $(patsubst %.c,%.o,$(wildcard $(patsubst %,src/%/*.c,$(NAT_LAYERS))))

DATA = $(wildcard sql/$(EXTENSION)--*.sql)

TESTS = $(sort $(wildcard test/sql/*.sql))
REGRESS = $(patsubst test/sql/%.sql,%,$(TESTS))
# Tests are test/sql/*.sql; expected output is the top-level expected/.
# pg_regress looks for <outputdir>/expected/<test>.out before
# <inputdir>/expected (15), or in --expecteddir (16 and later), and the
# output directory is this one.
REGRESS_OPTS = --inputdir=test
TAP_TESTS = 1
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))

PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wno-sign-compare
# A name that shadows another is an error waiting to happen: PostgreSQL 16
# and later build with -Wshadow=compatible-local; we build with all of
# -Wshadow (locals over locals, parameters and globals), which PostgreSQL's
# own headers pass on 15 to 19, with gcc and clang alike.
PG_CFLAGS += -Wshadow
PG_CPPFLAGS = -I$(srcdir)/src

EXTRA_CLEAN = results regression.diffs regression.out tmp_check

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ifneq ($(filter-out 15,$(MAJORVERSION)),)
REGRESS_OPTS += --expecteddir=.
endif

# pg_regress reads ./sql/<test>.sql before test/sql/<test>.sql: a test that
# shares a name with an install script would silently run the script.
$(foreach t,$(REGRESS),$(if $(wildcard sql/$(t).sql),$(error test "$(t)" shadows sql/$(t).sql)))

# The MCP program, neon-ai-tools-mcp, is a PGXS PROGRAM of its own in
# src/mcp: PGXS's OBJS cannot serve both MODULE_big and PROGRAM, so a
# sub-make builds, installs (into `pg_config --bindir`) and cleans it.  It
# needs json-c and libpq (Debian: libjson-c-dev, libpq-dev, pkg-config);
# without them the extension is built alone, with a note saying so.
# WITH_MCP=no skips it; WITH_MCP=yes insists on it.
ifeq ($(WITH_MCP),)
WITH_MCP := $(shell pkg-config --exists json-c 2>/dev/null && test -f "$(shell $(PG_CONFIG) --includedir)/libpq-fe.h" && echo yes || echo no)
endif

.PHONY: mcp install-mcp uninstall-mcp clean-mcp
all: mcp
install: install-mcp
uninstall: uninstall-mcp
clean: clean-mcp
ifeq ($(WITH_MCP),yes)
mcp:
	$(MAKE) -C src/mcp PG_CONFIG=$(PG_CONFIG) MCP_VERSION=$(NAT_VERSION)
install-mcp: mcp
	$(MAKE) -C src/mcp install PG_CONFIG=$(PG_CONFIG) MCP_VERSION=$(NAT_VERSION)
else
mcp install-mcp:
	@echo "note: json-c (pkg-config json-c) or libpq-fe.h not found: building the extension without neon-ai-tools-mcp; install libjson-c-dev, libpq-dev and pkg-config to build it"
endif
uninstall-mcp:
	$(MAKE) -C src/mcp uninstall PG_CONFIG=$(PG_CONFIG)
clean-mcp:
	$(MAKE) -C src/mcp clean PG_CONFIG=$(PG_CONFIG)

# every object depends on the module's shared headers
$(OBJS): $(wildcard $(patsubst %,src/%/*.h,$(NAT_LAYERS)))

# The MCP catalog's outputSchema is the envelope schema, whose one copy is
# test/envelope/response.schema.json: made into a C header at build time.
src/registry/registry.o src/registry/registry.bc: src/registry/envelope_schema.h
src/registry/envelope_schema.h: test/envelope/response.schema.json scripts/schema-header.pl
	perl $(srcdir)/scripts/schema-header.pl $< > $@.tmp && mv $@.tmp $@
EXTRA_CLEAN += src/registry/envelope_schema.h

# pgindent, as PostgreSQL indents its own sources (the tree follows 17's
# pgindent: scripts/pgindent-check.sh checks it there), with PostgreSQL's
# typedefs (`pg_config --sharedir`/typedefs.list) and ours (typedefs.list,
# made by scripts/typedefs.sh).  Debian ships pgindent, pg_bsd_indent and
# the typedefs beside pg_config in postgresql-server-dev-17 and -18, not in
# -15 (bookworm's separate pg-bsd-indent is 2.1.1, older than pgindent
# wants, and there is no pgindent): with 15, name a later pg_config, e.g.
#     make pgindent PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config
# PGINDENT_OPTS=--diff (or --check) shows what would change, changing
# nothing.
PGINDENT ?= $(shell $(PG_CONFIG) --bindir)/pgindent
PG_BSD_INDENT ?= $(shell $(PG_CONFIG) --bindir)/pg_bsd_indent
PG_TYPEDEFS ?= $(shell $(PG_CONFIG) --sharedir)/typedefs.list
PGINDENT_FILES = $(filter-out %/envelope_schema.h,$(sort $(wildcard $(srcdir)/src/*/*.[ch] $(srcdir)/src/mcp/*/*.[ch])))

.PHONY: pgindent
pgindent:
	@test -x "$(PGINDENT)" -a -x "$(PG_BSD_INDENT)" -a -f "$(PG_TYPEDEFS)" || { \
	  echo "pgindent, pg_bsd_indent or typedefs.list not found beside $(PG_CONFIG):"; \
	  echo "they come with later versions (Debian: postgresql-server-dev-17 and -18);"; \
	  echo "run make pgindent PG_CONFIG=/path/to/a/later/pg_config"; exit 1; }
	cat "$(PG_TYPEDEFS)" $(srcdir)/typedefs.list > pgindent-typedefs.list
	"$(PGINDENT)" --indent="$(PG_BSD_INDENT)" --typedefs=pgindent-typedefs.list $(PGINDENT_OPTS) $(PGINDENT_FILES); \
	  rc=$$?; rm -f pgindent-typedefs.list; exit $$rc

# The TAP suites alone; "make installcheck" runs pg_regress and then these.
# They start their own clusters, so they need no running server.
.PHONY: prove_installcheck
prove_installcheck:
	$(prove_installcheck)

# The source distribution for PGXN and packagers: neon_ai_tools-VERSION.zip
# made by git archive from HEAD, so it holds the tracked files only, under
# one directory neon_ai_tools-VERSION/ (README, "Releases").  Uncommitted
# changes are not in it: a warning says so.
DISTNAME = $(EXTENSION)-$(NAT_VERSION)
EXTRA_CLEAN += $(DISTNAME).zip
.PHONY: dist
dist:
	@git -C $(srcdir) rev-parse -q --verify HEAD >/dev/null || { \
	  echo "make dist: $(srcdir) is not a git checkout with a commit"; exit 1; }
	@git -C $(srcdir) diff --quiet HEAD || \
	  echo "make dist: warning: uncommitted changes are left out of $(DISTNAME).zip (it is HEAD)"
	git -C $(srcdir) archive --format zip --prefix $(DISTNAME)/ -o $(CURDIR)/$(DISTNAME).zip HEAD
