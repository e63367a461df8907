# make install PREFIX=… then a user program built with pkg-config writes a profile.
. "$(dirname "$0")/lib.bash"

make -s -C "$SG_TOP" --no-print-directory install PREFIX="$T/p" >/dev/null
for f in include/scalegate.h lib/libscalegate.a lib/libscalegate.so lib/pkgconfig/scalegate.pc bin/scalegate; do
	[ -e "$T/p/$f" ] || fail "make install did not install $f"
done
"$T/p/bin/scalegate" --version | grep -q '^scalegate [0-9]' || fail "installed scalegate --version"

cat >"$T/prog.c" <<'C'
#include <scalegate.h>
int main(void)
{
	volatile double x = 0;
	SG_BEGIN("solve");
#pragma omp parallel for reduction(+ : x)
	for (int i = 0; i < 1000000; i++)
		x += i;
	SG_END("solve");
	return x > 0 ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH="$T/p/lib/pkgconfig" pkg-config --cflags --libs scalegate)
cc ${SG_SAN_FLAGS:-} -fopenmp "$T/prog.c" $flags -o "$T/prog"
[[ $(ldd "$T/prog") == *"$T/p/lib/libscalegate.so"* ]] || fail "the program does not use the installed library"
SCALEGATE_OUT="$T/out" "$T/prog"
expect_exit 0 "$T/p/bin/scalegate" profile "$(one_profile "$T/out")"
expect_match "$out" '^  program/solve +.*prog.c:[0-9]+ +thread 0 +count 1 ' "the user's interval"
# Linked as a shared library, the GOMP wrappers still intercept the program's parallel region.
out=$("$T/p/bin/scalegate" profile --tsv "$(one_profile "$T/out")")
awk -F'\t' '$2 == "program/solve" && $3 == 0 && $14 == 1 { found = 1 } END { exit !found }' <<<"$out" ||
	fail "the parallel region inside solve was not captured: $out"
