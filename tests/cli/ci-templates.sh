# The CI templates in ci/: yamllint-clean, and they do what the README says: run 'scalegate ci --against'
# the base with the history it needs (a branch's first push too) and a cached scalegate build, with testcase
# output, report without 'checks: write' (fork-safe) with one annotation per finding at its file:line, keep the
# reports (and results/ of a failed gate), one gate at a time, and a baseline-recording job on the gate's own
# runner. Their gate commands run on a real depth-1 clone.
. "$(dirname "$0")/lib.bash"

py=/usr/bin/python3
"$py" -c 'import yaml' 2>/dev/null || fail "python3-yaml is missing (ci/install-deps.sh installs it)"
command -v yamllint >/dev/null || fail "yamllint is missing (ci/install-deps.sh installs it)"

# yamllint: syntax, duplicate keys, indentation, trailing spaces; long lines and the document start
# marker are a matter of taste in CI files
cat >"$T/yamllint.yml" <<'YML'
extends: default
rules:
  line-length: {max: 120}
  document-start: disable
  truthy: {check-keys: false}
YML
yamllint -s -c "$T/yamllint.yml" "$SG_TOP/ci/github-actions.yml" "$SG_TOP/ci/gitlab-ci.yml" ||
	fail "yamllint finds problems in the templates"

"$py" - "$SG_TOP/ci/github-actions.yml" "$SG_TOP/ci/gitlab-ci.yml" "$SG_TOP/ci/gitlab-slurm.yml" <<'PY'
import sys, yaml

def fail(msg):
    sys.exit("FAIL: " + msg)

gh = yaml.safe_load(open(sys.argv[1]))
# PyYAML reads the key 'on' as True (YAML 1.1): accept either
on = gh.get("on", gh.get(True))
for event in ("pull_request", "push", "workflow_dispatch"):
    if event not in on: fail("github: not triggered by %s" % event)
if "checks" in gh["permissions"]: fail("github: 'checks: write' fails on forks; report without it")
if gh["permissions"].get("statuses") != "write": fail("github: posting a status needs statuses: write")
if gh["permissions"].get("contents") != "read": fail("github: the gate needs only contents: read")
if "group" not in gh.get("concurrency", {}): fail("github: no concurrency group")
jobs = gh["jobs"]
gate, rec = jobs["performance-gate"], jobs.get("record-baselines")
if not rec: fail("github: no baseline-recording job")
for name, job in jobs.items():
    for s in job["steps"]:
        if ("uses" in s) == ("run" in s): fail("github: %s: a step needs exactly one of uses and run: %s" % (name, s))
steps = gate["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
if 'scalegate ci -c scalegate.yml --testcase-output --against "$base"' not in runs:
    fail("github: no 'scalegate ci --against' step")
if "pull_request.base.sha" not in gate["env"].get("SCALEGATE_BASE", ""): fail("github: the base is not the PR's base")
checkout = [s for s in steps if s.get("uses", "").startswith("actions/checkout")][0]
if checkout.get("with", {}).get("fetch-depth") != 0: fail("github: a shallow checkout cannot hold the base (fetch-depth: 0)")
cache = [s for s in steps if s.get("uses", "").startswith("actions/cache")]
if not cache or ".scalegate" not in cache[0]["with"]["path"]: fail("github: the scalegate build is not cached")
build = [s for s in steps if "install PREFIX" in s.get("run", "")][0]
if "cache-hit" not in build.get("if", ""): fail("github: scalegate is rebuilt on a cache hit")
text = open(sys.argv[1]).read()
if "github.event.pull_request.head.repo.full_name == github.repository" not in text:
    fail("github: nothing says how to keep fork code off a self-hosted runner")
if any("junit-report" in u or "test-reporter" in u for u in uses): fail("github: a reporter that needs checks: write")
annotate = [s for s in steps if s.get("name") == "Annotate the findings"]
if not annotate or "reports/summary.json" not in annotate[0]["run"]: fail("github: the findings are not annotated")
if "GITHUB_STEP_SUMMARY" not in runs: fail("github: the Markdown summary is not added to the job")
up = {s["with"]["path"]: s.get("if") for s in steps if s.get("uses", "").startswith("actions/upload-artifact")}
if up.get("reports/") != "always()": fail("github: the reports must be kept after a failing gate too")
if up.get("results/") != "failure()": fail("github: results/ must be kept when the gate fails")
for s in steps:
    if "GITHUB_STEP_SUMMARY" in s.get("run", "") or s in annotate:
        if s.get("if") != "always()": fail("github: '%s' must run after a failing gate too" % s.get("name"))
if rec["runs-on"] != gate["runs-on"]: fail("github: baselines must be recorded on the gate's runner")
rec_runs = "\n".join(s.get("run", "") for s in rec["steps"])
if "scalegate baseline update" not in rec_runs or "git push" not in rec_runs: fail("github: the baselines are not recorded and committed")
if rec.get("permissions", {}).get("contents") != "write": fail("github: committing needs contents: write on that job only")
if "workflow_dispatch" not in rec["if"] or "record_baselines" not in gate["if"]: fail("github: the two jobs must not run together")

doc = yaml.safe_load(open(sys.argv[2]))
setup = doc[".scalegate-setup"]
gl, glrec = doc["scalegate"], doc.get("scalegate-baselines")
if not glrec: fail("gitlab: no baseline-recording job")
for name, job in (("scalegate", gl), ("scalegate-baselines", glrec)):
    if job.get("extends") != ".scalegate-setup": fail("gitlab: %s does not share the runner setup" % name)
if not setup.get("tags"): fail("gitlab: no runner tag (a dedicated, quiet runner)")
if not setup.get("resource_group"): fail("gitlab: no resource_group: two gates would run at once")
if not any("scalegate ci" in line and "--testcase-output" in line and "--against" in line for line in gl["script"]):
    fail("gitlab: no 'scalegate ci --testcase-output --against'")
if str(setup["variables"].get("GIT_DEPTH")) != "0": fail("gitlab: a shallow clone cannot hold the base (GIT_DEPTH: 0)")
if ".scalegate/" not in setup.get("cache", {}).get("paths", []): fail("gitlab: the scalegate build is not cached")
if "Protected" not in open(sys.argv[2]).read(): fail("gitlab: nothing says how to keep fork code off the runner")
if gl["artifacts"]["reports"]["junit"] != "reports/junit.xml": fail("gitlab: artifacts:reports:junit")
if gl["artifacts"]["when"] != "always": fail("gitlab: the reports must be kept when the gate fails")
if "results/" not in gl["artifacts"]["paths"]: fail("gitlab: results/ is not kept")
script = "\n".join(glrec["script"])
if "scalegate baseline update" not in script: fail("gitlab: the baselines are not recorded")
if "baselines/" not in glrec["artifacts"]["paths"]: fail("gitlab: the baselines are not kept")
if not any(r.get("when") == "manual" for r in glrec["rules"]): fail("gitlab: the baselines job cannot be started by hand")

sl = yaml.safe_load(open(sys.argv[3]))["scalegate-slurm"]
if not any(line.startswith("scalegate ci") and "--testcase-output" in line for line in sl["script"]):
    fail("gitlab-slurm: no 'scalegate ci --testcase-output' step")
if not sl.get("resource_group"): fail("gitlab-slurm: no resource_group: two gates would submit at once")
if "$CI_JOB_ID" not in sl["variables"].get("SBATCH_JOB_NAME", ""): fail("gitlab-slurm: the Slurm job is not named after the CI job")
if not any(("scancel" in line and sl["variables"]["SBATCH_JOB_NAME"].replace("$CI_JOB_ID", "") in line)
           for line in sl["after_script"]): fail("gitlab-slurm: after_script does not cancel the job by its name")
if sl["artifacts"]["reports"]["junit"] != "reports/junit.xml": fail("gitlab-slurm: artifacts:reports:junit")
if sl["artifacts"]["when"] != "always": fail("gitlab-slurm: the reports must be kept when the gate fails")
if "results/.slurm/job.out" not in sl["artifacts"]["paths"]: fail("gitlab-slurm: the job's output is not kept")
PY

# The annotation step works on a report: run its script on the JSON summary of a check. One annotation per
# finding, not per failed check (the residual's serial code fails 6 checks, 3 of them in program/solve), at
# the interval's file:line.
sed -n '/^          python3 - reports\/summary.json <<.PY.$/,/^          PY$/p' "$SG_TOP/ci/github-actions.yml" |
	sed '1d;$d;s/^          //' >"$T/annotate.py"
[ -s "$T/annotate.py" ] || fail "github: no annotation script found"
"$SCALEGATE" check -c "$SG_TOP/tests/data/check/clear-regression/scalegate.yml" --json "$T/summary.json" \
	>/dev/null 2>&1 || true
ann=$("$py" "$T/annotate.py" "$T/summary.json")
[ "$(grep -c '^::' <<<"$ann")" = 1 ] || { printf '%s\n' "$ann" >&2; fail "github: not one annotation for one finding"; }
expect_match "$ann" '^::error file=jacobi\.c,line=36,title=scalegate jacobi program/solve/residual 1 rank × 2 threads::Insufficient_parallelism \(serial code\) grew from 0\.0 %25 to 50\.0 %25 .* \(6 checks failed\)$' \
	"github: the finding's annotation with file and line"
# A finding of the whole program, which has no line: the program's executable, with the benchmark's command.
cp -r "$SG_TOP/tests/data/check/clear-regression" "$T/whole"
sed -i 's|interval: "program/solve\*"|interval: program|' "$T/whole/scalegate.yml"
"$SCALEGATE" check -c "$T/whole/scalegate.yml" --json "$T/whole.json" >/dev/null 2>&1 || true
ann=$("$py" "$T/annotate.py" "$T/whole.json")
[ "$(grep -c '^::' <<<"$ann")" = 1 ] || { printf '%s\n' "$ann" >&2; fail "github: not one annotation for the program"; }
expect_match "$ann" '^::error file=jacobi,title=scalegate jacobi program 1 rank × 2 threads::.*\(3 checks failed\); the benchmark runs \./jacobi \{threads\} 300$' \
	"github: the whole program's annotation: its executable and the benchmark's command"
# A warning is one too, as a warning.
ann=$("$py" "$T/annotate.py" "$SG_TOP/tests/data/post/findings.json")
[ "$(grep -c '^::error ' <<<"$ann") $(grep -c '^::warning ' <<<"$ann")" = "2 1" ] ||
	{ printf '%s\n' "$ann" >&2; fail "github: the findings' annotations"; }

# step FILE JOB NAME: the 'run' of a GitHub job's step by its name; gitlab FILE JOB KEY: a GitLab job's script lines.
step() {
	"$py" -c 'import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"][sys.argv[2]]["steps"]
print([s for s in steps if s.get("name") == sys.argv[3]][0]["run"])' "$@"
}
gitlab() {
	"$py" -c 'import sys, yaml; print("\n".join(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]))' "$@"
}
gh_gate=$(step "$SG_TOP/ci/github-actions.yml" performance-gate "Performance gate")
gl_gate=$(gitlab "$SG_TOP/ci/gitlab-ci.yml" scalegate script)
# with_scalegate DIR [PROGRAM]: DIR, with PROGRAM (default: scalegate) where the templates install scalegate.
with_scalegate() {
	mkdir -p "$1/.scalegate/bin" "$1/reports"
	ln -sf "${2:-$SCALEGATE}" "$1/.scalegate/bin/scalegate"
}

# A push that creates a branch: GitHub's 'before' is forty zeros, which no clone has. Both templates take the
# parent then (a stand-in scalegate records what the gate step gives it).
zero=0000000000000000000000000000000000000000
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"$ARGS"\n' >"$T/args.sh"
chmod +x "$T/args.sh"
git init -q "$T/zero"
with_scalegate "$T/zero" "$T/args.sh"
cd "$T/zero"
ARGS=$T/gh.args SCALEGATE_BASE=$zero bash -ec "$gh_gate"
[ "$(grep -A1 -x -- --against "$T/gh.args")" = "--against
HEAD~1" ] || fail "github: a new branch's push: $(tr '\n' ' ' <"$T/gh.args")"
ARGS=$T/gl.args SCALEGATE_BASE= CI_COMMIT_BEFORE_SHA=$zero PATH="$PWD/.scalegate/bin:$PATH" bash -ec "$gl_gate"
[ "$(grep -A1 -x -- --against "$T/gl.args")" = "--against
HEAD~1" ] || fail "gitlab: a new branch's push: $(tr '\n' ' ' <"$T/gl.args")"

# The gate commands on a real depth-1 clone (what actions/checkout and GitLab give by default): the toy
# repository's head turns a serial residual on. The PR's base is its parent, which the clone lacks.
knob_repo "$T/origin" >/dev/null
base_sha=$(git -C "$T/origin" rev-parse HEAD~1)
# clone DIR: a depth-1 clone of the toy repository with scalegate where the templates install it.
clone() {
	git clone -q --depth 1 "file://$T/origin" "$1"
	mkdir -p "$1/.scalegate/bin"
	ln -s "$SCALEGATE" "$1/.scalegate/bin/scalegate"
	printf '.scalegate/\n' >>"$1/.git/info/exclude"
}
# GitHub, without 'fetch-depth: 0': a usage error that names the fix.
clone "$T/gh"
cd "$T/gh"
expect_exit 2 env SCALEGATE_BASE="$base_sha" GITHUB_TOKEN= bash -ec "$gh_gate"
expect_match "$out" "no such revision in this shallow clone .*git fetch --unshallow .*fetch-depth: 0" \
	"a shallow clone is a usage error with the fix"
# With the history ('fetch-depth: 0' fetches it all): the regression fails the pull request.
git fetch -q --unshallow
expect_exit 1 env SCALEGATE_BASE="$base_sha" GITHUB_TOKEN= bash -ec "$gh_gate"
expect_match "$(checks_of "$out")" "^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism" \
	"github: the regression against the PR's base"
# One finding for the residual's many failed checks. The serial residual can also slow the next sweep
# at 2 threads for real (it pulls the worker's rows into the master's cache: the worker's half
# starts cold), a second finding on another interval; none elsewhere.
expect_match "$out" "^scalegate check: [0-9]+ checks: [12] regressions? \([0-9]+ checks? failed\)" \
	"github: one finding per interval the change slowed"
printf '%s\n' "$out" | grep '^FAIL jacobi ' |
	grep -Ev '^FAIL jacobi program/solve/(residual|sweep) 1 rank × 2 threads: ' &&
	fail "github: a finding beside the residual's (and the sweep's at 2 threads)"
expect_match "$out" "^    cause: Insufficient_parallelism \(serial code\) grew" "github: the cause"
# An unchanged commit (the PR's base is its head): nothing fails. On a busy machine its time checks may all stay
# inconclusive, which is 'could not decide' (exit 3), never a pass on no judgement and never a regression.
code=0
out=$(env SCALEGATE_BASE="$(git rev-parse HEAD)" GITHUB_TOKEN= bash -ec "$gh_gate" 2>&1) || code=$?
pass_or_undecided $code "$out" "github: an unchanged commit"
# GitLab: the script deepens a shallow clone itself (PATH as its before_script sets it).
clone "$T/gl"
cd "$T/gl"
expect_exit 1 env PATH="$PWD/.scalegate/bin:$PATH" SCALEGATE_BASE="$base_sha" bash -ec "$gl_gate"
expect_match "$(checks_of "$out")" "^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism" \
	"gitlab: the regression against the MR's base"
