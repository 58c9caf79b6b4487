/*
 * ks_compile_registration.c - what the GPU compilers' registration code
 * in a kernel's object may call.  nvcc and hipcc put a constructor into
 * every object with device code (__sti____cudaRegisterAll,
 * __hip_module_ctor) that registers the device code and takes each device
 * variable's address: an operator& of the variable's class, the kernel's
 * or a header's, runs there, before main and so before the worker's
 * filter.  Code inlined there may compute; it may not call: each call or
 * jump out of a registration function must go to the runtime's
 * registration calls, by name, and none may be indirect.  (A system call
 * instruction there is refused with all host code: ks_compile_check.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

/* the registration functions the compilers write (C++ names for nvcc's static ones) */
static const char *const registration[] = { "_ZL24__sti____cudaRegisterAllv", "_ZL31__nv_cudaEntityRegisterCallbackPPv",
	"_ZL26__cudaUnregisterBinaryUtilv", "__hip_module_ctor", "__hip_module_dtor", NULL };
/* what they may call */
static const char *const runtime_calls[] = { "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd",
	"__cudaUnregisterFatBinary", "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaRegisterManagedVar",
	"__cudaRegisterTexture", "__cudaRegisterSurface", "__cudaInitModule", "____nv_dummy_param_ref", "atexit",
	"__hipRegisterFatBinary", "__hipUnregisterFatBinary", "__hipRegisterFunction", "__hipRegisterVar",
	"__hipRegisterManagedVar", "__hipRegisterSurface", "__hipRegisterTexture", NULL };

/* 1 when the instruction's mnemonic transfers control: call, jmp, and the conditional jumps */
static int
transfers(const char *m)
{
	return strncmp(m, "call", 4) == 0 || m[0] == 'j' || strncmp(m, "loop", 4) == 0;
}

/* 1 when name (a relocation's symbol, "atexit-0x4" read to "atexit") may be called */
static int
callee_allowed(const char *name)
{
	return ks_str_listed(name, runtime_calls) || ks_str_listed(name, registration) ||
	    strncmp(name, "__cudaRegisterLinkedBinary", 26) == 0;
}

/* why a transfer of fn to target, named by no relocation, is refused: when it leaves fn ([start, end]) */
static char *
leaves(const char *fn, unsigned long start, unsigned long end, const unsigned long *targets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (targets[i] < start || targets[i] > end)
			return ks_easprintf("jumps out of the GPU compiler's registration code (%s, to 0x%lx), which runs before "
			    "main: only the runtime's registration calls may be made there", fn, targets[i]);
	return NULL;
}

char *
ks_compile_registration_refusal(const char *obj)
{
	char *argv[] = { "objdump", "-dr", "--no-show-raw-insn", (char *)obj, NULL };
	char *text = ks_proc_capture(argv, 60), *why = NULL, fn[512] = "";
	unsigned long start = 0, last = 0, targets[4096];
	size_t n = 0;
	int in = 0, after_transfer = 0;

	for (char *line = text, *save = NULL, *l; text && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		unsigned long addr, target;
		char mnem[32], op[128], sym[512];

		/* "0000000000000000 <_ZL24__sti____cudaRegisterAllv>:" starts a function, and ends the one before */
		if (sscanf(l, "%lx <%511[^>]>:", &addr, sym) == 2) {
			if (in)
				why = leaves(fn, start, last, targets, n);
			in = ks_str_listed(sym, registration);
			snprintf(fn, sizeof fn, "%s", sym);
			start = last = addr;
			n = 0;
			after_transfer = 0;
			continue;
		}
		if (!in)
			continue;
		/* "\t\t\t8: R_X86_64_PLT32\t__cudaUnregisterFatBinary-0x4": where the transfer before it goes */
		if (sscanf(l, " %lx: R_X86_64_%*s %511s", &addr, sym) == 2) {
			sym[strcspn(sym, "+-")] = '\0';
			if (after_transfer) {
				n--;	/* named: not a jump within the function */
				if (!callee_allowed(sym))
					why = ks_easprintf("calls '%s' from the GPU compiler's registration code (%s), which runs "
					    "before main: only the runtime's registration calls may be made there", sym, fn);
			}
			after_transfer = 0;
			continue;
		}
		/* "  5c:\tjmp    61 <...>", "  3c:\tcall   *%rax" */
		if (sscanf(l, " %lx:\t%31s %127s", &addr, mnem, op) < 2)
			continue;
		last = addr > last ? addr : last;
		after_transfer = 0;
		if (!transfers(mnem))
			continue;
		if (op[0] == '*')
			why = ks_easprintf("makes an indirect %s in the GPU compiler's registration code (%s, at 0x%lx), which "
			    "runs before main", mnem, fn, addr);
		else if (sscanf(op, "%lx", &target) == 1 && n < sizeof targets / sizeof targets[0]) {
			targets[n++] = target;
			after_transfer = 1;
		}
	}
	if (!why && in)
		why = leaves(fn, start, last, targets, n);
	free(text);
	return why;
}
