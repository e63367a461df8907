# The sources' shape, checked like curl's checksrc: no line of format/, gate/ and tracer/, nor of
# the C, shell (*.sh, *.bash) and Python sources of tests/, over 100 columns (a tab is 8), no
# trailing white space, and no error message printed past gate_error() (gate/base/util.c), which
# the secret filter sees. .clang-format holds the layout for editors. One check per tree and
# language, so that a failure names it; C++, Fortran and CMake sources too. The data of tests/
# (expected outputs, profiles, baselines, manifests: files that must stay byte-exact, most of them
# written by a generator) are not sources: not checked.
# tier: fast
. "$(dirname "$0")/lib.bash"

cd "$SG_TOP"
[ -n "$(git ls-files 'gate/*.c' 2>/dev/null)" ] || { echo "skipped: not a git checkout"; exit 77; }

# too_long PATHSPEC...: the lines of the tracked files matching PATHSPEC that the style forbids.
too_long() {
	git ls-files "$@" 2>/dev/null | python3 -c '
import sys
for path in sys.stdin.read().split():
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if len(line.expandtabs(8)) > 100:
            print("%s:%d: %d columns" % (path, n, len(line.expandtabs(8))))
        if line != line.rstrip():
            print("%s:%d: trailing white space" % (path, n))
'
}

for tree in format gate tracer tests; do
	bad=$(too_long "$tree/*.[ch]")
	[ -z "$bad" ] && pass "$tree/: no C line over 100 columns, no trailing white space" ||
		fail "lines of $tree/ the style forbids:
$bad"
done
bad=$(too_long 'tests/*.sh' 'tests/*.bash')
[ -z "$bad" ] && pass "tests/: no shell line over 100 columns, no trailing white space" ||
	fail "shell lines of tests/ the style forbids:
$bad"
bad=$(too_long 'tests/*.py')
[ -z "$bad" ] && pass "tests/: no Python line over 100 columns, no trailing white space" ||
	fail "Python lines of tests/ the style forbids:
$bad"
# The other sources users build or include: the C++ and Fortran interfaces, Fortran test programs,
# the CMake package files.
bad=$(too_long 'tracer/*.hpp' 'tracer/*.f90' 'tests/*.f90' 'tests/*.F90' \
	'tracer/cmake/*')
[ -z "$bad" ] && pass "C++, Fortran and CMake sources: no line over 100 columns" ||
	fail "C++, Fortran and CMake lines the style forbids:
$bad"
