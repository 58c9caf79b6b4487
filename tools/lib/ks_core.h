/*
 * ks_core.h - layer 0 of the library: the core: program name, errors,
 * memory, arguments, buffers, files, JSON, hashes, CSV, settings.
 *
 * A header includes only the layer below it (tests/0010-library.bats).
 *
 * Conventions, written once here, for every layer:
 * - Errors: a library function that fails prints one line on stderr,
 *   "prog: what failed 'subject': reason", and returns -1 or NULL; the
 *   caller adds nothing and exits 1.  The ks_e* wrappers die instead.
 * - Ownership: every char * and cJSON * returned by a ks_ function
 *   belongs to the caller (free() or cJSON_Delete()), unless the comment
 *   says it points into an argument; borrowed pointers stay valid as long
 *   as that argument does.
 * - Writes of results go through ks_file_write_atomic(): readers see the
 *   old file or the new one, never a torn one, and an unchanged file keeps
 *   its timestamp so make does not redo the stages after it.
 */
#ifndef KS_CORE_H
#define KS_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>
#include <cJSON.h>

#define KS_VERSION "0.1.0"

/* ks_util.c: program name, errors, memory */
extern const char *ks_progname;
void ks_setprogname(const char *argv0);   /* also points cJSON's allocations at ks_emalloc */
void ks_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* appends strerror(errno) */
void ks_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));  /* progress notes; silent under KS_QUIET */
int ks_quiet(void);    /* KS_QUIET is set (and not 0) */
double ks_monotonic(void);   /* seconds on CLOCK_MONOTONIC */
/*
 * The settings of the environment, one way: ks_env is name's value, NULL
 * when unset or empty; ks_env_int and ks_env_num set *out to it, or to
 * dflt when unset or empty, and return 0; a value that is not a number
 * from lo to hi is said ("NAME must be WHAT, not 'value'", WHAT NULL: "an
 * integer from LO to HI", "a number from LO to HI") and returns -1.
 */
const char *ks_env(const char *name);
int ks_env_int(const char *name, long lo, long hi, long dflt, const char *what, long *out);
int ks_env_num(const char *name, double lo, double hi, double dflt, const char *what, double *out);
/*
 * The whole number right after label in s (spaces, ':' or '=' between:
 * "registers: 40"), or right before it (spaces between: "16 registers",
 * "23616 in the messages"); -1 when label is not in s or no number is there.
 */
long ks_number_after(const char *s, const char *label);
long ks_number_before(const char *s, const char *label);
/*
 * A step of a long stage on stderr ("tool: message"), silent under
 * KS_QUIET or KS_PROGRESS=0 (ks_progress_off): on a terminal one line
 * rewritten in place (ks_progress_end ends it), else a line per step.
 */
int ks_progress_off(void);
void ks_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_progress_end(void);
_Noreturn void ks_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ks_diex(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *ks_emalloc(size_t n);
void *ks_ecalloc(size_t n, size_t size);
void *ks_erealloc(void *p, size_t n);
char *ks_estrdup(const char *s);
char *ks_estrndup(const char *s, size_t n);
int ks_str_listed(const char *s, const char *const *list);   /* 1 when s is one of list's (NULL-ended) */
char *ks_easprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int ks_parse_int(const char *s, long lo, long hi, long *out);   /* 0, or -1 without a message */
int ks_parse_double(const char *s, double *out);                /* 0, or -1 without a message */
char *ks_path_dirname(const char *path);   /* "a/b/" -> "a", "b" -> "." */
const char *ks_path_basename(const char *path, char *buf, size_t n);  /* trailing slashes dropped */
/*
 * The command line of every tool, "tool [flags] operand", in one place:
 * sets ks_progname; -h and --help print "usage: tool synopsis" and help
 * to stdout and exit 0; an unknown flag or a wrong number of operands
 * print them to stderr and exit 2.  Each of the tool's own flags (flags,
 * getopt's syntax) goes to on_flag(ch, optarg, arg), which returns 0, or
 * the exit status after saying what is wrong.  Returns the operand.
 * With command set, the operand is followed by a command and its
 * arguments, which go to *command untouched: flags end at the operand.
 */
struct ks_args_spec {
	const char *synopsis;     /* after the program's name: "[-b] pop" */
	const char *help;         /* the lines after the usage line */
	const char *flags;
	int (*on_flag)(int ch, const char *value, void *arg);
	void *arg;
	const char **second;      /* when set, a second operand may follow: here, else NULL */
	const struct option *longopts;  /* getopt_long's table (its val goes to on_flag); NULL: none */
	char ***command;          /* when set, a command follows the operand: here (ks-lock) */
};
const char *ks_args(int argc, char *argv[], const struct ks_args_spec *spec);
/* The stage tools' "tool [-o file] dir": *out is NULL unless -o names a file. */
const char *ks_args_dir_out(int argc, char *argv[], const char *operand, const char *help, const char **out);
int ks_fclose_stdout(void);   /* 0, or -1 with a message when stdout could not be written */

/* growable string buffer */
struct ks_buf {
	char *s;
	size_t len, cap;
};
void ks_buf_add(struct ks_buf *b, const char *s, size_t n);
void ks_buf_puts(struct ks_buf *b, const char *s);
void ks_buf_printf(struct ks_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ks_buf_free(struct ks_buf *b);
char *ks_replace_all(const char *text, const char *from, const char *to);  /* every from made to; caller frees */

/* ks_file.c: files */
char *ks_file_read(const char *path, size_t *len);  /* NUL-terminated; NULL with a message */
char *ks_file_read_quiet(const char *path, size_t *len);  /* the same, NULL without a word */
int ks_file_write_atomic(const char *path, const char *data, size_t len);
int ks_file_copy_atomic(const char *from, const char *to);
int ks_mkdir_p(const char *path);
int ks_exists(const char *path);
int ks_remove_tree(const char *path);   /* rm -r, links not followed; -1 with a message */
int ks_is_dir(const char *path);

/* ks_json.c: the one way JSON comes in and goes out */
/*
 * what names the text in the error line, which says at which line and column
 * the parse stopped; NULL parses quietly (a model's reply, a provider's body)
 */
cJSON *ks_json_parse(const char *text, size_t len, const char *what);
cJSON *ks_json_load(const char *path);
int ks_json_save(const char *path, const cJSON *v);  /* atomic, byte-stable, newline-terminated */
/*
 * A record that differs from the one at path only in keys (NULL-ended:
 * a duration, what the machine was doing) takes the old values, so that
 * saving it keeps the file's bytes and mtime, and make does not redo the
 * stages after it.  An old file that is missing or does not parse
 * changes nothing.
 */
void ks_json_keep_old(const char *path, cJSON *res, const char *const *keys);
/* src's members copied into dst, objects merged into objects (Gemini's generationConfig.thinkingConfig) */
void ks_json_merge(cJSON *dst, const cJSON *src);
/*
 * Typed field access.  file names the document in the error line; a
 * NULL file makes the lookup quiet (for optional fields).  The string
 * returned by ks_json_str points into obj.
 */
const char *ks_json_str(const cJSON *obj, const char *key, const char *file);
int ks_json_int(const cJSON *obj, const char *key, const char *file, long lo, long hi, long *out);
int ks_json_num(const cJSON *obj, const char *key, const char *file, double *out);
const cJSON *ks_json_arr(const cJSON *obj, const char *key, const char *file);
const cJSON *ks_json_obj(const cJSON *obj, const char *key, const char *file);
void ks_json_set_num(cJSON *obj, const char *key, double v);   /* add or replace; non-finite as null */
void ks_json_set_str(cJSON *obj, const char *key, const char *s);  /* NULL as null */

/* ks_hash.c: SHA-256, as lowercase hex, of what a result was measured on */
struct ks_hash;
struct ks_hash *ks_hash_new(void);
void ks_hash_add(struct ks_hash *h, const void *data, size_t len);
void ks_hash_str(struct ks_hash *h, const char *s);
int ks_hash_file(struct ks_hash *h, const char *path);    /* -1 with a message */
int ks_hash_tree(struct ks_hash *h, const char *dir);     /* every file under dir, by name; -1 with a message */
char *ks_hash_end(struct ks_hash *h);                    /* the hex digest (caller frees); h is gone */
char *ks_sha256_file(const char *path);                  /* NULL with a message */

/* ks_csv.c: the CSV tables profilers write */
int ks_csv_fields(const char *line, char ***f);     /* a line's fields in *f (free with ks_csv_free); their number */
void ks_csv_free(char **f, int n);
int ks_csv_column(char **head, int n, const char *name);   /* the index of name in the header, or -1 */
double ks_csv_number(const char *s);                /* "25,313" -> 25313; -1 when it is no number */
/* 1 when a profiled kernel's name ("void ks_worker_tail<1>(unsigned long long)") is the harness's */
int ks_csv_harness_kernel(const char *name);

#endif
