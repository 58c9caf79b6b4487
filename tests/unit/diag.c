/*
 * diag.c - unit tests of ks_compile_for_model (tools/lib/ks_compile.c): the
 * compiler's diagnostics as a model is shown them.  Prints one line per
 * failed case and "N cases, N failed"; exits 1 when any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"
#include "expect.h"

/* nvcc on a kernel.cu whose wgmma does not assemble, as ks-implement's temporary build logs it */
static const char nvcc_log[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z13ks_worker_pady' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z13ks_worker_pady\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 0.865 ms\n"
    "/tmp/ks-implement.HL9MeR/kernel.cu(12): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "      int unused;\n"
    "          ^\n"
    "ptxas info    : Compiling entry function '_Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 30 registers, used 1 barriers, 1024 bytes smem\n"
    "ptxas info    : Compiling entry function '_ZL11ks_gpu_hashPKhmyPy' for 'sm_90a'\n"
    "ptxas info    : Used 12 registers\n"
    "ptxas /tmp/tmpxft_00007e00_00000000-22_kernel.compute_90.ptx, line 41; error   : Instruction 'wgmma.fence' "
    "not supported on .target 'sm_90'\n"
    "ptxas fatal   : Ptx assembly aborted due to errors\n"
    "nvcc -o /tmp/ks-implement.HL9MeR/runner failed\n";

static const char nvcc_shown[] =
    "kernel.cu(12): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "      int unused;\n"
    "          ^\n"
    "ptxas kernel.compute_90.ptx, line 41; error   : Instruction 'wgmma.fence' "
    "not supported on .target 'sm_90'\n"
    "ptxas fatal   : Ptx assembly aborted due to errors\n"
    "nvcc -o runner failed\n"
    "ptxas info    : Compiling entry function '_Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f' for 'sm_90a'\n"
    "ptxas info    : Function properties for _Z12rmsnorm_rowsILi1EEviiPK13__nv_bfloat16S2_PS0_f\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 30 registers, used 1 barriers, 1024 bytes smem\n"
    "(ptxas's report of the harness's own 2 kernels left out)\n";

/* gcc's error with its caret lines, which stay with it */
static const char gcc_log[] =
    "/tmp/ks-implement.a1B2c3/kernel.c: In function 'sgemm':\n"
    "/tmp/ks-implement.a1B2c3/kernel.c:4:18: error: 'undeclared_thing_xyz' undeclared (first use in this function)\n"
    "    4 |         int i0 = undeclared_thing_xyz;\n"
    "      |                  ^~~~~~~~~~~~~~~~~~~~\n"
    "compiler exited with status 1\n";

static const char gcc_shown[] =
    "kernel.c: In function 'sgemm':\n"
    "kernel.c:4:18: error: 'undeclared_thing_xyz' undeclared (first use in this function)\n"
    "    4 |         int i0 = undeclared_thing_xyz;\n"
    "      |                  ^~~~~~~~~~~~~~~~~~~~\n"
    "compiler exited with status 1\n";

static void
shown(const char *what, const char *log, const char *kernel, const char *as, const char *want)
{
	char *got = ks_compile_for_model(log, kernel, as);

	expect(what, strcmp(got, want) == 0);
	if (strcmp(got, want) != 0)
		printf("  got:\n%s  want:\n%s", got, want);
	free(got);
}

int
main(void)
{
	shown("nvcc: the compiler's lines first, the candidate's ptxas report after, the harness's left out", nvcc_log,
	    "/tmp/ks-implement.HL9MeR/kernel.cu", "kernel.cu", nvcc_shown);
	shown("gcc: the error and its caret lines together, no temporary path", gcc_log,
	    "/tmp/ks-implement.a1B2c3/kernel.c", "kernel.c", gcc_shown);
	shown("nothing to say", "", "/tmp/x/kernel.c", "kernel.c", "");
	return report();
}
