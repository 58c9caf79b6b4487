# kernel-scientist: builds the tools, runs the evolution loop, tests.
#
#   make                     build the tools
#   make generation N=5      run generations 0..5 (see pipeline.mk)
#   make report              show the population (and write POP/report.html)
#   make heldout             bench the best kernels on the held-out shapes
#   make check PROBLEM=p     try a problem before a run
#   make test                run the tests; ends with "N passed, N failed"
#   make test-all            the tests, with the slow ones
#   make bench               the benchmark suite (BENCHMARKS.md)
#   make fuzz                fuzz the JSON reader and the reply parsers (ASan, UBSan)
#   make install             tools, manual pages and data under $(DESTDIR)$(PREFIX)
#   make uninstall           removes what make install put there
#   make clean               removes the built tools (never a population)

PREFIX ?= /usr/local
DESTDIR ?=
CFLAGS ?= -O2 -g
WERROR ?=

# Recursive (=) on purpose: pkg-config runs once ks_deps has installed what is missing.
KS_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes $(WERROR) -Itools/lib \
	$(shell pkg-config --cflags libcjson libcurl libcrypto)
KS_LDLIBS = $(shell pkg-config --libs libcjson libcurl libcrypto) -lm

KS_TOOLS = ks-init ks-select ks-hypothesize ks-implement ks-build ks-bench ks-profile ks-report ks-query ks-lock
KS_BINS = $(KS_TOOLS:%=tools/%)
# the library, in layers (tools/lib/ks_LAYER.h: core < records < pop < proc < build < llm < ask <
# search < stages; a header includes only the one below it), and the private headers some files share
# (llm.h, context.h, offline.h, ...): a change to any is a rebuild
KS_LIB_HDRS = $(wildcard tools/lib/*.h)
KS_LIB_SRCS = $(wildcard tools/lib/ks_*.c)
KS_LIB_OBJS = $(KS_LIB_SRCS:.c=.o)
KS_LIB = tools/lib/libks.a

.PHONY: all tools units deps-build deps-test deps-bench test test-all bench clean report generation check heldout fuzz install uninstall
.DELETE_ON_ERROR:

# The packages the build needs are checked (and, as root, the missing ones
# installed) by tools/ks-deps build, run by the first compile of a make and
# only then: a make with nothing to compile runs no check and no apt-get.
# $(ks_deps) expands to nothing, or stops make when a needed one is missing
# (make -n checks nothing).
ks_dry_run = $(findstring n,$(firstword -$(MAKEFLAGS)))
ks_deps = $(if $(ks_deps_done)$(ks_dry_run),,$(eval ks_deps_done := yes)$(if $(shell tools/ks-deps build >&2 && echo ok),,\
	$(error tools/ks-deps build: a package the build needs is missing (see above))))

# all: the tools
all: tools

# tools: tools/ks-* (the pipeline's programs)
tools: $(KS_BINS)

# deps-build: the build's packages checked (as root, the missing ones installed)
deps-build:
	@tools/ks-deps build

# deps-test: the tests' packages checked (as root, the missing ones installed)
deps-test:
	@tools/ks-deps test

# deps-bench: the benchmarks' packages (OpenBLAS, the baseline of make bench)
deps-bench:
	@tools/ks-deps bench

# tools/X.o, tools/lib/X.o: from X.c and the library's headers, the packages checked first
tools/%.o: tools/%.c $(KS_LIB_HDRS)
	$(ks_deps)$(CC) $(KS_CFLAGS) $(CFLAGS) -c -o $@ $<

# tools/lib/libks.a: the library's objects, from which each tool takes only what it calls
$(KS_LIB): $(KS_LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# tools/ks-X: linked from tools/ks-X.o and the library; --as-needed drops the
# shared libraries it does not call (ks-build and ks-bench have no LLM client)
tools/ks-%: tools/ks-%.o $(KS_LIB)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $< $(KS_LIB) $(KS_LDLIBS)

# the tools' own objects are kept, so a change to one source rebuilds one object
.SECONDARY: $(KS_BINS:=.o)

# Unit tests: C programs over the library's functions (and the harness's,
# and fp8-mm's reference), tests/unit/X.c made into tests/unit/bin/X, each
# run by the test file that names it
KS_UNITS = bound redact tmodel edit diag facts sharedarg checkpart fp8acc kernelfile
KS_UNIT_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
units: $(KS_UNITS:%=tests/unit/bin/%)

# tests/unit/bin/X: over the tools' library
tests/unit/bin/%: tests/unit/%.c $(KS_LIB) $(KS_LIB_HDRS)
	@mkdir -p tests/unit/bin
	$(CC) $(KS_UNIT_CFLAGS) -Itools/lib $(shell pkg-config --cflags libcjson) -o $@ $< $(KS_LIB) $(KS_LDLIBS)

# the judge's shared buffers, its static functions included (the test includes ks_judge.c)
tests/unit/bin/sharedarg: tests/unit/sharedarg.c tests/unit/expect.h $(wildcard kernels/common/ks_judge*.c) kernels/common/ks_judge.h
	@mkdir -p tests/unit/bin
	$(CC) $(KS_UNIT_CFLAGS) -Ikernels/common -o $@ $< -lm

# the runner's own check, in parts as a GPU harness merges it (ks_harness.c's main renamed; the judge it calls)
tests/unit/bin/checkpart: tests/unit/checkpart.c tests/unit/verdict.h $(wildcard kernels/common/ks_harness*.c) \
		kernels/common/ks_harness.h $(wildcard kernels/common/ks_judge*.c) kernels/common/ks_versus.c
	@mkdir -p tests/unit/bin
	$(CC) $(KS_UNIT_CFLAGS) -Ikernels/common -c tests/unit/checkpart.c -o $@-checkpart.o
	$(CC) $(KS_UNIT_CFLAGS) -Ikernels/common -Dmain=ks_harness_main -c kernels/common/ks_harness.c -o $@-harness.o
	$(CC) $(KS_UNIT_CFLAGS) -Ikernels/common $@-checkpart.o $@-harness.o kernels/common/ks_judge.c \
		kernels/common/ks_versus.c -o $@ -lm
	rm -f $@-checkpart.o $@-harness.o

# an FP8 accumulator narrower than fp32 under fp8-mm's check, over its reference's decoding
tests/unit/bin/fp8acc: tests/unit/fp8acc.c kernels/fp8-mm/reference.c kernels/fp8-mm/reference.h
	@mkdir -p tests/unit/bin
	$(CC) $(KS_UNIT_CFLAGS) -O2 -Ikernels/fp8-mm -o $@ $< kernels/fp8-mm/reference.c -lm

# test: the tools built with -Werror, and the unit tests, then every tests/*.bats file run
test: deps-test
	@$(MAKE) --no-print-directory -j$$(nproc 2>/dev/null || echo 2) WERROR=-Werror tools units
	@tests/run

# test-all: as test, with the slow tests too (a real 5-generation run, many kills)
test-all: deps-test
	@$(MAKE) --no-print-directory -j$$(nproc 2>/dev/null || echo 2) WERROR=-Werror tools units
	@KS_TEST_ALL=1 tests/run

# bench: the benchmark suite (not part of test): what a generation costs beside compiling and
# running kernels, how select and the prompts scale to 5,000 kernels, -j1 against -j2, prompt
# sizes, the offline search against OpenBLAS and random search; writes BENCHMARKS.md (bench/run.sh)
bench: tools deps-bench
	@bash bench/run.sh

# libFuzzer targets over the tools' library, with AddressSanitizer and
# UndefinedBehaviorSanitizer: each runs FUZZ_SECONDS from the corpus in
# tests/fuzz/corpus (copied, so that what it finds stays out of git); a
# crash leaves its input in tests/fuzz/bin/ and fails the target.
FUZZ_CC ?= $(shell command -v clang || command -v clang-15)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = fuzz_json fuzz_reply
FUZZ_SAN = address,undefined -fno-sanitize-recover=undefined
FUZZ_FLAGS = -g -O1 -D_GNU_SOURCE -Itools/lib $(shell pkg-config --cflags libcjson)
FUZZ_LIB = tests/fuzz/bin/libks-fuzz.a

# tests/fuzz/bin/obj/X.o: a library source instrumented for the fuzzers (coverage, sanitizers), compiled once
# for all of them
tests/fuzz/bin/obj/%.o: tools/lib/%.c $(KS_LIB_HDRS)
	@mkdir -p tests/fuzz/bin/obj
	$(ks_deps)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c -o $@ $<

$(FUZZ_LIB): $(KS_LIB_SRCS:tools/lib/%.c=tests/fuzz/bin/obj/%.o)
	rm -f $@ && $(AR) rcs $@ $^

# tests/fuzz/bin/fuzz_X: the fuzzer, from tests/fuzz/fuzz_X.c and the instrumented library
tests/fuzz/bin/%: tests/fuzz/%.c $(FUZZ_LIB) $(KS_LIB_HDRS)
	@mkdir -p tests/fuzz/bin
	$(ks_deps)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< $(FUZZ_LIB) $(KS_LDLIBS)

# fuzz: each fuzzer run for FUZZ_SECONDS over a copy of its corpus
fuzz: $(FUZZ_TARGETS:%=tests/fuzz/bin/%)
	@for t in $(FUZZ_TARGETS); do \
		corpus=$${t#fuzz_}; work=tests/fuzz/bin/corpus-$$corpus; \
		rm -rf $$work && cp -r tests/fuzz/corpus/$$corpus $$work && \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s" && \
		tests/fuzz/bin/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix=tests/fuzz/bin/$$t- $$work 2>tests/fuzz/bin/$$t.log || \
			{ tail -40 tests/fuzz/bin/$$t.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|cov:' tests/fuzz/bin/$$t.log | tail -2; \
	done

# clean: removes the built tools and fuzzers (never a population)
clean:
	rm -f tools/*.o tools/lib/*.o $(KS_LIB) $(KS_BINS)
	rm -rf tests/fuzz/bin tests/unit/bin

# The installed copy: the tools in bin, the manual pages, and in
# share/kernel-scientist what a run reads (prompts/, kernels/ with
# common/ and each problem, pipeline.mk), where the tools find it from
# their own path (ks_data_dir) and pipeline.mk finds the tools.
KS_DATADIR = $(PREFIX)/share/kernel-scientist
KS_MANDIR = $(PREFIX)/share/man
# the README and the documents it names (the walk-through of a new problem,
# the tests, the measurements, the integrity cases), at the same paths as in
# the source tree so that the README's links hold; kernels/GPU-RESULTS.md is
# installed with the kernels
KS_DOCDIR = $(PREFIX)/share/doc/kernel-scientist
KS_DOCS = README.md BENCHMARKS.md tests/INTEGRITY.md $(sort $(wildcard docs/*))
KS_MAN5 = man/population.5 man/ks-problem.5
# ks-eval-popcorn: the evaluator for GPU MODE's leaderboards (target external), a script
KS_SCRIPTS = ks-eval-popcorn
KS_MAN1 = $(KS_TOOLS:%=man/%.1) $(KS_SCRIPTS:%=man/%.1)
KS_DATA_FILES = $(shell find prompts kernels -type f | LC_ALL=C sort) pipeline.mk
# (its folders, deepest first: what uninstall removes when they are empty)
KS_DATA_DIRS = $(shell find prompts kernels -type d | LC_ALL=C sort -r)

# install: the tools, manual pages and data under $(DESTDIR)$(PREFIX)
install: tools
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(DESTDIR)$(KS_MANDIR)/man1' '$(DESTDIR)$(KS_MANDIR)/man5' \
		'$(DESTDIR)$(KS_MANDIR)/man7' '$(DESTDIR)$(KS_DATADIR)' '$(DESTDIR)$(KS_DOCDIR)'
	install -m 755 $(KS_BINS) $(KS_SCRIPTS:%=tools/%) '$(DESTDIR)$(PREFIX)/bin'
	install -m 644 $(KS_MAN1) '$(DESTDIR)$(KS_MANDIR)/man1'
	install -m 644 $(KS_MAN5) '$(DESTDIR)$(KS_MANDIR)/man5'
	install -m 644 man/kernel-scientist.7 '$(DESTDIR)$(KS_MANDIR)/man7'
	@for f in $(KS_DOCS); do \
		install -D -m 644 "$$f" '$(DESTDIR)$(KS_DOCDIR)'/"$$f" || exit 1; \
	done
	@for f in $(KS_DATA_FILES); do \
		install -D -m 644 "$$f" '$(DESTDIR)$(KS_DATADIR)'/"$$f" || exit 1; \
	done
	@if [ -n '$(DESTDIR)' ]; then \
		echo 'staged in $(DESTDIR)$(PREFIX) for $(PREFIX): once it is there, run make -f $(KS_DATADIR)/pipeline.mk generation N=1 POP=pop; man kernel-scientist'; \
	else \
		echo 'installed in $(PREFIX): run make -f $(KS_DATADIR)/pipeline.mk generation N=1 POP=pop; man kernel-scientist'; \
	fi

# uninstall: the files that install writes, and the folders of
# share/kernel-scientist that it made, once empty: nothing else, so a
# problem of one's own added there stays, with its folders
uninstall:
	rm -f $(KS_TOOLS:%='$(DESTDIR)$(PREFIX)/bin/%') $(KS_TOOLS:%='$(DESTDIR)$(KS_MANDIR)/man1/%.1') \
		$(KS_SCRIPTS:%='$(DESTDIR)$(PREFIX)/bin/%') $(KS_SCRIPTS:%='$(DESTDIR)$(KS_MANDIR)/man1/%.1') \
		$(KS_MAN5:man/%='$(DESTDIR)$(KS_MANDIR)/man5/%') '$(DESTDIR)$(KS_MANDIR)/man7/kernel-scientist.7' \
		$(KS_DOCS:%='$(DESTDIR)$(KS_DOCDIR)/%')
	@for d in docs tests; do \
		[ ! -d '$(DESTDIR)$(KS_DOCDIR)'/"$$d" ] || rmdir --ignore-fail-on-non-empty '$(DESTDIR)$(KS_DOCDIR)'/"$$d" || exit 1; \
	done
	@[ ! -d '$(DESTDIR)$(KS_DOCDIR)' ] || rmdir --ignore-fail-on-non-empty '$(DESTDIR)$(KS_DOCDIR)'
	@for f in $(KS_DATA_FILES); do rm -f '$(DESTDIR)$(KS_DATADIR)'/"$$f" || exit 1; done
	@for d in $(KS_DATA_DIRS); do \
		[ ! -d '$(DESTDIR)$(KS_DATADIR)'/"$$d" ] || rmdir --ignore-fail-on-non-empty '$(DESTDIR)$(KS_DATADIR)'/"$$d" || exit 1; \
	done
	@[ ! -d '$(DESTDIR)$(KS_DATADIR)' ] || rmdir --ignore-fail-on-non-empty '$(DESTDIR)$(KS_DATADIR)'

# The pipeline's tools, for pipeline.mk: these, built by the tools target
# (an installed pipeline.mk takes those of its <prefix>/bin).
KS_BIN ?= tools
KS_BUILD = tools
include pipeline.mk
