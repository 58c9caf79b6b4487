# helper/adversarial: judging one hostile CPU kernel (tests/fixtures/adversarial/sgemm) as a run would.
# Loaded after helper/common by the adversarial test files.

ADV=$BATS_TEST_DIRNAME/fixtures/adversarial/sgemm

# judge NAME: NAME.c as the seed's slot, built and benched; prints
# "STATUS\nMESSAGE" (the build's rejection when it was refused)
judge() {
	mkdir -p pop/gen-000/c0
	cp "$ADV/$1.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	ks-bench pop/gen-000/c0
	jf pop/gen-000/c0/bench.json .status .message
}

# allow SYMBOL...: a copy of sgemm that allows these imports (problem.json
# "allowed_symbols"), to reach the defence behind ks-build's import check
allow() {
	mkdir -p kernels
	cp -r "$KS_ROOT/kernels/common" "$KS_ROOT/kernels/sgemm" kernels/
	jq --args '.allowed_symbols = $ARGS.positional' "$@" <"$KS_ROOT/kernels/sgemm/problem.json" \
		>kernels/sgemm/problem.json
	export KS_KERNELS_DIR=$PWD/kernels
}

# build_unchecked NAME: ./denies and ./worker, the runner and worker built as ks-build builds the
# seed's, with NAME.c as the kernel: nothing checks its text, to reach the operating system's layer
build_unchecked() {
	local cmd
	mkdir -p pop/gen-000/c0
	cp "$KS_ROOT/kernels/sgemm/seed.c" pop/gen-000/c0/kernel.c
	ks-build pop/gen-000/c0
	cmd=$(jget pop/gen-000/c0/build.json .command)
	cmd=${cmd//pop\/gen-000\/c0\/kernel.c/$ADV/$1.c}
	cmd=${cmd//pop\/gen-000\/c0\/runner/$PWD/denies}
	cmd=${cmd//pop\/gen-000\/c0\/worker/$PWD/worker}
	eval "$cmd"
}
