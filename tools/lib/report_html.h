/*
 * report_html.h - what the three files of ks-report --html share
 * (ks_report_html.c: the page, its table and tokens; ks_report_svg.c: the
 * chart and the lineage; ks_report_kernels.c: each generation's plans and
 * each kernel's source and transcripts).  Private to them: the stages
 * layer's header, ks_stages.h, says what the page is.
 */
#ifndef KS_REPORT_HTML_PRIVATE_H
#define KS_REPORT_HTML_PRIVATE_H

#include "ks_stages.h"

/* the most of one embedded file (a source, a transcript, a build log); the rest is named */
#define EMBED_MAX (256 * 1024)
/* the most benchmark shapes shown as columns */
#define SHAPES_MAX 32

/* how each status is drawn: a colour and a marker, in the chart, the lineage and the table */
enum shape { DOT, TRIANGLE, CROSS, SQUARE, DIAMOND, PLUS, RING, OPEN_SQUARE, STAR, OPEN_DIAMOND };
struct style {
	const char *status, *color;
	enum shape shape;
	const char *what;
};

/* the page being written, and what page_scan found of the run */
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

/* text, HTML-escaped, into b; escf: printf's format first */
void ks_html_esc(struct ks_buf *b, const char *s);
void ks_html_escf(struct ks_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a file's text (at most EMBED_MAX of it), escaped, in a <pre> */
void ks_html_embed_file(struct ks_buf *b, const char *path, const char *text, size_t len);
/* each status's colour and marker, the last one (status NULL) for any other status */
#define KS_HTML_NSTYLES 11
extern const struct style ks_html_styles[KS_HTML_NSTYLES];
const char *ks_html_status_of(const struct ks_cand *c);
const struct style *ks_html_style_of(const char *status);
void ks_html_marker(struct ks_buf *b, const struct style *st, double x, double y, double r, const char *attrs);
void ks_html_status_badge(struct ks_buf *b, const char *status);
void ks_html_id_link(struct ks_buf *b, const char *id);
/* a shape of bench.json "results" in words, "256x256x256"; a kernel's tokens */
char *ks_html_shape_name(const cJSON *shape);
long ks_html_usage_tokens(const struct ks_cand *c);
/* the best correct kernel of generations 0..g, or NULL */
const struct ks_cand *ks_html_best_until(const struct page *p, long g);
const char *ks_html_where_word(int where);
const char *ks_html_sign_class(double uplift);
/* the chart: the best so far by generation, every kernel a dot (ks_report_svg.c), CW wide */
#define CW 600
void ks_html_chart(struct page *p);
/* the lineage: each kernel under its generation, an edge from its base and one from its reference */
void ks_html_lineage(struct page *p);
/* a generation's plans and transcripts, a kernel's source, build and transcripts (ks_report_kernels.c) */
void ks_html_generation(struct page *p, long g);
void ks_html_kernel(struct page *p, const struct ks_cand *c);

#endif
