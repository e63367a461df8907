# The CI templates in ci/: yamllint-clean, and they do what the README says: run 'scalegate ci
# --against' the base with the history it needs (a branch's first push too) and a cached scalegate
# build, with testcase output; the GitHub gate holds no write permission (fork-safe) and annotates
# each finding once at its file:line, a workflow_run workflow posts the status and one pull-request
# comment that each push edits, GitLab's job a merge-request note; keep the reports (and results/ of
# a failed gate), one gate at a time, and a baseline-recording job on the gate's own runner. Their
# gate commands run on a real depth-1 clone, their posting steps against a double of the GitHub and
# GitLab APIs.
. "$(dirname "$0")/lib.bash"
. "$SG_TOP/tests/data/post/lib.bash"

py=/usr/bin/python3
"$py" -c 'import yaml' 2>/dev/null && pass ||
	fail "python3-yaml is missing (ci/install-deps.sh installs it)"
command -v yamllint >/dev/null && pass ||
	fail "yamllint is missing (ci/install-deps.sh installs it)"

# yamllint: syntax, duplicate keys, indentation, trailing spaces; long lines and the document start
# marker are a matter of taste in CI files
cat >"$T/yamllint.yml" <<'YML'
extends: default
rules:
  line-length: {max: 120}
  document-start: disable
  truthy: {check-keys: false}
YML
yamllint -s -c "$T/yamllint.yml" "$SG_TOP/ci/github-actions.yml" \
	"$SG_TOP/ci/github-actions-comment.yml" \
	"$SG_TOP/ci/gitlab-ci.yml" && pass || fail "yamllint finds problems in the templates"

"$py" - "$SG_TOP/ci/github-actions.yml" "$SG_TOP/ci/gitlab-ci.yml" "$SG_TOP/ci/gitlab-slurm.yml" \
	"$SG_TOP/ci/github-actions-comment.yml" <<'PY'
import sys, yaml

def fail(msg):
    sys.exit("FAIL: " + msg)

gh = yaml.safe_load(open(sys.argv[1]))
# PyYAML reads the key 'on' as True (YAML 1.1): accept either
on = gh.get("on", gh.get(True))
for event in ("pull_request", "push", "workflow_dispatch"):
    if event not in on: fail("github: not triggered by %s" % event)
if gh["permissions"] != {"contents": "read"}:
    fail("github: the gate needs only contents: read, not %s" % gh["permissions"])
if "group" not in gh.get("concurrency", {}): fail("github: no concurrency group")
jobs = gh["jobs"]
gate, rec = jobs["performance-gate"], jobs.get("record-baselines")
if not rec: fail("github: no baseline-recording job")
for name, job in jobs.items():
    for s in job["steps"]:
        if ("uses" in s) == ("run" in s):
            fail("github: %s: a step needs exactly one of uses and run: %s" % (name, s))
steps = gate["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
if 'scalegate ci -c scalegate.yml --testcase-output --no-post --against "$base"' not in runs:
    fail("github: no 'scalegate ci --no-post --against' step")
# The job that runs the pull request's code can write nothing, and holds no token to try with.
if any(v == "write" for v in gate.get("permissions", {}).values()):
    fail("github: the gate job may write")
for s in steps + [{"name": "(the job)", "env": gate.get("env", {})}]:
    text = str(s.get("env", {})) + str(s.get("with", {}))
    if "secrets." in text or "github.token" in text or "GITHUB_TOKEN" in text:
        fail("github: the gate job's step '%s' gets a token" % s.get("name"))
if "pull_request.base.sha" not in gate["env"].get("SCALEGATE_BASE", ""):
    fail("github: the base is not the PR's base")
checkout = [s for s in steps if s.get("uses", "").startswith("actions/checkout")][0]
if checkout.get("with", {}).get("fetch-depth") != 0:
    fail("github: a shallow checkout cannot hold the base (fetch-depth: 0)")
cache = [s for s in steps if s.get("uses", "").startswith("actions/cache")]
if not cache or ".scalegate" not in cache[0]["with"]["path"]:
    fail("github: the scalegate build is not cached")
build = [s for s in steps if "install PREFIX" in s.get("run", "")][0]
if "cache-hit" not in build.get("if", ""): fail("github: scalegate is rebuilt on a cache hit")
text = open(sys.argv[1]).read()
if "github.event.pull_request.head.repo.full_name == github.repository" not in text:
    fail("github: nothing says how to keep fork code off a self-hosted runner")
if any("junit-report" in u or "test-reporter" in u for u in uses):
    fail("github: a reporter that needs checks: write")
annotate = [s for s in steps if s.get("name") == "Annotate the findings"]
if not annotate or "reports/summary.json" not in annotate[0]["run"]:
    fail("github: the findings are not annotated")
if "GITHUB_STEP_SUMMARY" not in runs: fail("github: the Markdown summary is not added to the job")
up = {s["with"]["name"]: (s["with"]["path"], s.get("if"))
      for s in steps if s.get("uses", "").startswith("actions/upload-artifact")}
if up.get("scalegate-reports") != ("reports/", "always()"):
    fail("github: the reports must be kept after a failing gate too")
if up.get("scalegate-results") != ("results/", "failure()"):
    fail("github: results/ must be kept when the gate fails")
if up.get("scalegate-comment", (0, 0))[1] != "always()":
    fail("github: the comment's summary must be handed over after a failing gate too")
for s in steps:
    if ("GITHUB_STEP_SUMMARY" in s.get("run", "") or s in annotate
        or "scalegate-comment" in s.get("run", "")):
        if s.get("if") != "always()":
            fail("github: '%s' must run after a failing gate too" % s.get("name"))

# The comment workflow: triggered by the gate's runs, this repository's code only, a token that may
# write statuses and pull-request comments, the head commit from the event (the artifact's number is
# checked against it).
cm = yaml.safe_load(open(sys.argv[4]))
con = cm.get("on", cm.get(True))
if list(con) != ["workflow_run"] or con["workflow_run"]["workflows"] != [gh["name"]]:
    fail("comment: not triggered by the gate's workflow_run: %s" % con)
if cm["permissions"] != {}: fail("comment: permissions beyond the job's")
(job,) = cm["jobs"].values()
if job["permissions"] != {"actions": "read", "statuses": "write", "pull-requests": "write"}:
    fail("comment: permissions %s" % job["permissions"])
co = [s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout")][0]
if "ref" in co.get("with", {}) or "repository" in co.get("with", {}):
    fail("comment: checks out other code than its own")
dl = [s for s in job["steps"] if s.get("uses", "").startswith("actions/download-artifact")][0]
if (dl["with"].get("name") != "scalegate-comment"
    or "workflow_run.id" not in dl["with"].get("run-id", "")):
    fail("comment: does not download the gate run's summary")
post = [s for s in job["steps"] if "scalegate post" in s.get("run", "")][0]
if ("--comment" not in post["run"]
    or post["env"].get("HEAD_SHA") != "${{ github.event.workflow_run.head_sha }}"):
    fail("comment: no 'scalegate post --comment' on the judged commit")
if "make" in "".join(s.get("run", "")
                     for s in job["steps"] if "install PREFIX" not in s.get("run", "")):
    fail("comment: builds something besides scalegate")
if rec["runs-on"] != gate["runs-on"]:
    fail("github: baselines must be recorded on the gate's runner")
rec_runs = "\n".join(s.get("run", "") for s in rec["steps"])
if "scalegate baseline update" not in rec_runs or "git push" not in rec_runs:
    fail("github: the baselines are not recorded and committed")
if rec.get("permissions", {}).get("contents") != "write":
    fail("github: committing needs contents: write on that job only")
if "workflow_dispatch" not in rec["if"] or "record_baselines" not in gate["if"]:
    fail("github: the two jobs must not run together")

doc = yaml.safe_load(open(sys.argv[2]))
setup = doc[".scalegate-setup"]
gl, glrec = doc["scalegate"], doc.get("scalegate-baselines")
if not glrec: fail("gitlab: no baseline-recording job")
for name, job in (("scalegate", gl), ("scalegate-baselines", glrec)):
    if job.get("extends") != ".scalegate-setup":
        fail("gitlab: %s does not share the runner setup" % name)
if not setup.get("tags"): fail("gitlab: no runner tag (a dedicated, quiet runner)")
if not setup.get("resource_group"): fail("gitlab: no resource_group: two gates would run at once")
if not any("scalegate ci" in line and "--testcase-output" in line and "--no-post --against" in line
           for line in gl["script"]):
    fail("gitlab: no 'scalegate ci --testcase-output --no-post --against'")
if not any("scalegate post" in line and "--comment" in line for line in gl.get("after_script", [])):
    fail("gitlab: no merge-request note ('scalegate post --comment' in after_script)")
if str(setup["variables"].get("GIT_DEPTH")) != "0":
    fail("gitlab: a shallow clone cannot hold the base (GIT_DEPTH: 0)")
if ".scalegate/" not in setup.get("cache", {}).get("paths", []):
    fail("gitlab: the scalegate build is not cached")
if "Protected" not in open(sys.argv[2]).read():
    fail("gitlab: nothing says how to keep fork code off the runner")
if gl["artifacts"]["reports"]["junit"] != "reports/junit.xml":
    fail("gitlab: artifacts:reports:junit")
if gl["artifacts"]["when"] != "always": fail("gitlab: the reports must be kept when the gate fails")
if "results/" not in gl["artifacts"]["paths"]: fail("gitlab: results/ is not kept")
script = "\n".join(glrec["script"])
if "scalegate baseline update" not in script: fail("gitlab: the baselines are not recorded")
if "baselines/" not in glrec["artifacts"]["paths"]: fail("gitlab: the baselines are not kept")
if not any(r.get("when") == "manual" for r in glrec["rules"]):
    fail("gitlab: the baselines job cannot be started by hand")

sl = yaml.safe_load(open(sys.argv[3]))["scalegate-slurm"]
if not any(line.startswith("scalegate ci")
           and "--testcase-output" in line for line in sl["script"]):
    fail("gitlab-slurm: no 'scalegate ci --testcase-output' step")
if not sl.get("resource_group"):
    fail("gitlab-slurm: no resource_group: two gates would submit at once")
if "$CI_JOB_ID" not in sl["variables"].get("SBATCH_JOB_NAME", ""):
    fail("gitlab-slurm: the Slurm job is not named after the CI job")
if not any(("scancel" in line
            and sl["variables"]["SBATCH_JOB_NAME"].replace("$CI_JOB_ID", "") in line)
           for line in sl["after_script"]): fail("gitlab-slurm: after_script does not cancel the "
                                                 "job by its name")
if sl["artifacts"]["reports"]["junit"] != "reports/junit.xml":
    fail("gitlab-slurm: artifacts:reports:junit")
if sl["artifacts"]["when"] != "always":
    fail("gitlab-slurm: the reports must be kept when the gate fails")
if "results/.slurm/job.out" not in sl["artifacts"]["paths"]:
    fail("gitlab-slurm: the job's output is not kept")
PY

# The annotation step works on a report: run its script on the JSON summary of a check. One
# annotation per finding, not per failed check (the residual's serial code fails 6 checks, 3 of them
# in program/solve), at the interval's file:line.
sed -n '/^          python3 - reports\/summary.json <<.PY.$/,/^          PY$/p' \
	"$SG_TOP/ci/github-actions.yml" |
	sed '1d;$d;s/^          //' >"$T/annotate.py"
[ -s "$T/annotate.py" ] && pass || fail "github: no annotation script found"
"$SCALEGATE" check -c "$SG_TOP/tests/data/check/clear-regression/scalegate.yml" \
	--json "$T/summary.json" \
	>/dev/null 2>&1 || true
ann=$("$py" "$T/annotate.py" "$T/summary.json")
[ "$(grep -c '^::' <<<"$ann")" = 1 ] && pass || { printf '%s\n' "$ann" >&2; fail \
	"github: not one annotation for one finding"; }
re='^::error file=jacobi\.c,line=36,title=scalegate jacobi '
re+='program/solve/residual 1 rank × 2 threads::Insufficient_parallelism '
re+='\(serial code\) grew from 0\.0 %25 to 50\.0 %25 .* \(6 checks failed\)$'
expect_match "$ann" "$re" \
	"github: the finding's annotation with file and line"
# A finding of the whole program, which has no line: the program's executable, with the benchmark's
# command.
cp -r "$SG_TOP/tests/data/check/clear-regression" "$T/whole"
sed -i 's|interval: "program/solve\*"|interval: program|' "$T/whole/scalegate.yml"
"$SCALEGATE" check -c "$T/whole/scalegate.yml" --json "$T/whole.json" >/dev/null 2>&1 || true
ann=$("$py" "$T/annotate.py" "$T/whole.json")
[ "$(grep -c '^::' <<<"$ann")" = 1 ] && pass || { printf '%s\n' "$ann" >&2; fail \
	"github: not one annotation for the program"; }
re='^::error file=jacobi,title=scalegate jacobi program 1 rank × 2 threads::.*\(3 '
re+='checks failed\); the benchmark runs \./jacobi \{threads\} 300$'
expect_match "$ann" "$re" \
	"github: the whole program's annotation: its executable and the benchmark's command"
# A warning is one too, as a warning.
ann=$("$py" "$T/annotate.py" "$DATA/findings.json")
[ "$(grep -c '^::error ' <<<"$ann") $(grep -c '^::warning ' <<<"$ann")" = "2 1" ] ||
	{ printf '%s\n' "$ann" >&2; fail "github: the findings' annotations"; }

# step FILE JOB NAME: the 'run' of a GitHub job's step by its name; gitlab FILE JOB KEY: a GitLab
# job's script lines.
step() {
	"$py" -c 'import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"][sys.argv[2]]["steps"]
print([s for s in steps if s.get("name") == sys.argv[3]][0]["run"])' "$@"
}
gitlab() {
	prog='import sys, yaml; print("'
	prog+='\n".join(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]))'
	"$py" -c "$prog" "$@"
}
gh_gate=$(step "$SG_TOP/ci/github-actions.yml" performance-gate "Performance gate")
gl_gate=$(gitlab "$SG_TOP/ci/gitlab-ci.yml" scalegate script)
handover=$(step "$SG_TOP/ci/github-actions.yml" performance-gate \
	"Hand the summary to the comment workflow")
gh_post=$(step "$SG_TOP/ci/github-actions-comment.yml" post "Post the status and the comment")
gl_post=$(gitlab "$SG_TOP/ci/gitlab-ci.yml" scalegate after_script)
# with_scalegate DIR [PROGRAM]: DIR, with PROGRAM (default: scalegate) where the templates install
# scalegate.
with_scalegate() {
	mkdir -p "$1/.scalegate/bin" "$1/reports"
	ln -sf "${2:-$SCALEGATE}" "$1/.scalegate/bin/scalegate"
}

# A push that creates a branch: GitHub's 'before' is forty zeros, which no clone has. Both templates
# take the parent then (a stand-in scalegate records what the gate step gives it).
zero=0000000000000000000000000000000000000000
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"$ARGS"\n' >"$T/args.sh"
chmod +x "$T/args.sh"
git init -q "$T/zero"
with_scalegate "$T/zero" "$T/args.sh"
cd "$T/zero"
ARGS=$T/gh.args SCALEGATE_BASE=$zero bash -ec "$gh_gate"
[ "$(grep -A1 -x -- --against "$T/gh.args")" = "--against
HEAD~1" ] && pass || fail "github: a new branch's push: $(tr '\n' ' ' <"$T/gh.args")"
grep -qx -- --no-post "$T/gh.args" && pass || fail "github: the gate job posts"
ARGS=$T/gl.args SCALEGATE_BASE= CI_COMMIT_BEFORE_SHA=$zero PATH="$PWD/.scalegate/bin:$PATH" bash \
	-ec "$gl_gate"
[ "$(grep -A1 -x -- --against "$T/gl.args")" = "--against
HEAD~1" ] && pass || fail "gitlab: a new branch's push: $(tr '\n' ' ' <"$T/gl.args")"

# The GitHub comment: the gate job hands its summary and the pull request's number over, the comment
# workflow posts the status and creates the comment; the next push edits it. Against the API double;
# the artifact travels from one runner's temporary directory to the other's.
other=fedcba9876543210fedcba9876543210fedcba98
start_api --pull "7=$SHA" --pull "8=$other"
with_scalegate "$T/ghpost"
cd "$T/ghpost"
# push SUMMARY PULL-REQUEST: the gate's handover, then the comment workflow's post step; its output
# in $out.
push() {
	rm -rf "$T/runner-gate" "$T/runner-post"
	mkdir "$T/runner-gate" "$T/runner-post"
	cp "$1" reports/summary.json
	RUNNER_TEMP=$T/runner-gate PULL_REQUEST=$2 bash -ec "$handover"
	cp -r "$T/runner-gate/scalegate-comment" "$T/runner-post/"
	expect_exit 0 env GITHUB_ACTIONS=true GITHUB_EVENT_NAME=workflow_run GITHUB_REPOSITORY=o/r \
		GITHUB_API_URL="$url" \
		GITHUB_TOKEN="$TOKEN" HEAD_SHA="$SHA" \
		RUN_URL=https://github.example/o/r/actions/runs/4242 \
		RUNNER_TEMP="$T/runner-post" bash -ec "$gh_post"
}
# bot_comments KEY: the bot's comments on that pull request, as [[id, body]].
bot_comments() {
	j "$log/state.json" "[[c['id'], c['body']] for c in d['github'].get('$1', [])
		if c['user']['type'] == 'Bot']"
}
push "$DATA/findings.json" 7
expect_match "$out" "^scalegate: posted the commit status to $url/repos/o/r/statuses/$SHA$" \
	"github: the status"
expect_match "$out" \
	"^scalegate: posted the pull-request comment to $url/repos/o/r/issues/7/comments$" \
	"github: the comment"
bot_comments o/r#7 >"$T/c1.json"
[ "$(j "$T/c1.json" 'len(d)')" = 1 ] && pass || fail "github: comments $(cat "$T/c1.json")"
body=$(j "$T/c1.json" 'd[0][1]')
expect_match "$body" '^<!-- scalegate: scalegate -->$' "github: the comment's marker"
re='^### ❌ scalegate: 2 regressions \(9 checks failed\), 1 warning '
re+='\(1 check\), 5 inconclusive in 37 checks$'
expect_match "$body" "$re" \
	"github: the comment's headline"
expect_match "$body" \
	'`program/solve/residual` at examples/jacobi\.c:36 \| 1 rank × 2 threads \| Insufficient' \
	"github: a finding"
expect_match "$body" '^\*\*5 checks inconclusive\*\*' "github: the inconclusive count"
expect_match "$body" '^\[The full report\]\(https://github\.example/o/r/actions/runs/4242\)' \
	"github: the link to the gate's run"
push "$DATA/pass.json" 7
re="^scalegate: updated the pull-request comment at "
re+="$url/repos/o/r/issues/comments/$(j "$T/c1.json" 'd[0][0]')$"
expect_match "$out" "$re" \
	"github: the next push edits the comment"
bot_comments o/r#7 >"$T/c2.json"
[ "$(j "$T/c2.json" '[len(d), d[0][0]]')" = "[1, $(j "$T/c1.json" 'd[0][0]')]" ] && pass ||
	fail "github: comments $(cat "$T/c2.json")"
expect_match "$(j "$T/c2.json" 'd[0][1]')" '^### ✅ scalegate: all 12 checks pass$' \
	"github: the edited comment"
# A fork's artifact may name any pull request: one whose head is not the judged commit gets nothing.
push "$DATA/findings.json" 8
expect_match "$out" 'warning: not commenting on pull request #8' \
	"github: another pull request's number"
[ "$(j "$log/state.json" 'sorted(d["github"])')" = '["o/r#7"]' ] && pass ||
	fail "github: commented elsewhere"
# A push to main: the status, no comment.
n=$(nr_requests)
push "$DATA/pass.json" ""
[ "$(requests | tail -n +$((n + 1)))" = "POST /repos/o/r/statuses/$SHA" ] && pass ||
	fail "github: a push: $(requests | tail -n +$((n + 1)))"

# GitLab: the gate job's after_script posts the status and the merge-request note, and edits the
# note next time; a fork's pipeline, without the project's token, sends nothing.
with_scalegate "$T/glpost"
cd "$T/glpost"
gl_push() {
	cp "$1" reports/summary.json
	expect_exit 0 env GITLAB_CI=true GITLAB_TOKEN="$2" CI_API_V4_URL="$url/api/v4" \
		CI_PROJECT_ID=17 CI_COMMIT_SHA="$SHA" \
		CI_MERGE_REQUEST_IID=3 CI_PIPELINE_URL=https://gitlab.example/g/p/-/pipelines/99 \
			bash -ec "$gl_post"
}
gl_push "$DATA/findings.json" "$TOKEN"
re="^scalegate: posted the merge-request note to $url/api/v4/projects/17/merge_requests/3/notes$"
expect_match "$out" "$re" \
	"gitlab: the note"
note=$(j "$log/state.json" 'd["gitlab"]["17#3"][0]["id"]')
expect_match "$(j "$log/state.json" 'd["gitlab"]["17#3"][0]["body"]')" \
	'`program/solve/residual` at examples/jacobi\.c:36' \
	"gitlab: a finding"
gl_push "$DATA/pass.json" "$TOKEN"
re="^scalegate: updated the merge-request note at "
re+="$url/api/v4/projects/17/merge_requests/3/notes/$note$"
expect_match "$out" "$re" \
	"gitlab: the next pipeline edits the note"
[ "$(j "$log/state.json" 'len(d["gitlab"]["17#3"])')" = 1 ] && pass || fail "gitlab: a second note"
n=$(nr_requests)
gl_push "$DATA/findings.json" ""
[ "$(nr_requests)" = "$n" ] && pass ||
	fail "gitlab: a pipeline without the token sent $(requests | tail -n +$((n + 1)))"

# The gate commands on a real depth-1 clone (what actions/checkout and GitLab give by default): the
# toy repository's head turns a serial residual on. The PR's base is its parent, which the clone
# lacks. Its scalegate.yml asks for a commit status and a check run: the GitHub gate job posts
# nothing all the same, not even with a token in reach (the API double counts).
knob_repo "$T/origin" "post: {format: github, check_run: true}" >/dev/null
base_sha=$(git -C "$T/origin" rev-parse HEAD~1)
start_api
gh_env=(GITHUB_ACTIONS=true GITHUB_TOKEN="$TOKEN" GITHUB_REPOSITORY=o/r GITHUB_API_URL="$url" \
	GITHUB_SHA="$SHA")
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
expect_exit 2 env SCALEGATE_BASE="$base_sha" "${gh_env[@]}" bash -ec "$gh_gate"
expect_match "$out" \
	"no such revision in this shallow clone .*git fetch --unshallow .*fetch-depth: 0" \
	"a shallow clone is a usage error with the fix"
# With the history ('fetch-depth: 0' fetches it all): the regression fails the pull request.
git fetch -q --unshallow
expect_exit 1 env SCALEGATE_BASE="$base_sha" "${gh_env[@]}" bash -ec "$gh_gate"
re="^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism"
expect_match "$(checks_of "$out")" "$re" \
	"github: the regression against the PR's base"
# One finding for the residual's many failed checks. The serial residual can also slow the next
# sweep at 2 threads for real (it pulls the worker's rows into the master's cache: the worker's half
# starts cold), a second finding on another interval; none elsewhere.
expect_match "$out" "^scalegate check: [0-9]+ checks: [12] regressions? \([0-9]+ checks? failed\)" \
	"github: one finding per interval the change slowed"
printf '%s\n' "$out" | grep '^FAIL jacobi ' |
	grep -Ev '^FAIL jacobi program/solve/(residual|sweep) 1 rank × 2 threads: ' &&
	fail "github: a finding beside the residual's (and the sweep's at 2 threads)"
expect_match "$out" "^    cause: Insufficient_parallelism \(serial code\) grew" "github: the cause"
# An unchanged commit (the PR's base is its head): nothing fails. On a busy machine its time checks
# may all stay inconclusive, which is 'could not decide' (exit 3), never a pass on no judgement and
# never a regression.
code=0
out=$(env SCALEGATE_BASE="$(git rev-parse HEAD)" "${gh_env[@]}" bash -ec "$gh_gate" 2>&1) || code=$?
pass_or_undecided $code "$out" "github: an unchanged commit"
[ "$(nr_requests)" = 0 ] && pass || fail "github: the gate job posted: $(requests)"
# GitLab: the script deepens a shallow clone itself (PATH as its before_script sets it).
clone "$T/gl"
cd "$T/gl"
expect_exit 1 env PATH="$PWD/.scalegate/bin:$PATH" SCALEGATE_BASE="$base_sha" bash -ec "$gl_gate"
re="^FAIL jacobi program/solve/residual 1 rank × 2 threads tolerance\.insufficient_parallelism"
expect_match "$(checks_of "$out")" "$re" \
	"gitlab: the regression against the MR's base"
