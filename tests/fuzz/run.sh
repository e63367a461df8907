#!/usr/bin/env bash
# Runs each libFuzzer harness of tests/fuzz for SECONDS, seeded from the repository's own inputs.
# usage: tests/fuzz/run.sh FUZZ_BUILD_DIR SECONDS WORK_DIR
# The corpus grows in WORK_DIR/corpus-NAME (kept between runs); a crash leaves WORK_DIR/crash-NAME-*
# and fails.
set -euo pipefail
B=$1 S=$2 W=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

seeds() {
	case "$1" in
	config) ls scalegate.yml tests/data/config/*/scalegate.yml \
		tests/data/check/*/scalegate.yml tests/fuzz/seeds/config-* ;;
	rules) ls rules/*.yml tests/data/rules/*/*.yml tests/fuzz/seeds/rules-* ;;
	profile) { find tests/data/check -name '*.sgprof' | sort | awk 'NR % 40 == 1'; ls \
		tests/fuzz/seeds/profile-*; } ;;
	baseline) ls baselines/*.sgbase tests/data/check/*/baselines/*.sgbase \
		tests/fuzz/seeds/baseline-* ;;
	esac
}

failed=0
for name in config rules profile baseline; do
	bin="$B/fuzz-$name"
	[ -x "$bin" ] || { echo "no $bin: build it with 'make $bin'" >&2; exit 1; }
	corpus="$W/corpus-$name" seeddir="$W/seeds-$name"
	mkdir -p "$corpus" "$seeddir"
	seeds "$name" | while read -r f; do cp "$f" "$seeddir/$(echo "$f" | tr / _)"; done
	# One job, bounded memory and time per input; the messages of every rejected input go
	# nowhere.
	if ! ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$S" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$W/crash-$name-" -print_final_stats=1 "$corpus" "$seeddir" \
			>"$W/fuzz-$name.log" 2>&1; then
		tail -40 "$W/fuzz-$name.log" >&2
		echo "FAIL: fuzz-$name found a crash (input in $W/crash-$name-*)" >&2
		failed=1
		continue
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/fuzz-$name.log")
	echo "fuzz-$name: $runs inputs in $S s, no crash"
done
exit "$failed"
