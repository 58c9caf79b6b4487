/*
 * ks_harness_verdict.c: the verdict: the JSON object the runner writes
 * to its descriptor in one write, and the CPU time it reports.  A part of
 * ks_harness.c, which includes it.
 */

static void
json_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.17g", v);
	else
		fputs("null", fp);
}

static void
json_str(FILE *fp, const char *s)
{
	unsigned char ch;

	fputc('"', fp);
	for (; (ch = *s) != '\0'; s++) {
		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

static void
json_shape(FILE *fp, const struct shape *sh)
{
	int i;

	fputs("{\"shape\": [", fp);
	for (i = 0; i < P->ndims; i++)
		fprintf(fp, "%s%d", i ? "," : "", sh->dims[i]);
	fprintf(fp, "], \"seed\": %llu", (unsigned long long)sh->seed);
}

/* a shape's side-by-side: the ratio of the medians, its interval, the rounds, the base's median */
static void
json_versus_shape(FILE *fp, const struct ks_versus_shape *v)
{
	fputs(", \"versus\": {\"ratio\": ", fp);
	json_num(fp, v->ratio);
	fputs(", \"ci95\": [", fp);
	json_num(fp, v->lo);
	fputs(", ", fp);
	json_num(fp, v->hi);
	fprintf(fp, "], \"rounds\": %ld, \"base_time_us\": ", v->rounds);
	json_num(fp, v->base_median * 1e6);
	fputs(", \"time_us\": ", fp);
	json_num(fp, v->cand_median * 1e6);
	fputc('}', fp);
}

static void
json_report(FILE *fp, const struct report *r)
{
	const struct test_rec *t;
	const struct bench_rec *b;
	size_t i;

	fprintf(fp, "{\"correct\": %s, \"salt\": %llu,", r->correct ? "true" : "false",
	    (unsigned long long)r->salt);
	if (!r->correct) {
		fputs("\n \"failure\": ", fp);
		json_str(fp, r->failure);
		fputc(',', fp);
	}
	/* a rule broken (work after the return, a message out of turn), not a wrong answer */
	if (r->rejected)
		fputs("\n \"rejected\": true,", fp);
	/* no kernel's verdict at all: the device failed first */
	if (r->device_failed)
		fputs("\n \"device_failed\": true,", fp);
	fputs("\n \"tests\": [", fp);
	for (i = 0; i < r->ntests; i++) {
		t = &r->tests[i];
		fputs(i ? ",\n  " : "", fp);
		json_shape(fp, t->shape);
		fprintf(fp, ", \"ok\": %s, \"max_abs_err\": ",
		    t->ok ? "true" : "false");
		json_num(fp, t->max_abs_err);
		fputs(", \"worst_ratio\": ", fp);
		json_num(fp, t->worst_ratio);
		fputc('}', fp);
	}
	fputs("],\n \"results\": [", fp);
	for (i = 0; i < r->nbenches; i++) {
		b = &r->benches[i];
		fputs(i ? ",\n  " : "", fp);
		json_shape(fp, b->shape);
		fputs(", \"time_us\": ", fp);	/* the time that counts */
		json_num(fp, b->median * 1e6);
		fputs(", \"mean_us\": ", fp);
		json_num(fp, b->mean * 1e6);
		fputs(", \"median_us\": ", fp);
		json_num(fp, b->median * 1e6);
		fputs(", \"min_us\": ", fp);
		json_num(fp, b->min * 1e6);
		fputs(", \"max_us\": ", fp);
		json_num(fp, b->max * 1e6);
		fputs(", \"stderr_us\": ", fp);
		json_num(fp, b->sem * 1e6);
		fputs(", \"median_stderr_us\": ", fp);
		json_num(fp, b->median_sem * 1e6);
		fprintf(fp, ", \"runs\": %ld, \"batch\": %d, \"converged\": %s, \"wall_s\": ", b->runs,
		    b->batch, b->converged ? "true" : "false");
		json_num(fp, b->wall);
		fprintf(fp, ", \"checks\": %ld, \"checks_s\": ", b->checks);
		json_num(fp, b->checks_wall);
		if (r->versus.shapes)
			json_versus_shape(fp, &b->vs);
		fputc('}', fp);
	}
	fputs("],\n \"tests_s\": ", fp);
	json_num(fp, r->tests_wall);
	fputs(",\n \"cpu_s\": ", fp);
	json_num(fp, r->cpu_s);
	/* (the timer names the device: none to ask when it failed) */
	if (!r->device_failed) {
		fputs(",\n \"timer\": ", fp);
		json_str(fp, ks_judge_timer_text());
	}
	if (r->peak.flops_per_s > 0) {
		fputs(",\n \"peak\": {\"flops_per_s\": ", fp);
		json_num(fp, r->peak.flops_per_s);
		fprintf(fp, ", \"threads\": %d, \"vector_bits\": %d, "
		    "\"fma\": %s}", r->peak.threads, r->peak.vector_bits,
		    r->peak.fma ? "true" : "false");
	}
	if (r->versus.shapes) {
		fputs(",\n \"versus\": {\"ratio\": ", fp);
		json_num(fp, r->versus.ratio);
		fputs(", \"ci95\": [", fp);
		json_num(fp, r->versus.lo);
		fputs(", ", fp);
		json_num(fp, r->versus.hi);
		fputs("]}", fp);
	} else if (V.why[0]) {
		fputs(",\n \"versus_error\": ", fp);
		json_str(fp, V.why);
	}
	fputs("}\n", fp);
}

/*
 * The CPU time of this run: the runner's and its workers' (waited for:
 * the candidate's process, the base's), so that ks-bench can tell the
 * machine's other work from the bench's own.  Under bubblewrap ks-bench's
 * own count of its children misses them: bwrap's init is never waited for.
 */
static double
cpu_seconds(void)
{
	struct rusage self, children;

	if (getrusage(RUSAGE_SELF, &self) != 0 || getrusage(RUSAGE_CHILDREN, &children) != 0)
		return -1;
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec +
	    children.ru_stime.tv_sec) + (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	    children.ru_utime.tv_usec + children.ru_stime.tv_usec) * 1e-6;
}

/* one write of the whole object, so a reader never sees half of it */
static void
write_report(int fd, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0, off;
	ssize_t w;
	FILE *fp;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		die(1, "open_memstream failed 'json': %s", strerror(errno));
	json_report(fp, r);
	if (fclose(fp) != 0)
		die(1, "out of memory");
	/* what the candidate printed on stdout comes before the verdict */
	fflush(stdout);
	for (off = 0; off < len; off += w) {
		w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w < 0)
			die(1, "write failed 'fd %d': %s", fd,
			    strerror(errno));
	}
	free(buf);
}
