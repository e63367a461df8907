# A history on a full disk: 'history import' fails with exit 2 and says the disk is full ("No space
# left on device"), not SQLite's bare "disk I/O error"; the reports and results it read are
# untouched.
. "$(dirname "$0")/lib.bash"

command -v unshare >/dev/null || { echo "skip: unshare is not installed"; exit 77; }
unshare -m true 2>/dev/null || { echo "skip: no mount namespace here (unshare -m needs root)"; \
	exit 77; }
gen="$SG_TOP/tests/data/history/generate.py"
python3 "$gen" "$T/runs" 1 30 sweep:13:0.15 >/dev/null
mkdir -p "$T/full"
# a 96 KiB file system of its own, in a mount namespace of the test's own: the database outgrows it
code=0
unshare -m sh -c 'mount -t tmpfs -o size=96k tmpfs "$1" && shift && exec "$@"' sh "$T/full" \
	"$SCALEGATE" history import --history "$T/full/h.db" --branch main "$T"/runs/c* >"$T/out" \
		2>&1 || code=$?
[ "$code" = 2 ] && pass || { cat "$T/out" >&2; fail \
	"import onto a full disk exited $code, expected 2"; }
grep -q "No space left on device" "$T/out" && pass || { cat "$T/out" >&2; fail \
	"the message does not say the disk is full"; }
[ -d "$T/runs/c01" ] && pass || fail "the results read were removed"
echo "ok: a full disk is named"
