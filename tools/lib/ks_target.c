/*
 * ks_target.c - the build targets: compiler, flags, the shared sources
 * of the judge and of its worker, where the kernel runs, and how to read the compiler's
 * resource report.  Defined in one place, so a new target is one entry.
 * The report is read by ks_target_report.c, the devices are found by
 * ks_devices.c and locked by ks_device_lock.c: a tool that only checks a
 * target's settings (ks-init) holds no lock code.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

/* the variable that tells a target's GPU runtime which GPUs it sees (ks_build.h) */
const char *
ks_target_visibility_var(const struct ks_target *t)
{
	return strcmp(t->device, "amd") == 0 ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
}
