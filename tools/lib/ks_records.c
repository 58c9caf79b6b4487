/*
 * ks_records.c - the population's names (ids, generation and candidate
 * folders) and the files the stages hand to each other, one loader each,
 * validated on reading.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_records.h"

int
ks_id_parse(const char *id, long *gen, long *slot)
{
	char g[4], extra;
	long s;

	/* g<NNN>c<S>: exactly three generation digits, a small slot number. */
	if (!id || id[0] != 'g' || strlen(id) < 6 || id[4] != 'c')
		return -1;
	memcpy(g, id + 1, 3);
	g[3] = '\0';
	for (int i = 0; i < 3; i++)
		if (g[i] < '0' || g[i] > '9')
			return -1;
	if (id[5] < '0' || id[5] > '9' || sscanf(id + 5, "%ld%c", &s, &extra) != 1 || s > 99)
		return -1;
	if (id[5] == '0' && id[6] != '\0')
		return -1;
	*gen = atol(g);
	*slot = s;
	return 0;
}

void
ks_id_format(char *buf, size_t n, long gen, long slot)
{
	snprintf(buf, n, "g%03ldc%ld", gen, slot);
}

char *
ks_gen_dir(const char *root, long gen)
{
	return ks_easprintf("%s/gen-%03ld", root, gen);
}

char *
ks_cand_dir(const char *root, long gen, long slot)
{
	return ks_easprintf("%s/gen-%03ld/c%ld", root, gen, slot);
}

int
ks_gen_name_parse(const char *name, long *gen)
{
	if (strncmp(name, "gen-", 4) != 0 || strlen(name) != 7)
		return -1;
	return ks_parse_int(name + 4, 0, KS_MAX_GEN, gen);
}

int
ks_slot_name_parse(const char *name, long *slot)
{
	if (name[0] != 'c' || (name[1] == '0' && name[2] != '\0'))
		return -1;
	return ks_parse_int(name + 1, 0, 99, slot);
}

int
ks_gen_dir_parse(const char *dir, char **root, long *gen)
{
	char name[256];

	if (ks_gen_name_parse(ks_path_basename(dir, name, sizeof name), gen) < 0) {
		ks_warnx("'%s' is not a generation directory (expected POP/gen-NNN)", dir);
		return -1;
	}
	*root = ks_path_dirname(dir);
	return 0;
}

int
ks_cand_dir_parse(const char *dir, char **root, long *gen, long *slot)
{
	char name[256], *gdir;

	if (ks_slot_name_parse(ks_path_basename(dir, name, sizeof name), slot) < 0) {
		ks_warnx("'%s' is not a candidate directory (expected POP/gen-NNN/cS)", dir);
		return -1;
	}
	gdir = ks_path_dirname(dir);
	if (ks_gen_name_parse(ks_path_basename(gdir, name, sizeof name), gen) < 0) {
		ks_warnx("'%s' is not a candidate directory (expected POP/gen-NNN/cS)", dir);
		free(gdir);
		return -1;
	}
	*root = ks_path_dirname(gdir);
	free(gdir);
	return 0;
}

/*
 * The loaders below are the one reader of each stage file: each checks
 * every field population(5) gives the file, and names the file and the
 * field in the one line it prints when something is wrong.
 */

/* "'file': what is wrong", unless the load is quiet (f NULL). */
static void __attribute__((format(printf, 2, 3)))
note(const char *f, const char *fmt, ...)
{
	va_list ap;
	char *what;

	if (!f)
		return;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	/* (through ks_warnx: below a line of progress, not on it) */
	ks_warnx("'%s': %s", f, what ? what : fmt);
	free(what);
}

/* The file's object: 0; 1 when it is optional and absent; -1 (said unless quiet). */
static int
load_object(const char *path, int flags, cJSON **json)
{
	char *text;
	size_t len;

	*json = NULL;
	if ((flags & KS_OPTIONAL) && !ks_exists(path))
		return 1;
	if (!(flags & KS_LOAD_SILENT))
		*json = ks_json_load(path);
	else if ((text = ks_file_read_quiet(path, &len))) {
		*json = strlen(text) == len ? ks_json_parse(text, len, NULL) : NULL;
		free(text);
	}
	if (!*json)
		return -1;
	if (!cJSON_IsObject(*json)) {
		note(flags & KS_LOAD_SILENT ? NULL : path, "expected a JSON object");
		cJSON_Delete(*json);
		*json = NULL;
		return -1;
	}
	return 0;
}

/* A field that must be present and hold a string or null (*out NULL). */
static int
str_or_null(const cJSON *obj, const char *key, const char *f, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (cJSON_IsNull(v))
		return 0;
	return (*out = ks_json_str(obj, key, f)) ? 0 : -1;
}

/* A field that may be absent or null (*out NULL), else a string. */
static int
opt_str(const cJSON *obj, const char *key, const char *f, const char **out)
{
	*out = NULL;
	if (!cJSON_GetObjectItemCaseSensitive(obj, key))
		return 0;
	return str_or_null(obj, key, f, out);
}

static int
bool_field(const cJSON *obj, const char *key, const char *f, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsBool(v)) {
		note(f, "field \"%s\" is %s", key, v ? "not a boolean" : "missing");
		return -1;
	}
	*out = cJSON_IsTrue(v);
	return 0;
}

/* A field that may be absent or null (*out NULL), else of the given cJSON type. */
static int
opt_of_type(const cJSON *obj, const char *key, const char *f, int type, const char *what, const cJSON **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if ((v->type & 0xFF) != type) {
		note(f, "field \"%s\" is not %s", key, what);
		return -1;
	}
	*out = v;
	return 0;
}

/* "id" is a kernel id that agrees with "generation" and "slot" where the file has them. */
static int
id_field(const cJSON *obj, const char *f, const char **id, long *gen, long *slot)
{
	if (!(*id = ks_json_str(obj, "id", f)))
		return -1;
	if (ks_id_parse(*id, gen, slot) < 0) {
		note(f, "field \"id\" is not a kernel id like g003c1: '%s'", *id);
		return -1;
	}
	return 0;
}

int
ks_cand_rec_load(const char *path, int flags, struct ks_cand_rec *c)
{
	const char *f = flags & KS_LOAD_SILENT ? NULL : path;
	const cJSON *parents;
	long g, s;
	int rc;

	memset(c, 0, sizeof *c);
	if ((rc = load_object(path, flags, &c->json)) != 0)
		return rc;
	if (id_field(c->json, f, &c->id, &c->gen, &c->slot) < 0 ||
	    ks_json_int(c->json, "generation", f, 0, KS_MAX_GEN, &g) < 0 ||
	    ks_json_int(c->json, "slot", f, 0, KS_MAX_K - 1, &s) < 0)
		goto bad;
	if (g != c->gen || s != c->slot) {
		note(f, "field \"id\" is %s, but \"generation\" and \"slot\" say g%03ldc%ld", c->id, g, s);
		goto bad;
	}
	if (!(parents = ks_json_obj(c->json, "parents", f)) ||
	    str_or_null(parents, "base", f, &c->base) < 0 || str_or_null(parents, "reference", f, &c->reference) < 0 ||
	    !(c->model = ks_json_str(c->json, "model", f)) ||
	    opt_of_type(c->json, "plan", f, cJSON_Object, "an object", &c->plan) < 0 ||
	    opt_of_type(c->json, "usage", f, cJSON_Object, "an object", &c->usage) < 0 ||
	    opt_of_type(c->json, "repairs", f, cJSON_Array, "an array", &c->repairs) < 0 ||
	    opt_str(c->json, "rejected", f, &c->rejected) < 0)
		goto bad;
	if (!cJSON_GetObjectItemCaseSensitive(c->json, "plan")) {
		note(f, "field \"plan\" is missing");
		goto bad;
	}
	return 0;
bad:
	ks_cand_rec_free(c);
	return -1;
}

void
ks_cand_rec_free(struct ks_cand_rec *c)
{
	cJSON_Delete(c->json);
	memset(c, 0, sizeof *c);
}

int
ks_build_rec_load(const char *path, int flags, struct ks_build_rec *b)
{
	const char *f = flags & KS_LOAD_SILENT ? NULL : path;
	int rc;

	memset(b, 0, sizeof *b);
	if ((rc = load_object(path, flags, &b->json)) != 0)
		return rc;
	if (bool_field(b->json, "ok", f, &b->ok) < 0 || !(b->target = ks_json_str(b->json, "target", f)) ||
	    str_or_null(b->json, "compiler", f, &b->compiler) < 0 ||
	    str_or_null(b->json, "command", f, &b->command) < 0 ||
	    ks_json_num(b->json, "seconds", f, &b->seconds) < 0 ||
	    !(b->diagnostics = ks_json_str(b->json, "diagnostics", f)) ||
	    opt_str(b->json, "rejected", f, &b->rejected) < 0 ||
	    opt_str(b->json, "kernel_sha256", f, &b->kernel_sha256) < 0 ||
	    opt_str(b->json, "harness_sha256", f, &b->harness_sha256) < 0)
		goto bad;
	b->resources = cJSON_GetObjectItemCaseSensitive(b->json, "resources");
	if (!b->resources) {
		note(f, "field \"resources\" is missing");
		goto bad;
	}
	if (cJSON_IsNull(b->resources))
		b->resources = NULL;
	if (b->ok && b->rejected) {
		note(f, "field \"rejected\" is set, but \"ok\" is true");
		goto bad;
	}
	return 0;
bad:
	ks_build_rec_free(b);
	return -1;
}

void
ks_build_rec_free(struct ks_build_rec *b)
{
	cJSON_Delete(b->json);
	memset(b, 0, sizeof *b);
}

const char *const ks_bench_statuses[] = {
	"ok", "incorrect", "build_failed", "crashed", "timeout", "rejected", "no_device", NULL
};

static int
known_status(const char *s)
{
	for (const char *const *k = ks_bench_statuses; *k; k++)
		if (strcmp(s, *k) == 0)
			return 1;
	return 0;
}

/* Each result: a shape object and a positive time. */
static int
results_check(const cJSON *results, const char *f)
{
	const cJSON *r;
	double t;
	int i = 0;

	cJSON_ArrayForEach(r, results) {
		if (!cJSON_IsObject(r) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "shape")) ||
		    ks_json_num(r, "time_us", NULL, &t) < 0 || t <= 0) {
			note(f, "field \"results\": entry %d needs a \"shape\" object and a positive \"time_us\"", i);
			return -1;
		}
		i++;
	}
	return 0;
}

/*
 * bench.json's optional "versus": the base's id, and where there is a
 * ratio, the ratio and its interval (positive, lo <= ratio <= hi).
 */
static int
versus_field(struct ks_bench_rec *b, const char *f)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b->json, "versus"), *ci;
	double r;

	b->versus_ratio = b->versus_lo = b->versus_hi = -1;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v) || !(b->versus_id = ks_json_str(v, "id", f))) {
		note(f, "field \"versus\" is not an object with the base's \"id\"");
		return -1;
	}
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "ratio")))
		return 0;
	ci = cJSON_GetObjectItemCaseSensitive(v, "ci95");
	if (ks_json_num(v, "ratio", f, &r) < 0 || !cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 ||
	    !cJSON_IsNumber(cJSON_GetArrayItem(ci, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(ci, 1)) ||
	    !(r > 0) || !(cJSON_GetArrayItem(ci, 0)->valuedouble > 0) ||
	    cJSON_GetArrayItem(ci, 0)->valuedouble > r || cJSON_GetArrayItem(ci, 1)->valuedouble < r) {
		note(f, "field \"versus\": \"ratio\" must be a positive number inside \"ci95\", [lo, hi]");
		return -1;
	}
	b->versus_ratio = r;
	b->versus_lo = cJSON_GetArrayItem(ci, 0)->valuedouble;
	b->versus_hi = cJSON_GetArrayItem(ci, 1)->valuedouble;
	return 0;
}

/*
 * bench.json's optional "machine": an object whose "noisy" is a boolean
 * and whose "reason" is a string where it is true (ks_load.c).
 */
static int
machine_field(struct ks_bench_rec *b, const char *f)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(b->json, "machine");

	if (!m)
		return 0;
	if (!cJSON_IsObject(m) || bool_field(m, "noisy", NULL, &b->noisy) < 0 ||
	    str_or_null(m, "reason", NULL, &b->noisy_reason) < 0 || b->noisy != (b->noisy_reason != NULL)) {
		note(f, "field \"machine\" is not an object with \"noisy\" (a boolean) and \"reason\" (a string "
		    "where it is true, else null)");
		b->noisy = 0;
		b->noisy_reason = NULL;
		return -1;
	}
	return 0;
}

int
ks_bench_rec_load(const char *path, int flags, struct ks_bench_rec *b)
{
	const char *f = flags & KS_LOAD_SILENT ? NULL : path;
	long g, s;
	int rc, ok;

	memset(b, 0, sizeof *b);
	b->score_us = -1;
	if ((rc = load_object(path, flags, &b->json)) != 0)
		return rc;
	if (id_field(b->json, f, &b->id, &g, &s) < 0 || !(b->status = ks_json_str(b->json, "status", f)))
		goto bad;
	if (!known_status(b->status)) {
		note(f, "field \"status\" is not one of ok, incorrect, build_failed, crashed, timeout, rejected, "
		    "no_device: '%s'", b->status);
		goto bad;
	}
	ok = strcmp(b->status, "ok") == 0;
	if (bool_field(b->json, "correct", f, &b->correct) < 0 ||
	    !(b->results = ks_json_arr(b->json, "results", f)) || results_check(b->results, f) < 0 ||
	    !(b->device = ks_json_str(b->json, "device", f)) || str_or_null(b->json, "timer", f, &b->timer) < 0 ||
	    opt_str(b->json, "message", f, &b->message) < 0 ||
	    opt_str(b->json, "kernel_sha256", f, &b->kernel_sha256) < 0 ||
	    opt_str(b->json, "runner_sha256", f, &b->runner_sha256) < 0)
		goto bad;
	if (ok && ks_json_num(b->json, "score_us", f, &b->score_us) < 0)
		goto bad;
	if (ok && b->score_us <= 0) {
		note(f, "status is ok, but field \"score_us\" is not a positive number");
		goto bad;
	}
	if (!ok && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(b->json, "score_us"))) {
		note(f, "field \"score_us\" must be null when status is %s", b->status);
		goto bad;
	}
	if (versus_field(b, f) < 0 || machine_field(b, f) < 0)
		goto bad;
	return 0;
bad:
	ks_bench_rec_free(b);
	return -1;
}

void
ks_bench_rec_free(struct ks_bench_rec *b)
{
	cJSON_Delete(b->json);
	memset(b, 0, sizeof *b);
	b->score_us = -1;
	b->versus_ratio = b->versus_lo = b->versus_hi = -1;
}

/* Each entry of select.json's "seen": an id, a status or null, a score or null. */
static int
seen_check(const cJSON *seen, const char *f)
{
	const cJSON *e, *st, *sc;
	long g, k;
	int i = 0;

	cJSON_ArrayForEach(e, seen) {
		const char *id = ks_json_str(e, "id", NULL);

		st = cJSON_GetObjectItemCaseSensitive(e, "status");
		sc = cJSON_GetObjectItemCaseSensitive(e, "score_us");
		if (!id || ks_id_parse(id, &g, &k) < 0 || !(cJSON_IsString(st) || cJSON_IsNull(st)) ||
		    !(cJSON_IsNumber(sc) || cJSON_IsNull(sc))) {
			note(f, "field \"seen\": entry %d needs an \"id\", a \"status\" (or null) and a \"score_us\" "
			    "(or null)", i);
			return -1;
		}
		i++;
	}
	return 0;
}

int
ks_select_rec_load(const char *path, int flags, struct ks_select_rec *s)
{
	const char *f = flags & KS_LOAD_SILENT ? NULL : path;
	long g, k;
	int rc;

	memset(s, 0, sizeof *s);
	if ((rc = load_object(path, flags, &s->json)) != 0)
		return rc;
	if (!(s->base = ks_json_str(s->json, "base", f)) || !(s->reference = ks_json_str(s->json, "reference", f)) ||
	    opt_str(s->json, "reason", f, &s->reason) < 0 || opt_str(s->json, "model", f, &s->model) < 0 ||
	    opt_str(s->json, "stop", f, &s->stop) < 0 ||
	    opt_of_type(s->json, "seen", f, cJSON_Array, "an array", &s->seen) < 0 || seen_check(s->seen, f) < 0)
		goto bad;
	if (ks_id_parse(s->base, &g, &k) < 0 || ks_id_parse(s->reference, &g, &k) < 0) {
		const char *key = ks_id_parse(s->base, &g, &k) < 0 ? "base" : "reference";

		note(f, "field \"%s\" is not a kernel id like g003c1: '%s'", key,
		    ks_json_str(s->json, key, NULL));
		goto bad;
	}
	return 0;
bad:
	ks_select_rec_free(s);
	return -1;
}

void
ks_select_rec_free(struct ks_select_rec *s)
{
	cJSON_Delete(s->json);
	memset(s, 0, sizeof *s);
}

/* one call of the ledger, j, counted into u */
static void
ledger_count(const cJSON *j, struct ks_usage *u)
{
	double in = 0, out = 0, c = 0;

	/* a try that failed after its request went out: no reply, maybe a bill */
	if (ks_json_str(j, "failed", NULL)) {
		u->failed_calls++;
		return;
	}
	u->calls++;
	/* a reply from the cache was billed once, when it was first asked */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "cached"))) {
		u->cached_calls++;
		return;
	}
	ks_json_num(j, "prompt_tokens", NULL, &in);
	ks_json_num(j, "completion_tokens", NULL, &out);
	ks_json_num(j, "cached_prompt_tokens", NULL, &c);
	u->prompt_tokens += (long)in;
	u->completion_tokens += (long)out;
	u->cached_prompt_tokens += (long)c;
}

/* where the ledger's lines are counted: the total, and/or by stage */
struct ledger_sums {
	struct ks_usage *total;
	struct ks_stage_usage *stages;
	size_t max, n;
};

/* One line of the ledger: what one LLM call cost. */
static int
ledger_line(const char *line, const char *path, long lineno, struct ledger_sums *sums)
{
	cJSON *j = ks_json_parse(line, strlen(line), NULL);
	const char *stage;
	double in, out;
	size_t k;
	int rc = -1;

	if (!cJSON_IsObject(j) || !(stage = ks_json_str(j, "stage", NULL)) || !ks_json_str(j, "model", NULL) ||
	    ks_json_num(j, "prompt_tokens", NULL, &in) < 0 || ks_json_num(j, "completion_tokens", NULL, &out) < 0 ||
	    !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(j, "cached"))) {
		note(path, "line %ld is not a usage record {\"stage\", \"model\", \"prompt_tokens\", "
		    "\"completion_tokens\", \"cached\", ...}", lineno);
		goto out;
	}
	if (sums->total)
		ledger_count(j, sums->total);
	for (k = 0; sums->stages && k < sums->n && strcmp(sums->stages[k].stage, stage) != 0; k++)
		;
	if (sums->stages && k == sums->n && k < sums->max) {
		memset(&sums->stages[k], 0, sizeof sums->stages[k]);
		snprintf(sums->stages[k].stage, sizeof sums->stages[k].stage, "%s", stage);
		sums->n++;
	}
	if (sums->stages && k < sums->n)
		ledger_count(j, &sums->stages[k].u);
	rc = 0;
out:
	cJSON_Delete(j);
	return rc;
}

static int
ledger_read(const char *root, struct ledger_sums *sums)
{
	char *path = ks_easprintf("%s/llm-usage.jsonl", root), *text = NULL, *line, *next;
	long lineno = 0;
	int rc = -1;

	if (!ks_exists(path)) {
		rc = 0;
		goto out;
	}
	if (!(text = ks_file_read(path, NULL)))
		goto out;
	for (line = text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		lineno++;
		if (*line && ledger_line(line, path, lineno, sums) < 0)
			goto out;
	}
	rc = 0;
out:
	free(text);
	free(path);
	return rc;
}

int
ks_ledger_load(const char *root, struct ks_usage *u)
{
	struct ledger_sums sums = { u, NULL, 0, 0 };

	memset(u, 0, sizeof *u);
	return ledger_read(root, &sums);
}

int
ks_ledger_stages(const char *root, struct ks_stage_usage *s, size_t max, size_t *n)
{
	struct ledger_sums sums = { NULL, s, max, 0 };
	int rc = ledger_read(root, &sums);

	*n = sums.n;
	return rc;
}

cJSON *
ks_hypotheses_load(const char *dir, long k)
{
	char *path = ks_easprintf("%s/hypotheses.json", dir);
	cJSON *h = ks_json_load(path);

	const char *v;

	/* what the tools add to the model's answer: the base the plans were made for, the model */
	if (h && (ks_hypotheses_check(h, path, k) < 0 || opt_str(h, "base", path, &v) < 0 ||
	    opt_str(h, "model", path, &v) < 0)) {
		cJSON_Delete(h);
		h = NULL;
	}
	free(path);
	return h;
}

/*
 * How many plans generation gen's hypotheses.json keeps (its "chosen"),
 * or -1 when it has no valid one.  Fewer than K when the offline proposer
 * had fewer untried configurations left, none when the search space is
 * exhausted: the slots beyond have no candidate, and nothing is built or
 * benched for them.  Quiet: a bad file is said by its own readers.
 */
int
ks_plans_kept(const char *root, long gen)
{
	char *dir = ks_gen_dir(root, gen), *path = ks_easprintf("%s/hypotheses.json", dir), *text, *why = NULL;
	size_t len;
	cJSON *h = NULL;
	int kept = -1;

	if (gen > 0 && (text = ks_file_read_quiet(path, &len))) {
		h = ks_json_parse(text, len, NULL);
		free(text);
	}
	if (h && ks_hypotheses_validate(h, 0, 0, &why) == 0 &&
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(h, "chosen")))
		kept = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(h, "chosen"));
	free(why);
	cJSON_Delete(h);
	free(path);
	free(dir);
	return kept;
}

int
ks_slot_unplanned(const char *root, long gen, long slot)
{
	int kept = ks_plans_kept(root, gen);

	return kept >= 0 && slot >= kept;
}
