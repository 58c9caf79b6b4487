/*
 * ks_html.c - what the parts of ks-report --html write with: text
 * HTML-escaped (everything that comes from the population shows as text
 * and runs nothing), embedded files, each status's colour and marker, the
 * links and words the page's parts share (report_html.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

/* ---- how each status is drawn: a colour and a marker, in the chart, the lineage and the table ---- */

const struct style ks_html_styles[KS_HTML_NSTYLES] = {
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
void
ks_html_esc(struct ks_buf *b, const char *s)
{
	if (s)
		esc_len(b, s, strlen(s));
}

/* printf, then escaped: for the numbers and ids that go with model text */
void
ks_html_escf(struct ks_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		ks_die("cannot format the page");
	va_end(ap);
	ks_html_esc(b, s);
	free(s);
}

/* A file's text in a <pre>, at most EMBED_MAX bytes of it (cut at a character), the rest named. */
void
ks_html_embed_file(struct ks_buf *b, const char *path, const char *text, size_t len)
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
		ks_html_esc(b, path);
		ks_buf_puts(b, "</p>\n");
	}
}

const char *
ks_html_status_of(const struct ks_cand *c)
{
	return c->status ? c->status : "pending";
}

const struct style *
ks_html_style_of(const char *status)
{
	const struct style *s = ks_html_styles;

	while (s->status && strcmp(s->status, status) != 0)
		s++;
	return s;
}

/* a marker of style st centred on x, y, radius r: one <path>, with extra attributes */
void
ks_html_marker(struct ks_buf *b, const struct style *st, double x, double y, double r, const char *attrs)
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
void
ks_html_status_badge(struct ks_buf *b, const char *status)
{
	ks_buf_puts(b, "<svg class=\"mk\" width=\"14\" height=\"14\" viewBox=\"0 0 14 14\">");
	ks_html_marker(b, ks_html_style_of(status), 7, 7, 5, "");
	ks_buf_puts(b, "</svg>");
	ks_html_esc(b, status);
}

/* a shape of bench.json "results" in words, "256x256x256": its numbers in order, the seed left out */
char *
ks_html_shape_name(const cJSON *shape)
{
	struct ks_buf s = { 0 };
	const cJSON *d;

	ks_buf_add(&s, "", 0);
	cJSON_ArrayForEach(d, shape)
		if (cJSON_IsNumber(d) && d->string && strcmp(d->string, "seed") != 0)
			ks_buf_printf(&s, "%s%g", s.len ? "x" : "", d->valuedouble);
	return s.s;
}

long
ks_html_usage_tokens(const struct ks_cand *c)
{
	double in = 0, out = 0;

	ks_json_num(c->cand.usage, "prompt_tokens", NULL, &in);
	ks_json_num(c->cand.usage, "completion_tokens", NULL, &out);
	return (long)(in + out);
}

/* the best correct kernel of generations 0..g, or NULL */
const struct ks_cand *
ks_html_best_until(const struct page *p, long g)
{
	const struct ks_cand *best = NULL;

	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].gen <= g && p->c[i].score_us > 0 && (!best || p->c[i].score_us < best->score_us))
			best = &p->c[i];
	return best;
}

/* a kernel's id as a link to its section; what is not an id (candidate.json is not checked for it), as text */
void
ks_html_id_link(struct ks_buf *b, const char *id)
{
	if (id && ks_id_parse(id, &(long){ 0 }, &(long){ 0 }) == 0)
		ks_buf_printf(b, "<a href=\"#k-%s\">%s</a>", id, id);
	else
		ks_html_esc(b, id ? id : "-");
}

const char *
ks_html_where_word(int where)
{
	return where < 0 ? "below" : where > 0 ? "above" : "inside";
}

/*
 * A measured uplift's colour is its sign (green faster than the base, red
 * slower); whether it fell inside the plan's range is said in words beside
 * it: a -35 % inside a range that allowed it is still a slowdown.
 */
const char *
ks_html_sign_class(double uplift)
{
	return uplift > 0 ? "faster" : uplift < 0 ? "slower" : "even";
}
