# make install PREFIX=… then a user program built with pkg-config writes a profile; the README's
# set-up of a prefix (PATH, PKG_CONFIG_PATH, Open MPI as root) works as printed there.
. "$(dirname "$0")/lib.bash"

make -s -C "$SG_TOP" --no-print-directory install PREFIX="$T/p" >/dev/null
for f in include/scalegate.h include/scalegate.hpp include/scalegate-caliper/caliper/cali.h \
	lib/libscalegate.a lib/libscalegate.so lib/pkgconfig/scalegate.pc \
	lib/pkgconfig/scalegate-caliper.pc \
	lib/cmake/scalegate/scalegateConfig.cmake lib/cmake/scalegate/scalegateConfigVersion.cmake \
	bin/scalegate \
	share/man/man1/scalegate.1 share/doc/scalegate/README.md \
	share/doc/scalegate/docs/languages.md \
	share/doc/scalegate/tracer/PROFILE.md; do
	[ -e "$T/p/$f" ] && pass || fail "make install did not install $f"
done
# It builds the libraries, the CLI and what it installs: no test or example program.
built=$(make -n -B -C "$SG_TOP" --no-print-directory install PREFIX="$T/q" 2>&1)
expect_no_match "$built" '(examples|tests)/' "make install builds a test or an example"

# man scalegate: the page is the CLI's --help texts, every command's usage included.
command -v man >/dev/null && pass || fail "man is not installed (ci/install-deps.sh)"
page=$(MANPATH="$T/p/share/man" MANWIDTH=200 man scalegate 2>&1) && pass ||
	fail "man scalegate: $page"
expect_match "$page" '^SCALEGATE\(1\)' "the man page's title"
for c in $("$T/p/bin/scalegate" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	usage=$("$T/p/bin/scalegate" "$c" --help | head -n 1)
	grep -qF -- "$usage" <<<"$page" && pass || fail "the man page lacks '$usage'"
done
man -l "$T/p/share/man/man1/scalegate.1" >/dev/null 2>&1 && pass ||
	fail "man -l cannot format the page"
"$T/p/bin/scalegate" --version | grep -q '^scalegate [0-9]' && pass ||
	fail "installed scalegate --version"

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
[[ $(ldd "$T/prog") == *"$T/p/lib/libscalegate.so"* ]] && pass ||
	fail "the program does not use the installed library"
SCALEGATE_OUT="$T/out" "$T/prog"
expect_exit 0 "$T/p/bin/scalegate" profile "$(one_profile "$T/out")"
expect_match "$out" '^  program/solve +.*prog.c:[0-9]+ +thread 0 +count 1 ' "the user's interval"
# Linked as a shared library, the GOMP wrappers still intercept the program's parallel region.
out=$("$T/p/bin/scalegate" profile --tsv "$(one_profile "$T/out")")
awk -F'\t' '$2 == "program/solve" && $3 == 0 && $14 == 1 { found = 1 } END { exit !found }' \
	<<<"$out" && pass ||
	fail "the parallel region inside solve was not captured: $out"

# The README's set-up of a prefix, as printed there: its two export lines alone give scalegate, its
# man page and pkg-config, and a program built with those flags runs without LD_LIBRARY_PATH.
readme=$(sed -n '/^### Installing into a prefix$/,/^## /p' "$SG_TOP/README.md")
exports=$(grep -E '^export (PATH|PKG_CONFIG_PATH)=' <<<"$readme" | sed "s|/opt/scalegate|$T/p|g") \
	|| true
[ "$(grep -c . <<<"$exports")" -eq 2 ] && pass ||
	fail "the README's install section exports no PATH and PKG_CONFIG_PATH: '$exports'"
clean() { env -i HOME="$T" PATH=/usr/bin:/bin bash -c "$exports"$'\n'"$1"; }
[ "$(clean 'command -v scalegate')" = "$T/p/bin/scalegate" ] && pass ||
	fail "the README's PATH gives no scalegate"
[ "$(clean 'man -w scalegate')" = "$T/p/share/man/man1/scalegate.1" ] && pass ||
	fail "the README's PATH gives no man page"
cmd="cc ${SG_SAN_FLAGS:-} -fopenmp '$T/prog.c' \$(pkg-config "
cmd+="--cflags --libs scalegate) -o '$T/prog-readme'"
clean "$cmd" && pass ||
	fail "the README's PKG_CONFIG_PATH does not build a program"
env -i SCALEGATE_OUT="$T/out-readme" "$T/prog-readme" && pass ||
	fail "a program built as the README says does not run"
[ -n "$(one_profile "$T/out-readme")" ] && pass || fail "no profile"
mkdir "$T/cm"
fmt='cmake_minimum_required(VERSION 3.13)\nproject(t C)\nfind_package(scalegate CONFIG REQUIRED)\n'
printf "$fmt" >"$T/cm/CMakeLists.txt"
clean "cmake -S '$T/cm' -B '$T/cm/build' >/dev/null" && pass ||
	fail "CMake does not find the package through the README's PATH"

# Its Open MPI line lets a job that runs as root start mpirun (Open MPI refuses root without it).
ompi=$(grep -x 'export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1' <<<"$readme") && \
	pass ||
	fail "the README's install section does not show Open MPI's root variables"
if [ "$(id -u)" = 0 ] && mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
	unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	! mpirun -np 1 true 2>/dev/null && pass ||
		fail "Open MPI ran as root without the variables: the check proves nothing"
	bash -c "$ompi; mpirun -np 1 true" && pass ||
		fail "the README's Open MPI line does not let root run mpirun"
fi
