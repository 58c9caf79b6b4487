/*
 * ks_bwrap_compiler.c - a kernel's compiler shut in by bubblewrap, where
 * it runs: it sees the system's folders (/usr, /etc, /opt...), the
 * folders of its search paths, and the folders its command names (the
 * kernel's, the harness's include folders, the output's, the only one it
 * may write), with /tmp its own; nothing else of the machine's: no home,
 * no other candidate, no file of the user's.  A kernel's source can make
 * its compiler read any file it sees (#include, the assembler's .incbin)
 * and so print it into a build's log, a bench's output and the model's
 * next prompt: what it cannot see it cannot read.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_proc.h"

/* the system's folders, seen read-only (a link, such as /bin -> usr/bin, stays a link) */
static const char *const system_dirs[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/sys", NULL };
/*
 * Of /etc, what compilers and the loader read: not the whole of it, whose
 * files (/etc/shadow to root, a service's keys) a build has no need of.
 */
static const char *const etc_files[] = { "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf",
	"/etc/ld.so.conf.d", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime", "/etc/os-release",
	"/etc/debian_version", "/etc/perl", "/etc/OpenCL", NULL };
/* variables that name the compiler's own folders, as lists of paths */
static const char *const path_vars[] = { "PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
	"CPLUS_INCLUDE_PATH", "CUDA_HOME", "CUDA_PATH", "HIP_PATH", "ROCM_PATH", "HIP_CLANG_PATH",
	"HIP_DEVICE_LIB_PATH", "HSA_PATH", NULL };
/* options whose next word is a folder to read */
static const char *const dir_options[] = { "-isystem", "-iquote", "-idirafter", "-I", "-L", NULL };

static void
add3(char ***out, size_t *n, const char *a, const char *b, const char *c)
{
	ks_argv_add(out, n, ks_estrdup(a));
	ks_argv_add(out, n, ks_estrdup(b));
	if (c)
		ks_argv_add(out, n, ks_estrdup(c));
}

/* 1 when the real path is in one of the system's folders, which are seen whole already */
static int
in_system(const char *real)
{
	for (const char *const *d = system_dirs; *d; d++) {
		char *dr = realpath(*d, NULL);
		size_t len = dr ? strlen(dr) : 0;
		int in = dr && strncmp(real, dr, len) == 0 && (real[len] == '/' || !real[len]);

		free(dr);
		if (in)
			return 1;
	}
	return 0;
}

/*
 * The folder at path seen read-only, where it really is and by the path
 * given (a link on the way, as /usr/local/cuda, would not be there); not
 * again when the system's folders hold it.
 */
static void
see(char ***out, size_t *n, const char *path)
{
	char *real;

	if (!path || !*path || !(real = realpath(path, NULL)))
		return;
	if (!in_system(real)) {
		add3(out, n, "--ro-bind-try", real, real);
		if (strcmp(real, path) != 0)
			add3(out, n, "--ro-bind-try", real, path);
	}
	free(real);
}

/* the folder that holds file (which may not exist yet), as a real path; allocated, or NULL */
static char *
folder_of(const char *file)
{
	char *copy = ks_estrdup(file), *slash = strrchr(copy, '/'), *real;

	if (!slash)
		real = realpath(".", NULL);
	else {
		*slash = '\0';
		real = realpath(*copy ? copy : "/", NULL);
	}
	free(copy);
	return real;
}

char *
ks_compiler_home(const char *prog)
{
	char *found = strchr(prog, '/') ? ks_estrdup(prog) : ks_find_in_path(prog), *real = found ? realpath(found, NULL) : NULL;

	free(found);
	for (int up = 0; real && up < 2; up++) {
		char *slash = strrchr(real, '/');

		if (slash && slash > real)
			*slash = '\0';
	}
	return real;
}

static void
see_path_lists(char ***out, size_t *n)
{
	for (const char *const *v = path_vars; *v; v++) {
		const char *list = getenv(*v);

		for (const char *p = list; p && *p; ) {
			size_t len = strcspn(p, ":");
			char *dir = ks_estrndup(p, len);

			see(out, n, dir);
			free(dir);
			p += len + (p[len] == ':');
		}
	}
}

/*
 * What the command's words name: each option's folder (-I, -L,
 * -isystem...) and the folder of each input (a source or an object that
 * is there), read-only; the output's folder (-o), writable, added to
 * *writable.
 */
/* 1 when the word names a source or an object by its suffix (a word such as "cu", after -x, does not) */
static int
source_like(const char *word)
{
	static const char *const suffixes[] = { ".c", ".cc", ".cpp", ".cxx", ".cu", ".hip", ".o", ".a", ".so", NULL };
	const char *dot = strrchr(word, '.');

	return dot && !strchr(dot, '/') && ks_str_listed(dot, suffixes);
}

static void
see_arguments(char *const *argv, char ***out, size_t *n, char ***writable, size_t *nw)
{
	for (size_t i = 1; argv[i]; i++) {
		const char *a = argv[i], *dir = NULL;
		struct stat st;
		char *real;

		if (strcmp(a, "-o") == 0 && argv[i + 1]) {
			if ((real = folder_of(argv[++i])))
				ks_argv_add(writable, nw, real);
			continue;
		}
		for (const char *const *o = dir_options; *o && !dir && a[0] == '-'; o++) {
			if (strcmp(a, *o) == 0 && argv[i + 1])
				dir = argv[++i];
			else if (strlen(*o) == 2 && strncmp(a, *o, 2) == 0 && a[2])
				dir = a + 2;	/* -I/path, -L/path */
		}
		if (dir)
			see(out, n, dir);
		else if (a[0] != '-' && source_like(a) && stat(a, &st) == 0 && S_ISREG(st.st_mode) &&
		    (real = folder_of(a))) {
			/* its folder: a harness source includes the headers beside it ("ks_judge.h") */
			see(out, n, real);
			free(real);
		}
	}
}

/* 1 when bubblewrap runs here with what the compiler's sandbox asks of it; asked once */
static int
works(void)
{
	static int known = -1;

	if (known < 0) {
		char *argv[] = { "bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
			"--unshare-net", "--unshare-pid", "--die-with-parent", "true", NULL };
		struct ks_proc_opts o = { .timeout_s = 20 };
		struct ks_proc_result r;
		char *found = ks_find_in_path("bwrap");

		known = found && ks_proc_run(argv, &o, &r) == 0 && r.exited && r.status == 0;
		free(found);
	}
	return known;
}

char **
ks_sandbox_wrap_compiler(char *const *argv)
{
	const char *want = ks_sandbox_mode();
	char **out = NULL, **writable = NULL, cwd[PATH_MAX];
	size_t n = 0, nw = 0;

	if (!want)
		return NULL;
	if (strcmp(want, "basic") == 0 || (!*want && !works())) {
		for (char *const *a = argv; *a; a++)
			ks_argv_add(&out, &n, ks_estrdup(*a));
		return out;
	}
	if (!works()) {
		ks_warnx("KS_SANDBOX=bwrap, but bwrap does not run here (install bubblewrap; it needs namespaces)");
		return NULL;
	}
	if (!getcwd(cwd, sizeof cwd)) {
		ks_warn("cannot read the current folder");
		return NULL;
	}
	add3(&out, &n, "bwrap", "--unshare-net", "--unshare-pid");
	add3(&out, &n, "--die-with-parent", "--dev", "/dev");
	add3(&out, &n, "--proc", "/proc", NULL);
	add3(&out, &n, "--tmpfs", "/tmp", NULL);
	add3(&out, &n, "--dir", cwd, NULL);
	for (const char *const *d = system_dirs; *d; d++) {
		struct stat st;
		char link[PATH_MAX];
		ssize_t len;

		if (lstat(*d, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode) && (len = readlink(*d, link, sizeof link - 1)) > 0) {
			link[len] = '\0';
			add3(&out, &n, "--symlink", link, *d);
		} else {
			add3(&out, &n, "--ro-bind", *d, *d);
		}
	}
	for (const char *const *e = etc_files; *e; e++)
		add3(&out, &n, "--ro-bind-try", *e, *e);
	see_path_lists(&out, &n);
	char *home = ks_compiler_home(argv[0]);

	see(&out, &n, home);
	free(home);
	see_arguments(argv, &out, &n, &writable, &nw);
	for (size_t i = 0; i < nw; i++) {
		add3(&out, &n, "--bind", writable[i], writable[i]);
		free(writable[i]);
	}
	free(writable);
	add3(&out, &n, "--chdir", cwd, "--");
	for (char *const *a = argv; *a; a++)
		ks_argv_add(&out, &n, ks_estrdup(*a));
	return out;
}
