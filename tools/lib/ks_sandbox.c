/*
 * ks_sandbox.c - how untrusted code is shut in: the kernel's compiler
 * (ks-build, ks-implement's check) and the harness that runs it
 * (ks-bench).  The basic sandbox, always: a minimal environment, no
 * network, file-size and process limits (a pids cgroup where the system
 * gives one).  Around the harness, where bubblewrap runs, ks_bwrap.c
 * adds a read-only file system but its own directory, its own /proc and
 * process tree.
 */
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <net/if.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ks_proc.h"

static void
set_limit(int resource, rlim_t v)
{
	struct rlimit rl = { v, v };

	setrlimit(resource, &rl);
}

/*
 * What the environment of sandboxed code keeps: the variables, by exact
 * name, that compilers and GPU runtimes read, and any *_VISIBLE_DEVICES
 * (which GPUs a process may see).  Never by prefix: NVIDIA_API_KEY or
 * HIP_..._TOKEN would come through a prefix, and a kernel can print its
 * environment.  KS_SANDBOX_ENV names more, exactly.
 */
static const char *const env_keep[] = {
	"PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
	/* CUDA and NVIDIA's container runtime */
	"CUDA_HOME", "CUDA_PATH", "CUDA_DEVICE_ORDER", "CUDA_LAUNCH_BLOCKING", "CUDA_CACHE_DISABLE",
	"CUDA_CACHE_PATH", "CUDA_CACHE_MAXSIZE", "CUDA_FORCE_PTX_JIT", "CUDA_DISABLE_PTX_JIT",
	"CUDA_MODULE_LOADING", "CUDA_DEVICE_MAX_CONNECTIONS", "CUDA_MPS_PIPE_DIRECTORY",
	"CUDA_MPS_LOG_DIRECTORY", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_TF32_OVERRIDE", "NVCC_PREPEND_FLAGS",
	"NVCC_APPEND_FLAGS", "NVCC_CCBIN",
	/* HIP, ROCm */
	"HIP_PATH", "HIP_PLATFORM", "HIP_COMPILER", "HIP_RUNTIME", "HIP_CLANG_PATH", "HIP_DEVICE_LIB_PATH",
	"HIP_LAUNCH_BLOCKING", "HIPCC_COMPILE_FLAGS_APPEND", "HIPCC_LINK_FLAGS_APPEND", "HIPCC_VERBOSE",
	"ROCM_PATH", "HSA_PATH", "HSA_OVERRIDE_GFX_VERSION", "HSA_ENABLE_SDMA", "HSA_XNACK",
	"HSA_ENABLE_INTERRUPT", "GPU_DEVICE_ORDINAL", "GPU_MAX_HW_QUEUES", "AMD_SERIALIZE_KERNEL",
	"AMD_SERIALIZE_COPY", "AMD_LOG_LEVEL", "AMD_DIRECT_DISPATCH",
	/* OpenMP (GNU and LLVM) */
	"OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES", "OMP_SCHEDULE", "OMP_DYNAMIC", "OMP_STACKSIZE",
	"OMP_WAIT_POLICY", "OMP_MAX_ACTIVE_LEVELS", "OMP_THREAD_LIMIT", "GOMP_CPU_AFFINITY", "GOMP_SPINCOUNT",
	"KMP_AFFINITY", "KMP_BLOCKTIME",
	NULL
};

/* Words that make a name a secret, whatever else the name says. */
static const char *const secret_words[] = { "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", NULL };

static int
name_is(const char *var, const char *name)
{
	size_t n = strlen(name);

	return strncmp(var, name, n) == 0 && var[n] == '=';
}

int
ks_env_secret(const char *name, size_t len)
{
	for (const char *const *w = secret_words; *w; w++) {
		size_t n = strlen(*w);

		for (size_t i = 0; i + n <= len; i++)
			if (strncasecmp(name + i, *w, n) == 0)
				return 1;
	}
	return 0;
}

/* 1 when the names in the space-separated list include var's. */
int
ks_env_listed(const char *list, const char *var, size_t len)
{
	for (const char *p = list; p && *p; ) {
		size_t n;

		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		if (n == len && strncmp(p, var, n) == 0)
			return 1;
		p += n;
	}
	return 0;
}

/* 1 when sandboxed code may see the variable var ("NAME=value"). */
int
ks_env_kept(const char *var)
{
	const char *eq = strchr(var, '='), *extra = getenv("KS_SANDBOX_ENV");
	size_t len = eq ? (size_t)(eq - var) : strlen(var);
	static const char vis[] = "_VISIBLE_DEVICES";

	if (!eq || ks_env_secret(var, len))
		return 0;
	for (const char *const *keep = env_keep; *keep; keep++)
		if (name_is(var, *keep))
			return 1;
	if (len > sizeof vis - 1 && strncmp(var + len - (sizeof vis - 1), vis, sizeof vis - 1) == 0)
		return 1;
	return ks_env_listed(extra, var, len);
}

/*
 * The environment for sandboxed code: the variables ks_env_kept allows
 * and no others (no API keys, tokens or HOME secrets), HOME and TMPDIR set
 * to dir, the C locale.  Allocated in the child, which execs at once.
 */
static char **
sandbox_env(const char *dir)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **env, **e;

	for (e = environ; *e; e++)
		n++;
	if (!(env = calloc(n + 4, sizeof *env)))
		_exit(126);
	for (e = environ; *e; e++)
		if (ks_env_kept(*e))
			env[k++] = *e;
	if (asprintf(&env[k++], "HOME=%s", dir) < 0 || asprintf(&env[k++], "TMPDIR=%s", dir) < 0)
		_exit(126);
	env[k++] = "LC_ALL=C";
	env[k] = NULL;
	return env;
}

/* The number of processes the real user has now, from /proc. */
static long
user_processes(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct stat st;
	char path[300];
	long n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9') {
			snprintf(path, sizeof path, "/proc/%s", de->d_name);
			if (stat(path, &st) == 0 && st.st_uid == uid)
				n++;
		}
	closedir(d);
	return n;
}

/*
 * The namespace's own loopback brought up: it reaches nothing outside the
 * namespace, and a profiler talks to the process it injects through it
 * (ncu connects to its target over TCP on 127.0.0.1).
 */
static void
loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		(void)ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

/*
 * No network: a network namespace of its own holds only its loopback.
 * Root may make one; another user where user namespaces are allowed.
 * Where neither is possible the code runs with the network.
 */
static void
drop_network(void)
{
	if (unshare(CLONE_NEWNET) == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)
		loopback_up();
}

void
ks_sandbox_enter(const struct ks_proc_opts *o)
{
	extern char **environ;
	char cwd[4096];

	if (o->fsize_mb > 0)
		set_limit(RLIMIT_FSIZE, (rlim_t)o->fsize_mb << 20);
	/* root is not held by RLIMIT_NPROC (the pids cgroup is for root); anyone else gets max_procs beyond what runs now */
	if (geteuid() != 0)
		set_limit(RLIMIT_NPROC, (rlim_t)(user_processes(getuid()) + (o->max_procs > 0 ? o->max_procs : 512)));
	drop_network();
	/*
	 * A directory of its own (a bench) is its HOME and TMPDIR; otherwise
	 * (a build, run where the user is) the usual temporary directory, so
	 * that a compiler's temporary files never land in the user's folder.
	 */
	const char *tmp = getenv("TMPDIR");

	environ = sandbox_env(o->cwd && getcwd(cwd, sizeof cwd) ? cwd : tmp && *tmp == '/' ? tmp : "/tmp");
}

/* Writes text to path; 0, or -1. */
static int
put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text), w;

	if (fd < 0)
		return -1;
	w = write(fd, text, (size_t)len);
	return close(fd) == 0 && w == len ? 0 : -1;
}

/*
 * The empty cgroups of earlier runs whose ks-bench was killed outright
 * (kill -9 leaves no chance to remove them): kernel-scientist-PID-N with
 * no process PID any more.  rmdir removes only an empty cgroup.
 */
static void
remove_stale_cgroups(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	long pid;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "kernel-scientist-%ld-", &pid) == 1 && pid > 0 &&
		    kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char *dir = ks_easprintf("%s/%s", root, e->d_name);

			rmdir(dir);
			free(dir);
		}
	closedir(d);
}

char *
ks_sandbox_cgroup(long max)
{
	static const char *const roots[] = { "/sys/fs/cgroup/pids", "/sys/fs/cgroup", NULL };
	static unsigned serial;

	for (const char *const *root = roots; *root; root++) {
		char *ctl = ks_easprintf("%s/cgroup.subtree_control", *root), *text = NULL;
		int v1 = strcmp(*root, "/sys/fs/cgroup/pids") == 0, usable;

		usable = v1 ? ks_exists(*root) && !ks_exists(ctl) :
		    (text = ks_file_read(ctl, NULL)) && strstr(text, "pids");
		free(ctl);
		free(text);
		if (!usable)
			continue;
		remove_stale_cgroups(*root);
		char *dir = ks_easprintf("%s/kernel-scientist-%ld-%u", *root, (long)getpid(), serial++);
		char *file = ks_easprintf("%s/pids.max", dir), *val = ks_easprintf("%ld", max);
		int ok = mkdir(dir, 0755) == 0 && put_file(file, val) == 0;

		free(file);
		free(val);
		if (ok)
			return dir;
		rmdir(dir);
		free(dir);
	}
	return NULL;
}

void
ks_sandbox_cgroup_remove(char *dir)
{
	char *procs = ks_easprintf("%s/cgroup.procs", dir), *text, *p;

	for (int tries = 0; tries < 100 && rmdir(dir) < 0 && errno == EBUSY; tries++) {
		if ((text = ks_file_read(procs, NULL))) {
			for (p = text; *p; p++)
				if (p == text || p[-1] == '\n')
					kill((pid_t)strtol(p, NULL, 10), SIGKILL);
			free(text);
		}
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	free(procs);
	free(dir);
}

void
ks_sandbox_cgroup_join(const char *dir)
{
	char procs[4200], self[32];

	snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
	snprintf(self, sizeof self, "%ld", (long)getpid());
	(void)put_file(procs, self);
}
