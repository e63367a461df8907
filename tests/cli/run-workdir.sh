# Where commands run (docs/configuration.md, "Where commands run"): in a scratch directory, not in
# 'workdir'. The wrapper script the docs give finds its program through $SCALEGATE_WORKDIR, and its
# runs are ok.
. "$(dirname "$0")/lib.bash"

mkdir "$T/wd"
# the wrapper exactly as the docs show it
sed -n '/^  #!\/bin\/sh$/,/^  ```$/p' "$SG_TOP/docs/configuration.md" | sed '$d; s/^  //' \
	>"$T/wd/run.sh"
grep -q '"\$SCALEGATE_WORKDIR"' "$T/wd/run.sh" && pass ||
	fail "docs/configuration.md shows no wrapper script that uses SCALEGATE_WORKDIR: $(cat \
		"$T/wd/run.sh")"
# ./stencil -t N, as the wrapper calls it: the tracer's example program
printf '#!/bin/sh\nexec "%s" "$2" 50 2\n' "$SG_BUILD/examples/jacobi" >"$T/wd/stencil"
chmod +x "$T/wd/run.sh" "$T/wd/stencil"
cat >"$T/scalegate.yml" <<'YML'
benchmarks:
  - name: wrapped
    command: ./run.sh {threads}
    workdir: wd
    threads: [1, 2]
    repeat: 1
    warmup: 0
    env:
      OMP_PROC_BIND: "false"
YML
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
statuses=$(awk -F'\t' 'NR > 1 { print $7 }' "$T/results/manifest.tsv" | sort | uniq -c | tr -s ' ')
[ "$statuses" = " 2 ok" ] && pass ||
	fail "the wrapper's runs: $statuses; $(cat "$T/results/manifest.tsv")"
