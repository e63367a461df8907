# Source locations relative to the repository: a program compiled from a build subdirectory with a
# '../' path (as Meson does) records __FILE__ as '../src/solve.c'; the console, JUnit, Markdown,
# HTML and JSON say 'src/solve.c'.
# tier: fast
. "$(dirname "$0")/lib.bash"

mkdir -p "$T/repo/src" "$T/repo/build"
cat >"$T/repo/src/solve.c" <<'C'
#include <scalegate.h>

int main(void)
{
	volatile double x = 0;

	SG_BEGIN("solve");
	for (int i = 0; i < 200000; i++)
		x += i * 0.5;
	SG_END("solve");
	return x < 0;
}
C
(cd "$T/repo/build" && cc -I"$SG_TOP/tracer" ../src/solve.c -L"$SG_BUILD/lib" \
	-Wl,-rpath,"$SG_BUILD/lib" -lscalegate -o solve) && pass ||
	fail "the program did not build from the build directory"
cat >"$T/repo/scalegate.yml" <<'YML'
results: results
benchmarks:
  - name: solve
    command: ./build/solve
    threads: [1]
    repeat: 3
    warmup: 0
rules:
  - interval: program/solve
    time_max: 0.000001
YML
cd "$T/repo"
expect_exit 0 "$SCALEGATE" run -c scalegate.yml
# the profile holds what the compiler gave: the path from the build directory
msg="the profile does not record '../src/solve.c': the test compiles nothing the way Meson does"
find results -name '*.sgprof' -exec "$SCALEGATE" profile {} + | grep -q '\.\./src/solve\.c' &&
	pass || fail "$msg"
expect_exit 1 "$SCALEGATE" check -c scalegate.yml --allow-no-reference --junit "$T/j.xml" \
	--markdown "$T/s.md" \
	--html "$T/r.html"
expect_match "$out" '^FAIL  solve program/solve at src/solve\.c:7$' \
	"the recap points into the repository"
grep -q '^source: src/solve\.c:7$' "$T/j.xml" && pass ||
	fail "JUnit: the failure's source is not src/solve.c:7"
grep -q 'at src/solve\.c:7' "$T/s.md" && pass ||
	fail "Markdown: the interval's source is not src/solve.c:7"
grep -q 'src/solve\.c:7' "$T/r.html" && pass ||
	fail "HTML: the interval's source is not src/solve.c:7"
if grep -q '\.\./src' "$T/j.xml" "$T/s.md" "$T/r.html"; then
	fail "a report still says '../src'"
fi
expect_exit 0 "$SCALEGATE" analyze --json results
grep -q '"file": "src/solve.c"' <<<"$out" && pass ||
	fail "analyze --json: the file is not src/solve.c"
