#!/bin/sh
# A process that ignores SIGTERM and hangs: an MPI rank that never returns, a daemon.
# term-ignoring.sh PIDFILE [setsid]: appends its pid (or its detached child's) to PIDFILE.
trap '' TERM
if [ "${2:-}" = setsid ]; then
	# A daemon: a new session, its parent gone, the shell returns at once.
	setsid sh -c 'trap "" TERM; echo $$ >>"$0"; exec sleep 300' "$1" </dev/null >/dev/null \
		2>&1 &
	sleep 0.5
	exit 0
fi
echo $$ >>"$1"
exec sleep 300
