/*
 * fuzz_reply.c - libFuzzer target: any bytes as an LLM's reply, through
 * the parsers that take JSON or code out of it (ks_prompt.c), the check
 * of implement's code (a whole file, or SEARCH/REPLACE edits: ks_edit.c),
 * the assembly of a streamed reply of each API (ks_sse.c) and the
 * redaction of keys (ks_redact.c).  Built and run by "make fuzz" under
 * ASan and UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	stderr = fopen("/dev/null", "w");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *why = NULL, *code;
	struct ks_code_check cc = { "sgemm", NULL, NULL };
	cJSON *j;

	memcpy(text, data, size);
	text[size] = '\0';
	if ((j = ks_reply_json(text, &why)))
		cJSON_Delete(j);
	free(why);
	why = NULL;
	code = ks_reply_code(text, "sgemm", &why);
	free(code);
	free(why);
	why = NULL;
	ks_check_code(text, &cc, &why);
	free(cc.code);
	free(why);
	why = NULL;
	/* the same reply as SEARCH/REPLACE edits to a small kernel */
	cc.code = NULL;
	cc.base = "void sgemm(int M)\n{\n\tint i;\n\tint i;\n}\n";
	ks_check_code(text, &cc, &why);
	free(cc.code);
	free(why);
	why = NULL;
	for (int p = 0; p < 3; p++) {
		static const char *const providers[] = { "openai", "anthropic", "gemini" };

		if ((j = ks_sse_assemble(providers[p], text, &why)))
			cJSON_Delete(j);
		free(why);
		why = NULL;
	}
	free(ks_redact(text, "sk-fuzz-key-0123456789"));
	free(ks_strip_reasoning(text));
	free(text);
	return 0;
}
