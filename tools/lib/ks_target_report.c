/*
 * ks_target_report.c - the compilers' per-kernel resource reports read
 * (ptxas -v; -Rpass-analysis=kernel-resource-usage), the kind the target
 * table names (ks_target.c), into a build record's "resources".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

static void
set_if(cJSON *k, const char *key, long v)
{
	if (k && v >= 0)
		ks_json_set_num(k, key, (double)v);
}

int
ks_harness_symbol(const char *name)
{
	/* _Z<length><name>..., or _ZL... for a function of internal linkage */
	if (strncmp(name, "_Z", 2) == 0) {
		name += 2;
		if (*name == 'L')
			name++;
		while (isdigit((unsigned char)*name))
			name++;
	}
	return strncmp(name, "ks_", 3) == 0;
}

/*
 * ptxas -v, per kernel:
 *   ptxas info    : Compiling entry function '_Z4rmsPKf' for 'sm_90a'
 *   ptxas info    : Function properties for _Z4rmsPKf
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 16 registers, used 1 barriers, 1024 bytes smem, 380 bytes cmem[0]
 */
static void
parse_ptxas(const char *line, cJSON *kernels, cJSON **cur)
{
	const char *q;

	if ((q = strstr(line, "Compiling entry function '"))) {
		const char *name = q + 26, *end = strchr(name, '\'');

		/* The harness's own kernels (ks_..., mangled _Z<n>ks_...) are not the candidate's. */
		if (ks_harness_symbol(name)) {
			*cur = NULL;
			return;
		}
		*cur = cJSON_CreateObject();
		char *n = ks_easprintf("%.*s", end ? (int)(end - name) : (int)strlen(name), name);
		cJSON_AddStringToObject(*cur, "name", n);
		free(n);
		cJSON_AddItemToArray(kernels, *cur);
	} else if (strstr(line, "bytes stack frame")) {
		set_if(*cur, "stack_bytes", ks_number_before(line, "bytes stack frame"));
		set_if(*cur, "spill_store_bytes", ks_number_before(line, "bytes spill stores"));
		set_if(*cur, "spill_load_bytes", ks_number_before(line, "bytes spill loads"));
	} else if (strstr(line, "Used ") && strstr(line, "registers")) {
		set_if(*cur, "registers", ks_number_before(line, "registers"));
		set_if(*cur, "barriers", ks_number_before(line, "barriers"));
		set_if(*cur, "smem_bytes", ks_number_before(line, "bytes smem"));
	}
}

/*
 * -Rpass-analysis=kernel-resource-usage, one remark per line:
 *   x.hip:5:0: remark: Function Name: _Z3fooPf [-Rpass-analysis=kernel-resource-usage]
 *   x.hip:5:0: remark:     SGPRs: 14 [...]
 */
static void
parse_amdgpu(const char *line, cJSON *kernels, cJSON **cur)
{
	static const struct {
		const char *key, *field;
	} fields[] = {
		{ "SGPRs Spill:", "sgpr_spills" }, { "VGPRs Spill:", "vgpr_spills" }, { "SGPRs:", "sgprs" },
		{ "VGPRs:", "vgprs" }, { "AGPRs:", "agprs" }, { "ScratchSize [bytes/lane]:", "scratch_bytes_per_lane" },
		{ "Occupancy [waves/SIMD]:", "occupancy_waves_per_simd" }, { "LDS Size [bytes/block]:", "lds_bytes" },
	};
	const char *q;

	if (!strstr(line, "kernel-resource-usage"))
		return;
	if ((q = strstr(line, "Function Name: "))) {
		const char *name = q + 15, *end = strchr(name, ' ');

		if (ks_harness_symbol(name)) {
			*cur = NULL;
			return;
		}
		*cur = cJSON_CreateObject();
		char *n = ks_easprintf("%.*s", end ? (int)(end - name) : (int)strlen(name), name);
		cJSON_AddStringToObject(*cur, "name", n);
		free(n);
		cJSON_AddItemToArray(kernels, *cur);
		return;
	}
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (strstr(line, fields[i].key)) {
			set_if(*cur, fields[i].field, ks_number_after(line, fields[i].key));
			return;
		}
}

/*
 * A judge's build compiles two programs into one log; a kernel named
 * twice (the same source seen by both) is reported once, as first read.
 */
static void
drop_repeats(cJSON *kernels)
{
	for (int i = cJSON_GetArraySize(kernels) - 1; i > 0; i--) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(kernels, i), "name");

		for (int j = 0; j < i && cJSON_IsString(name); j++) {
			const cJSON *other = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(kernels, j), "name");

			if (cJSON_IsString(other) && strcmp(name->valuestring, other->valuestring) == 0) {
				cJSON_DeleteItemFromArray(kernels, i);
				break;
			}
		}
	}
}

cJSON *
ks_target_resources(const struct ks_target *t, const char *diagnostics)
{
	cJSON *res, *kernels, *cur = NULL;
	char *text, *line, *save = NULL;

	if (t->resources == KS_RES_NONE || !diagnostics)
		return NULL;
	res = cJSON_CreateObject();
	kernels = cJSON_AddArrayToObject(res, "kernels");
	text = ks_estrdup(diagnostics);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (t->resources == KS_RES_PTXAS)
			parse_ptxas(line, kernels, &cur);
		else
			parse_amdgpu(line, kernels, &cur);
	}
	free(text);
	drop_repeats(kernels);
	if (cJSON_GetArraySize(kernels) == 0) {
		cJSON_Delete(res);
		return NULL;
	}
	return res;
}
