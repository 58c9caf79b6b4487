/*
 * ks_load.c - the machine's state around a bench (bench.json "machine"),
 * so that a time taken on a busy machine says so.
 *
 * On a loaded 2-core machine every CPU bench ran into the time cap, the
 * spreads were 3.8-72 % and the measured peak swung 203-314 GFLOP/s
 * between benches, and nothing said the machine was busy.  A CPU kernel
 * is spread over every core, in equal parts, and runs at the pace of its
 * slowest thread: one other process that takes half a core slows the
 * whole kernel, on 2 cores as on 64.  So the rule counts the other
 * processes' work in CPUs (CPU seconds per second), not as a share of
 * the machine: over KS_BENCH_BUSY_MAX of it, the machine is busy.
 *
 * Others' work is read from /proc/stat's "cpu" line, whose ticks count
 * every process: before the bench over a short window in which ks-bench
 * itself sleeps, so that all of it is someone else's; during the bench as
 * all of it less what the harness's processes used (their rusage), over
 * the harness's wall time.  The load average is recorded, not judged: it
 * is a minute's decaying average, which the bench before this one (every
 * core, for seconds) keeps high long after it ended.
 */
#include <sys/resource.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_build.h"

#define WINDOW_S	0.2	/* the first look before a bench: long enough for ~20 ticks a CPU */
#define POLL_S		1.0	/* a look while waiting for the machine to settle */

/*
 * The slowdowns an nvidia GPU reports (nvml's clocks event reasons) that
 * make one bench slower than another of the same kernel: the GPU too hot,
 * or its power brake.  The power cap (0x4) is what a heavy kernel meets
 * every time, the kernel's own, and idle (0x1) is a GPU between calls.
 */
static const struct {
	unsigned long long bit;
	const char *name;
	int noisy;
} reasons[] = {
	{ 0x1, "gpu_idle", 0 },
	{ 0x2, "applications_clocks_setting", 0 },
	{ 0x4, "sw_power_cap", 0 },
	{ 0x8, "hw_slowdown", 1 },
	{ 0x10, "sync_boost", 0 },
	{ 0x20, "sw_thermal_slowdown", 1 },
	{ 0x40, "hw_thermal_slowdown", 1 },
	{ 0x80, "hw_power_brake_slowdown", 1 },
	{ 0x100, "display_clock_setting", 0 },
};

/* ---- the CPU ---- */

/* proc/name's text, quietly (a /proc without it is a machine not sampled); NULL when it cannot be read */
static char *
proc_read(const struct ks_load *l, const char *name)
{
	char *path = ks_easprintf("%s/%s", l->proc, name), *text = NULL;
	FILE *fp = fopen(path, "re");
	struct ks_buf b = { 0 };
	char chunk[4096];
	size_t n;

	free(path);
	if (!fp)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		ks_buf_add(&b, chunk, n);
	if (!ferror(fp) && b.len)
		text = b.s;
	else
		ks_buf_free(&b);
	fclose(fp);
	return text;
}

/*
 * One look at the counters: the "cpu" line's ticks (user nice system
 * idle iowait irq softirq steal; guest time is in user already), the
 * online CPUs (its cpuN lines), procs_running, the 1-minute load.
 */
static int
cpu_sample(const struct ks_load *l, struct ks_load_sample *s)
{
	char *stat = proc_read(l, "stat"), *avg = proc_read(l, "loadavg"), *line, *save = NULL;
	unsigned long long v[8] = { 0 };
	int got = 0;

	memset(s, 0, sizeof *s);
	s->t = ks_monotonic();
	s->load1 = -1;
	for (line = stat ? strtok_r(stat, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "cpu ", 4) == 0) {
			char *p = line + 4, *end;

			for (got = 0; got < 8; got++, p = end) {
				v[got] = strtoull(p, &end, 10);
				if (end == p)
					break;
			}
		} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9') {
			s->cpus++;
		} else if (strncmp(line, "procs_running ", 14) == 0) {
			/* ks-bench itself runs as it reads */
			s->others_running = strtol(line + 14, NULL, 10) - 1;
			if (s->others_running < 0)
				s->others_running = 0;
		}
	}
	if (avg)
		s->load1 = strtod(avg, NULL);
	free(stat);
	free(avg);
	/* user nice system idle at least: an older kernel's line ends sooner, and its missing fields are 0 */
	if (got < 4 || !s->cpus)
		return -1;
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	s->total = s->busy + v[3] + v[4];
	s->steal = v[7];
	s->ok = 1;
	return 0;
}

/* The CPUs' worth of work done between two looks, less own_s CPU seconds of our own: never below 0. */
static double
busy_cpus(const struct ks_load_sample *a, const struct ks_load_sample *b, double own_s)
{
	double hz = (double)sysconf(_SC_CLK_TCK), dt = b->t - a->t, s;

	if (!a->ok || !b->ok || !(dt > 0) || !(hz > 0) || b->busy < a->busy)
		return -1;
	s = (double)(b->busy - a->busy) / hz - own_s;
	return s > 0 ? s / dt : 0;
}

/* the CPU seconds of the children waited for (the harness and everything it started) */
static double
children_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

static void
sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	if (s > 0)
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
}

/* ---- the GPU ---- */

/* the nvidia-smi to ask: KS_NVIDIA_SMI (a path, or a name on PATH), else nvidia-smi on PATH; NULL when none */
static char *
smi_path(char **why)
{
	const char *e = getenv("KS_NVIDIA_SMI");
	char *p = ks_find_in_path(e && *e ? e : "nvidia-smi");

	if (!p)
		*why = ks_easprintf("not sampled: %s is not on PATH (KS_NVIDIA_SMI)", e && *e ? e : "nvidia-smi");
	return p;
}

/* nvidia-smi's first line, for a message: what it said instead of numbers */
static char *
first_line(const char *out)
{
	size_t n = out ? strcspn(out, "\n") : 0;

	if (!n)
		return ks_estrdup("nothing");
	return ks_easprintf("'%.*s'", n > 160 ? 160 : (int)n, out);
}

/* nvidia-smi's answer to one query of the GPU; NULL with *why */
static char *
smi_run(const char *smi, const char *query, const char *gpu, char **why)
{
	char *argv[] = { (char *)smi, (char *)query, "--format=csv,noheader,nounits", "-i", (char *)gpu, NULL };
	char *out;

	/* a wedged driver makes nvidia-smi hang: the bench does not wait on it */
	if (!(out = ks_proc_capture(argv, 10)))
		*why = ks_easprintf("not sampled: %s could not be run", smi);
	return out;
}

/* a whole number of nvidia-smi's csv; -1 for "[N/A]", "[Not Supported]" and the like */
static double
csv_number(const char *s)
{
	char *end;
	double v;

	while (*s == ' ')
		s++;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	return *end ? -1 : v;
}

/*
 * One look at the GPU: its SM clock, the clocks' ceiling, temperature,
 * the clocks event (throttle) reasons, and the processes on it.  The
 * throttle field is asked by its old name, which drivers from 535 on
 * still take, else by the new one; -1 with *why when nvidia-smi says
 * anything else.
 */
static int
gpu_sample(struct ks_load *l, struct ks_load_gpu *g, char **why)
{
	static const char *const queries[] = {
		"--query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,clocks_throttle_reasons.active",
		"--query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,clocks_event_reasons.active",
	};
	char *out = NULL, **f = NULL, *line, *save = NULL;
	int n = 0, rc = -1;

	memset(g, 0, sizeof *g);
	for (size_t q = 0; q < 2; q++) {
		free(out);
		if (!(out = smi_run(l->smi, queries[q], l->gpu, why)))
			return -1;
		out[strcspn(out, "\n")] = '\0';
		ks_csv_free(f, n);
		if ((n = ks_csv_fields(out, &f)) == 4)
			break;
	}
	if (n != 4 || strncmp(f[3] + strspn(f[3], " "), "0x", 2) != 0) {
		char *said = first_line(out);

		*why = ks_easprintf("not sampled: nvidia-smi -i %s said %s", l->gpu, said);
		free(said);
		goto out;
	}
	g->sm_mhz = csv_number(f[0]);
	g->sm_max_mhz = csv_number(f[1]);
	g->temp_c = csv_number(f[2]);
	g->reasons = strtoull(f[3] + strspn(f[3], " "), NULL, 16);
	free(out);
	/* the processes: a pid a line; none, no line */
	if (!(out = smi_run(l->smi, "--query-compute-apps=pid", l->gpu, why)))
		goto out;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long pid;

		line += strspn(line, " ");
		line[strcspn(line, " \r")] = '\0';
		if (ks_parse_int(line, 1, 1L << 30, &pid) == 0 && g->npids < KS_LOAD_PIDS_MAX)
			g->pids[g->npids++] = pid;
	}
	rc = 0;
out:
	ks_csv_free(f, n);
	free(out);
	return rc;
}

/*
 * The GPU that the runner sees, as nvidia-smi -i takes it: Slurm's index
 * on the node, else the first of CUDA_VISIBLE_DEVICES (which
 * ks_device_take set, or the user: an index or a UUID), else 0.
 */
static char *
gpu_id(const struct ks_gpus *gp)
{
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");

	if (gp->slurm)
		return ks_easprintf("%d", gp->index[0]);
	if (vis && *vis)
		return ks_estrndup(vis, strcspn(vis, ","));
	return ks_estrdup("0");
}

/* ---- before and after ---- */

void
ks_load_before(struct ks_load *l, const struct ks_gpus *gp, const char *id)
{
	struct ks_load_sample a, b;
	double t0, busy;

	l->sampled = 1;
	if (l->nvidia) {
		l->gpu = gpu_id(gp);
		if ((l->smi = smi_path(&l->gpu_error)) && gpu_sample(l, &l->gpu_before, &l->gpu_error) == 0)
			l->gpu_ok = 1;
	} else if (l->amd) {
		l->gpu_error = ks_estrdup("not sampled: ks-bench reads nvidia GPUs only (nvidia-smi)");
	}
	cpu_sample(l, &a);
	sleep_s(WINDOW_S);
	cpu_sample(l, &b);
	busy = busy_cpus(&a, &b, 0);
	t0 = ks_monotonic();
	/*
	 * Only a CPU bench waits: a GPU's times are its own events, behind a
	 * pad kernel that keeps the host's work off the clock (ks_target.c).
	 */
	if (l->cpu && busy > l->busy_max && l->settle_s > 0) {
		ks_progress("%s: the machine is busy (other processes use %.2f CPUs, KS_BENCH_BUSY_MAX %g): waiting up "
		    "to %g s for it to settle", id, busy, l->busy_max, l->settle_s);
		while (busy > l->busy_max && ks_monotonic() - t0 < l->settle_s) {
			a = b;
			sleep_s(fmin(POLL_S, l->settle_s - (ks_monotonic() - t0)));
			cpu_sample(l, &b);
			busy = busy_cpus(&a, &b, 0);
		}
		l->waited_s = ks_monotonic() - t0;
	}
	l->busy_before = busy;
	l->start = b;
	l->children_s = children_s();
}

/* x rounded to the hundredth, as bench.json gives it (a number that reads the same every time) */
static double
hundredths(double x)
{
	return round(x * 100) / 100;
}

/* the processes on the GPU at either look, each once */
static cJSON *
gpu_pids(const struct ks_load *l)
{
	cJSON *pids = cJSON_CreateArray();

	for (int i = 0; i < 2; i++) {
		const struct ks_load_gpu *g = i ? &l->gpu_after : &l->gpu_before;

		for (int k = 0; k < g->npids; k++) {
			const cJSON *e;
			int seen = 0;

			cJSON_ArrayForEach(e, pids)
				seen |= e->valuedouble == (double)g->pids[k];
			if (!seen)
				cJSON_AddItemToArray(pids, cJSON_CreateNumber((double)g->pids[k]));
		}
	}
	return pids;
}

/* what the GPU's two looks say against its times; appended to why */
static void
gpu_judge(const struct ks_load *l, struct ks_buf *why)
{
	cJSON *pids = gpu_pids(l);
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, pids)
		ks_buf_printf(why, "%s %.0f", n++ ? "," : why->len ? "; other processes on the GPU around the bench (pid" :
		    "other processes on the GPU around the bench (pid", e->valuedouble);
	if (n)
		ks_buf_puts(why, ")");
	cJSON_Delete(pids);
	n = 0;
	for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++)
		if (reasons[r].noisy && ((l->gpu_before.reasons | l->gpu_after.reasons) & reasons[r].bit))
			ks_buf_printf(why, "%s%s", n++ ? ", " : why->len ? "; the GPU slowed down: " :
			    "the GPU slowed down: ", reasons[r].name);
}

/* the names of a look's reasons; an unknown bit by its value */
static cJSON *
reason_names(unsigned long long bits)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t r = 0; r < sizeof reasons / sizeof reasons[0]; r++)
		if (bits & reasons[r].bit) {
			cJSON_AddItemToArray(a, cJSON_CreateString(reasons[r].name));
			bits &= ~reasons[r].bit;
		}
	for (int i = 0; i < 64; i++)
		if (bits & 1ULL << i) {
			char hex[24];

			snprintf(hex, sizeof hex, "0x%llx", 1ULL << i);
			cJSON_AddItemToArray(a, cJSON_CreateString(hex));
		}
	return a;
}

static void
set_or_null(cJSON *o, const char *key, double v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *
gpu_json(const struct ks_load *l)
{
	cJSON *o = cJSON_CreateObject();

	if (l->gpu)
		cJSON_AddStringToObject(o, "index", l->gpu);
	if (!l->gpu_ok) {
		cJSON_AddStringToObject(o, "error", l->gpu_error);
		return o;
	}
	set_or_null(o, "sm_mhz_before", l->gpu_before.sm_mhz);
	set_or_null(o, "sm_mhz_after", l->gpu_after.sm_mhz);
	set_or_null(o, "sm_max_mhz", l->gpu_after.sm_max_mhz);
	set_or_null(o, "temp_c_before", l->gpu_before.temp_c);
	set_or_null(o, "temp_c_after", l->gpu_after.temp_c);
	cJSON_AddItemToObject(o, "throttle_before", reason_names(l->gpu_before.reasons));
	cJSON_AddItemToObject(o, "throttle_after", reason_names(l->gpu_after.reasons));
	cJSON_AddItemToObject(o, "other_pids", gpu_pids(l));
	return o;
}

double
ks_load_children_s(const struct ks_load *l)
{
	return children_s() - l->children_s;
}

void
ks_load_after(struct ks_load *l, cJSON *res, double harness_s, char **noisy)
{
	struct ks_load_sample end;
	struct ks_buf why = { 0 };
	cJSON *m;
	double during = -1, steal = -1;
	long runnable;

	*noisy = NULL;
	if (!l->sampled)
		return;
	cpu_sample(l, &end);
	if (l->nvidia && l->gpu_ok && gpu_sample(l, &l->gpu_after, &l->gpu_error) < 0)
		l->gpu_ok = 0;
	if (l->start.ok && end.ok) {
		if (harness_s >= 0)
			during = busy_cpus(&l->start, &end, harness_s);
		if (end.total > l->start.total && end.steal >= l->start.steal)
			steal = 100.0 * (double)(end.steal - l->start.steal) / (double)(end.total - l->start.total);
	}
	/* judged only for the CPU (above); a GPU bench is judged by its GPU */
	if (l->cpu && l->busy_before > l->busy_max) {
		if (l->waited_s > 0)
			ks_buf_printf(&why, "other processes used %.2f CPUs before the timing, still, after waiting %.0f s for "
			    "the machine to settle (KS_BENCH_SETTLE_S)", l->busy_before, l->waited_s);
		else
			ks_buf_printf(&why, "other processes used %.2f CPUs before the timing", l->busy_before);
	}
	if (l->cpu && during > l->busy_max)
		ks_buf_printf(&why, "%sother processes used %.2f CPUs during the bench", why.len ? "; " : "", during);
	if (l->cpu && why.len)
		ks_buf_printf(&why, " (over KS_BENCH_BUSY_MAX, %g)", l->busy_max);
	if (l->nvidia && l->gpu_ok)
		gpu_judge(l, &why);
	m = cJSON_AddObjectToObject(res, "machine");
	if (l->start.ok)
		cJSON_AddNumberToObject(m, "cpus", l->start.cpus);
	else
		cJSON_AddNullToObject(m, "cpus");
	set_or_null(m, "busy_before", l->start.ok ? hundredths(l->busy_before) : -1);
	set_or_null(m, "busy_during", during >= 0 ? hundredths(during) : -1);
	set_or_null(m, "steal_pct", steal >= 0 ? hundredths(steal) : -1);
	set_or_null(m, "load1_before", l->start.ok ? hundredths(l->start.load1) : -1);
	set_or_null(m, "load1_after", end.ok ? hundredths(end.load1) : -1);
	runnable = l->start.others_running > end.others_running ? l->start.others_running : end.others_running;
	set_or_null(m, "runnable_max", l->start.ok || end.ok ? (double)runnable : -1);
	cJSON_AddNumberToObject(m, "waited_s", round(l->waited_s * 10) / 10);
	if (l->nvidia || l->amd)
		cJSON_AddItemToObject(m, "gpu", gpu_json(l));
	cJSON_AddBoolToObject(m, "noisy", why.len > 0);
	if (why.len)
		cJSON_AddStringToObject(m, "reason", why.s);
	else
		cJSON_AddNullToObject(m, "reason");
	*noisy = why.s;
}
