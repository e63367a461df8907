# C++ against an installed prefix: an exception that leaves two nested sg::scope closes both, and
# later intervals keep their parent; the header builds warning-free with g++ and clang++, with
# -fno-exceptions too.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/lang.bash"

cat >"$T/prog.cpp" <<'CPP'
#include <scalegate.hpp>
#include <stdexcept>

static void solve(int i)
{
	SG_SCOPE("solve");
	{
		SG_SCOPE_TAG("step", i % 2);
		if (i == 3)
			throw std::runtime_error("diverged");
	}
}

int main()
{
	int failed = 0;
	for (int i = 0; i < 5; i++) {
		try {
			solve(i);
		} catch (const std::exception &) {
			failed++;
		}
		SG_SCOPE("after");   // must stay program/after, not program/solve/step/after
		sg::scope named(i % 2 ? "odd" : "even"); // by name: the per-thread cache
	}
	return failed == 1 ? 0 : 1;
}
CPP
cat >"$T/noexc.cpp" <<'CPP'
#include <scalegate.hpp>
int main()
{
	SG_SCOPE("solve");
	return sg_enabled() ? 0 : 1;
}
CPP
for cxx in g++ clang++; do
	command -v $cxx >/dev/null && pass || fail "$cxx is not installed (ci/install-deps.sh)"
	$cxx -std=c++11 -Wall -Wextra -Werror $SAN "$T/prog.cpp" $(pkg-config --cflags --libs \
		scalegate) -o "$T/prog-$cxx"
	$cxx -std=c++11 -Wall -Wextra -Werror -fno-exceptions $SAN "$T/noexc.cpp" $(pkg-config \
		--cflags --libs scalegate) -o "$T/noexc-$cxx"
done
# Compiled out: the macros still compile (and need no library).
g++ -std=c++11 -Wall -Wextra -Werror -DSCALEGATE_DISABLE -I"$P/include" -c "$T/noexc.cpp" -o \
	"$T/off.o"

SCALEGATE_OUT="$T/out" "$T/prog-g++" && pass || fail "the C++ program failed"
SCALEGATE_OUT="$T/noexc" "$T/noexc-clang++" && pass || fail "the -fno-exceptions program failed"
prof=$(one_profile "$T/out")
t=$("$P/bin/scalegate" profile --tsv "$prof")
[ "$(col "$t" program/solve 0 count)" = 5 ] && pass || fail "solve entered 5 times: $t"
[ "$(col "$t" program/after 0 count)" = 5 ] && pass ||
	fail "the interval after the exception lost its parent: $t"
[ "$(col "$t" program/after/odd 0 count)" = 2 ] && pass || fail "a scope by name: $t"
[ "$(col "$t" program/after/even 0 count)" = 3 ] && pass || fail "a scope by name: $t"
expect_no_match "$t" 'program/solve/step[^	]*/after' \
	"an interval re-parented under the scope the exception left"
# Nothing was left open: the profile reports no unclosed or unmatched interval.
expect_exit 0 "$P/bin/scalegate" profile "$prof"
expect_no_match "$out" 'unclosed|unmatched' "the exception left an interval open"
analyzed "$T/out" "the C++ intervals" 'program/solve ' 'program/solve/step\[1\] ' 'program/after '
