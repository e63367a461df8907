# scalegate post: the request of each format (json, GitHub status and check run, GitLab status) as a
# real server receives it, --dry-run, the configuration, usage errors; the token in no output and no
# file.
. "$(dirname "$0")/lib.bash"
. "$SG_TOP/tests/data/post/lib.bash"

mkdir "$T/work"
cd "$T/work" # whatever scalegate writes would land here
all="$T/all-output"
post() {
	"$SCALEGATE" post "$@"
}
# expect CODE CMD...: expect_exit, with the output kept for the final token check.
expect() {
	expect_exit "$@"
	printf '%s\n' "$out" >>"$all"
}

# ---- json: the summary, byte for byte, to the URL -------------------------
start_server 200 1
HOOK_TOKEN=$TOKEN expect 0 post --url "$url/hooks/scalegate" --token-env HOOK_TOKEN \
	"$DATA/regression.json"
expect_match "$out" "^scalegate: posted the summary to $url/hooks/scalegate$" \
	"json: success message"
r="$log/1.json"
[ "$(j "$r" 'd["method"]')" = POST ] && pass || fail "json: method $(j "$r" 'd["method"]')"
[ "$(j "$r" 'd["path"]')" = /hooks/scalegate ] && pass || fail "json: path $(j "$r" 'd["path"]')"
[ "$(j "$r" 'd["headers"]["Content-Type"]')" = application/json ] && pass ||
	fail "json: content type"
[ "$(j "$r" 'd["headers"]["Authorization"]')" = "sha256:$(sha256 "Bearer $TOKEN")" ] && pass ||
	fail "json: Authorization is not 'Bearer TOKEN'"
expect_match "$(j "$r" 'd["headers"]["User-Agent"]')" '^scalegate/[0-9]' "json: user agent"
cmp -s "$log/1.body" "$DATA/regression.json" && pass ||
	fail "json: the body is not the summary file"

# Without --token-env the json format sends no credentials.
start_server 200 1
expect 0 post --format json --url "$url/" "$DATA/pass.json"
[ "$(j "$log/1.json" '"Authorization" in d["headers"]')" = false ] && pass ||
	fail "json: Authorization without --token-env"
cmp -s "$log/1.body" "$DATA/pass.json" && pass ||
	fail "json: the body is not the summary file (pass)"

# ---- github: a commit status, everything from the Actions environment ------
start_server 200 1
GITHUB_ACTIONS=true GITHUB_TOKEN=$TOKEN GITHUB_REPOSITORY=octo/solver GITHUB_SHA=$SHA \
	GITHUB_API_URL=$url GITHUB_SERVER_URL=https://github.example GITHUB_RUN_ID=4242 \
	expect 0 post "$DATA/regression.json"
r="$log/1.json"
[ "$(j "$r" 'd["path"]')" = "/repos/octo/solver/statuses/$SHA" ] && pass ||
	fail "github: path $(j "$r" 'd["path"]')"
[ "$(j "$r" 'd["headers"]["Authorization"]')" = "sha256:$(sha256 "Bearer $TOKEN")" ] && pass ||
	fail "github: Authorization is not 'Bearer TOKEN'"
[ "$(j "$r" 'd["headers"]["Accept"]')" = application/vnd.github+json ] && pass ||
	fail "github: Accept"
[ "$(j "$r" 'd["headers"]["X-GitHub-Api-Version"]')" = 2022-11-28 ] && pass ||
	fail "github: API version"
b="$log/1.body"
[ "$(j "$b" 'sorted(d)')" = '["context", "description", "state", "target_url"]' ] && pass ||
	fail "github: keys $(j "$b" 'sorted(d)')"
[ "$(j "$b" 'd["state"]')" = failure ] && pass || fail "github: state $(j "$b" 'd["state"]')"
[ "$(j "$b" 'd["context"]')" = scalegate ] && pass || fail "github: context"
[ "$(j "$b" 'd["target_url"]')" = https://github.example/octo/solver/actions/runs/4242 ] && pass ||
	fail "github: target_url $(j "$b" 'd["target_url"]')"
[ "$(j "$b" 'd["description"]')" = "$(j "$DATA/regression.json" 'd["headline"]')" ] && pass ||
	fail "github: the description is not the headline"

# Flags instead of the environment; each verdict's state; a headline past 140 bytes cut at a
# character.
start_server 200 3
for s in pass run-failed long-headline; do
	GITHUB_TOKEN=$TOKEN expect 0 post --format github --api-url "$url/api/v3/" \
		--repository o/r --sha "${SHA:0:12}" \
		--context perf/gate --target-url https://ci.example/run/7 "$DATA/$s.json"
done
[ "$(j "$log/1.json" 'd["path"]')" = "/api/v3/repos/o/r/statuses/${SHA:0:12}" ] && pass ||
	fail "github: path with --api-url"
[ "$(j "$log/1.body" 'd["state"]')" = success ] && pass || fail "github: pass is not success"
[ "$(j "$log/2.body" 'd["state"]')" = error ] && pass || fail "github: run-failed is not error"
[ "$(j "$log/3.body" 'd["context"]')" = perf/gate ] && pass || fail "github: --context"
[ "$(j "$log/3.body" 'd["target_url"]')" = https://ci.example/run/7 ] && pass ||
	fail "github: --target-url"
desc=$(j "$log/3.body" 'd["description"]')
bytes=$(j "$log/3.body" 'len(d["description"].encode())')
[ "$bytes" -le 140 ] && pass || fail "github: description of $bytes bytes"
[ "$bytes" -ge 130 ] && pass || fail "github: description cut too short ($bytes bytes)"
full=$(j "$DATA/long-headline.json" 'd["headline"]')
[[ $desc == *… && $full == "${desc%…}"* ]] && pass ||
	fail "github: '$desc' is not the headline cut at a character"

# ---- github: the check run, with the Markdown report ----------------------
start_server 200 2
GITHUB_TOKEN=$TOKEN GITHUB_REPOSITORY=o/r GITHUB_SHA=$SHA GITHUB_API_URL=$url \
	expect 0 post --format github --check-run --target-url https://ci.example/run/8 \
		"$DATA/regression.json"
expect_match "$out" "posted the commit status" "check run: the status first"
expect_match "$out" "posted the check run to $url/repos/o/r/check-runs" "check run: posted"
[ "$(j "$log/2.json" 'd["path"]')" = /repos/o/r/check-runs ] && pass ||
	fail "check run: path $(j "$log/2.json" 'd["path"]')"
[ "$(j "$log/2.json" 'd["headers"]["Authorization"]')" = "sha256:$(sha256 "Bearer $TOKEN")" ] && \
	pass ||
	fail "check run: Authorization"
b="$log/2.body"
[ "$(j "$b" '[d["name"], d["head_sha"], d["status"], d["conclusion"], d["details_url"]]')" = \
	"[\"scalegate\", \"$SHA\", \"completed\", \"failure\", \"https://ci.example/run/8\"]" ] && \
		pass ||
	fail "check run: $(cat "$b")"
[ "$(j "$b" 'd["output"]["summary"]')" = "$(j "$DATA/regression.json" 'd["headline"]')" ] && pass ||
	fail "check run: summary"
[ -n "$(j "$b" 'd["output"]["title"]')" ] && pass || fail "check run: no title"
[ "$(j "$b" 'd["output"]["text"] == open("'"$DATA/report.md"'", encoding="utf-8").read()')" = true \
	] && pass ||
	fail "check run: the text is not the Markdown report"

# A Markdown report past 65535 bytes is cut; the summary's report path is found next to it.
python3 -c 'import sys; sys.stdout.write("| r\u00e9sultat |\n" * 7000)' >"$T/big.md"
sed 's|"markdown": "report.md"|"markdown": "big.md"|' "$DATA/regression.json" >"$T/big.json"
start_server 200 2
GITHUB_TOKEN=$TOKEN expect 0 post --format github --check-run --api-url "$url" --repository o/r \
	--sha "$SHA" "$T/big.json"
bytes=$(j "$log/2.body" 'len(d["output"]["text"].encode())')
[ "$bytes" -le 65535 ] && [ "$bytes" -ge 65000 ] && pass || fail "check run: text of $bytes bytes"

# A pull request's status goes to its head commit, not to the merge commit in GITHUB_SHA.
head=fedcba9876543210fedcba9876543210fedcba98
fmt='{"action": "synchronize", "pull_request": {"number": 7, "title": '
fmt+='"\\u00e9t\\u00e9", "head": {"ref": "x", "sha": "%s"}}}\n'
printf "$fmt" \
	"$head" >"$T/event.json"
GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH=$T/event.json GITHUB_REPOSITORY=o/r \
	GITHUB_SHA=$SHA \
	expect 0 post --format github --dry-run "$DATA/pass.json"
expect_match "$out" "^POST https://api.github.com/repos/o/r/statuses/$head$" \
	"github: pull request head"

# ---- gitlab: a commit status, everything from the pipeline's environment ----
start_server 201 1
GITLAB_CI=true GITLAB_TOKEN=$TOKEN CI_API_V4_URL=$url/api/v4 CI_PROJECT_ID=17 CI_COMMIT_SHA=$SHA \
	CI_PIPELINE_URL=https://gitlab.example/g/p/-/pipelines/99 CI_PIPELINE_ID=99 \
	CI_COMMIT_REF_NAME=main \
	expect 0 post "$DATA/regression.json"
r="$log/1.json"
[ "$(j "$r" 'd["path"]')" = "/api/v4/projects/17/statuses/$SHA" ] && pass ||
	fail "gitlab: path $(j "$r" 'd["path"]')"
[ "$(j "$r" 'd["headers"]["PRIVATE-TOKEN"]')" = "sha256:$(sha256 "$TOKEN")" ] && pass ||
	fail "gitlab: PRIVATE-TOKEN"
[ "$(j "$r" '"Authorization" in d["headers"]')" = false ] && pass ||
	fail "gitlab: an Authorization header"
[ "$(j "$r" 'd["headers"]["Content-Type"]')" = application/json ] && pass ||
	fail "gitlab: content type"
b="$log/1.body"
[ "$(j "$b" '[d["state"], d["name"], d["target_url"], d["ref"], d["pipeline_id"]]')" = \
	'["failed", "scalegate", "https://gitlab.example/g/p/-/pipelines/99", "main", 99]' ] && \
		pass ||
		fail "gitlab: $(cat "$b")"
[ "$(j "$b" 'd["description"]')" = "$(j "$DATA/regression.json" 'd["headline"]')" ] && pass ||
	fail "gitlab: description"

# A project path is one URL segment; pass is success.
start_server 201 1
GITLAB_TOKEN=$TOKEN expect 0 post --format gitlab --api-url "$url/api/v4" --project-id \
	group/sub/app --sha "$SHA" "$DATA/pass.json"
[ "$(j "$log/1.json" 'd["path"]')" = "/api/v4/projects/group%2Fsub%2Fapp/statuses/$SHA" ] && pass ||
	fail "gitlab: path $(j "$log/1.json" 'd["path"]')"
[ "$(j "$log/1.body" 'd["state"]')" = success ] && pass || fail "gitlab: pass is not success"

# ---- --dry-run: the three formats, the token masked, nothing sent ----------
start_server 200 1
HOOK=$TOKEN expect 0 post --dry-run --url "$url/hook" --token-env HOOK "$DATA/regression.json"
expect_match "$out" "^POST $url/hook$" "dry run json: method and URL"
expect_match "$out" '^Authorization: Bearer \*\*\*$' "dry run json: token masked"
expect_match "$out" '^Content-Type: application/json$' "dry run json: content type"
expect_match "$out" '^ "verdict": "regression",$' "dry run json: the body"
GITHUB_TOKEN=$TOKEN expect 0 post --dry-run --format github --check-run --api-url "$url" \
	--repository o/r --sha "$SHA" "$DATA/regression.json"
expect_match "$out" "^POST $url/repos/o/r/statuses/$SHA$" "dry run github: status"
expect_match "$out" "^POST $url/repos/o/r/check-runs$" "dry run github: check run"
expect_match "$out" '^Authorization: Bearer \*\*\*$' "dry run github: token masked"
expect_match "$out" '^X-GitHub-Api-Version: 2022-11-28$' "dry run github: API version"
expect_match "$out" '^\{"state": "failure", "description": "scalegate: 2 regressions' \
	"dry run github: body"
GITLAB_TOKEN=$TOKEN expect 0 post --dry-run --format gitlab --api-url "$url/api/v4" --project-id \
	17 --sha "$SHA" "$DATA/regression.json"
expect_match "$out" "^POST $url/api/v4/projects/17/statuses/$SHA$" "dry run gitlab: URL"
expect_match "$out" '^PRIVATE-TOKEN: \*\*\*$' "dry run gitlab: token masked"
expect_match "$out" '^\{"state": "failed", "name": "scalegate"' "dry run gitlab: body"
# Without the token a dry run still shows the request, and says a real post would fail.
expect 0 post --dry-run --format github --repository o/r --sha "$SHA" "$DATA/pass.json"
expect_match "$out" '^Authorization: Bearer \*\*\*$' "dry run without a token"
expect_match "$out" 'warning: \$GITHUB_TOKEN is not set' "dry run without a token: warning"
sleep 0.2
[ "$(nr_requests)" -eq 0 ] && pass || fail "a dry run sent $(nr_requests) requests"

# ---- the post: section of the configuration ---------------------------------
cat >"$T/scalegate.yml" <<YML
benchmarks:
  - name: jacobi
    command: ./jacobi {threads}
post:
  format: github
  repository: octo/from-config
  sha: $SHA
  api_url: https://github.example/api/v3
  context: perf
  token_env: PERF_TOKEN
  check_run: true
  timeout: 20s
  connect_timeout: 5s
  retries: 2
  require: false
YML
PERF_TOKEN=$TOKEN expect 0 post -c "$T/scalegate.yml" --dry-run "$DATA/regression.json"
expect_match "$out" "^POST https://github.example/api/v3/repos/octo/from-config/statuses/$SHA$" \
	"config: the status URL"
expect_match "$out" "^POST https://github.example/api/v3/repos/octo/from-config/check-runs$" \
	"config: check_run"
expect_match "$out" '"context": "perf"' "config: context"
# A flag wins over the configuration.
PERF_TOKEN=$TOKEN expect 0 post -c "$T/scalegate.yml" --dry-run --repository o/flag --context flag \
	"$DATA/regression.json"
expect_match "$out" "/repos/o/flag/statuses/$SHA$" "flag over config: repository"
expect_match "$out" '"context": "flag"' "flag over config: context"

cat >"$T/bad.yml" <<'YML'
benchmarks:
  - name: jacobi
    command: ./jacobi {threads}
post:
  format: gitlabb
  url: ftp://example.com/x
  retries: 11
  timeout: soon
  check_runs: true
  repository: just-a-name
  require: maybe
YML
expect 2 post -c "$T/bad.yml" --dry-run "$DATA/regression.json"
re="bad.yml:5:11: 'format' must be json, github or gitlab, not 'gitlabb'; did you mean 'gitlab'\\?"
expect_match "$out" "$re" \
	"config: format, with the nearest"
expect_match "$out" "bad.yml:6:8: 'url' must be an http:// or https:// URL" "config: url"
expect_match "$out" "bad.yml:7:12: 'retries' must be between 0 and 10, not 11" "config: retries"
expect_match "$out" "bad.yml:8:12: 'timeout' must be a duration" "config: timeout"
expect_match "$out" "bad.yml:9:3: unknown key 'check_runs'; did you mean 'check_run'\?" \
	"config: unknown key"
expect_match "$out" "bad.yml:10:15: 'repository' must be 'owner/name'" "config: repository"
expect_match "$out" "bad.yml:11:12: 'require' must be true or false" "config: require"
printf 'benchmarks:\n  - name: j\n    command: ./j\npost: [1, 2]\n' >"$T/list.yml"
expect 2 post -c "$T/list.yml" --dry-run "$DATA/regression.json"
expect_match "$out" "list.yml:4:7: 'post' must be a mapping" "config: a list"

# ---- usage errors exit 2 ---------------------------------------------------
expect 2 post --format github "$DATA/regression.json"
expect_match "$out" \
	'the github format needs the repository .*GITHUB_REPOSITORY.* and the commit .*GITHUB_SHA' \
	"github: missing values"
expect 2 post --format gitlab --sha "$SHA" "$DATA/regression.json"
expect_match "$out" \
	'the gitlab format needs the API URL .*CI_API_V4_URL.* and the project .*CI_PROJECT_ID' \
	"gitlab: missing values"
expect 2 post "$DATA/regression.json"
expect_match "$out" 'where to post\?' "no format, no CI"
expect 2 post --format json "$DATA/regression.json"
expect_match "$out" 'the json format needs a URL' "json: no URL"
expect 2 post --format xml --url http://127.0.0.1:9/ "$DATA/regression.json"
expect_match "$out" "--format must be json, github or gitlab, not 'xml'" "bad format"
expect 2 post --format githb "$DATA/regression.json"
expect_match "$out" \
	"--format must be json, github or gitlab, not 'githb'; did you mean 'github'\\?" \
	"a near format"
expect 2 post --format gitlab --check-run --api-url http://127.0.0.1:9 --project-id 1 --sha "$SHA" \
	"$DATA/regression.json"
expect_match "$out" 'needs --format github' "check run with gitlab"
expect 2 post --format github --repository o/r --sha not-a-sha "$DATA/regression.json"
expect_match "$out" "not 'not-a-sha'" "bad sha"
expect 2 post --url http://127.0.0.1:9/ --retries 99 "$DATA/regression.json"
expect 2 post --url http://127.0.0.1:9/ --timeout 0 "$DATA/regression.json"
expect 2 post --url http://127.0.0.1:9/ --ca-bundle "$T/missing.pem" "$DATA/regression.json"
expect 2 post --url http://127.0.0.1:9/
expect_match "$out" 'which summary\?' "no summary"
expect 2 post --url http://127.0.0.1:9/ "$T/missing.json"
expect_match "$out" "cannot open '$T/missing.json'" "missing summary"
printf '{"verdict": "pass",\n "counts": {"pass": 1,}\n' >"$T/broken.json"
expect 2 post --url http://127.0.0.1:9/ "$T/broken.json"
expect_match "$out" "broken.json:[0-9]+:[0-9]+: " "broken JSON: position"
expect_match "$out" "is not a JSON summary written by 'scalegate check --json'" "broken JSON"
printf '{"results": []}\n' >"$T/other.json"
expect 2 post --url http://127.0.0.1:9/ "$T/other.json"
expect_match "$out" "no 'scalegate_summary' key" "not a summary"
printf '{"scalegate_summary": 1, "verdict": "maybe"}\n' >"$T/maybe.json"
expect 2 post --url http://127.0.0.1:9/ "$T/maybe.json"
re="maybe.json:1:37: 'verdict' must be pass, regression or run-failed, not the string 'maybe'"
expect_match "$out" "$re" "bad verdict"
printf '{"scalegate_summary": 2, "verdict": "pass"}\n' >"$T/future.json"
expect 2 post --url http://127.0.0.1:9/ "$T/future.json"
expect_match "$out" "summary format 2 is not supported" "future format"
# A token with a line break would end the header early.
HOOK="$TOKEN
X-Injected: 1" expect 2 post --url http://127.0.0.1:9/ --token-env HOOK "$DATA/pass.json"
expect_match "$out" 'value of \$HOOK contains a line break' "token with a line break"

# ---- the token: in no output, in no file ------------------------------------
[ -s "$all" ] && pass || fail "no output was collected"
! grep -qF -- "$TOKEN" "$all" && pass || { grep -F -- "$TOKEN" "$all" >&2; fail \
	"the token appears in the output"; }
[ -z "$(ls -A "$T/work")" ] && pass || fail "scalegate post wrote files: $(ls -A "$T/work")"
! grep -rqF -- "$TOKEN" "$T" && pass || fail "the token appears in $(grep -rlF -- "$TOKEN" "$T")"
echo "post formats ok"
