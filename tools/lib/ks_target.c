/*
 * ks_target.c - the build targets: compiler, flags, the shared sources
 * of the judge and of its worker, where the kernel runs, and how to read the compiler's
 * resource report.  Defined in one place, so a new target is one entry.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

static const char *const cpu_flags[] = {
	"-std=c11", "-O3", "-march=native", "-fopenmp", "-Wall", "-Wextra", NULL
};
static const char *const cpu_judge[] = { "ks_harness.c", "ks_judge.c", "ks_versus.c", "ks_peak.c", NULL };
static const char *const cpu_worker[] = { "ks_worker.c", NULL };
static const char *const cpu_libs[] = { "-lm", NULL };

/*
 * -Xptxas -v reports each kernel's registers, spills and shared memory.
 * -x cu: every source is CUDA C++, the .hip ones and the shared harness's
 * .c included (it is written to be C and C++).
 */
static const char *const cuda_flags[] = {
	"-std=c++17", "-O3", "-Xptxas", "-v", "-Xcompiler", "-Wall", "-x", "cu", NULL
};
/*
 * A GPU runner is a judge and its worker too (kernels/common/ks_judge.h):
 * the judge's device work and the worker's are HIP, which nvcc reads
 * through the project's HIP-on-CUDA headers.
 */
static const char *const nvidia_judge[] = { "ks_harness.c", "ks_judge.c", "ks_versus.c", "ks_gpu.hip", NULL };
static const char *const nvidia_worker[] = { "ks_worker.c", "ks_worker_gpu.hip", NULL };
static const char *const hip_on_cuda[] = { "hip-on-cuda", NULL };
static const char *const no_libs[] = { NULL };
static const char *const no_includes[] = { NULL };

/* -Rpass-analysis=kernel-resource-usage reports SGPRs, VGPRs, AGPRs, spills, LDS, occupancy. */
static const char *const hip_amd_flags[] = {
	"-O3", "-Rpass-analysis=kernel-resource-usage", "-Wall", NULL
};
/* hipcc compiles every file as C++ and refuses a .c: the judge's and the worker's C come in through .hip files */
static const char *const hip_judge[] = { "ks_harness.hip", "ks_judge.hip", "ks_versus.hip", "ks_gpu.hip", NULL };
static const char *const hip_worker[] = { "ks_worker.hip", "ks_worker_gpu.hip", NULL };

/*
 * What a kernel's object may import, by exact name (nm -u): the C
 * library's memory and string functions, allocation and the math library,
 * printing, OpenMP's parallel regions, and the compiler's own support.
 * Not: files (fopen), threads and processes, clocks (omp_get_wtime,
 * events), loading or patching code (dlsym, mprotect), the environment.
 * A problem allows more in problem.json "allowed_symbols".
 */
#define LIBC_IMPORTS \
	"memcpy", "memmove", "memset", "memcmp", "strlen", "__memcpy_chk", "__memset_chk", "__memmove_chk", \
	"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", \
	"printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fwrite", "fflush", "stderr", "stdout", \
	"__printf_chk", \
	"__fprintf_chk", "abort", "exit", "_exit", "raise", "__assert_fail", "__stack_chk_fail", \
	"_GLOBAL_OFFSET_TABLE_"
#define LIBM_IMPORTS \
	"sqrt", "sqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f", "expm1", "expm1f", "log", "logf", \
	"log2", "log2f", "log10", "log10f", "log1p", "log1pf", "pow", "powf", "fabs", "fabsf", "fmax", "fmaxf", \
	"fmin", "fminf", "fma", "fmaf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "lround", \
	"lroundf", "rint", "rintf", "lrint", "lrintf", "nearbyint", "nearbyintf", "trunc", "truncf", "fmod", \
	"fmodf", "ldexp", "ldexpf", "frexp", "frexpf", "copysign", "copysignf", "hypot", "hypotf", "sin", "sinf", \
	"cos", "cosf", "tan", "tanf", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", \
	"sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "erf", "erff", "erfc", "erfcf"
/* C++ support of a .cu or .hip file's host side */
#define CXX_IMPORTS \
	"atexit", "__cxa_atexit", "__dso_handle", "__cxa_guard_acquire", "__cxa_guard_release", \
	"__cxa_guard_abort", "__gxx_personality_v0", "_Unwind_Resume", "_Znwm", "_Znam", "_ZdlPv", "_ZdlPvm", \
	"_ZdaPv", "__cxa_pure_virtual"
static const char *const cpu_imports[] = {
	LIBC_IMPORTS, LIBM_IMPORTS,
	"GOMP_parallel", "GOMP_barrier", "GOMP_critical_start", "GOMP_critical_end", "GOMP_critical_name_start",
	"GOMP_critical_name_end", "GOMP_atomic_start", "GOMP_atomic_end", "GOMP_single_start",
	"GOMP_loop_nonmonotonic_dynamic_start", "GOMP_loop_nonmonotonic_dynamic_next", "GOMP_loop_dynamic_start",
	"GOMP_loop_dynamic_next", "GOMP_loop_guided_start", "GOMP_loop_guided_next", "GOMP_loop_end",
	"GOMP_loop_end_nowait", "GOMP_parallel_loop_dynamic", "GOMP_parallel_loop_guided",
	"GOMP_parallel_loop_nonmonotonic_dynamic", "GOMP_parallel_loop_nonmonotonic_guided",
	"omp_get_num_threads", "omp_get_thread_num", "omp_get_max_threads", "omp_get_num_procs",
	"omp_in_parallel", NULL
};
/* CUDA's launch and registration, its error queries, allocation, attributes; not streams, graphs, events, flags */
static const char *const cuda_imports[] = {
	LIBC_IMPORTS, LIBM_IMPORTS, CXX_IMPORTS,
	"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
	"__cudaRegisterFunction", "__cudaRegisterVar", "__cudaRegisterManagedVar", "__cudaPushCallConfiguration",
	"__cudaPopCallConfiguration", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz", "__cudaGetKernel",
	"__cudaInitModule", "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaGetLastError", "cudaPeekAtLastError",
	"cudaGetErrorString", "cudaFuncSetAttribute", "cudaFuncGetAttributes",
	"cudaOccupancyMaxActiveBlocksPerMultiprocessor", "cudaGetDevice", "cudaDeviceGetAttribute",
	"cudaGetDeviceProperties", "cudaGetDeviceProperties_v2", "cudaMalloc", "cudaFree", "cudaMemset",
	"cudaMemsetAsync", "cudaMemcpy", "cudaMemcpyAsync", "cudaDeviceSynchronize", NULL
};
static const char *const hip_amd_imports[] = {
	LIBC_IMPORTS, LIBM_IMPORTS, CXX_IMPORTS,
	"__hipRegisterFatBinary", "__hipUnregisterFatBinary", "__hipRegisterFunction", "__hipRegisterVar",
	"__hipRegisterManagedVar", "__hipPushCallConfiguration", "__hipPopCallConfiguration", "hipLaunchKernel",
	"hipGetLastError", "hipPeekAtLastError", "hipGetErrorString", "hipFuncSetAttribute",
	"hipFuncGetAttributes", "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hipGetDevice",
	"hipDeviceGetAttribute", "hipGetDeviceProperties", "hipGetDevicePropertiesR0600", "hipMalloc", "hipFree",
	"hipMemset", "hipMemsetAsync", "hipMemcpy", "hipMemcpyAsync", "hipDeviceSynchronize", NULL
};

static const struct ks_target targets[] = {
	{ "cpu", "c", "cc", "KS_CC", cpu_flags, NULL, NULL, cpu_judge, cpu_worker, no_includes, cpu_libs,
	    "cpu", KS_RES_NONE, cpu_imports, 0, 0 },
	{ "cuda", "cu", "nvcc", "KS_NVCC", cuda_flags, "-arch=%s", "sm_90a", nvidia_judge, nvidia_worker,
	    hip_on_cuda, no_libs, "nvidia", KS_RES_PTXAS, cuda_imports, 1, 1 },
	/* HIP source for NVIDIA: nvcc with the HIP-on-CUDA headers, which Debian's do not do for CUDA 13. */
	{ "hip-nvidia", "hip", "nvcc", "KS_NVCC", cuda_flags, "-arch=%s", "sm_90a", nvidia_judge, nvidia_worker,
	    hip_on_cuda, no_libs, "nvidia", KS_RES_PTXAS, cuda_imports, 1, 1 },
	/* MI300X is gfx942; Debian 12's hipcc 5.2 knows gfx940 but not gfx942 (KS_GPU_ARCH=gfx940). */
	{ "hip-amd", "hip", "hipcc", "KS_HIPCC", hip_amd_flags, "--offload-arch=%s", "gfx942", hip_judge, hip_worker,
	    no_includes, no_libs, "amd", KS_RES_AMDGPU, hip_amd_imports, 1, 0 },
	/*
	 * Judged by a command the user names (KS_EVAL_CMD, ks_external.c):
	 * nothing is compiled here, and the kernel is in the seed's language.
	 */
	{ "external", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, no_includes, no_libs, "external", KS_RES_NONE,
	    NULL, 1, 0 },
};

const struct ks_target *
ks_target_find(const char *name)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(targets[i].name, name) == 0)
			return &targets[i];
	ks_warnx("unknown target '%s' (known: %s)", name, ks_target_names());
	return NULL;
}

const char *
ks_target_names(void)
{
	static char names[256];

	if (!names[0])
		for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
			if (i)
				strcat(names, ", ");
			strcat(names, targets[i].name);
		}
	return names;
}

const char *
ks_target_ext(const struct ks_target *t, const struct ks_problem *p)
{
	const char *dot;

	if (t->ext)
		return t->ext;
	dot = strrchr(p->seed_kernel, '.');
	return dot && dot[1] && !strchr(dot, '/') ? dot + 1 : "txt";
}

int
ks_target_external(const struct ks_target *t)
{
	return strcmp(t->device, "external") == 0;
}

const char *
ks_target_compiler(const struct ks_target *t)
{
	const char *env = getenv(t->compiler_env);

	return env && *env ? env : t->compiler;
}

const char *
ks_target_arch(const struct ks_target *t)
{
	const char *arch = getenv("KS_GPU_ARCH");

	if (!t->arch_flag)
		return NULL;
	return arch && *arch ? arch : t->arch_default;
}

int
ks_target_arch_check(const struct ks_target *t)
{
	const char *arch = getenv("KS_GPU_ARCH");

	/* gfx90a:sramecc+:xnack- is one: AMD's target features follow colons */
	if (!t->arch_flag || !arch || !*arch || (isalpha((unsigned char)*arch) && strlen(arch) < 64 &&
	    strspn(arch, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:+-") == strlen(arch)))
		return 0;
	ks_warnx("KS_GPU_ARCH must be an architecture such as %s, not '%s'", t->arch_default, arch);
	return -1;
}

/* the architecture flag: "-gencode=arch=compute_90a,code=sm_90a" for nvcc's sm_90a, else arch_flag's */
char *
ks_target_arch_flag(const struct ks_target *t)
{
	const char *arch = ks_target_arch(t);

	if (!t->arch_flag)
		return NULL;
	if (t->gencode && strncmp(arch, "sm_", 3) == 0)
		return ks_easprintf("-gencode=arch=compute_%s,code=sm_%s", arch + 3, arch + 3);
	return ks_easprintf(t->arch_flag, arch);
}

static void
set_if(cJSON *k, const char *key, long v)
{
	if (k && v >= 0)
		ks_json_set_num(k, key, (double)v);
}

int
ks_harness_symbol(const char *name)
{
	/* _Z<length><name>..., or _ZL... for a function of internal linkage */
	if (strncmp(name, "_Z", 2) == 0) {
		name += 2;
		if (*name == 'L')
			name++;
		while (isdigit((unsigned char)*name))
			name++;
	}
	return strncmp(name, "ks_", 3) == 0;
}

/*
 * ptxas -v, per kernel:
 *   ptxas info    : Compiling entry function '_Z4rmsPKf' for 'sm_90a'
 *   ptxas info    : Function properties for _Z4rmsPKf
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 16 registers, used 1 barriers, 1024 bytes smem, 380 bytes cmem[0]
 */
static void
parse_ptxas(const char *line, cJSON *kernels, cJSON **cur)
{
	const char *q;

	if ((q = strstr(line, "Compiling entry function '"))) {
		const char *name = q + 26, *end = strchr(name, '\'');

		/* The harness's own kernels (ks_..., mangled _Z<n>ks_...) are not the candidate's. */
		if (ks_harness_symbol(name)) {
			*cur = NULL;
			return;
		}
		*cur = cJSON_CreateObject();
		char *n = ks_easprintf("%.*s", end ? (int)(end - name) : (int)strlen(name), name);
		cJSON_AddStringToObject(*cur, "name", n);
		free(n);
		cJSON_AddItemToArray(kernels, *cur);
	} else if (strstr(line, "bytes stack frame")) {
		set_if(*cur, "stack_bytes", ks_number_before(line, "bytes stack frame"));
		set_if(*cur, "spill_store_bytes", ks_number_before(line, "bytes spill stores"));
		set_if(*cur, "spill_load_bytes", ks_number_before(line, "bytes spill loads"));
	} else if (strstr(line, "Used ") && strstr(line, "registers")) {
		set_if(*cur, "registers", ks_number_before(line, "registers"));
		set_if(*cur, "barriers", ks_number_before(line, "barriers"));
		set_if(*cur, "smem_bytes", ks_number_before(line, "bytes smem"));
	}
}

/*
 * -Rpass-analysis=kernel-resource-usage, one remark per line:
 *   x.hip:5:0: remark: Function Name: _Z3fooPf [-Rpass-analysis=kernel-resource-usage]
 *   x.hip:5:0: remark:     SGPRs: 14 [...]
 */
static void
parse_amdgpu(const char *line, cJSON *kernels, cJSON **cur)
{
	static const struct {
		const char *key, *field;
	} fields[] = {
		{ "SGPRs Spill:", "sgpr_spills" }, { "VGPRs Spill:", "vgpr_spills" }, { "SGPRs:", "sgprs" },
		{ "VGPRs:", "vgprs" }, { "AGPRs:", "agprs" }, { "ScratchSize [bytes/lane]:", "scratch_bytes_per_lane" },
		{ "Occupancy [waves/SIMD]:", "occupancy_waves_per_simd" }, { "LDS Size [bytes/block]:", "lds_bytes" },
	};
	const char *q;

	if (!strstr(line, "kernel-resource-usage"))
		return;
	if ((q = strstr(line, "Function Name: "))) {
		const char *name = q + 15, *end = strchr(name, ' ');

		if (ks_harness_symbol(name)) {
			*cur = NULL;
			return;
		}
		*cur = cJSON_CreateObject();
		char *n = ks_easprintf("%.*s", end ? (int)(end - name) : (int)strlen(name), name);
		cJSON_AddStringToObject(*cur, "name", n);
		free(n);
		cJSON_AddItemToArray(kernels, *cur);
		return;
	}
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (strstr(line, fields[i].key)) {
			set_if(*cur, fields[i].field, ks_number_after(line, fields[i].key));
			return;
		}
}

/*
 * A judge's build compiles two programs into one log; a kernel named
 * twice (the same source seen by both) is reported once, as first read.
 */
static void
drop_repeats(cJSON *kernels)
{
	for (int i = cJSON_GetArraySize(kernels) - 1; i > 0; i--) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(kernels, i), "name");

		for (int j = 0; j < i && cJSON_IsString(name); j++) {
			const cJSON *other = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(kernels, j), "name");

			if (cJSON_IsString(other) && strcmp(name->valuestring, other->valuestring) == 0) {
				cJSON_DeleteItemFromArray(kernels, i);
				break;
			}
		}
	}
}

cJSON *
ks_target_resources(const struct ks_target *t, const char *diagnostics)
{
	cJSON *res, *kernels, *cur = NULL;
	char *text, *line, *save = NULL;

	if (t->resources == KS_RES_NONE || !diagnostics)
		return NULL;
	res = cJSON_CreateObject();
	kernels = cJSON_AddArrayToObject(res, "kernels");
	text = ks_estrdup(diagnostics);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (t->resources == KS_RES_PTXAS)
			parse_ptxas(line, kernels, &cur);
		else
			parse_amdgpu(line, kernels, &cur);
	}
	free(text);
	drop_repeats(kernels);
	if (cJSON_GetArraySize(kernels) == 0) {
		cJSON_Delete(res);
		return NULL;
	}
	return res;
}

int
ks_target_device_present(const struct ks_target *t)
{
	if (strcmp(t->device, "nvidia") == 0)
		return ks_exists("/dev/nvidiactl") || ks_exists("/dev/nvidia0");
	if (strcmp(t->device, "amd") == 0)
		return ks_exists("/dev/kfd");
	return 1;
}

/* how many /dev/<dir>/<prefix>N entries there are */
static int
count_devices(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = strlen(prefix);
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, len) == 0 && e->d_name[len] &&
		    strspn(e->d_name + len, "0123456789") == strlen(e->d_name + len))
			n++;
	closedir(d);
	return n;
}

/* the variable that tells a target's GPU runtime which GPUs it sees */
static const char *
visibility_var(const struct ks_target *t)
{
	return strcmp(t->device, "amd") == 0 ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
}

/*
 * Where Slurm gave this step its GPUs (srun --gres=gpu:1), it has shown
 * the runtime those alone (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES),
 * numbered as the node numbers them or, under a device cgroup, from 0;
 * SLURM_STEP_GPUS (else SLURM_JOB_GPUS) names them by their index on the
 * node either way (srun(1)).  The lock to take is the first one's (the
 * runtime's device 0, on which the runner runs), by that index: the lock
 * a ks-bench outside Slurm takes for that GPU, so that two steps on two
 * GPUs of a node never wait for each other.  1 when Slurm gave GPUs.
 */
static int
slurm_gpus(struct ks_gpus *g)
{
	const char *var = "SLURM_STEP_GPUS", *ids = getenv(var);
	char *first;
	long v;
	int got = 0;

	if (!ids || !*ids)
		ids = getenv(var = "SLURM_JOB_GPUS");
	if (!ids || !*ids)
		return 0;
	/* "2,3" or "2-3": the first */
	first = ks_estrndup(ids, strcspn(ids, ",-"));
	if (ks_parse_int(first, 0, 4095, &v) == 0) {
		g->index[0] = (int)v;
		g->n = 1;
		g->slurm = var;
		/* the allocation says the GPU is there, as KS_GPUS does */
		g->given = 1;
		got = 1;
	}
	free(first);
	return got;
}

/* KS_GPUS, else the machine's GPUs (ks_build.h) */
int
ks_gpus_load(const struct ks_target *t, struct ks_gpus *g)
{
	const char *given = getenv("KS_GPUS"), *p;
	int amd = strcmp(t->device, "amd") == 0, n;
	char *end;

	memset(g, 0, sizeof *g);
	if (strcmp(t->device, "cpu") == 0 || ks_target_external(t))
		return 0;
	if (given && *given) {
		for (p = given; *p; p = *end ? end + 1 : end) {
			long v = strtol(p, &end, 10);

			if (end == p || v < 0 || v > 4095 || (*end && *end != ',') ||
			    g->n == KS_LOCK_ANY_MAX) {
				ks_warnx("bad KS_GPUS '%s': expected GPU indices such as 0,1,3 (at most %d)",
				    given, KS_LOCK_ANY_MAX);
				return -1;
			}
			g->index[g->n++] = (int)v;
		}
		g->given = 1;
		return 0;
	}
	if (slurm_gpus(g) || getenv(visibility_var(t)))
		return 0;
	n = amd ? count_devices("/dev/dri", "renderD") : count_devices("/dev", "nvidia");
	for (g->n = 0; g->n < n && g->n < KS_LOCK_ANY_MAX; g->n++)
		g->index[g->n] = g->n;
	return 0;
}

/*
 * The lock of one device: "cpu", or a GPU's index.  The host's name is in
 * it: a KS_LOCK_DIR that the nodes of a cluster share must not make the
 * benches of two machines wait for each other.
 */
static char *
lock_path(const char *device, int index)
{
	const char *dir = getenv("KS_LOCK_DIR");
	char *host = ks_host_name(), *p;

	if (!dir || !*dir)
		dir = "/tmp";
	if (index < 0)
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s.lock", dir, host, device);
	else
		p = ks_easprintf("%s/kernel-scientist-bench-%s-%s-%d.lock", dir, host, device, index);
	free(host);
	return p;
}

/*
 * Builds share the CPU's lock (ks_build.h).  A GPU bench takes its GPU's lock,
 * never the CPU's, so that builds go on beside it: its times are the
 * GPU's own events, around calls queued behind a pad kernel that keeps
 * the host's launches off the clock, and its host thread needs one core,
 * which a compiler beside it leaves on a GPU machine's many.  Holding
 * every build back for every GPU bench would idle the CPU for the whole
 * search; bench.json's "machine" still records the CPU's load there.
 */
int
ks_cpu_share(const struct ks_target *t, const char *what)
{
	char *path, *who;
	int rc;

	if (ks_target_external(t))
		return KS_NO_LOCK;
	path = lock_path("cpu", -1);
	who = ks_easprintf("%s %ld on %s", ks_progname, (long)getpid(), what);
	rc = ks_lock_shared(path, who);
	free(who);
	free(path);
	return rc;
}

void
ks_cpu_unshare(int lock)
{
	if (lock >= 0)
		close(lock);
}

/* the first free device, its lock held until exit (ks_build.h) */
int
ks_device_take(const struct ks_target *t, const struct ks_gpus *g, const char *what, char **desc)
{
	char *paths[KS_LOCK_ANY_MAX] = { 0 }, *who;
	int n = g->n ? g->n : 1, got, i;
	const char *var = visibility_var(t);

	*desc = NULL;
	for (i = 0; i < n; i++)
		paths[i] = lock_path(t->device, g->n ? g->index[i] : -1);
	who = ks_easprintf("%s %ld on %s", ks_progname, (long)getpid(), what);
	got = ks_lock_any(paths, n, who);
	free(who);
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (got < 0 || !g->n)
		return got < 0 ? -1 : 0;
	if (g->slurm) {
		/* the node's numbering; the runtime sees what Slurm showed it, left alone */
		*desc = ks_easprintf("%s GPU %d (Slurm's, %s=%s)", t->device, g->index[0], g->slurm, getenv(g->slurm));
		return 0;
	}
	char *index = ks_easprintf("%d", g->index[got]);

	if (setenv(var, index, 1) < 0) {
		ks_warn("cannot set %s", var);
		free(index);
		return -1;
	}
	*desc = ks_easprintf("%s GPU %s (%s=%s)", t->device, index, var, index);
	free(index);
	return 0;
}
