# Two benchmarks with different intervals in one results directory: each is analyzed on its own.
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<YML
benchmarks:
  - name: jacobi
    command: $SG_BUILD/examples/jacobi {threads} 100 10
    threads: [1, 2]
    repeat: 2
    warmup: 0
  - name: imbalance
    command: $SG_BUILD/examples/imbalance {threads} 200 2
    threads: [1, 2]
    repeat: 2
    warmup: 0
YML
"$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" >/dev/null
expect_exit 0 "$SCALEGATE" analyze "$T/results"
expect_match "$out" '^== jacobi +program/solve/sweep ' "jacobi's intervals"
expect_match "$out" '^== imbalance +program/loop ' "imbalance's intervals"
expect_no_match "$out" '^== jacobi +program/loop ' "an interval of another benchmark"
# Each benchmark's intervals carry their own source: the level-0 interval is each one's executable.
expect_match "$out" '^== imbalance +program +[^ ]*/examples/imbalance:0 ' \
	"imbalance's level 0 names its own executable"
