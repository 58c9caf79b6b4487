/*
 * ks_report_html.c - ks-report --html: a population as one page that
 * needs no network and no server (inline CSS, SVG and a small script):
 * the best score over the generations with every kernel as a dot, the
 * lineage, every kernel in a table that sorts by a click on a header,
 * each plan's expected uplift beside the measured one, the LLM tokens by
 * stage, and each kernel's source and transcripts.  Everything that comes
 * from the population (sources, transcripts, a model's text, messages)
 * is HTML-escaped: it shows as text and runs nothing.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ks_stages.h"

/* the most of one embedded file (a source, a transcript, a build log); the rest is named */
#define EMBED_MAX (256 * 1024)
/* the most benchmark shapes shown as columns */
#define SHAPES_MAX 32

/* ---- text ---- */

static void
esc_len(struct ks_buf *b, const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i < n; i++) {
		const char *e = s[i] == '&' ? "&amp;" : s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" :
		    s[i] == '"' ? "&quot;" : s[i] == '\'' ? "&#39;" : NULL;

		if (!e)
			continue;
		ks_buf_add(b, s + start, i - start);
		ks_buf_puts(b, e);
		start = i + 1;
	}
	ks_buf_add(b, s + start, n - start);
}

/* s as text of an element or an attribute's value; NULL as "" */
static void
esc(struct ks_buf *b, const char *s)
{
	if (s)
		esc_len(b, s, strlen(s));
}

static void
escf(struct ks_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* printf, then escaped: for the numbers and ids that go with model text */
static void
escf(struct ks_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		ks_die("cannot format the page");
	va_end(ap);
	esc(b, s);
	free(s);
}

/* A file's text in a <pre>, at most EMBED_MAX bytes of it (cut at a character), the rest named. */
static void
embed_file(struct ks_buf *b, const char *path, const char *text, size_t len)
{
	size_t n = len;

	if (n > EMBED_MAX) {
		n = EMBED_MAX;
		while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
			n--;
	}
	ks_buf_puts(b, "<pre>");
	esc_len(b, text, n);
	ks_buf_puts(b, "</pre>\n");
	if (n < len) {
		ks_buf_printf(b, "<p class=\"note\">cut at %d KiB of %zu: the whole file is ", EMBED_MAX / 1024, len);
		esc(b, path);
		ks_buf_puts(b, "</p>\n");
	}
}

static const char *
status_of(const struct ks_cand *c)
{
	return c->status ? c->status : "pending";
}

/* ---- how each status is drawn: a colour and a marker, in the chart, the lineage and the table ---- */

enum shape { DOT, TRIANGLE, CROSS, SQUARE, DIAMOND, PLUS, RING, OPEN_SQUARE, STAR, OPEN_DIAMOND };

static const struct style {
	const char *status, *color;
	enum shape shape;
	const char *what;
} styles[] = {
	{ "ok", "#1f77b4", DOT, "correct and timed" },
	{ "incorrect", "#d62728", TRIANGLE, "wrong on a test shape" },
	{ "build_failed", "#ff7f0e", CROSS, "did not compile" },
	{ "crashed", "#9467bd", SQUARE, "crashed" },
	{ "timeout", "#8c564b", DIAMOND, "ran past its time limit" },
	{ "rejected", "#e377c2", PLUS, "refused by the rules" },
	{ "no_device", "#7f7f7f", RING, "no device to run on" },
	{ "stale", "#bcbd22", OPEN_SQUARE, "its verdict is of another kernel" },
	{ "unreadable", "#111111", STAR, "its files do not load" },
	{ "pending", "#999999", OPEN_DIAMOND, "not benched yet" },
	{ NULL, "#17becf", STAR, "another status" },
};

static const struct style *
style_of(const char *status)
{
	const struct style *s = styles;

	while (s->status && strcmp(s->status, status) != 0)
		s++;
	return s;
}

/* a marker of style st centred on x, y, radius r: one <path>, with extra attributes */
static void
marker(struct ks_buf *b, const struct style *st, double x, double y, double r, const char *attrs)
{
	int open = st->shape == CROSS || st->shape == PLUS || st->shape == RING || st->shape == OPEN_SQUARE ||
	    st->shape == OPEN_DIAMOND;
	double h = 0.8 * r;

	ks_buf_printf(b, "<path %s d=\"", attrs);
	switch (st->shape) {
	case DOT:
	case RING:
		ks_buf_printf(b, "M%.1f %.1fa%.1f %.1f 0 1 0 %.1f 0a%.1f %.1f 0 1 0 %.1f 0Z", x - r, y, r, r, 2 * r, r,
		    r, -2 * r);
		break;
	case TRIANGLE:
		ks_buf_printf(b, "M%.1f %.1fL%.1f %.1fL%.1f %.1fZ", x, y - 1.15 * r, x + r, y + 0.7 * r, x - r,
		    y + 0.7 * r);
		break;
	case CROSS:
		ks_buf_printf(b, "M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f", x - h, y - h, x + h, y + h, x + h, y - h,
		    x - h, y + h);
		break;
	case SQUARE:
	case OPEN_SQUARE:
		ks_buf_printf(b, "M%.1f %.1fh%.1fv%.1fh%.1fZ", x - h, y - h, 2 * h, 2 * h, -2 * h);
		break;
	case DIAMOND:
	case OPEN_DIAMOND:
		ks_buf_printf(b, "M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ", x, y - 1.2 * r, x + r, y, x,
		    y + 1.2 * r, x - r, y);
		break;
	case PLUS:
		ks_buf_printf(b, "M%.1f %.1fH%.1fM%.1f %.1fV%.1f", x - r, y, x + r, x, y - r, y + r);
		break;
	case STAR:
		for (int i = 0; i < 10; i++) {
			double a = M_PI * (double)i / 5 - M_PI / 2, rr = i % 2 ? 0.45 * r : 1.2 * r;

			ks_buf_printf(b, "%c%.1f %.1f", i ? 'L' : 'M', x + rr * cos(a), y + rr * sin(a));
		}
		ks_buf_puts(b, "Z");
		break;
	}
	if (open)
		ks_buf_printf(b, "\" fill=\"#fff\" fill-opacity=\"0\" stroke=\"%s\" stroke-width=\"2\"/>", st->color);
	else
		ks_buf_printf(b, "\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.8\"/>", st->color);
}

/* a status as a small marker and its name, for the table and the legend */
static void
status_badge(struct ks_buf *b, const char *status)
{
	ks_buf_puts(b, "<svg class=\"mk\" width=\"14\" height=\"14\" viewBox=\"0 0 14 14\">");
	marker(b, style_of(status), 7, 7, 5, "");
	ks_buf_puts(b, "</svg>");
	esc(b, status);
}

/* ---- the run ---- */

struct page {
	struct ks_buf b;
	const struct ks_run *run;
	const struct ks_cand *c;
	size_t n;
	const struct ks_cand *seed;	/* the first correct kernel of generation 0; NULL */
	long last_gen, k;		/* the last generation with a kernel; the widest slot + 1 */
	char *shapes[SHAPES_MAX];	/* the benchmark shapes, in the order they first appear */
	size_t nshapes;
	int sol, tokens;		/* some kernel has a speed of light; some kernel used tokens */
};

/* a shape of bench.json "results" in words, "256x256x256": its numbers in order, the seed left out */
static char *
shape_name(const cJSON *shape)
{
	struct ks_buf s = { 0 };
	const cJSON *d;

	ks_buf_add(&s, "", 0);
	cJSON_ArrayForEach(d, shape)
		if (cJSON_IsNumber(d) && d->string && strcmp(d->string, "seed") != 0)
			ks_buf_printf(&s, "%s%g", s.len ? "x" : "", d->valuedouble);
	return s.s;
}

static long
usage_tokens(const struct ks_cand *c)
{
	double in = 0, out = 0;

	ks_json_num(c->cand.usage, "prompt_tokens", NULL, &in);
	ks_json_num(c->cand.usage, "completion_tokens", NULL, &out);
	return (long)(in + out);
}

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
		p->tokens |= usage_tokens(c) > 0;
		if (!(c->score_us > 0))
			continue;
		cJSON_ArrayForEach(r, c->bench.results) {
			char *name = shape_name(cJSON_GetObjectItemCaseSensitive(r, "shape"));
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

/* the best correct kernel of generations 0..g, or NULL */
static const struct ks_cand *
best_until(const struct page *p, long g)
{
	const struct ks_cand *best = NULL;

	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].gen <= g && p->c[i].score_us > 0 && (!best || p->c[i].score_us < best->score_us))
			best = &p->c[i];
	return best;
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

/* ---- the chart: the best so far by generation, every kernel a dot ---- */

#define CW 600		/* its size */
#define CH 340
#define CL 64		/* the margins around the plot of scores */
#define CR 16
#define CT 58		/* above: the band of the kernels without a score */
#define CB 44
#define BAND_Y 30

struct axis {
	double lo, hi;	/* log10 of the scores at the bottom and the top */
};

static double
chart_x(const struct page *p, long gen, long slot)
{
	double col = (double)(CW - CL - CR) / (double)(p->last_gen + 1);
	double step = fmin(12, col / (double)(p->k + 1));

	return CL + col * ((double)gen + 0.5) + step * ((double)slot - (double)(p->k - 1) / 2);
}

static double
chart_y(const struct axis *a, double score)
{
	return CH - CB - (log10(score) - a->lo) / (a->hi - a->lo) * (CH - CT - CB);
}

/* the ticks at m[] times a power of ten within the axis, drawn into b (NULL: counted only) */
static int
chart_ticks(struct ks_buf *b, const struct axis *a, const double *m, size_t nm)
{
	int count = 0;

	for (double e = floor(a->lo); e <= ceil(a->hi); e++)
		for (size_t i = 0; i < nm; i++) {
			double v = m[i] * pow(10, e), l = log10(v), y;

			if (l < a->lo || l > a->hi)
				continue;
			count++;
			y = chart_y(a, v);
			if (b)
				ks_buf_printf(b, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
				    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", CL,
				    CW - CR, y, y, CL - 6, y + 4, v);
		}
	return count;
}

static void
chart(struct page *p)
{
	struct ks_buf *b = &p->b;
	struct axis a = { INFINITY, -INFINITY };
	long every = p->last_gen / 16 + 1;
	int seen[sizeof styles / sizeof *styles] = { 0 }, any_best = 0;

	if (p->n == 0) {
		ks_buf_puts(b, "<p>No kernel yet.</p>\n");
		return;
	}
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].score_us > 0) {
			a.lo = fmin(a.lo, log10(p->c[i].score_us));
			a.hi = fmax(a.hi, log10(p->c[i].score_us));
		}
	if (isinf(a.lo))
		a.lo = 0, a.hi = 1;
	if (a.hi - a.lo < 0.05) {
		a.lo -= 0.05;
		a.hi += 0.05;
	}
	double pad = 0.06 * (a.hi - a.lo);
	a.lo -= pad;
	a.hi += pad;

	ks_buf_printf(b, "<svg id=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-label=\"score by generation\">\n", CW, CH, CW, CH);
	/* the band of the kernels without a score, then the axes */
	ks_buf_printf(b, "<rect class=\"band\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
	    "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">no score</text>\n", CL, BAND_Y - 14,
	    CW - CL - CR, 28, CL - 6, BAND_Y + 4);
	/* at 1, 2 and 5 times a power of ten, or at every multiple where the range is narrow */
	static const double coarse[] = { 1, 2, 5 }, fine[] = { 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9 };
	if (chart_ticks(NULL, &a, coarse, 3) >= 3)
		chart_ticks(b, &a, coarse, 3);
	else
		chart_ticks(b, &a, fine, sizeof fine / sizeof *fine);
	ks_buf_printf(b, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
	    "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", CL, CW - CR, CH - CB, CH - CB, CL, CL,
	    CT - 8, CH - CB);
	for (long g = 0; g <= p->last_gen; g++)
		if (g % every == 0 || g == p->last_gen)
			ks_buf_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ld</text>",
			    CL + (double)(CW - CL - CR) / (double)(p->last_gen + 1) * ((double)g + 0.5), CH - CB + 16, g);
	ks_buf_printf(b, "\n<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">generation</text>"
	    "<text class=\"label\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">"
	    "score (us, log scale)</text>\n", (CW + CL) / 2, CH - 8, (CT + CH - CB) / 2);
	/* the best so far: a step at each generation where it improved */
	ks_buf_puts(b, "<path class=\"best\" d=\"");
	for (long g = 0; g <= p->last_gen; g++) {
		const struct ks_cand *best = best_until(p, g);
		double col = (double)(CW - CL - CR) / (double)(p->last_gen + 1);
		double x0 = CL + col * (double)g, x1 = x0 + col;

		if (!best)
			continue;
		if (any_best)
			ks_buf_printf(b, "V%.1fH%.1f", chart_y(&a, best->score_us), x1);
		else
			ks_buf_printf(b, "M%.1f %.1fH%.1f", x0, chart_y(&a, best->score_us), x1);
		any_best = 1;
	}
	ks_buf_puts(b, "\"/>\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct ks_cand *c = &p->c[i];
		const struct style *st = style_of(status_of(c));
		double x = chart_x(p, c->gen, c->slot), y = c->score_us > 0 ? chart_y(&a, c->score_us) : BAND_Y;
		struct ks_buf attrs = { 0 };

		seen[st - styles] = 1;
		ks_buf_printf(b, "<a href=\"#k-%s\"><title>", c->id);
		escf(b, "%s %s", c->id, status_of(c));
		if (c->score_us > 0)
			ks_buf_printf(b, " %.1f us", c->score_us);
		ks_buf_puts(b, "</title>");
		ks_buf_printf(&attrs, "class=\"pt\" data-id=\"%s\" data-status=\"", c->id);
		esc(&attrs, status_of(c));
		ks_buf_puts(&attrs, "\"");
		marker(b, st, x, y, 5, attrs.s);
		ks_buf_puts(b, "</a>\n");
		ks_buf_free(&attrs);
	}
	ks_buf_puts(b, "</svg>\n<ul class=\"legend\">");
	if (any_best)
		ks_buf_puts(b, "<li><svg class=\"mk\" width=\"22\" height=\"14\"><path class=\"best\" d=\"M1 7H21\"/></svg>"
		    "best so far</li>");
	for (size_t s = 0; s < sizeof styles / sizeof *styles; s++)
		if (seen[s]) {
			ks_buf_puts(b, "<li class=\"key\">");
			status_badge(b, styles[s].status ? styles[s].status : "other");
			ks_buf_printf(b, " <small>%s</small></li>", styles[s].what);
		}
	ks_buf_puts(b, "</ul>\n");
}

/* ---- the lineage: each kernel under its generation, an edge from its base and one from its reference ---- */

#define NW 118		/* a node */
#define NH 38
#define GX 18		/* the gaps between them */
#define GY 34
#define LX 46		/* the margin of the generation labels */

static double
node_x(long slot)
{
	return LX + (double)slot * (NW + GX);
}

static double
node_y(long gen)
{
	return 10 + (double)gen * (NH + GY);
}

static void
edge(struct ks_buf *b, const struct page *p, const struct ks_cand *child, const char *parent_id, const char *cls,
    double dx)
{
	const struct ks_cand *par = NULL;

	for (size_t i = 0; i < p->n && !par; i++)
		if (parent_id && strcmp(p->c[i].id, parent_id) == 0)
			par = &p->c[i];
	if (!par)
		return;
	double x0 = node_x(par->slot) + NW / 2.0 + dx, y0 = node_y(par->gen) + NH;
	double x1 = node_x(child->slot) + NW / 2.0 + dx, y1 = node_y(child->gen);

	ks_buf_printf(b, "<path class=\"edge %s\" data-from=\"%s\" data-to=\"%s\" d=\"M%.1f %.1fC%.1f %.1f %.1f %.1f "
	    "%.1f %.1f\"/>\n", cls, par->id, child->id, x0, y0, x0, y0 + GY * 0.8, x1, y1 - GY * 0.8, x1, y1);
}

static void
lineage(struct page *p)
{
	struct ks_buf *b = &p->b;
	double w = node_x(p->k) - GX + 10, h = node_y(p->last_gen + 1) - GY + 10;

	if (p->n == 0)
		return;
	ks_buf_printf(b, "<svg id=\"lineage\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
	    "aria-label=\"lineage\">\n", w, h, w, h);
	for (long g = 0; g <= p->last_gen; g++)
		ks_buf_printf(b, "<text class=\"tick\" x=\"4\" y=\"%.1f\">gen %ld</text>", node_y(g) + NH / 2.0 + 4, g);
	ks_buf_puts(b, "\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct ks_cand *c = &p->c[i];
		int same = c->cand.base && c->cand.reference && strcmp(c->cand.base, c->cand.reference) == 0;

		edge(b, p, c, c->cand.base, "base", same ? -5 : -10);
		edge(b, p, c, c->cand.reference, "ref", same ? 5 : 10);
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct ks_cand *c = &p->c[i];
		const struct style *st = style_of(status_of(c));
		double x = node_x(c->slot), y = node_y(c->gen);

		ks_buf_printf(b, "<a href=\"#k-%s\"><g class=\"node\" data-id=\"%s\"><title>", c->id, c->id);
		escf(b, "%s: base %s, reference %s", c->id, c->cand.base ? c->cand.base : "-",
		    c->cand.reference ? c->cand.reference : "-");
		ks_buf_printf(b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"5\" stroke=\"%s\"/>",
		    x, y, NW, NH, st->color);
		marker(b, st, x + 12, y + 12, 4.5, "");
		ks_buf_printf(b, "<text class=\"nid\" x=\"%.1f\" y=\"%.1f\">%s</text><text class=\"nst\" x=\"%.1f\" "
		    "y=\"%.1f\">", x + 22, y + 16, c->id, x + 8, y + 31);
		esc(b, status_of(c));
		if (c->score_us > 0)
			ks_buf_printf(b, " %.1f us", c->score_us);
		ks_buf_puts(b, "</text></g></a>\n");
	}
	ks_buf_puts(b, "</svg>\n<ul class=\"legend\"><li><svg class=\"mk\" width=\"26\" height=\"10\"><path class=\"edge "
	    "base\" d=\"M1 5H25\"/></svg>base</li><li><svg class=\"mk\" width=\"26\" height=\"10\"><path class=\"edge "
	    "ref\" d=\"M1 5H25\"/></svg>reference</li></ul>\n");
}

/* ---- the table ---- */

static void
th(struct ks_buf *b, const char *key, const char *type, const char *label, const char *title)
{
	ks_buf_printf(b, "<th data-key=\"%s\" data-type=\"%s\" tabindex=\"0\"", key, type);
	if (title) {
		ks_buf_puts(b, " title=\"");
		esc(b, title);
		ks_buf_puts(b, "\"");
	}
	ks_buf_puts(b, ">");
	esc(b, label);
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

/* a kernel's id as a link to its section; what is not an id (candidate.json is not checked for it), as text */
static void
id_link(struct ks_buf *b, const char *id)
{
	if (id && ks_id_parse(id, &(long){ 0 }, &(long){ 0 }) == 0)
		ks_buf_printf(b, "<a href=\"#k-%s\">%s</a>", id, id);
	else
		esc(b, id ? id : "-");
}

static void
parent_cell(struct ks_buf *b, const char *id)
{
	ks_buf_puts(b, "<td>");
	id_link(b, id);
	ks_buf_puts(b, "</td>");
}

static const char *
where_word(int where)
{
	return where < 0 ? "below" : where > 0 ? "above" : "inside";
}

/*
 * A measured uplift's colour is its sign (green faster than the base, red
 * slower); whether it fell inside the plan's range is said in words beside
 * it: a -35 % inside a range that allowed it is still a slowdown.
 */
static const char *
sign_class(double uplift)
{
	return uplift > 0 ? "faster" : uplift < 0 ? "slower" : "even";
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
	esc(b, t);
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
		esc(b, title ? title : c->gen == 0 ? "(seed)" : "-");
		ks_buf_puts(b, "</td>");
		ks_buf_printf(b, "<td class=\"num\" data-v=\"%ld\"><a href=\"#gen-%03ld\">%ld</a></td>", c->gen, c->gen,
		    c->gen);
		parent_cell(b, c->cand.base);
		parent_cell(b, c->cand.reference);
		ks_buf_printf(b, "<td data-v=\"");
		esc(b, status_of(c));
		ks_buf_puts(b, "\">");
		status_badge(b, status_of(c));
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
				char *name = shape_name(cJSON_GetObjectItemCaseSensitive(r, "shape"));

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
			    noise ? "even" : sign_class(v), v, v, noise ? "within noise; " : "", where_word(where));
		} else if (cJSON_IsObject(plan) && c->status && c->score_us <= 0 && strcmp(c->status, "stale") != 0)
			ks_buf_puts(b, "<td class=\"num up-failed\">failed</td>");
		else
			num_cell(b, 0, 0, NULL);
		if (p->tokens) {
			long tok = usage_tokens(c);

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
	esc(b, stage);
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

/* ---- what each generation and kernel holds: plans, sources, transcripts ---- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* each transcript of dir/llm (its .md files), by name, in a <details> of its own */
static void
transcripts(struct ks_buf *b, const char *dir)
{
	char *ldir = ks_easprintf("%s/llm", dir), **names = NULL;
	size_t n = 0;
	DIR *d = opendir(ldir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] != '.' && len > 3 && strcmp(e->d_name + len - 3, ".md") == 0) {
			names = ks_erealloc(names, (n + 1) * sizeof *names);
			names[n++] = ks_estrdup(e->d_name);
		}
	}
	if (d)
		closedir(d);
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		char *path = ks_easprintf("%s/%s", ldir, names[i]), *text;
		size_t len;

		if ((text = ks_file_read(path, &len))) {
			ks_buf_puts(b, "<details class=\"transcript\"><summary>transcript llm/");
			esc(b, names[i]);
			ks_buf_printf(b, " <small>(%zu bytes)</small></summary>\n", len);
			embed_file(b, path, text, len);
			ks_buf_puts(b, "</details>\n");
		}
		free(text);
		free(path);
		free(names[i]);
	}
	free(names);
	free(ldir);
}

/* whether hypotheses h keep plan i (its "chosen") */
static int
kept(const cJSON *h, int i)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(h, "chosen"))
		if (cJSON_IsNumber(e) && e->valuedouble == i)
			return 1;
	return 0;
}

/* a generation: why its base and reference, its plans with what each kept one measured, its transcripts */
static void
generation(struct page *p, long g)
{
	struct ks_buf *b = &p->b;
	char *dir = ks_gen_dir(p->run->root, g), *path = ks_easprintf("%s/select.json", dir);
	char *hpath = ks_easprintf("%s/hypotheses.json", dir), *htext = NULL;
	size_t hlen;
	struct ks_select_rec sel;
	cJSON *h = NULL;
	const cJSON *plan, *avenue;
	int i = 0;

	ks_buf_printf(b, "<section class=\"gen\" id=\"gen-%03ld\"><h3>Generation %ld</h3>\n", g, g);
	if (ks_select_rec_load(path, KS_OPTIONAL | KS_QUIET, &sel) == 0) {
		ks_buf_puts(b, "<p>Base ");
		esc(b, sel.base);
		ks_buf_puts(b, ", reference ");
		esc(b, sel.reference);
		if (sel.model) {
			ks_buf_puts(b, ", chosen by ");
			esc(b, sel.model);
		}
		if (sel.reason) {
			ks_buf_puts(b, ": ");
			esc(b, sel.reason);
		}
		if (sel.stop) {
			ks_buf_puts(b, "</p>\n<p><b>");
			esc(b, sel.stop);
			ks_buf_puts(b, "</b>");
		}
		ks_buf_puts(b, "</p>\n");
		ks_select_rec_free(&sel);
	}
	/* quietly: a bad hypotheses.json is said by the tools that use it, and its generation is shown without it */
	if (ks_exists(hpath) && (htext = ks_file_read(hpath, &hlen)) && (h = ks_json_parse(htext, hlen, NULL)) &&
	    cJSON_IsObject(h)) {
		const char *why = ks_json_str(h, "exhausted", NULL), *model = ks_json_str(h, "model", NULL);
		const cJSON *avenues = cJSON_GetObjectItemCaseSensitive(h, "avenues");

		if (why) {
			ks_buf_puts(b, "<p><b>");
			esc(b, why);
			ks_buf_puts(b, "</b></p>\n");
		}
		if (cJSON_GetArraySize(avenues) > 0) {
			ks_buf_puts(b, "<details><summary>avenues</summary><ol>");
			cJSON_ArrayForEach(avenue, avenues) {
				ks_buf_puts(b, "<li>");
				esc(b, cJSON_IsString(avenue) ? avenue->valuestring : "");
				ks_buf_puts(b, "</li>");
			}
			ks_buf_puts(b, "</ol></details>\n");
		}
		ks_buf_puts(b, "<table class=\"plans\"><thead><tr><th>plan</th><th>expected uplift</th><th>kernel</th>"
		    "<th>measured uplift</th></tr></thead><tbody>\n");
		cJSON_ArrayForEach(plan, cJSON_GetObjectItemCaseSensitive(h, "plans")) {
			const struct ks_cand *k = NULL;
			double lo = 0, hi = 0, up;
			long idx;

			for (size_t j = 0; j < p->n && !k; j++)
				if (p->c[j].gen == g && ks_json_int(p->c[j].cand.plan, "index", NULL, 0, 100, &idx) == 0 &&
				    idx == i)
					k = &p->c[j];
			ks_json_num(plan, "uplift_min", NULL, &lo);
			ks_json_num(plan, "uplift_max", NULL, &hi);
			ks_buf_puts(b, "<tr><td><b>");
			esc(b, ks_json_str(plan, "title", NULL));
			ks_buf_puts(b, "</b><br><small>");
			esc(b, ks_json_str(plan, "description", NULL));
			ks_buf_printf(b, "</small></td><td class=\"num\">%+.0f..%+.0f %%</td>", lo, hi);
			if (k) {
				ks_buf_printf(b, "<td><a href=\"#k-%s\">%s</a> ", k->id, k->id);
				esc(b, status_of(k));
				ks_buf_puts(b, "</td>");
			} else
				ks_buf_puts(b, kept(h, i) ? "<td>kept, no kernel yet</td>" : "<td>not kept</td>");
			if (k && ks_plan_uplift(p->c, p->n, k, &up))
				ks_buf_printf(b, "<td class=\"num up-%s\">%+.1f %% <small>%s</small></td>",
				    sign_class(up), up, where_word(ks_plan_against_range(plan, up)));
			else
				ks_buf_puts(b, "<td class=\"num\">-</td>");
			ks_buf_puts(b, "</tr>\n");
			i++;
		}
		ks_buf_puts(b, "</tbody></table>\n");
		if (model) {
			ks_buf_puts(b, "<p class=\"note\">Plans by ");
			esc(b, model);
			ks_buf_puts(b, ".</p>\n");
		}
	}
	transcripts(b, dir);
	ks_buf_puts(b, "</section>\n");
	cJSON_Delete(h);
	free(htext);
	free(hpath);
	free(path);
	free(dir);
}

/* a kernel: where it comes from, its plan, its verdict, its source, its transcripts */
static void
kernel(struct page *p, const struct ks_cand *c)
{
	struct ks_buf *b = &p->b;
	const char *title = ks_json_str(c->cand.plan, "title", NULL);
	const char *desc = ks_json_str(c->cand.plan, "description", NULL);
	char *src = ks_kernel_path_quiet(c->dir), *text = NULL;
	size_t len;

	ks_buf_printf(b, "<section class=\"kernel\" id=\"k-%s\"><h3><a href=\"#row-%s\">%s</a> ", c->id, c->id, c->id);
	status_badge(b, status_of(c));
	if (c->score_us > 0)
		ks_buf_printf(b, " %.1f us", c->score_us);
	ks_buf_printf(b, "</h3>\n<p>Generation <a href=\"#gen-%03ld\">%ld</a>", c->gen, c->gen);
	if (c->cand.base) {
		ks_buf_puts(b, ", base ");
		id_link(b, c->cand.base);
	}
	if (c->cand.reference) {
		ks_buf_puts(b, ", reference ");
		id_link(b, c->cand.reference);
	}
	if (c->cand.model) {
		ks_buf_puts(b, ", written by ");
		esc(b, c->cand.model);
	}
	ks_buf_puts(b, ".</p>\n");
	if (title) {
		ks_buf_puts(b, "<p class=\"plan\"><b>");
		esc(b, title);
		ks_buf_puts(b, "</b>");
		if (desc) {
			ks_buf_puts(b, ": ");
			esc(b, desc);
		}
		ks_buf_puts(b, "</p>\n");
	}
	if (c->cand.rejected) {
		ks_buf_puts(b, "<p class=\"msg\">Rejected: ");
		esc(b, c->cand.rejected);
		ks_buf_puts(b, "</p>\n");
	}
	if (c->bench.message && c->score_us <= 0) {
		ks_buf_puts(b, "<pre class=\"msg\">");
		esc(b, c->bench.message);
		ks_buf_puts(b, "</pre>\n");
	}
	/* what the compiler said of a kernel that did not build */
	if (c->status && (strcmp(c->status, "build_failed") == 0 || strcmp(c->status, "rejected") == 0)) {
		char *path = ks_easprintf("%s/build.json", c->dir);
		struct ks_build_rec br;

		if (ks_build_rec_load(path, KS_OPTIONAL | KS_QUIET, &br) == 0) {
			const char *d = br.rejected ? br.rejected : br.diagnostics;

			if (d && *d) {
				ks_buf_puts(b, "<details class=\"diag\" open><summary>the build</summary>\n");
				embed_file(b, path, d, strlen(d));
				ks_buf_puts(b, "</details>\n");
			}
			ks_build_rec_free(&br);
		}
		free(path);
	}
	if (src && (text = ks_file_read(src, &len))) {
		char name[64];
		size_t lines = 0;

		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n';
		ks_buf_puts(b, "<details class=\"source\"><summary>source ");
		esc(b, ks_path_basename(src, name, sizeof name));
		ks_buf_printf(b, " <small>(%zu lines)</small></summary>\n", lines);
		embed_file(b, src, text, len);
		ks_buf_puts(b, "</details>\n");
	} else
		ks_buf_puts(b, "<p class=\"note\">No kernel file.</p>\n");
	transcripts(b, c->dir);
	ks_buf_puts(b, "</section>\n");
	free(text);
	free(src);
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
	escf(b, "%s: %s on %s", run->root, run->problem, run->target);
	ks_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", css);
	escf(b, "%s: %s on %s, K=%ld", run->root, run->problem, run->target, run->k);
	ks_buf_puts(b, "</h1>\n<p class=\"summary\">");
	esc(b, summary);
	written_at(when, sizeof when);
	/* the page outlives the run's state: say when it was true, and what keeps it so */
	ks_buf_printf(b, "</p>\n<p class=\"note\" id=\"made\">Generations 0 to %ld as they were at %s. The end of "
	    "each generation writes this page again; <code>make report POP=", ngens ? gens[ngens - 1] : 0L, when);
	esc(b, run->root);
	ks_buf_puts(b, "</code> writes it now.</p>\n<nav><a href=\"#progress\">score by generation</a><a href=\"#lineage-h\">lineage</a>"
	    "<a href=\"#kernels-h\">kernels</a><a href=\"#tokens-h\">tokens</a><a href=\"#generations\">generations</a>"
	    "<a href=\"#sources\">sources and transcripts</a></nav></header>\n");
	ks_buf_printf(b, "<div class=\"figs\">\n<div class=\"fig\" style=\"width:%dpx\"><h2 id=\"progress\">Best score by "
	    "generation</h2>\n", CW);
	chart(&p);
	ks_buf_puts(b, "</div>\n<div class=\"fig\"><h2 id=\"lineage-h\">Lineage</h2>\n<div id=\"lineage-box\">\n");
	lineage(&p);
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
			generation(&p, gens[i]);
	ks_buf_puts(b, "<h2 id=\"sources\">Sources and transcripts</h2>\n");
	for (size_t i = 0; i < n; i++)
		kernel(&p, &c[i]);
	ks_buf_printf(b, "<p class=\"note\">Made by ks-report --html (kernel-scientist %s).</p>\n<script>\n%s"
	    "</script>\n</body>\n</html>\n", KS_VERSION, js);
out:
	for (size_t i = 0; i < p.nshapes; i++)
		free(p.shapes[i]);
	free(gens);
	free(summary);
	return b->s;
}
