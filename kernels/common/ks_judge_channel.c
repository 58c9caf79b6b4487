/*
 * ks_judge_channel.c: a worker's process and its channel: its
 * output copied to the log, its death taken as the runner's, stopping and
 * continuing it, and the messages each way.  A part of ks_judge.c, which
 * includes it.
 */

/* ---- the worker's output, copied to the log ---- */

static void
drain_output(void)
{
	char buf[65536];
	ssize_t r;

	while (W->out >= 0 && (r = read(W->out, buf, sizeof buf)) > 0) {
		/* the log is the candidate's: a base's output is read and dropped */
		size_t keep = W->logged < LOG_CAP && !is_base() ? LOG_CAP - W->logged : 0;

		if (keep > (size_t)r)
			keep = (size_t)r;
		if (keep && write(2, buf, keep) < 0)
			keep = 0;
		W->logged += keep;
		if (!is_base())
			W->dropped += (size_t)r - keep;
		if (W->logged + W->dropped > OUTPUT_MAX)
			die("the kernel's process wrote more than %zu MiB to its output", OUTPUT_MAX >> 20);
	}
}

/* ---- the worker's life ---- */

/*
 * The worker died: the runner goes the same way (the same signal, the same
 * exit status), so that whoever ran it sees what the kernel did, as when
 * the kernel ran in its own process.
 */
static void __attribute__((noreturn))
worker_died(int status)
{
	struct rlimit none = { 0, 0 };
	int sig;

	drain_output();
	W->pid = -1;
	if (is_base()) {
		if (WIFEXITED(status))
			snprintf(base_why, sizeof base_why, "the base's process exited with status %d",
			    WEXITSTATUS(status));
		else
			snprintf(base_why, sizeof base_why, "the base's process was killed by signal %d",
			    WTERMSIG(status));
		longjmp(base_lost, 1);
	}
	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	/* the kernel's core, if any, was the worker's to dump */
	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);
}

/* waits until every thread of the worker has stopped */
static void
wait_stopped(void)
{
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(W->pid, &status, WUNTRACED);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("waitpid of the kernel's process failed: %s", strerror(errno));
		if (WIFSTOPPED(status))
			return;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			worker_died(status);
	}
}

static void
worker_stop(void)
{
	if (kill(W->pid, SIGSTOP) != 0)
		die("cannot stop the kernel's process: %s", strerror(errno));
	wait_stopped();
}

static void
worker_continue(void)
{
	if (kill(W->pid, SIGCONT) != 0)
		die("cannot continue the kernel's process: %s", strerror(errno));
}

/* ---- the channel ---- */

/* m, with a CALL's args after it in the same datagram (NULL: none), and fd attached (-1: none) */
static int
send_msg(const struct ks_msg *m, const struct ks_msg_arg *args, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	size_t extra = args ? ks_msg_args_bytes(m) : 0;
	struct iovec iov[2] = { { (void *)m, sizeof *m }, { (void *)args, extra } };
	struct msghdr h;
	ssize_t w;

	memset(&h, 0, sizeof h);
	h.msg_iov = iov;
	h.msg_iovlen = extra ? 2 : 1;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof u);
		h.msg_control = u.buf;
		h.msg_controllen = sizeof u.buf;
		c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	do
		w = sendmsg(W->chan, &h, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)(sizeof *m + extra) ? 0 : -1;
}

/* the worker's end of the channel closed: it is dying, or it closed it itself */
static void __attribute__((noreturn))
channel_closed(void)
{
	int status;

	/* a worker that closed its channel and lives on is ended here */
	kill(W->pid, SIGCONT);
	for (int i = 0; i < 100; i++) {
		if (waitpid(W->pid, &status, WNOHANG) == W->pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			worker_died(status);
		usleep(10000);
	}
	kill(W->pid, SIGKILL);
	if (is_base()) {
		waitpid(W->pid, &status, 0);
		W->pid = -1;
		snprintf(base_why, sizeof base_why, "the base's process closed the judge's channel");
		longjmp(base_lost, 1);
	}
	die("the kernel's process closed the judge's channel");
}

/* ---- the gate (ks_filter.c): its calls let through until the worker says READY ---- */

/*
 * The gate's listener, the first message on a new worker's channel (sent
 * by the judge's own code between fork and exec, install_gate).  A worker
 * that could not be given one is not run.
 */
static void
receive_gate(void)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct ks_msg m;
	struct iovec iov = { &m, sizeof m };
	struct msghdr h;
	struct cmsghdr *c;
	ssize_t r;

	memset(&h, 0, sizeof h);
	h.msg_iov = &iov;
	h.msg_iovlen = 1;
	h.msg_control = u.buf;
	h.msg_controllen = sizeof u.buf;
	do
		r = recvmsg(W->chan, &h, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	for (c = CMSG_FIRSTHDR(&h); r > 0 && c; c = CMSG_NXTHDR(&h, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(&W->gate, CMSG_DATA(c), sizeof W->gate);
	m.error[sizeof m.error - 1] = '\0';
	if (r == (ssize_t)sizeof m && m.type == KS_MSG_GATE && W->gate >= 0)
		return;
	if (r == (ssize_t)sizeof m && m.type == KS_MSG_GATE && m.error[0])
		die("the kernel's process could not be locked down (%s): the kernel is not run", m.error);
	die("the kernel's process did not start: no gate from it (%s)",
	    r < 0 ? strerror(errno) : "its channel closed first");
}

/*
 * One call of the worker's that its gate sent here, before READY: let
 * through.  The worker then is the judge's own code, the loader, the C
 * runtime and a GPU's runtime starting, and whatever of the candidate's
 * runs before main; the gate still refuses other processes outright.
 */
static void
serve_gate(void)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	memset(&req, 0, sizeof req);
	if (ioctl(W->gate, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0)
		return;		/* the call was interrupted, or its thread is gone */
	memset(&resp, 0, sizeof resp);
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	(void)ioctl(W->gate, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static void
close_gate(void)
{
	if (W->gate >= 0)
		close(W->gate);
	W->gate = -1;
}

/*
 * One message from the worker, *m; the worker's output copied meanwhile.
 * 0; -1 when what came is not one well-formed message (why says so).
 */
static int
recv_msg(struct ks_msg *m, char *why, size_t n)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	/* (a descriptor of -1 is skipped by poll) */
	struct pollfd p[3] = { { W->chan, POLLIN, 0 }, { W->out, POLLIN, 0 }, { W->gate, POLLIN, 0 } };
	struct iovec iov = { m, sizeof *m };
	struct msghdr h;
	struct cmsghdr *c;
	ssize_t r;

	for (;;) {
		p[1].fd = W->out;
		p[2].fd = W->gate;
		/* on a GPU the judge spins: a sleeping judge's wake-up would be in every interval */
		if (poll(p, 3, W->spin ? 0 : -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll failed: %s", strerror(errno));
		}
		if (p[2].revents & POLLIN)
			serve_gate();
		else if (p[2].revents)
			close_gate();	/* no process is under it any more */
		if (p[1].revents)
			drain_output();
		if (p[1].revents & (POLLHUP | POLLERR)) {
			close(W->out);
			W->out = -1;
		}
		if (p[0].revents)
			break;
	}
	memset(&h, 0, sizeof h);
	h.msg_iov = &iov;
	h.msg_iovlen = 1;
	h.msg_control = u.buf;
	h.msg_controllen = sizeof u.buf;
	do
		r = recvmsg(W->chan, &h, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		channel_closed();
	if (r < 0 && errno != EAGAIN)
		die("the judge's channel failed: %s", strerror(errno));
	/* descriptors from the worker are never wanted */
	for (c = CMSG_FIRSTHDR(&h); r > 0 && c; c = CMSG_NXTHDR(&h, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + k * sizeof(int), sizeof fd);
				close(fd);
			}
	if (r != (ssize_t)sizeof *m || (h.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		snprintf(why, n, "the kernel's process sent the judge %zd bytes that are no message of its "
		    "protocol", r);
		return -1;
	}
	return 0;
}

/* the reply expected, of this type and seq; -1 with why for anything else */
static int
expect(uint32_t type, uint32_t seq, char *why, size_t n)
{
	struct ks_msg m;

	if (recv_msg(&m, why, n) < 0)
		return -1;
	if (m.type != type || m.seq != seq) {
		snprintf(why, n, "the kernel's process sent the judge a message out of turn (type %u, call %u, "
		    "where the judge waited for type %u, call %u)", m.type, m.seq, type, seq);
		return -1;
	}
	return 0;
}

/* nothing may wait on the channel once the worker is stopped: -1 with why when something does */
static int
channel_quiet(char *why, size_t n)
{
	char c;
	ssize_t r = recv(W->chan, &c, 1, MSG_DONTWAIT | MSG_PEEK);

	if (r == 0)
		channel_closed();
	if (r > 0) {
		snprintf(why, n, "the kernel's process sent the judge a message nobody asked for");
		return -1;
	}
	return 0;
}

/*
 * The buffers the worker must drop and those it must map, told while it
 * runs outside any timed interval (it is stopped again after).  No call's
 * inputs are new here that a timed call uses: timed calls reuse buffers
 * the worker has mapped.
 */
static int
sync_buffers(char *why, size_t n)
{
	struct ks_msg m;
	int i, pending = 0;

	for (i = 0; i < MAX_SHARED; i++)
		pending += shared[i].used && !shared[i].freed == !(shared[i].mapped & w_bit());
	if (!pending)
		return 0;
	worker_continue();
	for (i = 0; i < MAX_SHARED; i++) {
		/* a live buffer W lacks (map it), or a freed one W has (unmap it) */
		if (!shared[i].used || !shared[i].freed != !(shared[i].mapped & w_bit()))
			continue;
		memset(&m, 0, sizeof m);
		m.type = shared[i].freed ? KS_MSG_UNMAP : KS_MSG_MAP;
		m.id = shared[i].id;
		m.len = shared[i].len;
		m.device = (uint32_t)shared[i].device;
		if (m.device)
			memcpy(m.handle, shared[i].handle, sizeof m.handle);
		if (send_msg(&m, NULL, shared[i].freed ? -1 : shared[i].fd) < 0)
			channel_closed();
		if (expect(KS_MSG_MAPPED, 0, why, n) < 0)
			return -1;
		shared[i].mapped ^= w_bit();
		if (shared[i].freed && !live_mappers(i))
			shared_gone(i);
	}
	worker_stop();
	return channel_quiet(why, n);
}
