# A token passed around 3 ranks with blocking calls, each rank holding it 20 ms asleep (issue 12):
# the time a receive is blocked for its late sender is Synchronization; Communication is only the
# transfer of one int.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

for mode in recv sendrecv; do
	ranks 3 "$T/$mode" "$SG_BUILD/tests/mpi/token" 5 $mode >/dev/null
	expect_profiles "$T/$mode" 3
	for r in 0 1 2; do
		p=$(rank_profile "$T/$mode" $r)
		kind=recv
		[ $mode = sendrecv ] && [ $r -gt 0 ] && kind=sendrecv
		[ "$(mpi_value "$p" program/chain $kind wait)" != - ] && pass ||
			fail "$mode rank $r: the $kind wait is measured"
	done
	"$SCALEGATE" analyze --json "$T/$mode" >"$T/a.json" && pass || fail "analyze"
	# Every round each rank waits while the two others hold the token: 3 x 5 x 40 ms; less the
	# start-up skew of the first round. Sleeps: load can lengthen the waits, never shorten them.
	python3 - "$T/a.json" <<'PY' && pass || fail \
		"$mode: the blocked time is not Synchronization"
import json, sys
doc = json.load(open(sys.argv[1]))
ch = next(s for s in doc["intervals"]
          if s["interval"] == "program/chain")["configurations"][0]["characteristics"]
sync, comm = ch["Synchronization_mpi"]["median"], ch["Communication"]["median"]
assert sync >= 0.4, ("Synchronization_mpi", sync)
assert ch["Synchronization"]["median"] >= sync
assert comm < 0.25 * sync, ("Communication", comm, sync)
PY
done
