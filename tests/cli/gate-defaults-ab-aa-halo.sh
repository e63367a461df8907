# The shipped defaults in A/B mode (--against-dir): A/A, the same code on both sides, passes (or
# could not decide), never a regression: the MPI program, halo (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_aa ab halo
