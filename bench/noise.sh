#!/bin/bash
# bench/noise.sh - how each timing statistic holds up on a busy CPU.
#
#   bench/noise.sh [-r REPEATS] [-l LOAD] [OUT.tsv]
#
# Makes generation 0 and 1 of sgemm offline in a temporary population,
# then benches the seed (g000c0) and one offspring (g001c0) REPEATS
# times each on an idle machine, REPEATS times with LOAD busy loops
# (default: one per CPU) competing for the cores all along ("loaded"),
# and REPEATS times with LOAD loops that run a quarter second and pause
# for 0.1-0.5 s ("bursty": load that comes and goes, as a build does).  Writes one line per
# bench and shape (condition, kernel, repeat, shape, mean, median, min,
# rel_stderr, converged, runs) to OUT.tsv and prints, per statistic, the
# score's spread over the repeats (coefficient of variation) and how far
# load moved it: the evidence for the statistic that ks-bench scores by.
# Run it on an otherwise quiet machine: the idle half must be idle.
set -euo pipefail

repeats=8 load=$(nproc)
while getopts r:l: opt; do
	case $opt in
	r) repeats=$OPTARG ;;
	l) load=$OPTARG ;;
	*) echo "usage: bench/noise.sh [-r REPEATS] [-l LOAD] [OUT.tsv]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
out=${1:-noise.tsv}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
hogs=()
trap 'kill "${hogs[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

make -s -C "$root" tools
make -s -C "$root" generation N=1 POP="$work/pop" >/dev/null
kernels="gen-000/c0 gen-001/c0"

bench_all() {	# condition
	for r in $(seq 1 "$repeats"); do
		for k in $kernels; do
			"$root/tools/ks-bench" -o "$work/b.json" "$work/pop/$k" >/dev/null
			jq -r --arg c "$1" --arg k "$k" --arg r "$r" '.results[] |
			    [$c, $k, $r, (.shape | [.[]] | map(tostring) | join("x")), .mean_us, .median_us,
			     .min_us, .rel_stderr, .converged, .runs] | @tsv' "$work/b.json"
		done
	done
}

printf 'condition\tkernel\trepeat\tshape\tmean_us\tmedian_us\tmin_us\trel_stderr\tconverged\truns\n' >"$out"
bench_all idle >>"$out"
for _ in $(seq 1 "$load"); do
	(while :; do :; done) &
	hogs+=($!)
done
bench_all loaded >>"$out"
kill "${hogs[@]}"
hogs=()
for _ in $(seq 1 "$load"); do
	(while :; do timeout 0.25 bash -c 'while :; do :; done' || true; sleep "0.$((RANDOM % 5 + 1))"; done) &
	hogs+=($!)
done
bench_all bursty >>"$out"
kill "${hogs[@]}"
hogs=()
sleep 0.5	# the last bursts end

# Per kernel, condition and statistic: the score (geometric mean over the
# shapes) of each repeat, then its mean and coefficient of variation over
# the repeats, and the unconverged shapes.
awk -F'\t' 'NR > 1 {
	key = $2 "\t" $1 "\t" $3
	for (s = 5; s <= 7; s++) lg[key, s] += log($s)
	nsh[key]++
	if ($9 == "false") unconv[$2 "\t" $1]++
	all[$2 "\t" $1]++
	keys[key] = 1
}
END {
	split("mean median min", name, " ")
	for (key in keys) {
		split(key, f, "\t")
		kc = f[1] "\t" f[2]
		for (s = 5; s <= 7; s++) {
			v = exp(lg[key, s] / nsh[key])
			sum[kc, s] += v; sq[kc, s] += v * v; n[kc, s]++
		}
	}
	printf "%-11s %-7s %-7s %12s %8s   %s\n", "kernel", "load", "stat", "score_us", "cv", "unconverged shapes"
	for (kc in all) {
		split(kc, f, "\t")
		for (s = 5; s <= 7; s++) {
			m = sum[kc, s] / n[kc, s]
			sd = sqrt((sq[kc, s] - n[kc, s] * m * m) / (n[kc, s] > 1 ? n[kc, s] - 1 : 1))
			printf "%-11s %-7s %-7s %12.1f %7.2f%%   %d of %d\n", f[1], f[2], name[s - 4], m, 100 * sd / m,
			    unconv[kc] + 0, all[kc]
		}
	}
}' "$out" | { read -r head; echo "$head"; sort; }
