/*
 * ks_llm_open.c - the LLM client's settings, from the environment: the
 * provider, the URL and the key, each stage's model or models, the
 * numbers of a request (tries, timeouts, the reply limit) and what goes
 * into every body.  ks_llm_open reads them for a stage's calls (with what
 * the run learnt of the model: ks_llm_adapt.c); ks_llm_check checks them
 * all, for ks-init, the same way and without a word when they are good.
 * No libcurl here: a tool that checks settings holds no client.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "llm.h"

/* The provider the environment names, "offline" when nothing is configured. */
static const char *
provider_of_env(void)
{
	if (ks_env("KS_LLM_PROVIDER"))
		return ks_env("KS_LLM_PROVIDER");
	if (ks_env("KS_LLM_URL") || ks_env("OPENAI_BASE_URL") || ks_env("KS_LLM_API_KEY") || ks_env("OPENAI_API_KEY"))
		return "openai";
	if (ks_env("ANTHROPIC_API_KEY"))
		return "anthropic";
	if (ks_env("GEMINI_API_KEY"))
		return "gemini";
	return "offline";
}

/* The stage's model setting, KS_<STAGE>_MODEL or KS_MODEL; var names the one used (the first when neither is set). */
static const char *
stage_model(const char *stage, char *var, size_t n)
{
	const char *m;

	snprintf(var, n, "KS_%s_MODEL", stage);
	for (char *p = var; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if ((m = ks_env(var)) || !(m = ks_env("KS_MODEL")))
		return m;
	snprintf(var, n, "KS_MODEL");
	return m;
}

/*
 * A model setting may name several models with weights, each optionally
 * on an endpoint of its own: "model-a:3,model-b:1@local".  An entry is
 * the model, then ":N" (a weight from 1 to 1000; default 1) when the
 * last colon is followed by digits alone, then "@NAME" when the last @ is
 * followed by a word that starts with a letter (KS_ENDPOINT_<NAME>_URL,
 * _PROVIDER and _API_KEY; see choose_endpoint).  A model whose name ends
 * in ":digits" (Ollama's "qwen:7") is written with its weight:
 * "qwen:7:1".
 */
struct model_entry {
	char model[200];
	long weight;
	char endpoint[40];	/* "" for the stage's own provider, URL and key */
};

#define MAX_MODELS 16

/* An entry of the setting, trimmed; -1 with a message naming var when it is not one. */
static int
parse_entry(const char *var, const char *s, size_t len, struct model_entry *e)
{
	char buf[300], *at, *colon;
	size_t n;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0 || len >= sizeof buf) {
		ks_warnx("%s: %s entry in '%.*s'", var, len ? "a too long" : "an empty", (int)len, s);
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	e->weight = 1;
	e->endpoint[0] = '\0';
	if ((at = strrchr(buf, '@')) && isalpha((unsigned char)at[1]) &&
	    strspn(at + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(at + 1)) {
		if (strlen(at + 1) >= sizeof e->endpoint) {
			ks_warnx("%s: the endpoint name '%s' is too long", var, at + 1);
			return -1;
		}
		snprintf(e->endpoint, sizeof e->endpoint, "%s", at + 1);
		*at = '\0';
	}
	if ((colon = strrchr(buf, ':')) && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		if (ks_parse_int(colon + 1, 1, 1000, &e->weight) < 0) {
			ks_warnx("%s: the weight of '%s' must be an integer from 1 to 1000", var, buf);
			return -1;
		}
		*colon = '\0';
	}
	if (!*buf || (n = strlen(buf)) >= sizeof e->model) {
		ks_warnx("%s: an entry without a model name in '%.*s'", var, (int)len, s);
		return -1;
	}
	memcpy(e->model, buf, n + 1);
	return 0;
}

/* The entries of a comma-separated setting; their number, or -1 with a message. */
static int
parse_models(const char *var, const char *spec, struct model_entry *e)
{
	int n = 0;

	for (const char *p = spec;;) {
		size_t len = strcspn(p, ",");

		if (n == MAX_MODELS) {
			ks_warnx("%s names more than %d models", var, MAX_MODELS);
			return -1;
		}
		if (parse_entry(var, p, len, &e[n++]) < 0)
			return -1;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

/*
 * Draw number draw of the run (0, 1, ...): the entry that smooth weighted
 * round robin gives it, so that every stretch of consecutive draws holds
 * the models in their weights' shares as nearly as it can (3:1 goes
 * a a b a a a b a ...), and a draw made again picks the same model.
 */
static int
pick_entry(const struct model_entry *e, int n, long draw)
{
	long current[MAX_MODELS] = { 0 }, total = 0;
	int pick = 0;

	for (int i = 0; i < n; i++)
		total += e[i].weight;
	for (long d = 0; d <= draw % total; d++) {
		pick = 0;
		for (int i = 0; i < n; i++) {
			current[i] += e[i].weight;
			if (current[i] > current[pick])
				pick = i;
		}
		current[pick] -= total;
	}
	return pick;
}

static int
load_numbers(struct ks_llm *llm)
{
	long tries, max_tokens, budget;
	int cache_off;
	const char *c = ks_env("KS_LLM_CACHE"), *st = ks_env("KS_LLM_STREAM");

	if (st && strcmp(st, "off") != 0 && strcmp(st, "on") != 0) {
		ks_warnx("KS_LLM_STREAM must be on or off, not '%s'", st);
		return -1;
	}
	llm->stream = !st || strcmp(st, "on") == 0;
	/*
	 * Streamed, a reply may take long (a model thinking for ten minutes)
	 * while the idle limit tells a dead connection: hence 30 minutes in all.
	 */
	if (ks_env_int("KS_LLM_TRIES", 1, 100, 5, NULL, &tries) < 0 ||
	    ks_env_num("KS_LLM_TIMEOUT_S", 0.001, 86400, 1800, NULL, &llm->timeout_s) < 0 ||
	    ks_env_num("KS_LLM_IDLE_S", 0.001, 86400, 120, NULL, &llm->idle_s) < 0 ||
	    ks_env_num("KS_LLM_BACKOFF_S", 0, 3600, 2, NULL, &llm->backoff_s) < 0 ||
	    ks_env_num("KS_LLM_RETRY_MAX_S", 0, 3600, 120, NULL, &llm->retry_max_s) < 0 ||
	    ks_env_num("KS_LLM_OUTAGE_S", 0, 86400, 900, NULL, &llm->outage_s) < 0 ||
	    ks_env_int("KS_LLM_MAX_TOKENS", 1, 10000000, 16384, NULL, &max_tokens) < 0 ||
	    ks_env_int("KS_MAX_TOKENS", 0, 1000000000000L, 0, NULL, &budget) < 0 ||
	    ks_env_num("KS_LLM_TEMPERATURE", 0, 2, -1, NULL, &llm->temperature) < 0)
		return -1;
	if (c && strcmp(c, "off") != 0 && strcmp(c, "on") != 0) {
		ks_warnx("KS_LLM_CACHE must be on or off, not '%s'", c);
		return -1;
	}
	cache_off = c && strcmp(c, "off") == 0;
	llm->tries = (int)tries;
	llm->max_tokens = max_tokens;
	llm->budget = budget;
	llm->cache = !cache_off;
	return 0;
}

/* The host of a URL, lower case ("https://API.openai.com:443/v1" -> "api.openai.com"); "" when none. */
static void
url_host(const char *url, char *buf, size_t n)
{
	const char *h = strstr(url, "://");
	size_t len = 0;

	h = h ? h + 3 : url;
	if (strchr(h, '@') && strchr(h, '@') < h + strcspn(h, "/"))	/* user:password@host */
		h = strchr(h, '@') + 1;
	while (h[len] && !strchr(":/?#", h[len]) && len + 1 < n) {
		buf[len] = (char)tolower((unsigned char)h[len]);
		len++;
	}
	buf[len] = '\0';
}

/*
 * The key for the request: KS_LLM_API_KEY when set; else the provider's
 * own variable (OPENAI_API_KEY...), but only for the provider's own host,
 * or, for OpenAI, the server OPENAI_BASE_URL names (the pair the OpenAI
 * SDKs use: the API's base_env): a local server named by KS_LLM_URL never
 * gets another service's key.  NULL: no key (a note says why, unless quiet).
 */
static const char *
key_for(const struct ks_llm_api *api, const char *url, int url_is_base_env, int quiet)
{
	const char *key = ks_env("KS_LLM_API_KEY"), *own = ks_env(api->key_env);
	char host[256], own_host[256];

	if (key || !own)
		return key;
	url_host(url, host, sizeof host);
	url_host(api->url, own_host, sizeof own_host);
	if (strcmp(host, own_host) == 0 || url_is_base_env)
		return own;
	if (!quiet)
		ks_info("%s is not sent to '%s', which is not %s (%s): set KS_LLM_API_KEY for that server", api->key_env,
		    url, own_host, api->name);
	return NULL;
}

/* The JSON object of variable var, merged into *into; -1 after one line naming var. */
static int
extra_body_of(const char *var, cJSON **into)
{
	const char *v = ks_env(var);
	cJSON *j;

	if (!v)
		return 0;
	if (!(j = ks_json_parse(v, strlen(v), NULL)) || !cJSON_IsObject(j)) {
		ks_warnx("%s must be a JSON object, e.g. '{\"reasoning_effort\": \"high\"}', not '%s'", var, v);
		cJSON_Delete(j);
		return -1;
	}
	if (!*into)
		*into = j;
	else {
		ks_json_merge(*into, j);
		cJSON_Delete(j);
	}
	return 0;
}

/*
 * What goes into every request besides the prompt: KS_LLM_EXTRA_BODY and
 * KS_<STAGE>_EXTRA_BODY (the stage's wins), and OpenAI's reply-limit field
 * KS_LLM_MAX_TOKENS_PARAM.
 */
static int
load_body_settings(struct ks_llm *llm, const char *stage)
{
	const char *param = ks_env("KS_LLM_MAX_TOKENS_PARAM");
	char var[64];

	snprintf(var, sizeof var, "KS_%s_EXTRA_BODY", stage);
	for (char *p = var; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if (extra_body_of("KS_LLM_EXTRA_BODY", &llm->extra_body) < 0 || extra_body_of(var, &llm->extra_body) < 0)
		return -1;
	if (param && (strlen(param) >= sizeof llm->tokens_param || strspn(param,
	    "abcdefghijklmnopqrstuvwxyz_") != strlen(param) || !*param)) {
		ks_warnx("KS_LLM_MAX_TOKENS_PARAM must be a field name such as max_completion_tokens, not '%s'", param);
		return -1;
	}
	snprintf(llm->tokens_param, sizeof llm->tokens_param, "%s", param ? param : "max_tokens");
	return 0;
}

/* The client for model on url (its trailing slashes dropped) with key, or none; -1 on a bad setting (said). */
static int
configure(struct ks_llm *llm, const char *stage, const char *root, const struct ks_llm_api *api, const char *model,
    const char *url, const char *key)
{
	snprintf(llm->provider, sizeof llm->provider, "%s", api->name);
	llm->api = api;
	llm->stage = stage;
	llm->model = ks_estrdup(model);
	llm->url = ks_estrdup(url);
	/* A base URL may end in a slash or not: the endpoint appends one. */
	for (size_t n = strlen(llm->url); n > 0 && llm->url[n - 1] == '/'; n--)
		llm->url[n - 1] = '\0';
	llm->key = key ? ks_estrdup(key) : NULL;
	llm->root = ks_estrdup(root);
	/* what the run learnt of this model (a parameter it refuses) is asked so from the first request */
	if (load_numbers(llm) < 0 || load_body_settings(llm, stage) < 0 || ks_llm_adapt_load(llm) < 0) {
		ks_llm_close(llm);
		return -1;
	}
	return 0;
}

/*
 * A model on an endpoint of its own, "@NAME" in the model setting:
 * KS_ENDPOINT_<NAME>_URL (required), _PROVIDER (openai, anthropic or
 * gemini; default openai, which vLLM, llama.cpp and Ollama speak) and
 * _API_KEY.  That key goes to that URL alone, and no other key goes
 * there: the stage's own keys stay with the stage's own server.
 */
static int
open_endpoint(struct ks_llm *llm, const char *stage, const char *root, const struct model_entry *e, const char *var)
{
	char name[sizeof e->endpoint], uvar[80], pvar[80], kvar[80];
	const struct ks_llm_api *api;
	const char *url, *p;

	for (size_t i = 0; i < sizeof name; i++)
		name[i] = (char)toupper((unsigned char)e->endpoint[i]);
	snprintf(uvar, sizeof uvar, "KS_ENDPOINT_%s_URL", name);
	snprintf(pvar, sizeof pvar, "KS_ENDPOINT_%s_PROVIDER", name);
	snprintf(kvar, sizeof kvar, "KS_ENDPOINT_%s_API_KEY", name);
	if (!(url = ks_env(uvar))) {
		ks_warnx("%s puts %s on endpoint '%s', but %s is not set", var, e->model, e->endpoint, uvar);
		return -1;
	}
	p = ks_env(pvar) ? ks_env(pvar) : "openai";
	if (!(api = ks_llm_api_named(p))) {
		ks_warnx("%s must be openai, anthropic or gemini, not '%s'", pvar, p);
		return -1;
	}
	return configure(llm, stage, root, api, e->model, url, ks_env(kvar));
}

/*
 * The stage's model setting as entries (*n of them; 0 when none is set) and
 * var, the variable it came from; -1 with a message.  Beside a model on an
 * endpoint, a model without one needs the stage's LLM, whichever model a
 * draw picks.
 */
static int
stage_entries(const char *stage, const char *p, struct model_entry *e, int *n, char *var, size_t nvar)
{
	const char *spec;
	int any_endpoint = 0;

	*n = 0;
	if ((spec = stage_model(stage, var, nvar)) && (*n = parse_models(var, spec, e)) < 0)
		return -1;
	for (int i = 0; i < *n; i++)
		any_endpoint |= e[i].endpoint[0] != '\0';
	for (int i = 0; i < *n && any_endpoint && strcmp(p, "offline") == 0; i++)
		if (!e[i].endpoint[0]) {
			ks_warnx("%s: %s has no endpoint of its own (@NAME), and no LLM is configured for it "
			    "(KS_LLM_PROVIDER, KS_LLM_URL or an API key)", var, e[i].model);
			return -1;
		}
	return 0;
}

/*
 * The client for entry pick of e (-1: none is set), as ks_llm_open
 * returns it; quiet: no note (offline, a key not sent), for ks_llm_check.
 */
static int
open_entry(struct ks_llm *llm, const char *stage, const char *root, const char *p, const struct model_entry *e,
    int pick, const char *var, int quiet)
{
	const struct ks_llm_api *api;
	const char *url, *key;
	int base_env = 0;

	memset(llm, 0, sizeof *llm);
	if (pick >= 0 && e[pick].endpoint[0])
		return open_endpoint(llm, stage, root, &e[pick], var);
	if (strcmp(p, "offline") == 0) {
		/* once a generation, by its first stage: not once for each of its 2 + K stage processes */
		if (!quiet && strcmp(stage, "select") == 0)
			ks_info("no LLM configured (KS_LLM_PROVIDER, KS_LLM_URL or an API key): using the offline proposer");
		return 1;
	}
	if (!(api = ks_llm_api_named(p))) {
		ks_warnx("KS_LLM_PROVIDER must be openai, anthropic, gemini or offline, not '%s'", p);
		return -1;
	}
	if (pick < 0) {
		ks_warnx("no model for the %s stage: set KS_MODEL (or %s)", stage, var);
		return -1;
	}
	url = ks_env("KS_LLM_URL");
	if (!url && api->base_env && (url = ks_env(api->base_env)))
		base_env = 1;
	key = key_for(api, url ? url : api->url, base_env, quiet);
	return configure(llm, stage, root, api, e[pick].model, url ? url : api->url, key);
}

int
ks_llm_open(struct ks_llm *llm, const char *stage, const char *root, long draw)
{
	const char *p = provider_of_env();
	struct model_entry e[MAX_MODELS];
	char var[64];
	int n;

	memset(llm, 0, sizeof *llm);
	if (stage_entries(stage, p, e, &n, var, sizeof var) < 0)
		return -1;
	return open_entry(llm, stage, root, p, e, n > 0 ? pick_entry(e, n, draw < 0 ? 0 : draw) : -1, var, 0);
}

int
ks_llm_check(const char *stage, const char *root)
{
	const char *p = provider_of_env();
	struct model_entry e[MAX_MODELS];
	struct ks_llm llm;
	char var[64];
	int n, rc = 1;

	if (stage_entries(stage, p, e, &n, var, sizeof var) < 0)
		return -1;
	/* every model the setting names: a draw of a later generation may pick any of them */
	for (int i = 0; i < (n > 0 ? n : 1); i++) {
		int r = open_entry(&llm, stage, root, p, e, n > 0 ? i : -1, var, 1);

		if (r < 0)
			return -1;
		if (r == 0) {
			ks_llm_close(&llm);
			rc = 0;
		}
	}
	return rc;
}

void
ks_llm_close(struct ks_llm *llm)
{
	free(llm->last_error);
	cJSON_Delete(llm->extra_body);
	free(llm->model);
	free(llm->url);
	if (llm->key)
		memset(llm->key, 0, strlen(llm->key));
	free(llm->key);
	free(llm->root);
	memset(llm, 0, sizeof *llm);
}
