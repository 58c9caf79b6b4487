# kernel-scientist: builds the tools, runs the evolution loop, tests.
#
#   make                     build the tools
#   make generation N=5      run generations 0..5 (see pipeline.mk)
#   make report              show the population
#   make test                run the tests; ends with "N passed, N failed"

PREFIX ?= /usr/local
DESTDIR ?=
CFLAGS ?= -O2 -g
WERROR ?=

# Recursive (=) on purpose: pkg-config runs once deps-build has installed what is missing.
KS_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes $(WERROR) \
	$(shell pkg-config --cflags libcjson libcurl libcrypto)
KS_LDLIBS = $(shell pkg-config --libs libcjson libcurl libcrypto) -lm

KS_TOOLS = ks-init ks-select ks-hypothesize ks-implement ks-build ks-bench ks-report
KS_BINS = $(KS_TOOLS:%=tools/%)
KS_LIB_SRCS = $(wildcard tools/ks_*.c)
KS_LIB_OBJS = $(KS_LIB_SRCS:.c=.o)

.PHONY: all tools deps-build deps-test test test-all clean report generation
.DELETE_ON_ERROR:

all: tools

tools: $(KS_BINS)

deps-build:
	@tools/ks-deps build

deps-test:
	@tools/ks-deps test

tools/%.o: tools/%.c tools/ks.h | deps-build
	$(CC) $(KS_CFLAGS) $(CFLAGS) -c -o $@ $<

tools/ks-%: tools/ks-%.o $(KS_LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(KS_LDLIBS)

# Tests build the tools with -Werror, then run every tests/*.bats file.
test: deps-test
	@$(MAKE) --no-print-directory WERROR=-Werror tools
	@tests/run

# Also the slow tests (a real 5-generation run, many kills).
test-all: deps-test
	@$(MAKE) --no-print-directory WERROR=-Werror tools
	@KS_TEST_ALL=1 tests/run

clean:
	rm -f tools/*.o $(KS_BINS)

include pipeline.mk
