# The SQLite history's schema version, read defensively: a negative one (it indexed before the
# migrations and crashed or ran stray memory as SQL), a version without its tables, a database of
# another program (it was extended with four tables), tables without a version, and a later version
# are errors that name the file and leave it as it was, byte for byte; a new or empty file still
# becomes a history.
# tier: fast
. "$(dirname "$0")/lib.bash"
command -v sqlite3 >/dev/null && pass || fail "the sqlite3 shell is not installed (Debian: sqlite3)"
gen="$SG_TOP/tests/data/history/generate.py"
python3 "$gen" "$T/runs" 1 3

# refused DB REGEX WHAT: every command that opens a history exits 2 naming DB, and DB is unchanged
refused() {
	local db=$1 cmd
	cp "$db" "$T/before.db"
	for cmd in "history record --commit x $T/runs/c01" "history detect" \
		"history report --html $T/site"; do
		# shellcheck disable=SC2086
		expect_exit 2 "$SCALEGATE" $cmd --history "$db"
		expect_match "$out" "history '$db'.*$2" "$3 ($cmd)"
		cmp -s "$db" "$T/before.db" && pass || fail "$3: '$cmd' changed the file"
		[ ! -e "$db-wal" ] && pass || fail "$3: '$cmd' left a write-ahead log"
	done
}

expect_exit 0 "$SCALEGATE" history record --history "$T/h.db" --commit c01 "$T/runs/c01"
for v in -2 -100000000 -2147483648; do
	cp "$T/h.db" "$T/neg.db"
	sqlite3 "$T/neg.db" "PRAGMA user_version = $v"
	refused "$T/neg.db" "has schema version $v, which no scalegate writes" "schema version $v"
done

cp "$T/h.db" "$T/later.db"
sqlite3 "$T/later.db" "PRAGMA journal_mode = DELETE; PRAGMA user_version = 9" >/dev/null
refused "$T/later.db" "schema version 9; this scalegate knows up to 4" "a later schema"

re="CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); "
re+="INSERT INTO notes (text) VALUES ('keep')"
sqlite3 "$T/other.db" "$re"
refused "$T/other.db" "is not a scalegate history: it holds table 'notes'" \
	"another program's database"
[ "$(sqlite3 "$T/other.db" "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")" = \
	notes ] && pass ||
	fail "tables were added to another program's database"

sqlite3 "$T/noversion.db" "CREATE TABLE runs (id INTEGER PRIMARY KEY)"
refused "$T/noversion.db" "holds table 'runs' but no schema version" "tables without a version"

sqlite3 "$T/notables.db" "PRAGMA user_version = 2"
refused "$T/notables.db" "has schema version 2 but no table 'runs'" "a version without its tables"
sqlite3 "$T/part.db" \
	"CREATE TABLE runs (id INTEGER PRIMARY KEY); CREATE TABLE series (id INTEGER PRIMARY KEY);
	CREATE TABLE points (run INTEGER); PRAGMA user_version = 3"
refused "$T/part.db" "has schema version 3 but no table 'samples'" "a version with a table missing"

# A history of schema version 3 is migrated on open: its runs, points and samples kept, the points
# and samples now tables without a rowid, the runs given a commit subject and a machine speed
# reference (NULL: unknown).
sqlite3 "$T/v3.db" <"$SG_TOP/tests/data/history/v3.sql"
rows() {
	sqlite3 "$1" "SELECT * FROM points ORDER BY run, series;
		SELECT * FROM samples ORDER BY run, series, repeat"
}
before=$(rows "$T/v3.db")
expect_exit 0 "$SCALEGATE" history detect --history "$T/v3.db" --json
expect_match "$out" '"series": 9, "runs": 2' "the migrated history's series and runs"
[ "$(sqlite3 "$T/v3.db" 'PRAGMA user_version')" = 4 ] && pass ||
	fail "the migrated history's schema version"
[ "$(rows "$T/v3.db")" = "$before" ] && pass || fail "the migration changed the points or samples"
[ "$(sqlite3 "$T/v3.db" \
	"SELECT count(*) FROM sqlite_master
	WHERE name IN ('points', 'samples') AND sql LIKE '%WITHOUT ROWID'")" = 2 ] && pass ||
	fail "points and samples still have a rowid"
[ "$(sqlite3 "$T/v3.db" "SELECT count(*) FROM runs WHERE subject IS NULL AND reference IS NULL")" \
	= 2 ] && pass ||
	fail "the migrated runs' subject and reference"
[ "$(sqlite3 "$T/v3.db" 'PRAGMA integrity_check')" = ok ] && pass ||
	fail "integrity_check after the migration"
expect_exit 0 "$SCALEGATE" history record --history "$T/v3.db" --commit c03 --subject 'the third' \
	"$T/runs/c03"
[ "$(sqlite3 "$T/v3.db" "SELECT subject FROM runs WHERE commit_id = 'c03'")" = "the third" ] && \
	pass ||
	fail "a subject recorded"

# an empty file (touch) and a new one become histories
: >"$T/empty.db"
expect_exit 0 "$SCALEGATE" history record --history "$T/empty.db" --commit c01 "$T/runs/c01"
expect_exit 0 "$SCALEGATE" history record --history "$T/new.db" --commit c01 "$T/runs/c01"
expect_exit 0 "$SCALEGATE" history record --history "$T/new.db" --commit c02 "$T/runs/c02"
[ "$(sqlite3 "$T/new.db" 'PRAGMA user_version')" = 4 ] && pass ||
	fail "the new history's schema version"
echo "ok: SQLite schema versions"
