/*
 * edit.c - unit tests of ks_edit.c: SEARCH/REPLACE edits applied to the
 * code they were written against, and the reason given when they cannot
 * be.  Prints one line per failed case and "N cases, N failed"; exits 1
 * when any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

static int cases, failed;

#define BASE "int a;\nint b;\n\tx = 1;\nint c;\n\tx = 1;\nreturn;\n"

/* want: the edited code, or, starting with '!', the start of the reason it is refused */
static void
expect(const char *base, const char *reply, int nedits, const char *want)
{
	char *why = NULL, *got;
	int n = -1, ok;

	cases++;
	got = ks_edit_apply(base, reply, &n, &why);
	if (want[0] == '!')
		ok = !got && why && strncmp(why, want + 1, strlen(want + 1)) == 0;
	else
		ok = got && !why && strcmp(got, want) == 0 && n == nedits;
	if (!ok) {
		failed++;
		printf("FAIL reply '%s':\n  got  '%s' (%d edits; why '%s')\n  want '%s'\n", reply, got ? got : "(none)",
		    n, why ? why : "", want);
	}
	free(got);
	free(why);
}

static void
expect_count(const char *reply, int want)
{
	int got = ks_edit_count(reply);

	cases++;
	if (got != want) {
		failed++;
		printf("FAIL count of '%s': got %d, want %d\n", reply, got, want);
	}
}

int
main(void)
{
	/* one block, in a fence, with prose around it */
	expect(BASE, "Here:\n```c\n<<<<<<< SEARCH\nint b;\n=======\nlong b;\n>>>>>>> REPLACE\n```\nDone.\n", 1,
	    "int a;\nlong b;\n\tx = 1;\nint c;\n\tx = 1;\nreturn;\n");
	/* two blocks; a line that repeats is made unique by its neighbour */
	expect(BASE, "<<<<<<< SEARCH\nint c;\n\tx = 1;\n=======\nint c;\n\tx = 2;\n>>>>>>> REPLACE\n"
	    "<<<<<<< SEARCH\nreturn;\n=======\nreturn 0;\n>>>>>>> REPLACE\n", 2,
	    "int a;\nint b;\n\tx = 1;\nint c;\n\tx = 2;\nreturn 0;\n");
	/* a block applies to the code as the one before it left it */
	expect(BASE, "<<<<<<< SEARCH\nint a;\n=======\nint z;\n>>>>>>> REPLACE\n"
	    "<<<<<<< SEARCH\nint z;\nint b;\n=======\nint y;\n>>>>>>> REPLACE\n", 2,
	    "int y;\n\tx = 1;\nint c;\n\tx = 1;\nreturn;\n");
	/* an empty REPLACE deletes; CRLF line ends and blanks after a marker are read */
	expect(BASE, "<<<<<<< SEARCH  \r\nint c;\r\n=======\r\n>>>>>>> REPLACE\r\n", 1,
	    "int a;\nint b;\n\tx = 1;\n\tx = 1;\nreturn;\n");
	/* the last line of a base without a final newline matches like the others */
	expect("int a;\nreturn;", "<<<<<<< SEARCH\nreturn;\n=======\nreturn 1;\n>>>>>>> REPLACE", 1,
	    "int a;\nreturn 1;\n");
	/* the blocks in the thinking are not the answer */
	expect(BASE, "<think>\n<<<<<<< SEARCH\nint q;\n=======\n>>>>>>> REPLACE\n</think>\n"
	    "<<<<<<< SEARCH\nint a;\n=======\nint q;\n>>>>>>> REPLACE\n", 1,
	    "int q;\nint b;\n\tx = 1;\nint c;\n\tx = 1;\nreturn;\n");
	/* what cannot be used, and why */
	expect(BASE, "<<<<<<< SEARCH\n\tx = 1;\n=======\n\tx = 3;\n>>>>>>> REPLACE\n", 0,
	    "!the SEARCH section of edit 1 (first line '\tx = 1;') matches 2 places in the kernel");
	expect(BASE, "<<<<<<< SEARCH\nint b;\n=======\nlong b;\n>>>>>>> REPLACE\n"
	    "<<<<<<< SEARCH\n  int c;\n=======\n>>>>>>> REPLACE\n", 0,
	    "!the SEARCH section of edit 2 (first line '  int c;') matches no lines of the kernel");
	/* part of a line is not a line */
	expect(BASE, "<<<<<<< SEARCH\nt b;\n=======\nt c;\n>>>>>>> REPLACE\n", 0,
	    "!the SEARCH section of edit 1 (first line 't b;') matches no lines");
	expect(BASE, "<<<<<<< SEARCH\n=======\nint d;\n>>>>>>> REPLACE\n", 0, "!edit 1 has an empty SEARCH section");
	expect(BASE, "<<<<<<< SEARCH\nint a;\n=======\nint z;\n", 0, "!edit 1 is not closed by '>>>>>>> REPLACE'");
	expect(BASE, "<<<<<<< SEARCH\nint a;\n", 0, "!edit 1 is not closed by '======='");
	expect(BASE, "<<<<<<< SEARCH\nint a;\n=======\n<<<<<<< SEARCH\n", 0,
	    "!edit 1 is not closed by '>>>>>>> REPLACE' before the next");
	expect(BASE, "```c\nint a;\n```\n", 0, "!the reply holds no '<<<<<<< SEARCH' block");
	/* counting: markers at the start of a line only, outside the thinking */
	expect_count("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n", 2);
	expect_count("text <<<<<<< SEARCH\n  <<<<<<< SEARCH\n<<<<<<< SEARCHING\n", 0);
	expect_count("<think><<<<<<< SEARCH\n</think>no edits\n", 0);
	printf("%d cases, %d failed\n", cases, failed);
	return failed != 0;
}
