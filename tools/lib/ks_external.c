/*
 * ks_external.c - a candidate judged by a command the user names
 * (KS_EVAL_CMD) instead of by the problem's harness on this machine:
 * a leaderboard such as GPU MODE's (tools/ks-eval-popcorn), another
 * lab's cluster, a simulator.  The protocol, written once here and in
 * population(5) ("External evaluators"):
 *
 * In: KS_EVAL_CMD split into words (blanks separate them; '...' and
 * "..." quote, a backslash escapes the next character; no other shell
 * syntax), with the kernel file's absolute path appended, run in a
 * fresh working directory with stdin from /dev/null and these
 * variables set:
 *   KS_EVAL_SOURCE       the kernel file (the same path as the argument)
 *   KS_EVAL_PROBLEM      the problem's name
 *   KS_EVAL_PROBLEM_DIR  its folder (problem.json, task, reference)
 *   KS_EVAL_DIMS         problem.json "dims", a JSON array
 *   KS_EVAL_SHAPES       the shapes to time, a JSON array of objects keyed by the dims
 *   KS_EVAL_TEST_SHAPES  problem.json "test_shapes" ([] with ks-bench -H)
 *   KS_EVAL_MODE         bench, or heldout (ks-bench -H)
 *   KS_EVAL_ID           the candidate's id
 *   KS_EVAL_TIMEOUT_S    the seconds it has before it is killed
 *
 * Out: one JSON object on stdout, exit status 0:
 *   {"status": "correct" | "incorrect" | "build_failed" | "crashed" |
 *              "timeout" | "rejected" | "unavailable",
 *    "message": "why (optional; the evaluator's words)",
 *    "evaluator": "what judged, in words (optional)",
 *    "device": "where it ran (optional)",
 *    "timer": "how it timed (optional)",
 *    "shapes": [{"shape": {dim: value, ...}, "time_us": T,
 *                "status": "correct" | "incorrect" (optional),
 *                "message", "mean_us", "median_us", "min_us", "max_us",
 *                "stderr_us", "median_stderr_us", "runs", "converged"
 *                (each optional)}, ...]}
 * "shapes" is read for "correct" only, and must then time every shape
 * of KS_EVAL_SHAPES once, in any order.  stderr goes to bench.log.
 *
 * Anything else is a verdict on the candidate, never a crash of the
 * pipeline: a non-zero exit, a kill at the time limit, output that is
 * not one object, an unknown status, a shape missing, unknown or timed
 * twice, a time that is not a positive number.  The one exception is
 * "unavailable" (the evaluator could not judge: a rate limit, a
 * leaderboard that does not answer): nothing is recorded, ks-bench
 * exits 1 saying why, and make resumes from there when run again.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

static const char *const stat_keys[] = { "mean_us", "median_us", "min_us", "max_us", "stderr_us", "median_stderr_us" };

/* the status of bench.json that an evaluator's status maps to; NULL for none */
static const char *
map_status(const char *s)
{
	static const char *const map[][2] = {
		{ "correct", "ok" }, { "incorrect", "incorrect" }, { "build_failed", "build_failed" },
		{ "crashed", "crashed" }, { "timeout", "timeout" }, { "rejected", "rejected" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(s, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

static void
set_verdict(cJSON *res, const char *status, const char *message)
{
	ks_json_set_str(res, "status", status);
	ks_json_set_str(res, "message", message);
}

/* 1 when the evaluator's shape object e names problem shape s: every dim, the same value */
static int
same_shape(const cJSON *e, const cJSON *s, const cJSON *dims)
{
	const cJSON *d;

	if (!cJSON_IsObject(e))
		return 0;
	cJSON_ArrayForEach(d, dims) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, d->valuestring);
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(s, d->valuestring);

		if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || a->valuedouble != b->valuedouble)
			return 0;
	}
	return 1;
}

/* a number of an entry: 1 set, 0 absent or null, -1 present and not a finite number >= 0 */
static int
opt_number(const cJSON *e, const char *key, double *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, key);

	if (!x || cJSON_IsNull(x))
		return 0;
	if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < 0)
		return -1;
	*v = x->valuedouble;
	return 1;
}

/*
 * One result of bench.json from the evaluator's entry e for problem
 * shape s; NULL with *why.  The fields are the harness's: what the
 * evaluator did not say is null.
 */
static cJSON *
result_entry(const struct ks_external_job *j, const cJSON *e, const cJSON *s, const char *name, char **why)
{
	cJSON *r = cJSON_CreateObject(), *shape = cJSON_AddObjectToObject(r, "shape");
	const cJSON *d, *conv = cJSON_GetObjectItemCaseSensitive(e, "converged");
	double t, v, se = -1, base = -1;
	int got;

	cJSON_ArrayForEach(d, j->prob->dims)
		cJSON_AddNumberToObject(shape, d->valuestring,
		    cJSON_GetObjectItemCaseSensitive(s, d->valuestring)->valuedouble);
	if (opt_number(e, "time_us", &t) != 1 || t <= 0) {
		*why = ks_easprintf("the evaluator's time of shape %s is not a positive number of microseconds "
		    "(\"time_us\")", name);
		goto bad;
	}
	cJSON_AddNumberToObject(r, "time_us", t);
	for (size_t k = 0; k < sizeof stat_keys / sizeof stat_keys[0]; k++) {
		if ((got = opt_number(e, stat_keys[k], &v)) < 0) {
			*why = ks_easprintf("the evaluator's \"%s\" of shape %s is not a number of microseconds",
			    stat_keys[k], name);
			goto bad;
		}
		if (got)
			cJSON_AddNumberToObject(r, stat_keys[k], v);
		else
			cJSON_AddNullToObject(r, stat_keys[k]);
	}
	if ((got = opt_number(e, "runs", &v)) < 0 || (got && (v < 1 || v != floor(v)))) {
		*why = ks_easprintf("the evaluator's \"runs\" of shape %s is not a positive integer", name);
		goto bad;
	}
	if (got)
		cJSON_AddNumberToObject(r, "runs", v);
	else
		cJSON_AddNullToObject(r, "runs");
	/* the relative standard error of the time: of the median where given, else of the mean */
	if (opt_number(e, "median_stderr_us", &se) == 1 && opt_number(e, "median_us", &base) == 1 && base > 0)
		cJSON_AddNumberToObject(r, "rel_stderr", se / base);
	else if (opt_number(e, "stderr_us", &se) == 1 && opt_number(e, "mean_us", &base) == 1 && base > 0)
		cJSON_AddNumberToObject(r, "rel_stderr", se / base);
	else
		cJSON_AddNullToObject(r, "rel_stderr");
	if (conv && !cJSON_IsBool(conv)) {
		*why = ks_easprintf("the evaluator's \"converged\" of shape %s is not true or false", name);
		goto bad;
	}
	/* an evaluator that does not say timed to a rule of its own */
	cJSON_AddBoolToObject(r, "converged", !cJSON_IsFalse(conv));
	return r;
bad:
	cJSON_Delete(r);
	return NULL;
}

/* The speed of light of each result, as ks-bench adds it; *faster when a time is under it. */
static int
add_bounds(const struct ks_external_job *j, cJSON *results, char **faster)
{
	const cJSON *s;
	cJSON *r = results->child;

	cJSON_ArrayForEach(s, j->shapes) {
		const cJSON *shape = cJSON_GetObjectItemCaseSensitive(r, "shape"), *sol = cJSON_GetObjectItemCaseSensitive(s, "sol_us");
		double t = cJSON_GetObjectItemCaseSensitive(r, "time_us")->valuedouble;
		double b = ks_bound_us(j->prob, "external", shape, 0);

		if (b < 0)
			return -1;
		if (b > 0) {
			cJSON_AddNumberToObject(r, "bound_us", b);
			if (t < b && !*faster) {
				char *name = ks_shape_name(s, j->prob->dims);

				*faster = ks_easprintf("bench shape %s: the evaluator's %.4g us is faster than the speed "
				    "of light of that shape on target external, %.4g us (problem.json \"bound\")", name, t, b);
				free(name);
			}
		}
		if (cJSON_IsNumber(sol) && sol->valuedouble > 0)
			cJSON_AddNumberToObject(r, "sol_us", sol->valuedouble);
		else if (b > 0)
			cJSON_AddNumberToObject(r, "sol_us", b);
		r = r->next;
	}
	return 0;
}

/*
 * A correct verdict: every shape once, each with its time; the
 * verdict itself when a shape is not right.  -1 on a bad bound (said).
 */
static int
judge_shapes(const struct ks_external_job *j, const cJSON *out, cJSON *res)
{
	const cJSON *given = cJSON_GetObjectItemCaseSensitive(out, "shapes"), *s, *e;
	int n = cJSON_GetArraySize(j->shapes), ne, *used = NULL, rc = 0;
	cJSON *results = cJSON_CreateArray();
	char *why = NULL, *faster = NULL;
	double logsum = 0;

	if (!cJSON_IsArray(given)) {
		why = ks_estrdup("the evaluator said correct but gave no \"shapes\" array of times");
		goto verdict;
	}
	ne = cJSON_GetArraySize(given);
	/* one flag per shape of the problem, which an entry's index names */
	used = ks_ecalloc((size_t)n + 1, sizeof *used);
	/* every entry names a shape of the problem, once */
	for (int i = 0; i < ne && !why; i++) {
		const cJSON *shape = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(given, i), "shape");
		int k = 0, found = -1;

		cJSON_ArrayForEach(s, j->shapes) {
			if (same_shape(shape, s, j->prob->dims))
				found = k;
			k++;
		}
		if (found < 0) {
			char *text = shape ? cJSON_PrintUnformatted(shape) : NULL;

			why = ks_easprintf("the evaluator's shapes[%d] (%s) is not one of the %s shapes", i,
			    text ? text : "no \"shape\" object", j->heldout ? "held-out" : "benchmark");
			free(text);
		} else if (used[found]++) {
			char *name = ks_shape_name(cJSON_GetArrayItem(j->shapes, found), j->prob->dims);

			why = ks_easprintf("the evaluator timed shape %s twice", name);
			free(name);
		}
	}
	/* in the problem's order: a time for each */
	for (int k = 0; k < n && !why; k++) {
		char *name = ks_shape_name(cJSON_GetArrayItem(j->shapes, k), j->prob->dims);
		const cJSON *st;
		cJSON *r;

		s = cJSON_GetArrayItem(j->shapes, k);
		e = NULL;
		for (int i = 0; i < ne && !e; i++)
			if (same_shape(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(given, i), "shape"), s,
			    j->prob->dims))
				e = cJSON_GetArrayItem(given, i);
		st = e ? cJSON_GetObjectItemCaseSensitive(e, "status") : NULL;
		if (!e) {
			why = ks_easprintf("the evaluator gave no time for %s shape %s", j->heldout ? "held-out" :
			    "benchmark", name);
		} else if (st && (!cJSON_IsString(st) || (strcmp(st->valuestring, "correct") != 0 &&
		    strcmp(st->valuestring, "incorrect") != 0))) {
			why = ks_easprintf("the evaluator's status of shape %s is not correct or incorrect", name);
		} else if (st && strcmp(st->valuestring, "incorrect") == 0) {
			const char *m = ks_json_str(e, "message", NULL);
			char *msg = ks_easprintf("the evaluator found shape %s wrong%s%s", name, m ? ": " : "", m ? m : "");

			set_verdict(res, "incorrect", msg);
			free(msg);
			free(name);
			goto out;
		} else if ((r = result_entry(j, e, s, name, &why))) {
			cJSON_AddItemToArray(results, r);
			logsum += log(cJSON_GetObjectItemCaseSensitive(r, "time_us")->valuedouble);
		}
		free(name);
	}
	if (!why && add_bounds(j, results, &faster) < 0) {
		rc = -1;
		goto out;
	}
verdict:
	if (why) {
		set_verdict(res, "crashed", why);
	} else {
		cJSON_ReplaceItemInObjectCaseSensitive(res, "results", results);
		results = NULL;
		cJSON_ReplaceItemInObjectCaseSensitive(res, "correct", cJSON_CreateTrue());
		if (faster) {
			set_verdict(res, "rejected", faster);
		} else {
			set_verdict(res, "ok", NULL);
			ks_json_set_num(res, "score_us", exp(logsum / n));
			cJSON_AddStringToObject(res, "score_stat", "evaluator");
		}
	}
out:
	cJSON_Delete(results);
	free(used);
	free(why);
	free(faster);
	return rc;
}

static void
set_env(const char *name, const char *value)
{
	if (setenv(name, value, 1) < 0)
		ks_warn("cannot set %s", name);
}

static void
set_env_json(const char *name, const cJSON *v)
{
	char *text = v ? cJSON_PrintUnformatted(v) : ks_estrdup("[]");

	set_env(name, text);
	free(text);
}

/*
 * What an evaluator or a check may see of the environment, besides the
 * KS_EVAL_ variables set for it: what a kernel's harness may
 * (ks_env_kept: the compilers' and runtimes' own, exact names), the
 * account's and the locale's, popcorn-cli's, and the names the user lists
 * in KS_EVAL_ENV, exactly (a token the evaluator needs goes there).
 * Never by prefix, and no LLM keys: the evaluator runs code a model wrote.
 */
static const char *const eval_env[] = {
	"HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR", "SHELL", "TERM",
	"POPCORN_API_URL", "KS_POPCORN_GPU", "KS_POPCORN_LEADERBOARD", "KS_POPCORN_CLI", "KS_EVAL_ENV", NULL
};

static int
eval_env_kept(const char *var)
{
	const char *eq = strchr(var, '=');
	size_t len = eq ? (size_t)(eq - var) : strlen(var);

	if (!eq)
		return 0;
	if (ks_env_listed(getenv("KS_EVAL_ENV"), var, len) || ks_env_kept(var))
		return 1;
	for (const char *const *k = eval_env; *k; k++)
		if (strlen(*k) == len && strncmp(var, *k, len) == 0)
			return 1;
	return 0;
}

/* This process's environment cut to eval_env_kept's, for the command it runs next. */
static void
scrub_environment(void)
{
	extern char **environ;
	char **drop = NULL;
	size_t n = 0;

	for (char **e = environ; *e; e++)
		if (!eval_env_kept(*e))
			ks_argv_add(&drop, &n, ks_estrndup(*e, strcspn(*e, "=")));
	for (size_t i = 0; i < n; i++)
		unsetenv(drop[i]);
	ks_argv_free(drop);
}

/*
 * The command's program by an absolute path when it names one with a
 * folder: the evaluator starts in a working directory of its own, where
 * a relative path would name nothing.
 */
static void
absolute_program(char **argv)
{
	char *abs;

	if (strchr(argv[0], '/') && (abs = realpath(argv[0], NULL))) {
		free(argv[0]);
		argv[0] = abs;
	}
}

/* the variables of the protocol, for the child (which sees what scrub_environment left) */
static void
export_job(const struct ks_external_job *j, const char *source)
{
	char *dir = realpath(j->prob->dir, NULL), *t = ks_easprintf("%.17g", j->timeout_s);

	set_env("KS_EVAL_SOURCE", source);
	set_env("KS_EVAL_PROBLEM", j->prob->name);
	set_env("KS_EVAL_PROBLEM_DIR", dir ? dir : j->prob->dir);
	set_env_json("KS_EVAL_DIMS", j->prob->dims);
	set_env_json("KS_EVAL_SHAPES", j->shapes);
	set_env_json("KS_EVAL_TEST_SHAPES", j->heldout ? NULL : j->prob->test_shapes);
	set_env("KS_EVAL_MODE", j->heldout ? "heldout" : "bench");
	set_env("KS_EVAL_ID", j->id);
	set_env("KS_EVAL_TIMEOUT_S", t);
	free(dir);
	free(t);
}

/* the last bytes of bench.log, for a message */
static char *
log_tail(const char *log)
{
	char *text = ks_exists(log) ? ks_file_read(log, NULL) : NULL, *out;
	size_t len = text ? strlen(text) : 0;

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	out = len ? ks_easprintf("; its last output: %s", text + (len > 400 ? len - 400 : 0)) : ks_estrdup("");
	free(text);
	return out;
}

/* The verdict of what the evaluator printed; -1 when it could not judge (said) or on a bad bound. */
static int
read_verdict(const struct ks_external_job *j, const char *text, const char *prog, cJSON *res)
{
	cJSON *out = text && *text ? ks_json_parse(text, strlen(text), NULL) : NULL;
	const char *status, *mapped, *m;
	char *who, *why;
	int rc = 0;

	if (!cJSON_IsObject(out)) {
		size_t len = text ? strlen(text) : 0;

		why = ks_easprintf("the evaluator's output is not one JSON object (%s%.*s%s)", len ? "it printed: " :
		    "it printed nothing", len > 200 ? 200 : (int)len, len ? text : "", len > 200 ? "..." : "");
		set_verdict(res, "crashed", why);
		free(why);
		cJSON_Delete(out);
		return 0;
	}
	m = ks_json_str(out, "message", NULL);
	who = ks_json_str(out, "evaluator", NULL) ? ks_easprintf("%s: %s", prog, ks_json_str(out, "evaluator", NULL)) :
	    ks_estrdup(prog);
	cJSON_AddStringToObject(res, "evaluator", who);
	ks_json_set_str(res, "device", ks_json_str(out, "device", NULL) ? ks_json_str(out, "device", NULL) : who);
	free(who);
	if (!(status = ks_json_str(out, "status", NULL))) {
		set_verdict(res, "crashed", "the evaluator's output has no \"status\" string");
	} else if (strcmp(status, "unavailable") == 0) {
		ks_warnx("the evaluator could not judge '%s': %s", j->dir, m ? m : "it said unavailable");
		rc = -1;
	} else if (!(mapped = map_status(status))) {
		why = ks_easprintf("the evaluator's status '%s' is not one of correct, incorrect, build_failed, crashed, "
		    "timeout, rejected, unavailable", status);
		set_verdict(res, "crashed", why);
		free(why);
	} else if (strcmp(mapped, "ok") != 0) {
		why = ks_easprintf("the evaluator said %s%s%s", status, m ? ": " : "", m ? m : "");
		set_verdict(res, mapped, why);
		free(why);
	} else {
		rc = judge_shapes(j, out, res);
		if (rc == 0 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "correct")))
			ks_json_set_str(res, "timer", ks_json_str(out, "timer", NULL) ? ks_json_str(out, "timer", NULL) :
			    "the evaluator's");
	}
	cJSON_Delete(out);
	return rc;
}

int
ks_external_check(const struct ks_problem *p, const char *source, const char *log, cJSON *rec)
{
	const char *cmd = getenv("KS_EVAL_CHECK_CMD");
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;
	char **argv, *path, *quoted, *diag, *out;
	int ok;

	if (!cmd || !*cmd)
		return 0;
	if (!(path = realpath(source, NULL))) {
		ks_warn("cannot resolve '%s'", source);
		return -1;
	}
	argv = ks_external_argv("KS_EVAL_CHECK_CMD", cmd, path);
	free(path);
	if (!argv)
		return -1;
	o.out_path = o.err_path = log;
	o.timeout_s = ks_compile_limit_s(p);
	scrub_environment();
	if (ks_proc_run(argv, &o, &r) < 0) {
		ks_argv_free(argv);
		return -1;
	}
	ok = r.exited && r.status == 0;
	quoted = ks_shell_quote_argv(argv);
	out = ks_compile_diagnostics(log, &r, ok, "the check (KS_EVAL_CHECK_CMD)");
	diag = ks_easprintf("%s\n%s", ks_json_str(rec, "diagnostics", NULL), out);
	free(out);
	ks_json_set_num(rec, "seconds", (double)(long)(r.seconds * 1000 + 0.5) / 1000);
	cJSON_ReplaceItemInObjectCaseSensitive(rec, "ok", cJSON_CreateBool(ok));
	ks_json_set_str(rec, "command", quoted);
	ks_json_set_str(rec, "diagnostics", diag);
	free(quoted);
	free(diag);
	ks_argv_free(argv);
	return 1;
}

int
ks_external_judge(const struct ks_external_job *j, cJSON *res)
{
	const char *cmd = ks_external_cmd();
	char **argv, *why, *source, *box = NULL, *outp = NULL, *log = NULL, *text = NULL, prog[256];
	const char *scratch[3] = { NULL, NULL, NULL };
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result pr;
	int fd, rc = -1;

	if (!cmd)
		return -1;
	if (!(source = realpath(j->source, NULL))) {
		ks_warn("cannot resolve '%s'", j->source);
		return -1;
	}
	if (!(argv = ks_external_argv("KS_EVAL_CMD", cmd, source))) {
		free(source);
		return -1;
	}
	ks_path_basename(argv[0], prog, sizeof prog);
	absolute_program(argv);
	box = ks_easprintf("%s/.eval", j->dir);
	outp = ks_easprintf("%s/.eval-out.XXXXXX", j->dir);
	log = ks_easprintf("%s/bench.log", j->dir);
	/*
	 * its own working directory, empty at the start and removed at the
	 * end, and the file of its output: made and removed with the signals
	 * that stop a run held (ks_proc_run takes them in between)
	 */
	ks_signals_hold();
	if (ks_remove_tree(box) < 0 || mkdir(box, 0700) < 0) {
		ks_warn("cannot make the working directory '%s'", box);
		goto out_held;
	}
	if ((fd = mkstemp(outp)) < 0) {
		ks_warn("cannot create a temporary file in '%s'", j->dir);
		goto out_box;
	}
	close(fd);
	scratch[0] = outp;
	scratch[1] = box;
	ks_json_set_str(res, "device", prog);
	scrub_environment();
	export_job(j, source);
	o.cwd = box;
	o.scratch = scratch;
	o.out_path = outp;
	o.err_path = log;
	o.timeout_s = j->timeout_s;
	if (ks_proc_run(argv, &o, &pr) < 0)
		goto out_out;
	if (pr.timed_out) {
		why = ks_easprintf("the evaluator %s was killed after %.0f s (KS_BENCH_TIMEOUT_S, else the problem's "
		    "limits.bench_s)", prog, j->timeout_s);
		set_verdict(res, "timeout", why);
		free(why);
		rc = 0;
	} else if (!pr.exited || pr.status != 0) {
		char *d = ks_proc_describe(&pr), *tail = log_tail(log);

		why = ks_easprintf("the evaluator %s %s%s", prog, d, tail);
		set_verdict(res, "crashed", why);
		free(d);
		free(tail);
		free(why);
		rc = 0;
	} else {
		text = ks_file_read(outp, NULL);
		rc = read_verdict(j, text, prog, res);
	}
	if (rc == 0 && !cJSON_GetObjectItemCaseSensitive(res, "evaluator"))
		cJSON_AddStringToObject(res, "evaluator", prog);
	if (rc == 0 && strcmp(ks_json_str(res, "status", NULL), "ok") != 0)
		ks_progress("%s: %s by %s after %.1f s", j->id, ks_json_str(res, "status", NULL), prog, pr.seconds);
	else if (rc == 0)
		ks_progress("%s: ok by %s, %.1f us, after %.1f s", j->id, prog,
		    cJSON_GetObjectItemCaseSensitive(res, "score_us")->valuedouble, pr.seconds);
	ks_progress_end();
out_out:
	unlink(outp);
out_box:
	ks_remove_tree(box);
out_held:
	ks_signals_release();
	free(text);
	free(box);
	free(outp);
	free(log);
	free(source);
	ks_argv_free(argv);
	return rc;
}
