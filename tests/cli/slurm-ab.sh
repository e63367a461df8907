# A/B inside one Slurm job: 'scalegate ci --against REV' with a 'slurm:' section checks the base out
# under RESULTS on the login node (the shared file system), and one batch job builds and runs base
# and head interleaved round by round on the same node; the regression of the head is found; the
# worktree is gone.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/slurm.bash"

repo=$T/repo
knob_repo "$repo" 'slurm: {partition: debug, time: "10", poll: 500ms}'

expect_exit 1 timeout 300 "$SCALEGATE" ci -c scalegate.yml --against HEAD~1 --no-post --seed 7
expect_match "$out" 'checking out HEAD~1 into .*/results/\.base-tree' \
	"the base is checked out on the login node"
expect_match "$out" '^slurm: job [0-9]+ COMPLETED on localhost' "one job ran the comparison"
[ "$(grep -c '^slurm: submitted job' <<<"$out")" -eq 1 ] && pass ||
	fail "more than one job for the A/B matrix"
expect_match "$(cat results/.slurm/job.sh)" \
	"--against-dir '$repo/results/\\.base-tree' --seed 7\$" \
	"the job runs the base tree with the same seed"
re='^FAIL jacobi program/solve/residual 1 rank × 2 threads '
re+='tolerance\.insufficient_parallelism: .* vs base .* paired t'
expect_match "$(checks_of "$out")" "$re" \
	"the regression, paired by round"
[ -f results/base/manifest.tsv ] && pass || fail "the base's runs are not in results/base"
grep -q $'^seed\t7$' results/ab.tsv && pass || fail "the seed is not recorded in ab.tsv"
expect_match "$(cat results/base/fingerprint.tsv 2>/dev/null || cat results/fingerprint.tsv)" \
	$'^slurm_job\t[0-9]+ ' \
	"base and head measured in the job"
[ ! -e results/.base-tree ] && pass || fail "the scratch worktree was left behind"
[ "$(git worktree list | wc -l)" = 1 ] && pass || fail "git still lists the scratch worktree"
queue_empty && pass || fail "a job is left in the queue"
