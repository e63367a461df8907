# The shipped defaults against a stored baseline: +60 ms of serial code in a ~0.2 s interval at p
# = 2 fails, naming the serial code (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_serial stored
