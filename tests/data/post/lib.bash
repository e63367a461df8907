# Helpers of the 'scalegate post' tests (sourced after tests/cli/lib.bash): a scripted HTTP server,
# a double of the GitHub and GitLab APIs, JSON lookups.

DATA=$SG_TOP/tests/data/post
SHA=0123456789abcdef0123456789abcdef01234567
# A token no file of the repository contains: the tests look for it everywhere.
TOKEN="sgtok-$RANDOM$RANDOM-$$-$(date +%s%N | tail -c 9)"

# The CI this suite itself may run in must not leak into the cases, nor a proxy step in between.
for v in $(compgen -e); do
	case $v in
	GITHUB_* | GITLAB_* | CI_* | RUNNER_* | ?*_TOKEN) unset "$v" ;;
	http_proxy | https_proxy | HTTP_PROXY | HTTPS_PROXY | all_proxy | ALL_PROXY) unset "$v" ;;
	esac
done
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$T"' EXIT

# start_server SPEC [MAX_REQUESTS [LIFETIME [--tls CERT KEY]]]: sets $url (http://127.0.0.1:PORT,
# or https://localhost:PORT) and $log (the request log).
start_server() {
	local spec=$1 max=${2:-10} life=${3:-20} scheme=http host=127.0.0.1 i
	shift $(($# < 3 ? $# : 3))
	[ "${1:-}" = --tls ] && scheme=https host=localhost
	log=$(mktemp -d "$T/log.XXXXXX")
	python3 -S "$DATA/server.py" --log "$log" --respond "$spec" --max-requests "$max" \
		--lifetime "$life" "$@" >"$log/port" 2>"$log/stderr" &
	servers+=($!)
	for i in $(seq 100); do
		[ -s "$log/port" ] && break
		sleep 0.05
	done
	[ -s "$log/port" ] || { cat "$log/stderr" >&2; fail "the test server did not start"; }
	url="$scheme://$host:$(cat "$log/port")"
}

# nr_requests: how many requests the server logged.
nr_requests() {
	find "$log" -name '[0-9]*.json' | wc -l
}

# j FILE EXPR: the Python expression EXPR of 'd', the JSON in FILE (dicts and lists printed as
# JSON).
j() {
	python3 -S - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
v = eval(sys.argv[2], {"d": d, "len": len})
print(json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list, bool)) or v is None else v)
PY
}

# sha256 TEXT: what the server logs for a secret header.
sha256() {
	printf '%s' "$1" | sha256sum | cut -d' ' -f1
}

# no_token WHAT TEXT...: the token must not appear in TEXT.
no_token() {
	local what=$1
	shift
	! grep -qF -- "$TOKEN" <<<"$*" || fail "the token appears in $what"
}

# start_api [api.py options]: the GitHub and GitLab API double (api.py), taking the token $TOKEN;
# sets $url (http://127.0.0.1:PORT) and $log (its request log and state.json).
start_api() {
	local i
	log=$(mktemp -d "$T/api.XXXXXX")
	python3 -S "$DATA/api.py" --log "$log" --token-sha256 "$(sha256 "$TOKEN")" "$@" \
		>"$log/port" 2>"$log/stderr" &
	servers+=($!)
	for i in $(seq 100); do
		[ -s "$log/port" ] && break
		sleep 0.05
	done
	[ -s "$log/port" ] || { cat "$log/stderr" >&2; fail "the API double did not start"; }
	url="http://127.0.0.1:$(cat "$log/port")"
}

# requests: the method and path of each request the server logged, in order, one a line.
requests() {
	python3 -S - "$log" <<'PY'
import json, os, sys
n = 1
while os.path.exists(os.path.join(sys.argv[1], "%d.json" % n)):
    d = json.load(open(os.path.join(sys.argv[1], "%d.json" % n), encoding="utf-8"))
    print(d["method"], d["path"])
    n += 1
PY
}
