/*
 * judge-probe.cu: what a GPU judge (kernels/common/ks_judge.h) can stand
 * on, tried on the machine: a judge process that owns a device buffer and
 * a worker process that opens it by CUDA IPC, locks itself down with a
 * seccomp filter on every thread (TSYNC) after CUDA is up, and is driven
 * as the CPU judge drives its worker (SIGCONT, a command, the reply,
 * SIGSTOP and a wait until it is stopped).
 *
 *   nvcc -O3 -arch=sm_90a judge-probe.cu -o judge-probe && ./judge-probe MODE
 *
 * MODE is the filter: base (no open, openat, ptrace, process_vm_*, execve),
 * or base plus one of nomprotect (no mprotect at all), nofixed (no mmap or
 * mremap with MAP_FIXED), noexec (no mmap with PROT_EXEC), or all three
 * (strict).  It prints what still works under the filter (kernel launches
 * of a loaded and of a new kernel, cudaMalloc, cudaMemcpy, events), then,
 * per kernel length, the judge's interval against the worker's events over
 * 200 calls: medians and the middle half of (judge - events).
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <cuda_runtime.h>

#define CALLS 200
#define BUF_BYTES ((size_t)64 << 20)

struct msg {
	int type;		/* 1 handle, 2 call, 3 reply, 4 ready, 5 quit */
	int us;			/* call: how long the kernel spins */
	double event_s;		/* reply: start to end event */
	char text[512];		/* ready: what works under the filter */
	cudaIpcMemHandle_t handle;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* spins for ns on the device's global timer, then writes into the buffer */
__global__ void
spin(unsigned long long ns, unsigned *buf)
{
	unsigned long long t0, t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while (t - t0 < ns);
	buf[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned)t;
}

__global__ void
second_kernel(unsigned *buf)
{
	buf[threadIdx.x] += 1;
}

/* the judge's own look at the buffer while the worker is stopped */
__global__ void
fingerprint(const unsigned *buf, size_t n, unsigned long long *out)
{
	unsigned long long h = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		h += (buf[i] ^ i) * 0x9e3779b97f4a7c15ull;
	atomicAdd(out, h);
}

#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)

static int
lock_down(const char *mode, char *why, size_t n)
{
	int nomprotect = !strcmp(mode, "nomprotect") || !strcmp(mode, "strict");
	int nofixed = !strcmp(mode, "nofixed") || !strcmp(mode, "strict");
	int noexec = !strcmp(mode, "noexec") || !strcmp(mode, "strict");
	struct sock_filter f[64];
	int k = 0;

#define PUT(...) do { struct sock_filter x_[] = { __VA_ARGS__ }; memcpy(f + k, x_, sizeof x_); k += sizeof x_ / sizeof x_[0]; } while (0)
	PUT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
	PUT(DENY(__NR_open), DENY(__NR_openat), DENY(__NR_ptrace), DENY(__NR_process_vm_readv),
	    DENY(__NR_process_vm_writev), DENY(__NR_execve));
	if (nomprotect)
		PUT(DENY(__NR_mprotect));
	if (nofixed || noexec) {
		/* mmap: ld prot, flags */
		PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 6),
		    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (unsigned)(noexec ? PROT_EXEC : 0), 2, 0),
		    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
		    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (unsigned)(nofixed ? MAP_FIXED : 0), 0, 1),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	}
	if (nofixed)
		PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mremap, 0, 4),
		    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
		    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MREMAP_FIXED, 0, 1),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	PUT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	struct sock_fprog prog = { (unsigned short)k, f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
		snprintf(why, n, "seccomp failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void
say(char *text, size_t n, const char *what, cudaError_t e)
{
	size_t len = strlen(text);

	snprintf(text + len, n - len, "%s%s=%s", len ? " " : "", what, e == cudaSuccess ? "ok" : cudaGetErrorName(e));
	(void)cudaGetLastError();
}

static int
worker(const char *mode)
{
	struct msg m;
	unsigned *buf, *extra, host[4];
	cudaEvent_t a, b;
	float ms;

	if (recv(3, &m, sizeof m, 0) != sizeof m || m.type != 1)
		return 3;
	if (cudaIpcOpenMemHandle((void **)&buf, m.handle, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
		return 4;
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	spin<<<1, 32>>>(1000, buf);
	cudaDeviceSynchronize();
	memset(&m, 0, sizeof m);
	m.type = 4;
	if (lock_down(mode, m.text, sizeof m.text) == 0) {
		snprintf(m.text, sizeof m.text, "filter %s:", mode);
		spin<<<1, 32>>>(1000, buf);
		say(m.text, sizeof m.text, "launch", cudaDeviceSynchronize());
		second_kernel<<<1, 32>>>(buf);
		say(m.text, sizeof m.text, "new-kernel", cudaDeviceSynchronize());
		say(m.text, sizeof m.text, "malloc", cudaMalloc((void **)&extra, (size_t)256 << 20));
		say(m.text, sizeof m.text, "free", cudaFree(extra));
		say(m.text, sizeof m.text, "memcpy-d2h", cudaMemcpy(host, buf, sizeof host, cudaMemcpyDeviceToHost));
		say(m.text, sizeof m.text, "event", cudaEventRecord(a, 0));
		FILE *fp = fopen("/proc/self/maps", "r");
		size_t len = strlen(m.text);
		snprintf(m.text + len, sizeof m.text - len, " open=%s", fp ? "ALLOWED" : "refused");
	}
	send(3, &m, sizeof m, 0);
	for (;;) {
		if (recv(3, &m, sizeof m, 0) != sizeof m || m.type == 5)
			return 0;
		cudaEventRecord(a, 0);
		spin<<<132, 128>>>((unsigned long long)m.us * 1000, buf);
		cudaEventRecord(b, 0);
		cudaDeviceSynchronize();
		cudaEventElapsedTime(&ms, a, b);
		m.type = 3;
		m.event_s = ms * 1e-3;
		send(3, &m, sizeof m, 0);
	}
}

static int
cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "base";
	int sv[2], status;
	struct msg m;
	pid_t pid;
	unsigned *buf;
	unsigned long long *fp, h;

	if (argc > 2 && !strcmp(argv[2], "worker"))
		return worker(mode);
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	if ((pid = fork()) == 0) {
		dup2(sv[1], 3);
		execl("/proc/self/exe", argv[0], mode, "worker", (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	cudaMalloc((void **)&buf, BUF_BYTES);
	cudaMalloc((void **)&fp, sizeof *fp);
	cudaMemset(buf, 0, BUF_BYTES);
	memset(&m, 0, sizeof m);
	m.type = 1;
	cudaIpcGetMemHandle(&m.handle, buf);
	send(sv[0], &m, sizeof m, 0);
	if (recv(sv[0], &m, sizeof m, 0) != sizeof m || m.type != 4) {
		waitpid(pid, &status, 0);
		printf("%s: the worker failed (status 0x%x)\n", mode, status);
		return 1;
	}
	printf("%s\n", m.text);
	kill(pid, SIGSTOP);
	waitpid(pid, &status, WUNTRACED);
	/* the judge's own kernel on the shared buffer while the worker is stopped */
	double t0 = now();
	cudaMemset(fp, 0, sizeof *fp);
	fingerprint<<<264, 256>>>(buf, BUF_BYTES / 4, fp);
	cudaMemcpy(&h, fp, sizeof h, cudaMemcpyDeviceToHost);
	printf("%s: the judge fingerprints 64 MiB while the worker is stopped in %.1f us\n", mode, (now() - t0) * 1e6);
	static const int lengths[] = { 0, 10, 50, 200 };
	for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
		double judge[CALLS], ev[CALLS], d[CALLS];

		for (int i = -10; i < CALLS; i++) {
			double a = now();

			memset(&m, 0, sizeof m);
			m.type = 2;
			m.us = lengths[l];
			kill(pid, SIGCONT);
			send(sv[0], &m, sizeof m, 0);
			recv(sv[0], &m, sizeof m, 0);
			kill(pid, SIGSTOP);
			waitpid(pid, &status, WUNTRACED);
			if (i >= 0) {
				judge[i] = now() - a;
				ev[i] = m.event_s;
				d[i] = judge[i] - ev[i];
			}
		}
		qsort(judge, CALLS, sizeof judge[0], cmp);
		qsort(ev, CALLS, sizeof ev[0], cmp);
		qsort(d, CALLS, sizeof d[0], cmp);
		printf("%s: kernel %3d us: judge median %.1f us, events median %.1f us, judge - events median %.1f us, "
		    "middle half %.1f-%.1f, 5th-95th %.1f-%.1f\n", mode, lengths[l], judge[CALLS / 2] * 1e6,
		    ev[CALLS / 2] * 1e6, d[CALLS / 2] * 1e6, d[CALLS / 4] * 1e6, d[3 * CALLS / 4] * 1e6,
		    d[CALLS / 20] * 1e6, d[19 * CALLS / 20] * 1e6);
	}
	m.type = 5;
	kill(pid, SIGCONT);
	send(sv[0], &m, sizeof m, 0);
	waitpid(pid, &status, 0);
	return 0;
}
