/* ks_util.c - program name, error lines, memory and string helpers. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ks_core.h"

const char *ks_progname = "ks";

void
ks_setprogname(const char *argv0)
{
	/* cJSON allocates through ks_emalloc: running out of memory ends the tool with one line, as everywhere */
	cJSON_Hooks hooks = { ks_emalloc, free };
	const char *slash = strrchr(argv0, '/');

	ks_progname = slash ? slash + 1 : argv0;
	cJSON_InitHooks(&hooks);
}

/* whether a line of progress stands unfinished on the terminal (ks_progress) */
static int progress_open;

static void
vwarn_common(const char *fmt, va_list ap, int err)
{
	/* a message starts a line of its own, below a line of progress */
	if (progress_open) {
		fputc('\n', stderr);
		progress_open = 0;
	}
	fprintf(stderr, "%s: ", ks_progname);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void
ks_warn(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(fmt, ap, err);
	va_end(ap);
}

void
ks_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(fmt, ap, 0);
	va_end(ap);
}

void
ks_info(const char *fmt, ...)
{
	va_list ap;

	if (ks_quiet())
		return;
	va_start(ap, fmt);
	vwarn_common(fmt, ap, 0);
	va_end(ap);
}

double
ks_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
ks_quiet(void)
{
	const char *quiet = getenv("KS_QUIET");

	return quiet && *quiet && strcmp(quiet, "0") != 0;
}

int
ks_progress_off(void)
{
	const char *p = getenv("KS_PROGRESS");

	return ks_quiet() || (p && strcmp(p, "0") == 0);
}

void
ks_progress(const char *fmt, ...)
{
	int tty = isatty(STDERR_FILENO);
	va_list ap;

	if (ks_progress_off())
		return;
	/* a terminal gets one line, rewritten in place; a pipe or a file a line per step */
	fprintf(stderr, tty ? "\r\033[K%s: " : "%s: ", ks_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!tty)
		fputc('\n', stderr);
	progress_open = tty;
	fflush(stderr);
}

void
ks_progress_end(void)
{
	if (progress_open)
		fputc('\n', stderr);
	progress_open = 0;
}

void
ks_die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(fmt, ap, err);
	va_end(ap);
	exit(1);
}

void
ks_diex(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(fmt, ap, 0);
	va_end(ap);
	exit(1);
}

void *
ks_emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		ks_die("cannot allocate %zu bytes", n);
	return p;
}

void *
ks_ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		ks_die("cannot allocate %zu bytes", n * size);
	return p;
}

void *
ks_erealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ks_die("cannot allocate %zu bytes", n);
	return q;
}

char *
ks_estrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		ks_die("cannot allocate %zu bytes", strlen(s) + 1);
	return p;
}

char *
ks_estrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		ks_die("cannot allocate %zu bytes", n + 1);
	return p;
}

int
ks_str_listed(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

char *
ks_easprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ks_diex("cannot format a string");
	s = ks_emalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

int
ks_parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int
ks_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

char *
ks_path_dirname(const char *path)
{
	size_t n = strlen(path);
	char *d;

	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0)
		return ks_estrdup(".");
	while (n > 1 && path[n - 1] == '/')
		n--;
	d = ks_emalloc(n + 1);
	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

const char *
ks_path_basename(const char *path, char *buf, size_t n)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (end - start >= n)
		end = start + n - 1;
	memcpy(buf, path + start, end - start);
	buf[end - start] = '\0';
	return buf;
}

int
ks_fclose_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		ks_warn("cannot write to standard output");
		return -1;
	}
	return 0;
}

void
ks_buf_add(struct ks_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = ks_erealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
ks_buf_puts(struct ks_buf *b, const char *s)
{
	ks_buf_add(b, s, strlen(s));
}

char *
ks_replace_all(const char *text, const char *from, const char *to)
{
	struct ks_buf b = { 0 };
	size_t n = strlen(from);
	const char *p;

	ks_buf_puts(&b, "");
	if (n == 0) {
		ks_buf_puts(&b, text);
		return b.s;
	}
	while ((p = strstr(text, from)) != NULL) {
		ks_buf_add(&b, text, (size_t)(p - text));
		ks_buf_puts(&b, to);
		text = p + n;
	}
	ks_buf_puts(&b, text);
	return b.s;
}

void
ks_buf_printf(struct ks_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s = ks_emalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ks_buf_add(b, s, (size_t)n);
	free(s);
}

void
ks_buf_free(struct ks_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

static _Noreturn void
usage_exit(FILE *f, const char *synopsis, const char *help, int status)
{
	fprintf(f, "usage: %s %s\n%s", ks_progname, synopsis, help);
	exit(status);
}

const char *
ks_args(int argc, char *argv[], const struct ks_args_spec *spec)
{
	char optstring[64];
	int ch, rc;

	ks_setprogname(argv[0]);
	if (argc > 1 && strcmp(argv[1], "--help") == 0)
		usage_exit(stdout, spec->synopsis, spec->help, 0);
	/* (+: getopt stops at the first operand, so that the command's own flags stay its own) */
	snprintf(optstring, sizeof optstring, "%sh%s", spec->command ? "+" : "", spec->flags ? spec->flags : "");
	while ((ch = spec->longopts ? getopt_long(argc, argv, optstring, spec->longopts, NULL) :
	    getopt(argc, argv, optstring)) != -1) {
		if (ch == 'h')
			usage_exit(stdout, spec->synopsis, spec->help, 0);
		if (ch == '?' || !spec->on_flag)
			usage_exit(stderr, spec->synopsis, spec->help, 2);
		if ((rc = spec->on_flag(ch, optarg, spec->arg)) != 0)
			exit(rc);
	}
	if (spec->command) {
		if (argc - optind < 2)
			usage_exit(stderr, spec->synopsis, spec->help, 2);
		*spec->command = argv + optind + 1;
		return argv[optind];
	}
	if (argc - optind < 1 || argc - optind > (spec->second ? 2 : 1))
		usage_exit(stderr, spec->synopsis, spec->help, 2);
	if (spec->second)
		*spec->second = argc - optind == 2 ? argv[optind + 1] : NULL;
	return argv[optind];
}

static int
out_flag(int ch, const char *value, void *arg)
{
	(void)ch;
	*(const char **)arg = value;
	return 0;
}

const char *
ks_args_dir_out(int argc, char *argv[], const char *operand, const char *help, const char **out)
{
	char *synopsis = ks_easprintf("[-o file] %s", operand);
	struct ks_args_spec spec = { synopsis, help, "o:", out_flag, (void *)out, NULL, NULL, NULL };
	const char *dir;

	*out = NULL;
	dir = ks_args(argc, argv, &spec);
	free(synopsis);
	return dir;
}

void
ks_argv_add(char ***argv, size_t *n, char *s)
{
	*argv = ks_erealloc(*argv, (*n + 2) * sizeof **argv);
	(*argv)[(*n)++] = s;
	(*argv)[*n] = NULL;
}

void
ks_argv_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}

long
ks_number_after(const char *s, const char *label)
{
	const char *p = s ? strstr(s, label) : NULL;

	if (!p)
		return -1;
	p += strlen(label);
	while (*p == ' ' || *p == ':' || *p == '=')
		p++;
	return *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : -1;
}

long
ks_number_before(const char *s, const char *label)
{
	const char *p = s ? strstr(s, label) : NULL;

	if (!p || p == s)
		return -1;
	while (p > s && p[-1] == ' ')
		p--;
	while (p > s && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : -1;
}

const char *
ks_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int
ks_env_int(const char *name, long lo, long hi, long dflt, const char *what, long *out)
{
	const char *v = ks_env(name);

	*out = dflt;
	if (!v)
		return 0;
	if (ks_parse_int(v, lo, hi, out) < 0) {
		*out = dflt;
		if (what)
			ks_warnx("%s must be %s, not '%s'", name, what, v);
		else
			ks_warnx("%s must be an integer from %ld to %ld, not '%s'", name, lo, hi, v);
		return -1;
	}
	return 0;
}

int
ks_env_num(const char *name, double lo, double hi, double dflt, const char *what, double *out)
{
	const char *v = ks_env(name);

	*out = dflt;
	if (!v)
		return 0;
	if (ks_parse_double(v, out) < 0 || !(*out >= lo && *out <= hi)) {
		*out = dflt;
		if (what)
			ks_warnx("%s must be %s, not '%s'", name, what, v);
		else
			ks_warnx("%s must be a number from %g to %g, not '%s'", name, lo, hi, v);
		return -1;
	}
	return 0;
}
