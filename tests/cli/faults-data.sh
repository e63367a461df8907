# The fault cases held as data under tests/faults/: broken baselines never pass, each named with its file.
. "$(dirname "$0")/lib.bash"

"$SG_TOP/tests/faults/run.sh" "$SCALEGATE" "$T"
