/*
 * ks_csv.c - the CSV tables profilers write (Nsight Compute's --csv,
 * rocprofv3's counter_collection.csv): a line's fields, quotes honoured,
 * a column by its header's name (profilers add and move columns between
 * versions), a number as they print it.
 */
#include <stdlib.h>
#include <string.h>

#include "ks_core.h"

/* The fields of one CSV line (quotes honoured), in *f (caller frees each and the array); their number. */
int
ks_csv_fields(const char *line, char ***f)
{
	int n = 0, cap = 16;

	*f = ks_emalloc(cap * sizeof(**f));
	for (const char *p = line;;) {
		struct ks_buf b = { 0 };

		ks_buf_add(&b, "", 0);
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
				if (*p == '"')
					p++;
				ks_buf_add(&b, p, 1);
			}
			if (*p == '"')
				p++;
		} else {
			size_t len = strcspn(p, ",\r\n");

			ks_buf_add(&b, p, len);
			p += len;
		}
		if (n == cap)
			*f = ks_erealloc(*f, (cap *= 2) * sizeof(**f));
		(*f)[n++] = b.s;
		if (*p != ',')
			return n;
		p++;
	}
}

void
ks_csv_free(char **f, int n)
{
	for (int i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

/* a number as a profiler prints it ("25,313", "93.49", "0.00000000e+00"); -1 when it is none */
double
ks_csv_number(const char *s)
{
	char buf[64];
	size_t n = 0;
	double v;

	for (; *s && n + 1 < sizeof buf; s++)
		if (*s != ',')
			buf[n++] = *s;
	buf[n] = '\0';
	return n && ks_parse_double(buf, &v) == 0 ? v : -1;
}

int
ks_csv_column(char **head, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	return -1;
}

/*
 * The harness's own kernels (the worker's pad and tail around a call, the
 * judge's draws and flushes) are named ks_...: a profile of the call is of
 * the candidate's kernels, so they are left out.  Profilers give the name
 * demangled, with "void " before a template's.
 */
int
ks_csv_harness_kernel(const char *name)
{
	if (strncmp(name, "void ", 5) == 0)
		name += 5;
	return strncmp(name, "ks_", 3) == 0;
}
