# tests/helper/common.bash - loaded by every test file.
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

KS_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
KS_TOOLS="$KS_ROOT/tools"
PATH="$KS_TOOLS:$PATH"
export KS_QUIET=1
# Fast timing: tests check behaviour, not speed.
export KS_TIME_CAP_S=0.02 KS_MIN_RUNS=1
export KS_LOCK_DIR="$BATS_TEST_TMPDIR"
unset KS_LLM_PROVIDER KS_LLM_URL OPENAI_BASE_URL KS_LLM_API_KEY OPENAI_API_KEY ANTHROPIC_API_KEY GEMINI_API_KEY
unset KS_KERNELS_DIR KS_BENCH_TIMEOUT_S KS_BENCH_MEMORY_MB POP PROBLEM TARGET K N

slow() {
	[ -n "${KS_TEST_ALL:-}" ] || skip "slow test: run it with make test-all"
}

# Every JSON file under a directory parses; prints the first that does not.
assert_all_json_valid() {
	local f
	while IFS= read -r f; do
		python3 -m json.tool "$f" >/dev/null 2>&1 || fail "not valid JSON: $f"
	done < <(find "$1" -name '*.json')
}

# jget FILE EXPR: prints a field of a JSON file, e.g. jget f.json '["status"]'
jget() {
	python3 -c 'import json,sys; v=eval("json.load(open(sys.argv[1]))"+sys.argv[2]); print(json.dumps(v) if not isinstance(v,str) else v)' "$1" "$2"
}

# No temporary files of the atomic writer left behind.
assert_no_temp_files() {
	run find "$1" -name '.*.json.*'
	assert_output ""
}

# make_pop DIR [K]: a population with run.json for sgemm on cpu.
make_pop() {
	ks-init -p sgemm -t cpu -k "${2:-3}" "$1"
}

# fake_cand POP GEN SLOT STATUS SCORE 'BM=16 BN=32 ...' [BASE REF]:
# a finished candidate with a kernel declaring those parameter values and
# a bench.json with one time per benchmark shape equal to SCORE.
fake_cand() {
	local pop=$1 gen=$2 slot=$3 status=$4 score=$5 params=$6 base=${7:-} ref=${8:-}
	local dir id p name value
	dir=$(printf '%s/gen-%03d/c%d' "$pop" "$gen" "$slot")
	id=$(printf 'g%03dc%d' "$gen" "$slot")
	mkdir -p "$dir"
	cp "$KS_ROOT/kernels/sgemm/seed.c" "$dir/kernel.c"
	for p in $params; do
		name=${p%%=*} value=${p#*=}
		sed -i "s/^\(#define $name[[:space:]]\+\)[0-9-]\+/\1$value/" "$dir/kernel.c"
	done
	python3 - "$dir" "$id" "$gen" "$slot" "$status" "$score" "$base" "$ref" <<'PY'
import json, sys
d, id, gen, slot, status, score, base, ref = sys.argv[1:]
cand = {"id": id, "generation": int(gen), "slot": int(slot),
        "parents": {"base": base or None, "reference": ref or None},
        "plan": None, "model": "offline", "usage": None}
ok = status == "ok"
res = [{"shape": {"M": 8, "N": 8, "K": 8}, "time_us": float(score), "runs": 3}] * 3 if ok else []
bench = {"id": id, "status": status, "correct": ok, "results": res,
         "score_us": float(score) if ok else None, "device": "cpu", "timer": "test"}
json.dump(cand, open(d + "/candidate.json", "w"))
json.dump(bench, open(d + "/bench.json", "w"))
PY
}

# jf FILE EXPR...: the value of each expression on its own line, as jget
# prints it, from one python3 run (each run costs a tenth of a second).
# An EXPR starting with [ or . applies to the document, others see it as d.
jf() {
	python3 - "$@" <<'PY'
import json, sys
def rule(plans, k=3):
    """population(5)'s choice: most innovative, highest max, highest min uplift; distinct, ties to the lower index."""
    chosen = []
    for pick in range(k):
        key = ("innovation", "uplift_max", "uplift_min")[pick % 3]
        free = [i for i in range(len(plans)) if i not in chosen]
        chosen.append(max(free, key=lambda i: (plans[i][key], -i)))
    return chosen
d = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    v = eval("d" + e if e[:1] in "[." else e)
    print(v if isinstance(v, str) else json.dumps(v))
PY
}
