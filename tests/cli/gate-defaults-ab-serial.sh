# The shipped defaults in A/B mode (--against-dir): +60 ms of serial code in a ~0.2 s interval at
# p = 2 fails, naming the serial code (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_serial ab
