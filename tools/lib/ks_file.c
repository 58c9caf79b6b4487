/* ks_file.c - reading files whole, writing them atomically. */
#include <sys/stat.h>

#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_core.h"

/* path's bytes, NUL-terminated (*len without the NUL); NULL, said unless quiet, when it cannot be read */
static char *
file_read(const char *path, size_t *len, int quiet)
{
	struct ks_buf b = { 0 };
	char chunk[65536];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (!quiet)
			ks_warn("cannot open '%s'", path);
		return NULL;
	}
	ks_buf_add(&b, "", 0);
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (!quiet)
				ks_warn("cannot read '%s'", path);
			close(fd);
			ks_buf_free(&b);
			return NULL;
		}
		ks_buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	if (len)
		*len = b.len;
	return b.s;
}

char *
ks_file_read(const char *path, size_t *len)
{
	return file_read(path, len, 0);
}

char *
ks_file_read_quiet(const char *path, size_t *len)
{
	return file_read(path, len, 1);
}

/* Same bytes already there: leave the file, and its mtime, alone. */
static int
same_content(const char *path, const char *data, size_t len)
{
	struct stat st;
	char *old;
	size_t oldlen;
	int same;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len)
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	old = ks_emalloc(len + 1);
	oldlen = fread(old, 1, len + 1, f);
	fclose(f);
	same = oldlen == len && memcmp(old, data, len) == 0;
	free(old);
	return same;
}

static int
write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int
ks_file_write_atomic(const char *path, const char *data, size_t len)
{
	char *dir, *tmp, base[256];
	sigset_t stop, old;
	int fd, dfd, rc = -1;

	if (same_content(path, data, len))
		return 0;
	/*
	 * A signal that stops the run (ks-lock) waits for the file to be in
	 * place or the temporary removed: none is left behind half-written.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	dir = ks_path_dirname(path);
	/* A dot name in the same directory: rename() is atomic only there. */
	tmp = ks_easprintf("%s/.%s.XXXXXX", dir, ks_path_basename(path, base, sizeof base));
	if ((fd = mkstemp(tmp)) < 0) {
		ks_warn("cannot create a temporary file for '%s'", path);
		goto fail;
	}
	if (fchmod(fd, 0644) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		ks_warn("cannot write '%s'", path);
		close(fd);
		unlink(tmp);
		goto fail;
	}
	if (close(fd) < 0) {
		ks_warn("cannot write '%s'", path);
		unlink(tmp);
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		ks_warn("cannot rename '%s' to '%s'", tmp, path);
		unlink(tmp);
		goto fail;
	}
	/* Make the rename itself durable; a failure here loses nothing. */
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
	rc = 0;
fail:
	free(tmp);
	free(dir);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int
ks_file_copy_atomic(const char *from, const char *to)
{
	size_t len;
	char *data = ks_file_read(from, &len);
	int rc;

	if (!data)
		return -1;
	rc = ks_file_write_atomic(to, data, len);
	free(data);
	return rc;
}

int
ks_mkdir_p(const char *path)
{
	char *p = ks_estrdup(path), *s;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			ks_warn("cannot create directory '%s'", p);
			free(p);
			return -1;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	if (!ks_is_dir(path)) {
		ks_warnx("cannot create directory '%s': a file is in the way", path);
		return -1;
	}
	return 0;
}

int
ks_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int
ks_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

int
ks_remove_tree(const char *path)
{
	if (!ks_exists(path))
		return 0;
	/* FTW_PHYS: a symbolic link is removed, never followed */
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		ks_warn("cannot remove '%s'", path);
		return -1;
	}
	return 0;
}

char *
ks_find_in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? ks_estrdup(name) : NULL;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		/* an empty entry is the current directory */
		char *cand = end == p ? ks_easprintf("./%s", name) : ks_easprintf("%.*s/%s", (int)(end - p), p, name);

		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}
