/*
 * ks_report_kernels.c - what ks-report --html shows of each generation
 * (its plans, kept or not, and its transcripts) and of each kernel (its
 * source, build log, verdict and transcripts), each embedded file
 * HTML-escaped.  The page is ks_report_html.c's.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

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
			ks_html_esc(b, names[i]);
			ks_buf_printf(b, " <small>(%zu bytes)</small></summary>\n", len);
			ks_html_embed_file(b, path, text, len);
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
void
ks_html_generation(struct page *p, long g)
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
	if (ks_select_rec_load(path, KS_OPTIONAL | KS_LOAD_SILENT, &sel) == 0) {
		ks_buf_puts(b, "<p>Base ");
		ks_html_esc(b, sel.base);
		ks_buf_puts(b, ", reference ");
		ks_html_esc(b, sel.reference);
		if (sel.model) {
			ks_buf_puts(b, ", chosen by ");
			ks_html_esc(b, sel.model);
		}
		if (sel.reason) {
			ks_buf_puts(b, ": ");
			ks_html_esc(b, sel.reason);
		}
		if (sel.stop) {
			ks_buf_puts(b, "</p>\n<p><b>");
			ks_html_esc(b, sel.stop);
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
			ks_html_esc(b, why);
			ks_buf_puts(b, "</b></p>\n");
		}
		if (cJSON_GetArraySize(avenues) > 0) {
			ks_buf_puts(b, "<details><summary>avenues</summary><ol>");
			cJSON_ArrayForEach(avenue, avenues) {
				ks_buf_puts(b, "<li>");
				ks_html_esc(b, cJSON_IsString(avenue) ? avenue->valuestring : "");
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
			ks_html_esc(b, ks_json_str(plan, "title", NULL));
			ks_buf_puts(b, "</b><br><small>");
			ks_html_esc(b, ks_json_str(plan, "description", NULL));
			ks_buf_printf(b, "</small></td><td class=\"num\">%+.0f..%+.0f %%</td>", lo, hi);
			if (k) {
				ks_buf_printf(b, "<td><a href=\"#k-%s\">%s</a> ", k->id, k->id);
				ks_html_esc(b, ks_html_status_of(k));
				ks_buf_puts(b, "</td>");
			} else
				ks_buf_puts(b, kept(h, i) ? "<td>kept, no kernel yet</td>" : "<td>not kept</td>");
			if (k && ks_plan_uplift(p->c, p->n, k, &up))
				ks_buf_printf(b, "<td class=\"num up-%s\">%+.1f %% <small>%s</small></td>",
				    ks_html_sign_class(up), up, ks_html_where_word(ks_plan_against_range(plan, up)));
			else
				ks_buf_puts(b, "<td class=\"num\">-</td>");
			ks_buf_puts(b, "</tr>\n");
			i++;
		}
		ks_buf_puts(b, "</tbody></table>\n");
		if (model) {
			ks_buf_puts(b, "<p class=\"note\">Plans by ");
			ks_html_esc(b, model);
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
void
ks_html_kernel(struct page *p, const struct ks_cand *c)
{
	struct ks_buf *b = &p->b;
	const char *title = ks_json_str(c->cand.plan, "title", NULL);
	const char *desc = ks_json_str(c->cand.plan, "description", NULL);
	char *src = ks_kernel_path_quiet(c->dir), *text = NULL;
	size_t len;

	ks_buf_printf(b, "<section class=\"kernel\" id=\"k-%s\"><h3><a href=\"#row-%s\">%s</a> ", c->id, c->id, c->id);
	ks_html_status_badge(b, ks_html_status_of(c));
	if (c->score_us > 0)
		ks_buf_printf(b, " %.1f us", c->score_us);
	ks_buf_printf(b, "</h3>\n<p>Generation <a href=\"#gen-%03ld\">%ld</a>", c->gen, c->gen);
	if (c->cand.base) {
		ks_buf_puts(b, ", base ");
		ks_html_id_link(b, c->cand.base);
	}
	if (c->cand.reference) {
		ks_buf_puts(b, ", reference ");
		ks_html_id_link(b, c->cand.reference);
	}
	if (c->cand.model) {
		ks_buf_puts(b, ", written by ");
		ks_html_esc(b, c->cand.model);
	}
	ks_buf_puts(b, ".</p>\n");
	if (title) {
		ks_buf_puts(b, "<p class=\"plan\"><b>");
		ks_html_esc(b, title);
		ks_buf_puts(b, "</b>");
		if (desc) {
			ks_buf_puts(b, ": ");
			ks_html_esc(b, desc);
		}
		ks_buf_puts(b, "</p>\n");
	}
	if (c->cand.rejected) {
		ks_buf_puts(b, "<p class=\"msg\">Rejected: ");
		ks_html_esc(b, c->cand.rejected);
		ks_buf_puts(b, "</p>\n");
	}
	if (c->bench.message && c->score_us <= 0) {
		ks_buf_puts(b, "<pre class=\"msg\">");
		ks_html_esc(b, c->bench.message);
		ks_buf_puts(b, "</pre>\n");
	}
	/* what the compiler said of a kernel that did not build */
	if (c->status && (strcmp(c->status, "build_failed") == 0 || strcmp(c->status, "rejected") == 0)) {
		char *path = ks_easprintf("%s/build.json", c->dir);
		struct ks_build_rec br;

		if (ks_build_rec_load(path, KS_OPTIONAL | KS_LOAD_SILENT, &br) == 0) {
			const char *d = br.rejected ? br.rejected : br.diagnostics;

			if (d && *d) {
				ks_buf_puts(b, "<details class=\"diag\" open><summary>the build</summary>\n");
				ks_html_embed_file(b, path, d, strlen(d));
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
		ks_html_esc(b, ks_path_basename(src, name, sizeof name));
		ks_buf_printf(b, " <small>(%zu lines)</small></summary>\n", lines);
		ks_html_embed_file(b, src, text, len);
		ks_buf_puts(b, "</details>\n");
	} else
		ks_buf_puts(b, "<p class=\"note\">No kernel file.</p>\n");
	transcripts(b, c->dir);
	ks_buf_puts(b, "</section>\n");
	free(text);
	free(src);
}
