/*
 * fuzz_json.c - libFuzzer target: any bytes through the strict JSON reader,
 * the validators of what the stages hand each other (hypotheses.json),
 * the loader of every stage file and the usage ledger (the bytes as the
 * file), and through ks-build's static check and the knob parser
 * (ks_tune.c: the offline proposer reads a model's kernel), which read
 * untrusted source.  Built and run by "make fuzz" under ASan and UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

static char dir[] = "/tmp/ks-fuzz.XXXXXX";
static char *file, *ledger;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the tools' warnings go to a FILE, the sanitizers' reports to fd 2 */
	stderr = fopen("/dev/null", "w");
	if (!mkdtemp(dir))
		abort();
	file = ks_easprintf("%s/stage.json", dir);
	ledger = ks_easprintf("%s/llm-usage.jsonl", dir);
	return 0;
}

static void
put(const char *path, const char *text, size_t size)
{
	FILE *f = fopen(path, "w");

	/* plainly, not through the atomic writer: its fsync would cost most of the run */
	if (!f || fwrite(text, 1, size, f) != size || fclose(f) != 0)
		abort();
}

/* The input as each stage file, through its loader, loud and quiet. */
static void
load_as_files(const char *text, size_t size)
{
	struct ks_cand_rec c;
	struct ks_build_rec b;
	struct ks_bench_rec r;
	struct ks_select_rec s;
	struct ks_usage u;

	put(file, text, size);
	put(ledger, text, size);
	for (int flags = 0; flags <= KS_LOAD_SILENT; flags += KS_LOAD_SILENT) {
		if (ks_cand_rec_load(file, flags, &c) == 0)
			ks_cand_rec_free(&c);
		if (ks_build_rec_load(file, flags, &b) == 0)
			ks_build_rec_free(&b);
		if (ks_bench_rec_load(file, flags, &r) == 0)
			ks_bench_rec_free(&r);
		if (ks_select_rec_load(file, flags, &s) == 0)
			ks_select_rec_free(&s);
	}
	ks_ledger_load(dir, &u);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *why = NULL;
	struct ks_param knobs[8];
	long line;
	cJSON *h;

	memcpy(text, data, size);
	text[size] = '\0';
	if ((h = ks_json_parse(text, size, "fuzz.json"))) {
		for (int strict = 0; strict < 2; strict++) {
			ks_hypotheses_validate(h, 3, strict, &why);
			free(why);
			why = NULL;
		}
		ks_hypotheses_check(h, "fuzz.json", 0);
		cJSON_Delete(h);
	}
	load_as_files(text, size);
	free(ks_static_check(text, NULL));
	ks_tune_parse(text, knobs, 8);
	ks_tune_lint(text, &line);
	free(text);
	return 0;
}
