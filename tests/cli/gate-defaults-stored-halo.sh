# The shipped defaults against a stored baseline: rank 1 of the MPI halo doing 30 % more work
# fails naming the wait, or is said undecided (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_halo stored
