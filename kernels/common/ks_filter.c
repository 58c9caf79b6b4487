/*
 * ks_filter.c: the seccomp filter of a worker, the list of what the
 * kernel's process may do once it runs the candidate's code.  Built twice:
 *
 *  - by the worker itself (ks_worker.c), after its runtime has started,
 *    with EPERM for everything else;
 *  - by the judge (ks_judge.c), in the worker's process between fork and
 *    exec, as the gate: the same list, with everything else sent to the
 *    judge (SECCOMP_RET_USER_NOTIF), which lets it through until the worker
 *    says READY and then closes its end, after which the kernel fails it
 *    (ENOSYS).  The worker cannot remove the gate, and it holds whether or
 *    not the worker's own filter is ever installed: code of the candidate's
 *    that runs before the worker's main (nvcc's registration inlines some)
 *    could skip that, not this.  A few calls the gate refuses outright,
 *    before READY too: other processes' memory and descriptors (ptrace,
 *    process_vm_*, pidfd_*), new processes, which the judge would never
 *    stop, and what set up before READY would go on working after it.
 *
 * A part of ks_worker.c and of ks_judge.c, which include it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE	AUDIT_ARCH_AARCH64
#endif

#define MAX_FILTER	512	/* instructions of the filter (the kernel takes 4096) */

struct filter {
	struct sock_filter f[MAX_FILTER];
	unsigned short n;
	int overflow;		/* more than MAX_FILTER instructions: a bug of this file */
	unsigned deny;		/* what a call outside the list gets */
};

#define NR_OFF		offsetof(struct seccomp_data, nr)
#define ARG_OFF(i)	(offsetof(struct seccomp_data, args) + sizeof(__u64) * (unsigned)(i))	/* the low 32 bits, little-endian */
#define RET_ALLOW	(SECCOMP_RET_ALLOW)
#define RET_EPERM	(SECCOMP_RET_ERRNO | EPERM)

static void
emit(struct filter *fl, struct sock_filter ins)
{
	if (fl->n >= MAX_FILTER) {
		fl->overflow = 1;
		return;
	}
	fl->f[fl->n++] = ins;
}

static void
ld(struct filter *fl, unsigned off)
{
	emit(fl, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, off));
}

static void
ret(struct filter *fl, unsigned action)
{
	emit(fl, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/*
 * A rule for system call nr: "if nr is this call, then body" where the
 * body (len instructions, every path ending in a return) follows.  The
 * caller emits the body right after.
 */
static void
rule(struct filter *fl, long nr, unsigned char body_len)
{
	ld(fl, NR_OFF);
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, body_len));
}

static void
allow(struct filter *fl, long nr)
{
	rule(fl, nr, 1);
	ret(fl, RET_ALLOW);
}

static void
refuse_with(struct filter *fl, long nr, int err)
{
	rule(fl, nr, 1);
	ret(fl, SECCOMP_RET_ERRNO | (unsigned)err);
}

/* nr allowed when argument arg has none of the bits of mask */
static void
allow_without_bits(struct filter *fl, long nr, int arg, unsigned mask)
{
	rule(fl, nr, 4);
	ld(fl, ARG_OFF(arg));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1));
	ret(fl, fl->deny);
	ret(fl, RET_ALLOW);
}

/* nr allowed when argument arg has some bit of mask; otherwise it gets action */
static void
allow_with_bits_else(struct filter *fl, long nr, int arg, unsigned mask, unsigned action)
{
	rule(fl, nr, 4);
	ld(fl, ARG_OFF(arg));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 1, 0));
	ret(fl, action);
	ret(fl, RET_ALLOW);
}

static void
allow_with_bits(struct filter *fl, long nr, int arg, unsigned mask)
{
	allow_with_bits_else(fl, nr, arg, mask, fl->deny);
}

/* nr allowed when argument arg is value */
static void
allow_if_arg(struct filter *fl, long nr, int arg, unsigned value)
{
	rule(fl, nr, 4);
	ld(fl, ARG_OFF(arg));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 1, 0));
	ret(fl, fl->deny);
	ret(fl, RET_ALLOW);
}

/* nr allowed when argument arg is one of two values */
static void
allow_if_arg_either(struct filter *fl, long nr, int arg, unsigned one, unsigned other)
{
	rule(fl, nr, 5);
	ld(fl, ARG_OFF(arg));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, one, 2, 0));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, other, 1, 0));
	ret(fl, fl->deny);
	ret(fl, RET_ALLOW);
}

/*
 * nr refused (EPERM) when argument arg compared with value (op: BPF_JEQ,
 * BPF_JGE) comes out as when says (1: true, 0: false); otherwise on to the
 * next rule.
 */
static void
refuse_when(struct filter *fl, long nr, int arg, unsigned op, unsigned value, int when)
{
	/* (the jumps as __u8: hipcc compiles this as C++, where an int in the braces is a narrowing error) */
	__u8 on_true = when ? 0 : 1, on_false = when ? 1 : 0;

	ld(fl, NR_OFF);
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 3));
	ld(fl, ARG_OFF(arg));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, value, on_true, on_false));
	ret(fl, RET_EPERM);
}

/* refused when argument arg is value */
static void
refuse_if_arg(struct filter *fl, long nr, int arg, unsigned value)
{
	refuse_when(fl, nr, arg, BPF_JEQ, value, 1);
}

/* refused when argument arg is under limit (unsigned) */
static void
refuse_if_below(struct filter *fl, long nr, int arg, unsigned limit)
{
	refuse_when(fl, nr, arg, BPF_JGE, limit, 0);
}

/* refused unless argument arg is value (its own pid) */
static void
refuse_unless_arg(struct filter *fl, long nr, int arg, unsigned value)
{
	refuse_when(fl, nr, arg, BPF_JEQ, value, 0);
}

/* mmap, neither executable nor placed over what is there (MAP_FIXED, MAP_FIXED_NOREPLACE) */
static void
allow_mmap(struct filter *fl)
{
	rule(fl, __NR_mmap, 6);
	ld(fl, ARG_OFF(2));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 2, 0));
	ld(fl, ARG_OFF(3));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_FIXED | MAP_FIXED_NOREPLACE, 0, 1));
	ret(fl, fl->deny);
	ret(fl, RET_ALLOW);
}

/* a write of some kind, allowed only to fds 1 and 2 (the pipe to the judge) and the channel */
static void
allow_writes_to_judge(struct filter *fl, long nr, int channel_fd)
{
	rule(fl, nr, 6);
	ld(fl, ARG_OFF(0));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 3, 0));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 2, 0));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)channel_fd, 1, 0));
	ret(fl, fl->deny);
	ret(fl, RET_ALLOW);
}

/*
 * A GPU worker's runtime, up and with its threads started before the
 * filter, talks to the driver through the device files it opened then:
 * ioctl on them, and its threads wait in poll.  Nothing else is added: no
 * open, so no new device file or any other; no mprotect or MAP_FIXED,
 * which the runtime needs only while it starts (tried on the H200:
 * kernels/GPU-RESULTS.md).
 */
static void
allow_device(struct filter *fl)
{
	static const long calls[] = {
		__NR_ioctl, __NR_poll, __NR_ppoll, __NR_epoll_wait, __NR_epoll_pwait, __NR_pread64,
	};

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		allow(fl, calls[i]);
}

/*
 * The gate's refusals, before READY as after: another process's memory or
 * descriptors (the judge's, whose memory the operating system guards too:
 * it is not dumpable and the worker has no capability), a process of its
 * own, which no stop of the worker's would stop, and an io_uring.
 */
static void
refuse_other_processes(struct filter *fl)
{
	static const long calls[] = {
		__NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_kcmp,
#ifdef __NR_pidfd_open
		__NR_pidfd_open,
#endif
#ifdef __NR_pidfd_getfd
		__NR_pidfd_getfd,
#endif
#ifdef __NR_fork
		__NR_fork,
#endif
#ifdef __NR_vfork
		__NR_vfork,
#endif
		/* a ring whose submissions the kernel reads from memory: work no filter would see after READY */
#ifdef __NR_io_uring_setup
		__NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
	};

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		refuse_with(fl, calls[i], EPERM);
	allow_with_bits_else(fl, __NR_clone, 0, CLONE_THREAD, RET_EPERM);
}

/*
 * The gate's refusals of what, set up before READY, would go on working
 * after it through calls on the list (a red-team pass found the first
 * two): a source of signals that fires by itself (a timer, or SIGIO when
 * a descriptor, the channel say, turns readable), whose handler could make
 * the judge's empty calls slow and so its floor, subtracted from every
 * time, large; a signal to another process (the judge); and a file put at
 * fds 0 to 3 (by dup2 or close and open), which the list lets the worker
 * write to after READY.
 */
static void
refuse_lasting_setups(struct filter *fl, pid_t self, int channel_fd)
{
	static const long timers[] = {
		__NR_timer_create, __NR_setitimer,
#ifdef __NR_alarm
		__NR_alarm,
#endif
		__NR_tkill,
	};

	for (size_t i = 0; i < sizeof timers / sizeof timers[0]; i++)
		refuse_with(fl, timers[i], EPERM);
	refuse_if_arg(fl, __NR_fcntl, 1, F_SETOWN);
	refuse_if_arg(fl, __NR_fcntl, 1, F_SETOWN_EX);
	refuse_if_arg(fl, __NR_fcntl, 1, F_SETSIG);
	refuse_if_arg(fl, __NR_ioctl, 1, FIOASYNC);
	refuse_if_arg(fl, __NR_ioctl, 1, FIOSETOWN);
	refuse_if_arg(fl, __NR_ioctl, 1, SIOCSPGRP);
	/* F_SETFL with O_ASYNC; the other F_SETFL flags (O_NONBLOCK...) are the runtime's business */
	ld(fl, NR_OFF);
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fcntl, 0, 5));
	ld(fl, ARG_OFF(1));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETFL, 0, 3));
	ld(fl, ARG_OFF(2));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_ASYNC, 0, 1));
	ret(fl, RET_EPERM);
	refuse_unless_arg(fl, __NR_kill, 0, (unsigned)self);
	refuse_unless_arg(fl, __NR_tgkill, 0, (unsigned)self);
	refuse_unless_arg(fl, __NR_rt_sigqueueinfo, 0, (unsigned)self);
	refuse_unless_arg(fl, __NR_rt_tgsigqueueinfo, 0, (unsigned)self);
	/* fds 0 to channel_fd stay what the judge made them */
	refuse_if_below(fl, __NR_close, 0, (unsigned)channel_fd + 1);
#ifdef __NR_dup2
	refuse_if_below(fl, __NR_dup2, 1, (unsigned)channel_fd + 1);
#endif
	refuse_if_below(fl, __NR_dup3, 1, (unsigned)channel_fd + 1);
#ifdef __NR_close_range
	refuse_if_below(fl, __NR_close_range, 0, (unsigned)channel_fd + 1);
#endif
}

/*
 * What the kernel's process may do: compute, allocate memory it can
 * neither execute nor place over what is mapped, make threads (not
 * processes), wait, signal itself, and write to the judge.  Everything
 * else gets fl->deny: no file is opened (so no /proc/self/mem, no
 * /proc/PID of the judge), no mprotect at all (OpenMP's threads and their
 * stacks exist already; one malloc arena grows by brk), no MAP_FIXED, no
 * PROT_EXEC, no other process traced, read or signalled, no exec, no
 * socket, no ioctl.  self: the worker's pid; device: a GPU worker;
 * gate: the judge's gate (above), else the worker's own.
 */
static void
build_filter(struct filter *fl, pid_t self, int device, int gate, int channel_fd)
{
	static const long plain[] = {
		__NR_read, __NR_readv, __NR_recvmsg, __NR_recvfrom, __NR_close, __NR_fstat, __NR_lseek,
		__NR_brk, __NR_munmap, __NR_madvise, __NR_futex, __NR_set_robust_list, __NR_sched_yield,
		__NR_sched_getaffinity, __NR_getpid, __NR_gettid, __NR_rt_sigaction,
		__NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_sigaltstack, __NR_exit, __NR_exit_group,
		__NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_nanosleep, __NR_clock_nanosleep,
		__NR_getrandom, __NR_uname, __NR_restart_syscall, __NR_sched_getparam, __NR_sched_getscheduler,
#ifdef __NR_rseq
		__NR_rseq,
#endif
#ifdef __NR_getrlimit
		__NR_getrlimit,
#endif
#ifdef __NR_time
		__NR_time,
#endif
	};

	ld(fl, offsetof(struct seccomp_data, arch));
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0));
	ret(fl, SECCOMP_RET_KILL_PROCESS);
#ifdef __x86_64__
	/* the x32 numbers of the same calls */
	ld(fl, NR_OFF);
	emit(fl, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
	ret(fl, SECCOMP_RET_KILL_PROCESS);
#endif
	if (gate) {
		refuse_other_processes(fl);
		refuse_lasting_setups(fl, self, channel_fd);
	}
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		allow(fl, plain[i]);
	allow_writes_to_judge(fl, __NR_write, channel_fd);
	allow_writes_to_judge(fl, __NR_writev, channel_fd);
	allow_writes_to_judge(fl, __NR_sendmsg, channel_fd);
	allow_writes_to_judge(fl, __NR_sendto, channel_fd);
	allow_mmap(fl);
	allow_without_bits(fl, __NR_mremap, 3, MREMAP_FIXED | MREMAP_DONTUNMAP);
	allow_with_bits(fl, __NR_clone, 0, CLONE_THREAD);
	/* glibc falls back to clone, whose flags the filter can read */
#ifdef __NR_clone3
	refuse_with(fl, __NR_clone3, ENOSYS);
#endif
	allow_if_arg(fl, __NR_tgkill, 0, (unsigned)self);
	allow_if_arg(fl, __NR_kill, 0, (unsigned)self);
	/*
	 * Its own CPUs, the calling thread's (0) or the first's: another pid
	 * would be another process's thread, the judge's or, timed side by side,
	 * the base's, which a kernel pinned to one CPU 15 to 35 times slower.
	 * (OpenMP's team, bound or not, is started before the filter.)
	 */
	allow_if_arg_either(fl, __NR_sched_setaffinity, 0, 0, (unsigned)self);
	/* fstat(fd) is fstatat(fd, "", AT_EMPTY_PATH): no path of the file system */
	allow_with_bits(fl, __NR_newfstatat, 3, AT_EMPTY_PATH);
	/* a limit may be read, not set */
	allow_if_arg(fl, __NR_prlimit64, 2, 0);
	if (device)
		allow_device(fl);
	ret(fl, fl->deny);
}
