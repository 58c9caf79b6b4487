/* ks_json.c - strict JSON in, byte-stable JSON out, typed field access. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks_core.h"

/*
 * Where cJSON stopped, as an editor shows it: the line, and the column in
 * characters (UTF-8 continuation bytes are not counted), both from 1.
 */
static void
where(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = *col = 1;
	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
}

cJSON *
ks_json_parse(const char *text, size_t len, const char *what)
{
	const char *end = NULL;
	size_t line, col;
	cJSON *v;

	/* The length form with require_null_terminated rejects trailing junk. */
	v = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!v && what) {
		where(text, end && end >= text && end <= text + len ? (size_t)(end - text) : 0, &line, &col);
		ks_warnx("'%s' is not valid JSON (line %zu, column %zu)", what, line, col);
	}
	return v;
}

cJSON *
ks_json_load(const char *path)
{
	size_t len;
	char *text = ks_file_read(path, &len);
	cJSON *v;

	if (!text)
		return NULL;
	if (strlen(text) != len) {
		ks_warnx("'%s' is not valid JSON (it contains a NUL byte)", path);
		free(text);
		return NULL;
	}
	v = ks_json_parse(text, len, path);
	free(text);
	return v;
}

/* to's key as old has it, in its place (the bytes written keep their order): old's item, or none */
static void
keep(cJSON *to, const cJSON *old, const char *key)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(old, key);

	if (!o)
		cJSON_DeleteItemFromObjectCaseSensitive(to, key);
	else if (cJSON_GetObjectItemCaseSensitive(to, key))
		cJSON_ReplaceItemInObjectCaseSensitive(to, key, cJSON_Duplicate(o, 1));
	else
		cJSON_AddItemToObject(to, key, cJSON_Duplicate(o, 1));
}

void
ks_json_keep_old(const char *path, cJSON *res, const char *const *keys)
{
	size_t len;
	char *text = access(path, F_OK) == 0 ? ks_file_read(path, &len) : NULL;
	cJSON *old = text ? ks_json_parse(text, len, NULL) : NULL, *trial;
	const char *const *k;

	free(text);
	if (!cJSON_IsObject(old)) {
		cJSON_Delete(old);
		return;
	}
	/* as it will read back: a raw item (ks-bench's salt) is a number there */
	text = cJSON_PrintUnformatted(res);
	trial = text ? ks_json_parse(text, strlen(text), NULL) : NULL;
	cJSON_free(text);
	for (k = keys; trial && *k; k++)
		keep(trial, old, *k);
	if (trial && cJSON_Compare(trial, old, 1))
		for (k = keys; *k; k++)
			keep(res, old, *k);
	cJSON_Delete(trial);
	cJSON_Delete(old);
}

int
ks_json_save(const char *path, const cJSON *v)
{
	char *text = cJSON_Print(v);
	struct ks_buf b = { 0 };
	int rc;

	if (!text) {
		ks_warnx("cannot format JSON for '%s'", path);
		return -1;
	}
	ks_buf_puts(&b, text);
	ks_buf_puts(&b, "\n");
	cJSON_free(text);
	rc = ks_file_write_atomic(path, b.s, b.len);
	ks_buf_free(&b);
	return rc;
}

void
ks_json_merge(cJSON *dst, const cJSON *src)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, src) {
		cJSON *d = cJSON_GetObjectItemCaseSensitive(dst, m->string);

		if (d && cJSON_IsObject(d) && cJSON_IsObject(m))
			ks_json_merge(d, m);
		else if (d)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, m->string, cJSON_Duplicate(m, 1));
		else
			cJSON_AddItemToObject(dst, m->string, cJSON_Duplicate(m, 1));
	}
}

static const cJSON *
field(const cJSON *obj, const char *key, const char *file)
{
	const cJSON *v;

	if (!cJSON_IsObject(obj)) {
		if (file)
			ks_warnx("'%s': expected an object holding \"%s\"", file, key);
		return NULL;
	}
	v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!v && file)
		ks_warnx("'%s': field \"%s\" is missing", file, key);
	return v;
}

static void
wrong_type(const char *file, const char *key, const char *want)
{
	if (file)
		ks_warnx("'%s': field \"%s\" is not %s", file, key, want);
}

const char *
ks_json_str(const cJSON *obj, const char *key, const char *file)
{
	const cJSON *v = field(obj, key, file);

	if (!v)
		return NULL;
	if (!cJSON_IsString(v)) {
		wrong_type(file, key, "a string");
		return NULL;
	}
	return v->valuestring;
}

int
ks_json_num(const cJSON *obj, const char *key, const char *file, double *out)
{
	const cJSON *v = field(obj, key, file);

	if (!v)
		return -1;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
		wrong_type(file, key, "a number");
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

int
ks_json_int(const cJSON *obj, const char *key, const char *file, long lo, long hi, long *out)
{
	const cJSON *v = field(obj, key, file);
	double d;

	if (!v)
		return -1;
	/* cJSON numbers are doubles: accept only exact small integers. */
	d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!cJSON_IsNumber(v) || d != floor(d) || d < (double)lo || d > (double)hi) {
		if (file)
			ks_warnx("'%s': field \"%s\" is not an integer from %ld to %ld", file, key, lo, hi);
		return -1;
	}
	*out = (long)d;
	return 0;
}

const cJSON *
ks_json_arr(const cJSON *obj, const char *key, const char *file)
{
	const cJSON *v = field(obj, key, file);

	if (v && !cJSON_IsArray(v)) {
		wrong_type(file, key, "an array");
		return NULL;
	}
	return v;
}

const cJSON *
ks_json_obj(const cJSON *obj, const char *key, const char *file)
{
	const cJSON *v = field(obj, key, file);

	if (v && !cJSON_IsObject(v)) {
		wrong_type(file, key, "an object");
		return NULL;
	}
	return v;
}

void
ks_json_set_num(cJSON *obj, const char *key, double v)
{
	cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();

	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item);
	else
		cJSON_AddItemToObject(obj, key, item);
}

void
ks_json_set_str(cJSON *obj, const char *key, const char *s)
{
	cJSON *item = s ? cJSON_CreateString(s) : cJSON_CreateNull();

	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item);
	else
		cJSON_AddItemToObject(obj, key, item);
}
