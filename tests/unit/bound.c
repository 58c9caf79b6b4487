/*
 * bound.c - unit tests of ks_bound.c: the work expression of problem.json
 * "bound" and the speed of light of a shape.  Prints one line per failed
 * case and "N cases, N failed"; exits 1 when any failed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ks_stages.h"

static int cases, failed;

static cJSON *
json(const char *text)
{
	return ks_json_parse(text, strlen(text), "a test's JSON");
}

static void
expect(const char *what, double got, double want)
{
	cases++;
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12) {
		failed++;
		printf("FAIL %s: got %.17g, want %.17g\n", what, got, want);
	}
}

static void
work_cases(void)
{
	cJSON *shape = json("{\"m\": 2, \"n\": 3, \"k\": 4, \"rows\": 10, \"cols\": 7, \"long_name_1\": 5}");
	static const struct {
		const char *expr;
		double want;
	} t[] = {
		{ "2*m*n*k", 48 },
		{ "2 * m * n * k", 48 },
		{ "2*rows*cols*2 + cols*2", 294 },
		{ "m+n+k", 9 },
		{ "0.5*m", 1 },
		{ "1e3*m", 2000 },
		{ "long_name_1", 5 },
		{ "7", 7 },
		/* not a sum of products of numbers and dims: -1 */
		{ "", -1 },
		{ "2**m", -1 },
		{ "m*", -1 },
		{ "m+", -1 },
		{ "m-n", -1 },
		{ "(m)", -1 },
		{ "x*m", -1 },          /* no such dim */
		{ "2*m n", -1 },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", -1 },   /* a name too long */
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char what[160];

		snprintf(what, sizeof what, "ks_bound_work(\"%.60s\")", t[i].expr);
		expect(what, ks_bound_work(t[i].expr, shape), t[i].want);
	}
	cJSON_Delete(shape);
}

static double
bound_measured(const char *problem_json, const char *target, const char *shape_json, double measured)
{
	struct ks_problem p = { .path = "problem.json" };
	cJSON *shape = json(shape_json);
	double us;

	p.json = json(problem_json);
	us = ks_bound_us(&p, target, shape, measured);
	cJSON_Delete(p.json);
	cJSON_Delete(shape);
	return us;
}

static double
bound_of(const char *problem_json, const char *target, const char *shape_json)
{
	return bound_measured(problem_json, target, shape_json, 0);
}

static void
bound_cases(void)
{
	const char *shape = "{\"m\": 1000, \"n\": 1000, \"k\": 1000}";

	/* 2e9 flops at 1e12 flop/s: 2000 us */
	expect("flops at one peak", bound_of("{\"bound\": {\"flops\": \"2*m*n*k\", \"peak_flops_per_s\": 1e12}}",
	    "cpu", shape), 2000);
	/* bytes at a per-target peak */
	expect("bytes at the target's peak", bound_of("{\"bound\": {\"bytes\": \"4*m*n\", "
	    "\"peak_bytes_per_s\": {\"cuda\": 4e12, \"cpu\": 1e11}}}", "cuda", shape), 1);
	expect("no peak for this target: no bound", bound_of("{\"bound\": {\"bytes\": \"4*m*n\", "
	    "\"peak_bytes_per_s\": {\"cuda\": 4e12}}}", "hip-amd", shape), 0);
	expect("no bound at all", bound_of("{}", "cpu", shape), 0);
	/* a peak the runner measured: 2e9 flops at 4e11 flop/s; none measured: no bound */
	expect("a measured peak", bound_measured("{\"bound\": {\"flops\": \"2*m*n*k\", "
	    "\"peak_flops_per_s\": {\"cpu\": \"measured\"}}}", "cpu", shape, 4e11), 5000);
	expect("a measured peak, not measured", bound_measured("{\"bound\": {\"flops\": \"2*m*n*k\", "
	    "\"peak_flops_per_s\": \"measured\"}}", "cpu", shape, 0), 0);
	expect("a fixed peak is not replaced by a measured one", bound_measured("{\"bound\": {\"flops\": "
	    "\"2*m*n*k\", \"peak_flops_per_s\": 1e12}}", "cpu", shape, 4e11), 2000);
	/* malformed: -1, and a line naming problem.json (on stderr) */
	expect("a peak that is neither a number nor \"measured\"", bound_of("{\"bound\": {\"flops\": \"m\", "
	    "\"peak_flops_per_s\": \"fast\"}}", "cpu", shape), -1);
	expect("a negative peak", bound_of("{\"bound\": {\"flops\": \"m\", \"peak_flops_per_s\": -1}}", "cpu", shape), -1);
	expect("no work", bound_of("{\"bound\": {\"peak_flops_per_s\": 1e12}}", "cpu", shape), -1);
	expect("a bad expression", bound_of("{\"bound\": {\"flops\": \"2*q\", \"peak_flops_per_s\": 1e12}}", "cpu",
	    shape), -1);
}

int
main(int argc, char *argv[])
{
	(void)argc;
	ks_setprogname(argv[0]);
	work_cases();
	bound_cases();
	printf("%d cases, %d failed\n", cases, failed);
	return failed != 0;
}
