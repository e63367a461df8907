# The nightly history jobs of the CI templates: on a schedule only, they record the run (ci
# --record), keep the database between nights, publish the trend pages and end with 'history detect'
# (its exit code fails the night).
. "$(dirname "$0")/lib.bash"
/usr/bin/python3 -c 'import yaml' 2>/dev/null && pass ||
	fail "python3-yaml is missing (ci/install-deps.sh installs it)"
/usr/bin/python3 - "$SG_TOP/ci/github-actions.yml" "$SG_TOP/ci/gitlab-ci.yml" <<'PY'
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
on = gh.get("on", gh.get(True))
assert on.get("schedule"), "no schedule trigger"
job = gh["jobs"]["nightly-history"]
assert "schedule" in job["if"], job["if"]
steps = job["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
assert ("scalegate ci -c scalegate.yml --record" in runs and "history report" in runs
        and "--html public" in runs)
assert steps[-1]["run"].strip() == "scalegate history detect -c scalegate.yml", steps[-1]
assert (any(u.startswith("actions/cache/restore") for u in uses)
        and any(u.startswith("actions/cache/save") for u in uses))
assert (any(u.startswith("actions/deploy-pages") for u in uses)
        and job["permissions"]["pages"] == "write")
assert "libsqlite3-dev" in runs
gl = yaml.safe_load(open(sys.argv[2]))
pages = gl["pages"]
assert any("schedule" in r["if"] for r in pages["rules"]), pages["rules"]
assert pages["script"][-1] == "scalegate history detect -c scalegate.yml"
caches = pages["cache"] if isinstance(pages["cache"], list) else [pages["cache"]]  # the build's too
assert (any("--record" in s for s in pages["script"])
        and any("history.db" in c["paths"] for c in caches))
assert "public/" in pages["artifacts"]["paths"]
assert "libsqlite3-dev" in " ".join(gl[".scalegate-setup"]["before_script"])
# the nightly job is the only gate job on a schedule: the PR/main gate jobs stay off it
assert "github.event_name != 'schedule'" in gh["jobs"]["performance-gate"]["if"]
main_rules = [r["if"] for r in gl["scalegate"]["rules"] if "CI_DEFAULT_BRANCH" in r.get("if", "")]
assert main_rules and all('$CI_PIPELINE_SOURCE != "schedule"' in r for r in main_rules), main_rules
print("ok: nightly history jobs")
PY
