# Regions by name (the Fortran and Caliper layers' path): thousands of names on two threads, past
# the per-thread cache, each one region with the file and line of its first registration.
# tier: fast
. "$(dirname "$0")/lib.bash"

traced "$T/out" names && pass || fail "the names program failed"
t=$(tsv "$T/out")
for th in 0 1; do
	n=$(awk -F'\t' -v th=$th \
		'$2 ~ /^program\/n[0-9]+$/ && $3 == th && $5 == 3 { n++ } END { print n + 0 }' \
		<<<"$t")
	[ "$n" -eq 3000 ] && pass || fail "thread $th: $n of 3000 names entered 3 times each"
done
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/out")"
expect_match "$out" '^  program/n2999 +[^ ]*names\.c:[0-9]+ ' \
	"the file and line of the first registration"
expect_no_match "$out" 'elsewhere' "a later registration's file"
# Not measuring: no profile, and the program still runs.
env -u SCALEGATE_OUT "$SG_BUILD/tests/tracer/names" && pass ||
	fail "the names program failed without SCALEGATE_OUT"
