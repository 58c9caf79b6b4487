/*
 * offline.h - what the files of the offline proposer share (ks_offline.c:
 * its hypothesize, the population's configurations read and the plans
 * written; ks_offline_moves.c: the hill climber's changes of the base's
 * tunable parameters, scored; ks_offline_draw.c: the model's draw across
 * the whole space).  Private to them.
 */
#ifndef KS_OFFLINE_PRIVATE_H
#define KS_OFFLINE_PRIVATE_H

#include "ks_search.h"

#define MAX_PARAMS KS_TUNE_MAX_PARAMS

/* The most configurations the last resort enumerates (ks_offline_moves.c); exhausted says so. */
#define SPACE_MAX 1000000L

/*
 * One proposed configuration of the base's parameters: the values it sets
 * (cfg, in the base's order), how many differ from the base, and the
 * estimate that ranks it.
 */
struct move {
	long cfg[MAX_PARAMS];
	int nch;
	int first;         /* the first parameter it changes, for a stable order */
	double est, lo, hi;
	int innovation;
	int measured;      /* est comes from kernels that have the new value */
	char why[160];
};

struct config {
	struct ks_param p[MAX_PARAMS];
	int n;
	const struct ks_cand *cand;
};

/* The moves found so far; every one differs from the base and from each other. */
struct moves {
	struct move *m;
	size_t n, cap;
	const struct ks_param *bp;
	int nb;
	struct ks_tmodel model;	/* of the population measured (ks_offline_model.c) */
	int fitted;		/* the kernels it was fitted to */
};

/*
 * The untried configurations worth a run, best first, in ms->m; fits
 * ms->model on the way (ks_offline_moves.c).
 */
void ks_offline_propose_moves(struct moves *ms, const struct ks_cand *base, struct config *cfg, int m, long *space);
/* *mv as the move to configuration cfgv; -1 when it is no new one (ks_offline_moves.c) */
int ks_offline_new_move(const struct moves *ms, const long *cfgv, const struct config *cfg, int m, struct move *mv);
/* *mv as the model's draw across the whole space, once ks_offline_propose_moves fitted ms->model (ks_offline_draw.c) */
int ks_offline_draw_move(struct moves *ms, const struct ks_cand *base, const struct config *cfg, int m, struct move *mv);

#endif
