# The hybrid MPI + OpenMP example on 1 and 2 ranks x 2 threads; its serial-section knob shows in the
# compute interval.
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
			expect_eq "$n ranks, rank $r: count of program/$i" "$(stat_value "$p" \
				"program/$i" count)" $iterations
		done
		expect_eq "$n ranks, rank $r: allreduces" "$(mpi_value "$p" \
			program/iteration/allreduce allreduce count)" $iterations
		neighbours=$(( (r > 0) + (r < n - 1) ))
		expect_eq "$n ranks, rank $r: halo bytes" \
			"$(mpi_value "$p" program/iteration/halo sendrecv bytes_sent)" \
			$((200 * 8 * neighbours * iterations))
		[ "$(grep -c '^thread' "$p")" -ge 2 ] && pass ||
			fail "$n ranks, rank $r: expected the OpenMP worker thread in the profile"
	done
done

# --serial-ms 20 adds 10 x 20 ms of serial code to compute on every rank: time outside parallel
# regions (time - par) of the main thread, which OpenMP capture measures.
serial() { # serial DIR RANK
	local p
	p=$(rank_profile "$1" "$2")
	awk -v t="$(stat_value "$p" program/iteration/compute time main)" \
		-v par="$(stat_value "$p" program/iteration/compute par main)" \
		'BEGIN { print t - par }'
}
ranks 2 "$T/on" "$SG_BUILD/examples/hybrid" 2 200 $iterations --serial-ms 20 >/dev/null
for r in 0 1; do
	expect_between "knob off: rank $r serial time in compute" "$(serial "$T/off2" $r)" 0 0.05
	expect_between "knob on: rank $r serial time in compute (10 x 20 ms)" "$(serial "$T/on" \
		$r)" 0.18 1.5
done
