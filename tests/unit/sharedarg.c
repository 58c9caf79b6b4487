/*
 * sharedarg.c - unit tests of how the judge names a pointer argument to
 * its worker (kernels/common/ks_judge_shared.c, shared_holding): the shared
 * buffer that holds it and the offset into that buffer.  Two buffers may
 * lie end to start (the H200's 2 MiB device buffers do), and the address
 * where one ends and the other starts must be the second's start, not
 * the first's end.  Built by including ks_judge.c, whose shared_holding
 * is static; the buffers are registered as device memory
 * (ks_judge_share_device), which puts them exactly where the test wants
 * them, and no worker is started.  Prints one line per failed case and
 * "N cases, N failed"; exits 1 when any failed.
 */
/* expect.h's expect() as check(): ks_judge.c has an expect() of its own */
#define expect check
#include "expect.h"
#undef expect
#include "ks_judge.c"

/* ks_judge.c names a problem; these tests call none of it */
const struct ks_problem ks_problem;

#define LEN	4096

/* two regions of LEN bytes each, and a third nobody registers */
static unsigned char mem[3 * LEN], mem2[3 * LEN];

/* the slot of the table that holds the buffer starting at p */
static int
slot_of(const void *p)
{
	for (int i = 0; i < MAX_SHARED; i++)
		if (shared[i].used && !shared[i].freed && shared[i].p == p)
			return i;
	return -2;
}

/* p is named as buffer want (a slot; -1: none) at offset off */
static void
holds(const char *what, const void *p, int want, size_t off)
{
	int got = shared_holding(p);
	char name[200];

	snprintf(name, sizeof name, "%s: slot %d, offset %zu (got slot %d, offset %td)", what, want, off, got,
	    got >= 0 ? (const char *)p - (const char *)shared[got].p : (ptrdiff_t)-1);
	check(name, got == want && (want < 0 || (size_t)((const char *)p - (const char *)shared[got].p) == off));
}

int
main(void)
{
	unsigned char handle[KS_JUDGE_HANDLE_BYTES] = { 0 };
	int a, b, c, d;

	/* a, then b right after it: the table's earlier slot ends where the later starts */
	ks_judge_share_device(mem, LEN, handle, NULL);
	ks_judge_share_device(mem + LEN, LEN, handle, NULL);
	a = slot_of(mem);
	b = slot_of(mem + LEN);
	check("the two buffers are registered, a before b", a >= 0 && b > a);
	holds("a's start", mem, a, 0);
	holds("inside a", mem + 100, a, 100);
	holds("a's last byte", mem + LEN - 1, a, LEN - 1);
	holds("a's end, which is b's start", mem + LEN, b, 0);
	holds("inside b", mem + LEN + 100, b, 100);
	holds("b's last byte", mem + 2 * LEN - 1, b, LEN - 1);
	holds("b's end (an empty argument), where nothing starts", mem + 2 * LEN, b, LEN);
	holds("past b's end", mem + 2 * LEN + 1, -1, 0);

	/* the same, registered the other way round: the later slot ends where the earlier starts */
	ks_judge_share_device(mem2 + LEN, LEN, handle, NULL);
	ks_judge_share_device(mem2, LEN, handle, NULL);
	c = slot_of(mem2 + LEN);
	d = slot_of(mem2);
	check("the two buffers are registered, the upper first", c >= 0 && d > c);
	holds("the lower's last byte", mem2 + LEN - 1, d, LEN - 1);
	holds("the lower's end, which is the upper's start", mem2 + LEN, c, 0);
	holds("the upper's end", mem2 + 2 * LEN, c, LEN);

	/* b given up: its start is a's end again, and nothing holds its inside */
	ks_judge_unshare_device(mem + LEN);
	holds("a's end, once b is gone", mem + LEN, a, LEN);
	holds("inside b, once b is gone", mem + LEN + 100, -1, 0);
	return report();
}
