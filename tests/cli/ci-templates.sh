# The CI templates in ci/ parse as YAML and do what the README says: run 'scalegate ci',
# publish the JUnit report, keep the reports, and (GitHub) fill the job summary.
. "$(dirname "$0")/lib.bash"

py=/usr/bin/python3
"$py" -c 'import yaml' 2>/dev/null || fail "python3-yaml is missing (ci/install-deps.sh installs it)"

"$py" - "$SG_TOP/ci/github-actions.yml" "$SG_TOP/ci/gitlab-ci.yml" "$SG_TOP/ci/gitlab-slurm.yml" <<'PY'
import sys, yaml

def fail(msg):
    sys.exit("FAIL: " + msg)

gh = yaml.safe_load(open(sys.argv[1]))
steps = gh["jobs"]["performance-gate"]["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
if "scalegate ci -c scalegate.yml" not in runs: fail("github: no 'scalegate ci' step")
if not any(u.startswith("mikepenz/action-junit-report") for u in uses): fail("github: the JUnit report is not published")
if not any(u.startswith("actions/upload-artifact") for u in uses): fail("github: the reports are not kept")
if "GITHUB_STEP_SUMMARY" not in runs: fail("github: the Markdown summary is not added to the job")
for s in steps:
    if s.get("uses", "").startswith(("mikepenz", "actions/upload")) or "GITHUB_STEP_SUMMARY" in s.get("run", ""):
        if s.get("if") != "always()": fail("github: '%s' must run after a failing gate too" % s.get("name"))
if gh["permissions"].get("statuses") != "write": fail("github: posting a status needs statuses: write")

gl = yaml.safe_load(open(sys.argv[2]))["scalegate"]
if not any("scalegate ci" in line for line in gl["script"]): fail("gitlab: no 'scalegate ci' step")
if gl["artifacts"]["reports"]["junit"] != "reports/junit.xml": fail("gitlab: artifacts:reports:junit")
if gl["artifacts"]["when"] != "always": fail("gitlab: the reports must be kept when the gate fails")

sl = yaml.safe_load(open(sys.argv[3]))["scalegate-slurm"]
if not any(line.startswith("scalegate ci") for line in sl["script"]): fail("gitlab-slurm: no 'scalegate ci' step")
if "$CI_JOB_ID" not in sl["variables"].get("SBATCH_JOB_NAME", ""): fail("gitlab-slurm: the Slurm job is not named after the CI job")
if not any(("scancel" in line and sl["variables"]["SBATCH_JOB_NAME"].replace("$CI_JOB_ID", "") in line)
           for line in sl["after_script"]): fail("gitlab-slurm: after_script does not cancel the job by its name")
if sl["artifacts"]["reports"]["junit"] != "reports/junit.xml": fail("gitlab-slurm: artifacts:reports:junit")
if sl["artifacts"]["when"] != "always": fail("gitlab-slurm: the reports must be kept when the gate fails")
if "results/.slurm/job.out" not in sl["artifacts"]["paths"]: fail("gitlab-slurm: the job's output is not kept")
PY
