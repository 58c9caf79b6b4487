#!/usr/bin/env bats
# KS_LAUNCH: every bench run by a launcher, ks-bench itself on the node it
# picks.  setup_file starts a Slurm of one node on this machine (Debian's
# slurm-wlm and munge: tools/ks-deps test), everything of it (munge's key
# and socket, slurm.conf, state, logs, the record of every finished job)
# in the file's temporary folder, on ports that were free; teardown_file
# stops its daemons by their pid files.

bats_require_minimum_version 1.5.0
load helper/common

# a free TCP port, as the kernel hands one out
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'
}

# wait_for SECONDS CMD...: CMD until it succeeds, at most that long
wait_for() {
	local i n=$(($1 * 10))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

node_idle() {
	[ "$(sinfo -h -N -o %T)" = idle ]
}

setup_file() {
	local d=$BATS_FILE_TMPDIR/slurm host
	mkdir -p "$d"
	# the daemons are in /usr/sbin, which a user's PATH may lack
	export PATH=$PATH:/usr/sbin
	if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
		echo "Slurm is not installed (apt-get install slurm-wlm munge, or tools/ks-deps test)" >"$d/why"
		return 0
	fi
	# slurmd runs jobs as their users, so it runs as root
	if [ "$(id -u)" != 0 ]; then
		echo "the one-node Slurm runs as root (SlurmUser=root), and this is user $(id -un)" >"$d/why"
		return 0
	fi
	host=$(hostname -s)
	mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
	chmod 700 "$d" "$d/munge"
	# a key of this cluster's own, and a munged on a socket of its own (-f: as root, in a temporary folder)
	head -c 1024 /dev/urandom >"$d/munge/munge.key"
	chmod 400 "$d/munge/munge.key"
	munged -f --socket="$d/munge/munge.sock" --key-file="$d/munge/munge.key" --pid-file="$d/munge/munged.pid" \
		--log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed"
	# two stand-in GPUs for gres/gpu: character devices like /dev/null (no
	# device cgroup: Slurm only names them in the variables it sets)
	gres=
	if mknod "$d/gpu0" c 1 3 2>/dev/null && mknod "$d/gpu1" c 1 3 2>/dev/null; then
		echo "Name=gpu File=$d/gpu[0-1]" >"$d/gres.conf"
		gres=" Gres=gpu:2"
		touch "$d/gres"
	fi
	# no cgroups: processes tracked by their parents, tasks bound to nothing;
	# 16 CPUs whatever the machine has (config_overrides), so that the
	# tests that run side by side never wait for one another's jobs
	cat >"$d/slurm.conf" <<EOF
GresTypes=gpu
ClusterName=kstest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host CPUs=16 RealMemory=256 State=UNKNOWN$gres
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$d/slurm.conf
	slurmctld -i
	slurmd
	if ! wait_for 30 node_idle; then
		echo "the Slurm node did not come up: $(tail -5 "$d/log/slurmctld.log" "$d/log/slurmd.log")" >&2
		teardown_file
		return 1
	fi
	touch "$d/up"
}

teardown_file() {
	local d=$BATS_FILE_TMPDIR/slurm f pid
	for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		# (only while that pid is still the daemon's: a daemon that ended minutes ago left its pid
		# to any process, another test's; see proc_start)
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$(basename "$f" .pid)" ] || continue
		kill "$pid" 2>/dev/null || continue
		wait_for 10 sh -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null
	done
}

setup() {
	export SLURM_CONF=$BATS_FILE_TMPDIR/slurm/slurm.conf
	JOBCOMP=$BATS_FILE_TMPDIR/slurm/log/jobcomp.txt
	cd "$BATS_TEST_TMPDIR"
}

# need_slurm: the test needs setup_file's Slurm
need_slurm() {
	[ -e "$BATS_FILE_TMPDIR/slurm/up" ] || skip "$(cat "$BATS_FILE_TMPDIR/slurm/why")"
}

# built: pop/gen-000/c0, the sgemm seed on cpu, built
built() {
	make_pop pop 1
	ks-implement pop/gen-000/c0
	ks-build pop/gen-000/c0
}

# jobcomp JOB KEY: field KEY of job JOB in the record of finished jobs
jobcomp() {
	grep "^JobId=$1 " "$JOBCOMP" | grep -o " $2=[^ ]*" | cut -d= -f2-
}

@test "make -j generation with KS_LAUNCH='srun -N1 -n1' benches every candidate in a Slurm job of its own" {
	need_slurm
	run -0 gen -j4 N=1 K=2 KS_LAUNCH='srun -N1 -n1'
	assert_output --regexp "generations 0\.\.1, 3 kernels, 3 correct"
	ids=()
	for c in pop/gen-000/c0 pop/gen-001/c0 pop/gen-001/c1; do
		run -0 jf $c/bench.json .status .launch.slurm_step_id .launch.node '.sandbox != null' '.timer != null' '.score_us > 0'
		assert_output "$(printf '%s\n' ok 0 "$(hostname -s)" true true true)"
		id=$(jget $c/bench.json .launch.slurm_job_id)
		[[ $id =~ ^[0-9]+$ ]] || fail "$c: slurm_job_id '$id'"
		ids+=("$id")
		# Slurm's own record: that job ran ks-bench, on this node, and completed
		assert_equal "$(jobcomp "$id" Name) $(jobcomp "$id" JobState) $(jobcomp "$id" NodeList)" \
			"ks-bench COMPLETED $(hostname -s)"
	done
	run -0 sh -c 'printf "%s\n" "$@" | sort -u | wc -l' - "${ids[@]}"
	assert_output 3
	# the launcher's notes are gone
	run find pop -name '.launch.*'
	assert_output ""
	assert_all_json_valid pop
}

@test "a launcher that fails (no such partition) is named in one line, exit 1, no bench.json; the rerun recovers" {
	need_slurm
	built
	run -1 --separate-stderr env KS_LAUNCH='srun -p nope -N1 -n1' ks-bench pop/gen-000/c0
	assert_equal "$(printf '%s\n' "$stderr" | grep -v '^srun: ')" \
		"ks-bench: KS_LAUNCH 'srun -p nope -N1 -n1' exited with status 1 before ks-bench started on 'pop/gen-000/c0'"
	# srun said why
	[[ $stderr == *"srun: error: "*"nope"* ]] || fail "stderr: $stderr"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run find pop -name '.launch.*'
	assert_output ""
	# make stops there, and the same make with a launcher that works finishes the generation
	run -2 gen N=1 K=1 KS_LAUNCH='srun -p nope -N1 -n1'
	assert_line "ks-bench: KS_LAUNCH 'srun -p nope -N1 -n1' exited with status 1 before ks-bench started on '$BATS_TEST_TMPDIR/pop/gen-000/c0'"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run -0 gen N=1 K=1 KS_LAUNCH='srun -N1 -n1'
	run -0 jf pop/gen-001/c0/bench.json .status '.launch.slurm_job_id != null'
	assert_output $'ok\ntrue'
}

@test "KS_LAUNCH is split into words as a shell would, quotes kept together" {
	need_slurm
	built
	# a job name with a space: one word
	KS_LAUNCH="srun -N1 -n1 --job-name 'ks bench' --comment=\"a b\"" run -0 ks-bench pop/gen-000/c0
	id=$(jget pop/gen-000/c0/bench.json .launch.slurm_job_id)
	run -0 grep "^JobId=$id " "$JOBCOMP"
	assert_output --partial " Name=ks bench "
}

@test "what a shell would run or expand in KS_LAUNCH is refused in one line, and nothing runs" {
	built
	for bad in 'srun -N1 -n1; touch ran' 'srun $HOME' 'srun `id`' 'srun -N1 >x' 'srun "-J $X"'; do
		KS_LAUNCH=$bad run -1 ks-bench pop/gen-000/c0
		assert_output --regexp "^ks-bench: KS_LAUNCH '.*': '.' is not expanded \(its words are split as a shell would, but no shell runs them\): quote it with '...'$"
	done
	KS_LAUNCH="srun 'a" run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: KS_LAUNCH 'srun 'a': a ' quote is not closed"
	assert_file_not_exists ran
	assert_file_not_exists pop/gen-000/c0/bench.json
	# blank: no launcher, the bench runs here
	KS_LAUNCH='  ' run -0 ks-bench pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/bench.json .status)" ok
}

@test "a launcher that starts ks-bench in another folder is named: the population must be at the same path there" {
	need_slurm
	built
	run -1 --separate-stderr env KS_LAUNCH='srun -N1 -n1 --chdir=/' ks-bench pop/gen-000/c0
	run -0 grep -v '^srun: ' <<<"$stderr"
	assert_line --index 0 --regexp "^ks-bench: cannot open the launcher's note 'pop/gen-000/c0/\.launch\.[A-Za-z0-9]{6}' \(KS_LAUNCHED; is the population at the same path here\?\): No such file or directory$"
	assert_line --index 1 "ks-bench: KS_LAUNCH 'srun -N1 -n1 --chdir=/' exited with status 1 before ks-bench started on 'pop/gen-000/c0'"
	assert_equal "${#lines[@]}" 2
	assert_file_not_exists pop/gen-000/c0/bench.json
}

@test "any launcher: the bench's own outcome passes through it, and bench.json says nothing of Slurm outside a job" {
	built
	unset SLURM_JOB_ID
	KS_LAUNCH='env KS_X=1' run -0 ks-bench pop/gen-000/c0
	run -0 jf pop/gen-000/c0/bench.json .status 'has("launch")'
	assert_output $'ok\nfalse'
	# a failure of ks-bench itself, on the far side: its own line alone
	rm pop/gen-000/c0/bench.json pop/gen-000/c0/runner
	KS_LAUNCH='env KS_X=1' run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: 'pop/gen-000/c0/build.json' says the build succeeded, but 'pop/gen-000/c0/runner' is missing: run ks-build again"
}

@test "a launcher killed while ks-bench runs is named, with the node; no bench.json, and the next bench recovers" {
	built
	mkdir bin
	# a launcher that kills what it launched once it has started
	cat >bin/cut-short <<'SH'
#!/bin/sh
"$@" &
sleep 1
kill -9 $!
exit 137
SH
	chmod +x bin/cut-short
	KS_TIME_CAP_S=3 KS_LAUNCH="$PWD/bin/cut-short" run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: KS_LAUNCH '$PWD/bin/cut-short' exited with status 137 while ks-bench ran on 'pop/gen-000/c0' (on $(hostname)), before it finished"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run -0 ks-bench pop/gen-000/c0
	assert_equal "$(jget pop/gen-000/c0/bench.json .status)" ok
	run find pop -name '.*'
	assert_output ""
}

@test "a launcher that cannot be run is named" {
	built
	KS_LAUNCH='no-such-launcher -N1' run -1 ks-bench pop/gen-000/c0
	assert_output "ks-bench: cannot run KS_LAUNCH's 'no-such-launcher': No such file or directory"
	assert_file_not_exists pop/gen-000/c0/bench.json
	run find pop -name '.launch.*'
	assert_output ""
}

@test "KS_LAUNCH_BUILD builds each candidate in a Slurm job of its own; a failing one is named, no build.json" {
	need_slurm
	name=ksb$RANDOM$RANDOM
	run -0 gen N=0 KS_LAUNCH_BUILD="srun -N1 -n1 -J $name" KS_LAUNCH="srun -N1 -n1"
	run -0 jf pop/gen-000/c0/build.json .ok
	assert_output true
	run -0 grep -c " Name=$name JobState=COMPLETED " "$JOBCOMP"
	assert_output 1
	rm pop/gen-000/c0/build.json pop/gen-000/c0/bench.json
	KS_LAUNCH_BUILD='srun -p nope' run -1 --separate-stderr ks-build pop/gen-000/c0
	run -0 grep -v '^srun: ' <<<"$stderr"
	assert_output "ks-build: KS_LAUNCH_BUILD 'srun -p nope' exited with status 1 before ks-build started on 'pop/gen-000/c0'"
	assert_file_not_exists pop/gen-000/c0/build.json
	run find pop -name '.launch.*'
	assert_output ""
}

@test "make -j generation with KS_LAUNCH='srun --gres=gpu:1 -N1 -n1': each bench on the GPU Slurm gave it, at once" {
	need_slurm
	[ -e "$BATS_FILE_TMPDIR/slurm/gres" ] || skip "no stand-in GPU devices (mknod needs root)"
	# a stand-in nvcc whose runner logs the GPU it sees around a 5 s "bench" (long enough to overlap: on a
	# loaded 2-core machine one candidate's build once ended more than 2 s after the other's bench began)
	stand_in_nvcc 5
	run -0 gen -j4 N=1 K=2 PROBLEM=fp8-mm TARGET=hip-nvidia KS_LAUNCH='srun --gres=gpu:1 -N1 -n1'
	run -0 jq -nc '[inputs | .device] | sort' pop/gen-001/c0/bench.json pop/gen-001/c1/bench.json
	assert_output "[\"nvidia GPU 0 (Slurm's, SLURM_STEP_GPUS=0)\",\"nvidia GPU 1 (Slurm's, SLURM_STEP_GPUS=1)\"]"
	# Slurm showed each runner its own GPU, and the two ran side by side
	run -0 sh -c "tail -4 gpu.log | awk '{ print \$1 }' | tr '\n' ' '"
	assert_output "start start end end "
	run -0 sh -c "tail -4 gpu.log | awk '{ print \$2 }' | sort | tr '\n' ' '"
	assert_output "0 0 1 1 "
	for c in pop/gen-000/c0 pop/gen-001/c0 pop/gen-001/c1; do
		id=$(jget $c/bench.json .launch.slurm_job_id)
		assert_equal "$(jobcomp "$id" Name) $(jobcomp "$id" JobState)" "ks-bench COMPLETED"
	done
}

@test "with KS_PROFILE=1, ks-profile runs under KS_LAUNCH too, on the node that has the device" {
	need_slurm
	name=ksp$RANDOM$RANDOM
	run -0 gen N=1 K=1 KS_PROFILE=1 KS_LAUNCH="srun -N1 -n1 -J $name"
	assert_file_exists pop/gen-000/c0/profile.json
	# three jobs: the two benches, and the profile of generation 1's base between them
	run -0 sh -c "grep ' Name=$name JobState=COMPLETED ' '$JOBCOMP' | cut -d' ' -f1 | cut -d= -f2"
	assert_equal "${#lines[@]}" 3
	b0=$(jget pop/gen-000/c0/bench.json .launch.slurm_job_id)
	b1=$(jget pop/gen-001/c0/bench.json .launch.slurm_job_id)
	assert_equal "${lines[0]} ${lines[2]}" "$b0 $b1"
}
