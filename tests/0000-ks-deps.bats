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
	assert_output "usage: $KS_TOOLS/ks-deps build|test|bench"
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
	assert_output --partial "python3 jq parallel clang-15 chromium; install them with: sudo apt-get install -y bats"
}

# fake NAME: bin/NAME becomes the script on stdin (never written through
# a link of setup's into the real system).
fake() {
	rm -f "bin/$1"
	cat >"bin/$1"
	chmod +x "bin/$1"
}

# fakes LIB...: in ./bin, an apt-get that logs each call to apt.log and
# fails as an unreachable archive does (unless APT_OK=1), an id that says
# root (or FAKE_UID), a pkg-config that knows every library but the LIBs,
# and cc.
fakes() {
	local missing=" $* "
	fake apt-get <<SH
#!/bin/sh
echo "apt-get \$*" >>"$PWD/apt.log"
[ "\${APT_OK:-}" = 1 ] && exit 0
[ "\$1" = update ] && exit 0
echo "E: Unable to locate package \${*##* }" >&2
exit 100
SH
	fake id <<'SH'
#!/bin/sh
[ "$1" = -u ] && echo "${FAKE_UID:-0}" && exit 0
exec /usr/bin/id "$@"
SH
	fake pkg-config <<SH
#!/bin/sh
case "\$1 \$2" in --exists*) case "$missing" in *" \$2 "*) exit 1 ;; esac; exit 0 ;; esac
exec /usr/bin/pkg-config "\$@"
SH
	ln -sf "$(command -v cc)" bin/cc
}

@test "as root with everything there, ks-deps build runs no apt-get" {
	fakes
	printf "#!/bin/sh\n" | fake bwrap
	PATH=$PWD/bin run -0 "$KS_TOOLS/ks-deps" build
	assert_output ""
	assert_file_not_exists apt.log
}

@test "as root, a wanted package (bubblewrap) that apt-get cannot install is a note, not a failure" {
	fakes
	PATH=$PWD/bin run -0 "$KS_TOOLS/ks-deps" build
	assert_line "ks-deps: bubblewrap is not installed (apt-get install -y bubblewrap failed): ks-bench will use its basic sandbox (no read-only file system)"
	run cat apt.log
	assert_line --partial "install -y -qq bubblewrap"
}

@test "as root, a needed package that apt-get cannot install fails with one line naming it and the command" {
	fakes libcjson
	printf "#!/bin/sh\n" | fake bwrap
	PATH=$PWD/bin run -1 "$KS_TOOLS/ks-deps" build
	assert_line --partial "E: Unable to locate package libcjson-dev"
	assert_line "ks-deps: missing packages: libcjson-dev; apt-get install -y libcjson-dev failed (see above): make the package archive reachable, or install them by hand"
}

@test "as root, apt-get installs only what is missing, the needed packages apart from the wanted ones" {
	fakes libcurl
	APT_OK=1 PATH=$PWD/bin run -0 "$KS_TOOLS/ks-deps" build
	run cat apt.log
	assert_output "apt-get update -qq
apt-get install -y -qq libcurl4-openssl-dev
apt-get install -y -qq bubblewrap"
}

# A copy of the build (sources, objects, tools) to make in.
copy_build() {
	mkdir src
	cp -a "$KS_ROOT/Makefile" "$KS_ROOT/pipeline.mk" "$KS_ROOT/tools" src/
}

@test "with the tools built, make and make generation check no package: no apt-get, even when the archive is unreachable" {
	fakes libcjson libcurl libcrypto
	PATH=$PWD/bin:$PATH run -0 make -s --no-print-directory -C "$KS_ROOT"
	PATH=$PWD/bin:$PATH run -0 make -s --no-print-directory -C "$KS_ROOT" generation N=0 POP="$PWD/pop"
	assert_output --regexp "pop: generations 0\.\.0, 1 kernels, 1 correct"
	assert_file_not_exists apt.log
}

@test "a make that compiles checks the packages first: a missing needed one stops it, named with the apt-get line" {
	fakes libcjson
	export FAKE_UID=1000
	copy_build
	touch src/tools/ks-report.c
	PATH=$PWD/bin:$PATH run -2 make -s --no-print-directory -C src tools
	assert_line "ks-deps: missing packages: libcjson-dev; install them with: sudo apt-get install -y libcjson-dev"
	refute_output --partial "ks-report.c"
	assert_file_not_exists apt.log
}

@test "a make that compiles with every package there runs no apt-get" {
	fakes
	copy_build
	touch src/tools/ks-report.c
	PATH=$PWD/bin:$PATH run -0 make --no-print-directory -C src tools CC=true
	assert_line --partial "-o tools/ks-report.o tools/ks-report.c"
	assert_file_not_exists apt.log
}
