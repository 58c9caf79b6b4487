/*
 * ks_runner_cache.c - the judge's runner built once, not once a kernel.
 *
 * A build makes two programs: the worker (the call glue and the kernel)
 * and the runner (the harness, the judge, the reference: no kernel).  The
 * runner is the same program for every kernel of a problem on a target,
 * and it is most of a build's compile time (1.6 of 1.9 s of CPU for
 * sgemm's; minutes of hipcc for a GPU problem's); so are the worker's
 * objects but the kernel's (the target's worker code, the call glue),
 * each a GPU compile of its own on a GPU target.  So they are kept, by the
 * SHA-256 of everything its compiler sees: the compiler (its version line,
 * and the file it runs: path, size, time), the command but its -o, the
 * harness's files (ks_harness_sha256), and the environment the compiler
 * is given (ks_env_kept); the kernels folder's path is no part of it.
 * What the compiler printed is kept beside it and goes into the build's
 * log as if it had run, its paths into the kernels folder the build's.
 * Builds started together wait on a lock while the first builds it.  A check of the harness that
 * compiles it (ks_names.c) leaves a mark, by the same kind of key, once it
 * has passed.
 *
 * Where: KS_BUILD_CACHE, or $XDG_CACHE_HOME/kernel-scientist/runners
 * (~/.cache/...); "off" keeps none.  A folder that another user owns, or
 * that others may write, is not used: the runner is the judge, and who
 * may change the folder may change the verdicts.  Under bubblewrap a
 * kernel sees the file system read-only but its own folder, so it can
 * change neither the folder nor a runner in it.  Entries unused for 30
 * days are removed when a new one is written.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_build.h"

#define UNUSED_DAYS	30

/* The cache's folder, made if missing, or NULL (off, or not safe to use: said once). */
static char *
cache_dir(void)
{
	static int said;
	const char *env = getenv("KS_BUILD_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct stat st;
	char *dir;

	if (env && strcmp(env, "off") == 0)
		return NULL;
	if (env && *env)
		dir = ks_estrdup(env);
	else if (xdg && *xdg == '/')
		dir = ks_easprintf("%s/kernel-scientist/runners", xdg);
	else if (home && *home == '/')
		dir = ks_easprintf("%s/.cache/kernel-scientist/runners", home);
	else
		return NULL;
	if (ks_mkdir_p(dir) < 0 || lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		if (!said++)
			ks_warnx("KS_BUILD_CACHE: '%s' is not a folder of this user's that only it may write: "
			    "runners are built, not kept", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

/* The compiler's file: its path (PATH searched), size and time, so that one reinstalled is another. */
static void
hash_compiler(struct ks_hash *h, const char *cc)
{
	char *path = strchr(cc, '/') ? ks_estrdup(cc) : ks_find_in_path(cc), *id;
	struct stat st;

	if (path && stat(path, &st) == 0)
		id = ks_easprintf("%s %lld %lld.%09ld", path, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec);
	else
		id = ks_estrdup(cc);
	ks_hash_str(h, id);
	free(id);
	free(path);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * var ("NAME=value") as the key sees it: a search list (PATH and the
 * like) without the repeats of a folder already in it, which no lookup
 * ever reaches (a setup script sourced twice adds its folders again), so
 * that they do not make another runner.  Allocated.
 */
static char *
env_canonical(const char *var)
{
	static const char *const lists[] = { "PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
		"CPLUS_INCLUDE_PATH", NULL };
	const char *eq = strchr(var, '=');
	size_t len = (size_t)(eq - var), n, kept = 0;
	char *out, *copy, *dir, *rest, **seen;
	const char *const *l;

	for (l = lists; *l && !(strlen(*l) == len && strncmp(var, *l, len) == 0); l++)
		;
	if (!*l)
		return ks_estrdup(var);
	out = ks_ecalloc(strlen(var) + 1, 1);
	memcpy(out, var, len + 1);
	n = len + 1;
	copy = ks_estrdup(eq + 1);
	seen = ks_ecalloc(strlen(copy) + 1, sizeof *seen);
	for (rest = copy; (dir = strsep(&rest, ":"));) {
		size_t i;

		for (i = 0; i < kept && strcmp(seen[i], dir) != 0; i++)
			;
		if (i < kept)
			continue;
		if (kept)
			out[n++] = ':';
		memcpy(out + n, dir, strlen(dir) + 1);
		n += strlen(dir);
		seen[kept++] = dir;
	}
	free(seen);
	free(copy);
	return out;
}

/* The variables the sandbox gives the compiler, in name order, search lists without repeats. */
static void
hash_env(struct ks_hash *h)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **kept;

	for (char **e = environ; *e; e++)
		n++;
	kept = ks_ecalloc(n + 1, sizeof *kept);
	for (char **e = environ; *e; e++)
		if (ks_env_kept(*e))
			kept[k++] = *e;
	qsort(kept, k, sizeof *kept, cmp_str);
	for (size_t i = 0; i < k; i++) {
		char *canon = env_canonical(kept[i]);

		ks_hash_str(h, canon);
		free(canon);
	}
	free(kept);
}

/*
 * A word of the command with the kernels folder's path (dir) in it made
 * KERNELS_MARK: what the compiler reads there is in the harness's hash,
 * so two copies of one kernels folder (a test's, a second checkout's)
 * share their runners.
 */
#define KERNELS_MARK	"<kernels>"

static void
hash_word(struct ks_hash *h, const char *word, const char *dir)
{
	char *w = ks_replace_all(word, dir ? dir : "", KERNELS_MARK);

	ks_hash_str(h, w);
	free(w);
}

char *
ks_runner_cache_key(const char *what, char *const *argv, const char *out, const char *version, const char *harness_sum)
{
	struct ks_hash *h = ks_hash_new();
	char *kdir = ks_kernels_dir();

	ks_hash_str(h, "kernel-scientist 1");
	ks_hash_str(h, what);
	ks_hash_str(h, version);
	ks_hash_str(h, harness_sum);
	hash_compiler(h, argv[0]);
	/* the output's path is the one word of the command that differs from kernel to kernel */
	for (char *const *a = argv; *a; a++) {
		if (strcmp(*a, out) == 0)
			ks_hash_str(h, "-o's file");
		else
			hash_word(h, *a, kdir);
	}
	hash_env(h);
	free(kdir);
	/* what it keeps in its name, so that the folder can be read: runner-..., object-..., names-....ok */
	char *hex = ks_hash_end(h), *key = ks_easprintf("%s-%s", what, hex);

	free(hex);
	return key;
}

/* The cache's file of key: dir/KEY and suffix; NULL where there is no cache (or no key). */
static char *
entry_file(const char *key, const char *suffix)
{
	char *dir = key ? cache_dir() : NULL, *path;

	if (!dir)
		return NULL;
	path = ks_easprintf("%s/%s%s", dir, key, suffix);
	free(dir);
	return path;
}

/*
 * Holds key's build to this process (a lock on key.lock, waited for): the
 * builds of a generation start together under make -j, and the first
 * builds the runner while the others wait and then take it.  -1 where
 * there is no cache or no lock (the build goes on without).
 */
int
ks_runner_cache_lock(const char *key)
{
	char *path = entry_file(key, ".lock");
	int fd;

	if (!path)
		return -1;
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

/*
 * Lets key's build go (fd from ks_runner_cache_lock).  The lock file goes:
 * one who waits on it finds the runner kept, and one who comes later
 * makes a new lock, finds it too, and removes that.
 */
void
ks_runner_cache_unlock(const char *key, int fd)
{
	char *path;

	if (fd < 0)
		return;
	if ((path = entry_file(key, ".lock")))
		unlink(path);
	free(path);
	close(fd);
}

/* The runner made from the cache at out (executable), and what its compiler printed; 1, or 0 when none is kept. */
int
ks_runner_cache_get(const char *key, const char *out, char **printed)
{
	char *bin = entry_file(key, ""), *log, *kept = NULL, *kdir;
	int hit = 0;

	*printed = NULL;
	if (!bin)
		return 0;
	log = entry_file(key, ".log");
	kdir = ks_kernels_dir();
	if (log && ks_exists(bin) && (kept = ks_file_read(log, NULL)) && ks_file_copy_atomic(bin, out) == 0 &&
	    chmod(out, 0755) == 0) {
		hit = 1;
		/* what the compiler printed, its paths into the kernels folder this build's */
		*printed = ks_replace_all(kept, KERNELS_MARK, kdir);
		/* used now: not among the entries that go for want of use */
		utimensat(AT_FDCWD, bin, NULL, 0);
		utimensat(AT_FDCWD, log, NULL, 0);
	} else {
		unlink(out);
	}
	free(kept);
	free(kdir);
	free(bin);
	free(log);
	return hit;
}

/* Removes the entries of the cache unused for UNUSED_DAYS. */
static void
prune(void)
{
	char *dir = cache_dir();
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	time_t old = time(NULL) - (time_t)UNUSED_DAYS * 86400;

	free(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		/* an entry's files are touched together when used, and go one by one */
		if (e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_mtime < old)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* Keeps the runner at out and what its compiler printed, under key; a failure only costs a later build. */
void
ks_runner_cache_put(const char *key, const char *out, const char *printed)
{
	char *bin = entry_file(key, ""), *log, *kdir, *text;

	if (!bin)
		return;
	prune();
	log = entry_file(key, ".log");
	kdir = ks_kernels_dir();
	text = ks_replace_all(printed ? printed : "", kdir, KERNELS_MARK);
	/* the log first: a runner kept is one whose log is there */
	if (log && ks_file_write_atomic(log, text, strlen(text)) == 0)
		ks_file_copy_atomic(out, bin);
	free(text);
	free(kdir);
	free(bin);
	free(log);
}

/* key.ok, the mark of a check passed: 1 when there (touched: used now), else 0 */
int
ks_runner_cache_checked(const char *key)
{
	char *mark = entry_file(key, ".ok");
	int there = mark && ks_exists(mark);

	if (there)
		utimensat(AT_FDCWD, mark, NULL, 0);
	free(mark);
	return there;
}

/* Marks key's check passed; a failure only costs the check again. */
void
ks_runner_cache_check_passed(const char *key)
{
	char *mark = entry_file(key, ".ok");

	if (!mark)
		return;
	prune();
	ks_file_write_atomic(mark, "", 0);
	free(mark);
}
