# scalegate post --comment: one comment per pull request (GitHub) or merge request (GitLab), created
# by the first post and edited by every later one, found by its marker among a bot's (GitHub) or the
# token's user's (GitLab) comments, page after page; a pull request whose head is not the commit
# judged (a fork's forged number, a later push) and a run without the token get no comment. Against
# a double of both APIs on loopback.
. "$(dirname "$0")/lib.bash"
. "$SG_TOP/tests/data/post/lib.bash"

mkdir "$T/work"
cd "$T/work"
all="$T/all-output"
marker='<!-- scalegate: scalegate -->'
other=fedcba9876543210fedcba9876543210fedcba98
# expect CODE CMD...: expect_exit, with the output kept for the final token check.
expect() {
	expect_exit "$@"
	printf '%s\n' "$out" >>"$all"
}
# since N: the requests after the first N, one 'METHOD PATH' a line.
since() {
	requests | tail -n +$(($1 + 1))
}
# ours SERVICE KEY: the comments of that pull (merge) request that start with the marker, as JSON:
# [[id, author, body]].
ours() {
	j "$log/state.json" \
		"[[c['id'], c.get('user', c.get('author')), c['body']]
		for c in d['$1'].get('$2', []) if c['body'].startswith('$marker')]"
}

# Comments already there: 130 on pull request 7 (ours lands on the second page), one of them a
# person's that starts with the marker (anybody can write it: never edited), one with characters
# libyaml refuses raw; 121 notes on merge request 3, one of another user's with the marker. GitLab's
# answers escape emoji as surrogate pairs.
python3 -S - "$marker" >"$T/seed.json" <<'PY'
import json, sys
marker = sys.argv[1]
person = {"login": "mallory", "type": "User"}
gh = [{"body": "comment %d" % i, "user": person} for i in range(130)]
gh[3] = {"body": marker + "\nall pass, trust me", "user": person}
gh[5] = {"body": "coverage: 81 % \U0001f4a5", "user": {"login": "codecov[bot]", "type": "Bot"}}
gh[10] = {"body": "odd \u0085 \ufeff \uffff characters", "user": person}
gl = [{"body": "note %d \U0001f600" % i, "system": False, "author": {"id": 5}} for i in range(121)]
gl[0] = {"body": marker + "\nmine", "system": False, "author": {"id": 5}}
json.dump({"github": {"o/r#7": gh}, "gitlab": {"17#3": gl}}, sys.stdout)
PY

# ---- GitHub: the first post creates the comment, the second edits it
# -------------------------------------
start_api --seed "$T/seed.json" --pull "7=$SHA" --pull "8=$other"
gh() {
	GITHUB_ACTIONS=true GITHUB_TOKEN=$TOKEN GITHUB_REPOSITORY=o/r GITHUB_API_URL=$url "$@"
}
gh expect 0 "$SCALEGATE" post --sha "$SHA" --comment --pull-request 7 \
	--target-url https://github.example/o/r/actions/runs/4242 "$DATA/findings.json"
expect_match "$out" "^scalegate: posted the commit status to $url/repos/o/r/statuses/$SHA$" \
	"github: the status"
expect_match "$out" \
	"^scalegate: posted the pull-request comment to $url/repos/o/r/issues/7/comments$" \
	"github: the comment created"
[ "$(requests)" = "POST /repos/o/r/statuses/$SHA
GET /repos/o/r/pulls/7
GET /repos/o/r/issues/7/comments?per_page=100&page=1
GET /repos/o/r/issues/7/comments?per_page=100&page=2
POST /repos/o/r/issues/7/comments" ] && pass ||
	fail "github: the requests of the first post: $(requests)"
[ "$(j "$log/state.json" 'len(d["github"]["o/r#7"])')" = 131 ] && pass ||
	fail "github: not one comment more"
ours github o/r#7 >"$T/gh1.json"
[ "$(j "$T/gh1.json" 'len(d)')" = 2 ] && pass || fail "github: $(cat "$T/gh1.json")"
[ "$(j "$T/gh1.json" 'd[0][2]')" = "$marker
all pass, trust me" ] && pass || fail "github: the person's comment with the marker was edited"
id=$(j "$T/gh1.json" 'd[1][0]')
j "$T/gh1.json" 'd[1][2]' >"$T/body1.md"
[ "$(j "$T/gh1.json" 'd[1][1]["type"]')" = Bot ] && pass ||
	fail "github: the comment is not the bot's"
body=$(cat "$T/body1.md")
re='^### ❌ scalegate: 2 regressions \(9 checks failed\), 1 warning '
re+='\(1 check\), 5 inconclusive in 37 checks$'
expect_match "$body" "$re" \
	"github: the headline"
re='^\| ❌ regression: 6 checks failed \| jacobi \| `program/solve/residual` at '
re+='examples/jacobi\.c:36 \| 1 rank × 2 threads \| '
re+='Insufficient\\_parallelism \(serial code\) grew'
expect_match "$body" "$re" \
	"github: a finding with interval, file:line, configuration and cause"
re='^\| ❌ regression: 3 checks failed \| halo \| `program` in examples/mpi\\_halo, run as '
re+='`\./mpi_halo 4096 \\\| tee log` \| 2 ranks × 1 thread, size 4096 \| Communication grew'
expect_match "$body" "$re" \
	"github: the whole program's finding: its executable and the benchmark's command"
re='^\| ⚠️ warning: 1 check warned \| jacobi \| `program/solve/sweep` at examples/jacobi\.c:19 '
expect_match "$body" "$re" "github: the warning"
expect_match "$body" '^\*\*5 checks inconclusive\*\*: the data could not decide' \
	"github: the inconclusive count"
re="^\[The full report\]\(https://github\.example/o/r/actions/runs/4242\) · commit \`${SHA:0:12}\`"
expect_match "$body" "$re" \
	"github: the link to the full report"

# The next push: the same comment, edited; nothing added.
n=$(nr_requests)
gh expect 0 "$SCALEGATE" post --sha "$SHA" --comment --pull-request 7 "$DATA/pass.json"
expect_match "$out" \
	"^scalegate: updated the pull-request comment at $url/repos/o/r/issues/comments/$id$" \
	"github: the comment updated"
[ "$(since "$n" | grep -v '^GET ')" = "POST /repos/o/r/statuses/$SHA
PATCH /repos/o/r/issues/comments/$id" ] && pass ||
	fail "github: the second post wrote $(since "$n")"
[ "$(j "$log/state.json" 'len(d["github"]["o/r#7"])')" = 131 ] && pass ||
	fail "github: a second comment was added"
ours github o/r#7 >"$T/gh2.json"
[ "$(j "$T/gh2.json" '[len(d), d[1][0]]')" = "[2, $id]" ] && pass ||
	fail "github: not the same comment: $(cat "$T/gh2.json")"
expect_match "$(j "$T/gh2.json" 'd[1][2]')" '^### ✅ scalegate: all 12 checks pass$' \
	"github: the comment's new text"

# In the pull request's own workflow the number and the head come from the event.
printf '{"number": 7, "pull_request": {"number": 7, "head": {"sha": "%s"}}}\n' "$SHA" \
	>"$T/event.json"
n=$(nr_requests)
GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH=$T/event.json GITHUB_SHA=$other \
	gh expect 0 "$SCALEGATE" post --comment "$DATA/run-failed.json"
[ "$(since "$n" | grep -v '^GET ')" = "POST /repos/o/r/statuses/$SHA
PATCH /repos/o/r/issues/comments/$id" ] && pass ||
	fail "github: the event's pull request: $(since "$n")"
ours github o/r#7 >"$T/gh3.json"
re='^### 💥 scalegate: run failed: 1 error, 8 skipped in 12 checks — '
re+='jacobi 1x4: killed by SIGSEGV$'
expect_match "$(j "$T/gh3.json" 'd[1][2]')" "$re" \
	"github: a failed run's headline, whole (no findings to show)"

# A number that is not the judged commit's pull request (a fork's artifact may say anything, or a
# later push moved the head): nothing is written there.
n=$(nr_requests)
gh expect 0 "$SCALEGATE" post --sha "$SHA" --comment --pull-request 8 "$DATA/findings.json"
re="warning: not commenting on pull request #8: its head is "
re+="${other:0:12}, not the commit judged \(${SHA:0:12}\)"
expect_match "$out" "$re" \
	"github: a pull request with another head"
[ "$(since "$n")" = "POST /repos/o/r/statuses/$SHA
GET /repos/o/r/pulls/8" ] && pass || fail "github: another pull request's number: $(since "$n")"
gh expect 4 "$SCALEGATE" post --sha "$SHA" --comment --pull-request 8 --require-post \
	"$DATA/findings.json"
[ "$(j "$log/state.json" '"o/r#8" in d["github"]')" = false ] && pass ||
	fail "github: commented on pull request 8"

# A push, not a pull request: the status only.
n=$(nr_requests)
GITHUB_EVENT_NAME=push gh expect 0 "$SCALEGATE" post --sha "$SHA" --comment "$DATA/pass.json"
expect_match "$out" '^scalegate: not a pull request: no comment to post$' "github: a push"
[ "$(since "$n")" = "POST /repos/o/r/statuses/$SHA" ] && pass ||
	fail "github: a push: $(since "$n")"

# A fork's run has no token: nothing is sent, and the gate's exit code stands.
n=$(nr_requests)
GITHUB_TOKEN= GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_API_URL=$url \
	expect 0 "$SCALEGATE" post --sha "$SHA" --comment --pull-request 7 "$DATA/findings.json"
expect_match "$out" 'warning: cannot post: the environment variable GITHUB_TOKEN is not set' \
	"github: no token"
[ "$(nr_requests)" = "$n" ] && pass || fail "github: requests without a token: $(since "$n")"

# ---- GitLab: a merge-request note, created, then edited
# ----------------------------------------------
gl() {
	GITLAB_CI=true GITLAB_TOKEN=$TOKEN CI_API_V4_URL=$url/api/v4 CI_PROJECT_ID=17 \
		CI_COMMIT_SHA=$SHA \
		CI_MERGE_REQUEST_IID=3 CI_PIPELINE_URL=https://gitlab.example/g/p/-/pipelines/99 \
			"$@"
}
n=$(nr_requests)
gl expect 0 "$SCALEGATE" post --comment "$DATA/findings.json"
re="^scalegate: posted the merge-request note to $url/api/v4/projects/17/merge_requests/3/notes$"
expect_match "$out" "$re" \
	"gitlab: the note created"
[ "$(since "$n")" = "POST /api/v4/projects/17/statuses/$SHA
GET /api/v4/user
GET /api/v4/projects/17/merge_requests/3/notes?per_page=100&page=1&sort=asc&order_by=created_at
GET /api/v4/projects/17/merge_requests/3/notes?per_page=100&page=2&sort=asc&order_by=created_at
POST /api/v4/projects/17/merge_requests/3/notes" ] && pass ||
	fail "gitlab: the requests of the first post: $(since "$n")"
[ "$(j "$log/$((n + 2)).json" 'd["headers"]["PRIVATE-TOKEN"]')" = "sha256:$(sha256 "$TOKEN")" ] && \
	pass ||
	fail "gitlab: PRIVATE-TOKEN"
ours gitlab 17#3 >"$T/gl1.json"
[ "$(j "$T/gl1.json" '[len(d), d[0][2], d[1][1]["id"]]')" = "[2, \"$marker\\nmine\", 42]" ] && \
	pass ||
	fail "gitlab: $(cat "$T/gl1.json")"
note=$(j "$T/gl1.json" 'd[1][0]')
body=$(j "$T/gl1.json" 'd[1][2]')
expect_match "$body" '`program/solve/residual` at examples/jacobi\.c:36 \| 1 rank × 2 threads' \
	"gitlab: a finding"
expect_match "$body" '^\[The full report\]\(https://gitlab\.example/g/p/-/pipelines/99\)' \
	"gitlab: the link"
# The next push, with 'comment: true' in the post: section instead of the flag.
printf 'benchmarks:\n  - name: j\n    command: ./j\npost:\n  comment: true\n' >"$T/comment.yml"
n=$(nr_requests)
gl expect 0 "$SCALEGATE" post -c "$T/comment.yml" "$DATA/pass.json"
re="^scalegate: updated the merge-request note at "
re+="$url/api/v4/projects/17/merge_requests/3/notes/$note$"
expect_match "$out" "$re" \
	"gitlab: the note updated"
[ "$(since "$n" | grep -v '^GET ')" = "POST /api/v4/projects/17/statuses/$SHA
PUT /api/v4/projects/17/merge_requests/3/notes/$note" ] && pass ||
	fail "gitlab: the second post wrote $(since "$n")"
ours gitlab 17#3 >"$T/gl2.json"
[ "$(j "$T/gl2.json" '[len(d), d[1][0]]')" = "[2, $note]" ] && pass ||
	fail "gitlab: not the same note: $(cat "$T/gl2.json")"
expect_match "$(j "$T/gl2.json" 'd[1][2]')" '^### ✅ scalegate: all 12 checks pass$' \
	"gitlab: the note's new text"
[ "$(j "$log/state.json" 'len(d["gitlab"]["17#3"])')" = 122 ] && pass ||
	fail "gitlab: a second note was added"
# A fork's pipeline cannot see the project's token: nothing is sent.
n=$(nr_requests)
gl expect 0 env GITLAB_TOKEN= "$SCALEGATE" post --comment "$DATA/findings.json"
[ "$(nr_requests)" = "$n" ] && pass || fail "gitlab: requests without a token: $(since "$n")"

# ---- the dry run shows how the comment is found; usage errors
# ----------------------------------------
gh expect 0 "$SCALEGATE" post --dry-run --sha "$SHA" --comment --pull-request 7 \
	"$DATA/findings.json"
expect_match "$out" "^GET $url/repos/o/r/pulls/7$" "dry run: the pull request's head"
re="^# the comment that starts with '$marker' by a bot is edited: "
re+="PATCH $url/repos/o/r/issues/comments/ID"
expect_match "$out" "$re" \
	"dry run: how the comment is found"
expect_match "$out" "^POST $url/repos/o/r/issues/7/comments$" "dry run: the comment"
expect 2 "$SCALEGATE" post --url http://127.0.0.1:9/ --comment "$DATA/pass.json"
expect_match "$out" '--comment needs --format github or gitlab' "a comment with json"
expect 2 "$SCALEGATE" post --format github --comment --pull-request 7a "$DATA/pass.json"
expect_match "$out" "--pull-request must be a pull request's number" \
	"a pull request that is no number"
gl expect 2 env CI_MERGE_REQUEST_IID=x "$SCALEGATE" post --comment "$DATA/pass.json"
expect_match "$out" "the merge request must be a number, not 'x'" "an IID that is no number"
printf 'benchmarks:\n  - name: j\n    command: ./j\npost:\n  comments: yes\n' >"$T/typo.yml"
expect 2 "$SCALEGATE" post -c "$T/typo.yml" --dry-run "$DATA/pass.json"
expect_match "$out" "typo.yml:5:3: unknown key 'comments'; did you mean 'comment'\?" \
	"post: comment misspelt"

# ---- the token: in no output, in no file
# ----------------------------------------------------------------
! grep -qF -- "$TOKEN" "$all" && pass || fail "the token appears in the output"
! grep -rqF -- "$TOKEN" "$T" && pass || fail "the token appears in $(grep -rlF -- "$TOKEN" "$T")"
echo "post comment ok"
