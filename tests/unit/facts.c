/*
 * facts.c - unit tests of ks_facts_cpu (tools/lib/ks_facts.c): the CPU's
 * cores, hardware threads and caches as a prompt states them, over
 * made-up sysfs trees under the folder given, and "unknown" where a tree
 * lacks the files.  Prints one line per failed case and "N cases, N
 * failed"; exits 1 when any failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"
#include "expect.h"

/* root/path holding text, its folders made */
static void
put(const char *root, const char *path, const char *text)
{
	char *full = ks_easprintf("%s%s", root, path), *dir = ks_estrdup(full);
	FILE *f;

	*strrchr(dir, '/') = '\0';
	if (ks_mkdir_p(dir) < 0 || !(f = fopen(full, "w"))) {
		fprintf(stderr, "facts: cannot write '%s'\n", full);
		exit(2);
	}
	fprintf(f, "%s\n", text);
	fclose(f);
	free(dir);
	free(full);
}

/* cpu's package and core */
static void
topology(const char *root, int cpu, int package, int core)
{
	char *p = ks_easprintf("/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu), num[16];

	snprintf(num, sizeof num, "%d", package);
	put(root, p, num);
	free(p);
	p = ks_easprintf("/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
	snprintf(num, sizeof num, "%d", core);
	put(root, p, num);
	free(p);
}

/* cpu0's cache index i; shared NULL: no shared_cpu_list */
static void
cache(const char *root, int i, const char *level, const char *type, const char *size, const char *shared)
{
	char *dir = ks_easprintf("/sys/devices/system/cpu/cpu0/cache/index%d", i), *p;

	p = ks_easprintf("%s/level", dir);
	put(root, p, level);
	free(p);
	p = ks_easprintf("%s/type", dir);
	put(root, p, type);
	free(p);
	p = ks_easprintf("%s/size", dir);
	put(root, p, size);
	free(p);
	if (shared) {
		p = ks_easprintf("%s/shared_cpu_list", dir);
		put(root, p, shared);
		free(p);
	}
	free(dir);
}

static void
check(const char *what, const char *root, const char *want, int want_cores)
{
	int cores = -2;
	char *got = ks_facts_cpu(root, &cores), *label = ks_easprintf("%s: got\n%s(cores %d)", what, got, cores);

	expect(label, strcmp(got, want) == 0 && cores == want_cores);
	free(label);
	free(got);
}

int
main(int argc, char **argv)
{
	char *smt, *two, *bare, *none;

	if (argc != 2) {
		fprintf(stderr, "usage: facts DIR\n");
		return 2;
	}
	smt = ks_easprintf("%s/smt", argv[1]);
	two = ks_easprintf("%s/two", argv[1]);
	bare = ks_easprintf("%s/bare", argv[1]);
	none = ks_easprintf("%s/none", argv[1]);

	/* 2 cores of 2 threads, as Linux numbers them: cpu0 and cpu2 on core 0 */
	put(smt, "/sys/devices/system/cpu/online", "0-3");
	topology(smt, 0, 0, 0);
	topology(smt, 1, 0, 1);
	topology(smt, 2, 0, 0);
	topology(smt, 3, 0, 1);
	cache(smt, 0, "1", "Data", "48K", "0,2");
	cache(smt, 1, "1", "Instruction", "32K", "0,2");
	cache(smt, 2, "2", "Unified", "2048K", "0,2");
	cache(smt, 3, "3", "Unified", "32768K", "0-3");
	check("SMT", smt, "- CPU: 2 physical cores, 4 hardware threads (SMT: 2 per core).\n"
	    "- Caches (of cpu0): L1d 48 KiB per core, L2 2 MiB per core, L3 32 MiB shared by 4 hardware threads.\n", 2);

	/* two packages whose cores have the same ids; a cache that does not say who shares it */
	put(two, "/sys/devices/system/cpu/online", "0-1,4-5");
	topology(two, 0, 0, 0);
	topology(two, 1, 0, 1);
	topology(two, 4, 1, 0);
	topology(two, 5, 1, 1);
	cache(two, 0, "1", "Data", "32K", "0");
	cache(two, 1, "2", "Unified", "1280K", NULL);
	check("two packages, no SMT", two, "- CPU: 4 physical cores, 4 hardware threads (no SMT).\n"
	    "- Caches (of cpu0): L1d 32 KiB per core, L2 1280 KiB.\n", 4);

	/* the online list and nothing else */
	put(bare, "/sys/devices/system/cpu/online", "0-7");
	check("no topology, no caches", bare, "- CPU: 8 hardware threads; physical cores unknown.\n"
	    "- Caches (of cpu0): unknown.\n", -1);

	/* no sysfs at all */
	check("nothing", none, "- CPU: cores and hardware threads unknown.\n- Caches (of cpu0): unknown.\n", -1);

	free(smt);
	free(two);
	free(bare);
	free(none);
	return report();
}
