/*
 * ks_search.h - layer 7 of the library: the search without a model: the
 * offline proposer and its model of the knobs.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_SEARCH_H
#define KS_SEARCH_H

#include "ks_ask.h"

/*
 * ks_offline_model.c: an additive model of log(time) over the tunable
 * parameters, for the offline proposer.  Configurations are given as the
 * index of each parameter's value in its allowed list (idx: nobs rows of
 * nparams); y is log(time) of each.
 */
struct ks_tmodel {
	int nparams, nobs;
	int nvalues[KS_TUNE_MAX_PARAMS];
	int count[KS_TUNE_MAX_PARAMS][KS_TUNE_MAX_VALUES];     /* kernels measured with each value */
	double effect[KS_TUNE_MAX_PARAMS][KS_TUNE_MAX_VALUES]; /* what each value adds to log(time) */
	double mu, sigma, tau;      /* the mean; the spread of the residuals, of the values' effects (log) */
};
void ks_tmodel_fit(struct ks_tmodel *m, int nparams, const int *nvalues, const int *idx, const double *y, int nobs);
double ks_tmodel_predict(const struct ks_tmodel *m, const int *idx);   /* log(time) */
double ks_tmodel_doubt(const struct ks_tmodel *m, const int *idx);     /* one standard error of it */

/* ks_offline_select.c, ks_offline.c: the rules used when no LLM is configured */
int ks_offline_select(struct ks_cand *c, size_t n, cJSON **out);
/* a kernel of status ok */
int ks_offline_ok(const struct ks_cand *c);
/* NULL and *why (caller prints and frees) when it has nothing to propose; NULL alone after an I/O error it printed. */
cJSON *ks_offline_hypothesize(const struct ks_cand *base, struct ks_cand *c, size_t n, char **why);

#endif
