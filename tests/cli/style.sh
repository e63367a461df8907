# The sources' shape, checked like curl's checksrc: no line of gate/ and tracer/ over 100 columns (a
# tab is 8), no trailing white space, and no error message printed past gate_error()
# (gate/base/util.c), which the secret filter sees. .clang-format holds the layout for editors.
# tier: fast
. "$(dirname "$0")/lib.bash"

cd "$SG_TOP"
[ -n "$(git ls-files 'gate/*.c' 2>/dev/null)" ] || { echo "skipped: not a git checkout"; exit 77; }
bad=$(git ls-files 'gate/*.[ch]' 'tracer/*.[ch]' 2>/dev/null | python3 -c '
import sys
for path in sys.stdin.read().split():
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if len(line.expandtabs(8)) > 100:
            print("%s:%d: %d columns" % (path, n, len(line.expandtabs(8))))
        if line != line.rstrip():
            print("%s:%d: trailing white space" % (path, n))
')
[ -z "$bad" ] && pass || fail "lines the style forbids:
$bad"
