/*
 * ks_verdict.c - what the harness said made into a bench record
 * (bench.json, population(5)): its status, each shape's times and spread,
 * the speed of light, the side-by-side ratio to the base, or why there is
 * no verdict (a timeout, a crash, a verdict that is not one JSON object).
 * ks-bench runs the harness; this reads what it wrote.
 */
#include <sys/utsname.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

/*
 * bench.json's "versus", from the harness's: the base's id, the ratio of
 * the candidate's time to the base's (the geometric mean over the shapes
 * of the ratios of their medians, timed in rounds of one call each in a
 * drawn order) and its 95 % interval, the same per shape; or the base's
 * id and why there is none.  NULL where no base was asked for.
 */
static cJSON *
versus_of(const struct ks_verdict_job *b, const cJSON *h, const cJSON *results)
{
	const cJSON *hv = cJSON_GetObjectItemCaseSensitive(h, "versus");
	const cJSON *hres = cJSON_GetObjectItemCaseSensitive(h, "results"), *r, *e;
	const char *err = b->versus_error ? b->versus_error : ks_json_str(h, "versus_error", NULL);
	cJSON *v, *per;
	int i = 0;

	if (!b->versus_id[0])
		return NULL;
	v = cJSON_CreateObject();
	ks_json_set_str(v, "id", b->versus_id);
	if (!err && !cJSON_IsObject(hv))
		err = "the runner gave no side-by-side times";
	if (err) {
		cJSON_AddNullToObject(v, "ratio");
		ks_json_set_str(v, "error", err);
		return v;
	}
	cJSON_AddItemToObject(v, "ratio", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(hv, "ratio"), 1));
	cJSON_AddItemToObject(v, "ci95", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(hv, "ci95"), 1));
	per = cJSON_AddArrayToObject(v, "per_shape");
	cJSON_ArrayForEach(r, hres) {
		const cJSON *hs = cJSON_GetObjectItemCaseSensitive(r, "versus");
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToObject(o, "shape", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(results, i++), "shape"), 1));
		cJSON_ArrayForEach(e, hs)
			cJSON_AddItemToObject(o, e->string, cJSON_Duplicate(e, 1));
		cJSON_AddItemToArray(per, o);
	}
	return v;
}

/* "cpu: MODEL (N threads)", this machine's */
static char *
cpu_name(void)
{
	char *info = ks_file_read("/proc/cpuinfo", NULL), *line, *colon, *nl, *name = NULL;
	long threads = sysconf(_SC_NPROCESSORS_ONLN);
	struct utsname u;

	if (info && (line = strstr(info, "model name")) && (colon = strchr(line, ':'))) {
		colon += 1 + (colon[1] == ' ');
		if ((nl = strchr(colon, '\n')))
			*nl = '\0';
		name = ks_easprintf("cpu: %s (%ld threads)", colon, threads);
	} else if (uname(&u) == 0) {
		name = ks_easprintf("cpu: %s (%ld threads)", u.machine, threads);
	}
	free(info);
	return name ? name : ks_estrdup("cpu");
}

cJSON *
ks_verdict_new(const struct ks_verdict_job *b, const char *status, const char *message)
{
	cJSON *r = cJSON_CreateObject();
	char *device = b->device ? ks_estrdup(b->device) : cpu_name();

	cJSON_AddStringToObject(r, "id", b->id);
	cJSON_AddStringToObject(r, "status", status);
	cJSON_AddBoolToObject(r, "correct", 0);
	cJSON_AddArrayToObject(r, "results");
	cJSON_AddNullToObject(r, "score_us");
	cJSON_AddStringToObject(r, "device", device);
	cJSON_AddNullToObject(r, "timer");
	ks_json_set_str(r, "message", message);
	free(device);
	return r;
}

/* The harness's numbers, copied; the standard errors are null with one run. */
static const char *const stat_keys[] = {
	"mean_us", "median_us", "min_us", "max_us", "stderr_us", "median_stderr_us", "runs"
};

/*
 * How far to trust a shape's time: the relative standard error of its
 * median (null with one run; from the mean's, times 1.2533, for a runner
 * built before the harness gave the median's) and whether the harness's
 * stop rule (standard error under 0.5 % of the mean) was met before the
 * time cap.  A time that did not converge is noise, and says so.
 */
static void
add_spread(cJSON *e, const cJSON *h)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(h, "converged");
	double se, mean, median;

	if (ks_json_num(h, "median_stderr_us", NULL, &se) == 0 && ks_json_num(h, "median_us", NULL, &median) == 0 &&
	    median > 0)
		cJSON_AddNumberToObject(e, "rel_stderr", se / median);
	else if (ks_json_num(h, "stderr_us", NULL, &se) == 0 && ks_json_num(h, "mean_us", NULL, &mean) == 0 &&
	    mean > 0)
		cJSON_AddNumberToObject(e, "rel_stderr", 1.2533 * se / mean);
	else
		cJSON_AddNullToObject(e, "rel_stderr");
	cJSON_AddBoolToObject(e, "converged", cJSON_IsTrue(c));
}

/* A duration or a count the harness gave (older runners give none): copied when it is one. */
static void
copy_measure(cJSON *to, const cJSON *from, const char *key)
{
	double v;

	if (ks_json_num(from, key, NULL, &v) == 0 && v >= 0)
		cJSON_AddNumberToObject(to, key, v);
}

/*
 * A measured peak may read low on a busy machine (never high), so a time
 * is refused as faster than physics only under this share of the bound
 * it gives.
 */
#define MEASURED_BOUND_SLACK 0.8
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * The speed of light shown to the model (ks_context.c): the shape's own
 * "sol_us" where the problem gives one (a practical limit, such as a copy
 * measured on the machine), else the bound.
 */
static void
add_sol(cJSON *e, const cJSON *shape, double bound_us)
{
	const cJSON *sol = cJSON_GetObjectItemCaseSensitive(shape, "sol_us");

	if (cJSON_IsNumber(sol) && sol->valuedouble > 0)
		cJSON_AddNumberToObject(e, "sol_us", sol->valuedouble);
	else if (bound_us > 0)
		cJSON_AddNumberToObject(e, "sol_us", bound_us);
}

/*
 * Copies the harness's per-shape numbers into res under the problem's
 * shapes and computes the score, with each shape's bound (from the
 * problem's peak, or the one the harness measured: peak, else 0).  A
 * time under the shape's speed of light sets *faster, the reason the
 * result cannot stand.  Returns 0, -1 when the numbers do not fit the
 * shapes, -2 when the problem's bound is bad.
 */
static int
add_results(const struct ks_verdict_job *b, const cJSON *hres, double peak, cJSON *res, double *score, char **faster)
{
	double slack = ks_bound_measured(b->prob, b->target->name) ? MEASURED_BOUND_SLACK : 1;

	const cJSON *shapes = b->shapes, *d;
	cJSON *results = cJSON_GetObjectItemCaseSensitive(res, "results");
	int n = cJSON_GetArraySize(shapes);
	double logsum = 0;

	if (!cJSON_IsArray(hres) || cJSON_GetArraySize(hres) != n)
		return -1;
	for (int i = 0; i < n; i++) {
		const cJSON *h = cJSON_GetArrayItem(hres, i), *s = cJSON_GetArrayItem(shapes, i);
		cJSON *e = cJSON_CreateObject(), *shape = cJSON_AddObjectToObject(e, "shape");
		double v;

		cJSON_AddItemToArray(results, e);
		cJSON_ArrayForEach(d, b->prob->dims)
			cJSON_AddNumberToObject(shape, d->valuestring,
			    cJSON_GetObjectItemCaseSensitive(s, d->valuestring)->valuedouble);
		/*
		 * The time that counts is the median of the timed calls: the
		 * statistic that moved least between benches of the same
		 * kernel, idle or loaded (bench/noise.sh, population(5)).
		 */
		if (ks_json_num(h, "median_us", NULL, &v) < 0 || v <= 0)
			return -1;
		cJSON_AddNumberToObject(e, "time_us", v);
		/* The spread of a single run is unknown: null, not a number (older runners give no median's) */
		for (size_t k = 0; k < sizeof stat_keys / sizeof stat_keys[0]; k++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(h, stat_keys[k]);
			double y;

			if (strstr(stat_keys[k], "stderr_us") && (cJSON_IsNull(x) || !x))
				cJSON_AddNullToObject(e, stat_keys[k]);
			else if (ks_json_num(h, stat_keys[k], NULL, &y) < 0 || y < 0)
				return -1;
			else
				cJSON_AddNumberToObject(e, stat_keys[k], y);
		}
		add_spread(e, h);
		copy_measure(e, h, "batch");
		copy_measure(e, h, "wall_s");
		copy_measure(e, h, "checks");
		copy_measure(e, h, "checks_s");
		logsum += log(v);
		double sol = ks_bound_us(b->prob, b->target->name, shape, peak);

		if (sol < 0)
			return -2;
		if (sol > 0) {
			cJSON_AddNumberToObject(e, "bound_us", sol);
			if (v < sol * slack && !*faster) {
				char *name = ks_shape_name(s, b->prob->dims);

				*faster = ks_easprintf("bench shape %s: %.4g us is faster than the speed of light "
				    "of that shape on %s, %.4g us (problem.json \"bound\"%s): the harness cannot have "
				    "seen all the work", name, v, b->target->name, sol * slack,
				    slack < 1 ? ", " STR(MEASURED_BOUND_SLACK) " of the time at the peak measured" : "");
				free(name);
			}
		}
		add_sol(e, s, sol);
	}
	*score = exp(logsum / n);
	return 0;
}

/*
 * The harness's log as text: the kernel may have written any bytes to its
 * output, NULs included, which would end the message before the harness's
 * own last words.  NULs are dropped; NULL when there is no log.
 */
static char *
log_text(const char *path)
{
	size_t len = 0, k = 0;
	char *log = ks_file_read(path, &len);

	for (size_t i = 0; log && i < len; i++)
		if (log[i] != '\0')
			log[k++] = log[i];
	if (log)
		log[k] = '\0';
	return log;
}

/*
 * What the harness printed decides ok or incorrect; anything else is a
 * crash.  *cpu_s: the CPU time it says its processes used, else -1;
 * *device_failed, the harness's word that its device failed first.
 */
cJSON *
ks_verdict(const struct ks_verdict_job *b, const char *json_path, const struct ks_proc_result *pr, const char *log_path,
    double *cpu_s, char **device_failed)
{
	cJSON *h = NULL, *res;
	char *text, *why;
	const cJSON *correct, *salt = NULL;
	double score;

	*cpu_s = -1;
	*device_failed = NULL;
	if (pr->timed_out) {
		char *d = ks_proc_describe(pr);

		why = ks_easprintf("the harness was %s (limit %.0f s; KS_BENCH_TIMEOUT_S)", d, b->timeout_s);
		res = ks_verdict_new(b, "timeout", why);
		free(d);
		free(why);
		return res;
	}
	if (!pr->exited || pr->status != 0) {
		char *d = ks_proc_describe(pr), *log = log_text(log_path);
		size_t len = log ? strlen(log) : 0;

		why = ks_easprintf("the harness %s%s%s", d, len ? "; its last output: " : "",
		    len ? log + (len > 400 ? len - 400 : 0) : "");
		res = ks_verdict_new(b, "crashed", why);
		free(d);
		free(log);
		free(why);
		return res;
	}
	/*
	 * The harness's own report, read whole: a NUL, bytes after the object
	 * or a second object mean someone else wrote into it, and the verdict
	 * cannot stand (an empty report is a harness that never got to write).
	 */
	size_t len = 0;

	text = ks_file_read(json_path, &len);
	if (text && strlen(text) != len) {
		why = ks_easprintf("the harness's verdict holds a NUL byte at byte %zu of %zu: only the harness writes "
		    "it, whole, and this one cannot stand", strlen(text), len);
		res = ks_verdict_new(b, "rejected", why);
		free(why);
		free(text);
		goto done;
	}
	if (text && len && !(h = ks_json_parse(text, len, NULL))) {
		res = ks_verdict_new(b, "rejected", "the harness's verdict is not one JSON object (bytes after it, or a "
		    "second one): only the harness writes it, whole, and this one cannot stand");
		free(text);
		goto done;
	}
	free(text);
	if (!h || ks_json_num(h, "cpu_s", NULL, cpu_s) < 0 || *cpu_s < 0)
		*cpu_s = -1;
	correct = h ? cJSON_GetObjectItemCaseSensitive(h, "correct") : NULL;
	salt = h ? cJSON_GetObjectItemCaseSensitive(h, "salt") : NULL;
	if (!cJSON_IsBool(correct)) {
		res = ks_verdict_new(b, "crashed", "the harness exited without a valid result");
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "device_failed"))) {
		/* the GPU failed before any code of the kernel ran: no verdict on it (ks-bench benches elsewhere, or stops) */
		const char *f = ks_json_str(h, "failure", NULL);

		*device_failed = ks_estrdup(f ? f : "the device failed before the kernel ran");
		res = NULL;
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "rejected"))) {
		/* the judge refused a call: a rule broken (work after the return, the protocol), not a wrong answer */
		const char *f = ks_json_str(h, "failure", NULL);
		res = ks_verdict_new(b, "rejected", f ? f : "the judge refused a call of the kernel");
	} else if (cJSON_IsFalse(correct)) {
		const char *f = ks_json_str(h, "failure", NULL);
		res = ks_verdict_new(b, "incorrect", f ? f : "wrong result");
	} else {
		char *faster = NULL;
		int added;

		const cJSON *peak = cJSON_GetObjectItemCaseSensitive(h, "peak");
		double per_s = 0;

		res = ks_verdict_new(b, "ok", NULL);
		if (cJSON_IsObject(peak) && ks_json_num(peak, "flops_per_s", NULL, &per_s) == 0 && per_s > 0)
			cJSON_AddItemToObject(res, "peak", cJSON_Duplicate(peak, 1));
		if (per_s <= 0 && ks_bound_measured(b->prob, b->target->name)) {
			/* a verdict without the peak it was asked to measure never skips the speed of light */
			ks_json_set_str(res, "status", "rejected");
			ks_json_set_str(res, "message", "the harness's verdict gives no measured peak, which problem.json's "
			    "\"bound\" for this target needs: no time stands without its speed of light");
		} else if ((added = add_results(b, cJSON_GetObjectItemCaseSensitive(h, "results"), per_s > 0 ? per_s : 0, res,
		    &score, &faster)) == -2) {
			cJSON_Delete(res);
			res = NULL;
		} else if (added < 0) {
			cJSON_Delete(res);
			res = ks_verdict_new(b, "crashed", "the harness printed results that do not match the benchmark shapes");
		} else {
			cJSON_ReplaceItemInObjectCaseSensitive(res, "correct", cJSON_CreateTrue());
			ks_json_set_str(res, "timer", ks_json_str(h, "timer", NULL));
			copy_measure(res, h, "tests_s");
			/* faster than physics: a timer that missed the work, not a record */
			if (faster) {
				ks_json_set_str(res, "status", "rejected");
				ks_json_set_str(res, "message", faster);
			} else {
				cJSON *vs = versus_of(b, h, cJSON_GetObjectItemCaseSensitive(res, "results"));

				ks_json_set_num(res, "score_us", score);
				cJSON_AddStringToObject(res, "score_stat", "median");
				if (vs)
					cJSON_AddItemToObject(res, "versus", vs);
			}
		}
		free(faster);
	}
done:
	if (res && b->sandbox)
		cJSON_AddStringToObject(res, "sandbox", b->sandbox);
	/* the inputs' salt: KS_BENCH_SALT=it repeats this run's inputs */
	/* all its digits (up to 2^53), never an exponent, so that it can be pasted back */
	if (res && cJSON_IsNumber(salt) && salt->valuedouble >= 0 && salt->valuedouble < 9007199254740992.0) {
		char digits[32];

		snprintf(digits, sizeof digits, "%.0f", salt->valuedouble);
		cJSON_AddRawToObject(res, "salt", digits);
	}
	cJSON_Delete(h);
	return res;
}
