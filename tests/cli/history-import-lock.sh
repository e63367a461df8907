# 'history import' analyses every directory before it takes the write lock: a record from another
# job lands while the import is still reading its directories, and the import's runs land after it,
# all of them in one transaction. The import is held mid-analysis by strace, which delays its first
# open of c03's manifest by 10 s.
. "$(dirname "$0")/lib.bash"
command -v sqlite3 >/dev/null && pass || fail "the sqlite3 shell is not installed (Debian: sqlite3)"
gen="$SG_TOP/tests/data/history/generate.py"
python3 "$gen" "$T/runs" 1 4 sweep:3:0.15
command -v strace >/dev/null && pass ||
	fail "strace is not installed (ci/install-deps.sh installs it)"
db=$T/h.db
"$SCALEGATE" history record --history "$db" --commit first "$T/runs/c04" >/dev/null && pass ||
	fail "the first record"
strace -f -o /dev/null -P "$T/runs/c03/manifest.tsv" -e trace=openat \
	-e inject=openat:delay_enter=10000000:when=1 \
	"$SCALEGATE" history import --history "$db" "$T"/runs/c0[1-3] >"$T/import.log" 2>&1 &
import=$!
# the import is analysing (c01, c02, then a wait at c03): a record lands at once, not after the
# import (before, the import held the write lock from its start)
sleep 2
start=$(date +%s)
timeout 30 "$SCALEGATE" history record --history "$db" --commit during "$T/runs/c04" \
	>"$T/during.log" 2>&1 && pass || { cat "$T/during.log"; fail "a record during an import"; }
[ $(($(date +%s) - start)) -lt 8 ] && pass || fail "the record waited for the import"
kill -0 "$import" 2>/dev/null && pass || { cat "$T/import.log"; fail "the import ended early"; }
[ "$(sqlite3 "$db" "SELECT group_concat(commit_id, ' ') FROM runs")" = "first during" ] && pass ||
	fail "the record landed alone while the import was analysing"
wait "$import" && pass || { cat "$T/import.log"; fail "the import"; }
order=$(sqlite3 "$db" "SELECT group_concat(commit_id, ' ') FROM (SELECT commit_id FROM runs \
	ORDER BY id)")
[ "$order" = "first during c01 c02 c03" ] && pass || fail "the import's runs after the record"
[ "$(sqlite3 "$db" "SELECT count(DISTINCT run) FROM points")" = 5 ] && pass ||
	fail "every run has its points"
