# The history in PostgreSQL as users reach it: over TCP on 127.0.0.1 with libpq's defaults (GSS
# negotiation on, which called the gate's own profile_init from MIT Kerberos and crashed every
# record: tests/cli/symbols.sh), a listener that accepts and never answers (the gate waited for
# ever; now libpq's connect_timeout, 10 s by default), and the schema checks of PostgreSQL: a
# negative or empty version, a missing table, another program's tables are errors that change
# nothing. Beside history-pg.sh (a unix socket). Skipped (77) when no server starts.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo \
	"skip: python3 is not installed (the tests' listener and data)"; exit 77; }
gen="$SG_TOP/tests/data/history/generate.py"
. "$(dirname "$0")/pg.bash"
unset PGGSSENCMODE PGSSLMODE PGCONNECT_TIMEOUT PGHOST PGPORT
free_port() { python3 -c \
	'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
pg_start "-c listen_addresses=127.0.0.1 -p $port"
url="postgresql://postgres@127.0.0.1:$port/postgres"

python3 "$gen" "$T/runs" 1 24 sweep:13:0.15
expect_exit 0 "$SCALEGATE" history import --history "$url" --branch main "$T"/runs/c0*
expect_exit 0 "$SCALEGATE" history record --history "$url" --branch main --commit c10 "$T/runs/c10"
for c in "$T"/runs/c1[1-9] "$T"/runs/c2*; do
	expect_exit 0 "$SCALEGATE" history record --history "$url" --branch main --commit \
		"$(basename "$c")" "$c"
done
expect_exit 0 "$SCALEGATE" history detect --history "$url" --json
re='"interval": "program/solve/sweep", "configuration": "1x1", "metric": '
re+='"time", "previous_commit": "c12", "commit": "c13"'
expect_match "$out" "$re" \
	"the step at c13 through TCP"
expect_exit 0 "$SCALEGATE" history report --history "$url" --html "$T/site"
grep -q 'class="change"' "$T/site/bench-jacobi.html" && pass || fail "the trend page through TCP"

psql() { "$bin/psql" -X -A -t -q "${2:-$url}" -c "$1"; }
# the tables of a database's public schema, counted
tables="SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = 'public'"
# refused URL REGEX WHAT: record and detect exit 2 naming the database, and write nothing
refused() {
	local before
	before=$(psql "$tables" "$1")
	expect_exit 2 "$SCALEGATE" history record --history "$1" --commit x "$T/runs/c01"
	expect_match "$out" "history '$1'.*$2" "$3 (record)"
	expect_exit 2 "$SCALEGATE" history detect --history "$1"
	expect_match "$out" "history '$1'.*$2" "$3 (detect)"
	[ "$(psql "$tables" "$1")" = "$before" ] && pass ||
		fail "$3: relations were added"
}
runs=$(psql "SELECT count(*) FROM runs")
for v in -2 -100000000 -2147483648; do
	psql "UPDATE schema_version SET version = $v"
	refused "$url" "has schema version $v, which no scalegate writes" "schema version $v"
	[ "$(psql 'SELECT version FROM schema_version')" = "$v" ] && pass ||
		fail "schema version $v was changed"
done
psql "DELETE FROM schema_version"
refused "$url" "has schema version 0, which no scalegate writes" "an empty schema_version"
psql "INSERT INTO schema_version VALUES (4)"
[ "$(psql "SELECT count(*) FROM runs")" = "$runs" ] && pass || fail "a refused record wrote a run"

psql "CREATE DATABASE other"
other="postgresql://postgres@127.0.0.1:$port/other"
psql "CREATE TABLE notes (id serial PRIMARY KEY, text text)" "$other"
refused "$other" "is not a scalegate history: it holds table 'notes'" "another program's database"
psql "CREATE DATABASE damaged TEMPLATE postgres"
damaged="postgresql://postgres@127.0.0.1:$port/damaged"
psql "DROP TABLE samples" "$damaged"
refused "$damaged" "has schema version 4 but no table 'samples'" "a missing table"

# a listener that accepts and never answers: the gate ends (libpq's timeout), exit 2, naming the
# host and port
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])' >"$T/silent.port" &
silent=$!
for _ in $(seq 100); do [ -s "$T/silent.port" ] && break; sleep 0.1; done
sport=$(cat "$T/silent.port")
[ -n "$sport" ] && pass || fail "the silent listener did not start"
expect_exit 2 timeout -s KILL 120 "$SCALEGATE" history record \
	--history "postgresql://ci@127.0.0.1:$sport/h" \
	--commit x "$T/runs/c01"
kill "$silent"
re="history 'postgresql://ci@127.0.0.1:$sport/h': cannot connect to "
re+="host '127.0.0.1' port $sport: .*timeout expired"
expect_match "$out" "$re" \
	"a silent server"
echo "ok: PostgreSQL history over TCP"
