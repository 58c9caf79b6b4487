# pipeline.mk - the evolution loop as make rules.
#
#   make generation N=5 [POP=population] [PROBLEM=sgemm] [TARGET=cpu] [K=3]
#
# makes generation 5 and every missing generation before it.  Each stage
# is a file written by one tool (ks-x -o $@), so an interrupted run
# resumes with the same command and redoes nothing that finished, and
# make -j builds and benches the K candidates of a generation in parallel
# (ks-bench still times one kernel at a time per device).
#
#   gen-000/c0/candidate.json   ks-implement (the problem's seed)
#   gen-NNN/select.json         ks-select     <- every bench.json of gen NNN-1
#   gen-NNN/hypotheses.json     ks-hypothesize
#   gen-NNN/cS/candidate.json   ks-implement  (kernel.<ext> beside it)
#   gen-NNN/cS/build.json       ks-build
#   gen-NNN/cS/bench.json       ks-bench

POP ?= population
PROBLEM ?= sgemm
TARGET ?= cpu
K ?= 3
KS_BIN ?= tools

.SUFFIXES:
.PHONY: ks-pipeline

ifneq ($(filter generation ks-locked ks-pipeline,$(MAKECMDGOALS)),)
ifeq ($(strip $(N)),)
$(error N is not set: say which generation to make, e.g. make generation N=5)
endif
ifeq ($(shell echo '$(N)' | grep -Ex '[0-9]{1,3}'),)
$(error N must be a generation number from 0 to 999, not '$(N)')
endif
ifeq ($(shell echo '$(K)' | grep -Ex '[1-5]'),)
$(error K must be a number of candidates from 1 to 5, not '$(K)')
endif
endif

ks_num = $(shell seq -f '%03g' 0 $(N))
ks_all := $(if $(N),$(ks_num))
ks_new := $(wordlist 2,$(words $(ks_all)),$(ks_all))
ks_prev := $(wordlist 1,$(words $(ks_new)),$(ks_all))
ks_slots := $(if $(N),$(shell seq 0 $$(($(K) - 1))))
ks_gen_cands = $(if $(filter 000,$1),$(POP)/gen-000/c0,$(foreach s,$(ks_slots),$(POP)/gen-$1/c$s))
ks_cands := $(foreach g,$(ks_all),$(call ks_gen_cands,$g))
ks_last := $(lastword $(ks_all))

# Every candidate's outputs are explicit targets, so make never treats
# them as intermediate files to delete.
ks-pipeline: $(foreach c,$(call ks_gen_cands,$(ks_last)),$c/bench.json)

$(POP)/run.json:
	$(KS_BIN)/ks-init -p $(PROBLEM) -t $(TARGET) -k $(K) -o $@ $(POP)

$(POP)/gen-000/c0/candidate.json: $(POP)/run.json
	$(KS_BIN)/ks-implement -o $@ $(@D)

# $1: this generation, $2: the one before it.
define ks_gen_rules
$(POP)/gen-$1/select.json: $(foreach c,$(call ks_gen_cands,$2),$c/bench.json)
	$(KS_BIN)/ks-select -o $$@ $$(@D)

$(POP)/gen-$1/hypotheses.json: $(POP)/gen-$1/select.json
	$(KS_BIN)/ks-hypothesize -o $$@ $$(@D)

$(foreach s,$(ks_slots),$(POP)/gen-$1/c$s/candidate.json): $(POP)/gen-$1/hypotheses.json
	$(KS_BIN)/ks-implement -o $$@ $$(@D)
endef
$(foreach p,$(join $(ks_new),$(addprefix :,$(ks_prev))),\
  $(eval $(call ks_gen_rules,$(word 1,$(subst :, ,$p)),$(word 2,$(subst :, ,$p)))))

$(ks_cands:=/build.json): %/build.json: %/candidate.json
	$(KS_BIN)/ks-build -o $@ $*

$(ks_cands:=/bench.json): %/bench.json: %/build.json
	$(KS_BIN)/ks-bench -o $@ $*

# The entry point: check (or create) run.json, then, holding POP/.lock so
# that a second make on the same POP stops with a clear message instead of
# racing the first, run what is missing or say that nothing is.
generation: tools
	@$(KS_BIN)/ks-init -p '$(PROBLEM)' -t '$(TARGET)' -k '$(K)' '$(POP)'
	@flock -n -E 75 '$(POP)/.lock' $(MAKE) --no-print-directory ks-locked; rc=$$?; \
	if [ $$rc -eq 75 ]; then \
		echo "ks: another make is running on $(POP) (it holds '$(POP)/.lock'): let it finish, or stop it first" >&2; \
	fi; \
	exit $$rc

.PHONY: ks-locked
ks-locked:
	@if $(MAKE) --no-print-directory -q ks-pipeline 2>/dev/null; then \
		echo "ks: generations 0..$(N) of $(POP) are complete: nothing to do"; \
	else \
		$(MAKE) --no-print-directory ks-pipeline; \
	fi
	@$(KS_BIN)/ks-report -b '$(POP)'

report: tools
	@$(KS_BIN)/ks-report '$(POP)'
