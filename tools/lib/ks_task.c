/*
 * ks_task.c - the problem's own words in a prompt: its task.md (the
 * sections of the run's target), its knowledge notes, a file it names.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ks_ask.h"

/* The .md notes of dir and of dir/<target>, the target's after the others. */
static char *
notes_for(const char *dir, const char *target)
{
	char *sub = ks_easprintf("%s/%s", dir, target), *all = ks_prompt_knowledge(dir);
	char *own = ks_prompt_knowledge(sub), *out = ks_easprintf("%s%s%s", all, *all && *own ? "\n" : "", own);

	free(sub);
	free(all);
	free(own);
	return out;
}

char *
ks_ctx_knowledge(const struct ks_problem *p, const char *target)
{
	char *dir = ks_data_dir("prompts", "KS_PROMPTS_DIR"), *kdir = ks_easprintf("%s/knowledge", dir);
	char *pdir = ks_easprintf("%s/knowledge", p->dir);
	char *general = notes_for(kdir, target), *specific = notes_for(pdir, target);
	char *out = ks_easprintf("%s%s%s", general, *general && *specific ? "\n" : "", specific);

	if (!*out) {
		free(out);
		out = ks_estrdup("(no notes)\n");
	}
	free(general);
	free(specific);
	free(dir);
	free(kdir);
	free(pdir);
	return out;
}

char *
ks_ctx_file(const struct ks_problem *p, const char *key)
{
	char *path = ks_problem_file(p, key), *text;

	if (!path)
		return NULL;
	text = ks_file_read(path, NULL);
	free(path);
	return text;
}

/*
 * Whether a "## " heading ends with "(target T)" or "(targets T1, T2)":
 * -1 when it names no target, else whether target is one of them; *end
 * is where the suffix starts.
 */
static int
heading_for(const char *line, size_t len, const char *target, size_t *end)
{
	const char *open = NULL, *names;
	size_t tl = strlen(target);

	if (len < 4 || strncmp(line, "## ", 3) != 0 || line[len - 1] != ')')
		return -1;
	for (const char *q = line; q < line + len; q++)
		if (*q == '(')
			open = q;
	if (!open || (strncmp(open, "(target ", 8) != 0 && strncmp(open, "(targets ", 9) != 0))
		return -1;
	*end = (size_t)(open - line);
	while (*end > 0 && line[*end - 1] == ' ')
		(*end)--;
	names = open + (open[7] == 's' ? 9 : 8);
	for (const char *q = names; q < line + len - 1;) {
		size_t w = strcspn(q, ", )");

		if (w == tl && strncmp(q, target, tl) == 0)
			return 1;
		q += w;
		q += strspn(q, ", ");
	}
	return 0;
}

/*
 * The task file for one target: a "## " section whose heading ends with
 * "(target T)" or "(targets T1, T2)" is kept, without that suffix, only
 * for those targets; every other section is for all.
 */
char *
ks_ctx_task(const struct ks_problem *p, const char *target)
{
	char *text = ks_ctx_file(p, "task");
	struct ks_buf b = { 0 };
	int keep = 1;
	size_t end;

	if (!text)
		return NULL;
	ks_buf_add(&b, "", 0);
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		int which = heading_for(line, len, target, &end);

		if (strncmp(line, "## ", 3) == 0 || strncmp(line, "# ", 2) == 0)
			keep = which != 0;
		if (which == 1)
			ks_buf_printf(&b, "%.*s\n", (int)end, line);
		else if (keep)
			ks_buf_printf(&b, "%.*s\n", (int)len, line);
		line += len + (line[len] == '\n');
	}
	free(text);
	return b.s;
}

/*
 * The task's opening, for a stage that chooses among kernels and writes
 * none (select): what is computed, without the layouts, entry point,
 * build and scoring rules, which the stages that write plans and code
 * get whole.  task is ks_ctx_task's text; the result is allocated.
 */
char *
ks_ctx_task_summary(const char *task)
{
	const char *end = task;

	/* up to the first "## " section: the title and what the problem computes */
	while ((end = strstr(end, "## ")) && end != task && end[-1] != '\n')
		end += 3;
	if (!end)
		return ks_estrdup(task);
	while (end > task && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	return ks_easprintf("%.*s\n\n(The rest of the task, its data layouts, entry point, build and scoring rules, "
	    "goes to the stages that write plans and code.)\n", (int)(end - task), task);
}
