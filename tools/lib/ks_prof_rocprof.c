/*
 * ks_prof_rocprof.c - rocprofv3 for ks-profile on AMD GPUs: the counters
 * (one pass each, from an input file of "pmc:" lines, so that no set
 * exceeds what the hardware collects at once) and the counter_collection.csv
 * files read into profile.json's kernels: duration, occupancy, VALU busy,
 * memory-unit stalls, LDS bank conflicts, bytes fetched and written.
 *
 * Written from rocprofv3's documentation (ROCprofiler-SDK, ROCm 6.2 to
 * 7.x: -d DIR -o NAME with -i gives DIR/pmc_N/NAME_counter_collection.csv,
 * one row per dispatch and counter, the columns named in a header whose
 * set changed between versions) and tested against a table in that
 * format; no AMD GPU was available to run it (ks-profile(1) says so).
 */
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

/* a pass each: derived counters may need several hardware counters */
static const char *const passes[] = {
	"OccupancyPercent",
	"VALUBusy MemUnitStalled",
	"LDSBankConflict",
	"FETCH_SIZE WRITE_SIZE",
};
#define NPASSES (sizeof passes / sizeof passes[0])

/* counter -> profile.json key (and scale) */
static const struct {
	const char *counter, *key;
	double scale;
} keep[] = {
	{ "OccupancyPercent", "achieved_occupancy_pct", 1 },
	{ "VALUBusy", "valu_busy_pct", 1 },
	{ "MemUnitStalled", "mem_unit_stalled_pct", 1 },
	{ "LDSBankConflict", "lds_bank_conflict_pct", 1 },
	{ "FETCH_SIZE", "fetch_kb", 1 },
	{ "WRITE_SIZE", "write_kb", 1 },
};
#define NKEEP (sizeof keep / sizeof keep[0])

static char **
rocprof_argv(const char *tool, const char *box, const char *runner, long seed, const char *shape)
{
	char *input = ks_easprintf("%s/counters.txt", box), **argv = NULL;
	struct ks_buf b = { 0 };
	size_t n = 0;

	ks_buf_add(&b, "", 0);
	for (size_t i = 0; i < NPASSES; i++)
		ks_buf_printf(&b, "pmc: %s\n", passes[i]);
	if (ks_file_write_atomic(input, b.s, b.len) < 0)
		ks_warnx("'%s': the counters could not be written: rocprofv3 will say why", input);
	const char *words[] = { tool, "-i", input, "-d", box, "-o", "prof", "--output-format", "csv", "--",
		runner, "--profile", "--salt", "0", "--seed" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		ks_argv_add(&argv, &n, ks_estrdup(words[i]));
	ks_argv_add(&argv, &n, ks_easprintf("%ld", seed));
	ks_argv_add(&argv, &n, ks_estrdup("--bench"));
	ks_argv_add(&argv, &n, ks_estrdup(shape));
	ks_buf_free(&b);
	free(input);
	return argv;
}

/* the entry of kernels named name, made when new */
static cJSON *
kernel_named(cJSON *kernels, const char *name)
{
	cJSON *k;

	cJSON_ArrayForEach(k, kernels)
		if (strcmp(ks_json_str(k, "name", NULL), name) == 0)
			return k;
	k = cJSON_CreateObject();
	cJSON_AddStringToObject(k, "name", name);
	cJSON_AddNumberToObject(k, "dispatch", -1);
	for (size_t i = 0; i < NKEEP; i++)
		cJSON_AddNullToObject(k, keep[i].key);
	cJSON_AddNullToObject(k, "duration_us");
	cJSON_AddArrayToObject(k, "stalls");
	cJSON_AddItemToArray(kernels, k);
	return k;
}

/*
 * The rows of one pass's table.  The runner calls the kernel twice (to
 * warm up, then the call that counts) and launches kernels of its own
 * (ks_...): of the candidate's, each counter of its latest dispatch.
 */
static void
read_pass(const char *text, cJSON *kernels)
{
	char **head = NULL, **row;
	int nh = 0, nr;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *l = ks_estrndup(p, len);

		p += len + (p[len] == '\n');
		if (!*l) {
			free(l);
			continue;
		}
		if (!head) {
			nh = ks_csv_fields(l, &head);
			free(l);
			continue;
		}
		nr = ks_csv_fields(l, &row);
		free(l);
		int cn = ks_csv_column(head, nh, "Kernel_Name"), cc = ks_csv_column(head, nh, "Counter_Name");
		int cv = ks_csv_column(head, nh, "Counter_Value"), cd = ks_csv_column(head, nh, "Dispatch_Id");
		int cs = ks_csv_column(head, nh, "Start_Timestamp"), ce = ks_csv_column(head, nh, "End_Timestamp");
		if (cn < 0 || cn >= nr || cc < 0 || cc >= nr || cv < 0 || cv >= nr || ks_csv_harness_kernel(row[cn])) {
			ks_csv_free(row, nr);
			continue;
		}
		cJSON *k = kernel_named(kernels, row[cn]);
		double dispatch = cd >= 0 && cd < nr ? ks_csv_number(row[cd]) : 0, seen = 0, v = ks_csv_number(row[cv]);

		ks_json_num(k, "dispatch", NULL, &seen);
		if (dispatch >= seen) {
			cJSON_ReplaceItemInObjectCaseSensitive(k, "dispatch", cJSON_CreateNumber(dispatch));
			for (size_t i = 0; i < NKEEP; i++)
				if (strcmp(row[cc], keep[i].counter) == 0 && v >= 0)
					cJSON_ReplaceItemInObjectCaseSensitive(k, keep[i].key,
					    cJSON_CreateNumber(v * keep[i].scale));
			/* nanoseconds */
			double t0 = cs >= 0 && cs < nr ? ks_csv_number(row[cs]) : -1;
			double t1 = ce >= 0 && ce < nr ? ks_csv_number(row[ce]) : -1;
			if (t0 >= 0 && t1 > t0)
				cJSON_ReplaceItemInObjectCaseSensitive(k, "duration_us", cJSON_CreateNumber((t1 - t0) / 1e3));
		}
		ks_csv_free(row, nr);
	}
	if (head)
		ks_csv_free(head, nh);
}

/* every pass's table, box/pmc_N/prof_counter_collection.csv */
static cJSON *
rocprof_read(const char *box, const char *out, char **why)
{
	cJSON *kernels = cJSON_CreateArray(), *k;
	int tables = 0;

	(void)out;
	for (size_t i = 1; i <= NPASSES; i++) {
		char *path = ks_easprintf("%s/pmc_%zu/prof_counter_collection.csv", box, i), *text;

		if (ks_exists(path) && (text = ks_file_read(path, NULL))) {
			read_pass(text, kernels);
			free(text);
			tables++;
		}
		free(path);
	}
	cJSON_ArrayForEach(k, kernels)
		cJSON_DeleteItemFromObjectCaseSensitive(k, "dispatch");
	if (cJSON_GetArraySize(kernels) == 0) {
		*why = ks_easprintf("rocprofv3 counted no kernel of the candidate's (%d of %zu tables written)", tables,
		    NPASSES);
		cJSON_Delete(kernels);
		return NULL;
	}
	return kernels;
}

static const char *const rocprof_places[] = { "/opt/rocm/bin/rocprofv3", NULL };

const struct ks_profiler ks_rocprof = { "rocprofv3", "rocprofv3", "KS_ROCPROF", rocprof_places, rocprof_argv,
	rocprof_read };
