/*
 * ks-report - show a population: every kernel with its parents, status
 * and score, and the best one against the seed.  What the pipeline asks
 * of a population is ks-query's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"

struct opts {
	int brief;	/* -b */
	int seed;	/* -s */
	long gen;	/* -g N; -1: not asked */
	long estimate;	/* -E N; -1: not asked */
	int html;	/* --html */
	const char *out;	/* -o file: where --html writes the page; NULL: stdout */
};

/* getopt_long's value for --html: no short flag has it */
#define OPT_HTML 256

static int
on_flag(int ch, const char *value, void *arg)
{
	struct opts *o = arg;

	if (ch == 'b')
		o->brief = 1;
	else if (ch == OPT_HTML)
		o->html = 1;
	else if (ch == 'o')
		o->out = value;
	else if (ch == 'e' || ch == 'r' || ch == 't') {
		/* (the pipeline's questions moved to a tool of their own) */
		ks_warnx("-%c is ks-query's: ks-query -%c%s pop", ch, ch, ch == 't' ? " N" : "");
		return 2;
	} else if (ch == 's')
		o->seed = 1;
	else if (ch == 'g' && ks_parse_int(value, 0, KS_MAX_GEN, &o->gen) < 0) {
		ks_warnx("-g takes a generation from 0 to %d, not '%s'", KS_MAX_GEN, value);
		return 2;
	} else if (ch == 'E' && ks_parse_int(value, 0, KS_MAX_GEN, &o->estimate) < 0) {
		ks_warnx("-E takes a generation from 0 to %d, not '%s'", KS_MAX_GEN, value);
		return 2;
	}
	if (o->brief + o->seed + (o->gen >= 0) + o->html + (o->estimate >= 0) > 1) {
		ks_warnx("-b, -E, -g, -s and --html do not go together: each prints a report of its own");
		return 2;
	}
	return 0;
}

/*
 * The score of c on the problem's held-out shapes (heldout.json, make
 * heldout), or -1: none, not ok, or measured on another kernel than the
 * one bench.json measured.
 */
static double
heldout_score(const struct ks_cand *c, double *noise)
{
	char *path = ks_easprintf("%s/heldout.json", c->dir);
	struct ks_cand held = { 0 };
	double score = -1;

	if (noise)
		*noise = 0;
	if (c->score_us > 0 && ks_bench_rec_load(path, KS_OPTIONAL, &held.bench) == 0) {
		if (held.bench.score_us > 0 && (!held.bench.kernel_sha256 || !c->bench.kernel_sha256 ||
		    strcmp(held.bench.kernel_sha256, c->bench.kernel_sha256) == 0)) {
			score = held.score_us = held.bench.score_us;
			if (noise)
				*noise = ks_score_noise(&held);
		}
		ks_bench_rec_free(&held.bench);
	}
	free(path);
	return score;
}

/* a kernel tuned to the benchmark shapes: held out, it keeps less than this share of its speed-up */
#define HELDOUT_KEEPS 0.8

/*
 * c's speed-up over the seed on the held-out shapes (0: unknown), from the
 * seed's held-out score hs and its noise hn (read once by the caller), and
 * whether it falls far short of the benchmark's: under HELDOUT_KEEPS of
 * it, and by more than twice the noise of the four scores (a shortfall
 * inside the noise of a busy machine's benches says nothing).
 */
static double
heldout_speedup(const struct ks_cand *c, const struct ks_cand *seed, double hs, double hn, int *suspect)
{
	double hc, nc, up, bench_up, noise;

	*suspect = 0;
	if (!seed || !(hs > 0) || !((hc = heldout_score(c, &nc)) > 0))
		return 0;
	up = hs / hc;
	bench_up = seed->score_us / c->score_us;
	noise = sqrt(hn * hn + nc * nc + pow(ks_score_noise(c), 2) + pow(ks_score_noise(seed), 2));
	*suspect = up < HELDOUT_KEEPS * bench_up && log(bench_up / up) > 2 * noise;
	return up;
}

/*
 * -g N: the line that ends generation N in make generation's output (none
 * under KS_QUIET or KS_PROGRESS=0): its kernels by status, its best, and
 * the best so far.
 */
static void
print_generation(const char *root, const struct ks_cand *c, size_t n, long gen, const struct ks_cand *seed)
{
	const struct ks_cand *best = NULL, *sofar = NULL;
	struct ks_buf st = { 0 };
	const char *seen[16];
	size_t nseen = 0, count = 0;

	if (ks_progress_off())
		return;
	ks_buf_add(&st, "", 0);
	for (size_t i = 0; i < n; i++) {
		if (c[i].gen > gen)
			continue;
		if (c[i].score_us > 0 && (!sofar || c[i].score_us < sofar->score_us))
			sofar = &c[i];
		if (c[i].gen != gen)
			continue;
		count++;
		if (c[i].score_us > 0 && (!best || c[i].score_us < best->score_us))
			best = &c[i];
	}
	/* the statuses in the order they first appear, each with its count */
	for (size_t i = 0; i < n; i++) {
		const char *s = c[i].gen == gen ? (c[i].status ? c[i].status : "pending") : NULL;
		size_t k, same = 0;

		for (k = 0; s && k < nseen && strcmp(seen[k], s) != 0; k++)
			;
		if (!s || k < nseen || nseen == 16)
			continue;
		seen[nseen++] = s;
		for (size_t j = 0; j < n; j++)
			same += c[j].gen == gen && strcmp(c[j].status ? c[j].status : "pending", s) == 0;
		ks_buf_printf(&st, "%s%zu %s", st.len ? ", " : "", same, s);
	}
	printf("%s: generation %ld: %zu kernel%s (%s)", root, gen, count, count == 1 ? "" : "s",
	    count ? st.s : "none");
	if (best)
		printf("; its best %s %.1f us", best->id, best->score_us);
	if (sofar)
		printf("; best so far %s %.1f us", sofar->id, sofar->score_us);
	if (sofar && seed)
		printf(", %.2fx the seed", seed->score_us / sofar->score_us);
	printf("\n");
	ks_buf_free(&st);
}

static const char *
parent(const struct ks_cand *c, const char *key)
{
	const char *id = strcmp(key, "base") == 0 ? c->cand.base : c->cand.reference;

	return id ? id : "-";
}

/* Same speed as the seed within the noise (neither faster): a ~ after the speed-up. */
static int
as_seed(const struct ks_cand *c, const struct ks_cand *seed)
{
	return seed && c != seed && !ks_faster(c, seed) && !ks_faster(seed, c);
}

static void
print_table(const struct ks_cand *c, size_t n, const struct ks_cand *seed)
{
	char sp[32];
	double hn, hs = seed ? heldout_score(seed, &hn) : -1;
	int held = hs > 0, suspect;

	printf("%-8s %-8s %-8s %-12s %12s %8s ", "id", "base", "ref", "status", "score_us", "speedup");
	if (held)
		printf("%9s ", "held-out");
	printf("%7s  %s\n", "spread", "plan");
	for (size_t i = 0; i < n; i++) {
		const char *title = ks_json_str(c[i].cand.plan, "title", NULL);

		printf("%-8s %-8s %-8s %-12s ", c[i].id, parent(&c[i], "base"), parent(&c[i], "reference"),
		    c[i].status ? c[i].status : "pending");
		if (c[i].score_us > 0 && seed)
			printf("%12.1f %7.2fx%s", c[i].score_us, seed->score_us / c[i].score_us,
			    as_seed(&c[i], seed) ? "~" : " ");
		else if (c[i].score_us > 0)
			printf("%12.1f %8s ", c[i].score_us, "-");
		else
			printf("%12s %8s ", "-", "-");
		/* the speed-up on shapes no model saw; ? where it keeps far less than on the benchmark's */
		if (held) {
			double up = heldout_speedup(&c[i], seed, hs, hn, &suspect);

			if (up > 0)
				printf("%8.2fx%s", up, suspect ? "?" : " ");
			else
				printf("%9s ", "-");
		}
		ks_score_spread(sp, sizeof sp, &c[i]);
		/* a spread of 100 % or more fills the column: a space keeps it apart from the marker before it */
		printf("%s%7s  %s\n", strlen(sp) >= 7 ? " " : "", sp, title ? title : (c[i].gen == 0 ? "(seed)" : "-"));
	}
}

static void
print_summary(const char *root, const struct ks_cand *c, size_t n)
{
	char *line = ks_report_summary(root, c, n);

	printf("%s\n", line);
	free(line);
}

static void
describe(char *buf, size_t n, const char *status, double score)
{
	if (score > 0)
		snprintf(buf, n, "%s %.1f us", status ? status : "not benched", score);
	else
		snprintf(buf, n, "%s", status ? status : "not benched");
}

/*
 * The results that changed after a later generation was made from them
 * (a bench redone, a kernel edited): that generation stands as it was
 * made, and the line says so.  Returns -1 when a select.json does not load.
 */
static int
print_changed(const char *root, struct ks_cand *c, size_t n)
{
	long last = n ? c[n - 1].gen : 0;

	for (long g = 1; g <= last; g++) {
		char *dir = ks_gen_dir(root, g), *path = ks_easprintf("%s/select.json", dir);
		struct ks_select_rec sel;
		const cJSON *e;
		int rc = ks_select_rec_load(path, KS_OPTIONAL, &sel);

		free(dir);
		free(path);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		cJSON_ArrayForEach(e, sel.seen) {
			const cJSON *sc = cJSON_GetObjectItemCaseSensitive(e, "score_us");
			const char *st = ks_json_str(e, "status", NULL);
			struct ks_cand *now = ks_cands_find(c, n, ks_json_str(e, "id", NULL));
			double then = cJSON_IsNumber(sc) ? sc->valuedouble : -1;
			char a[64], b[64];

			if (!now || (then == now->score_us && (st && now->status ? strcmp(st, now->status) == 0 :
			    st == now->status)))
				continue;
			describe(a, sizeof a, st, then);
			describe(b, sizeof b, now->status, now->score_us);
			printf("%s: %s changed after generation %ld was made from it: %s then, %s now\n", root, now->id,
			    g, a, b);
		}
		ks_select_rec_free(&sel);
	}
	return 0;
}

/* whether k is faster than its base beyond the noise */
static int
improves(const struct ks_cand *c, size_t n, const struct ks_cand *k)
{
	const struct ks_cand *base = k->cand.base ? ks_cands_find((struct ks_cand *)c, n, k->cand.base) : NULL;

	return base && k->score_us > 0 && base->score_us > 0 && ks_faster(k, base);
}

/*
 * Each model that wrote kernels: how many, and its share of the run's
 * correct kernels and of those faster than their base, for a run that
 * spreads its candidates over several models (KS_IMPLEMENT_MODEL="a:3,b:1").
 */
static void
print_models(const char *root, const struct ks_cand *c, size_t n)
{
	size_t correct = 0, improving = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].gen > 0) {
			correct += c[i].score_us > 0;
			improving += improves(c, n, &c[i]);
		}
	for (size_t i = 0; i < n; i++) {
		const char *m = c[i].cand.model;
		size_t written = 0, ok = 0, better = 0, j;

		if (c[i].gen == 0 || !m || strcmp(m, "offline") == 0)
			continue;
		for (j = 0; j < i && !(c[j].gen > 0 && c[j].cand.model && strcmp(c[j].cand.model, m) == 0); j++)
			;
		if (j < i)
			continue;	/* counted at its first kernel */
		for (j = i; j < n; j++)
			if (c[j].gen > 0 && c[j].cand.model && strcmp(c[j].cand.model, m) == 0) {
				written++;
				ok += c[j].score_us > 0;
				better += improves(c, n, &c[j]);
			}
		printf("%s: model %s: %zu kernels, %zu correct (%.0f %% of the correct), %zu faster than their base "
		    "(%.0f %% of those)\n", root, m, written, ok, correct ? 100.0 * (double)ok / (double)correct : 0,
		    better, improving ? 100.0 * (double)better / (double)improving : 0);
	}
}

/* The kernels whose speed-up does not hold on the held-out shapes. */
static void
print_heldout(const char *root, const struct ks_cand *c, size_t n, const struct ks_cand *seed)
{
	double hn, hs = seed ? heldout_score(seed, &hn) : -1;
	int suspect;

	for (size_t i = 0; i < n && hs > 0; i++) {
		double up = heldout_speedup(&c[i], seed, hs, hn, &suspect);

		if (up > 0 && suspect)
			printf("%s: %s is %.2fx the seed on the benchmark shapes but %.2fx on the held-out ones: tuned to "
			    "the benchmark shapes?\n", root, c[i].id, seed->score_us / c[i].score_us, up);
	}
}

/* How the plans' predicted uplift ranges held up, over the whole run. */
static void
print_calibration(const char *root, const struct ks_cand *c, size_t n)
{
	struct ks_calibration cal;

	ks_calibrate(c, n, &cal);
	if (cal.measured == 0 && cal.failed == 0)
		return;
	printf("%s: plans' predicted uplift: %ld of %ld measured inside their range (%.0f %%), %ld below, %ld above, "
	    "%.2fx the speed-up the middle promised (geometric mean); %ld failed\n", root, cal.inside, cal.measured,
	    cal.measured ? 100.0 * (double)cal.inside / (double)cal.measured : 0, cal.below, cal.above,
	    cal.speed_ratio, cal.failed);
}

/* What the run's LLM calls cost, from the ledger the LLM stages keep. */
static int
print_usage(const char *root)
{
	struct ks_usage u;

	if (ks_ledger_load(root, &u) < 0)
		return -1;
	if (u.calls > 0 && u.cached_prompt_tokens > 0)
		printf("%s: %ld LLM calls (%ld from the cache), %ld prompt (%ld of them cached by the provider) and %ld "
		    "completion tokens billed\n", root, u.calls, u.cached_calls, u.prompt_tokens, u.cached_prompt_tokens,
		    u.completion_tokens);
	else if (u.calls > 0)
		printf("%s: %ld LLM calls (%ld from the cache), %ld prompt and %ld completion tokens billed\n", root,
		    u.calls, u.cached_calls, u.prompt_tokens, u.completion_tokens);
	if (u.failed_calls > 0)
		printf("%s: %ld LLM tries failed after their request went out: the provider may have billed them "
		    "(see llm-usage.jsonl)\n", root, u.failed_calls);
	return 0;
}

/* The first generation whose plans say the search space is exhausted, and why. */
static void
print_exhausted(const char *root)
{
	size_t ngens;
	long *gens = ks_gens_list(root, &ngens);

	for (size_t i = 0; i < ngens; i++) {
		char *dir = ks_gen_dir(root, gens[i]);
		cJSON *h = NULL;
		const char *why;

		if (ks_plans_kept(root, gens[i]) == 0 && (h = ks_hypotheses_load(dir, 0)) &&
		    (why = ks_json_str(h, "exhausted", NULL))) {
			printf("%s: generation %ld: %s\n", root, gens[i], why);
			i = ngens;
		}
		cJSON_Delete(h);
		free(dir);
	}
	free(gens);
}

/*
 * 1 when generation 1 would fail: the offline proposer makes its plans
 * (run.json records no model for ks-hypothesize: ks-init wrote it from
 * the same settings a moment before) and the seed declares no knob for
 * it to turn.  With a model the seed needs none.
 */
static int
knobless_offline(const struct ks_run *run, const struct ks_cand *seed)
{
	const cJSON *models = cJSON_GetObjectItemCaseSensitive(run->json, "models");
	const char *model = ks_json_str(models, "hypothesize", NULL);
	struct ks_param knob;
	char *code;
	int knobs;

	if (!model || strcmp(model, "offline") != 0 || !(code = ks_cand_code(seed)))
		return 0;
	knobs = ks_tune_parse(code, &knob, 1);
	free(code);
	return knobs == 0;
}

/*
 * -s: the seed's verdict, as make check prints it: the problem and target,
 * then ready with the score, or what went wrong (with the compiler's
 * first lines when it did not build), or not ready when generation 1
 * would find no knob to turn.  Returns 0 when the seed is ready.
 */
static int
print_seed(const struct ks_run *run, const struct ks_cand *c, size_t n)
{
	const struct ks_cand *seed = n && c[0].gen == 0 ? &c[0] : NULL;
	struct ks_problem p;
	int ntests, nbenches;

	/* (said: the problem, e.g. KS_KERNELS_DIR not set as when the run was made) */
	if (ks_problem_load(run->problem, &p) < 0)
		return 1;
	ntests = cJSON_GetArraySize(p.test_shapes);
	nbenches = cJSON_GetArraySize(p.bench_shapes);
	ks_problem_free(&p);
	printf("problem %s, target %s: ", run->problem, run->target);
	if (!seed || !seed->status) {
		printf("the seed has not been benched\n");
		return 1;
	}
	if (strcmp(seed->status, "ok") == 0 && !knobless_offline(run, seed)) {
		printf("ready: the seed builds, is correct on the %d test shapes and scores %.1f us on the %d "
		    "benchmark shapes\n", ntests, seed->score_us, nbenches);
		return 0;
	}
	if (strcmp(seed->status, "ok") == 0) {
		printf("not ready: the seed is correct (%.1f us), but declares no tunable parameter, and no model is set "
		    "(KS_MODEL): the offline proposer would have nothing to change in generation 1 (mark one "
		    "'#define NAME VALUE /* ks-tune: V1 V2 ... */', or set a model)\n", seed->score_us);
		return 1;
	}
	printf("the seed is %s: %s\n", seed->status, seed->bench.message ? seed->bench.message : "no message");
	if (strcmp(seed->status, "build_failed") == 0 || strcmp(seed->status, "rejected") == 0) {
		char *path = ks_easprintf("%s/build.json", seed->dir);
		struct ks_build_rec b;

		if (ks_build_rec_load(path, 0, &b) == 0) {
			if (b.rejected)
				printf("%s\n", b.rejected);
			else if (b.diagnostics)
				printf("%.2000s\n", b.diagnostics);
			ks_build_rec_free(&b);
		}
		free(path);
	}
	return 1;
}

/* ---- ks-report A B: two runs side by side ---- */

struct run_view {
	const char *root;
	struct ks_run run;
	struct ks_cand *c;
	size_t n;
	long last_gen;
};

static int
view_load(const char *root, struct run_view *v)
{
	size_t ngens;
	long *gens;

	memset(v, 0, sizeof(*v));
	v->root = root;
	if (ks_run_load(root, &v->run) < 0)
		return -1;
	if (ks_cands_load(v->run.root, KS_MAX_GEN + 1, KS_KEEP_GOING, &v->c, &v->n) < 0) {
		ks_run_free(&v->run);
		return -1;
	}
	gens = ks_gens_list(root, &ngens);
	v->last_gen = ngens ? gens[ngens - 1] : -1;
	free(gens);
	return 0;
}

static void
view_free(struct run_view *v)
{
	ks_cands_free(v->c, v->n);
	ks_run_free(&v->run);
}

/* the best correct kernel of v up to generation g, or NULL */
static const struct ks_cand *
best_until(const struct run_view *v, long g)
{
	const struct ks_cand *best = NULL;

	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].gen <= g && v->c[i].score_us > 0 && (!best || v->c[i].score_us < best->score_us))
			best = &v->c[i];
	return best;
}

/* the first generation at which v's best reached score (or better); -1 when it never did */
static long
reached(const struct run_view *v, double score)
{
	for (long g = 0; g <= v->last_gen; g++) {
		const struct ks_cand *b = best_until(v, g);

		if (b && b->score_us <= score)
			return g;
	}
	return -1;
}

static void
add_cell(struct ks_buf *row, const struct ks_cand *b)
{
	if (b)
		ks_buf_printf(row, "  %12.1f %8s", b->score_us, b->id);
	else
		ks_buf_printf(row, "  %12s %8s", "-", "");
}

/*
 * Two runs of one problem and target: the best score so far at every
 * generation of either, side by side, then each run's best and which of
 * them first reached the score both reached (the slower of the two bests).
 */
static int
compare(const char *a, const char *b)
{
	struct run_view v[2];
	const struct ks_cand *best[2];
	int rc = 1;

	if (view_load(a, &v[0]) < 0)
		return 1;
	if (view_load(b, &v[1]) < 0) {
		view_free(&v[0]);
		return 1;
	}
	if (strcmp(v[0].run.problem, v[1].run.problem) != 0 || strcmp(v[0].run.target, v[1].run.target) != 0) {
		ks_warnx("'%s' is %s on %s, '%s' is %s on %s: their scores do not compare", a, v[0].run.problem,
		    v[0].run.target, b, v[1].run.problem, v[1].run.target);
		goto out;
	}
	printf("%-10s  %21s  %21s\n", "generation", "A: best so far (us)", "B: best so far (us)");
	for (long g = 0; g <= v[0].last_gen || g <= v[1].last_gen; g++) {
		struct ks_buf row = { 0 };

		ks_buf_printf(&row, "%-10ld", g);
		add_cell(&row, g <= v[0].last_gen ? best_until(&v[0], g) : NULL);
		add_cell(&row, g <= v[1].last_gen ? best_until(&v[1], g) : NULL);
		while (row.len > 0 && row.s[row.len - 1] == ' ')
			row.s[--row.len] = '\0';
		printf("%s\n", row.s);
		ks_buf_free(&row);
	}
	for (int i = 0; i < 2; i++) {
		best[i] = best_until(&v[i], v[i].last_gen);
		printf("%s: %s (%s on %s, K=%ld): ", i ? "B" : "A", v[i].root, v[i].run.problem, v[i].run.target,
		    v[i].run.k);
		if (best[i])
			printf("best %s %.1f us, reached at generation %ld of %ld\n", best[i]->id, best[i]->score_us,
			    reached(&v[i], best[i]->score_us), v[i].last_gen);
		else
			printf("no correct kernel\n");
	}
	if (best[0] && best[1]) {
		double both = best[0]->score_us > best[1]->score_us ? best[0]->score_us : best[1]->score_us;
		long ga = reached(&v[0], both), gb = reached(&v[1], both);

		printf("both reached %.1f us: A at generation %ld, B at generation %ld: %s\n", both, ga, gb,
		    ga < gb ? "A first" : gb < ga ? "B first" : "at the same generation");
	}
	rc = 0;
out:
	view_free(&v[0]);
	view_free(&v[1]);
	return rc;
}

/*
 * At a generation's end: POP/report.html, where make report wrote one, is
 * written again, so that the page a user keeps open (and reloads) shows the
 * run as it is now and not as it was when they asked for it.  A page that
 * cannot be written is named but ends nothing: the generation is done.
 */
static void
refresh_page(const struct ks_run *run, const struct ks_cand *c, size_t n)
{
	char *path = ks_easprintf("%s/report.html", run->root), *page = NULL;

	if (ks_exists(path) && (!(page = ks_report_html(run, c, n)) ||
	    ks_file_write_atomic(path, page, strlen(page)) < 0))
		ks_warnx("'%s' could not be brought up to date: make report POP=%s writes it", path, run->root);
	free(page);
	free(path);
}

int
main(int argc, char *argv[])
{
	struct opts o = { .gen = -1, .estimate = -1 };
	int rval = 0;
	const char *other = NULL;
	static const struct option longopts[] = { { "html", no_argument, NULL, OPT_HTML }, { NULL, 0, NULL, 0 } };
	struct ks_args_spec spec = { "[-b | -E N | -g N | -s | --html [-o file]] pop [pop2]",
		"  Prints a table of every kernel of pop (id, parents, status, score in\n"
		"  microseconds, speed-up over the seed, spread: the largest relative\n"
		"  standard error of its shapes, ! when one did not converge) and a\n"
		"  summary line; then each result that changed after a later\n"
		"  generation was made from it, and where the search space was exhausted.\n"
		"  -b  print only the summary lines\n"
		"  -E N  print only an estimate of the LLM calls and tokens that making\n"
		"      generations up to N takes, by stage, from the ledger so far (make\n"
		"      estimate N=...)\n"
		"  -g N  print only the line that ends generation N in make's output: its\n"
		"      kernels by status, its best, the best so far (nothing under KS_QUIET\n"
		"      or KS_PROGRESS=0); and write pop/report.html again where it exists\n"

		"  -s  print only the seed's verdict (what make check says); exit 1\n"
		"      unless the seed is ok\n"

		"  --html  print instead one HTML page that needs no network: the best\n"
		"      score by generation with every kernel as a dot, the lineage, the\n"
		"      table (sorted by a click on a header), each plan's expected uplift\n"
		"      beside the measured one, the LLM tokens by stage, and each kernel's\n"
		"      source and transcripts\n"
		"  -o file  with --html: write the page to file (atomically), not stdout\n"
		"  Where heldout.json exists (make heldout), the table shows each kernel's\n"
		"  speed-up over the seed on the held-out shapes, ? where it keeps less than\n"
		"  0.8 of its benchmark speed-up.\n"
		"  With two populations of one problem and target: the best score so far at\n"
		"  every generation of each, side by side, and which run reached first the\n"
		"  score both reached.\n"
		"  What the pipeline asks of a population (its run, its empty slots, its\n"
		"  best kernels' folders) is ks-query's.\n", "bE:eg:o:rst:", on_flag, &o, &other, longopts, NULL };
	const char *root = ks_args(argc, argv, &spec);
	struct ks_cand *c;
	const struct ks_cand *seed = NULL;
	struct ks_run run;
	size_t n;

	if (o.out && !o.html) {
		ks_warnx("-o names the file of the --html page: it goes with --html");
		return 2;
	}
	if (other) {
		if (o.brief || o.seed || o.gen >= 0 || o.html || o.estimate >= 0) {
			ks_warnx("two populations are compared without -b, -E, -g, -s or --html");
			return 2;
		}
		rval = compare(root, other);
		return ks_fclose_stdout() < 0 ? 1 : rval;
	}
	if (ks_run_load(root, &run) < 0)
		return 1;
	if (o.estimate >= 0) {
		rval = ks_estimate_print(root, &run, o.estimate) < 0;
		ks_run_free(&run);
		return ks_fclose_stdout() < 0 ? 1 : rval;
	}
	if (ks_cands_load(run.root, KS_MAX_GEN + 1, KS_KEEP_GOING, &c, &n) < 0) {
		ks_run_free(&run);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (c[i].gen == 0 && c[i].score_us > 0 && !seed)
			seed = &c[i];
		/* shown as a row of its own, and named by its loader: the report is whole, the status says the fault */
		if (c[i].status && strcmp(c[i].status, "unreadable") == 0)
			rval = 1;
	}
	if (o.gen >= 0) {
		print_generation(root, c, n, o.gen, seed);
		refresh_page(&run, c, n);
		ks_cands_free(c, n);
		ks_run_free(&run);
		return ks_fclose_stdout() < 0;
	}
	if (o.html) {
		char *page = ks_report_html(&run, c, n);

		if (!page)
			rval = 1;
		else if (o.out ? ks_file_write_atomic(o.out, page, strlen(page)) < 0 :
		    fwrite(page, 1, strlen(page), stdout) != strlen(page))
			rval = 1;
		free(page);
		ks_cands_free(c, n);
		ks_run_free(&run);
		return ks_fclose_stdout() < 0 ? 1 : rval;
	}
	if (o.seed) {
		rval = print_seed(&run, c, n);
		ks_cands_free(c, n);
		ks_run_free(&run);
		return ks_fclose_stdout() < 0 ? 1 : rval;
	}
	if (!o.brief)
		print_table(c, n, seed);
	print_summary(run.root, c, n);
	print_exhausted(run.root);
	if (!o.brief) {
		print_heldout(run.root, c, n, seed);
		print_models(run.root, c, n);
		print_calibration(run.root, c, n);
	}
	if (print_changed(run.root, c, n) < 0)
		rval = 1;
	if (print_usage(run.root) < 0)
		rval = 1;
	ks_cands_free(c, n);
	ks_run_free(&run);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
