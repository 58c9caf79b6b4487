/*
 * ks_stage.c - the opening and closing that the LLM stages share: the
 * stage's directory, run.json, the model, the problem, the kernels before
 * the generation and select.json's choice, loaded in one order (where
 * several are wrong, every stage names the same one first) and freed in
 * one place.  Not ks-build's, ks-bench's or ks-profile's: this file calls
 * the LLM client, which those tools do not hold.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

/* ks_llm_open's draw: the stage's calls in the run numbered by generation, or by candidate slot (K a generation) */
static long
draw(const struct ks_stage *st)
{
	return st->slot < 0 ? st->gen - 1 : (st->gen - 1) * st->run.k + st->slot;
}

int
ks_stage_open(struct ks_stage *st, const char *name, const char *dir, unsigned flags)
{
	memset(st, 0, sizeof *st);
	st->name = name;
	st->dir = dir;
	st->slot = -1;
	st->offline = -1;
	if (flags & KS_STAGE_SLOT) {
		if (ks_cand_dir_parse(dir, &st->root, &st->gen, &st->slot) < 0)
			return -1;
		st->gdir = ks_gen_dir(st->root, st->gen);
	} else {
		if (ks_gen_dir_parse(dir, &st->root, &st->gen) < 0)
			return -1;
		/* as given, for select.json's path in a message to read as the operand did */
		st->gdir = ks_estrdup(dir);
	}
	return ks_stage_load(st, flags);
}

int
ks_stage_load(struct ks_stage *st, unsigned flags)
{
	if ((flags & KS_STAGE_RUN) && ks_run_load(st->root, &st->run) < 0)
		return -1;
	if ((flags & KS_STAGE_LLM) && (st->offline = ks_llm_open(&st->llm, st->name, st->root, draw(st))) < 0)
		return -1;
	if ((flags & KS_STAGE_PROBLEM) && ks_problem_load(st->run.problem, &st->prob) < 0)
		return -1;
	if ((flags & KS_STAGE_CANDS) && ks_cands_load(st->root, st->gen, 0, &st->c, &st->n) < 0)
		return -1;
	if ((flags & KS_STAGE_SELECT) && ks_select_load(st->gdir, st->c, st->n, &st->base, &st->ref) < 0)
		return -1;
	return 0;
}

void
ks_stage_close(struct ks_stage *st)
{
	ks_cands_free(st->c, st->n);
	ks_problem_free(&st->prob);
	if (st->offline == 0)
		ks_llm_close(&st->llm);
	ks_run_free(&st->run);
	free(st->gdir);
	free(st->root);
}
