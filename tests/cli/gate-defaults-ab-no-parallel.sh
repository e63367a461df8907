# The shipped defaults in A/B mode (--against-dir): the 'omp parallel for' removed fails, naming
# the lost parallel region (gate-defaults.bash).
. "$(dirname "$0")/gate-defaults.bash"
case_no_parallel ab
