# Clean under clang as under gcc (-Wall -Wextra): a user building scalegate with CC=clang and
# -Werror must not fail. Syntax-only (no objects), every C file that is not MPI: the gate, the
# tracer, test programs, examples.
# tier: fast
. "$(dirname "$0")/lib.bash"

command -v clang >/dev/null && pass || fail "clang is missing (ci/install-deps.sh installs it)"
cd "$SG_TOP"
flags="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -fsyntax-only"
gate_flags="$(pkg-config --cflags yaml-0.1 libcurl sqlite3 libpq) -I. -Igate"
gate_flags+=' -DSG_VERSION="test"'
ls format/*.c gate/*/*.c tests/unit/*.c |
	xargs -P 2 -n 8 clang $flags $gate_flags 2>"$T/gate.err" ||
	{ cat "$T/gate.err" >&2; fail "clang warns on the gate or its unit tests"; }
ls tracer/*.c tests/tracer/*.c tests/bench/*.c examples/*.c | grep -v -e '/mpi' -e 'hybrid' -e \
	'ompt.c$' |
	xargs -P 2 -n 8 clang $flags -fopenmp -I. -Itracer 2>"$T/tracer.err" ||
	{ cat "$T/tracer.err" >&2; fail "clang warns on the tracer, a test program or an example"; }
