# The shipped defaults against a stored baseline: A/A, the same code on both sides, passes (or
# could not decide), never a regression (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_aa stored
