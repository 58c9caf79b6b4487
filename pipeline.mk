# pipeline.mk - the evolution loop as make rules.
#
#   make generation N=5 [POP=population] [PROBLEM=sgemm] [TARGET=cpu] [K=3] [KS_PROFILE=0|1|auto]
#
# makes generation 5 and every missing generation before it.  Each stage
# is a file written by one tool (ks-x -o $@), so an interrupted run
# resumes with the same command and redoes nothing that finished, and
# make -j builds and benches the K candidates of a generation in parallel
# (ks-bench still times one kernel at a time per device).  PROBLEM, TARGET
# and K are a new run's; a run that exists goes on with its own (its
# run.json), so N and POP alone continue it.  SIGINT, SIGTERM or SIGHUP
# to make stops the whole run (ks-lock).
#
#   make -j 16 generation N=5 KS_LAUNCH='srun --gres=gpu:1 -N1 -n1'
#
# spreads the benches over a Slurm cluster: make passes KS_LAUNCH (and
# KS_LAUNCH_BUILD for the builds) to the tools in their environment, and
# ks-bench runs itself under it, on the node (kernel-scientist(7): On a Slurm cluster).
#
#   gen-000/c0/candidate.json   ks-implement (the problem's seed)
#   gen-NNN/select.json         ks-select     <- every bench.json of gen NNN-1
#   gen-NNN/hypotheses.json     ks-hypothesize (after ks-profile on the base, where a profiler runs)
#   gen-NNN/cS/candidate.json   ks-implement  (kernel.<ext> beside it)
#   gen-NNN/cS/build.json       ks-build
#   gen-NNN/cS/bench.json       ks-bench
#
# Two ways to use it: in the source tree, through the Makefile, which
# includes it (the tools in tools/, built first); installed, as
# <prefix>/share/kernel-scientist/pipeline.mk, from any directory:
#
#   make -f /usr/local/share/kernel-scientist/pipeline.mk generation N=5 POP=pop
#
# or included by a Makefile of one's own; the tools are then those of
# <prefix>/bin, found from this file's real path, so that a copy under a
# DESTDIR runs its own tools (kernel-scientist(7)).

# (first, before any other file is included: this file, and the makefile
# that make was started with, which the make of ks-pipeline below reads)
ks_mk := $(realpath $(lastword $(MAKEFILE_LIST)))
ks_top := $(firstword $(MAKEFILE_LIST))
# make splits file names at spaces: a pipeline.mk in a folder with one cannot find itself
ifeq ($(ks_mk),)
$(error pipeline.mk: cannot find its own path, '$(lastword $(MAKEFILE_LIST))' (make cannot name a file in a folder whose path holds a space): install with a PREFIX without spaces)
endif

POP ?= population
# PROBLEM, TARGET and K have no default here: unset, a new run's are
# sgemm, the problem's first target and 3 (ks-init), and a run that
# exists goes on with its own (ks_run, below).
# KS_PROFILE: auto (profile each generation's base where the target has a
# profiler: the GPUs), 1 (always run ks-profile, which says why where none
# runs), 0 (never)
KS_PROFILE ?= auto
# KS_BIN, the tools' folder, and KS_BUILD, the target that builds them:
# the Makefile sets tools and tools; installed, <prefix>/bin and nothing
# (and the source tree's pipeline.mk run with make -f, its built tools/).
KS_BIN ?= $(if $(wildcard $(dir $(ks_mk))tools/lib/ks_core.h),$(dir $(ks_mk))tools,$(abspath $(dir $(ks_mk))../../bin))
KS_BUILD ?=

.SUFFIXES:
.DELETE_ON_ERROR:
.PHONY: ks-pipeline ks-generation generation check heldout report estimate

# The run that POP holds: its problem, target and K (ks-query -r), or
# nothing before ks-init has made it.
ks_run := $(if $(wildcard $(POP)/run.json),$(shell $(KS_BIN)/ks-query -r '$(POP)' 2>/dev/null))
# K: given, or the run's, or a new run's 3
ks_k := $(or $(K),$(word 3,$(ks_run)),3)
# What was given (command line, environment, a makefile) that the run is not:
# "PROBLEM=x TARGET=y K=z", or nothing
ks_other := $(if $(ks_run),$(strip \
	$(if $(filter-out $(word 1,$(ks_run)),$(PROBLEM)),PROBLEM=$(PROBLEM)) \
	$(if $(filter-out $(word 2,$(ks_run)),$(TARGET)),TARGET=$(TARGET)) \
	$(if $(filter-out $(word 3,$(ks_run)),$(K)),K=$(K))))
# how this make was started, for the advice: make, or make -f pipeline.mk (installed)
ks_make := make$(if $(filter Makefile makefile GNUmakefile,$(ks_top)),, -f $(ks_top))
ks_refusal = ks: '$(POP)' is a run of problem $(word 1,$(ks_run)) on target $(word 2,$(ks_run)) with \
K=$(word 3,$(ks_run)) (its run.json), not $(ks_other): continue it with '$(ks_make) generation N=$(N) \
POP=$(POP)', or start another with a new POP

ifneq ($(filter generation ks-pipeline ks-generation,$(MAKECMDGOALS)),)
ifeq ($(strip $(N)),)
$(error N is not set: say which generation to make, e.g. make generation N=5)
endif
ifeq ($(shell echo '$(N)' | grep -Ex '[0-9]{1,3}'),)
$(error N must be a generation number from 0 to 999, not '$(N)')
endif
ifeq ($(filter 0 1 auto,$(KS_PROFILE)),)
$(error KS_PROFILE must be 0, 1 or auto, not '$(KS_PROFILE)')
endif
ifeq ($(shell echo '$(ks_k)' | grep -Ex '[1-5]'),)
$(error K must be a number of candidates from 1 to 5, not '$(K)')
endif
# make cannot name a file whose path holds a space, a colon or a percent sign
ifneq ($(words x$(POP)x)$(findstring :,$(POP))$(findstring %,$(POP)),1)
$(error POP must be a path without spaces, ':' or '%' (make cannot name such files): '$(POP)')
endif
endif

# Tools that are not there (a partial install, a wrong KS_BIN, a source
# tree not built) are said once, rather than by the shell at each stage.
ifneq ($(filter generation ks-pipeline ks-generation check heldout report estimate,$(MAKECMDGOALS)),)
ifeq ($(KS_BUILD)$(wildcard $(KS_BIN)/ks-init),)
$(error no tools in '$(KS_BIN)' (KS_BIN): build them (make) or install them (make install))
endif
endif

# The generations 000 001 ... N, and the slots 0 .. K-1.
ks_gens := $(if $(N),$(shell seq -f '%03g' 0 $(N)))
ks_slots := $(if $(filter 1 2 3 4 5,$(ks_k)),$(wordlist 1,$(ks_k),0 1 2 3 4))

# ks_prev G: the generation before G (001 and up).  ks_gens holds 000 at
# position 1, so G's own value (leading zeros dropped) is the position
# of the generation before it: 001 -> 000, 010 -> 009, 100 -> 099.
ks_prev = $(word $(patsubst 0%,%,$(patsubst 0%,%,$1)),$(ks_gens))

# The slots that the generations' plans leave empty (the offline proposer
# had fewer than K untried configurations left, or none: "search space
# exhausted"): they have no candidate, and make does not wait for one.
ks_empty := $(if $(wildcard $(POP)/run.json),$(shell $(KS_BIN)/ks-query -e '$(POP)' 2>/dev/null))

# ks_cands G: the candidate directories of generation G (000: the seed alone).
ks_cands = $(if $(filter 000,$1),$(POP)/gen-000/c0,$(filter-out $(ks_empty),$(foreach s,$(ks_slots),$(POP)/gen-$1/c$s)))

# ks_ends G: what generation G ends with: a bench.json per candidate, and
# its plans (which may keep none).
ks_ends = $(call ks_benches,$1) $(if $(filter 000,$1),,$(POP)/gen-$1/hypotheses.json)

# ks_benches G: a bench.json per candidate of generation G.
ks_benches = $(addsuffix /bench.json,$(call ks_cands,$1))

# ks-pipeline: generation N's benches and plans, and so every generation before it.
ks-pipeline: $(call ks_ends,$(lastword $(ks_gens)))

# gen-000/c0/candidate.json (and kernel): the problem's seed, from run.json (made by generation's ks-init)
$(POP)/gen-000/c0/candidate.json: $(POP)/run.json
	$(KS_BIN)/ks-implement -o $@ $(@D)

# ks_generation G: the rules of generation G (001 and up), which starts
# from every bench.json of generation G-1.
define ks_generation
# gen-$1/select.json: the base and reference kernels, once the benches of the generation
# before are made (and the line that ends that generation printed: ks-report -g); order-only (after |): a bench of that generation redone later never
# makes this generation again, so finished generations are never rewritten by make
$(POP)/gen-$1/select.json: | $(call ks_ends,$(call ks_prev,$1))
	@$$(KS_BIN)/ks-report -g $(call ks_prev,$1) '$(POP)'
	$$(KS_BIN)/ks-select -o $$@ $$(@D)

# gen-$1/hypotheses.json: the K kept plans, from select.json (unless KS_PROFILE=0, after
# ks-profile has profiled the base into its profile.json, for the hypothesize prompt;
# with auto, ks-profile does nothing on a target without a profiler)
$(POP)/gen-$1/hypotheses.json: $(POP)/gen-$1/select.json
	$(if $(filter 0,$(KS_PROFILE)),,KS_PROFILE=$(KS_PROFILE) $$(KS_BIN)/ks-profile $$(@D) && )$$(KS_BIN)/ks-hypothesize -o $$@ $$(@D)

# gen-$1/cS/candidate.json (and kernel): plan S implemented, from hypotheses.json
$(addsuffix /candidate.json,$(call ks_cands,$1)): $(POP)/gen-$1/hypotheses.json
	$$(KS_BIN)/ks-implement -o $$@ $$(@D)
endef
$(foreach g,$(filter-out 000,$(ks_gens)),$(eval $(call ks_generation,$g)))

# Every candidate's build.json and bench.json is an explicit target (not
# an intermediate file that make would delete).
ks_all_cands := $(foreach g,$(ks_gens),$(call ks_cands,$g))

# cS/build.json (and runner): the candidate compiled, from candidate.json and its kernel
# file, so that a hand edit of kernel.<ext> alone is built and benched again
.SECONDEXPANSION:
$(ks_all_cands:=/build.json): %/build.json: %/candidate.json $$(wildcard $$*/kernel.*)
	$(KS_BIN)/ks-build -o $@ $*

# cS/bench.json: the candidate checked and timed, from build.json
$(ks_all_cands:=/bench.json): %/bench.json: %/build.json
	$(KS_BIN)/ks-bench -o $@ $*

# The entry point.  A PROBLEM, TARGET or K given that POP's run is not
# is refused, with the command that continues the run.  ks-init, the one
# maker of POP/run.json, creates it or checks it against what was given;
# then, unless every file is made already, ks-lock runs one make of
# ks-generation holding POP/.lock, so that a second make on the same POP
# stops at once instead of racing this one (ks-lock names the make that
# holds it), and SIGINT, SIGTERM or SIGHUP to this make stops that one and
# all it runs: make passes on only SIGTERM, and only to a recipe's own
# process, which the shell makes ks-lock (exec).

# generation: generations 0..N in POP, then the summary line, from the tools
generation: $(KS_BUILD)
	@$(if $(ks_other),echo "$(ks_refusal)" >&2; exit 2)
	@$(KS_BIN)/ks-init $(if $(PROBLEM),-p '$(PROBLEM)') $(if $(TARGET),-t '$(TARGET)') $(if $(K),-k '$(K)') '$(POP)'
	@if $(MAKE) -f '$(ks_top)' --no-print-directory -q ks-pipeline 2>/dev/null; then \
		echo "ks: generations 0..$(N) of $(POP) are complete: nothing to do"; \
	else \
		exec $(KS_BIN)/ks-lock '$(POP)' $(MAKE) -f '$(ks_top)' --no-print-directory ks-generation; \
	fi
	@$(KS_BIN)/ks-report -b '$(POP)'

# ks-generation: generation N's files, then the line that ends it
ks-generation: ks-pipeline
	@$(KS_BIN)/ks-report -g '$(N)' '$(POP)'

# check: PROBLEM on TARGET tried before any run, in a temporary population
# that is removed after: problem.json checked (ks-init), the seed built
# with the harness and the reference, checked on every test shape and
# timed on every benchmark shape; one line says ready, or what is wrong.
check: $(KS_BUILD)
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && export KS_QUIET=1 && \
	$(KS_BIN)/ks-init $(if $(PROBLEM),-p '$(PROBLEM)') $(if $(TARGET),-t '$(TARGET)') -k 1 "$$d/pop" && \
	$(KS_BIN)/ks-implement "$$d/pop/gen-000/c0" && \
	$(KS_BIN)/ks-build "$$d/pop/gen-000/c0" && \
	$(KS_BIN)/ks-bench "$$d/pop/gen-000/c0" && \
	$(KS_BIN)/ks-report -s "$$d/pop"

# heldout: the seed and the TOP best kernels of POP benched on the problem's held-out shapes
# (heldout_shapes: never shown to a model, never in the score) into heldout.json, then the report,
# with each kernel's speed-up on them beside its benchmark speed-up
TOP ?= 5
heldout: $(KS_BUILD)
	@dirs=$$($(KS_BIN)/ks-query -t '$(TOP)' '$(POP)') || exit 1; \
	for d in $$dirs; do $(KS_BIN)/ks-bench -H "$$d" || exit 1; done
	@$(KS_BIN)/ks-report '$(POP)'

# estimate: the LLM calls and tokens that make generation N=... would take on POP, from its
# ledger so far (or from the prompts' sizes before any call), calling nothing
estimate: $(KS_BUILD)
	@[ -n '$(N)' ] || { echo 'estimate: say up to which generation, e.g. make estimate N=10' >&2; exit 2; }
	@[ -f '$(POP)/run.json' ] || { echo "estimate: '$(POP)' is no population yet: make generation N=0 POP=$(POP) makes one (no LLM call)" >&2; exit 2; }
	@$(KS_BIN)/ks-report -E '$(N)' '$(POP)'

# report: the table of POP's kernels, and the same as a page, POP/report.html (written atomically)
report: $(KS_BUILD)
	@$(KS_BIN)/ks-report '$(POP)'
	@$(KS_BIN)/ks-report --html -o '$(POP)/report.html' '$(POP)'
	@echo 'HTML report: $(POP)/report.html'
