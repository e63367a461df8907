# The history database: two jobs recording at once both land (WAL, a busy timeout), a writer killed
# at every write of its transaction leaves 'PRAGMA integrity_check' ok and no half-recorded run, the
# schema version is checked.
. "$(dirname "$0")/lib.bash"
gen="$SG_TOP/tests/data/history/generate.py"
db="$T/h.db"
python3 "$gen" "$T/runs" 1 3
command -v sqlite3 >/dev/null && pass || fail "the sqlite3 shell is not installed (Debian: sqlite3)"

expect_exit 0 "$SCALEGATE" history record --history "$db" --commit c01 "$T/runs/c01"
[ "$(sqlite3 "$db" 'PRAGMA journal_mode')" = wal ] && pass || fail "the database is not in WAL mode"
[ "$(sqlite3 "$db" 'PRAGMA user_version')" = 4 ] && pass || fail "the schema version"
figures=$(sqlite3 "$db" "SELECT count(*) FROM points WHERE run = 1")
[ "$figures" -gt 0 ] && pass || fail "no point recorded"

# Two records while another writer holds the lock for two seconds: both wait, both land.
re="BEGIN IMMEDIATE; INSERT INTO series (benchmark, interval, "
re+="configuration, metric) VALUES ('x', 'x', 'x', 'x');"
{ echo "$re"
	sleep 2; echo "COMMIT;"; } | sqlite3 "$db" &
lock=$!
sleep 0.5
"$SCALEGATE" history record --history "$db" --commit a "$T/runs/c02" >"$T/a.log" 2>&1 &
a=$!
"$SCALEGATE" history record --history "$db" --commit b "$T/runs/c03" >"$T/b.log" 2>&1 &
b=$!
wait $a && pass || { cat "$T/a.log"; fail "the first of two concurrent records"; }
wait $b && pass || { cat "$T/b.log"; fail "the second of two concurrent records"; }
wait $lock
[ "$(sqlite3 "$db" "SELECT group_concat(commit_id, ' ')
	FROM (SELECT commit_id FROM runs ORDER BY commit_id)")" = "a b c01" ] && pass ||
	fail "both concurrent records landed"
# and eight at once, without a lock held
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$SCALEGATE" history record --history "$db" --commit "p$i" "$T/runs/c02" >"$T/p$i.log" \
		2>&1 &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" && pass || fail "one of eight concurrent records failed"; done
[ "$(sqlite3 "$db" "SELECT count(*) FROM runs")" = 11 ] && pass || fail "eight concurrent records"

# A writer killed at its n-th write (strace injects SIGKILL): the database is consistent, and every
# run in it has all its points (the transaction is all or nothing).
command -v strace >/dev/null && pass ||
	fail "strace is not installed (ci/install-deps.sh installs it)"
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer stops under ptrace
strace -f -c -e trace=pwrite64,fdatasync -o "$T/count.txt" \
	"$SCALEGATE" history record --history "$db" --commit counted "$T/runs/c02" >/dev/null &&
	pass ||
		fail "strace"
killed=0
for call in pwrite64 fdatasync; do
	calls=$(awk -v c=$call '$NF == c { print $4 }' "$T/count.txt")
	[ "${calls:-0}" -gt 0 ] && pass || fail "could not count the ${call}s of a record"
	for n in $(seq 1 "$calls"); do
		strace -f -o /dev/null -e trace=$call -e inject=$call:signal=KILL:when=$n \
			"$SCALEGATE" history record --history "$db" --commit "k$call$n" \
			"$T/runs/c03" >/dev/null 2>&1 ||
			killed=$((killed + 1))
		[ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] && pass ||
			fail "integrity_check after a kill at $call $n"
	done
done
[ "$killed" -gt 5 ] && pass || fail "only $killed records were killed"
sql="SELECT r.commit_id, count(p.series) FROM runs r LEFT JOIN "
sql+="points p ON p.run = r.id GROUP BY r.id"
sqlite3 "$db" "$sql" |
	awk -F'|' -v want="$figures" \
	'$2 != want { print "run " $1 ": " $2 " points of " want; bad = 1 } END { exit bad }' &&
	pass ||
	fail "a killed record left a partial run"
[ "$(sqlite3 "$db" "PRAGMA foreign_key_check")" = "" ] && pass || fail "foreign_key_check"
expect_exit 0 "$SCALEGATE" history detect --history "$db"

# Stored baselines: the earlier sittings' times, then the samples (every metric), in sitting order.
expect_exit 0 "$SCALEGATE" history import --history "$T/b.db" --branch main \
	"$SG_TOP/baselines/jacobi.sgbase"
sittings=$(grep -c '^sitting' "$SG_TOP/baselines/jacobi.sgbase" || true)
[ "$(sqlite3 "$T/b.db" "SELECT count(*) FROM runs")" = $((sittings + 1)) ] && pass ||
	fail "a run per sitting, and the samples"
last=$(sqlite3 "$T/b.db" "SELECT commit_id FROM runs ORDER BY id DESC LIMIT 1")
[ "$last" = baseline-jacobi ] && pass ||
	fail "the baseline's run"
[ "$(sqlite3 "$T/b.db" "SELECT count(DISTINCT s.metric)
	FROM points p JOIN series s ON s.id = p.series WHERE p.run = $((sittings + 1))")" -ge 3 ] &&
	pass ||
	fail "time, speedup and efficiency of the baseline's samples"
expect_exit 0 "$SCALEGATE" history detect --history "$T/b.db"

# A database of a newer schema is refused and left as it is; a file that is no database is an error.
sqlite3 "$db" "PRAGMA user_version = 9"
expect_exit 2 "$SCALEGATE" history detect --history "$db"
expect_match "$out" "schema version 9; this scalegate knows up to 4" "a newer schema"
[ "$(sqlite3 "$db" 'PRAGMA user_version')" = 9 ] && pass || fail "the newer database was changed"
echo "not a database" >"$T/junk.db"
expect_exit 2 "$SCALEGATE" history detect --history "$T/junk.db"
expect_exit 2 "$SCALEGATE" history detect
expect_match "$out" "no history database" "without a database"
echo "ok: concurrent records, $killed killed writers, schema checks"
