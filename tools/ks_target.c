/* ks_target.c - the build targets and their flags, defined in one place. */
#include <string.h>

#include "ks.h"

static const char *const cpu_flags[] = {
	"-std=c11", "-O3", "-march=native", "-fopenmp", "-Wall", "-Wextra", NULL
};
static const char *const cpu_libs[] = { "-lm", NULL };

static const struct ks_target targets[] = {
	{ "cpu", "c", "cc", "KS_CC", cpu_flags, cpu_libs, "cpu" },
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
