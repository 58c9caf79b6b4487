/*
 * kernelfile.c - unit test of ks_kernel_path_quiet (tools/lib/ks_pop.c), the
 * population's names of a kernel's file, against the targets' table
 * (tools/lib/ks_target.c): a candidate folder holding kernel.EXT for each
 * compiled target's EXT is found to hold its kernel.  Prints one line per
 * failed case and "N cases, N failed"; exits 1 when any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_stages.h"
#include "expect.h"

int
main(void)
{
	char dir[] = "/tmp/ks-kernelfile.XXXXXX", *names, *name, *save = NULL;

	if (!mkdtemp(dir)) {
		perror("kernelfile: mkdtemp");
		return 2;
	}
	names = ks_estrdup(ks_target_names());
	for (name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
		const struct ks_target *t = ks_target_find(name);
		char *file, *found;

		if (!t || !t->ext)
			continue;
		file = ks_easprintf("%s/kernel.%s", dir, t->ext);
		if (ks_file_write_atomic(file, "", 0) < 0)
			return 2;
		found = ks_kernel_path_quiet(dir);
		expect(name, found && strcmp(found, file) == 0);
		unlink(file);
		free(found);
		free(file);
	}
	free(names);
	rmdir(dir);
	return report();
}
