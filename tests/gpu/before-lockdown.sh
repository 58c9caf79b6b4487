#!/bin/sh
# tests/gpu/before-lockdown.sh - code of the candidate's that runs before a
# GPU worker locks itself down (tests/fixtures/adversarial/rmsnorm/
# r6_before_lockdown.cu: a constructor, which ks-build refuses, so built
# here unchecked, with the command ks-build used for the seed) against the
# judge's gate, the judge not dumpable and the worker without capabilities,
# while the GPU's runtime starts under the gate.  Run as this user and, as
# root, as nobody too.  Prints PASS or FAIL per check, exits 1 if any failed.
# Usage: tests/gpu/before-lockdown.sh  (rmsnorm on cuda; tools built with make; needs an NVIDIA GPU)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TMPDIR:-/tmp}/ks-before-lockdown
export KS_QUIET=1 PATH="$root/tools:$PATH:/usr/local/cuda/bin"
rm -rf "$work"
mkdir -p "$work" && chmod 755 "$work" && cd "$work" || exit 1
ks-init -p rmsnorm -t cuda -k 1 pop >/dev/null || exit 1
mkdir -p pop/gen-000/c0
cp "$root/kernels/rmsnorm/seed.cu" pop/gen-000/c0/kernel.cu
ks-build pop/gen-000/c0 || exit 1
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["command"])' pop/gen-000/c0/build.json)
fixture=$root/tests/fixtures/adversarial/rmsnorm/r6_before_lockdown.cu
cmd=$(printf '%s' "$cmd" | sed -e "s|pop/gen-000/c0/kernel.cu|$fixture|g" -e "s|pop/gen-000/c0/runner|$work/denies|g" \
	-e "s|pop/gen-000/c0/worker|$work/worker|g")
eval "$cmd" || { echo "FAIL build: the fixture did not build"; exit 1; }
failed=0
users=$(id -un)
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && users="$users nobody"
for user in $users; do
	if [ "$user" = nobody ]; then
		set -- setpriv --reuid=nobody --regid=nogroup --clear-groups
	else
		set --
	fi
	timeout 120 "$@" ./denies --time-cap 0.05 --min-runs 1 >out-$user.json 2>err-$user.txt
	rc=$?
	correct=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("correct"))' out-$user.json 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$correct" = True ] && ! grep -q "r6_before_lockdown: succeeded" err-$user.txt; then
		echo "PASS as $user: nothing succeeded before main, and the seed ran correct under the gate"
	else
		echo "FAIL as $user: exit $rc, correct $correct; $(grep -h "succeeded\|runner:" err-$user.txt | head -3)"
		failed=1
	fi
done
exit $failed
