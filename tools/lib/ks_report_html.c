/*
 * ks_report_html.c - ks-report --html: a population as one page that
 * needs no network and no server (inline CSS, SVG and a small script):
 * the best score over the generations with every kernel as a dot, the
 * lineage, every kernel in a table that sorts by a click on a header,
 * each plan's expected uplift beside the measured one, the LLM tokens by
 * stage, and each kernel's source and transcripts.  Everything that comes
 * from the population (sources, transcripts, a model's text, messages)
 * is HTML-escaped: it shows as text and runs nothing.  This file writes
 * the page, its table and its tokens; the drawings are ks_report_svg.c's,
 * the generations' and kernels' sections ks_report_kernels.c's, what they
 * share ks_html.c's (report_html.h).
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_html.h"

/* ---- the run ---- */

static void
page_scan(struct page *p)
{
	p->last_gen = -1;
	p->k = 1;
	for (size_t i = 0; i < p->n; i++) {
		const struct ks_cand *c = &p->c[i];
		const cJSON *r;

		if (c->gen > p->last_gen)
			p->last_gen = c->gen;
		if (c->slot + 1 > p->k)
			p->k = c->slot + 1;
		if (!p->seed && c->gen == 0 && c->score_us > 0)
			p->seed = c;
		p->sol |= ks_sol_overall(c) > 0;
		p->tokens |= ks_html_usage_tokens(c) > 0;
		if (!(c->score_us > 0))
			continue;
		cJSON_ArrayForEach(r, c->bench.results) {
			char *name = ks_html_shape_name(cJSON_GetObjectItemCaseSensitive(r, "shape"));
			size_t j;

			for (j = 0; j < p->nshapes && strcmp(p->shapes[j], name) != 0; j++)
				;
			if (j == p->nshapes && j < SHAPES_MAX && *name)
				p->shapes[p->nshapes++] = name;
			else
				free(name);
		}
	}
}

char *
ks_report_summary(const char *root, const struct ks_cand *c, size_t n)
{
	const struct ks_cand *best = NULL, *seed = NULL;
	struct ks_buf s = { 0 };
	size_t ok = 0, ngens;
	long *gens = ks_gens_list(root, &ngens), last_gen = ngens ? gens[ngens - 1] : -1;

	free(gens);	/* a generation may have no candidates: its plans said the search was exhausted */
	for (size_t i = 0; i < n; i++) {
		if (c[i].gen > last_gen)
			last_gen = c[i].gen;
		if (c[i].score_us <= 0)
			continue;
		ok++;
		if (c[i].gen == 0 && !seed)
			seed = &c[i];
		if (!best || c[i].score_us < best->score_us)
			best = &c[i];
	}
	if (n == 0) {
		ks_buf_printf(&s, "%s: no generation yet, 0 kernels, 0 correct", root);
		return s.s;
	}
	ks_buf_printf(&s, "%s: generations 0..%ld, %zu kernels, %zu correct", root, last_gen, n, ok);
	if (best && seed)
		ks_buf_printf(&s, "; best %s %.1f us, %.2fx the seed %s (%.1f us)%s", best->id, best->score_us,
		    seed->score_us / best->score_us, seed->id, seed->score_us,
		    best != seed && !ks_faster(best, seed) && !ks_faster(seed, best) ? ": the same within the noise" : "");
	else if (best)
		ks_buf_printf(&s, "; best %s %.1f us", best->id, best->score_us);
	return s.s;
}

/* ---- the table ---- */

static void
th(struct ks_buf *b, const char *key, const char *type, const char *label, const char *title)
{
	ks_buf_printf(b, "<th data-key=\"%s\" data-type=\"%s\" tabindex=\"0\"", key, type);
	if (title) {
		ks_buf_puts(b, " title=\"");
		ks_html_esc(b, title);
		ks_buf_puts(b, "\"");
	}
	ks_buf_puts(b, ">");
	ks_html_esc(b, label);
	ks_buf_puts(b, "</th>");
}

/* a number cell: data-v sorts it; none: "-", sorted last */
static void
num_cell(struct ks_buf *b, int have, double v, const char *text)
{
	if (have)
		ks_buf_printf(b, "<td class=\"num\" data-v=\"%.17g\">%s</td>", v, text);
	else
		ks_buf_puts(b, "<td class=\"num\">-</td>");
}

static void
parent_cell(struct ks_buf *b, const char *id)
{
	ks_buf_puts(b, "<td>");
	ks_html_id_link(b, id);
	ks_buf_puts(b, "</td>");
}

/* c's base in the page, or NULL */
static const struct ks_cand *
base_of(const struct page *p, const struct ks_cand *c)
{
	return c->cand.base ? ks_cands_find((struct ks_cand *)p->c, p->n, c->cand.base) : NULL;
}

/* c and its base measured, and neither faster than the other: the difference is noise */
static int
within_noise(const struct page *p, const struct ks_cand *c)
{
	const struct ks_cand *base = base_of(p, c);

	return base && c->score_us > 0 && base->score_us > 0 && !ks_faster(c, base) && !ks_faster(base, c);
}

/* the score's spread (ks_score_spread), marked noisy where a shape ran into the time cap */
static void
spread_cell(struct ks_buf *b, const struct ks_cand *c)
{
	char t[32];
	double worst = ks_score_worst_rse(c);

	ks_score_spread(t, sizeof t, c);
	if (c->score_us <= 0) {
		num_cell(b, 0, 0, NULL);
		return;
	}
	ks_buf_printf(b, "<td class=\"num%s\" data-v=\"%.17g\">", ks_score_unconverged(c) ? " noisy" : "",
	    worst >= 0 ? 100 * worst : 0);
	ks_html_esc(b, t);
	ks_buf_puts(b, "</td>");
}

/* the side-by-side ratio to its base, with its interval; ~ where it is within the noise */
static void
versus_cell(struct ks_buf *b, const struct page *p, const struct ks_cand *c)
{
	const struct ks_cand *base = base_of(p, c);
	double r, lo, hi;

	if (!base || c->score_us <= 0 || base->score_us <= 0 || !ks_versus(c, base, &r, &lo, &hi)) {
		num_cell(b, 0, 0, NULL);
		return;
	}
	ks_buf_printf(b, "<td class=\"num up-%s\" data-v=\"%.17g\">%.3f%s<small>%.3f-%.3f</small></td>",
	    within_noise(p, c) ? "even" : r < 1 ? "faster" : "slower", r, r, within_noise(p, c) ? "~" : "", lo, hi);
}

/* a line above the table when some bench did not converge: its times are the machine's load as much as the kernel's */
static void
noisy_warning(struct page *p)
{
	size_t noisy = 0, timed = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].score_us > 0) {
			timed++;
			noisy += (size_t)ks_score_unconverged(&p->c[i]);
		}
	if (noisy)
		ks_buf_printf(&p->b, "<p class=\"warn\">%zu of %zu benched kernels have a shape whose timing ran into "
		    "the time cap before its standard error came under 0.5 %% (marked ! under spread): the machine "
		    "was busy or the kernel's time moves, and their times and uplifts are noise as much as "
		    "measurement.</p>\n", noisy, timed);
}

static void
table(struct page *p)
{
	struct ks_buf *b = &p->b;
	char t[64], pct[32];

	ks_buf_puts(b, "<div class=\"tablebox\"><table id=\"kernels\">\n<thead><tr>");
	th(b, "id", "text", "id", NULL);
	th(b, "plan", "text", "plan", NULL);
	th(b, "gen", "num", "gen", NULL);
	th(b, "base", "text", "base", NULL);
	th(b, "ref", "text", "ref", "reference");
	th(b, "status", "text", "status", NULL);
	th(b, "score", "num", "score (us)", "the geometric mean of the times on the benchmark shapes");
	th(b, "spread", "num", "spread", "the largest relative standard error of its shapes' times; ! a shape that "
	    "ran into the time cap, whose time is noise");
	th(b, "versus", "num", "vs base", "its time over its base's, timed side by side in one bench, with the 95 % "
	    "interval; ~ within the noise");
	th(b, "speedup", "num", "speed-up", "over the seed; ~ the same within the noise");
	if (p->sol)
		th(b, "sol", "num", "% SOL", "share of the speed of light (the problem's bound), over the shapes");
	for (size_t j = 0; j < p->nshapes; j++) {
		char key[32], *label = ks_easprintf("%s (us)", p->shapes[j]);

		snprintf(key, sizeof key, "shape-%zu", j);
		th(b, key, "num", label, "the median time on this benchmark shape; under it, the share of the speed of light");
		free(label);
	}
	th(b, "expected", "num", "expected uplift", "the plan's predicted uplift over its base");
	th(b, "measured", "num", "measured uplift", "what the kernel measured against its base");
	if (p->tokens)
		th(b, "tokens", "num", "tokens", "prompt and completion tokens of its implement calls, repairs included");
	ks_buf_puts(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct ks_cand *c = &p->c[i];
		const cJSON *plan = c->cand.plan;
		const char *title = ks_json_str(plan, "title", NULL);
		double v, lo = 0, hi = 0;

		ks_buf_printf(b, "<tr id=\"row-%s\" data-id=\"%s\" data-i=\"%zu\"><td><a href=\"#k-%s\">%s</a></td>", c->id,
		    c->id, i, c->id, c->id);
		ks_buf_puts(b, "<td class=\"plan\">");
		ks_html_esc(b, title ? title : c->gen == 0 ? "(seed)" : "-");
		ks_buf_puts(b, "</td>");
		ks_buf_printf(b, "<td class=\"num\" data-v=\"%ld\"><a href=\"#gen-%03ld\">%ld</a></td>", c->gen, c->gen,
		    c->gen);
		parent_cell(b, c->cand.base);
		parent_cell(b, c->cand.reference);
		ks_buf_printf(b, "<td data-v=\"");
		ks_html_esc(b, ks_html_status_of(c));
		ks_buf_puts(b, "\">");
		ks_html_status_badge(b, ks_html_status_of(c));
		ks_buf_puts(b, "</td>");
		snprintf(t, sizeof t, "%.1f", c->score_us);
		num_cell(b, c->score_us > 0, c->score_us, t);
		spread_cell(b, c);
		versus_cell(b, p, c);
		if (c->score_us > 0 && p->seed) {
			int same = c != p->seed && !ks_faster(c, p->seed) && !ks_faster(p->seed, c);

			snprintf(t, sizeof t, "%.2fx%s", p->seed->score_us / c->score_us, same ? "~" : "");
			num_cell(b, 1, p->seed->score_us / c->score_us, t);
		} else
			num_cell(b, 0, 0, NULL);
		if (p->sol) {
			v = ks_sol_overall(c);
			snprintf(t, sizeof t, "%s %%", ks_sol_pct(v, pct, sizeof pct));
			num_cell(b, v > 0, 100 * v, t);
		}
		for (size_t j = 0; j < p->nshapes; j++) {
			const cJSON *r, *hit = NULL, *results = c->score_us > 0 ? c->bench.results : NULL;

			cJSON_ArrayForEach(r, results) {
				char *name = ks_html_shape_name(cJSON_GetObjectItemCaseSensitive(r, "shape"));

				if (!hit && strcmp(name, p->shapes[j]) == 0)
					hit = r;
				free(name);
			}
			if (hit && ks_json_num(hit, "time_us", NULL, &v) == 0 && v > 0) {
				double share = ks_sol_share(hit);

				if (share > 0)
					snprintf(t, sizeof t, "%.1f<small>%s %% SOL</small>", v, ks_sol_pct(share, pct, sizeof pct));
				else
					snprintf(t, sizeof t, "%.1f", v);
				num_cell(b, 1, v, t);
			} else
				num_cell(b, 0, 0, NULL);
		}
		/* the plan's range beside what its kernel measured */
		if (cJSON_IsObject(plan) && ks_json_num(plan, "uplift_min", NULL, &lo) == 0 &&
		    ks_json_num(plan, "uplift_max", NULL, &hi) == 0) {
			snprintf(t, sizeof t, "%+.0f..%+.0f %%", lo, hi);
			num_cell(b, 1, (lo + hi) / 2, t);
		} else
			num_cell(b, 0, 0, NULL);
		if (cJSON_IsObject(plan) && ks_plan_uplift(p->c, p->n, c, &v)) {
			int where = ks_plan_against_range(plan, v), noise = within_noise(p, c);

			ks_buf_printf(b, "<td class=\"num up-%s\" data-v=\"%.17g\">%+.1f %% <small>%s%s</small></td>",
			    noise ? "even" : ks_html_sign_class(v), v, v, noise ? "within noise; " : "", ks_html_where_word(where));
		} else if (cJSON_IsObject(plan) && c->status && c->score_us <= 0 && strcmp(c->status, "stale") != 0)
			ks_buf_puts(b, "<td class=\"num up-failed\">failed</td>");
		else
			num_cell(b, 0, 0, NULL);
		if (p->tokens) {
			long tok = ks_html_usage_tokens(c);

			snprintf(t, sizeof t, "%ld", tok);
			num_cell(b, tok > 0, (double)tok, t);
		}
		ks_buf_puts(b, "</tr>\n");
	}
	ks_buf_puts(b, "</tbody>\n</table></div>\n");
}

/* How the plans' predicted ranges held up over the run, as ks-report's line says it. */
static void
calibration(struct page *p)
{
	struct ks_calibration cal;

	ks_calibrate(p->c, p->n, &cal);
	if (cal.measured == 0 && cal.failed == 0)
		return;
	ks_buf_printf(&p->b, "<p>Plans' predicted uplift: %ld of %ld measured inside their range (%.0f %%), %ld below, "
	    "%ld above, %.2fx the speed-up the middle promised (geometric mean); %ld failed.</p>\n", cal.inside,
	    cal.measured, cal.measured ? 100.0 * (double)cal.inside / (double)cal.measured : 0, cal.below, cal.above,
	    cal.speed_ratio, cal.failed);
}

/* ---- the tokens by stage ---- */

static void
tokens_row(struct ks_buf *b, const char *stage, const struct ks_usage *u, long most, int total)
{
	long all = u->prompt_tokens + u->completion_tokens;

	ks_buf_printf(b, "<tr%s><td>", total ? " class=\"total\"" : "");
	ks_html_esc(b, stage);
	ks_buf_printf(b, "</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
	    "<td class=\"num\">%ld</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td><td class=\"barcell\">",
	    u->calls, u->cached_calls, u->prompt_tokens, u->cached_prompt_tokens, u->completion_tokens,
	    u->failed_calls);
	if (!total && most > 0)
		ks_buf_printf(b, "<span class=\"bar\" style=\"width:%.1f%%\"></span>", 100.0 * (double)all / (double)most);
	ks_buf_puts(b, "</td></tr>\n");
}

static int
tokens(struct page *p)
{
	struct ks_stage_usage s[16];
	struct ks_usage total = { 0 };
	size_t ns;
	long most = 0;

	if (ks_ledger_stages(p->run->root, s, sizeof s / sizeof *s, &ns) < 0)
		return -1;
	if (ns == 0) {
		ks_buf_puts(&p->b, "<p>No LLM call: the offline proposer made every plan and kernel.</p>\n");
		return 0;
	}
	for (size_t i = 0; i < ns; i++) {
		total.calls += s[i].u.calls;
		total.cached_calls += s[i].u.cached_calls;
		total.prompt_tokens += s[i].u.prompt_tokens;
		total.cached_prompt_tokens += s[i].u.cached_prompt_tokens;
		total.completion_tokens += s[i].u.completion_tokens;
		total.failed_calls += s[i].u.failed_calls;
		if (s[i].u.prompt_tokens + s[i].u.completion_tokens > most)
			most = s[i].u.prompt_tokens + s[i].u.completion_tokens;
	}
	ks_buf_puts(&p->b, "<table id=\"tokens\"><thead><tr><th>stage</th><th>calls</th><th>from the cache</th>"
	    "<th>prompt tokens</th><th>of them cached by the provider</th><th>completion tokens</th>"
	    "<th>failed tries</th><th></th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < ns; i++)
		tokens_row(&p->b, s[i].stage, &s[i].u, most, 0);
	tokens_row(&p->b, "all", &total, most, 1);
	ks_buf_puts(&p->b, "</tbody></table>\n<p class=\"note\">Billed tokens: a reply from the cache was billed once, "
	    "when first asked (llm-usage.jsonl).</p>\n");
	return 0;
}

/* ---- the page ---- */

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;padding:12px 20px;"
	"max-width:1500px;color:#1b1b1b;background:#fff}\n"
	"h1{font-size:20px;margin:4px 0}h2{font-size:17px;margin:22px 0 6px;border-bottom:1px solid #ddd}"
	"h3{font-size:15px;margin:14px 0 4px}\n"
	"nav a{margin-right:12px}a{color:#0b5cad;text-decoration:none}a:hover{text-decoration:underline}\n"
	".summary{font-size:15px;margin:4px 0 8px}.note{color:#666;font-size:12px}\n"
	".figs{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.fig{max-width:100%;overflow:auto}\n"
	".tablebox{overflow-x:auto;max-width:100%}\n#lineage-box{max-height:400px;overflow:auto;border:1px solid #eee}\n"
	"svg text{font:11px system-ui,sans-serif;fill:#333}svg .label{font-size:12px;fill:#555}\n"
	".grid{stroke:#eee}.axis{stroke:#888}.band{fill:#f6f6f6}.best{fill:none;stroke:#2ca02c;stroke-width:2}\n"
	".edge{fill:none;stroke-width:1.4}.edge.base{stroke:#555}.edge.ref{stroke:#d08c00;stroke-dasharray:4 3}\n"
	".node rect{fill:#fff;stroke-width:1.5}.node .nid{font-weight:600}.node .nst{font-size:10.5px}\n"
	".legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:12px}\n"
	".legend li{display:flex;align-items:center;gap:4px}.mk{vertical-align:-2px;margin-right:3px}\n"
	"table{border-collapse:collapse;font-size:13px}th,td{padding:3px 8px;border-bottom:1px solid #eee;"
	"text-align:left;vertical-align:top}\n"
	"#kernels th{position:sticky;top:0;background:#f4f6f8;cursor:pointer;white-space:nowrap;user-select:none}\n"
	"#kernels th[aria-sort=ascending]::after{content:' \\25B2'}#kernels th[aria-sort=descending]::after"
	"{content:' \\25BC'}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td small{display:block;"
	"color:#777;font-size:11px}\n"
	"#kernels td.num small{display:block}.up-faster{color:#2a7a2a}.up-slower{color:#b3261e}"
	".up-failed{color:#b3261e}.noisy{color:#b3261e;font-weight:600}.warn{color:#8a4b00;background:#fff4e0;"
	"padding:4px 8px}\n"
	"tbody tr:hover{background:#f8fafc}tr:target{background:#fff6d6}.total td{font-weight:600}\n"
	".barcell{width:160px}.bar{display:inline-block;height:10px;background:#7aa6d6;border-radius:2px}\n"
	"section.kernel,section.gen{border-top:1px solid #eee;padding-top:2px}section:target{background:#fffbea}\n"
	"pre{background:#f7f7f7;border:1px solid #e5e5e5;padding:8px;overflow:auto;max-height:520px;font-size:12px;"
	"white-space:pre}\n"
	"pre.msg{white-space:pre-wrap;color:#8a1f11}summary{cursor:pointer;margin:3px 0}\n";

/*
 * The table sorts by a click on a header (again: the other way), rows
 * without a value last; a kernel's or a generation's section opens when
 * the address names it.  #selftest=sort:KEY,KEY... clicks those headers
 * in turn and writes the rows' order into <pre id="selftest">: how the
 * tests check in a browser that sorting works.
 */
static const char js[] =
	"(function () {\n"
	"\tvar table = document.getElementById('kernels');\n"
	"\tfunction value(row, i, num) {\n"
	"\t\tvar v = row.cells[i].getAttribute('data-v');\n"
	"\t\tif (num)\n"
	"\t\t\treturn v === null ? null : parseFloat(v);\n"
	"\t\treturn v !== null ? v : row.cells[i].textContent;\n"
	"\t}\n"
	"\tfunction sortBy(th) {\n"
	"\t\tvar i = th.cellIndex, num = th.getAttribute('data-type') === 'num';\n"
	"\t\tvar dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;\n"
	"\t\tvar heads = table.tHead.rows[0].cells, body = table.tBodies[0];\n"
	"\t\tfor (var k = 0; k < heads.length; k++)\n"
	"\t\t\theads[k].removeAttribute('aria-sort');\n"
	"\t\tth.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');\n"
	"\t\tvar rows = Array.prototype.slice.call(body.rows);\n"
	"\t\trows.sort(function (a, b) {\n"
	"\t\t\tvar x = value(a, i, num), y = value(b, i, num), tie = a.getAttribute('data-i') - b.getAttribute('data-i');\n"
	"\t\t\tif (x === null || y === null)\n"
	"\t\t\t\treturn x === y ? tie : x === null ? 1 : -1;\n"
	"\t\t\tvar d = num ? x - y : x < y ? -1 : x > y ? 1 : 0;\n"
	"\t\t\treturn d ? dir * d : tie;\n"
	"\t\t});\n"
	"\t\trows.forEach(function (r) { body.appendChild(r); });\n"
	"\t}\n"
	"\tif (table) {\n"
	"\t\tArray.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {\n"
	"\t\t\tth.addEventListener('click', function () { sortBy(th); });\n"
	"\t\t\tth.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortBy(th); });\n"
	"\t\t});\n"
	"\t}\n"
	"\tfunction opened() {\n"
	"\t\tvar s = document.getElementById(decodeURIComponent(location.hash.slice(1)));\n"
	"\t\tif (s && /^(k|gen)-/.test(s.id)) {\n"
	"\t\t\tvar d = s.querySelector('details');\n"
	"\t\t\tif (d)\n"
	"\t\t\t\td.open = true;\n"
	"\t\t}\n"
	"\t}\n"
	"\twindow.addEventListener('hashchange', opened);\n"
	"\topened();\n"
	"\tvar m = /^#selftest=sort:([A-Za-z0-9,-]+)$/.exec(location.hash);\n"
	"\tif (m && table) {\n"
	"\t\tm[1].split(',').forEach(function (key) {\n"
	"\t\t\tvar th = table.querySelector('th[data-key=\"' + key + '\"]');\n"
	"\t\t\tif (th)\n"
	"\t\t\t\tth.click();\n"
	"\t\t});\n"
	"\t\tvar out = document.createElement('pre');\n"
	"\t\tout.id = 'selftest';\n"
	"\t\tout.textContent = Array.prototype.map.call(table.tBodies[0].rows, function (r) {\n"
	"\t\t\treturn r.getAttribute('data-id');\n"
	"\t\t}).join(' ');\n"
	"\t\tdocument.body.appendChild(out);\n"
	"\t}\n"
	"})();\n";

/*
 * When the page was made, in UTC to the second: now, or SOURCE_DATE_EPOCH
 * (the reproducible-builds convention), so that two pages of the same
 * population can be the same bytes.
 */
static void
written_at(char *buf, size_t n)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char *end;

	if (e && *e) {
		long long v = strtoll(e, &end, 10);

		if (*end == '\0' && v >= 0)
			t = (time_t)v;
	}
	if (!gmtime_r(&t, &tm) || strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, n, "an unknown time");
}

char *
ks_report_html(const struct ks_run *run, const struct ks_cand *c, size_t n)
{
	struct page p = { .run = run, .c = c, .n = n };
	struct ks_buf *b = &p.b;
	char *summary = ks_report_summary(run->root, c, n);
	size_t ngens;
	long *gens = ks_gens_list(run->root, &ngens);
	char when[64];

	page_scan(&p);
	ks_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	ks_html_escf(b, "%s: %s on %s", run->root, run->problem, run->target);
	ks_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", css);
	ks_html_escf(b, "%s: %s on %s, K=%ld", run->root, run->problem, run->target, run->k);
	ks_buf_puts(b, "</h1>\n<p class=\"summary\">");
	ks_html_esc(b, summary);
	written_at(when, sizeof when);
	/* the page outlives the run's state: say when it was true, and what keeps it so */
	ks_buf_printf(b, "</p>\n<p class=\"note\" id=\"made\">Generations 0 to %ld as they were at %s. The end of "
	    "each generation writes this page again; <code>make report POP=", ngens ? gens[ngens - 1] : 0L, when);
	ks_html_esc(b, run->root);
	ks_buf_puts(b, "</code> writes it now.</p>\n<nav><a href=\"#progress\">score by generation</a><a href=\"#lineage-h\">lineage</a>"
	    "<a href=\"#kernels-h\">kernels</a><a href=\"#tokens-h\">tokens</a><a href=\"#generations\">generations</a>"
	    "<a href=\"#sources\">sources and transcripts</a></nav></header>\n");
	ks_buf_printf(b, "<div class=\"figs\">\n<div class=\"fig\" style=\"width:%dpx\"><h2 id=\"progress\">Best score by "
	    "generation</h2>\n", CW);
	ks_html_chart(&p);
	ks_buf_puts(b, "</div>\n<div class=\"fig\"><h2 id=\"lineage-h\">Lineage</h2>\n<div id=\"lineage-box\">\n");
	ks_html_lineage(&p);
	ks_buf_puts(b, "</div></div>\n</div>\n<h2 id=\"kernels-h\">Kernels</h2>\n<p class=\"note\">Click a header to "
	    "sort by it (again: the other way); an id opens the kernel's source and transcripts.</p>\n");
	calibration(&p);
	noisy_warning(&p);
	table(&p);
	ks_buf_puts(b, "<h2 id=\"tokens-h\">LLM tokens by stage</h2>\n");
	if (tokens(&p) < 0) {
		ks_buf_free(b);
		goto out;
	}
	ks_buf_puts(b, "<h2 id=\"generations\">Generations</h2>\n");
	for (size_t i = 0; i < ngens; i++)
		if (gens[i] > 0)
			ks_html_generation(&p, gens[i]);
	ks_buf_puts(b, "<h2 id=\"sources\">Sources and transcripts</h2>\n");
	for (size_t i = 0; i < n; i++)
		ks_html_kernel(&p, &c[i]);
	ks_buf_printf(b, "<p class=\"note\">Made by ks-report --html (kernel-scientist %s).</p>\n<script>\n%s"
	    "</script>\n</body>\n</html>\n", KS_VERSION, js);
out:
	for (size_t i = 0; i < p.nshapes; i++)
		free(p.shapes[i]);
	free(gens);
	free(summary);
	return b->s;
}
