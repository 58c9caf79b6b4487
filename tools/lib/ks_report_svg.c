/*
 * ks_report_svg.c - the drawings of ks-report --html: the chart of the
 * best score over the generations, every kernel a dot, and the lineage,
 * each kernel under its generation with an edge from its base and one
 * from its reference.  Inline SVG; the page is ks_report_html.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

/* ---- the chart: the best so far by generation, every kernel a dot ---- */

#define CH 340		/* its height (its width: CW) */
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

void
ks_html_chart(struct page *p)
{
	struct ks_buf *b = &p->b;
	struct axis a = { INFINITY, -INFINITY };
	long every = p->last_gen / 16 + 1;
	int seen[KS_HTML_NSTYLES] = { 0 }, any_best = 0;

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
		const struct ks_cand *best = ks_html_best_until(p, g);
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
		const struct style *st = ks_html_style_of(ks_html_status_of(c));
		double x = chart_x(p, c->gen, c->slot), y = c->score_us > 0 ? chart_y(&a, c->score_us) : BAND_Y;
		struct ks_buf attrs = { 0 };

		seen[st - ks_html_styles] = 1;
		ks_buf_printf(b, "<a href=\"#k-%s\"><title>", c->id);
		ks_html_escf(b, "%s %s", c->id, ks_html_status_of(c));
		if (c->score_us > 0)
			ks_buf_printf(b, " %.1f us", c->score_us);
		ks_buf_puts(b, "</title>");
		ks_buf_printf(&attrs, "class=\"pt\" data-id=\"%s\" data-status=\"", c->id);
		ks_html_esc(&attrs, ks_html_status_of(c));
		ks_buf_puts(&attrs, "\"");
		ks_html_marker(b, st, x, y, 5, attrs.s);
		ks_buf_puts(b, "</a>\n");
		ks_buf_free(&attrs);
	}
	ks_buf_puts(b, "</svg>\n<ul class=\"legend\">");
	if (any_best)
		ks_buf_puts(b, "<li><svg class=\"mk\" width=\"22\" height=\"14\"><path class=\"best\" d=\"M1 7H21\"/></svg>"
		    "best so far</li>");
	for (size_t s = 0; s < KS_HTML_NSTYLES; s++)
		if (seen[s]) {
			ks_buf_puts(b, "<li class=\"key\">");
			ks_html_status_badge(b, ks_html_styles[s].status ? ks_html_styles[s].status : "other");
			ks_buf_printf(b, " <small>%s</small></li>", ks_html_styles[s].what);
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

void
ks_html_lineage(struct page *p)
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
		const struct style *st = ks_html_style_of(ks_html_status_of(c));
		double x = node_x(c->slot), y = node_y(c->gen);

		ks_buf_printf(b, "<a href=\"#k-%s\"><g class=\"node\" data-id=\"%s\"><title>", c->id, c->id);
		ks_html_escf(b, "%s: base %s, reference %s", c->id, c->cand.base ? c->cand.base : "-",
		    c->cand.reference ? c->cand.reference : "-");
		ks_buf_printf(b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"5\" stroke=\"%s\"/>",
		    x, y, NW, NH, st->color);
		ks_html_marker(b, st, x + 12, y + 12, 4.5, "");
		ks_buf_printf(b, "<text class=\"nid\" x=\"%.1f\" y=\"%.1f\">%s</text><text class=\"nst\" x=\"%.1f\" "
		    "y=\"%.1f\">", x + 22, y + 16, c->id, x + 8, y + 31);
		ks_html_esc(b, ks_html_status_of(c));
		if (c->score_us > 0)
			ks_buf_printf(b, " %.1f us", c->score_us);
		ks_buf_puts(b, "</text></g></a>\n");
	}
	ks_buf_puts(b, "</svg>\n<ul class=\"legend\"><li><svg class=\"mk\" width=\"26\" height=\"10\"><path class=\"edge "
	    "base\" d=\"M1 5H25\"/></svg>base</li><li><svg class=\"mk\" width=\"26\" height=\"10\"><path class=\"edge "
	    "ref\" d=\"M1 5H25\"/></svg>reference</li></ul>\n");
}
