/*
 * ks_build.h - layer 4 of the library: targets and builds: the target
 * table, compiling, the static checks on what the compiler makes, the
 * build cache, target external, profilers.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 */
#ifndef KS_BUILD_H
#define KS_BUILD_H

#include "ks_proc.h"

/* ks_target.c: the build targets, defined in one place */
enum ks_resource_report {
	KS_RES_NONE,      /* the compiler reports nothing per kernel */
	KS_RES_PTXAS,     /* nvcc -Xptxas -v: registers, spills, shared memory */
	KS_RES_AMDGPU,    /* -Rpass-analysis=kernel-resource-usage: SGPRs, VGPRs, AGPRs, LDS, occupancy */
};
struct ks_target {
	const char *name;
	const char *ext;            /* kernel source extension; NULL: the problem's seed's (ks_target_ext) */
	const char *compiler;       /* the program run ... */
	const char *compiler_env;   /* ... unless this variable names another */
	const char *const *flags;
	const char *arch_flag;      /* printf format of the architecture flag; NULL: none */
	const char *arch_default;   /* overridden by KS_GPU_ARCH */
	/*
	 * Every kernel is built as a judge and its worker
	 * (kernels/common/ks_judge.h): the runner from judge_common and the
	 * problem's harness sources, without the kernel; the worker from
	 * worker_common, the problem's call glue ("worker_sources") and the
	 * kernel.  NULL for target external, which compiles nothing.
	 */
	const char *const *judge_common;
	const char *const *worker_common;
	const char *const *includes; /* include folders under kernels/common, before the system's */
	const char *const *libs;
	const char *device;         /* what ks-bench needs: "cpu", "nvidia", "amd", "external" (KS_EVAL_CMD) */
	enum ks_resource_report resources;
	const char *const *imports; /* the symbols a kernel's object may import (nm -u), exactly */
	int host_asm;               /* inline assembly may appear (device code has it); 0: refused */
	/*
	 * nvcc: an architecture sm_X is given as -gencode=arch=compute_X,code=sm_X,
	 * since under -arch=sm_90a nvcc 13.0 also checks a compute_90 PTX, where
	 * sm_90a's own instructions (wgmma, setmaxnreg) do not assemble
	 */
	int gencode;
};
const struct ks_target *ks_target_find(const char *name);   /* NULL with a message */
const char *ks_target_names(void);
/* the extension of the target's kernel file: its own, else the problem's seed's (target external) */
const char *ks_target_ext(const struct ks_target *t, const struct ks_problem *p);
/* 1 for the target judged by the user's command (KS_EVAL_CMD): nothing compiled, no harness run here */
int ks_target_external(const struct ks_target *t);
const char *ks_target_compiler(const struct ks_target *t);
char *ks_target_arch_flag(const struct ks_target *t);       /* NULL when the target has none */
const char *ks_target_arch(const struct ks_target *t);      /* KS_GPU_ARCH or the default; NULL for the CPU */
/* KS_GPU_ARCH is an architecture's name (sm_90a, gfx942) where the target takes one: 0, or -1 said */
int ks_target_arch_check(const struct ks_target *t);
/* the variable that shows a GPU target's runtime the GPUs it may use: CUDA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES */
const char *ks_target_visibility_var(const struct ks_target *t);
/* dir/kernel.<ext> by the extensions of the target table; NULL with a message when none exists. */
char *ks_kernel_path_find(const char *dir);
char *ks_kernel_path_quiet(const char *dir);   /* the same, NULL without a word */

/* ks_target_report.c: the compiler's resource report, of the kind the target names */
int ks_harness_symbol(const char *mangled);   /* 1 when a compiled kernel's name (_Z13ks_worker_pady) is the harness's */
/* The per-kernel resource report of a build's diagnostics; NULL when none. */
cJSON *ks_target_resources(const struct ks_target *t, const char *diagnostics);

/* ks_devices.c: the devices a target's benches may use, found, none taken */
/* 1 when this machine has the device the target runs on. */
int ks_target_device_present(const struct ks_target *t);
/*
 * The GPUs a GPU target's benches may use, one harness on each at a time:
 * KS_GPUS ("0,1,3"), else every GPU this machine has (/dev/nvidiaN;
 * /dev/dri/renderDN for AMD, which KS_GPUS overrides where that counts
 * other GPUs too).  Where the user set CUDA_VISIBLE_DEVICES or
 * HIP_VISIBLE_DEVICES, what it shows is one device (n == 0), as a CPU is.
 * Where Slurm gave GPUs (SLURM_STEP_GPUS, else SLURM_JOB_GPUS, first of
 * all), the device is the first, by its index on the node (slurm).
 */
struct ks_gpus {
	int index[KS_LOCK_ANY_MAX], n;
	int given;                  /* from KS_GPUS or Slurm: benched even where no device node is seen */
	const char *slurm;          /* Slurm gave the step index[0]: the variable that says so; NULL: not Slurm */
};
int ks_gpus_load(const struct ks_target *t, struct ks_gpus *g);   /* -1 with a message for a bad KS_GPUS */

/* ks_device_lock.c: the devices' locks */
/*
 * One harness at a time per device, even under make -j: waits for the
 * first free device of g (the CPU when g->n is 0) and holds its lock
 * (in KS_LOCK_DIR, default /tmp, named by the host and the device) until
 * the process exits; a GPU is made
 * the only one the runner sees, and *desc names it (caller frees; NULL
 * for the CPU).  what (the candidate's folder) goes into the lock, and a
 * bench that must wait says whose it waits for.  Returns 0, or -1 with a
 * message.
 */
int ks_device_take(const struct ks_target *t, const struct ks_gpus *g, const char *what, char **desc);
/*
 * The device taken (desc, as ks_device_take named it) failed before any
 * code of the kernel ran (a verdict's device_failed): a GPU of several in
 * KS_GPUS is marked failed beside its lock (no bench of this host takes
 * it again until the mark is removed) and let go, and 0 says another may
 * be taken; -1 (said) where none is left, or there was one GPU only.
 */
int ks_device_failed(const struct ks_target *t, const struct ks_gpus *g, const char *desc, const char *why);
/*
 * A compile's share of the CPU's bench lock: a bench of target cpu runs
 * its kernel on every core, and a compiler beside it holds up its threads
 * (a score twice as slow, shapes that never settle), so compiles for every
 * target wait for a CPU bench in progress, and a CPU bench waits for the
 * compiles in progress.  what names the candidate.  Returns the lock's
 * descriptor, which ks_cpu_unshare lets go (else exit does); KS_NO_LOCK
 * where nothing is compiled (target external); -1 with a message.
 */
#define KS_NO_LOCK (-2)
int ks_cpu_share(const struct ks_target *t, const char *what);
void ks_cpu_unshare(int lock);

/*
 * ks_external.c: target external, a kernel judged by the command the
 * user names in KS_EVAL_CMD (the protocol is written there and in
 * population(5), "External evaluators").
 */
struct ks_external_job {
	const struct ks_problem *prob;
	const cJSON *shapes;     /* the shapes to time: bench_shapes, or heldout_shapes */
	int heldout;             /* ks-bench -H: no test shapes */
	const char *id, *dir;    /* the candidate */
	const char *source;      /* its kernel file */
	double timeout_s;        /* KS_BENCH_TIMEOUT_S, else limits.bench_s */
};
/*
 * KS_EVAL_CHECK_CMD, ks-build's check of a kernel for target external
 * before any evaluator sees it (a syntax check, say, which costs no
 * leaderboard submission): unset, 0 and nothing done; else it runs with
 * the kernel's absolute path appended, its output in log, and sets ok,
 * command, seconds and diagnostics of the build record rec; 1 when it
 * ran.  -1 with a message when it is malformed or cannot be started.
 */
int ks_external_check(const struct ks_problem *p, const char *source, const char *log, cJSON *rec);
/*
 * Runs the evaluator on the candidate and sets the verdict in res (a
 * bench.json record): status, message, correct, results, score_us,
 * score_stat, timer, device, evaluator.  A broken or silent evaluator is
 * a verdict (0).  -1 with a message when KS_EVAL_CMD is unset or
 * malformed, the program cannot be started, or it said "unavailable".
 */
int ks_external_judge(const struct ks_external_job *j, cJSON *res);
/*
 * ks_external_settings.c: target external's settings, read without
 * running anything (ks_settings_check checks them in ks-init).
 */
/* KS_EVAL_CMD set and KS_EVAL_CHECK_CMD unset or both split as they run, and nothing run: 0, or -1 said */
int ks_external_settings(void);
/* KS_EVAL_CMD; NULL with a message where it is unset */
const char *ks_external_cmd(void);
/* The words of the command variable var (cmd, its value) with path appended; NULL with a message */
char **ks_external_argv(const char *var, const char *cmd, const char *path);

/* ks_compile.c: one build of a kernel with its problem's harness */
struct ks_compile_job {
	const struct ks_target *target;
	const struct ks_problem *prob;
	const char *kernel;      /* the candidate's source */
	const char *runner;      /* the program made; removed first and when the build fails */
	                         /* (and the worker beside it, ks_compile_worker_path) */
	const char *log;         /* the compiler's output */
	/* the static check on the kernel's object, run before the worker is linked from it; NULL: none */
	char *(*check_object)(const struct ks_compile_job *j, const char *obj);
};

/*
 * ks_compile_check.c: the static check on what the compiler reads, the
 * kernel preprocessed (cc -E, nvcc -E, hipcc -E).  The reason to refuse
 * it, or NULL.
 */
char *ks_compile_refusal(const struct ks_compile_job *j);
/*
 * The static check on the kernel's object (obj), the one its worker is
 * linked from: what it imports (nm -u) against the target's list, host
 * instructions that read a clock or enter the OS, what it defines (the
 * entry point alone).  The reason to refuse it, or NULL.
 */
char *ks_compile_object_refusal(const struct ks_compile_job *j, const char *obj);
/* ks_compile_sections.c: the object's sections (ELF headers) by an exact list of names, types and flags; why not, or NULL */
char *ks_compile_sections_refusal(const struct ks_compile_job *j, const char *obj);
/* ks_compile_registration.c: what a GPU object's registration code (run before main) calls; why not, or NULL */
char *ks_compile_registration_refusal(const char *obj);
/*
 * Runs the target's compiler (sandboxed: the source is untrusted; not
 * for target external, which compiles nothing) and adds to rec the
 * fields of a build record: ok, target, compiler, command, seconds,
 * diagnostics, resources, kernel_sha256 and harness_sha256
 * (population(5)).  A refusal of the job's check_object ends the build
 * before the worker is linked: *refused says why (else NULL), and 0 is
 * returned.
 * Returns 1 when the runner was built, 0 when it was not (a result), -1
 * with a message when the compiler could not be run at all.
 */
int ks_compile(const struct ks_compile_job *j, cJSON *rec, char **refused);
/* 1 when the target's compiler is there to run (a path that is executable, or a name on PATH) */
int ks_compiler_found(const struct ks_target *t);
/* The compiler and its options for the target and problem, before any source; *n of them, NULL-terminated */
char **ks_compile_options(const struct ks_compile_job *j, size_t *n);

/*
 * ks_names.c: each harness and call-glue source of the problem compiled
 * alone, and the global names its object defines checked: each starts
 * with ks_ or holds _reference, the names the static check keeps
 * kernels from.  0 when they do (or a source did not compile: the build
 * says why); -1 after a line that names the file and the symbol.
 */
int ks_names_check(const struct ks_compile_job *j);
/* 1 when the problem is built as a judge and a worker (problem.json "worker_sources") */
int ks_problem_judged(const struct ks_problem *p);
/* The worker beside a judge's runner: the same folder, "worker"; allocated */
char *ks_compile_worker_path(const char *runner);
/* The wall-clock limit of a build: problem.json limits.build_s, else 120 s. */
double ks_compile_limit_s(const struct ks_problem *p);
/* The address-space limit of a build's compilers, in MiB: problem.json limits.build_memory_mb, else 8192. */
long ks_compile_mem_mb(const struct ks_problem *p);
/* What "cc --version" names as its version (the first line with "version" or "release"); NULL with a message */
char *ks_compile_version(const char *cc);
/* What a build's log holds, cut to a size a prompt can hold, and, when !ok, a last line "<who> <how it failed>". */
char *ks_compile_diagnostics(const char *log, const struct ks_proc_result *r, int ok, const char *who);
/*
 * Diagnostics as a model is shown them: kernel (the path it was built
 * from) called shown_as and its folder's other paths relative, so that a
 * prompt holds no temporary path; the compiler's own lines first, then
 * ptxas's report of the candidate's kernels; the harness's kernels' ptxas
 * lines left out, with a line that says so.  Caller frees.
 */
char *ks_compile_for_model(const char *diag, const char *kernel, const char *shown_as);
/* The SHA-256 of the harness's files: kernels/common, the problem's harness sources and headers. */
char *ks_harness_sha256(const struct ks_problem *p);

/*
 * ks_runner_cache.c: the judge's runner and the worker's shared objects
 * kept by what their compiler sees (KS_BUILD_CACHE; off: none).  The key
 * of what ("runner", "object", "names": a word, the start of the entry's
 * file names) made by argv, whose output is out; get makes out from the cache
 * (1) and gives what the compiler printed (caller frees), or returns 0;
 * put keeps out and printed.  checked: 1 when check_passed marked key.
 */
char *ks_runner_cache_key(const char *what, char *const *argv, const char *out, const char *version,
    const char *harness_sum);
int ks_runner_cache_get(const char *key, const char *out, char **printed);
void ks_runner_cache_put(const char *key, const char *out, const char *printed);
int ks_runner_cache_lock(const char *key);
void ks_runner_cache_unlock(const char *key, int fd);
int ks_runner_cache_checked(const char *key);
void ks_runner_cache_check_passed(const char *key);

/*
 * ks_prof_ncu.c, ks_prof_rocprof.c: the profilers ks-profile runs.  argv
 * runs the runner's --profile mode on shape under the profiler (box: its
 * working directory, where it may write); read turns what it wrote (out:
 * its stdout) into profile.json's "kernels", or NULL with *why.
 */
struct ks_profiler {
	const char *name, *title;       /* "ncu", "Nsight Compute" */
	const char *env;                /* the variable naming the program: KS_NCU */
	const char *const *places;      /* where to look for it after PATH */
	char **(*argv)(const char *tool, const char *box, const char *runner, long seed, const char *shape);
	cJSON *(*read)(const char *box, const char *out, char **why);
};
extern const struct ks_profiler ks_ncu, ks_rocprof;

/*
 * ks_load.c: the machine's state around a bench, bench.json's "machine"
 * (population(5)): the other processes' work on the CPU before and during
 * it, steal time, the load average, and for an nvidia GPU its clocks,
 * temperature, throttle reasons and the other processes on it
 * (nvidia-smi, where there is one: never a failure where there is not).
 * A CPU bench on a busy machine waits, up to KS_BENCH_SETTLE_S, and is
 * marked noisy where the machine was busy all the same.
 */
#define KS_LOAD_PIDS_MAX 16
struct ks_load_sample {
	int ok;                     /* the counters were read */
	double t;                   /* ks_monotonic() then */
	unsigned long long busy, total, steal;   /* ticks of /proc/stat's "cpu" line */
	int cpus;                   /* online: its cpuN lines */
	long others_running;        /* procs_running, less this process */
	double load1;               /* /proc/loadavg's first; -1 unread */
};
struct ks_load_gpu {
	double sm_mhz, sm_max_mhz, temp_c;   /* -1 where nvidia-smi gives none */
	unsigned long long reasons;          /* the clocks event (throttle) reasons' bits */
	long pids[KS_LOAD_PIDS_MAX];         /* the processes on the GPU */
	int npids;
};
struct ks_load {
	double settle_s;            /* KS_BENCH_SETTLE_S: the longest wait, 0 none (default 30) */
	double busy_max;            /* KS_BENCH_BUSY_MAX: others' CPUs' worth that makes a machine busy (0.25) */
	const char *proc;           /* KS_BENCH_PROC (tests: a made-up /proc), else /proc */
	int cpu, nvidia, amd;       /* the target's device */
	int sampled;                /* ks_load_before ran */
	double waited_s, busy_before, children_s;
	struct ks_load_sample start;             /* the last look before the harness started */
	char *smi, *gpu, *gpu_error;             /* nvidia-smi, the GPU as it numbers it, why not sampled */
	int gpu_ok;
	struct ks_load_gpu gpu_before, gpu_after;
};
/* ks_load_open.c: the settings, checked: 0, or -1 with one line naming the setting. */
int ks_load_open(struct ks_load *l, const struct ks_target *t);
void ks_load_close(struct ks_load *l);
/*
 * Just before the harness starts, its device held (ks_device_take: no
 * compile runs beside a CPU bench): a look at the machine, and for a CPU
 * target on a busy machine, a wait (one progress line names id) until it
 * settles or KS_BENCH_SETTLE_S runs out.
 */
void ks_load_before(struct ks_load *l, const struct ks_gpus *g, const char *id);
/*
 * Just after the harness was waited for: a second look, and res gains
 * "machine".  harness_s: the CPU seconds of the harness's processes
 * since ks_load_before (-1: unknown, and so is the others' work during
 * the bench).  *noisy: why the bench is noisy (caller frees), or NULL.
 * Nothing when ks_load_before did not run.
 */
void ks_load_after(struct ks_load *l, cJSON *res, double harness_s, char **noisy);
/* the CPU seconds of this process's children waited for since ks_load_before */
double ks_load_children_s(const struct ks_load *l);

/*
 * ks_verdict.c: what the harness said, made into bench.json's record.
 * The job says what the bench was: the candidate's id, problem, target,
 * the shapes timed, the device and sandbox described, the harness's time
 * limit, and the base timed beside it (versus_id "" for none; versus_error
 * why it could not be, or NULL).
 */
struct ks_verdict_job {
	const char *id;
	const struct ks_problem *prob;
	const struct ks_target *target;
	const cJSON *shapes;
	const char *device, *sandbox;
	double timeout_s;
	const char *versus_id, *versus_error;
};
/* A record of status and message (NULL: none) and nothing measured. */
cJSON *ks_verdict_new(const struct ks_verdict_job *j, const char *status, const char *message);
/*
 * The record of a harness run (pr) that wrote its verdict to json_path
 * and its output to log_path: ok or incorrect from what it wrote, anything
 * else a timeout, a crash or a rejection.  *cpu_s: the CPU time the
 * harness says its processes used, else -1.  Where the harness says its
 * device failed before any code of the kernel ran, no record (NULL) and
 * *device_failed says why (caller frees; else NULL): no verdict on the
 * kernel (ks_device_failed).
 */
cJSON *ks_verdict(const struct ks_verdict_job *j, const char *json_path, const struct ks_proc_result *pr,
    const char *log_path, double *cpu_s, char **device_failed);

#endif
