#!/bin/bash
# The gate's own figures (make bench): on the Jacobi example, the whole-run false-alarm rate of A/A gate runs and
# the power for a 5, 10 and 20 % slowdown injected into one interval (SCALEGATE_INJECT=solve:PCT%), in A/B mode
# (--against-dir) and against a stored baseline recorded in an earlier sitting, on the machine as it is and with
# one CPU-bound neighbour process. The shipped default rules; repeat 5. Counts with 95 % Wilson intervals.
#   usage: tests/bench/gate_bench.sh BUILD_DIR     SG_BENCH_SETS=N independent sets per cell (default 3)
set -euo pipefail
B=$(cd "${1:?usage: gate_bench.sh BUILD_DIR}" && pwd)
SETS=${SG_BENCH_SETS:-3}
SG=$B/bin/scalegate
T=$(mktemp -d)
neighbour=
trap '[ -n "$neighbour" ] && kill "$neighbour" 2>/dev/null; rm -rf "$T"' EXIT

for side in base head; do
	mkdir -p "$T/$side"
done
cat >"$T/head/scalegate.yml" <<YML
results: results
baselines: baselines
defaults:
  warmup: 1
  max_contention: off             # the loaded half has a neighbour on purpose: no reruns
  repeat: 5
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
  - name: jacobi
    command: $B/examples/jacobi {threads} 600 100
    threads: [1, 2]
YML
cfg=$T/head/scalegate.yml

# gate MODE [INJECT]: one whole gate run; prints its exit code.
gate() {
	local mode=$1 inject=${2:-} code=0
	local args=()
	[ -n "$inject" ] && args=(--inject "solve:$inject%")
	if [ "$mode" = ab ]; then
		"$SG" ci -c "$cfg" --against-dir "$T/base" --no-post "${args[@]}" >"$T/out" 2>&1 || code=$?
	else
		{ "$SG" run -c "$cfg" "${args[@]}" && "$SG" check -c "$cfg"; } >"$T/out" 2>&1 || code=$?
	fi
	echo $code
}

# "k of n (rate %, 95 % [lo, hi])"
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { z = 1.96; p = n ? k / n : 0; d = 1 + z * z / n;
		c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
		printf "%d of %d (%.0f %%, 95 %% [%.0f, %.0f])", k, n, 100 * p, 100 * (c - h < 0 ? 0 : c - h), 100 * (c + h > 1 ? 1 : c + h) }'
}

measure() {
	local load=$1 mode
	for mode in ab stored; do
		if [ $mode = stored ]; then
			# The baseline of an earlier sitting: recorded before this mode's sets, not from them.
			"$SG" run -c "$cfg" >/dev/null 2>&1 && "$SG" baseline update -c "$cfg" >/dev/null
		fi
		local fa=0 c5=0 c10=0 c20=0 errors=0
		for ((k = 1; k <= SETS; k++)); do
			case $(gate $mode) in 1) fa=$((fa + 1)) ;; 0) ;; *) errors=$((errors + 1)) ;; esac
			[ "$(gate $mode 5)" = 1 ] && c5=$((c5 + 1))
			[ "$(gate $mode 10)" = 1 ] && c10=$((c10 + 1))
			[ "$(gate $mode 20)" = 1 ] && c20=$((c20 + 1))
		done
		printf '%-6s %-7s A/A runs failing: %s%s\n' "$load" "$mode" "$(wilson $fa "$SETS")" \
			"$([ $errors = 0 ] || echo "; $errors runs errored")"
		printf '%-6s %-7s caught  5 %%: %s; 10 %%: %s; 20 %%: %s\n' "$load" "$mode" "$(wilson $c5 "$SETS")" \
			"$(wilson $c10 "$SETS")" "$(wilson $c20 "$SETS")"
	done
}

echo "== the gate itself: jacobi 600x600 x 100 (solve ~0.1-0.2 s), p = 1, 2; repeat 5; shipped defaults;"
echo "   $SETS independent sets per cell (SG_BENCH_SETS)"
measure as-is
sh -c 'while :; do :; done' &
neighbour=$!
measure +hog
kill "$neighbour"
neighbour=
