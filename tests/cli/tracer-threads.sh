# Intervals from short-lived, late, OpenMP, nested-team and master-only threads.
. "$(dirname "$0")/lib.bash"

count_of() { # count_of OUT PATH -> total count of PATH over threads
	prog='$1 == path { for (i = 1; i < NF; i++) if ($i == "count") '
	prog+='n += $(i + 1) } END { print n + 0 }'
	awk -v path="$2" "$prog" <<<"$1"
}

traced "$T/many" threads many
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/many")"
[ "$(count_of "$out" program/thread-work)" = 640 ] && pass ||
	fail "64 threads x 10 intervals, got $(count_of "$out" program/thread-work)"
threads=$(grep -Eo '[0-9]+ threads$' <<<"$out" | head -1 | cut -d' ' -f1)
[ "$threads" -le 5 ] && pass ||
	fail "exited threads' slots are reused: expected <= 5 slots, got $threads"

traced "$T/late" threads late
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/late")"
[ "$(count_of "$out" program/late)" = 1 ] && pass || fail "the late thread's interval is missing"
[ "$(count_of "$out" program/before)" = 1 ] && pass || fail "the main thread's interval is missing"

OMP_NUM_THREADS=4 traced "$T/team" threads team
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/team")"
[ "$(count_of "$out" program/team)" = 1 ] && pass || fail "team interval"
body=$(( $(count_of "$out" program/team/body) + $(count_of "$out" program/body) ))
[ "$body" = 4 ] && pass || fail "4 team members each enter body once, got $body"

traced "$T/nested" threads nested
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/nested")"
inner=$(awk \
	'$1 ~ /inner$/ { for (i = 1; i < NF; i++) if ($i == "count") n += $(i + 1) }
	END { print n + 0 }' \
	<<<"$out")
[ "$inner" = 4 ] && pass || fail "2 x 2 nested threads enter inner once each, got $inner"

traced "$T/master" threads master
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/master")"
[ "$(count_of "$out" program/master-only)" = 1 ] && pass || fail "a region begun inside omp master"

# Written from a thread other than main: the main thread's level-0 interval is still recorded.
traced "$T/wft" threads write-from-thread
expect_exit 0 "$SCALEGATE" profile "$(one_profile "$T/wft")"
expect_match "$out" '^  program +.* thread 0 +count 1 ' "level 0 of the main thread"
