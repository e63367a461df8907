# Every error of a configuration in one pass: its own keys, its 'slurm:' section, its rules and its
# 'post:' section, for 'check --validate' (which validates post: and slurm: too) and for 'ci'
# (before anything runs). 'ci --validate' checks, besides, what only ci reads (reports:, workdirs,
# the base revision or the stored baselines) and runs nothing.
# tier: fast
. "$(dirname "$0")/lib.bash"

cat >"$T/scalegate.yml" <<'YML'
benchmarks:
  - name: a
    command: "true"
    treads: [1]
post:
  format: githib
slurm:
  tme: 10
rules:
  - name: s
    share_max: {sync: 0.2}
  - name: t
    tolerance: {time: 5}
YML
for cmd in "check --validate" "ci --validate" "ci --no-run --no-post"; do
	expect_exit 2 "$SCALEGATE" $cmd -c "$T/scalegate.yml"
	expect_match "$out" "scalegate.yml:4:5: unknown key 'treads'; did you mean 'threads'\?" \
		"$cmd: a benchmark key"
	expect_match "$out" "scalegate.yml:8:3: unknown key 'tme'; did you mean 'time'\?" \
		"$cmd: a slurm key"
	re="scalegate.yml:11:17: unknown component 'sync' in 'share_max'; did "
	re+="you mean 'synchronization'\? \(one of .*\)"
	expect_match "$out" "$re" \
		"$cmd: a rule, in the same pass"
	expect_match "$out" "scalegate.yml:13:23: 'tolerance.time' needs a unit: '5%' .* or '5s'" \
		"$cmd: a bare time tolerance"
done
for cmd in "check --validate" "ci --validate"; do
	expect_exit 2 "$SCALEGATE" $cmd -c "$T/scalegate.yml"
	re="scalegate.yml:6:11: 'format' must be json, github or gitlab, "
	re+="not 'githib'; did you mean 'github'\?"
	expect_match "$out" "$re" \
		"$cmd checks post:, with the nearest format"
done
# ci --no-post reads no post: section, and its --validate says nothing of it
expect_exit 2 "$SCALEGATE" ci --validate --no-post -c "$T/scalegate.yml"
expect_no_match "$out" "'format'" "ci --validate --no-post checked post:"
# Fixed, it is valid.
script='s/treads/threads/; s/githib/github/; s/tme:/time:/; '
script+='s/sync:/synchronization:/; s/time: 5}/time: 5%}/'
sed -i "$script" "$T/scalegate.yml"
expect_exit 0 "$SCALEGATE" check --validate -c "$T/scalegate.yml"
expect_match "$out" "valid, 2 rules" "the fixed file is valid"

# ci --validate: valid, it says what ci would use and runs nothing; a benchmark without a baseline
# is a warning (ci would exit 3), not a mistake of the file.
expect_exit 0 "$SCALEGATE" ci --validate -c "$T/scalegate.yml"
expect_match "$out" "valid, 2 rules" "ci --validate: the fixed file is valid"
re="warning: benchmark 'a' has no baseline '$T/baselines/a.sgbase': 'ci' would compare nothing"
expect_match "$out" "$re" \
	"ci --validate: the missing baseline"
re="^ci would compare with 0 stored baselines in $T/baselines \(1 benchmark without one\), "
re+="write its reports into $T/reports and post the summary; nothing ran$"
expect_match "$out" "$re" \
	"ci --validate: what ci would do"
[ ! -e "$T/results" ] && [ ! -e "$T/reports" ] && pass ||
	fail "ci --validate wrote results or reports"
expect_exit 0 "$SCALEGATE" ci --validate --allow-no-reference -c "$T/scalegate.yml"
expect_no_match "$out" "warning" "--allow-no-reference: a missing baseline is no warning"

# The baselines ci would read: good, damaged, another benchmark's.
mkdir -p "$T/b/baselines" "$T/b/cut"
printf 'benchmarks:\n  - name: jacobi\n    command: "true"\n' >"$T/b/scalegate.yml"
cp "$SG_TOP/tests/data/check/clear-regression/baselines/jacobi.sgbase" "$T/b/baselines/"
expect_exit 0 "$SCALEGATE" ci --validate -c "$T/b/scalegate.yml"
expect_match "$out" "^ci would compare with 1 stored baseline in $T/b/baselines, write" \
	"a baseline read"
head -n 20 "$T/b/baselines/jacobi.sgbase" >"$T/b/cut/jacobi.sgbase"
expect_exit 2 "$SCALEGATE" ci --validate --baselines "$T/b/cut" -c "$T/b/scalegate.yml"
expect_match "$out" "$T/b/cut/jacobi.sgbase" "a damaged baseline is named"
expect_no_match "$out" "valid" "a damaged baseline is not valid"
printf '  - name: other\n    command: "true"\n' >>"$T/b/scalegate.yml"
cp "$T/b/baselines/jacobi.sgbase" "$T/b/baselines/other.sgbase"
expect_exit 2 "$SCALEGATE" ci --validate -c "$T/b/scalegate.yml"
expect_match "$out" \
	"'$T/b/baselines/other.sgbase' is the baseline of benchmark 'jacobi', not of 'other'" \
	"another benchmark's baseline"

# With --against, the revision instead: not in a repository, not there, there.
expect_exit 2 "$SCALEGATE" ci --validate --against HEAD -c "$T/scalegate.yml"
expect_match "$out" "--against HEAD: '$T' is not in a git repository" "no repository"
git -C "$T" init -q && git -C "$T" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
expect_exit 2 "$SCALEGATE" ci --validate --against no-such-rev -c "$T/scalegate.yml"
expect_match "$out" "--against no-such-rev: no such revision" "a revision that is not there"
expect_exit 0 "$SCALEGATE" ci --validate --against HEAD -c "$T/scalegate.yml"
expect_match "$out" "^ci would compare with the base revision HEAD, write" "the base revision"
[ "$(git -C "$T" worktree list | wc -l)" -eq 1 ] && pass ||
	fail "ci --validate checked the base out"

# A workdir that is not there: at its position (ci would run the command somewhere else).
sed -i 's|command: "true"|command: "true"\n    workdir: nowhere|' "$T/scalegate.yml"
expect_exit 2 "$SCALEGATE" ci --validate --against HEAD -c "$T/scalegate.yml"
expect_match "$out" "scalegate.yml:4:14: benchmark 'a': workdir '$T/nowhere' is not a directory" \
	"a missing workdir"
expect_exit 0 "$SCALEGATE" check --validate -c "$T/scalegate.yml"
