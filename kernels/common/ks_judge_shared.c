/*
 * ks_judge_shared.c: the memory the judge shares with its workers: a
 * table of buffers (memfds on the CPU, device memory by its IPC handle on a
 * GPU), which worker has mapped each, and what a worker must drop.  A part
 * of ks_judge.c, which includes it.
 */

/* ---- memory shared with the worker ---- */

/* a free slot of the table of shared buffers */
static int
shared_slot(void)
{
	int i;

	for (i = 0; i < MAX_SHARED && shared[i].used; i++)
		;
	if (i == MAX_SHARED)
		die("more than %d shared buffers at once (a bug of the problem's harness)", MAX_SHARED);
	memset(&shared[i], 0, sizeof shared[i]);
	return i;
}

void *
ks_shared_alloc(size_t bytes)
{
	size_t len = bytes ? bytes : 1;
	void *p;
	int fd, i = shared_slot();

	if ((fd = memfd_create("ks-shared", MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0)
		die("memfd_create failed: %s", strerror(errno));
	/* a memfd is a file: past the file-size limit ftruncate fails (SIGXFSZ is ignored, ks_judge_start) */
	if (ftruncate(fd, (off_t)len) != 0 && errno == EFBIG)
		die("a buffer of %zu MiB for the kernel is over the file-size limit (ks-bench's KS_BENCH_FILE_MB)",
		    len >> 20);
	/* sealed at its size: the worker can neither shrink it under the judge (SIGBUS) nor grow it */
	if (ftruncate(fd, (off_t)len) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
	    (p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	shared[i].p = p;
	shared[i].len = len;
	shared[i].fd = fd;
	shared[i].id = ++J.next_id;
	shared[i].mapped = 0;
	shared[i].freed = 0;
	shared[i].used = 1;
	return p;
}

void
ks_judge_share_device(void *dev, size_t len, const unsigned char *handle, void (*release)(void *))
{
	int i = shared_slot();

	shared[i].p = dev;
	shared[i].len = len;
	shared[i].fd = -1;
	shared[i].device = 1;
	memcpy(shared[i].handle, handle, KS_JUDGE_HANDLE_BYTES);
	shared[i].release = release;
	shared[i].id = ++J.next_id;
	shared[i].used = 1;
}

/* the live shared buffer that starts at p */
static int
shared_at(const void *p, const char *who)
{
	int i;

	for (i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed && shared[i].p == p)
			return i;
	die("%s of memory the judge does not share (a bug of the problem's harness)", who);
}

/* the worker has dropped buffer i, or never had it: its memory goes */
static void
shared_gone(int i)
{
	if (shared[i].release)
		shared[i].release(shared[i].p);
	shared[i].used = 0;
}

/* buffer i's mapped, less the workers that are gone (whose mappings went with them) */
static unsigned
live_mappers(int i)
{
	unsigned m = shared[i].mapped;

	for (int k = 0; k < KS_JUDGE_WORKERS; k++)
		if (workers[k].pid <= 0)
			m &= ~(1u << k);
	return m;
}

void
ks_shared_free(void *p)
{
	int i;

	if (!p)
		return;
	i = shared_at(p, "ks_shared_free");
	munmap(shared[i].p, shared[i].len);
	close(shared[i].fd);
	shared[i].fd = -1;
	shared[i].freed = 1;
	/* each worker that has it is told at its next exchange; never mapped, none needs a word */
	if (!shared[i].mapped)
		shared_gone(i);
}

/* device memory outlives its mapping in the worker: released once the worker closed it */
void
ks_judge_unshare_device(void *dev)
{
	int i;

	if (!dev)
		return;
	i = shared_at(dev, "ks_judge_unshare_device");
	shared[i].freed = 1;
	if (!live_mappers(i))
		shared_gone(i);
}

/*
 * The shared buffer that holds p, or -1; p may also be a buffer's end
 * (an empty argument), but a buffer that starts at p comes first: two
 * allocations can lie end to start (2 MiB device buffers on the H200 do),
 * and the end of one must not stand for the other.
 */
static int
shared_holding(const void *p)
{
	const char *c = (const char *)p;
	int end = -1;

	for (int i = 0; i < MAX_SHARED; i++) {
		const char *lo = (const char *)shared[i].p;

		if (!shared[i].used || shared[i].freed || c < lo || c > lo + shared[i].len)
			continue;
		if (c < lo + shared[i].len)
			return i;
		end = i;
	}
	return end;
}
