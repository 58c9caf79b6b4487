/*
 * tmodel.c - unit tests of ks_offline_model.c: the offline proposer's
 * additive model of log(time).  Prints one line per failed case and
 * "N cases, N failed"; exits 1 when any failed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks_stages.h"
#include "expect.h"

/*
 * Two parameters of three values, every pair measured 4 times, log(time)
 * exactly additive; the first parameter has a fourth value never measured.
 */
static void
recovers_effects(void)
{
	static const double a[3] = { -0.5, 0, 0.5 }, b[3] = { 0.2, -0.2, 0 };
	int idx[72], nvalues[2] = { 4, 3 }, n = 0, best[2] = { 0, 1 }, worst[2] = { 2, 0 }, untested[2] = { 3, 1 };
	double y[36];
	struct ks_tmodel m;

	for (int r = 0; r < 4; r++)
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				idx[2 * n] = i;
				idx[2 * n + 1] = j;
				y[n++] = 5 + a[i] + b[j];
			}
	ks_tmodel_fit(&m, 2, nvalues, idx, y, n);
	expect("36 observations counted", m.nobs == 36 && m.count[0][1] == 12 && m.count[1][2] == 12);
	/* ridge with 12 kernels a value: each effect within 1/13 of the truth, and in order */
	for (int i = 0; i < 3; i++)
		expect("the first parameter's effects", fabs(m.effect[0][i] - a[i]) <= fabs(a[i]) / 13 + 1e-9);
	for (int j = 0; j < 3; j++)
		expect("the second parameter's effects", fabs(m.effect[1][j] - b[j]) <= fabs(b[j]) / 13 + 0.02);
	expect("the best configuration predicted fastest", ks_tmodel_predict(&m, best) < ks_tmodel_predict(&m, worst));
	expect("a prediction within 0.1 of log(time)", fabs(ks_tmodel_predict(&m, best) - (5 - 0.7)) < 0.1);
	/* a fit this good leaves the spread at its floor */
	expect("the residuals' spread at its 5 % floor", fabs(m.sigma - 0.05) < 1e-12);
	/* the fourth value may move the time as much as the measured values do (0.3 here), not 5 % */
	expect("the spread of the effects", m.tau > 0.25 && m.tau < 0.35);
	expect("an untested value doubted as the effects spread",
	    ks_tmodel_doubt(&m, untested) > m.tau && ks_tmodel_doubt(&m, untested) > 5 * ks_tmodel_doubt(&m, best));
}

/* A value no kernel had is less sure than one twelve kernels had. */
static void
doubts_untested(void)
{
	int idx[8] = { 0, 0, 0, 1, 1, 0, 1, 1 }, nvalues[2] = { 3, 2 }, tested[2] = { 0, 0 }, untested[2] = { 2, 0 };
	double y[4] = { 1.0, 1.5, 2.0, 2.5 };
	struct ks_tmodel m;

	ks_tmodel_fit(&m, 2, nvalues, idx, y, 4);
	expect("an untested value has no count and no effect", m.count[0][2] == 0 && m.effect[0][2] == 0);
	expect("an untested value doubted more", ks_tmodel_doubt(&m, untested) > ks_tmodel_doubt(&m, tested));
	expect("the doubt of an untested value is at least the residuals' spread", m.tau >= m.sigma);
}

/* No kernel measured: every prediction is 0, and nothing breaks. */
static void
fits_nothing(void)
{
	int nvalues[1] = { 4 }, cfg[1] = { 3 };
	struct ks_tmodel m;

	ks_tmodel_fit(&m, 1, nvalues, NULL, NULL, 0);
	expect("no observations: prediction 0", m.nobs == 0 && ks_tmodel_predict(&m, cfg) == 0);
	expect("no observations: a finite doubt", isfinite(ks_tmodel_doubt(&m, cfg)) && ks_tmodel_doubt(&m, cfg) > 0);
}

int
main(void)
{
	recovers_effects();
	doubts_untested();
	fits_nothing();
	return report();
}
