#!/usr/bin/env bats
# tools/ks-deps: what the build and the tests need from Debian.

bats_require_minimum_version 1.5.0
load helper/common

setup() {
	cd "$BATS_TEST_TMPDIR"
	# a PATH with the shell's basics but no pkg-config, bats or apt-get
	mkdir bin
	for c in sh id cat test; do
		ln -s "$(command -v $c)" bin/$c
	done
}

@test "ks-deps without an argument is a usage error" {
	run -2 "$KS_TOOLS/ks-deps"
	assert_output "usage: $KS_TOOLS/ks-deps build|test"
}

@test "with everything installed, ks-deps build and test succeed quietly" {
	run -0 "$KS_TOOLS/ks-deps" build
	assert_output ""
	run -0 "$KS_TOOLS/ks-deps" test
	assert_output ""
}

@test "missing build packages are named with the exact apt-get line" {
	PATH=$PWD/bin run -1 "$KS_TOOLS/ks-deps" build
	assert_output "ks-deps: bubblewrap is not installed: ks-bench will use its basic sandbox (no read-only file system); install it with: sudo apt-get install -y bubblewrap
ks-deps: missing packages: pkg-config gcc libcjson-dev libcurl4-openssl-dev libssl-dev; install them with: sudo apt-get install -y pkg-config gcc libcjson-dev libcurl4-openssl-dev libssl-dev"
}

@test "missing test packages are named too" {
	PATH=$PWD/bin run -1 "$KS_TOOLS/ks-deps" test
	assert_output --partial "ks-deps: missing packages: bats "
	assert_output --partial "python3 jq parallel clang-15; install them with: sudo apt-get install -y bats"
}
