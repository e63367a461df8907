# Every error of a configuration in one pass: its own keys, its 'slurm:' section, its rules and its 'post:'
# section, for 'check --validate' (which validates post: and slurm: too) and for 'ci' (before anything runs).
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
for cmd in "check --validate" "ci --no-run --no-post"; do
	expect_exit 2 "$SCALEGATE" $cmd -c "$T/scalegate.yml"
	expect_match "$out" "scalegate.yml:4:5: unknown key 'treads'; did you mean 'threads'\?" "$cmd: a benchmark key"
	expect_match "$out" "scalegate.yml:8:3: unknown key 'tme'; did you mean 'time'\?" "$cmd: a slurm key"
	expect_match "$out" "scalegate.yml:11:17: unknown component 'sync' in 'share_max'; did you mean 'synchronization'\? \(one of .*\)" \
		"$cmd: a rule, in the same pass"
	expect_match "$out" "scalegate.yml:13:23: 'tolerance.time' needs a unit: '5%' .* or '5s'" "$cmd: a bare time tolerance"
done
expect_exit 2 "$SCALEGATE" check --validate -c "$T/scalegate.yml"
expect_match "$out" "scalegate.yml:6:11: 'format' must be json, github or gitlab, not 'githib'; did you mean 'github'\?" \
	"--validate checks post:, with the nearest format"
# Fixed, it is valid.
sed -i 's/treads/threads/; s/githib/github/; s/tme:/time:/; s/sync:/synchronization:/; s/time: 5}/time: 5%}/' "$T/scalegate.yml"
expect_exit 0 "$SCALEGATE" check --validate -c "$T/scalegate.yml"
expect_match "$out" "valid, 2 rules" "the fixed file is valid"
