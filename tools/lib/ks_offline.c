/*
 * ks_offline.c - the proposer used when no LLM is configured: its
 * hypothesize, changes of the base's tunable parameters scored from what
 * the population measured (ks_offline_moves.c, by the offline model of
 * ks_offline_model.c), a draw across the whole space among them
 * (ks_offline_draw.c), written as avenues and plans.  Its select is
 * ks_offline_select.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "offline.h"

static int
load_configs(struct ks_cand *c, size_t n, struct config *cfg)
{
	int m = 0;

	for (size_t i = 0; i < n; i++) {
		char *path = ks_cand_kernel_path(&c[i]), *src;

		if (!path)
			continue;
		src = ks_file_read(path, NULL);
		free(path);
		if (!src)
			continue;
		cfg[m].n = ks_tune_parse(src, cfg[m].p, MAX_PARAMS);
		cfg[m].cand = &c[i];
		free(src);
		m++;
	}
	return m;
}

static char *
move_title(const struct moves *ms, const struct move *mv)
{
	struct ks_buf b = { 0 };
	int c = 0;

	ks_buf_add(&b, "", 0);
	for (int j = 0; j < ms->nb; j++)
		if (mv->cfg[j] != ms->bp[j].value)
			ks_buf_printf(&b, "%s%s %ld -> %ld", c++ ? ", " : "", ms->bp[j].name, ms->bp[j].value, mv->cfg[j]);
	return b.s;
}

static cJSON *
move_avenue(const struct moves *ms, const struct move *mv)
{
	char *t = move_title(ms, mv), *s = ks_easprintf("%s (expected %+.0f%%: %s)", t, mv->est, mv->why);
	cJSON *avenue = cJSON_CreateString(s);

	free(s);
	free(t);
	return avenue;
}

static cJSON *
move_plan(const struct moves *ms, const struct move *mv, const char *base_id)
{
	cJSON *plan = cJSON_CreateObject(), *changes = cJSON_CreateObject();
	char *title = move_title(ms, mv), *s;
	struct ks_buf rubric = { 0 };

	cJSON_AddStringToObject(plan, "title", title);
	s = ks_easprintf("Change the tunable parameter%s of %s: %s. Why: %s.", mv->nch > 1 ? "s" : "",
	    base_id, title, mv->why);
	cJSON_AddStringToObject(plan, "description", s);
	free(s);
	for (int j = 0; j < ms->nb; j++) {
		if (mv->cfg[j] == ms->bp[j].value)
			continue;
		ks_buf_printf(&rubric, "set `#define %s %ld` (was %ld); ", ms->bp[j].name, mv->cfg[j], ms->bp[j].value);
		cJSON_AddNumberToObject(changes, ms->bp[j].name, (double)mv->cfg[j]);
	}
	ks_buf_puts(&rubric, "change nothing else");
	cJSON_AddStringToObject(plan, "rubric", rubric.s);
	cJSON_AddNumberToObject(plan, "uplift_min", round(mv->lo));
	cJSON_AddNumberToObject(plan, "uplift_max", round(mv->hi));
	cJSON_AddNumberToObject(plan, "innovation", mv->innovation < 1 ? 1 : mv->innovation > 10 ? 10 : mv->innovation);
	cJSON_AddItemToObject(plan, "changes", changes);
	ks_buf_free(&rubric);
	free(title);
	return plan;
}

static int
shares_param(const struct moves *ms, const struct move *a, const struct move *b)
{
	for (int j = 0; j < ms->nb; j++)
		if (a->cfg[j] != ms->bp[j].value && b->cfg[j] != ms->bp[j].value)
			return 1;
	return 0;
}

/*
 * Moves the best k moves to the front, preferring ones that change
 * parameters no earlier pick changes: five plans on five knobs teach
 * more than five values of one.  The order stays deterministic.
 */
static void
pick_diverse(const struct moves *ms, size_t k)
{
	struct move *mv = ms->m;
	size_t picked = 0, n = ms->n;

	for (int pass = 0; pass < 2 && picked < k; pass++)
		for (size_t i = picked; i < n && picked < k; i++) {
			int clash = 0;

			for (size_t j = 0; j < picked && !pass; j++)
				clash |= shares_param(ms, &mv[i], &mv[j]);
			if (clash)
				continue;
			struct move t = mv[i];
			memmove(&mv[picked + 1], &mv[picked], (i - picked) * sizeof *mv);
			mv[picked++] = t;
		}
}

/* hypotheses.json for a space with nothing untried left: no plans, and why. */
static cJSON *
exhausted(const struct moves *ms, const char *path, long space)
{
	cJSON *out = cJSON_CreateObject();
	struct ks_buf names = { 0 };
	char *s;

	ks_buf_add(&names, "", 0);
	for (int j = 0; j < ms->nb; j++)
		ks_buf_printf(&names, "%s%s", j ? ", " : "", ms->bp[j].name);
	if (space > 0)
		s = ks_easprintf("search space exhausted: all %ld configurations of the tunable parameters of '%s' "
		    "(%s) have been measured (an LLM can still propose other changes)", space, path, names.s);
	else
		s = ks_easprintf("search space exhausted: no untried configuration of the tunable parameters of '%s' "
		    "(%s) among the first %ld searched (an LLM can still propose other changes)", path, names.s,
		    SPACE_MAX);
	cJSON_AddStringToObject(out, "exhausted", s);
	cJSON_AddArrayToObject(out, "avenues");
	cJSON_AddArrayToObject(out, "plans");
	free(s);
	ks_buf_free(&names);
	return out;
}

cJSON *
ks_offline_hypothesize(const struct ks_cand *base, struct ks_cand *c, size_t n, char **why)
{
	struct ks_param bp[MAX_PARAMS];
	struct moves ms = { 0 };
	struct config *cfg;
	char *path, *src;
	cJSON *out, *avenues, *plans;
	struct move draw;
	size_t nlocal;
	long space;
	int m, has_draw;

	*why = NULL;
	if (!(path = ks_cand_kernel_path(base)) || !(src = ks_file_read(path, NULL))) {
		free(path);
		return NULL;
	}
	ms.bp = bp;
	ms.nb = ks_tune_parse(src, bp, MAX_PARAMS);
	free(src);
	if (ms.nb == 0) {
		*why = ks_easprintf("'%s' declares no tunable parameter (\"#define NAME VALUE  ks-tune: ...\"), "
		    "so the offline proposer has nothing to change: configure an LLM", path);
		free(path);
		return NULL;
	}
	cfg = ks_ecalloc(n ? n : 1, sizeof *cfg);
	m = load_configs(c, n, cfg);
	ks_offline_propose_moves(&ms, base, cfg, m, &space);
	has_draw = ks_offline_draw_move(&ms, base, cfg, m, &draw) == 0;
	free(cfg);
	if (ms.n == 0 && !has_draw) {
		out = exhausted(&ms, path, space);
		free(path);
		return out;
	}
	free(path);
	/* the hill climber's best moves, and the draw last: innovation 10, it is the first plan kept */
	nlocal = ms.n < (size_t)(10 - has_draw) ? ms.n : (size_t)(10 - has_draw);
	out = cJSON_CreateObject();
	avenues = cJSON_AddArrayToObject(out, "avenues");
	plans = cJSON_AddArrayToObject(out, "plans");
	for (size_t i = 0; i < nlocal; i++)
		cJSON_AddItemToArray(avenues, move_avenue(&ms, &ms.m[i]));
	if (has_draw)
		cJSON_AddItemToArray(avenues, move_avenue(&ms, &draw));
	/* five plans while five configurations are untried; the last few take fewer */
	nlocal = ms.n < (size_t)(5 - has_draw) ? ms.n : (size_t)(5 - has_draw);
	pick_diverse(&ms, nlocal);
	for (size_t i = 0; i < nlocal; i++)
		cJSON_AddItemToArray(plans, move_plan(&ms, &ms.m[i], base->id));
	if (has_draw)
		cJSON_AddItemToArray(plans, move_plan(&ms, &draw, base->id));
	free(ms.m);
	return out;
}
