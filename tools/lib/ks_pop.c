/* ks_pop.c - the population directory: run.json, problems, candidates. */
#include <dirent.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_pop.h"

int
ks_run_load(const char *root, struct ks_run *run)
{
	memset(run, 0, sizeof *run);
	run->root = ks_estrdup(root);
	run->path = ks_easprintf("%s/run.json", root);
	if (!ks_exists(run->path)) {
		ks_warnx("'%s' does not exist: make the population with ks-init first", run->path);
		goto fail;
	}
	if (!(run->json = ks_json_load(run->path)))
		goto fail;
	const cJSON *models, *m;
	if (!(run->problem = ks_json_str(run->json, "problem", run->path)) ||
	    !(run->target = ks_json_str(run->json, "target", run->path)) ||
	    ks_json_int(run->json, "k", run->path, 1, KS_MAX_K, &run->k) < 0 ||
	    !(models = ks_json_obj(run->json, "models", run->path)) ||
	    !ks_json_str(run->json, "created_at", run->path) || !ks_json_str(run->json, "version", run->path))
		goto fail;
	if (cJSON_GetObjectItemCaseSensitive(run->json, "kernels_dir")) {
		const char *env = getenv("KS_KERNELS_DIR");

		if (!(run->kernels_dir = ks_json_str(run->json, "kernels_dir", run->path)))
			goto fail;
		/* (set, it wins: the folder may have moved) */
		if ((!env || !*env) && setenv("KS_KERNELS_DIR", run->kernels_dir, 1) < 0) {
			ks_warn("cannot set KS_KERNELS_DIR");
			goto fail;
		}
	}
	/* the models each stage was set to when the population was made: a record for people */
	cJSON_ArrayForEach(m, models)
		if (!cJSON_IsString(m)) {
			ks_warnx("'%s': field \"models\": \"%s\" is not a string", run->path, m->string);
			goto fail;
		}
	return 0;
fail:
	ks_run_free(run);
	return -1;
}

void
ks_run_free(struct ks_run *run)
{
	free(run->root);
	free(run->path);
	cJSON_Delete(run->json);
	memset(run, 0, sizeof *run);
}

char *
ks_data_dir(const char *name, const char *env_var)
{
	const char *env = getenv(env_var);
	char exe[PATH_MAX], *dir, *cand;
	ssize_t n;

	if (env && *env)
		return ks_estrdup(env);
	/*
	 * From the executable's real path, so that a copy installed under a
	 * DESTDIR, or reached through a link, finds its own data: installed,
	 * <prefix>/bin beside <prefix>/share/kernel-scientist (tried first,
	 * so that an unrelated <prefix>/kernels, say ~/kernels, is never
	 * taken); in the source tree, tools/ beside kernels/ and prompts/.
	 */
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) < 0)
		return ks_estrdup(name);
	exe[n] = '\0';
	dir = ks_path_dirname(exe);
	cand = ks_easprintf("%s/../share/kernel-scientist/%s", dir, name);
	if (!ks_is_dir(cand)) {
		free(cand);
		cand = ks_easprintf("%s/../%s", dir, name);
	}
	free(dir);
	/* Canonical, so recorded build commands read well and can be pasted. */
	if (realpath(cand, exe)) {
		free(cand);
		cand = ks_estrdup(exe);
	}
	return cand;
}

char *
ks_kernels_dir(void)
{
	return ks_data_dir("kernels", "KS_KERNELS_DIR");
}

static int
valid_problem_name(const char *name)
{
	if (!*name || name[0] == '.' || strlen(name) > 64)
		return 0;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", *p))
			return 0;
	return 1;
}

/* dims: each a name, so that a shape's fields can be looked up by it */
static int
dims_valid(const struct ks_problem *p)
{
	const cJSON *d;
	int i = 0;

	cJSON_ArrayForEach(d, p->dims) {
		if (!cJSON_IsString(d) || !*d->valuestring) {
			ks_warnx("'%s': dims[%d] is not a name (a string such as \"M\")", p->path, i);
			return 0;
		}
		i++;
	}
	return 1;
}

/* The first field of shape that is neither one of dims nor a shape's own setting, or NULL. */
static const char *
stray_field(const struct ks_problem *p, const cJSON *shape)
{
	const cJSON *f, *d;

	cJSON_ArrayForEach(f, shape) {
		int known = strcmp(f->string, "seed") == 0 || strcmp(f->string, "sol_us") == 0;

		cJSON_ArrayForEach(d, p->dims)
			known |= strcmp(f->string, d->valuestring) == 0;
		if (!known)
			return f->string;
	}
	return NULL;
}

/*
 * Field name of shape key[i], an integer from lo to hi; a mistake named
 * by its entry ("test_shapes[1]: field \"rows\" is missing"), since
 * every shape has the same fields.
 */
static int
shape_int(const struct ks_problem *p, const char *key, int i, const cJSON *shape, const char *name, long lo,
    long hi)
{
	const char *stray;
	long v;

	if (!cJSON_GetObjectItemCaseSensitive(shape, name)) {
		if ((stray = stray_field(p, shape)))
			ks_warnx("'%s': %s[%d]: field \"%s\" is missing (\"%s\" is not one of dims)", p->path, key, i,
			    name, stray);
		else
			ks_warnx("'%s': %s[%d]: field \"%s\" is missing", p->path, key, i, name);
		return 0;
	}
	if (ks_json_int(shape, name, NULL, lo, hi, &v) < 0) {
		ks_warnx("'%s': %s[%d]: field \"%s\" is not an integer from %ld to %ld", p->path, key, i, name, lo, hi);
		return 0;
	}
	return 1;
}

/* Each shape of key: an object with an integer >= 1 for each of dims, and perhaps a seed of its own. */
static int
shapes_valid(const struct ks_problem *p, const cJSON *shapes, const char *key)
{
	const cJSON *s, *d;
	int i = 0;

	if (cJSON_GetArraySize(shapes) < 1) {
		ks_warnx("'%s': field \"%s\" holds no shape", p->path, key);
		return 0;
	}
	cJSON_ArrayForEach(s, shapes) {
		if (!cJSON_IsObject(s)) {
			ks_warnx("'%s': %s[%d] is not an object (one integer for each of dims)", p->path, key, i);
			return 0;
		}
		cJSON_ArrayForEach(d, p->dims)
			if (!shape_int(p, key, i, s, d->valuestring, 1, 1L << 30))
				return 0;
		if (cJSON_GetObjectItemCaseSensitive(s, "seed") && !shape_int(p, key, i, s, "seed", 0, 1L << 62))
			return 0;
		i++;
	}
	return 1;
}

/* "forbidden", when there: [{"pattern": an extended regex, "why": text}] */
static int
forbidden_valid(const struct ks_problem *p)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(p->json, "forbidden"), *r;
	regex_t re;
	char err[128];
	int i = 0, rc;

	if (!f)
		return 1;
	if (!cJSON_IsArray(f)) {
		ks_warnx("'%s': field \"forbidden\" must be an array", p->path);
		return 0;
	}
	cJSON_ArrayForEach(r, f) {
		const cJSON *pat = cJSON_GetObjectItemCaseSensitive(r, "pattern");
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(r, "why");

		if (!cJSON_IsString(pat) || (why && !cJSON_IsString(why))) {
			ks_warnx("'%s': forbidden[%d]: each entry needs a \"pattern\" (an extended regular expression) and "
			    "may have a \"why\" (text)", p->path, i);
			return 0;
		}
		if ((rc = regcomp(&re, pat->valuestring, REG_EXTENDED | REG_NEWLINE | REG_NOSUB)) != 0) {
			regerror(rc, &re, err, sizeof err);
			ks_warnx("'%s': forbidden[%d]: \"pattern\" '%s' is not an extended regular expression (%s)", p->path,
			    i, pat->valuestring, err);
			return 0;
		}
		regfree(&re);
		i++;
	}
	return 1;
}

/*
 * What the check of every candidate rests on, found at load and not as a
 * seed recorded incorrect: a tolerance, an entry point that names
 * entry_name, a task for the model, a seed that is a small integer.
 */
static int
check_valid(const struct ks_problem *p)
{
	const cJSON *tol = ks_json_obj(p->json, "tolerance", p->path);
	const char *entry = ks_json_str(p->json, "entry_point", p->path);
	double rtol, atol;
	long seed;

	if (!tol || ks_json_num(tol, "rtol", p->path, &rtol) < 0 || ks_json_num(tol, "atol", p->path, &atol) < 0 ||
	    !entry || !ks_json_str(p->json, "task", p->path))
		return 0;
	if (rtol < 0 || atol < 0) {
		ks_warnx("'%s': field \"tolerance\": rtol and atol must not be negative", p->path);
		return 0;
	}
	if (!ks_code_defines(entry, p->entry_name)) {
		ks_warnx("'%s': field \"entry_point\" does not declare entry_name '%s': '%s'", p->path, p->entry_name,
		    entry);
		return 0;
	}
	if (cJSON_GetObjectItemCaseSensitive(p->json, "seed") && ks_json_int(p->json, "seed", p->path, 0, 1L << 62,
	    &seed) < 0)
		return 0;
	return 1;
}

/* The problems of kdir, its folders that hold a problem.json: "a, b, c", or NULL when none; allocated */
static char *
problems_in(const char *kdir)
{
	struct dirent **names;
	struct ks_buf b = { 0 };
	int n = scandir(kdir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char *path = ks_easprintf("%s/%s/problem.json", kdir, names[i]->d_name);

		if (valid_problem_name(names[i]->d_name) && ks_exists(path))
			ks_buf_printf(&b, "%s%s", b.len ? ", " : "", names[i]->d_name);
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return b.s;
}

/*
 * A problem that is not there: which are, and where they were looked
 * for, so that a misspelt name or a KS_KERNELS_DIR not set (or set to
 * another folder) shows at once.
 */
static void
unknown_problem(const struct ks_problem *p, const char *kdir)
{
	const char *env = getenv("KS_KERNELS_DIR");
	const char *why = env && *env ? " (KS_KERNELS_DIR)" : "";
	const char *hint = env && *env ? "" : " (KS_KERNELS_DIR names a folder of problems of your own)";
	char *known = problems_in(kdir);

	if (known)
		ks_warnx("unknown problem '%s': no '%s'; the problems in '%s'%s are %s%s", p->name, p->path, kdir, why,
		    known, hint);
	else if (!ks_is_dir(kdir))
		ks_warnx("unknown problem '%s': no '%s'; '%s'%s is no folder%s", p->name, p->path, kdir, why, hint);
	else
		ks_warnx("unknown problem '%s': no '%s'; '%s'%s holds no problem%s", p->name, p->path, kdir, why, hint);
	free(known);
}

int
ks_problem_load(const char *name, struct ks_problem *p)
{
	char *kdir;

	memset(p, 0, sizeof *p);
	if (!valid_problem_name(name)) {
		ks_warnx("'%s' is not a valid problem name", name);
		return -1;
	}
	kdir = ks_kernels_dir();
	p->name = ks_estrdup(name);
	p->dir = ks_easprintf("%s/%s", kdir, name);
	p->path = ks_easprintf("%s/problem.json", p->dir);
	if (!ks_exists(p->path)) {
		unknown_problem(p, kdir);
		free(kdir);
		goto fail;
	}
	free(kdir);
	if (!(p->json = ks_json_load(p->path)))
		goto fail;
	if (!(p->language = ks_json_str(p->json, "language", p->path)) ||
	    !(p->entry_name = ks_json_str(p->json, "entry_name", p->path)) ||
	    !(p->seed_kernel = ks_json_str(p->json, "seed_kernel", p->path)) ||
	    !(p->dims = ks_json_arr(p->json, "dims", p->path)) ||
	    !(p->test_shapes = ks_json_arr(p->json, "test_shapes", p->path)) ||
	    !(p->bench_shapes = ks_json_arr(p->json, "bench_shapes", p->path)) ||
	    !ks_json_arr(p->json, "targets", p->path) ||
	    !ks_json_arr(p->json, "harness_sources", p->path))
		goto fail;
	if (!dims_valid(p) || !shapes_valid(p, p->test_shapes, "test_shapes") ||
	    !shapes_valid(p, p->bench_shapes, "bench_shapes") || !forbidden_valid(p) || !check_valid(p))
		goto fail;
	/* optional: the call glue of a judge's problem (kernels/common/ks_judge.h) */
	if (cJSON_GetObjectItemCaseSensitive(p->json, "worker_sources") &&
	    !ks_json_arr(p->json, "worker_sources", p->path))
		goto fail;
	if (cJSON_GetObjectItemCaseSensitive(p->json, "heldout_shapes") &&
	    (!(p->heldout_shapes = ks_json_arr(p->json, "heldout_shapes", p->path)) ||
	    !shapes_valid(p, p->heldout_shapes, "heldout_shapes")))
		goto fail;
	return 0;
fail:
	ks_problem_free(p);
	return -1;
}

void
ks_problem_free(struct ks_problem *p)
{
	free(p->name);
	free(p->dir);
	free(p->path);
	cJSON_Delete(p->json);
	memset(p, 0, sizeof *p);
}

char *
ks_problem_file(const struct ks_problem *p, const char *key)
{
	const char *name = ks_json_str(p->json, key, p->path);

	if (!name)
		return NULL;
	if (strstr(name, "..") || name[0] == '/') {
		ks_warnx("'%s': field \"%s\" must name a file in the problem folder", p->path, key);
		return NULL;
	}
	return ks_easprintf("%s/%s", p->dir, name);
}

char *
ks_shape_name(const cJSON *shape, const cJSON *dims)
{
	struct ks_buf b = { 0 };
	const cJSON *d;

	ks_buf_add(&b, "", 0);
	cJSON_ArrayForEach(d, dims) {
		const cJSON *v = cJSON_IsString(d) ? cJSON_GetObjectItemCaseSensitive(shape, d->valuestring) : NULL;

		ks_buf_printf(&b, "%s%ld", b.len ? "x" : "", cJSON_IsNumber(v) ? (long)v->valuedouble : 0L);
	}
	return b.s;
}

char *
ks_shape_arg(const cJSON *shape, const cJSON *dims)
{
	char *name = ks_shape_name(shape, dims), *arg;
	long seed;

	if (ks_json_int(shape, "seed", NULL, 0, 1L << 62, &seed) < 0)
		return name;
	arg = ks_easprintf("%s@%ld", name, seed);
	free(name);
	return arg;
}

char *
ks_shapes_arg(const cJSON *shapes, const cJSON *dims)
{
	struct ks_buf b = { 0 };
	const cJSON *s;

	ks_buf_add(&b, "", 0);
	cJSON_ArrayForEach(s, shapes) {
		char *arg = ks_shape_arg(s, dims);

		ks_buf_printf(&b, "%s%s", b.len ? " " : "", arg);
		free(arg);
	}
	return b.s;
}

void
ks_problem_check_args(const struct ks_problem *p, double *rtol, double *atol, long *seed)
{
	const cJSON *tol = cJSON_GetObjectItemCaseSensitive(p->json, "tolerance");

	*rtol = 1e-4;
	*atol = 1e-3;
	*seed = 1;
	ks_json_num(tol, "rtol", NULL, rtol);
	ks_json_num(tol, "atol", NULL, atol);
	ks_json_int(p->json, "seed", NULL, 0, 1L << 62, seed);
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The numbers N of the entries "<prefix>N" of dir, sorted. */
static long *
list_numbered(const char *dir, int (*parse)(const char *, long *), size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long *v = NULL, x;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (parse(e->d_name, &x) < 0)
			continue;
		if (*n == cap)
			v = ks_erealloc(v, (cap = cap * 2 + 8) * sizeof *v);
		v[(*n)++] = x;
	}
	closedir(d);
	qsort(v, *n, sizeof *v, cmp_long);
	return v;
}

/* The generation numbers of root's gen-NNN directories, sorted; NULL when there are none. */
long *
ks_gens_list(const char *root, size_t *n)
{
	return list_numbered(root, ks_gen_name_parse, n);
}

/*
 * The names a compiled kernel's file has in a candidate's folder
 * (population(5)): every compiled target's extension is one of these
 * (ks_target.c's table; tests/unit/kernelfile.c holds them to it).
 */
static const char *const kernel_exts[] = { "c", "cu", "hip", NULL };

/*
 * dir/kernel.<ext> for the first of those extensions that exists there:
 * a candidate's kernel, whichever target made it.
 */
char *
ks_kernel_path_quiet(const char *dir)
{
	DIR *d;
	struct dirent *e;
	char *found = NULL;

	for (const char *const *x = kernel_exts; *x; x++) {
		char *p = ks_easprintf("%s/kernel.%s", dir, *x);

		if (ks_exists(p))
			return p;
		free(p);
	}
	/*
	 * target external: the kernel is in its problem's seed's language,
	 * kernel.<letters and digits> (not an editor's kernel.py~); the first
	 * by name where there are several, whatever order readdir gives
	 */
	if (!(d = opendir(dir)))
		return NULL;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "kernel.", 7) == 0 && e->d_name[7] &&
		    strspn(e->d_name + 7, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
		    strlen(e->d_name + 7) && (!found || strcmp(e->d_name, strrchr(found, '/') + 1) < 0)) {
			free(found);
			found = ks_easprintf("%s/%s", dir, e->d_name);
		}
	closedir(d);
	return found;
}

char *
ks_kernel_path_find(const char *dir)
{
	struct ks_buf names = { 0 };
	char *p = ks_kernel_path_quiet(dir);

	if (p)
		return p;
	for (const char *const *x = kernel_exts; *x; x++)
		ks_buf_printf(&names, "%skernel.%s", names.len ? ", " : "", *x);
	ks_warnx("'%s' holds no kernel source (%s)", dir, names.s);
	ks_buf_free(&names);
	return NULL;
}

/*
 * A verdict measured on another kernel than the one in the folder now (a
 * hand edit since, say) is no result: never shown or used as one.
 * Records older than their hashes cannot tell, and stand.
 */
static int
bench_is_stale(const struct ks_cand *c)
{
	char *path, *sum;
	int stale;

	if (!c->bench.kernel_sha256)
		return 0;
	if (!(path = ks_kernel_path_quiet(c->dir)))
		return 1;
	sum = ks_sha256_file(path);
	stale = !sum || strcmp(sum, c->bench.kernel_sha256) != 0;
	free(sum);
	free(path);
	return stale;
}

static void cand_free(struct ks_cand *c);

/* A candidate whose files do not load, kept as such (KS_KEEP_GOING). */
static void
unreadable(struct ks_cand *c, const char *root, long gen, long slot)
{
	cand_free(c);
	memset(c, 0, sizeof *c);
	c->gen = gen;
	c->slot = slot;
	ks_id_format(c->id, sizeof c->id, gen, slot);
	c->dir = ks_cand_dir(root, gen, slot);
	c->status = "unreadable";
	c->score_us = -1;
	c->bench.score_us = -1;
}

/* 0 loaded, 1 no candidate.json yet, -1 said */
static int
cand_load(struct ks_cand *c, const char *root, long gen, long slot)
{
	char *path;
	int rc;

	memset(c, 0, sizeof *c);
	c->gen = gen;
	c->slot = slot;
	c->score_us = -1;
	ks_id_format(c->id, sizeof c->id, gen, slot);
	c->dir = ks_cand_dir(root, gen, slot);
	path = ks_easprintf("%s/candidate.json", c->dir);
	rc = ks_cand_rec_load(path, KS_OPTIONAL, &c->cand);
	if (rc == 0 && strcmp(c->cand.id, c->id) != 0) {
		ks_warnx("'%s': field \"id\" is %s, but the file is the candidate %s's", path, c->cand.id, c->id);
		rc = -1;
	}
	free(path);
	if (rc != 0)
		return rc;
	path = ks_easprintf("%s/bench.json", c->dir);
	rc = ks_bench_rec_load(path, KS_OPTIONAL, &c->bench);
	if (rc == 0 && strcmp(c->bench.id, c->id) != 0) {
		ks_warnx("'%s': field \"id\" is %s, but the file is the candidate %s's", path, c->bench.id, c->id);
		rc = -1;
	}
	free(path);
	if (rc < 0)
		return -1;
	c->status = c->bench.status;
	c->score_us = c->bench.score_us;
	if (c->bench.json && bench_is_stale(c)) {
		c->stale = 1;
		c->status = "stale";
		c->score_us = -1;
	}
	return 0;
}

static void
cand_free(struct ks_cand *c)
{
	free(c->dir);
	ks_cand_rec_free(&c->cand);
	ks_bench_rec_free(&c->bench);
}

int
ks_cands_load(const char *root, long before_gen, int flags, struct ks_cand **out, size_t *n)
{
	size_t ngens, nslots, cap = 0;
	long *gens, *slots;
	struct ks_cand *c = NULL;
	int rc = 0;

	*n = 0;
	gens = list_numbered(root, ks_gen_name_parse, &ngens);
	for (size_t i = 0; i < ngens && gens[i] < before_gen && rc == 0; i++) {
		char *gdir = ks_gen_dir(root, gens[i]);

		slots = list_numbered(gdir, ks_slot_name_parse, &nslots);
		for (size_t j = 0; j < nslots; j++) {
			if (*n == cap)
				c = ks_erealloc(c, (cap = cap * 2 + 16) * sizeof *c);
			int r = cand_load(&c[*n], root, gens[i], slots[j]);
			if (r == 0) {
				(*n)++;
				continue;
			}
			if (r < 0 && (flags & KS_KEEP_GOING)) {
				/* said by its loader; a row of its own, not a result */
				unreadable(&c[*n], root, gens[i], slots[j]);
				(*n)++;
				continue;
			}
			cand_free(&c[*n]);
			if (r < 0) {
				rc = -1;
				break;
			}
		}
		free(slots);
		free(gdir);
	}
	free(gens);
	if (rc < 0) {
		ks_cands_free(c, *n);
		c = NULL;
		*n = 0;
	}
	*out = c;
	return rc;
}

void
ks_cands_free(struct ks_cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cand_free(&c[i]);
	free(c);
}

struct ks_cand *
ks_cands_find(struct ks_cand *c, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(c[i].id, id) == 0)
			return &c[i];
	return NULL;
}

char *
ks_cand_kernel_path(const struct ks_cand *c)
{
	return ks_kernel_path_find(c->dir);
}

char *
ks_cand_code(const struct ks_cand *c)
{
	char *path = ks_cand_kernel_path(c), *code = path ? ks_file_read(path, NULL) : NULL;

	free(path);
	return code;
}

static struct ks_cand *
find_correct(const char *file, const char *key, const char *id, struct ks_cand *c, size_t n)
{
	struct ks_cand *k;
	long g, s;

	if (ks_id_parse(id, &g, &s) < 0) {
		ks_warnx("'%s': field \"%s\" is not a kernel id like g003c1: '%s'", file, key, id);
		return NULL;
	}
	if (!(k = ks_cands_find(c, n, id))) {
		ks_warnx("'%s': field \"%s\" names '%s', which is not in the population before this generation",
		    file, key, id);
		return NULL;
	}
	if (!k->status || strcmp(k->status, "ok") != 0) {
		ks_warnx("'%s': field \"%s\" names '%s', which is not a correct benched kernel (status %s)",
		    file, key, id, k->status ? k->status : "none");
		return NULL;
	}
	return k;
}

int
ks_select_load(const char *dir, struct ks_cand *c, size_t n, struct ks_cand **base, struct ks_cand **ref)
{
	char *path = ks_easprintf("%s/select.json", dir);
	struct ks_select_rec sel;
	int rc = -1;

	if (ks_select_rec_load(path, 0, &sel) < 0)
		goto out;
	if ((*base = find_correct(path, "base", sel.base, c, n)) && (*ref = find_correct(path, "reference", sel.reference, c, n)))
		rc = 0;
	ks_select_rec_free(&sel);
out:
	free(path);
	return rc;
}
