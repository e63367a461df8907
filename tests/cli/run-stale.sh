# Results of a benchmark no longer in the configuration (renamed, removed, another configuration's
# run into the same directory): a run of the whole configuration drops them with a warning that
# names them, so that check, ci and baseline update judge only what is configured; a run of one
# benchmark (--benchmark) keeps the others' results as before (docs/running.md).
# tier: fast
. "$(dirname "$0")/lib.bash"

write_config() { # write_config FILE NAME...: a small jacobi under each name
	local file=$1
	shift
	echo "benchmarks:" >"$file"
	for name in "$@"; do
		printf '  - name: %s\n    command: %s {threads} 64 10\n    threads: [1, 2]\n' \
			"$name" "$SG_BUILD/examples/jacobi" >>"$file"
		printf '    repeat: 2\n    warmup: 0\n' >>"$file"
	done
}
names() { awk -F'\t' 'NR > 1 { print $1 }' "$T/results/manifest.tsv" | sort -u | tr '\n' ' '; }

write_config "$T/both.yml" jacobi old
write_config "$T/one.yml" jacobi
expect_exit 0 "$SCALEGATE" run -c "$T/both.yml" -o "$T/results"
[ "$(names)" = "jacobi old " ] && pass || fail "both benchmarks ran: $(names)"

# --benchmark: the other benchmark's lines stay, even one not in this configuration
expect_exit 0 "$SCALEGATE" run -c "$T/one.yml" -o "$T/results" --benchmark jacobi
[ "$(names)" = "jacobi old " ] && pass ||
	fail "--benchmark jacobi dropped another benchmark: $(names)"
expect_no_match "$out" "not in the configuration" "no warning when nothing is dropped"

# the whole configuration: 'old' is dropped, named once
expect_exit 0 "$SCALEGATE" run -c "$T/one.yml" -o "$T/results"
[ "$(names)" = "jacobi " ] && pass || fail "the stale benchmark's lines were kept: $(names)"
expect_match "$out" "held results of benchmarks not in the configuration \('old'\): dropped" \
	"the dropped benchmark is named"
expect_exit 0 "$SCALEGATE" check -c "$T/one.yml" -r "$T/results" --allow-no-reference
expect_no_match "$out" '(^|[^a-z])old([^a-z]|$)' "check judges only the configured benchmark"
