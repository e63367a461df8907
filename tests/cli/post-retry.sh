# scalegate post against a failing server: retries with backoff, Retry-After, no retry on 401, a
# server that never answers, TLS verification, exit codes 0 and 4.
. "$(dirname "$0")/lib.bash"
. "$SG_TOP/tests/data/post/lib.bash"

mkdir "$T/work"
cd "$T/work"
all="$T/all-output"
post() {
	"$SCALEGATE" post "$@"
}
expect() {
	expect_exit "$@"
	printf '%s\n' "$out" >>"$all"
}
# gap N M: seconds between the arrival of requests N and M.
gap() {
	awk -v a="$(j "$log/$1.json" 'd["time"]')" -v b="$(j "$log/$2.json" 'd["time"]')" \
		'BEGIN { printf "%.3f", b - a }'
}

# ---- 503, 503, 200: posted after two retries, 1 s then 2 s apart (+-20 %) ----
start_server 503,503,200 3
GITHUB_TOKEN=$TOKEN expect 0 post --format github --api-url "$url" --repository o/r --sha "$SHA" \
	"$DATA/regression.json"
re="attempt 1 of 4 to post the commit status to $url/repos/o/r/statuses/$SHA "
re+="failed: HTTP/1.1 503 Service Unavailable: \{\"status\": 503"
expect_match "$out" "$re" "503: first retry"
expect_match "$out" "attempt 2 of 4 .* failed: HTTP/1.1 503 Service Unavailable" "503: second retry"
expect_match "$out" "^scalegate: posted the commit status" "503: posted in the end"
[ "$(nr_requests)" -eq 3 ] && pass || fail "503: $(nr_requests) requests"
approx "$(gap 1 2)" 0.75 2.0 "503: the first backoff"
approx "$(gap 2 3)" 1.55 3.2 "503: the second backoff"
cmp -s "$log/1.body" "$log/3.body" && pass || fail "503: the retried body differs"

# ---- Retry-After beats a shorter backoff (1 s +-20 %) ----------------------
start_server 429+ra=2,200 2
expect 0 post --url "$url/hook" "$DATA/pass.json"
expect_match "$out" "HTTP/1.1 429 Too Many Requests.*\(Retry-After: 2 s\); retrying in 2.0 s" \
	"429: Retry-After read"
approx "$(gap 1 2)" 1.95 3.5 "429: the wait Retry-After asked for"

# ---- 401: no retry, a clear message, the echoed token masked ---------------
start_server 401+echo 5
GITHUB_TOKEN=$TOKEN expect 0 post --format github --api-url "$url" --repository o/r --sha "$SHA" \
	"$DATA/regression.json"
re="^scalegate: warning: cannot post the commit status to $url/repos/o/r/statuses/$SHA: "
re+="HTTP/1.1 401 Unauthorized: \{\"message\": \"Bad credentials: Bearer \*\*\*\""
expect_match "$out" "$re" "401: message"
expect_match "$out" "warning: the summary was not posted; the exit code stays 0" "401: exit code 0"
expect_no_match "$out" "attempt 1 of" "401: retried"
[ "$(nr_requests)" -eq 1 ] && pass || fail "401: $(nr_requests) requests"
GITHUB_TOKEN=$TOKEN expect 4 post --require-post --format github --api-url "$url" --repository o/r \
	--sha "$SHA" "$DATA/regression.json"
expect_match "$out" "^scalegate: error: cannot post the commit status .*HTTP/1.1 401 Unauthorized" \
	"401 with --require-post: an error"
[ "$(nr_requests)" -eq 2 ] && pass || fail "401 with --require-post: $(nr_requests) requests in all"
# The excerpt of an answer is short and on one line.
excerpt=$(grep -m1 'HTTP/1.1 401' <<<"$out" | sed 's/.*401 Unauthorized: //')
[ "${#excerpt}" -le 200 ] && pass || fail "401: excerpt of ${#excerpt} characters"

# ---- a server that accepts and never answers: the timeout bounds each attempt ----
start_server hang 10 20
start=$(date +%s.%N)
expect 4 post --require-post --url "$url/hook" --timeout 2 --retries 1 "$DATA/pass.json"
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
approx "$took" 4 10 "hang: two attempts of 2 s and a backoff of about 1 s"
re="attempt 1 of 2 to post the summary to $url/hook failed: "
re+="Operation timed out after 2[0-9]{3} milliseconds"
expect_match "$out" "$re" "hang: timeout message"
expect_match "$out" "error: cannot post the summary .*timed out.*\(attempt 2 of 2\)" \
	"hang: the last attempt"
[ "$(nr_requests)" -eq 2 ] && pass || fail "hang: $(nr_requests) requests"

# ---- nobody listening: a connection error, retried --------------------------
port=$(python3 -c \
	'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
expect 0 post --url "http://127.0.0.1:$port/" --retries 1 "$DATA/pass.json"
expect_match "$out" "attempt 1 of 2 .* failed: .*[Cc]ouldn't connect" "refused: retried"
expect_match "$out" "warning: cannot post the summary .*\(attempt 2 of 2\)" "refused: a warning"

# ---- no token: a failed post, nothing sent ----------------------------------
start_server 200 1
expect 0 post --format github --api-url "$url" --repository o/r --sha "$SHA" "$DATA/regression.json"
expect_match "$out" "warning: cannot post: the environment variable GITHUB_TOKEN is not set" \
	"no token: warning"
expect 4 post --require-post --format github --api-url "$url" --repository o/r --sha "$SHA" \
	"$DATA/regression.json"
expect_match "$out" "error: cannot post: the environment variable GITHUB_TOKEN is not set" \
	"no token: error"
[ "$(nr_requests)" -eq 0 ] && pass || fail "no token: $(nr_requests) requests"

# ---- TLS: verified; --ca-bundle names the CA -------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
	-addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$T/key.pem" -out \
		"$T/cert.pem" 2>/dev/null && pass ||
	fail "cannot make a certificate"
start_server 200 1 20 --tls "$T/cert.pem" "$T/key.pem"
expect 4 post --require-post --url "$url/hook" "$DATA/pass.json"
expect_match "$out" "error: cannot post the summary to $url/hook: .*(certificate|SSL)" \
	"tls: an unknown CA is refused"
expect_no_match "$out" "attempt 1 of" "tls: a refused certificate is not retried"
expect 0 post --require-post --url "$url/hook" --ca-bundle "$T/cert.pem" "$DATA/pass.json"
expect_match "$out" "^scalegate: posted the summary to $url/hook$" "tls: --ca-bundle"
[ "$(nr_requests)" -eq 1 ] && pass || fail "tls: $(nr_requests) requests"
cmp -s "$log/1.body" "$DATA/pass.json" && pass || fail "tls: the body"
# A token over plain http to another host is warned about (dry run: nothing leaves).
HOOK=$TOKEN expect 0 post --dry-run --url http://hooks.example.com/x --token-env HOOK \
	"$DATA/pass.json"
expect_match "$out" "warning: the summary goes to hooks.example.com over plain http" \
	"cleartext warning"

# ---- the token: in no output, in no file ------------------------------------
! grep -qF -- "$TOKEN" "$all" && pass || { grep -F -- "$TOKEN" "$all" >&2; fail \
	"the token appears in the output"; }
[ -z "$(ls -A "$T/work")" ] && pass || fail "scalegate post wrote files: $(ls -A "$T/work")"
! grep -rqF -- "$TOKEN" "$T" && pass || fail "the token appears in $(grep -rlF -- "$TOKEN" "$T")"
echo "post retries ok"
