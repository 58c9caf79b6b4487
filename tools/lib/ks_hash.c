/*
 * ks_hash.c - SHA-256 of what a result was measured on: a kernel's
 * source, the harness's files, a runner.  A record names these hashes, so
 * a result whose files have changed since is known to be stale.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "ks_core.h"

struct ks_hash {
	EVP_MD_CTX *ctx;
};

struct ks_hash *
ks_hash_new(void)
{
	struct ks_hash *h = ks_emalloc(sizeof *h);

	if (!(h->ctx = EVP_MD_CTX_new()) || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1)
		ks_die("cannot start a SHA-256 digest");
	return h;
}

void
ks_hash_add(struct ks_hash *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

/* A string and its NUL: "ab"+"c" and "a"+"bc" differ. */
void
ks_hash_str(struct ks_hash *h, const char *s)
{
	ks_hash_add(h, s, strlen(s) + 1);
}

int
ks_hash_file(struct ks_hash *h, const char *path)
{
	size_t len;
	char *text = ks_file_read(path, &len);

	if (!text)
		return -1;
	ks_hash_add(h, text, len);
	free(text);
	return 0;
}

char *
ks_hash_end(struct ks_hash *h)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	char *hex;

	EVP_DigestFinal_ex(h->ctx, md, &len);
	EVP_MD_CTX_free(h->ctx);
	free(h);
	hex = ks_emalloc(2 * len + 1);
	for (unsigned i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return hex;
}

char *
ks_sha256_file(const char *path)
{
	struct ks_hash *h = ks_hash_new();

	if (ks_hash_file(h, path) < 0) {
		free(ks_hash_end(h));
		return NULL;
	}
	return ks_hash_end(h);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under dir, by name, each as its path and its bytes. */
int
ks_hash_tree(struct ks_hash *h, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		ks_warn("cannot open '%s'", dir);
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			names = ks_erealloc(names, (n + 1) * sizeof *names);
			names[n++] = ks_estrdup(e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *p = ks_easprintf("%s/%s", dir, names[i]);
		struct stat st;

		if (rc == 0 && stat(p, &st) == 0) {
			ks_hash_str(h, names[i]);
			if (S_ISDIR(st.st_mode))
				rc = ks_hash_tree(h, p);
			else if (S_ISREG(st.st_mode))
				rc = ks_hash_file(h, p);
		}
		free(p);
		free(names[i]);
	}
	free(names);
	return rc;
}
