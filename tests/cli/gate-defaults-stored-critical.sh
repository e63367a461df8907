# The shipped defaults against a stored baseline: a critical section around the hot loop fails
# naming the synchronization, or is said undecided (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_critical stored
