/*
 * ks_offline_model.c - what the offline proposer believes about the
 * whole space of a kernel's tunable parameters.
 *
 * An additive model of log(time): each value of each parameter adds an
 * effect, fitted to every measured kernel by ridge regression (Gauss-
 * Seidel backfitting), so a value measured in a few kernels is shrunk
 * towards no effect.  It knows nothing of how parameters interact; it
 * only has to tell a draw worth a run from one that is not, across a
 * space far too large for the hill climber's one or two changes at a
 * time to cross (the search of Kernel Tuner's and similar tuners:
 * random restarts are strong because the good regions are far apart).
 * Each value also carries its count of measurements, for the model's
 * doubt: a value measured c times is known to the residuals' spread over
 * the root of c; an untested one only as well as values' effects are
 * known to spread (it may move the time as much as a typical measured
 * value does), which is what makes an untested value worth a draw even
 * beside one that measured fast.  (The spread of the times themselves
 * would be the sum of every parameter's effects: with it, the draws went
 * wherever the most values were untested, whatever the model knew.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ks_search.h"

#define RIDGE      1.0   /* prior weight of "no effect", in measurements */
#define SWEEPS     50    /* backfitting passes: converged well before */
#define MIN_SIGMA  0.05  /* the doubt never falls below 5 % of a time */

/* The root mean square of the measured values' effects. */
static double
effect_spread(const struct ks_tmodel *m)
{
	double ss = 0;
	int n = 0;

	for (int j = 0; j < m->nparams; j++)
		for (int a = 0; a < m->nvalues[j]; a++)
			if (m->count[j][a]) {
				ss += m->effect[j][a] * m->effect[j][a];
				n++;
			}
	return n ? sqrt(ss / n) : 0;
}

void
ks_tmodel_fit(struct ks_tmodel *m, int nparams, const int *nvalues, const int *idx, const double *y, int nobs)
{
	double *pred = ks_emalloc((nobs ? nobs : 1) * sizeof *pred), sum[KS_TUNE_MAX_VALUES], rss = 0;

	memset(m, 0, sizeof *m);
	m->nparams = nparams;
	m->nobs = nobs;
	memcpy(m->nvalues, nvalues, nparams * sizeof *nvalues);
	for (int i = 0; i < nobs; i++) {
		m->mu += y[i] / nobs;
		for (int j = 0; j < nparams; j++)
			m->count[j][idx[i * nparams + j]]++;
	}
	for (int i = 0; i < nobs; i++)
		pred[i] = m->mu;
	for (int sweep = 0; sweep < SWEEPS; sweep++)
		for (int j = 0; j < nparams; j++) {
			/* the residuals with parameter j's own effect put back */
			memset(sum, 0, sizeof sum);
			for (int i = 0; i < nobs; i++) {
				int a = idx[i * nparams + j];

				sum[a] += y[i] - pred[i] + m->effect[j][a];
			}
			/* the new effects, shrunk towards none; the predictions follow */
			for (int a = 0; a < nvalues[j]; a++)
				sum[a] /= m->count[j][a] + RIDGE;
			for (int i = 0; i < nobs; i++) {
				int a = idx[i * nparams + j];

				pred[i] += sum[a] - m->effect[j][a];
			}
			memcpy(m->effect[j], sum, nvalues[j] * sizeof *sum);
		}
	for (int i = 0; i < nobs; i++)
		rss += (y[i] - pred[i]) * (y[i] - pred[i]);
	free(pred);
	m->sigma = nobs > 1 ? sqrt(rss / (nobs - 1)) : 0;
	if (m->sigma < MIN_SIGMA)
		m->sigma = MIN_SIGMA;
	m->tau = effect_spread(m);
	if (m->tau < m->sigma)
		m->tau = m->sigma;
}

double
ks_tmodel_predict(const struct ks_tmodel *m, const int *idx)
{
	double p = m->mu;

	for (int j = 0; j < m->nparams; j++)
		p += m->effect[j][idx[j]];
	return p;
}

/* The doubt about a prediction: each value's, added as variances. */
double
ks_tmodel_doubt(const struct ks_tmodel *m, const int *idx)
{
	double var = 0;

	for (int j = 0; j < m->nparams; j++) {
		int c = m->count[j][idx[j]];

		var += c ? m->sigma * m->sigma / c : m->tau * m->tau;
	}
	return sqrt(var);
}
