#!/usr/bin/env bash
# The in-job reduction at scale (tracer/MPI.md, "One profile per job"): its cost in MPI_Finalize and
# the job's profile size at 2 to 64 ranks (oversubscribed on this machine's cores), then the
# analysis of synthetic reduced profiles of 16,384 ranks x 100 intervals x 5 repeats x 2
# configurations. usage: tests/bench/reduce_bench.sh BUILD_DIR   (targets: 64 ranks <= 2 x 8 ranks;
# analysis < 10 s, < 1 GB)
set -euo pipefail
B=${1:?usage: tests/bench/reduce_bench.sh BUILD_DIR}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [ -x "$B/tests/bench/mpi_reduce" ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	msg="== the reduction in MPI_Finalize, rank 0 from every rank's "
	msg+="arrival to the write (meta reduce_seconds),"
	echo "$msg"
	msg="   beside one PMPI_Allreduce of a double at the same rank "
	msg+="count; 101 intervals; medians of 5 runs"
	echo "$msg"
	printf '%6s %12s %14s %10s %14s %16s\n' ranks reduce_ms allreduce_us ratio profile_bytes \
		per_rank_bytes
	declare -A at
	for n in 2 4 8 16 32 64; do
		ms=() us=()
		for i in 1 2 3 4 5; do
			rm -rf "$dir/p"
			u=$(SCALEGATE_OUT=$dir/p timeout 600 mpirun --oversubscribe --bind-to none \
				-np $n "$B/tests/bench/mpi_reduce" |
				awk '$1 == "allreduce_us" { print $2 }')
			ms+=("$(awk -F'\t' '$2 == "reduce_seconds" { print $3 * 1000 }' \
				"$dir"/p/job.*.sgprof)")
			us+=("$u")
		done
		size=$(wc -c <"$(echo "$dir"/p/job.*.sgprof)")
		rm -rf "$dir/p"
		SCALEGATE_PER_RANK=1 SCALEGATE_OUT=$dir/p timeout 600 mpirun --oversubscribe \
			--bind-to none -np $n \
			"$B/tests/bench/mpi_reduce" >/dev/null
		per_rank=$(cat "$dir"/p/*.sgprof | wc -c)
		m=$(median "${ms[@]}") u=$(median "${us[@]}")
		at[$n]=$m
		printf '%6d %12.3f %14.1f %10.1f %14d %16d   (runs: %s ms)\n' $n "$m" "$u" \
			"$(awk -v m="$m" -v u="$u" 'BEGIN { print (u > 0 ? m * 1000 / u : 0) }')" \
			"$size" "$per_rank" "${ms[*]}"
	done
	growth=$(awk -v a="${at[8]}" -v b="${at[64]}" 'BEGIN { printf "%.1f", b / a }')
	echo "growth from 8 to 64 ranks: $growth x" \
		"(target <= 2 x; log2: 2 x the steps)"
	echo
fi

msg="== scalegate analyze of synthetic reduced profiles: 16,384 ranks x "
msg+="100 intervals x 5 repeats x 2 configurations"
echo "$msg"
python3 - "$dir/results" "$(dirname "$0")" <<'PY'
import os, sys, random
root = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import sgprof
random.seed(7)
fields = ["count", "seq", "par", "idle", "sync_omp", "comm", "sync_mpi", "work", "serial",
          "serial_wall", "wall",
          "exec", "exec_prog", "work_max", "cut_seq", "cut_work", "cut_comm", "estimated", "sched",
          "omp", "mpi"]
quantities = ["work", "time", "omp_barrier", "omp_lock", "omp_idle", "no_work", "mpi", "mpi_wait",
              "idle",
              "interference"]
P = 16384
rows = ["benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason"]
for cfg, size in enumerate(["1000", "2000"]):
    for rep in range(1, 6):
        d = f"c{cfg}-r{rep}"
        os.makedirs(os.path.join(root, d))
        rows.append(f"synth\t{size}\t{P}\t1\t{P}\t{rep}\tok\t0\t1\t{d}\t")
        L = ["scalegate-profile\t2", "meta\trank\t-", f"meta\tranks\t{P}", f"meta\treduced\t{P}",
             "meta\treduced_threads\t1", "meta\tomp\tnone", "meta\tmpi\tpmpi",
             "columns\tregion\tid\tname\tfile\tline", "region\t0\tprogram\tsynth\t0"]
        L += [f"region\t{i}\tr{i}\tsynth.c\t{i}" for i in range(1, 100)]
        L += ["columns\tnode\tid\tparent\tregion\ttag", "node\t0\t-\t0\t-"]
        L += [f"node\t{i}\t{(i - 1) // 10}\t{i}\t-" for i in range(1, 100)]
        L.append("columns\treduced\tnode\t" + "\t".join(fields))
        cmp = ["columns\treduced_cmp\tnode\tquantity\tmin\tmin_rank\tmin_thread\tmax\tmax_rank"
               "\tmax_thread\tsum"]
        for n in range(100):
            t = (1 + cfg) / (1 + n) * (1 + 0.05 * random.random())
            work, wait = 0.9 * t, 0.05 * t
            v = dict(count=10 * P, seq=0, par=0, idle=0.02 * t * P, sync_omp=0, comm=0.03 * t * P,
                     sync_mpi=wait * P, work=work * P, serial=t * P, serial_wall=t * P, wall=t * P,
                     exec=1.02 * t,
                     exec_prog=1.02 * t, work_max=0.95 * t, cut_seq=0, cut_work=0, cut_comm=0,
                     estimated=1,
                     sched=0, omp=0, mpi=1)
            L.append(f"reduced\t{n}\t" + "\t".join(f"{v[f]:.17g}" for f in fields))
            for q in quantities:
                cmp.append(f"reduced_cmp\t{n}\t{q}\t{0.01 * t:.17g}\t{n % P}\t0\t{t:.17g}"
                           f"\t{(7 * n) % P}\t0\t{0.5 * t * P:.17g}")
        sgprof.write(os.path.join(root, d, "job.h.1.sgprof"), L + cmp)
open(os.path.join(root, "manifest.tsv"), "w").write("\n".join(rows) + "\n")
PY
times=() mems=()
for i in 1 2 3 4 5; do
	/usr/bin/time -f '%e %M' -o "$dir/time" "$B/bin/scalegate" analyze \
		--json "$dir/results" >"$dir/out.json"
	read -r wall kb <"$dir/time"
	times+=("$wall") mems+=("$kb")
done
grep -q '"interval": "program/r9/r99"' "$dir/out.json" ||
	{ echo "the analysis lacks an interval"; exit 1; }
echo "median $(median "${times[@]}") s wall, $(($(median "${mems[@]}") / 1024)) MB peak RSS" \
	"(target < 10 s, < 1 GB; 5 runs: ${times[*]} s;" \
	"profiles: $(du -sh "$dir/results" | cut -f1))"
