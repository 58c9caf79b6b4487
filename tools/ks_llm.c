/* ks_llm.c - which model answers a stage. */
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

const char *
ks_llm_provider(void)
{
	const char *p = env("KS_LLM_PROVIDER");

	if (!p && !env("KS_LLM_URL") && !env("OPENAI_BASE_URL") && !env("KS_LLM_API_KEY") &&
	    !env("OPENAI_API_KEY") && !env("ANTHROPIC_API_KEY") && !env("GEMINI_API_KEY"))
		p = "offline";
	if (p && strcmp(p, "offline") == 0) {
		ks_info("no LLM configured (KS_LLM_PROVIDER, KS_LLM_URL or an API key): using the offline proposer");
		return "offline";
	}
	ks_warnx("an LLM is configured (KS_LLM_PROVIDER=%s), but this build has no LLM client yet: "
	    "set KS_LLM_PROVIDER=offline to run the offline proposer", p ? p : "openai");
	return NULL;
}
