# Every kind of wrapped C call with known sizes (tests/mpi/calls.c): counts and bytes per kind and
# interval, MPI_Pcontrol, and MPI_THREAD_MULTIPLE with several threads calling MPI at once.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

# check KIND PATH COUNT SENT RECV
check() {
	expect_eq "$n ranks, rank $r: $2 $1 count" "$(mpi_value "$p" "$2" "$1" count)" "$3"
	expect_eq "$n ranks, rank $r: $2 $1 bytes sent" "$(mpi_value "$p" "$2" "$1" bytes_sent)" \
		"$4"
	expect_eq "$n ranks, rank $r: $2 $1 bytes received" "$(mpi_value "$p" "$2" "$1" \
		bytes_recv)" "$5"
}

for n in 1 2; do
	ranks $n "$T/all$n" "$SG_BUILD/tests/mpi/calls" all "$T/iofile"
	expect_profiles "$T/all$n" $n
	for ((r = 0; r < n; r++)); do
		p=$(rank_profile "$T/all$n" $r)
		root=$((r == 0))
		check send program/p2p 1 800 0
		check recv program/p2p 1 0 4
		check isend program/p2p 3 208 0
		check irecv program/p2p 3 0 1004
		check sendrecv program/p2p 2 80 80
		check probe program/p2p 1 0 0
		check wait program/p2p 3 0 0
		[ "$(mpi_value "$p" program/p2p test count)" -ge 1 ] && pass ||
			fail "rank $r: no test call counted"
		check barrier program/collectives 1 0 0
		check bcast program/collectives 1 $((1000 * root)) $((1000 * (1 - root)))
		check reduce program/collectives 1 32 $((32 * root))
		check allreduce program/collectives 4 112 112
		check gather program/collectives 2 28 $((28 * n * root))
		check allgather program/collectives 2 32 $((32 * n))
		check scatter program/collectives 2 $((36 * n * root)) 36
		check alltoall program/collectives 2 $((32 * n)) $((32 * n))
		check reduce_scatter program/collectives 1 $((4 * n)) 4
		check scan program/collectives 2 16 16
		check icollective program/nonblocking 2 32 32
		check wait program/nonblocking 1 0 0
		check io program/io 4 256 256
		# each call is charged to the innermost interval only
		check allreduce program 0 0 0
	done
done

# MPI_Pcontrol(0) pauses the accounting, MPI_Pcontrol(1) resumes it: 5 + 2 of 17 allreduces.
ranks 2 "$T/pcontrol" "$SG_BUILD/tests/mpi/calls" pcontrol
expect_profiles "$T/pcontrol" 2
for r in 0 1; do
	expect_eq "rank $r: allreduces counted around MPI_Pcontrol(0)" \
		"$(mpi_value "$(rank_profile "$T/pcontrol" $r)" program/pcontrol allreduce count)" 7
done

# MPI_THREAD_MULTIPLE: 3 threads per rank, each 20 allreduces and 10 sendrecvs on its own
# communicator.
OMP_PROC_BIND=false ranks 2 "$T/threads" "$SG_BUILD/tests/mpi/calls" threads 3
expect_profiles "$T/threads" 2
for r in 0 1; do
	p=$(rank_profile "$T/threads" $r)
	# a worker's interval is under 'threads' when OpenMP capture passes the forking thread's
	# interval on
	a=0 s=0 t=0
	for path in program/threads/thread program/thread; do
		a=$((a + $(mpi_value "$p" $path allreduce count)))
		s=$((s + $(mpi_value "$p" $path sendrecv count)))
		t=$((t + $(mpi_threads "$p" $path allreduce)))
	done
	expect_eq "rank $r: allreduces of 3 threads" $a 60
	expect_eq "rank $r: sendrecvs of 3 threads" $s 30
	expect_eq "rank $r: threads with their own allreduce records" $t 3
	expect_eq "rank $r: sendrecv bytes of 3 threads" \
		$(($(mpi_value "$p" program/threads/thread sendrecv bytes_sent) +
			$(mpi_value "$p" program/thread sendrecv bytes_sent))) \
		240
done
