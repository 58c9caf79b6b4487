/*
 * ks_names.c - the names a problem's harness and call glue define for
 * other files, checked with the seed's build, once a run.
 *
 * The static check refuses a kernel that uses a name starting with ks_
 * or holding _reference, so that those, and only those, are names no
 * kernel can reach or collide with.  A harness's global of another name
 * is one a kernel's own could meet, and on a GPU the harness's kernels
 * are told from the candidate's by the ks_ prefix alone (ptxas's report,
 * build.json "resources", the profiles): one named otherwise would be
 * reported and profiled as the candidate's.  Nothing fails at once; so
 * the rule is checked here, where the compiler is, rather than met
 * generations later.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

/*
 * The name a symbol stands for: C's as it is; C++'s _Z[L]<length><name>
 * its name; a GPU kernel's launch stub (nvcc's
 * _Z42__device_stub__Z15ks_rmsnorm_draw..., hipcc's
 * _Z28__device_stub__ks_fp8mm_draw...) the kernel's.  Other mangled
 * names (in a namespace, a class) are left whole.  Into buf.
 */
static const char *
base_name(const char *sym, char *buf, size_t n)
{
	const char *s = sym;
	char *end;
	size_t len;

	if (strncmp(s, "_Z", 2) != 0)
		return sym;
	s += 2 + (s[2] == 'L');
	len = strtoul(s, &end, 10);
	if (end == s || len == 0 || len >= n || strlen(end) < len)
		return sym;
	memcpy(buf, end, len);
	buf[len] = '\0';
	if (strncmp(buf, "__device_stub__", 15) == 0) {
		memmove(buf, buf + 15, len - 15 + 1);
		/* nvcc's stub holds the kernel's mangled name */
		if (buf[0] == 'Z' && (len = strtoul(buf + 1, &end, 10)) > 0 && strlen(end) >= len) {
			memmove(buf, end, len);
			buf[len] = '\0';
		}
	}
	return buf;
}

/* 1 when a name of the harness keeps clear of kernels: ks_..., or the reference's (..._reference...) */
static int
clear_of_kernels(const char *name)
{
	return strncmp(name, "ks_", 3) == 0 || strstr(name, "_reference") != NULL;
}

/*
 * The first global name obj defines (nm --defined-only -g) that is not
 * clear of kernels, or NULL; allocated.  Weak definitions (V, W, u) are
 * the compiler's: C++'s inline functions and template instances, the
 * personality routine's reference.
 */
static char *
stray_global(const char *obj)
{
	char *nm[] = { "nm", "--defined-only", "-g", (char *)obj, NULL };
	char *syms = ks_proc_capture(nm, 60), *found = NULL, sym[512], buf[512];
	char type;

	for (char *line = syms, *save = NULL, *l; syms && !found && (l = strtok_r(line, "\n", &save)); line = NULL) {
		const char *name;

		/* "0000000000000000 D ks_problem" */
		if (sscanf(l, "%*s %c %511s", &type, sym) != 2 || strchr("VWvwu", type))
			continue;
		if (!clear_of_kernels(name = base_name(sym, buf, sizeof buf)))
			found = ks_estrdup(name);
	}
	free(syms);
	return found;
}

/*
 * Source src compiled alone (-c) into dir, as the build compiles it;
 * the object's path, or NULL when it did not compile (the build will
 * say why).
 */
static char *
compile_one(const struct ks_compile_job *j, const char *src, const char *dir, int i)
{
	size_t n;
	char **argv = ks_compile_options(j, &n), *obj = ks_easprintf("%s/%d.o", dir, i);
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r;

	ks_argv_add(&argv, &n, ks_estrdup("-c"));
	ks_argv_add(&argv, &n, ks_estrdup(src));
	ks_argv_add(&argv, &n, ks_estrdup("-o"));
	ks_argv_add(&argv, &n, ks_estrdup(obj));
	o.timeout_s = ks_compile_limit_s(j->prob);
	o.sandbox = 1;
	o.fsize_mb = 4096;
	if (ks_proc_run(argv, &o, &r) < 0 || !r.exited || r.status != 0 || !ks_exists(obj)) {
		free(obj);
		obj = NULL;
	}
	ks_argv_free(argv);
	return obj;
}

/* The first source of the problem's list key that defines a stray global: said, -1. */
static int
sources_clear(const struct ks_compile_job *j, const char *key, const char *dir)
{
	const cJSON *src;
	int i = 0, rc = 0;

	cJSON_ArrayForEach(src, cJSON_GetObjectItemCaseSensitive(j->prob->json, key)) {
		char *path, *obj, *name = NULL;

		if (!cJSON_IsString(src))
			continue;
		path = ks_easprintf("%s/%s", j->prob->dir, src->valuestring);
		if ((obj = compile_one(j, path, dir, i++)) && (name = stray_global(obj))) {
			ks_warnx("'%s' defines the global symbol '%s': a harness's names that are not static start with "
			    "ks_ (the reference's hold _reference), which no kernel may use", path, name);
			rc = -1;
		}
		free(name);
		free(obj);
		free(path);
		if (rc < 0)
			break;
	}
	return rc;
}

/*
 * The key of this check of this harness by this compiler with these
 * options (ks_runner_cache.c), or NULL: a harness checked once is not
 * compiled file by file again by each run's seed (nvcc takes seconds a file).
 */
static char *
check_key(const struct ks_compile_job *j)
{
	size_t n;
	char **argv = ks_compile_options(j, &n), *version = ks_compile_version(argv[0]);
	char *hsum = version ? ks_harness_sha256(j->prob) : NULL, *key = NULL;

	if (hsum)
		key = ks_runner_cache_key("names", argv, "", version, hsum);
	ks_argv_free(argv);
	free(version);
	free(hsum);
	return key;
}

int
ks_names_check(const struct ks_compile_job *j)
{
	const char *tmp = getenv("TMPDIR");
	char *dir, *key;
	int rc, lock;

	/* no compiler: the build itself says so, once */
	if (!ks_compiler_found(j->target))
		return 0;
	/* builds started together: one checks, the others wait for its mark */
	key = check_key(j);
	lock = ks_runner_cache_lock(key);
	if (key && ks_runner_cache_checked(key)) {
		ks_runner_cache_unlock(key, lock);
		free(key);
		return 0;
	}
	dir = ks_easprintf("%s/ks-names.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ks_warn("cannot make a temporary directory '%s'", dir);
		ks_runner_cache_unlock(key, lock);
		free(dir);
		free(key);
		return -1;
	}
	rc = sources_clear(j, "harness_sources", dir) == 0 && sources_clear(j, "worker_sources", dir) == 0 ? 0 : -1;
	if (rc == 0)
		ks_runner_cache_check_passed(key);
	ks_runner_cache_unlock(key, lock);
	ks_remove_tree(dir);
	free(dir);
	free(key);
	return rc;
}
