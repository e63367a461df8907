# An interrupt (SIGINT, SIGTERM) of 'scalegate ci' in each phase the test can hold it in: a build, a
# run, a post that gets no answer, the --against checkout. The gate ends with 128 + the signal,
# nothing it started lives on, and the reports hold what was judged, marked incomplete, with an
# error per configuration not run. A gate killed outright (SIGKILL) takes its runs' grandchildren
# along. The gate runs with 512 MB of address space throughout (ulimit -v); every wait has a guard
# ('timeout 20'), never a clock.
. "$(dirname "$0")/lib.bash"
. "$SG_TOP/tests/data/post/lib.bash"
trap \
	'for pid in "${servers[@]}" $(cat "$T"/pids 2>/dev/null); do
		kill -9 "$pid" 2>/dev/null || true
	done
	rm -rf "$T"' EXIT
gate_memory_bounded

# alive FILE: the pids of FILE that still run (a zombie is dead).
alive() {
	local pid left=""
	for pid in $(cat "$1" 2>/dev/null); do
		if [ -e "/proc/$pid" ] && [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" \
			!= Z ]; then
			left="$left $pid"
		fi
	done
	echo "$left"
}
# await FILE: until FILE exists; the guard ends a hang.
await() {
	timeout 20 sh -c 'while [ ! -s "$0" ]; do sleep 0.05; done' "$1" && pass ||
		fail "'$1' never appeared"
}
# interrupt SIG CODE READY ARGS...: 'ci ARGS' in the background; once READY exists, SIG; the gate
# must end (within the guard) with CODE and leave no process of $T/pids alive.
interrupt() {
	local sig=$1 want=$2 ready=$3 gate code=0
	shift 3
	rm -f "$T/pids" "$ready"
	"$SCALEGATE" ci -c "$T/scalegate.yml" -o "$T/reports" "$@" >"$T/ci.out" 2>&1 &
	gate=$!
	await "$ready"
	kill -"$sig" "$gate"
	timeout 20 tail --pid="$gate" -f /dev/null && pass ||
		fail "the gate outlived SIG$sig by 20 s"
	wait "$gate" || code=$?
	out=$(cat "$T/ci.out")
	[ "$code" -eq "$want" ] && pass || { printf '%s\n' "$out" >&2; fail \
		"SIG$sig: exit $code, expected $want"; }
	# what the gate started is gone: its kill is done when it exits
	[ -z "$(alive "$T/pids")" ] && pass ||
		fail "SIG$sig: processes outlived the gate:$(alive "$T/pids")"
}
# hold.sh READY: a shell that records its pid and a background child's, says it started, and waits.
printf '#!/bin/sh\nsleep 300 & echo $! >>%s/pids; echo $$ >>%s/pids; echo >"$1"; wait\n' "$T" "$T" \
	>"$T/hold.sh"
chmod +x "$T/hold.sh"
write_config() {
	cat >"$T/scalegate.yml" <<YML
results: $T/results
baselines: $T/baselines
allow_no_reference: true
defaults:
  warmup: 0
  repeat: 2
benchmarks:
  - name: fast
    command: $SG_BUILD/examples/jacobi 1 50 2
  - name: slow
    command: "[ -z \"\$SG_HOLD\" ] || $T/hold.sh \$SG_HOLD; $SG_BUILD/examples/jacobi 1 50 2"
    threads: [1, 2]
$1
rules:
  - tolerance: { time: 50% }
YML
}

# ---- SIGTERM during a run: the runs that ended are judged, the others are errors ----
write_config ""
SG_HOLD=$T/running interrupt TERM 143 "$T/running" --no-post
re="ERROR slow program 1 rank × 1 thread run.interrupted: not judged: the gate "
re+="was interrupted by SIGTERM after 0 of the 2 repeats"
expect_match "$out" "$re" "the run not done is an error"
expect_match "$out" "ERROR slow program 1 rank × 2 threads run.interrupted" \
	"the configuration not started is an error"
expect_match "$out" "exit 143 \(interrupted\)" "the counts line says interrupted"
json=$T/reports/summary.json
[ "$(j "$json" 'd["complete"]')" = false ] && pass ||
	fail "summary.json: complete is $(j "$json" 'd["complete"]')"
[ "$(j "$json" 'd["interrupted"]')" = SIGTERM ] && pass ||
	fail "summary.json: interrupted is $(j "$json" 'd["interrupted"]')"
[ "$(j "$json" 'd["exit_code"]')" = 143 ] && pass || fail "summary.json: exit_code"
[ "$(j "$json" 'd["verdict"]')" = run-failed ] && pass ||
	fail "summary.json: verdict (the poster's word)"
[ "$(j "$json" 'len([v for v in d["verdicts"] if v["kind"] == "run.interrupted"])')" = 2 ] && pass \
	||
	fail "summary.json: two configurations not run"
[ "$(j "$json" 'len([v for v in d["verdicts"] if v["benchmark"] == "fast"])')" -ge 1 ] && pass ||
	fail "summary.json: the benchmark that ran is judged"
junit=$(cat "$T/reports/junit.xml")
expect_match "$junit" '<property name="scalegate.interrupted" value="SIGTERM"/>' \
	"JUnit says interrupted"
[ "$(grep -c '<error .*run.interrupted' "$T/reports/junit.xml")" -eq 2 ] && pass ||
	fail "JUnit: an <error> per configuration not run: $(grep '<error' "$T/reports/junit.xml")"
expect_match "$(head -3 "$T/reports/summary.md")" \
	'^### .* scalegate: interrupted by SIGTERM, incomplete' "Markdown title"
expect_match "$(cat "$T/reports/summary.md")" \
	'^\*\*Incomplete:\*\* the gate was interrupted by SIGTERM' "Markdown header line"
[ -s "$T/reports/report.html" ] && pass || fail "no HTML report"

# ---- SIGINT during a build: 130, the build's processes gone, every configuration of it an error
# ----
write_config "    build: $T/hold.sh $T/building"
interrupt INT 130 "$T/building" --no-post
expect_match "$out" \
	"ERROR slow program 1 rank × 2 threads run.interrupted: .*interrupted by SIGINT" \
	"not built, not run"
[ "$(j "$json" 'd["interrupted"]')" = SIGINT ] && pass || fail "summary.json after SIGINT"

# ---- SIGTERM while posting to a server that never answers: 143 at once, the reports kept ----
start_server hang 10 60
write_config "post:
  url: $url/hook
  timeout: 50
  retries: 0"
rm -rf "$T/reports"
interrupt TERM 143 "$log/1.json"
expect_match "$out" "cannot post the summary to $url/hook: the gate was interrupted" \
	"the post says why it stopped"
[ "$(j "$json" 'd["verdict"]')" = pass ] && pass ||
	fail "the reports written before the post: $(j "$json" 'd["verdict"]')"

# ---- SIGTERM while the reports are written: they say incomplete, as the exit code does ----
# The gate is held in its first report: the temporary file it opens is a FIFO with no reader (gone
# from the directory once the gate waits in it, so the reports written again are plain files).
write_config ""
rm -rf "$T/reports"
mkdir -p "$T/reports"
"$SCALEGATE" ci -c "$T/scalegate.yml" -o "$T/reports" --no-post >"$T/ci.out" 2>&1 &
gate=$!
mkfifo "$T/reports/junit.xml.tmp.$gate"
re='while [ "$(cat /proc/$0/wchan 2>/dev/null)" != wait_for_partner ]; do sleep 0.05; done'
timeout 20 sh -c "$re" \
	"$gate" && pass || fail "the gate never opened its first report"
rm "$T/reports/junit.xml.tmp.$gate"
kill -TERM "$gate"
timeout 20 tail --pid="$gate" -f /dev/null && pass || fail "the gate outlived SIGTERM by 20 s"
code=0
wait "$gate" || code=$?
[ "$code" -eq 143 ] && pass || { cat "$T/ci.out" >&2; fail \
	"SIGTERM in the reports: exit $code, expected 143"; }
[ "$(j "$json" 'd["complete"]')" = false ] && pass ||
	fail "summary.json written during the interrupt says complete"
[ "$(j "$json" 'd["interrupted"]')" = SIGTERM ] && pass ||
	fail "summary.json: interrupted is $(j "$json" 'd["interrupted"]')"
expect_match "$(head -3 "$T/reports/summary.md")" 'interrupted by SIGTERM, incomplete' \
	"Markdown title"
expect_match "$(cat "$T/reports/junit.xml")" 'name="scalegate.interrupted" value="SIGTERM"' "JUnit"

# ---- SIGTERM, SIGINT during the --against checkout: a post-checkout hook and its children killed
# ----
write_config ""
git -C "$T" init -q
git -C "$T" add scalegate.yml
git -C "$T" -c user.name=t -c user.email=t@t commit -qm base
fmt='#!/bin/sh\nsleep 300 & echo $! >>%s/pids\nsleep 300 & echo $! '
fmt+='>>%s/pids\necho $$ >>%s/pids\necho >%s/checkout\nwait\n'
printf "$fmt" \
	"$T" "$T" "$T" "$T" >"$T/.git/hooks/post-checkout"
chmod +x "$T/.git/hooks/post-checkout"
for s in TERM:143 INT:130; do
	interrupt "${s%:*}" "${s#*:}" "$T/checkout" --no-post --against HEAD
	re="checking out .HEAD. into .* interrupted by SIG${s%:*}: git and what it started killed"
	expect_match "$out" "$re" \
		"the checkout says interrupted"
	expect_no_match "$out" "failed" "an interrupted checkout did not fail"
done
rm -rf "$T/.git"

# ---- SIGKILL: the run's grandchild (a background job of the benchmark's shell) dies with the gate
# ----
write_config ""
rm -f "$T/pids" "$T/running"
SG_HOLD=$T/running "$SCALEGATE" run -c "$T/scalegate.yml" >"$T/run.out" 2>&1 &
gate=$!
await "$T/running"
kill -9 "$gate"
wait "$gate" || true
timeout 20 sh -c 'for pid in $(cat "$0"); do while [ -e /proc/$pid ] &&
	[ "$(cut -d" " -f3 /proc/$pid/stat 2>/dev/null)" != Z ]; do sleep 0.05; done; done' \
	"$T/pids" && pass ||
	fail "the run's processes outlived a killed gate:$(alive "$T/pids")"
echo ok
