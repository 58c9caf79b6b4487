/*
 * ks-select - pick the base and the reference kernel of a generation
 * from every finished kernel of the generations before it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

static int
select_gen(const char *dir, const char *out)
{
	struct ks_cand *c = NULL;
	struct ks_run run;
	const char *provider;
	char *root = NULL, *path = NULL;
	cJSON *sel = NULL;
	size_t n = 0;
	long gen;
	int rc = 1;

	if (ks_gen_dir_parse(dir, &root, &gen) < 0)
		return 1;
	if (ks_run_load(root, &run) < 0)
		goto out;
	if (gen == 0) {
		ks_warnx("'%s' is generation 0, the seed kernels: selection starts at generation 1", dir);
		goto out_run;
	}
	if (!(provider = ks_llm_provider()))
		goto out_run;
	if (ks_cands_load(root, gen, &c, &n) < 0)
		goto out_run;
	if (ks_offline_select(c, n, &sel) < 0) {
		ks_warnx("no correct kernel before generation %ld in '%s' to select from", gen, root);
		goto out_run;
	}
	cJSON_AddStringToObject(sel, "model", provider);
	path = out ? ks_estrdup(out) : ks_easprintf("%s/select.json", dir);
	if (ks_mkdir_p(dir) == 0 && ks_json_save(path, sel) == 0)
		rc = 0;
out_run:
	ks_run_free(&run);
out:
	cJSON_Delete(sel);
	ks_cands_free(c, n);
	free(path);
	free(root);
	return rc;
}

int
main(int argc, char *argv[])
{
	const char *out, *dir;
	int rval;

	dir = ks_args_dir_out(argc, argv, "pop/gen-NNN",
	    "  Picks the base and the reference kernel of generation NNN from the\n"
	    "  finished kernels of the generations before it, and writes\n"
	    "  pop/gen-NNN/select.json: {\"base\", \"reference\", \"reason\", \"model\"}.\n", &out);
	rval = select_gen(dir, out);
	if (ks_fclose_stdout() < 0)
		rval = 1;
	return rval;
}
