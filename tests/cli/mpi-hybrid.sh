# The hybrid MPI + OpenMP example on 1 and 2 ranks x 2 threads; its serial-section knob shows in the compute interval.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

export OMP_PROC_BIND=false
iterations=10
for n in 1 2; do
	ranks $n "$T/off$n" "$SG_BUILD/examples/hybrid" 2 200 $iterations >/dev/null
	expect_profiles "$T/off$n" $n
	for ((r = 0; r < n; r++)); do
		p=$(rank_profile "$T/off$n" $r)
		for i in iteration iteration/halo iteration/compute iteration/allreduce; do
			expect_eq "$n ranks, rank $r: count of program/$i" "$(stat_value "$p" "program/$i" count)" $iterations
		done
		expect_eq "$n ranks, rank $r: allreduces" "$(mpi_value "$p" program/iteration/allreduce allreduce count)" $iterations
		neighbours=$(( (r > 0) + (r < n - 1) ))
		expect_eq "$n ranks, rank $r: halo bytes" "$(mpi_value "$p" program/iteration/halo sendrecv bytes_sent)" \
			$((200 * 8 * neighbours * iterations))
		[ "$(grep -c '^thread' "$p")" -ge 2 ] || fail "$n ranks, rank $r: expected the OpenMP worker thread in the profile"
	done
done

# --serial-ms 20 adds 10 x 20 ms of serial work to compute on every rank.
ranks 2 "$T/on" "$SG_BUILD/examples/hybrid" 2 200 $iterations --serial-ms 20 >/dev/null
for r in 0 1; do
	off=$(stat_value "$(rank_profile "$T/off2" $r)" program/iteration/compute time main)
	on=$(stat_value "$(rank_profile "$T/on" $r)" program/iteration/compute time main)
	expect_between "rank $r: compute time the knob added to the main thread" "$(awk -v a="$on" -v b="$off" 'BEGIN { print a - b }')" 0.15 1.5
done
