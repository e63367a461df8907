# The MPI halo example on 1, 2 and 4 ranks: one profile per rank, intervals on every rank, counts
# and bytes per call.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

iterations=20
for n in 1 2 4; do
	ranks $n "$T/out$n" "$SG_BUILD/examples/mpi_halo" 40000 $iterations >/dev/null
	expect_profiles "$T/out$n" $n
	for ((r = 0; r < n; r++)); do
		p=$(rank_profile "$T/out$n" $r)
		for i in iteration iteration/halo iteration/compute iteration/allreduce; do
			expect_eq "$n ranks, rank $r: count of program/$i" \
				"$(stat_value "$p" "program/$i" count)" $iterations
		done
		expect_eq "$n ranks, rank $r: allreduce calls" \
			"$(mpi_value "$p" program/iteration/allreduce allreduce count)" $iterations
		# one double each way per allreduce
		expect_eq "$n ranks, rank $r: allreduce bytes sent" \
			"$(mpi_value "$p" program/iteration/allreduce allreduce bytes_sent)" \
			$((8 * iterations))
		expect_eq "$n ranks, rank $r: allreduce bytes received" \
			"$(mpi_value "$p" program/iteration/allreduce allreduce bytes_recv)" \
			$((8 * iterations))
		# two sendrecvs per iteration; one double to and from each neighbour (MPI_PROC_NULL
		# at the ends moves nothing)
		neighbours=$(( (r > 0) + (r < n - 1) ))
		expect_eq "$n ranks, rank $r: sendrecv calls" \
			"$(mpi_value "$p" program/iteration/halo sendrecv count)" \
			$((2 * iterations))
		expect_eq "$n ranks, rank $r: sendrecv bytes sent" \
			"$(mpi_value "$p" program/iteration/halo sendrecv bytes_sent)" \
			$((8 * neighbours * iterations))
		expect_eq "$n ranks, rank $r: sendrecv bytes received" \
			"$(mpi_value "$p" program/iteration/halo sendrecv bytes_recv)" \
			$((8 * neighbours * iterations))
		# MPI time is exclusive: none in the compute interval; without exact mode, no
		# measured waiting
		expect_eq "$n ranks, rank $r: MPI calls in compute" \
			"$(mpi_value "$p" program/iteration/compute allreduce count)" 0
		expect_eq "$n ranks, rank $r: wait is not captured" \
			"$(mpi_value "$p" program/iteration/allreduce allreduce wait)" -
	done
done

# The gate reads the profiles.
expect_exit 0 "$SCALEGATE" profile "$(rank_profile "$T/out4" 3)"
expect_match "$out" 'program/iteration/allreduce' "the gate lists the allreduce interval"
