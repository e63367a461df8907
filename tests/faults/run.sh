#!/usr/bin/env bash
# The fault cases held as data (tests/faults/*.tsv): run by tests/cli/faults-data.sh.
# usage: tests/faults/run.sh SCALEGATE SCRATCH
set -euo pipefail
SCALEGATE=$1 T=$2
top=$(cd "$(dirname "$0")/../.." && pwd)

# reseal FILE: the end record of a baseline recomputed after an edit (FNV-1a 64 of the lines before
# it).
reseal() {
	python3 - "$1" <<'PY'
import sys
p = sys.argv[1]
t = open(p, "rb").read()
body = t[:t.rindex(b"end\t")] if b"\nend\t" in t else t
h = 14695981039346656037
for b in body:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(p, "wb").write(body + b"end\t%016x\n" % h)
PY
}

cases=0 failed=0
while IFS=$'\t' read -r name want message transform; do
	case "$name" in '#'* | '') continue ;; esac
	cases=$((cases + 1))
	d="$T/$name"
	rm -rf "$d"
	cp -r "$top/tests/data/check/within-tolerance" "$d"
	f="$d/baselines/jacobi.sgbase"
	(eval "$transform")
	code=0
	"$SCALEGATE" check -c "$d/scalegate.yml" --junit "$d/junit.xml" >"$d/out" 2>&1 || code=$?
	if [ "$code" -ne "$want" ]; then
		echo "FAIL: baseline case '$name': exit $code, expected $want" >&2
		cat "$d/out" >&2
		failed=$((failed + 1))
	elif ! grep -Eq -- "$message" "$d/out"; then
		echo "FAIL: baseline case '$name': no line matches /$message/" >&2
		cat "$d/out" >&2
		failed=$((failed + 1))
	elif [ "$want" -ne 0 ] && ! grep -q '<error' "$d/junit.xml"; then
		echo "FAIL: baseline case '$name': exit $code but no <error> in the JUnit report" \
			>&2
		failed=$((failed + 1))
	elif [ "$want" -eq 0 ] && grep -q '<error' "$d/junit.xml"; then
		echo "FAIL: baseline case '$name': a JUnit <error> with exit 0" >&2
		failed=$((failed + 1))
	fi
done <"$top/tests/faults/baselines.tsv"
echo "$cases baseline cases, $failed failed"
[ "$cases" -ge 10 ] && [ "$failed" -eq 0 ]
