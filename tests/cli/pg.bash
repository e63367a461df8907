# A private PostgreSQL server for the history tests (sourced after lib.bash): pg_start starts one in
# a temporary directory (Debian's postgresql; as the user 'postgres' when run as root, which the
# server refuses to be), stopped and removed at exit. Skips the test (77), with the reason, where no
# server starts.
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo \
	"skip: PostgreSQL's initdb is not installed (Debian: postgresql)"; exit 77; }
pg=$(mktemp -d /tmp/sg-pg.XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || { rm -rf "$pg"; echo \
		"skip: running as root and there is no 'postgres' user"; exit 77; }
	chown postgres "$pg"
	as=(runuser -u postgres --)
fi
pg_stop() {
	"${as[@]}" "$bin/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1 || true
	rm -rf "$pg"
	[ -n "${SG_KEEP:-}" ] || rm -rf "$T"
}
trap pg_stop EXIT

# pg_start [SERVER OPTIONS]: initdb (trust for every local and host line) and start, the socket in
# $pg
pg_start() {
	"${as[@]}" "$bin/initdb" -D "$pg/data" -A trust -U postgres >"$T/initdb.log" 2>&1 ||
		{ echo "skip: initdb failed: $(tail -n 1 "$T/initdb.log")"; exit 77; }
	"${as[@]}" "$bin/pg_ctl" -D "$pg/data" -o "-k $pg $*" -l "$pg/log" -w start >/dev/null \
		2>&1 ||
		{ echo "skip: the server did not start: $(tail -n 1 "$pg/log" 2>/dev/null)"; exit \
			77; }
}
