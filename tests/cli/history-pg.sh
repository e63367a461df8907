# The history in PostgreSQL (a postgresql:// URL): a server started here in a temporary directory
# (Debian's postgresql, a unix socket, no TCP), the same change points as in SQLite, two concurrent
# records that both land, writers killed mid-record that leave no partial run, a password never
# printed. Skipped (77) when no server starts.
. "$(dirname "$0")/lib.bash"
gen="$SG_TOP/tests/data/history/generate.py"
. "$(dirname "$0")/pg.bash"
pg_start "-c listen_addresses=''"
url="postgresql:///postgres?host=$pg&user=postgres"

python3 "$gen" "$T/runs" 1 24 sweep:13:0.15
expect_exit 0 "$SCALEGATE" history import --history "$url" --branch main "$T"/runs/c*
expect_exit 0 "$SCALEGATE" history import --history "$T/h.db" --branch main "$T"/runs/c*
expect_exit 0 "$SCALEGATE" history detect --history "$url" --json
pg_json=$out
expect_exit 0 "$SCALEGATE" history detect --history "$T/h.db" --json
[ "$pg_json" = "$out" ] && pass || { diff <(echo "$pg_json") <(echo "$out") >&2; fail \
	"PostgreSQL and SQLite disagree"; }
re='"interval": "program/solve/sweep", "configuration": "1x1", "metric": '
re+='"time", "previous_commit": "c12", "commit": "c13"'
expect_match "$pg_json" "$re" \
	"the step at c13"
expect_exit 1 "$SCALEGATE" history detect --history "$url" --window 12

psql() { "$bin/psql" -X -A -t -q "$url" -c "$1"; }
[ "$(psql 'SELECT version FROM schema_version')" = 4 ] && pass || fail "the schema version"
figures=$(psql "SELECT count(*) FROM points WHERE run = 1")

# two records at once, while a third transaction holds a lock on the runs table for two seconds
{ echo "BEGIN; LOCK TABLE runs IN EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;" | "$bin/psql" -X -q \
	"$url" >/dev/null; } &
lock=$!
sleep 0.5
"$SCALEGATE" history record --history "$url" --commit a "$T/runs/c01" >"$T/a.log" 2>&1 &
a=$!
"$SCALEGATE" history record --history "$url" --commit b "$T/runs/c02" >"$T/b.log" 2>&1 &
b=$!
wait $a && pass || { cat "$T/a.log"; fail "the first of two concurrent records"; }
wait $b && pass || { cat "$T/b.log"; fail "the second of two concurrent records"; }
wait $lock
[ "$(psql "SELECT count(*) FROM runs WHERE commit_id IN ('a', 'b')")" = 2 ] && pass ||
	fail "both concurrent records landed"

# writers killed (SIGKILL) at their n-th message to the server, each message of a record in turn: no
# partial run
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace (make SANITIZE=address test)
	asan=${ASAN_OPTIONS-}
	export ASAN_OPTIONS=${asan:+$asan:}detect_leaks=0
	strace -f -o "$T/sendto.log" -e trace=sendto "$SCALEGATE" history record --history "$url" \
		--commit whole \
		"$T/runs/c03" >/dev/null 2>&1 && pass || fail "a record under strace"
	messages=$(grep -c 'sendto(' "$T/sendto.log")
	[ "$messages" -ge 8 ] && pass || fail "a record sent only $messages messages"
	for n in $(seq 1 $((messages - 1))); do
		strace -f -o /dev/null -e trace=sendto -e inject=sendto:signal=KILL:when=$n \
			"$SCALEGATE" history record --history "$url" --commit "k$n" "$T/runs/c03" \
				>/dev/null 2>&1 || true
	done
	psql "SELECT r.commit_id, count(p.series) FROM runs r LEFT JOIN points p ON p.run = r.id
		GROUP BY r.id, r.commit_id" |
		awk -F'|' -v want="$figures" '$2 != want {
			print "run " $1 ": " $2 " points of " want; bad = 1 }
			END { exit bad }' && pass ||
		fail "a killed record left a partial run"
	ASAN_OPTIONS=$asan
fi
expect_exit 0 "$SCALEGATE" history report --history "$url" --html "$T/site"
grep -q 'class="change"' "$T/site/bench-jacobi.html" && pass ||
	fail "the trend page from PostgreSQL"

# a password is never printed
expect_exit 2 "$SCALEGATE" history detect --history \
	"postgresql://bob:s3cret@$pg/none?password=p4ss&host=$pg"
expect_no_match "$out" "s3cret|p4ss" "the password in a message"
psql "UPDATE schema_version SET version = 9"
expect_exit 2 "$SCALEGATE" history detect --history "$url"
expect_match "$out" "schema version 9; this scalegate knows up to 4" "a newer schema"
echo "ok: PostgreSQL history"
