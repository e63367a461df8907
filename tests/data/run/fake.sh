#!/bin/sh
# A benchmark that misbehaves on purpose, for the runner tests: sh fake.sh MODE [MARKER]
case $1 in
crash)
	echo "about to crash" >&2
	kill -SEGV $$ ;;
hang)
	# A child in the background and one in the foreground, both found by MARKER.
	sh -c "sleep 1000; : $2" &
	sh -c "sleep 1000; : $2" ;;
no-profile)
	true ;;
exit3)
	# Exits 3 by design, after writing a profile.
	"$JACOBI" 1 50 2 >/dev/null
	exit 3 ;;
exit5)
	echo "something went wrong" >&2
	exit 5 ;;
mpi-root)
	# Open MPI 4.1's refusal to run as root (exit 1): the cause is its first line but one.
	cat "$SCALEGATE_WORKDIR/ompi-root.txt" >&2
	exit 1 ;;
relative)
	# A wrapper that calls a program of its workdir by a relative path: not there, exit 127.
	./fake.sh exit5 ;;
bad-profile)
	printf 'not a profile\n' >"$SCALEGATE_OUT/fake.sgprof" ;;
cwd)
	# Where the run happens, and a file left in its working directory.
	pwd
	echo "$SCALEGATE_WORKDIR"
	echo "$FAKE_VAR"
	touch left-behind.txt
	"$JACOBI" 1 50 2 >/dev/null ;;
*)
	echo "fake.sh: unknown mode '$1'" >&2
	exit 2 ;;
esac
