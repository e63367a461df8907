# The fault cases held as data under tests/faults/: broken baselines never pass, each named with its
# file.
# tier: fast
. "$(dirname "$0")/lib.bash"
gate_memory_bounded

"$SG_TOP/tests/faults/run.sh" "$SCALEGATE" "$T"

# A baseline of another machine: an error (exit 3) for a gating rule, a warning for a rule with
# 'level: warn'.
cp -r "$SG_TOP/tests/data/check/within-tolerance" "$T/warn"
sed -i 's/^    significance: 0.05$/    significance: 0.05\n    level: warn/' "$T/warn/scalegate.yml"
grep -q 'level: warn' "$T/warn/scalegate.yml" && pass || fail "the rule was not edited"
sed -i 's/^fingerprint\tcpu_model\t.*/fingerprint\tcpu_model\tOther CPU/' \
	"$T/warn/baselines/jacobi.sgbase"
python3 - "$T/warn/baselines/jacobi.sgbase" <<'PY'
import sys
p = sys.argv[1]
t = open(p, "rb").read()
body = t[:t.rindex(b"end\t")]
h = 14695981039346656037
for b in body:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(p, "wb").write(body + b"end\t%016x\n" % h)
PY
expect_exit 0 "$SCALEGATE" check -c "$T/warn/scalegate.yml"
expect_match "$(checks_of "$out")" \
	"^WARN jacobi .* fingerprint: .*recorded in another environment" \
	"a warn-level rule only warns"
expect_no_match "$out" "^ERROR " "no error for a warn-level rule"
