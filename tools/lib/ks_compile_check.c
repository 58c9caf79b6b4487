/*
 * ks_compile_check.c - what the compiler makes of a kernel, checked
 * before it runs: the source as the compiler reads it (preprocessed, so
 * that macros and token pasting hide nothing) and the object the worker
 * is linked from (what it imports, defines, and which host instructions
 * it holds).  The text's own check is ks_static.c's.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_build.h"

/* 1 when path names a file at or under folder dir (both made real first; dir already real) */
static int
under(const char *path, const char *dir)
{
	char *real = realpath(path, NULL);
	size_t n = strlen(dir);
	int in = real && strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0');

	free(real);
	return in;
}

/* 1 for the files nvcc's front end writes and names in its host pass (tmpxft_..._kernel.cudafe1.cpp, .stub.c) */
static int
nvcc_own(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return strncmp(base, "tmpxft_", 7) == 0 && strstr(base, ".cudafe1.") != NULL;
}

/*
 * NULL when the preprocessor's line marker for file (with flags, the rest
 * of the marker) names what a kernel may include: a system header (flag
 * 3), the compiler's own headers, the harness's folders (the kernels
 * folder); else why not.  Another candidate's kernel, a file of the
 * user's, /dev/zero: a kernel is one file.
 */
static char *
include_refusal(const struct ks_compile_job *j, const char *file, const char *flags, const char *kdir,
    const char *cchome)
{
	char *vendor = ks_static_vendor_header(file);

	if (vendor)
		return vendor;
	if (strcmp(file, j->kernel) == 0 || file[0] == '<' || strstr(flags, " 3") || nvcc_own(file) ||
	    (kdir && under(file, kdir)) || (cchome && under(file, cchome)))
		return NULL;
	return ks_easprintf("includes '%.200s', which is neither a system header, the compiler's own nor the "
	    "harness's: a kernel is one file", file);
}

/*
 * The lines of the preprocessor's diagnostics (err, a file) that name the
 * kernel's own file or a harness's header (under kdir) as where they
 * are: what it says of them (a missing header, a shim's #error), and
 * nothing it quotes of any other file.  Allocated.
 */
static char *
kernel_lines(const char *err, const char *kernel, const char *kdir)
{
	char *text = ks_file_read(err, NULL);
	struct ks_buf b = { 0 };
	size_t n = strlen(kernel);

	ks_buf_add(&b, "", 0);
	for (char *line = text, *save = NULL, *l; text && b.len < 2000 && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char *where = ks_estrndup(l, strcspn(l, ":"));

		if ((strncmp(l, kernel, n) == 0 && l[n] == ':') || (kdir && l[strlen(where)] == ':' && under(where, kdir)))
			ks_buf_printf(&b, "%s\n", l);
		free(where);
	}
	free(text);
	return b.s;
}

/* set when nvcc's host pass failed on the kernel's own mistake: its object, should it be made, is refused */
static int host_pass_unread;

/*
 * 1 when the compiler's diagnostics (err, a file) place an error in a file
 * other than the kernel, the harness's or the system's (/usr): a file the
 * kernel included, whose text the diagnostics would quote.  Lines
 * "file:12:3: error" (gcc) and "file(12): error" (cudafe).
 */
static int
foreign_errors(const char *err, const struct ks_compile_job *j, const char *kdir)
{
	char *text = ks_file_read(err, NULL);
	int foreign = 0;

	for (char *line = text, *save = NULL, *l; text && !foreign && (l = strtok_r(line, "\n", &save)); line = NULL) {
		static const char *const kinds[] = { ": error", ": fatal error", ": catastrophic error", NULL };
		char *at = NULL, *file;

		for (const char *const *k = kinds; *k && !at; k++)
			at = strstr(l, *k);
		if (!at)
			continue;
		file = ks_estrndup(l, (size_t)(at - l));
		/* the location's end: "(12)" or ":12:3" or ":12" */
		char *end = file + strlen(file);

		while (end > file && (isdigit((unsigned char)end[-1]) || end[-1] == ':' || end[-1] == '(' || end[-1] == ')'))
			end--;
		*end = '\0';
		foreign = *file && strcmp(file, j->kernel) != 0 && !(kdir && under(file, kdir)) && !under(file, "/usr");
		free(file);
	}
	free(text);
	return foreign;
}

/*
 * What the compiler reads of the kernel: its preprocessed text, each line
 * of the kernel's own file at its line number (line markers say whose a
 * line is), so that token pasting and macros hide nothing from the
 * static check.  NULL, *why set, when the kernel includes what it may not
 * or the preprocessor failed (a kernel the check cannot read is not built).
 */
static char *
expanded(const struct ks_compile_job *j, const char *dir, int host_pass, char **why)
{
	size_t n;
	char **argv = ks_compile_options(j, &n), *out = ks_easprintf("%s/expanded%d.ii", dir, host_pass), *text;
	char *err = ks_easprintf("%s/expanded%d.err", dir, host_pass);
	struct ks_proc_opts o = { 0 };
	struct ks_proc_result r = { 0 };
	struct ks_buf b = { 0 };
	int mine = 1;

	if (host_pass) {
		/* nvcc -E is the device pass alone (__CUDA_ARCH__ defined); -cuda writes what the host compiler reads */
		ks_argv_add(&argv, &n, ks_estrdup("-cuda"));
		ks_argv_add(&argv, &n, ks_estrdup("-o"));
		ks_argv_add(&argv, &n, ks_estrdup(out));
	} else {
		ks_argv_add(&argv, &n, ks_estrdup("-E"));
		o.out_path = out;
	}
	ks_argv_add(&argv, &n, ks_estrdup(j->kernel));
	o.err_path = err;
	o.timeout_s = ks_compile_limit_s(j->prob);
	o.sandbox = 1;
	o.fsize_mb = 1024;
	o.mem_mb = ks_compile_mem_mb(j->prob);
	char **boxed = ks_sandbox_wrap_compiler(argv);

	text = boxed && ks_proc_run(boxed, &o, &r) == 0 && (ks_sandbox_signal_fix(boxed, &r), r.exited) &&
	    r.status == 0 ? ks_file_read(out, NULL) : NULL;
	ks_argv_free(boxed);
	ks_argv_free(argv);
	free(out);
	char *kdir = ks_kernels_dir(), *kreal = realpath(kdir, NULL);

	free(kdir);
	if (!text && host_pass && r.exited && !foreign_errors(err, j, kreal)) {
		/*
		 * nvcc's host pass is its front end whole: a kernel's own mistake fails it, and the build
		 * that follows says so in full (build_failed, as any compiler error); a kernel that then
		 * compiles all the same is refused by the object's check
		 */
		host_pass_unread = 1;
		free(err);
		free(kreal);
		return NULL;
	}
	if (!text) {
		char *said = kernel_lines(err, j->kernel, kreal);

		*why = ks_easprintf("could not be preprocessed (%s), so the static check cannot read it%s%s",
		    r.timed_out ? "the preprocessor ran past its time limit" : r.exited ? "the preprocessor failed" :
		    "the preprocessor was killed, past its memory or file-size limit", *said ? ":\n" : "", said);
		free(said);
		free(err);
		free(kreal);
		return NULL;
	}
	free(err);
	/* each of the kernel's lines in its place: markers may set the number back */
	char **at = NULL, *cchome = ks_compiler_home(ks_target_compiler(j->target)), *passed = NULL;
	long cur = 1, max = 0;
	for (char *line = text, *next; *line && !*why; line = next) {
		long num;
		int used;
		char file[4096];

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		/* # 12 "kernel.cu" 2, or #line 12 "kernel.cu" */
		if ((sscanf(line, "# %ld \"%4095[^\"]\"%n", &num, file, &used) == 2 ||
		    sscanf(line, "#line %ld \"%4095[^\"]\"%n", &num, file, &used) == 2)) {
			mine = strcmp(file, j->kernel) == 0;
			cur = num > 0 && num < 10000000 ? num : 1;
			/* markers name the same file many times over: one that passed is not resolved again */
			if (!passed || strcmp(passed, file) != 0) {
				*why = include_refusal(j, file, line + used, kreal, cchome);
				free(passed);
				passed = *why ? NULL : ks_estrdup(file);
			}
			continue;
		}
		if (mine && *line) {
			if (cur > max) {
				at = ks_erealloc(at, (size_t)(cur + 1) * sizeof *at);
				for (long k = max + 1; k <= cur; k++)
					at[k] = NULL;
				max = cur;
			}
			char *joined = ks_easprintf("%s%s%s", at[cur] ? at[cur] : "", at[cur] ? " " : "", line);

			free(at[cur]);
			at[cur] = joined;
		}
		cur++;
	}
	ks_buf_add(&b, "", 0);
	for (long k = 1; k <= max; k++) {
		ks_buf_printf(&b, "%s\n", at[k] ? at[k] : "");
		free(at[k]);
	}
	free(at);
	free(text);
	free(kreal);
	free(cchome);
	free(passed);
	if (*why) {
		ks_buf_free(&b);
		return NULL;
	}
	return b.s;
}

/* 1 when name is allowed: the target's imports or the problem's "allowed_symbols". */
static int
import_allowed(const struct ks_compile_job *j, const char *name)
{
	const cJSON *a;

	for (const char *const *i = j->target->imports; *i; i++)
		if (strcmp(*i, name) == 0)
			return 1;
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(j->prob->json, "allowed_symbols"))
		if (cJSON_IsString(a) && strcmp(a->valuestring, name) == 0)
			return 1;
	return 0;
}

/*
 * Host instructions that read a clock or enter the operating system
 * without a call a name shows (inline assembly, a builtin): looked for in
 * the object's host code, disassembled (objdump -d).  A GPU kernel's device
 * code is not host code, and keeps its own inline assembly.
 */
static char *
host_instructions_refusal(const char *obj)
{
	static const char *const banned[] = { "rdtsc", "rdtscp", "rdpmc", "syscall", "sysenter", "int", NULL };
	char *argv[] = { "objdump", "-d", "--no-show-raw-insn", (char *)obj, NULL };
	char *text = ks_proc_capture(argv, 60), *why = NULL;

	for (char *line = text, *save = NULL, *l; text && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char *tab = strchr(l, '\t'), mnem[32];

		/* "  10c:\trdtsc", "  11e:\tint    $0x80" */
		if (!tab || sscanf(tab + 1, "%31s", mnem) != 1)
			continue;
		for (const char *const *b = banned; *b && !why; b++)
			if (strcmp(mnem, *b) == 0 && (strcmp(*b, "int") != 0 || strstr(tab, "$0x80")))
				why = ks_easprintf("executes '%s' in its host code: a clock or a system call that no name shows "
				    "(inline assembly or a builtin); the harness does the timing and the talking to the system",
				    strcmp(*b, "int") == 0 ? "int $0x80" : *b);
	}
	free(text);
	return why;
}

/* 1 when name is the entry point: as C names it, or C++'s mangling of it (_Z6fp8_mm...) */
static int
is_entry(const char *name, const char *entry)
{
	size_t n = strlen(entry);
	char *end;

	if (strcmp(name, entry) == 0)
		return 1;
	if (strncmp(name, "_Z", 2) != 0 || strtoul(name + 2, &end, 10) != n)
		return 0;
	return strncmp(end, entry, n) == 0;
}

/*
 * What a GPU compiler defines in every object with device code, not the
 * kernel: the C++ personality routine's reference (nvcc's host side), and
 * the constructor that registers the device code with the runtime
 * (nvcc's, hipcc's), the one entry of .init_array such an object has.
 */
static const char *const compiler_globals[] = { "DW.ref.__gxx_personality_v0", NULL };
static const char *const registration_ctors[] = { "_ZL24__sti____cudaRegisterAllv", "__hip_module_ctor", NULL };

/* 1 for a target whose kernels hold device code, compiled by a GPU compiler */
static int
device_code(const struct ks_target *t)
{
	return strcmp(t->device, "nvidia") == 0 || strcmp(t->device, "amd") == 0;
}

/* the name of the function at offset addend of section sect in obj (readelf -sW), or NULL; allocated */
static char *
function_at(const char *obj, const char *sect, unsigned long addend)
{
	char *sh[] = { "readelf", "-SW", (char *)obj, NULL }, *sy[] = { "readelf", "-sW", (char *)obj, NULL };
	char *sections = ks_proc_capture(sh, 60), *symbols = NULL, *found = NULL, name[256];
	long index = -1;

	for (char *line = sections, *save = NULL, *l; sections && index < 0 && (l = strtok_r(line, "\n", &save));
	    line = NULL) {
		long i;

		/* "  [ 2] .text             PROGBITS ..." */
		if (sscanf(l, " [%ld] %255s", &i, name) == 2 && strcmp(name, sect) == 0)
			index = i;
	}
	if (index >= 0 && (symbols = ks_proc_capture(sy, 60)))
		for (char *line = symbols, *save = NULL, *l; !found && (l = strtok_r(line, "\n", &save)); line = NULL) {
			unsigned long value;
			char type[32], ndx[32];

			/* "    19: 000000000000038c   147 FUNC    LOCAL  DEFAULT    2 _ZL24__sti____cudaRegisterAllv" */
			if (sscanf(l, " %*[0-9]: %lx %*s %31s %*s %*s %31s %255s", &value, type, ndx, name) == 4 &&
			    strcmp(type, "FUNC") == 0 && strtol(ndx, NULL, 10) == index && value == addend)
				found = ks_estrdup(name);
		}
	free(sections);
	free(symbols);
	return found;
}

/*
 * NULL when .init_array holds only the compiler's registration of device
 * code (at most one entry), else why not.  readelf -rW gives each entry
 * as "SYMBOL + ADDEND", the symbol often a section (".text + 38c").
 */
static char *
init_array_refusal(const char *obj)
{
	char *rd[] = { "readelf", "-rW", (char *)obj, NULL }, *text = ks_proc_capture(rd, 60), *why = NULL;
	int in = 0, entries = 0;

	for (char *line = text, *save = NULL, *l; text && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char target[256], *fn;
		unsigned long addend = 0;

		if (strncmp(l, "Relocation section", 18) == 0) {
			in = strstr(l, "'.rela.init_array'") != NULL;
			continue;
		}
		/* "0000000000000000  0000000200000001 R_X86_64_64  0000000000000000 .text + 38c" */
		if (!in || sscanf(l, "%*x %*x %*s %*x %255s + %lx", target, &addend) < 1)
			continue;
		entries++;
		fn = target[0] == '.' ? function_at(obj, target, addend) : ks_estrdup(target);
		if (entries > 1 || !fn || !ks_str_listed(fn, registration_ctors))
			why = ks_easprintf("has a constructor (%s in .init_array): code that runs before the call is not "
			    "allowed", fn ? fn : target);
		free(fn);
	}
	free(text);
	return why;
}

/*
 * What the kernel's object defines for others (nm --defined-only -g): the
 * entry point and nothing else.  A kernel that defined qsort, strtod or
 * memcpy would take the place of the C library's in every call of its
 * process; a constructor (.init_array, .ctors) or an IFUNC resolver would
 * run before the call.  Static functions and data are the kernel's own
 * business.  "allowed_symbols" widens what it may import, never this.
 */
static char *
definitions_refusal(const struct ks_compile_job *j, const char *obj)
{
	char *nm[] = { "nm", "--defined-only", (char *)obj, NULL };
	char *syms = ks_proc_capture(nm, 60), *why = NULL;

	for (char *line = syms, *save = NULL, *l; syms && !why && (l = strtok_r(line, "\n", &save)); line = NULL) {
		char type, name[512];

		/* "0000000000000490 T sgemm" */
		if (sscanf(l, "%*s %c %511s", &type, name) != 2)
			continue;
		if (type == 'i')
			why = ks_easprintf("defines '%s' as an indirect function (IFUNC), whose resolver would run before "
			    "main: define the entry point '%s' only", name, j->prob->entry_name);
		else if (((isupper((unsigned char)type) && type != 'N') || type == 'u') && !is_entry(name, j->prob->entry_name) &&
		    !(device_code(j->target) && ks_str_listed(name, compiler_globals)))
			why = ks_easprintf("defines the global symbol '%s': a kernel's object may define its entry point "
			    "'%s' and nothing else (make '%s' static), so that it cannot stand in for a function of the C "
			    "library or of the harness", name, j->prob->entry_name, name);
	}
	if (!why && syms)
		why = ks_compile_sections_refusal(j, obj);
	/* a GPU object's .init_array registers its device code: that one entry, and no other */
	if (!why && syms && device_code(j->target))
		why = init_array_refusal(obj);
	free(syms);
	return why;
}

/*
 * The static check on the kernel's object, the one the worker is linked
 * from: the symbols it imports (nm -u), each against the target's list (a
 * name the text hides, a macro, token pasting, a call through a name built
 * at run time, still needs the symbol); host instructions that read a
 * clock or enter the kernel; what it defines.  The reason to refuse it, or NULL.
 */
char *
ks_compile_object_refusal(const struct ks_compile_job *j, const char *obj)
{
	char *nm[] = { "nm", "-u", (char *)obj, NULL };
	char *why = NULL, *syms = ks_proc_capture(nm, 60);

	for (char *line = syms, *save = NULL, *tok; syms && !why && (tok = strtok_r(line, "\n", &save)); line = NULL) {
		char *name = strrchr(tok, ' ');

		name = name ? name + 1 : tok;
		name[strcspn(name, "@")] = '\0';	/* a versioned name: its base */
		if (*name && !import_allowed(j, name))
			why = ks_easprintf("imports '%s', which a kernel for target %s may not use (it is no compute: "
			    "files, threads, clocks, streams, code loading or patching); a problem that needs it lists "
			    "it in problem.json \"allowed_symbols\"", name, j->target->name);
	}
	if (!why && host_pass_unread)
		why = ks_estrdup("compiled, though nvcc's host pass over it failed: its host code could not be read by the "
		    "static check");
	if (!why && syms)
		why = host_instructions_refusal(obj);
	if (!why && syms && device_code(j->target))
		why = ks_compile_registration_refusal(obj);
	if (!why && syms)
		why = definitions_refusal(j, obj);
	free(syms);
	return why;
}

static int
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Replaces each whole identifier word of text that is in words (a list of " name ") by spaces. */
static void
blank_words(char *text, const char *words)
{
	for (char *p = text; *p; ) {
		size_t n;

		if (!ident_char(*p) || (p > text && ident_char(p[-1]))) {
			p++;
			continue;
		}
		for (n = 0; ident_char(p[n]); n++)
			;
		char *w = ks_easprintf(" %.*s ", (int)n, p);
		if (strstr(words, w))
			memset(p, ' ', n);
		free(w);
		p += n;
	}
}

/*
 * The ks_ names that the target's own include folders (the HIP-on-CUDA
 * shims) put into a kernel's expansion, so that the static check does not
 * take the shims' names for the kernel's: each name found in those files,
 * exactly.  A kernel that pastes such a name gains nothing: they are error
 * markers, not the harness's functions.
 */
static void
blank_shim_names(const struct ks_compile_job *j, char *text)
{
	char *kdir = ks_kernels_dir();
	struct ks_buf words = { 0 };

	ks_buf_add(&words, " ", 1);
	for (const char *const *i = j->target->includes; *i; i++) {
		char *dir = ks_easprintf("%s/common/%s", kdir, *i);
		char *cmd[] = { "grep", "-rhoE", "\\bks_[A-Za-z0-9_]+", dir, NULL };
		char *found = ks_proc_capture(cmd, 30);

		for (char *save = NULL, *w = found ? strtok_r(found, "\n", &save) : NULL; w; w = strtok_r(NULL, "\n", &save))
			ks_buf_printf(&words, "%s ", w);
		free(found);
		free(dir);
	}
	if (words.len > 1)
		blank_words(text, words.s);
	ks_buf_free(&words);
	free(kdir);
}

char *
ks_compile_refusal(const struct ks_compile_job *j)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = ks_easprintf("%s/ks-check.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp"), *text, *why = NULL;
	const cJSON *forbidden = cJSON_GetObjectItemCaseSensitive(j->prob->json, "forbidden");

	/* no compiler: the build itself says so, once */
	if (!ks_compiler_found(j->target)) {
		free(dir);
		return NULL;
	}
	if (!mkdtemp(dir)) {
		ks_warn("cannot make a temporary directory '%s'", dir);
		free(dir);
		return NULL;
	}
	/*
	 * The compiler's log is there while it compiles: so it is while the check reads, or a kernel's
	 * #if __has_include("build.log") would show the check one text and the compiler another
	 */
	if (ks_file_write_atomic(j->log, "", 0) < 0) {
		ks_remove_tree(dir);
		free(dir);
		return ks_easprintf("could not be checked: '%s' cannot be written", j->log);
	}
	/* what each pass of the compiler reads: nvcc's device pass and its host pass differ (__CUDA_ARCH__) */
	for (int host = 0; !why && host <= (strcmp(j->target->compiler, "nvcc") == 0); host++)
		if ((text = expanded(j, dir, host, &why))) {
			blank_shim_names(j, text);
			why = ks_static_check_expanded(text, forbidden, !j->target->host_asm ? KS_ASM_REFUSED_CPU :
			    host ? KS_ASM_REFUSED_HOST : KS_ASM_ALLOWED);
			free(text);
		}
	ks_remove_tree(dir);
	free(dir);
	return why;
}
