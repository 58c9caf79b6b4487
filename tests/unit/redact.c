/*
 * redact.c - unit tests of ks_redact.c: what a message, transcript or log
 * line keeps of an API key.  Prints one line per failed case and
 * "N cases, N failed"; exits 1 when any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_stages.h"

static int cases, failed;

static void
expect(const char *text, const char *key, const char *want)
{
	char *got = ks_redact(text, key);

	cases++;
	if (strcmp(got, want) != 0) {
		failed++;
		printf("FAIL '%s' (key '%s'):\n  got  '%s'\n  want '%s'\n", text, key ? key : "(none)", got, want);
	}
	free(got);
}

int
main(void)
{
	const char *k = "sk-proj-A1b2C3d4E5f6G7h8";

	/* the key anywhere, whole or in part */
	expect("key sk-proj-A1b2C3d4E5f6G7h8 is wrong", k, "key [redacted] is wrong");
	expect("Incorrect API key provided: sk-proj-A1b2C3d4E5f6G7h8.", k, "Incorrect API key provided: [redacted]");
	expect("prefix sk-proj-A1b2 only", k, "prefix [redacted] only");
	expect("suffix ...E5f6G7h8, then", k, "suffix [redacted], then");
	expect("{\"message\": \"bad key: sk-proj-A1b2C3d4E5f6G7h8\"}", k, "{\"message\": \"bad key: [redacted]\"}");
	/* OpenAI's masked echo, whatever key it masks */
	expect("Incorrect API key provided: sk-VKMIs*****************wjh3. You can find", k,
	    "Incorrect API key provided: [redacted] You can find");
	/* header values and query parameters, of this key or any other */
	expect("Authorization: Bearer other-token-xyz", k, "Authorization: Bearer [redacted]");
	expect("x-api-key: another-secret", k, "x-api-key: [redacted]");
	expect("X-Goog-Api-Key:AIzaSyD-other", k, "X-Goog-Api-Key:[redacted]");
	expect("GET https://host/v1beta/models/m:generateContent?alt=sse&key=AIzaXYZ&x=1", k,
	    "GET https://host/v1beta/models/m:generateContent?alt=sse&key=[redacted]&x=1");
	/* a URL's user and password, whatever they are */
	expect("POST http://someone:pw-Zq7secret@127.0.0.1:8080/v1/chat/completions failed", k,
	    "POST http://[redacted]@127.0.0.1:8080/v1/chat/completions failed");
	expect("url \"https://token@host/v1?q=a@b\"", k, "url \"https://[redacted]@host/v1?q=a@b\"");
	expect("mail someone@example.com and https://host/a@b", k, "mail someone@example.com and https://host/a@b");
	/* ordinary text stays as it was */
	expect("HTTP 401: invalid x-api-key", k, "HTTP 401: invalid x-api-key");
	expect("monkey=5 and a key of 5 letters", k, "monkey=5 and a key of 5 letters");
	expect("no key here: the proj file", k, "no key here: the proj file");
	expect("text without a key set", NULL, "text without a key set");
	expect("", k, "");
	/* a short key (a local server's "test") is redacted only whole */
	expect("key test, testing", "test", "key [redacted], testing");
	printf("%d cases, %d failed\n", cases, failed);
	return failed != 0;
}
