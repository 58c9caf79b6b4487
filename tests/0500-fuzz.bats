#!/usr/bin/env bats
# The JSON reader, the stage validators, the static check and the LLM
# reply parsers, fuzzed with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer from the corpus in tests/fuzz/corpus
# ("make fuzz FUZZ_SECONDS=600" for a longer run).

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cc=$(command -v clang || command -v clang-15) || skip "clang is not installed: no libFuzzer"
	echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$BATS_TEST_TMPDIR/t.c"
	"$cc" -fsanitize=fuzzer "$BATS_TEST_TMPDIR/t.c" -o "$BATS_TEST_TMPDIR/t" 2>/dev/null ||
		skip "clang cannot link libFuzzer here (libclang-common-15-dev)"
}

@test "10 s of fuzzing each: no crash, leak or undefined behaviour" {
	run -0 make -s --no-print-directory -C "$KS_ROOT" fuzz FUZZ_SECONDS=10
	assert_line "fuzz: fuzz_json for 10 s"
	assert_line "fuzz: fuzz_reply for 10 s"
	assert_line --regexp '^stat::number_of_executed_units: [0-9]{3,}$'
}
