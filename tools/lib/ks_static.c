/*
 * ks_static.c - what a candidate's source may not do, found before it is
 * built: vendor libraries, threads and processes, clocks, its own main,
 * reaching into the process (loading code, interposing symbols, patching
 * memory), and the harness's own names.  A problem adds rules of its own
 * in problem.json "forbidden" ([{"pattern": ERE, "why": text}]).
 *
 * The patterns are POSIX extended expressions matched against the source
 * with its comments and the contents of its string literals blanked, so
 * that a comment saying "no cuBLAS here" is no offence; #include lines are
 * matched with their file names kept.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ks_pop.h"

struct rule {
	const char *pattern;
	const char *why;	/* "%s" is what matched */
	int includes;		/* matched against #include lines */
};

#define W "[A-Za-z0-9_]"
#define NW "(^|[^A-Za-z0-9_])"

static const struct rule rules[] = {
	{ "#[[:space:]]*include[[:space:]]*[<\"][^>\"]*(cublas|cudnn|cutlass|cute/|cub/|thrust/|rocblas|hipblas|"
	  "rocprim|hipcub|rocwmma|miopen|composable_kernel|ck/|cblas|mkl|openblas|Eigen/)[^>\"]*[>\"]",
	    "includes a vendor library's header (%s): the kernel must do the work itself", 1 },
	{ NW "(cublas|cublasLt|cudnn|rocblas_|hipblas|miopen|cblas_|mkl_)" W "*",
	    "calls a vendor library (%s): the kernel must do the work itself", 0 },
	{ NW "(cutlass|cute|cub|thrust|rocprim|hipcub|ck)::",
	    "uses a vendor library (%s): the kernel must do the work itself", 0 },
	{ NW "(pthread_create|thrd_create|fork|vfork|clone|posix_spawnp?|popen|system|exec[lv]p?e?)[[:space:]]*\\(",
	    "starts a thread or a process (%s): work outside the call would escape the timer", 0 },
	{ "std::(thread|jthread|async)" NW,
	    "starts a thread (%s): work outside the call would escape the timer", 0 },
	{ NW "(clock_gettime|gettimeofday|timespec_get|__rdtsc|rdtsc|cudaEventElapsedTime|hipEventElapsedTime|"
	  "std::chrono)",
	    "reads a clock (%s): the harness does the timing", 0 },
	{ NW "main[[:space:]]*\\(",
	    "defines main (%s): the harness provides it", 0 },
	{ NW "(dlopen|dlsym|dlvsym|RTLD_NEXT|LD_PRELOAD|LD_AUDIT|setenv|putenv|unsetenv|ptrace|mprotect|"
	  "/proc/self|__attribute__[[:space:]]*\\(\\([[:space:]]*(constructor|destructor))",
	    "reaches into the process (%s): loading code, interposing symbols or patching memory is not allowed", 0 },
	{ NW "(write|pwrite|writev|dprintf|fdopen|dup|dup2|dup3|fcntl|ioctl|syscall|close)[[:space:]]*\\(",
	    "works on file descriptors (%s): the harness's verdict channel is not the kernel's", 0 },
	/* (a section attribute: attribute_refusal, which reads an attribute's whole list) */
	{ "#[[:space:]]*pragma[[:space:]]+(clang[[:space:]]+)?section" NW,
	    "puts code or data in a section it names (%s): a kernel keeps to the compiler's own sections (the linker "
	    "and the loader run some, and a section's name reaches the assembler as written)", 0 },
	/* unary: no parameter (a member) or one (a function); a & of two operands is no address */
	{ NW "operator[[:space:]]*&[[:space:]]*\\([^,()]*\\)",
	    "overloads operator& (%s): nvcc's and hipcc's registration of a device variable takes its address before "
	    "main, so the kernel's operator& would run before its process is locked down", 0 },
	{ NW "ks_" W "*",
	    "uses a name of the harness (%s): the kernel's own names must not start with ks_", 0 },
	{ NW W "*_reference" W "*",
	    "uses the harness's reference (%s): the kernel must compute the result itself", 0 },
};

/*
 * The source with comments and the insides of string and character
 * literals replaced by spaces (newlines kept, so lines stay lines); with
 * keep_strings, literals are left as they are (for #include "...").
 */
static char *
blank_comments(const char *src, int keep_strings)
{
	char *out = ks_estrdup(src), *p = out;

	while (*p) {
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
		} else if (p[0] == '/' && p[1] == '*') {
			*p++ = ' ';
			*p++ = ' ';
			while (*p && !(p[0] == '*' && p[1] == '/')) {
				if (*p != '\n')
					*p = ' ';
				p++;
			}
			if (*p) {
				*p++ = ' ';
				*p++ = ' ';
			}
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q && *p != '\n') {
				if (*p == '\\' && p[1] && p[1] != '\n') {
					if (!keep_strings)
						p[0] = p[1] = ' ';
					p += 2;
					continue;
				}
				if (!keep_strings)
					*p = ' ';
				p++;
			}
			if (*p == q)
				p++;
		} else {
			p++;
		}
	}
	return out;
}

/* The first match of rule r (compiled as re) in text, as a reason; NULL when none. */
static char *
match_rule(const struct rule *r, const regex_t *re, const char *text)
{
	regmatch_t m[1];
	char *why = NULL;

	if (regexec(re, text, 1, m, 0) == 0) {
		const char *s = text + m[0].rm_so, *e = text + m[0].rm_eo;
		int line = 1;

		/* the match without the non-word character it may start with */
		while (s < e && !(*s == '#' || *s == '/' || *s == '_' || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
			s++;
		for (const char *c = text; c < s; c++)
			line += *c == '\n';
		char *what = ks_easprintf("'%.*s' on line %d", (int)(e - s > 80 ? 80 : e - s), s, line);
		why = ks_easprintf(r->why, what);
		free(what);
	}
	return why;
}

/* pattern compiled into re; -1, said, when it is not an extended regex */
static int
compile_rule(regex_t *re, const char *pattern)
{
	if (regcomp(re, pattern, REG_EXTENDED | REG_NEWLINE) != 0) {
		ks_warnx("bad static-check pattern '%s'", pattern);
		return -1;
	}
	return 0;
}

/* the built-in rules, compiled once */
static const regex_t *
builtin_rules(void)
{
	static regex_t re[sizeof rules / sizeof rules[0]];
	static int ready;

	if (!ready) {
		for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
			if (compile_rule(&re[i], rules[i].pattern) < 0)
				abort();	/* a bug in the table above */
		ready = 1;
	}
	return re;
}

/* Host inline assembly: it can read clocks and make system calls that no name shows. */
#define ASM_PATTERN NW "(asm|__asm|__asm__)[[:space:]]*(volatile|__volatile__|goto|inline)?[[:space:]]*\\("
static const struct rule asm_rules[] = {
	[KS_ASM_REFUSED_CPU] = { ASM_PATTERN, "uses inline assembly (%s): a kernel for the CPU must be C", 0 },
	/*
	 * nvcc's host pass holds the host code alone (device functions' bodies
	 * are gone from it), so assembly there is the host's: what embeds a file
	 * at build time (.incbin) or places code in a section of its own.  A GPU
	 * kernel's PTX stays in its device code.
	 */
	[KS_ASM_REFUSED_HOST] = { ASM_PATTERN, "uses inline assembly in host code (%s): a GPU kernel's assembly "
	    "belongs in its device code", 0 },
};

/*
 * 1 when what is written of the line so far (start to w) leaves a '<' to
 * open a header name, inside which a comment opener is none: after #include,
 * #include_next, #import, or __has_include( and __has_include_next(.
 */
static int
header_name_next(const char *start, const char *w)
{
	static const char *const before[] = { "include", "include_next", "import", "__has_include(",
		"__has_include_next(", NULL };
	const char *e = w;

	while (e > start && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	for (const char *const *b = before; *b; b++) {
		size_t n = strlen(*b);

		if ((size_t)(e - start) >= n && strncmp(e - n, *b, n) == 0) {
			const char *k = e - n;

			if (**b == '_')
				return 1;
			while (k > start && (k[-1] == ' ' || k[-1] == '\t'))
				k--;
			return k > start && k[-1] == '#';
		}
	}
	if (e > start && e[-1] == '(') {
		/* __has_include ( <x> ): blanks before the parenthesis */
		const char *k = e - 1;

		while (k > start && (k[-1] == ' ' || k[-1] == '\t'))
			k--;
		return (size_t)(k - start) >= 13 && (strncmp(k - 13, "__has_include", 13) == 0 ||
		    ((size_t)(k - start) >= 18 && strncmp(k - 18, "__has_include_next", 18) == 0));
	}
	return 0;
}

/* 1 when the text before w ends in a raw string's prefix: R, u8R, uR, UR or LR, as a token of its own */
static int
raw_prefix(const char *start, const char *w)
{
	const char *p = w;

	if (p == start || p[-1] != 'R')
		return 0;
	p--;
	if (p - start >= 2 && p[-2] == 'u' && p[-1] == '8')
		p -= 2;
	else if (p > start && (p[-1] == 'u' || p[-1] == 'U' || p[-1] == 'L'))
		p--;
	return p == start || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
}

/* the number of the line that w is on */
static long
line_of(const char *start, const char *w)
{
	long line = 1;

	for (const char *p = start; p < w; p++)
		line += *p == '\n';
	return line;
}

/*
 * The source as the preprocessor's first three phases leave it:
 * trigraphs and digraphs that spell '#' and '\\' read as those, lines
 * joined where a backslash ends them, each comment one space (newlines in
 * it too); literals kept.  The newlines taken out follow the line they
 * were taken from, so that the lines after it keep their numbers.
 */
static char *
phases(const char *src, int trigraphs, long *raw_line)
{
	char *out = ks_emalloc(strlen(src) + 1), *w = out;
	char quote = 0;
	size_t held = 0;	/* newlines taken out of the current line */

	*raw_line = 0;
	for (const char *p = src; *p; ) {
		char c;

		if (trigraphs && p[0] == '?' && p[1] == '?' && (p[2] == '=' || p[2] == '/'))
			c = p[2] == '=' ? '#' : '\\', p += 3;
		else if (!quote && p[0] == '%' && p[1] == ':')
			c = '#', p += 2;
		else
			c = *p++;
		if (c == '\\') {
			/* a backslash, perhaps blanks, then a newline: no break at all */
			const char *q = p;

			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '\n') {
				p = q + 1;
				held++;
				continue;
			}
			*w++ = c;
			if (quote && *p && *p != '\n')
				*w++ = *p++;
			continue;
		}
		if (!quote && c == '/' && *p == '*') {
			const char *end = strstr(p + 1, "*/"), *stop = end ? end + 2 : p + strlen(p);

			for (const char *k = p; k < stop; k++)
				held += *k == '\n';
			*w++ = ' ';
			p = stop;
			continue;
		}
		if (!quote && c == '/' && *p == '/') {
			p += strcspn(p, "\n");
			*w++ = ' ';
			continue;
		}
		if (c == '"' && !quote && !*raw_line && raw_prefix(out, w))
			*raw_line = line_of(out, w);
		if (c == '"' || c == '\'')
			quote = !quote ? c : quote == c ? 0 : quote;
		else if (c == '<' && !quote && header_name_next(out, w))
			quote = '>';
		else if (c == '>' && quote == '>')
			quote = 0;
		else if (c == '\n')
			quote = 0;
		*w++ = c;
		for (; c == '\n' && held; held--)
			*w++ = '\n';
	}
	*w = '\0';
	return out;
}

/*
 * What the source as written may not hold, since it would steer what the
 * later checks read: a line directive (#line, or GCC's "# 1 \"file\" 3"),
 * which would make the kernel's own lines look like a system header's in
 * the preprocessed text; a raw string literal, whose lines the
 * preprocessor copies as they are, line directives and all.
 */
static char *
steering_refusal(const char *src)
{
	static const struct rule directive = { "^[ \t]*#[ \t]*(line|[0-9])",
		"holds a line directive (%s): the static check reads the kernel's lines by the preprocessor's line "
		"markers, which a kernel may not set", 0 };
	char *why = NULL;
	regex_t re;

	if (compile_rule(&re, directive.pattern) < 0)
		abort();	/* a bug in the pattern above */
	/* trigraphs read and not: C11 reads them, C++17 (nvcc, hipcc) does not, and either may be the compiler's */
	for (int tri = 1; tri >= 0 && !why; tri--) {
		long raw;
		char *code = phases(src, tri, &raw);

		why = match_rule(&directive, &re, code);
		if (!why && raw)
			why = ks_easprintf("holds a raw string literal (on line %ld): its lines reach the preprocessed text "
			    "as written, where they could pass for the preprocessor's own", raw);
		free(code);
	}
	regfree(&re);
	return why;
}

/* the end of the bracketed list that starts at p (with open, closed by close), or NULL */
static const char *
list_end(const char *p, char open, char close)
{
	int depth = 0;

	for (; *p; p++)
		if (*p == open)
			depth++;
		else if (*p == close && --depth == 0)
			return p;
	return NULL;
}

/*
 * An attribute's list, __attribute__((...)) or [[...]], read whole
 * (nested parentheses and all) for the words that place code where the
 * loader runs it or name a section: section, constructor, destructor
 * (their __x__ spellings too).  A function of the kernel's may be called
 * section: only inside such a list is the word refused.
 */
static char *
attribute_refusal(const char *code)
{
	static const char *const words[] = { "section", "__section__", "constructor", "__constructor__", "destructor",
		"__destructor__", NULL };

	for (const char *p = code; *p; p++) {
		const char *list = NULL, *end;

		if ((p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && strncmp(p, "__attribute", 11) == 0) {
			const char *q = p + 11 + (strncmp(p + 11, "__", 2) == 0 ? 2 : 0);

			while (isspace((unsigned char)*q))
				q++;
			list = *q == '(' ? q : NULL;
		} else if (p[0] == '[' && p[1] == '[') {
			list = p;
		}
		if (!list || !(end = list_end(list, *list, *list == '(' ? ')' : ']')))
			continue;
		for (const char *w = list; w < end; w++) {
			size_t n = 0;

			if (!(isalpha((unsigned char)*w) || *w == '_') || (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
				continue;
			while (isalnum((unsigned char)w[n]) || w[n] == '_')
				n++;
			for (const char *const *k = words; *k; k++)
				if (strlen(*k) == n && strncmp(w, *k, n) == 0) {
					long line = 1;

					for (const char *c = code; c < p; c++)
						line += *c == '\n';
					if (strstr(*k, "structor"))
						return ks_easprintf("runs code before or after the call ('%.*s' in an attribute on "
						    "line %ld): nothing of the kernel's may run before its process is locked down", (int)n,
						    w, line);
					return ks_easprintf("puts code or data in a section of its choosing ('%.*s' in an attribute on "
					    "line %ld): a kernel keeps to the compiler's own sections (the linker and the loader run "
					    "some, and a section's name reaches the assembler as written)", (int)n, w, line);
				}
			w += n - 1;
		}
	}
	return NULL;
}

static char *
check(const char *src, const cJSON *forbidden, int includes, enum ks_asm_rule asm_rule)
{
	char *code = blank_comments(src, 0), *incl = blank_comments(src, 1), *why = NULL;
	const regex_t *re = builtin_rules();
	const cJSON *f;

	if (includes)
		why = steering_refusal(src);
	for (size_t i = 0; !why && i < sizeof rules / sizeof rules[0]; i++)
		if (includes || !rules[i].includes)
			why = match_rule(&rules[i], &re[i], rules[i].includes ? incl : code);
	if (!why)
		why = attribute_refusal(code);
	if (!why && asm_rule != KS_ASM_ALLOWED) {
		regex_t one;

		if (compile_rule(&one, asm_rules[asm_rule].pattern) == 0) {
			why = match_rule(&asm_rules[asm_rule], &one, code);
			regfree(&one);
		}
	}
	cJSON_ArrayForEach(f, forbidden) {
		const char *pat = ks_json_str(f, "pattern", NULL), *text = ks_json_str(f, "why", NULL);

		if (why || !pat)
			continue;
		char *fmt = ks_easprintf("%s (%%s)", text ? text : "the problem forbids it");
		struct rule r = { pat, fmt, 0 };
		regex_t one;

		if (compile_rule(&one, pat) == 0) {
			why = match_rule(&r, &one, code);
			regfree(&one);
		}
		free(fmt);
	}
	free(code);
	free(incl);
	return why;
}

char *
ks_static_check(const char *src, const cJSON *forbidden)
{
	return check(src, forbidden, 1, KS_ASM_ALLOWED);
}

char *
ks_static_check_source(const char *src, const cJSON *forbidden, enum ks_asm_rule asm_rule)
{
	return check(src, forbidden, 1, asm_rule);
}

char *
ks_static_check_expanded(const char *text, const cJSON *forbidden, enum ks_asm_rule asm_rule)
{
	return check(text, forbidden, 0, asm_rule);
}

/*
 * A vendor library's header by its path, as the preprocessor's line
 * markers name the files it read (so a header named by a macro, which
 * the text's #include rule cannot see, is seen): a folder or file of the
 * path named after a library.  Why not, or NULL.
 */
char *
ks_static_vendor_header(const char *path)
{
	static const char *const starts[] = { "cublas", "cudnn", "rocblas", "hipblas", "cblas", "mkl", "openblas",
		"miopen", NULL };
	static const char *const named[] = { "cutlass", "cute", "cub", "thrust", "rocprim", "hipcub", "rocwmma",
		"composable_kernel", "ck", "Eigen", NULL };

	for (const char *c = path; *c; ) {
		size_t n = strcspn(c, "/");

		for (const char *const *s = starts; *s; s++)
			if (n >= strlen(*s) && strncmp(c, *s, strlen(*s)) == 0)
				goto found;
		for (const char *const *s = named; *s; s++)
			if (n == strlen(*s) && strncmp(c, *s, n) == 0)
				goto found;
		c += n + (c[n] == '/');
		continue;
found:
		return ks_easprintf("includes a vendor library's header ('%.200s'): the kernel must do the work itself",
		    path);
	}
	return NULL;
}

/* An identifier followed by '(': a definition (or a call) of name. */
int
ks_code_defines(const char *code, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = code; (p = strstr(p, name)); p += n) {
		const char *q = p + n;

		if (p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

/*
 * A definition of name with its body: the identifier, its parenthesised
 * parameters and then '{' (a call or a declaration ends in ';').
 */
int
ks_code_defines_body(const char *code, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = code; (p = strstr(p, name)); p += n) {
		const char *q = p + n;
		int depth = 0;

		if (p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (isspace((unsigned char)*q))
			q++;
		if (*q != '(')
			continue;
		for (; *q; q++)
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
		if (!*q)
			continue;
		for (q++; isspace((unsigned char)*q); q++)
			;
		if (*q == '{')
			return 1;
	}
	return 0;
}
