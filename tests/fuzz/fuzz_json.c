/*
 * fuzz_json.c - libFuzzer target: any bytes through the strict JSON reader
 * and the validators of what the stages hand each other
 * (hypotheses.json), and through ks-build's static check, which reads
 * untrusted source.  Built and run by "make fuzz" under ASan and UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the tools' warnings go to a FILE, the sanitizers' reports to fd 2 */
	stderr = fopen("/dev/null", "w");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *why = NULL;
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
	free(ks_static_check(text, NULL));
	free(text);
	return 0;
}
