/*
 * ks_context.c - what the LLM stages show the model of the population:
 * its kernels, their times, profiles and lineage, the reference and the
 * named kernels, the other plans.  What earlier generations found is
 * ks_findings.c's; the task and the notes ks_task.c's; how a stage asks,
 * ks_ask_model.c's; the target's facts ks_facts.c's.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

const char *
ks_ctx_parent_of(const struct ks_cand *c, const char *key)
{
	const char *id = strcmp(key, "base") == 0 ? c->cand.base : c->cand.reference;

	return id ? id : "-";
}

const char *
ks_ctx_plan_title(const struct ks_cand *c)
{
	const char *t = ks_json_str(c->cand.plan, "title", NULL);

	return t ? t : c->gen == 0 ? "(the seed kernel)" : "-";
}

/* The build's resource report, when the compiler gave one. */
static void
add_resources(struct ks_buf *b, const struct ks_cand *c)
{
	char *path = ks_easprintf("%s/build.json", c->dir);
	struct ks_build_rec build;

	/* a build.json that does not load was said; the prompt goes without its resources */
	if (ks_build_rec_load(path, KS_OPTIONAL, &build) == 0) {
		if (build.resources) {
			char *r = cJSON_PrintUnformatted(build.resources);
			ks_buf_printf(b, "  resources: %s\n", r);
			cJSON_free(r);
		}
		ks_build_rec_free(&build);
	}
	free(path);
}

/*
 * " ±X %" after a shape's time: twice the relative standard error of its
 * median (about a 95 % interval), and a word where the bench ran into
 * its time cap; nothing where a single call left no spread.
 */
static void
add_shape_noise(struct ks_buf *b, const cJSON *r)
{
	double rse;

	double runs = 0;

	if (ks_json_num(r, "rel_stderr", NULL, &rse) == 0 && rse >= 0)
		ks_buf_printf(b, " \xc2\xb1%.1f %%", 200 * rse);
	else if (ks_json_num(r, "runs", NULL, &runs) == 0 && runs == 1)
		ks_buf_puts(b, " (one call: no spread)");
	else
		ks_buf_puts(b, " (spread unknown)");
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "converged")))
		ks_buf_puts(b, " (did not converge)");
}

/* " MxNxK T us ±X % (P % of SOL);" for each shape of a measured kernel (the share where there is a speed of light) */
static void
add_shape_times(struct ks_buf *b, const struct ks_cand *c, const struct ks_problem *p)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, c->bench.results) {
		char *shape = ks_shape_name(ks_json_obj(r, "shape", NULL), p->dims);
		double t = 0, share = ks_sol_share(r);
		char pct[32];

		ks_json_num(r, "time_us", NULL, &t);
		ks_buf_printf(b, " %s %.2f us", shape, t);
		add_shape_noise(b, r);
		if (share > 0)
			ks_buf_printf(b, " (%s %% of SOL)", ks_sol_pct(share, pct, sizeof pct));
		ks_buf_puts(b, ";");
		free(shape);
	}
}

/* ", P % of SOL overall" where every shape of c has a speed of light */
static void
add_overall_share(struct ks_buf *b, const struct ks_cand *c)
{
	double share = ks_sol_overall(c);
	char pct[32];

	if (share > 0)
		ks_buf_printf(b, ", %s %% of SOL overall", ks_sol_pct(share, pct, sizeof pct));
}

/*
 * "score T us ±X %": the noise against a score benched at another time
 * (ks_score_noise, twice: about 95 %), and where the kernel was timed
 * beside its base, that ratio with its interval.
 */
static void
add_score(struct ks_buf *b, const struct ks_cand *c)
{
	ks_buf_printf(b, "score %.2f us \xc2\xb1%.1f %%", c->score_us, 200 * ks_score_noise(c));
	if (c->bench.versus_ratio > 0)
		ks_buf_printf(b, "; side by side with its base %s: %.3fx (95 %% interval %.3f-%.3f)",
		    c->bench.versus_id, c->bench.versus_ratio, c->bench.versus_lo, c->bench.versus_hi);
}

/* A kernel in full: its line, its time per shape or why it failed, its resources. */
static void
add_kernel_full(struct ks_buf *b, const struct ks_cand *c, const struct ks_problem *p)
{
	ks_buf_printf(b, "- %s (base %s, reference %s; plan: %s): status %s", c->id, ks_ctx_parent_of(c, "base"),
	    ks_ctx_parent_of(c, "reference"), ks_ctx_plan_title(c), c->status ? c->status : "not benched");
	if (c->score_us > 0) {
		ks_buf_puts(b, ", ");
		add_score(b, c);
	}
	add_overall_share(b, c);
	if (c->score_us > 0 && c->bench.noisy)
		ks_buf_printf(b, "; benched on a loaded machine (%s): its times are less sure than their spread says",
		    c->bench.noisy_reason);
	ks_buf_puts(b, "\n");
	if (c->score_us > 0) {
		ks_buf_puts(b, "  per shape:");
		add_shape_times(b, c, p);
		ks_buf_puts(b, "\n");
	} else if (c->bench.message) {
		ks_buf_printf(b, "  why: %.300s\n", c->bench.message);
	}
	add_resources(b, c);
}

char *
ks_ctx_times(const struct ks_cand *c, const struct ks_problem *p)
{
	struct ks_buf b = { 0 };

	if (!(c->score_us > 0))
		return ks_easprintf("%s: not measured (status %s)", c->id, c->status ? c->status : "not benched");
	add_score(&b, c);
	add_overall_share(&b, c);
	ks_buf_puts(&b, "; per shape:");
	add_shape_times(&b, c, p);
	return b.s;
}

/* Where the speed of light of base's shapes comes from, in a phrase. */
static void
add_sol_source(struct ks_buf *b, const struct ks_cand *base, const struct ks_problem *p, const char *target)
{
	const cJSON *bound = cJSON_GetObjectItemCaseSensitive(p->json, "bound");
	const cJSON *r0 = cJSON_GetArrayItem(base->bench.results, 0), *peak;
	const char *flops = ks_json_str(bound, "flops", NULL), *bytes = ks_json_str(bound, "bytes", NULL);
	double sol = 0, bnd = 0, per_s = 0;

	ks_json_num(r0, "sol_us", NULL, &sol);
	ks_json_num(r0, "bound_us", NULL, &bnd);
	if (!(bnd > 0) || fabs(sol - bnd) > 1e-9 * bnd) {
		ks_buf_puts(b, "the practical limit problem.json gives for each shape (\"sol_us\")");
		return;
	}
	ks_buf_printf(b, "its %s (%s) at the ", flops ? "FLOPs" : "bytes", flops ? flops : bytes ? bytes : "?");
	if ((peak = cJSON_GetObjectItemCaseSensitive(base->bench.json, "peak")) &&
	    ks_json_num(peak, "flops_per_s", NULL, &per_s) == 0) {
		/* its threads and vectors are the target section's (ks_facts.c) */
		ks_buf_printf(b, "peak measured on the bench machine before the kernel ran, %.4g GFLOP/s", per_s / 1e9);
	} else {
		ks_buf_printf(b, "peak of the %s target in problem.json", target);
	}
}

/* the shapes of base by their share of the speed of light, furthest first */
struct shape_share {
	char *name;
	double share;
};

static int
by_share(const void *x, const void *y)
{
	double a = ((const struct shape_share *)x)->share, b = ((const struct shape_share *)y)->share;

	return (a > b) - (a < b);
}

char *
ks_ctx_sol(const struct ks_cand *base, const struct ks_problem *p, const char *target, double stop)
{
	int n = cJSON_GetArraySize(base->bench.results), i = 0, show;
	struct ks_buf b = { 0 };
	struct shape_share *sh;
	const cJSON *r;
	char pct[32];

	if (!(ks_sol_overall(base) > 0))
		return ks_estrdup("The problem gives no speed of light on this target: judge the kernels by their "
		    "times.");
	sh = ks_ecalloc((size_t)n, sizeof(*sh));
	cJSON_ArrayForEach(r, base->bench.results) {
		sh[i].name = ks_shape_name(ks_json_obj(r, "shape", NULL), p->dims);
		sh[i++].share = ks_sol_share(r);
	}
	qsort(sh, (size_t)n, sizeof(*sh), by_share);
	ks_buf_puts(&b, "The speed of light (SOL) of a shape is the least time its work can take: ");
	add_sol_source(&b, base, p, target);
	ks_buf_printf(&b, ". The base %s runs at %s %% of SOL overall (the geometric mean over the shapes).",
	    base->id, ks_sol_pct(ks_sol_overall(base), pct, sizeof pct));
	show = n < 6 ? (n + 1) / 2 : 3;
	ks_buf_puts(&b, " Furthest from it:");
	for (i = 0; i < show; i++)
		ks_buf_printf(&b, "%s %s at %s %%", i ? "," : "", sh[i].name, ks_sol_pct(sh[i].share, pct, sizeof pct));
	if (n > show) {
		ks_buf_puts(&b, "; closest:");
		for (i = n - 1; i >= n - show && i >= show; i--)
			ks_buf_printf(&b, "%s %s at %s %%", i < n - 1 ? "," : "", sh[i].name,
			    ks_sol_pct(sh[i].share, pct, sizeof pct));
	}
	ks_buf_puts(&b, ".");
	if (stop > 0)
		ks_buf_printf(&b, " The search stops once a kernel reaches %.0f %% of SOL on every shape "
		    "(KS_SOL_STOP).", 100 * stop);
	for (i = 0; i < n; i++)
		free(sh[i].name);
	free(sh);
	return b.s;
}

/* a kernel's name without its parameters: "fp8_mm_naive(int, ...)" -> "fp8_mm_naive" */
static char *
short_name(const char *name)
{
	return ks_estrndup(name, strcspn(name, "("));
}

/* One profiled kernel in a sentence. */
static void
add_profiled_kernel(struct ks_buf *b, const cJSON *k)
{
	static const struct {
		const char *key, *label;
	} pct[] = {
		/* Nsight Compute's */
		{ "achieved_occupancy_pct", "achieved occupancy" },
		{ "theoretical_occupancy_pct", "theoretical occupancy" },
		{ "dram_throughput_pct", "DRAM throughput" },
		{ "sm_throughput_pct", "SM throughput" },
		/* rocprofv3's */
		{ "valu_busy_pct", "VALU busy" },
		{ "mem_unit_stalled_pct", "memory unit stalled" },
		{ "lds_bank_conflict_pct", "LDS stalled by bank conflicts" },
	};
	char *name = short_name(ks_json_str(k, "name", NULL) ? ks_json_str(k, "name", NULL) : "?");
	const cJSON *st;
	double v, ld = -1, sto = -1;
	int i = 0;

	ks_buf_printf(b, "- kernel %s", name);
	if (ks_json_num(k, "duration_us", NULL, &v) == 0)
		ks_buf_printf(b, ", %.2f us", v);
	for (size_t j = 0; j < sizeof pct / sizeof pct[0]; j++)
		if (ks_json_num(k, pct[j].key, NULL, &v) == 0)
			ks_buf_printf(b, "; %s %.1f %%%s", pct[j].label, v, strstr(pct[j].key, "throughput") ?
			    " of peak" : "");
	if (ks_json_num(k, "fetch_kb", NULL, &ld) == 0 && ks_json_num(k, "write_kb", NULL, &sto) == 0)
		ks_buf_printf(b, "; %.0f KB fetched, %.0f KB written", ld, sto);
	cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(k, "stalls"))
		if (ks_json_num(st, "per_issue", NULL, &v) == 0)
			ks_buf_printf(b, "%s %s %.2f", i++ ? "," : "; warp stalls (cycles per issued instruction):",
			    ks_json_str(st, "reason", NULL), v);
	ld = sto = -1;
	ks_json_num(k, "shared_bank_conflicts_load", NULL, &ld);
	ks_json_num(k, "shared_bank_conflicts_store", NULL, &sto);
	if (ld >= 0 && sto >= 0)
		ks_buf_printf(b, "; shared-memory bank conflicts: %.0f on loads, %.0f on stores", ld, sto);
	ks_buf_puts(b, "\n");
	free(name);
}

char *
ks_ctx_profile(const struct ks_cand *base, const char *target)
{
	const struct ks_target *t = ks_target_find(target);
	const struct ks_profiler *pf = !t ? NULL : strcmp(t->device, "nvidia") == 0 ? &ks_ncu :
	    strcmp(t->device, "amd") == 0 ? &ks_rocprof : NULL;
	char *path, *text = NULL, *sha = NULL, *kpath = NULL;
	cJSON *j = NULL;
	const cJSON *k, *sh;
	const char *skipped, *was;
	struct ks_buf b = { 0 };
	int shown = 0;

	/* where ks-profile runs no profiler (the CPU, an external evaluator) the prompt has no such section */
	if (!pf)
		return ks_estrdup("");
	path = ks_easprintf("%s/profile.json", base->dir);
	ks_buf_puts(&b, "## What the profiler says of the base\n\n");
	if (ks_exists(path) && (text = ks_file_read(path, NULL)))
		j = ks_json_parse(text, strlen(text), path);
	/* a profile of another kernel than the one there now (edited by hand) says nothing of it */
	kpath = ks_cand_kernel_path(base);
	sha = kpath ? ks_sha256_file(kpath) : NULL;
	was = ks_json_str(j, "kernel_sha256", NULL);
	if (!j || !sha || !was || strcmp(sha, was) != 0) {
		ks_buf_printf(&b, "No profile of the base %s (make generation profiles each base where %s runs, "
		    "unless KS_PROFILE=0).\n", base->id, pf->title);
		goto done;
	}
	if ((skipped = ks_json_str(j, "skipped", NULL))) {
		ks_buf_printf(&b, "No profile of the base %s: %s.\n", base->id, skipped);
		goto done;
	}
	ks_buf_printf(&b, "%s on the base %s, one call on shape", strcmp(ks_json_str(j, "profiler", NULL) ?
	    ks_json_str(j, "profiler", NULL) : "", "ncu") == 0 ? "Nsight Compute" : "rocprofv3", base->id);
	sh = cJSON_GetObjectItemCaseSensitive(j, "shape");
	cJSON_ArrayForEach(k, sh)
		ks_buf_printf(&b, "%s%.0f", k == sh->child ? " " : "x", k->valuedouble);
	ks_buf_printf(&b, " (%s):\n", ks_json_str(j, "shape_chosen", NULL) ? ks_json_str(j, "shape_chosen", NULL) :
	    "chosen");
	cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(j, "kernels"))
		if (shown++ < 4)
			add_profiled_kernel(&b, k);
done:
	ks_buf_puts(&b, "\n");
	cJSON_Delete(j);
	free(text);
	free(path);
	free(kpath);
	free(sha);
	return b.s;
}

/* A kernel in one line: id, plan, status and score. */
static void
add_kernel_line(struct ks_buf *b, const struct ks_cand *c)
{
	ks_buf_printf(b, "- %s (plan: %s): %s", c->id, ks_ctx_plan_title(c), c->status ? c->status : "not benched");
	if (c->score_us > 0)
		ks_buf_printf(b, ", %.2f us", c->score_us);
	add_overall_share(b, c);
	ks_buf_puts(b, "\n");
}

/* The index in c of the kernel with this id, or -1. */
long
ks_ctx_find_id(const struct ks_cand *c, size_t n, const char *id)
{
	long gen, slot;

	if (!id || ks_id_parse(id, &gen, &slot) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (c[i].gen == gen && c[i].slot == slot)
			return (long)i;
	return -1;
}

static int
by_score(const void *x, const void *y, void *arg)
{
	const struct ks_cand *c = arg;
	double a = c[*(const size_t *)x].score_us, b = c[*(const size_t *)y].score_us;

	return (a > b) - (a < b);
}

/*
 * Appends piece to b when b stays within limit; returns 0, or -1 (b as
 * it was) when it would not.
 */
int
ks_ctx_add_within(struct ks_buf *b, const struct ks_buf *piece, size_t limit)
{
	if (b->len + piece->len > limit)
		return -1;
	ks_buf_add(b, piece->s, piece->len);
	return 0;
}

/* The best kernels in full, as many as fit under limit; marks them shown. */
static void
add_best(struct ks_buf *b, const struct ks_cand *c, size_t n, const struct ks_problem *p, char *shown,
    size_t limit)
{
	size_t *ok = ks_ecalloc(n ? n : 1, sizeof(*ok)), nok = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].score_us > 0)
			ok[nok++] = i;
	qsort_r(ok, nok, sizeof(*ok), by_score, (void *)c);
	ks_buf_printf(b, "### The best kernels by score (%zu correct of %zu)\n", nok, n);
	for (size_t i = 0; i < nok; i++) {
		struct ks_buf e = { 0 };

		add_kernel_full(&e, &c[ok[i]], p);
		if (ks_ctx_add_within(b, &e, limit) < 0) {
			ks_buf_free(&e);
			break;
		}
		shown[ok[i]] = 1;
		ks_buf_free(&e);
	}
	free(ok);
}

/* who's ancestry through base links, nearest first, under limit; kernels shown above get their id only */
static void
add_lineage(struct ks_buf *b, const struct ks_cand *c, size_t n, const struct ks_cand *who, const char *role,
    char *shown, size_t limit)
{
	long i = ks_ctx_find_id(c, n, who->id), steps = 0;

	ks_buf_printf(b, "### The lineage of the %s %s: its base, that kernel's base, back to the seed\n", role,
	    who->id);
	while (i >= 0 && steps++ <= (long)n) {
		struct ks_buf e = { 0 };
		long up = ks_ctx_find_id(c, n, c[i].cand.base);

		/* a kernel shown above: its id; one of an earlier lineage: the rest is the same */
		if (shown[i] == 2 && i != ks_ctx_find_id(c, n, who->id)) {
			ks_buf_printf(b, "- %s, and from there on as above\n", c[i].id);
			ks_buf_free(&e);
			return;
		}
		if (shown[i])
			ks_buf_printf(&e, "- %s (above)\n", c[i].id);
		else
			add_kernel_line(&e, &c[i]);
		if (ks_ctx_add_within(b, &e, limit) < 0) {
			long left = 0;

			for (; i >= 0 && left <= (long)n; i = ks_ctx_find_id(c, n, c[i].cand.base))
				left++;
			ks_buf_printf(b, "- ... and %ld earlier ancestors, back to the seed\n", left);
			ks_buf_free(&e);
			return;
		}
		shown[i] = 2;
		ks_buf_free(&e);
		i = up == i ? -1 : up;
	}
}

/* counts of the kernels of generations [lo, hi] by status, and the best */
static void
add_generations_line(struct ks_buf *b, const struct ks_cand *c, size_t n, long lo, long hi)
{
	static const char *const statuses[] = { "ok", "incorrect", "build_failed", "rejected", "crashed",
		"timeout", "stale" };
	size_t count[8] = { 0 }, total = 0, other = 0;
	const struct ks_cand *best = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t s;

		if (c[i].gen < lo || c[i].gen > hi)
			continue;
		total++;
		for (s = 0; s < 7 && (!c[i].status || strcmp(c[i].status, statuses[s]) != 0); s++)
			;
		s < 7 ? count[s]++ : other++;
		if (c[i].score_us > 0 && (!best || c[i].score_us < best->score_us))
			best = &c[i];
	}
	if (lo == hi)
		ks_buf_printf(b, "- generation %ld: %zu kernels", lo, total);
	else
		ks_buf_printf(b, "- generations %ld to %ld: %zu kernels", lo, hi, total);
	for (size_t s = 0; s < 7; s++)
		if (count[s])
			ks_buf_printf(b, ", %zu %s", count[s], statuses[s]);
	if (other)
		ks_buf_printf(b, ", %zu not benched", other);
	if (best)
		ks_buf_printf(b, "; best %.2f us (%s)", best->score_us, best->id);
	ks_buf_puts(b, "\n");
}

/* a line per generation, the newest first; the oldest that do not fit, in one line */
static void
add_generations(struct ks_buf *b, const struct ks_cand *c, size_t n, size_t limit)
{
	long last = 0;

	for (size_t i = 0; i < n; i++)
		last = c[i].gen > last ? c[i].gen : last;
	ks_buf_puts(b, "### Each generation, the newest first\n");
	for (long g = last; g >= 0; g--) {
		struct ks_buf e = { 0 };

		add_generations_line(&e, c, n, g, g);
		/* room is kept for the line that sums up the rest */
		if (g > 0 && ks_ctx_add_within(b, &e, limit > 200 ? limit - 200 : 0) < 0) {
			add_generations_line(b, c, n, 0, g);
			ks_buf_free(&e);
			return;
		}
		if (g == 0)
			ks_buf_add(b, e.s, e.len);
		ks_buf_free(&e);
	}
}

/*
 * Every kernel in full while that fits the budget.  Beyond it (hundreds
 * of generations), what a scientist would look at: the best kernels in
 * full, the lineage of the base and the reference a line each, and a
 * line per generation, the newest first, in shares of the budget.
 */
/* what "% of SOL" means, where some kernel has it */
static void
add_sol_legend(struct ks_buf *b, const struct ks_cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ks_sol_overall(&c[i]) > 0) {
			ks_buf_puts(b, "(% of SOL: the shape's speed of light, the least time its work can take on this "
			    "machine, over its time; overall, their geometric mean)\n");
			return;
		}
}

/* what the figures after a time mean, once, where any kernel has a score */
static void
add_noise_legend(struct ks_buf *b, const struct ks_cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].score_us > 0) {
			ks_buf_puts(b, "(\xc2\xb1 after a shape's time: about its 95 % interval, twice the relative standard "
			    "error of the median of its timed calls; after a score: its noise against a score benched at "
			    "another time, 1 % of drift between benches included, so two scores closer than that are the "
			    "same; \"did not converge\": the shape ran into its time cap, a busy machine's sign; \"side by "
			    "side\": the kernel timed in one bench with its base, call for call, its time over the base's "
			    "with a 95 % interval, which is what to trust where two scores differ by less than their "
			    "noise)\n");
			return;
		}
}

/* One line saying how many of the benches shown ran on a loaded machine (bench.json "machine"), or nothing. */
static void
add_load_line(struct ks_buf *b, const struct ks_cand *c, size_t n)
{
	size_t benched = 0, noisy = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].score_us > 0) {
			benched++;
			noisy += c[i].bench.noisy != 0;
		}
	if (noisy)
		ks_buf_printf(b, "(%zu of the %zu kernels benched ok ran on a loaded machine, marked below: other "
		    "processes took the CPU or the GPU while they were timed, so their times and spreads are less "
		    "sure; trust a side-by-side ratio over their scores)\n", noisy, benched);
}

char *
ks_ctx_population(const struct ks_cand *c, size_t n, const struct ks_problem *p, const struct ks_cand *base,
    const struct ks_cand *ref, size_t budget)
{
	struct ks_buf b = { 0 };
	char *shown;

	ks_buf_add(&b, "", 0);
	add_load_line(&b, c, n);
	add_noise_legend(&b, c, n);
	add_sol_legend(&b, c, n);
	for (size_t i = 0; i < n; i++)
		add_kernel_full(&b, &c[i], p);
	if (b.len <= budget)
		return b.s;
	b.len = 0;
	b.s[0] = '\0';
	add_load_line(&b, c, n);
	add_noise_legend(&b, c, n);
	add_sol_legend(&b, c, n);
	shown = ks_ecalloc(n ? n : 1, 1);
	ks_buf_printf(&b, "(%zu kernels: more than KS_CONTEXT_CHARS=%zu characters in full, so a selection)\n", n,
	    budget);
	add_best(&b, c, n, p, shown, budget * 45 / 100);
	if (base)
		add_lineage(&b, c, n, base, "base", shown, b.len + budget * 15 / 100);
	if (ref && ref != base)
		add_lineage(&b, c, n, ref, "reference", shown, b.len + budget * 10 / 100);
	add_generations(&b, c, n, budget);
	free(shown);
	return b.s;
}

/*
 * The reference's part of a prompt: its times and code (rcode, in a
 * fence of language ext), or, when it is the base itself (generation 1),
 * a line saying so: the kernel is shown once.  rcode NULL: its code is
 * left out (ks_ctx_show_reference), and a line says why.
 */
char *
ks_ctx_reference(const struct ks_problem *p, const struct ks_cand *base, const struct ks_cand *ref, const char *ext,
    const char *rcode)
{
	char *times, *out;

	if (ref == base || strcmp(ref->id, base->id) == 0)
		return ks_easprintf("The reference kernel is the base itself, %s: there is no other to learn from "
		    "yet.\n", base->id);
	times = ks_ctx_times(ref, p);
	if (rcode)
		out = ks_easprintf("## A reference kernel worth learning from, %s\n\nMeasured: %s\n\n```%s\n%s```\n",
		    ref->id, times, ext, rcode);
	else
		out = ks_easprintf("## The reference kernel, %s\n\nMeasured: %s\n\nIts code is left out: the plan "
		    "does not refer to it, and with the base's it would pass KS_CONTEXT_CHARS.\n", ref->id, times);
	free(times);
	return out;
}

/* whether text names the kernel id (gNNNcS) as a word of its own, not inside another id */
static int
names_id(const char *text, const char *id)
{
	size_t len = strlen(id);

	for (const char *q = text; (q = strstr(q, id)); q += len)
		if ((q == text || !isalnum((unsigned char)q[-1])) && !isalnum((unsigned char)q[len]))
			return 1;
	return 0;
}

int
ks_ctx_show_reference(const char *plan, const struct ks_cand *ref, size_t base_len, size_t ref_len, size_t budget)
{
	return names_id(plan, ref->id) || strcasestr(plan, "reference") || base_len + ref_len <= budget;
}

/* One kernel a plan names: its status, its times or why it failed, and its code. */
static void
add_named_kernel(struct ks_buf *b, const struct ks_cand *k, const struct ks_problem *p, const char *ext,
    const char *code)
{
	ks_buf_printf(b, "\n## %s, which the plan names (status %s)\n\n", k->id, k->status ? k->status : "not benched");
	if (k->score_us > 0) {
		char *times = ks_ctx_times(k, p);

		ks_buf_printf(b, "Measured: %s\n", times);
		free(times);
	} else {
		ks_buf_printf(b, "It failed: %.600s\n", k->bench.message ? k->bench.message : "(no message)");
	}
	ks_buf_printf(b, "\n```%s\n%s```\n", ext, code);
}

/*
 * The kernels the plan names by id, besides the base and the reference,
 * each with its code and its times or its failure: a plan may build on a
 * kernel that failed but got far ("the wgmma loop of g002c1, with fp32
 * promotion"), and an implementer without its code writes it again from
 * scratch.  Within budget characters; "" when it names none.
 */
char *
ks_ctx_named_kernels(const char *plan, const struct ks_cand *c, size_t n, const struct ks_cand *base,
    const struct ks_cand *ref, const struct ks_problem *p, const char *ext, size_t budget)
{
	struct ks_buf b = { 0 };

	ks_buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		const struct ks_cand *k = &c[i];
		char *code;

		if (!strcmp(k->id, base->id) || !strcmp(k->id, ref->id) || !names_id(plan, k->id))
			continue;
		if (!(code = ks_cand_code(k)))
			continue;
		if (b.len + strlen(code) > budget)
			ks_buf_printf(&b, "\n(%s, which the plan names, is left out: its code would pass "
			    "KS_CONTEXT_CHARS=%zu characters.)\n", k->id, budget);
		else
			add_named_kernel(&b, k, p, ext, code);
		free(code);
	}
	return b.s;
}

/* the reason in gdir/select.json (a generation's), or a line saying there is none */
char *
ks_ctx_selection_reason(const char *gdir)
{
	char *path = ks_easprintf("%s/select.json", gdir), *out;
	struct ks_select_rec sel;

	out = ks_select_rec_load(path, 0, &sel) == 0 && sel.reason ? ks_estrdup(sel.reason) :
	    ks_estrdup("(no reason given)");
	ks_select_rec_free(&sel);
	free(path);
	return out;
}

/*
 * The generation's other kept plans, each with its slot, title and
 * description: a plan may build on another ("as in the pre-pass plan"),
 * and an implementer that sees only its own cannot tell which that is.
 */
char *
ks_ctx_other_plans(const cJSON *h, long slot)
{
	const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(h, "chosen");
	const cJSON *plans = cJSON_GetObjectItemCaseSensitive(h, "plans");
	struct ks_buf b = { 0 };
	long s = 0;
	const cJSON *idx;

	ks_buf_puts(&b, "");
	cJSON_ArrayForEach(idx, chosen) {
		const cJSON *plan = cJSON_IsNumber(idx) ? cJSON_GetArrayItem(plans, (int)idx->valuedouble) : NULL;
		const char *title = ks_json_str(plan, "title", NULL), *desc = ks_json_str(plan, "description", NULL);

		if (s++ == slot || !title)
			continue;
		if (!b.len)
			ks_buf_puts(&b, "\n## The generation's other plans\n\nBeside this one, these plans are carried out on "
			    "the same base at the same time, each by a call of its own (their code is not written yet):\n\n");
		ks_buf_printf(&b, "- slot c%ld: \"%s\": %s\n", s - 1, title, desc ? desc : "");
	}
	return b.s;
}

/*
 * The warnings of the base's own build (build.json's diagnostics as a
 * model is shown them, ks_compile_for_model: the lines that say
 * "warning", each with the indented lines under it), under a heading; ""
 * when it built without one.  A build that succeeds tells the model
 * nothing else, and ptxas's "wgmma.mma_async instructions are serialized"
 * is such a line.
 */
char *
ks_ctx_build_warnings(const struct ks_cand *base)
{
	char *path = ks_easprintf("%s/build.json", base->dir), *kernel = ks_cand_kernel_path(base), *shown;
	const char *name = kernel ? strrchr(kernel, '/') : NULL;
	struct ks_build_rec rec;
	struct ks_buf b = { 0 };
	int keep = 0;

	ks_buf_puts(&b, "");
	if (!kernel || ks_build_rec_load(path, KS_LOAD_SILENT, &rec) != 0) {
		free(path);
		free(kernel);
		return b.s;
	}
	shown = ks_compile_for_model(rec.diagnostics, kernel, name ? name + 1 : kernel);
	for (const char *p = shown; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = ks_estrndup(p, len);

		/* a warning's line, and the indented ones under it */
		if (len > 0 && !isspace((unsigned char)*line))
			keep = strcasestr(line, "warning") != NULL;
		if (keep && b.len == 0)
			ks_buf_puts(&b, "Its build warned (the compiler's words, for this kernel's code):\n\n```\n");
		if (keep)
			ks_buf_printf(&b, "%s\n", line);
		free(line);
		p += len + (p[len] == '\n');
	}
	if (b.len)
		ks_buf_puts(&b, "```\n");
	free(shown);
	ks_build_rec_free(&rec);
	free(path);
	free(kernel);
	return b.s;
}
