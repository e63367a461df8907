# The shipped defaults against a stored baseline: the 'omp parallel for' removed fails, naming
# the lost parallel region (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_no_parallel stored
