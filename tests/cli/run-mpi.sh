# scalegate run: ranks through mpirun (one profile per run), preload into unmodified OpenMP and MPI
# binaries.
. "$(dirname "$0")/lib.bash"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 0; }
# Open MPI's leaks fail the ASan-built ranks, and a preloaded sanitized tracer needs the sanitizer's
# runtime first.
case "${SG_SAN_FLAGS:-} $(basename "$SG_BUILD")" in
*address* | *thread*) echo "skipped: sanitizer build"; exit 0 ;;
esac

cat >"$T/plain.c" <<'C'
#include <stdio.h>
int main(void)
{
	double s = 0;
#pragma omp parallel for reduction(+ : s)
	for (int i = 0; i < 1000000; i++)
		s += i * 0.5;
	printf("%g\n", s);
	return 0;
}
C
cc -O1 -fopenmp "$T/plain.c" -o "$T/plain"

launcher='mpirun --oversubscribe -np {ranks} --bind-to none'
{
	cat <<YML
launcher: $launcher
defaults:
  workdir: $SG_BUILD
  warmup: 0
  repeat: 1
  timeout: 60s
benchmarks:
  - name: omp-preload
    command: $T/plain
    threads: [1, 2]
    preload: true
  - name: omp-preload-wrapped
    command: timeout 60 $T/plain
    preload: true
  - name: omp-plain
    command: $T/plain
  - name: plain-ranks
    command: $T/plain
    ranks: [2]
    preload: true
  - name: plain-ranks-noprofile
    command: $T/plain
    ranks: [2]
YML
	if [ -x "$SG_BUILD/examples/mpi_halo" ]; then
		cat <<YML
  - name: halo
    command: ./examples/mpi_halo 2000 20
    ranks: [1, 2]
YML
	fi
	if [ -x "$SG_BUILD/examples/mpi_halo-plain" ]; then
		cat <<YML
  - name: halo-preload
    command: ./examples/mpi_halo-plain 2000 20
    ranks: [2]
    preload: true
YML
	fi
} >"$T/scalegate.yml"

expect_exit 2 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --dry-run --benchmark nosuch
expect_exit 0 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results" --dry-run --benchmark \
	plain-ranks
# With a launcher the variables go through 'env', LD_PRELOAD to the ranks only.
re="^plain-ranks s--r2-t1 repeat 1: OMP_NUM_THREADS=1 SCALEGATE_OUT=[^ ]+ SCALEGATE_WORKDIR=[^ ]+ "
re+="/bin/sh -c 'mpirun --oversubscribe -np 2 --bind-to none env OMP_NUM_THREADS='1' "
re+="SCALEGATE_OUT='[^']+' SCALEGATE_WORKDIR='[^']+' LD_PRELOAD='[^']*/libscalegate(-mpi)?.so' "
re+="$T/plain'"
expect_match "$out" "$re" "dry-run of a preloaded run under the launcher"

expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
m="$T/results/manifest.tsv"
status() { awk -F'\t' -v b="$1" '$1 == b { print $7 }' "$m" | sort -u | tr '\n' ' '; }
nprof() { find "$T/results/$1" -name '*.sgprof' | wc -l; }

[ "$(status omp-preload)" = "ok " ] && pass || fail "omp-preload: $(cat "$m")"
[ "$(nprof omp-preload/s--r1-t2)" -eq 1 ] && pass || fail "omp-preload: one profile per run"
prof=$(one_profile "$T/results/omp-preload/s--r1-t2/1")
"$SCALEGATE" profile --tsv "$prof" | awk -F'\t' \
	'$2 == "program" && $3 == 1 { found = 1 } END { exit !found }' && pass ||
	fail "omp-preload: the second thread is not in the profile"
[ "$(status omp-plain)" = "no-profile " ] && pass || fail "omp-plain: status $(status omp-plain)"
# A wrapper that inherits LD_PRELOAD writes a profile of its own: the run is refused, not merged
# (issue 12).
[ "$(status omp-preload-wrapped)" = "bad-profile " ] && pass ||
	fail "omp-preload-wrapped: status $(status omp-preload-wrapped)"
re=$'^omp-preload-wrapped\t.*2 profiles written, 1 expected (one per rank): '
re+='a process that is not the benchmark'
grep -q "$re" "$m" && pass ||
	fail "omp-preload-wrapped: the reason: $(grep '^omp-preload-wrapped' "$m")"
[ "$(status plain-ranks)" = "ok " ] && pass ||
	fail "plain-ranks: status $(status plain-ranks) $(cat "$m")"
[ "$(nprof plain-ranks)" -eq 2 ] && pass ||
	fail "plain-ranks: expected 2 profiles (not one of mpirun)"
[ "$(status plain-ranks-noprofile)" = "no-profile " ] && pass ||
	fail "plain-ranks-noprofile: status"

if [ -x "$SG_BUILD/examples/mpi_halo" ]; then
	[ "$(status halo)" = "ok " ] || fail "halo: $(grep '^halo' "$m")"
	# the ranks reduce their profiles into the job's one (tracer/MPI.md, "One profile per job")
	[ "$(find "$T/results/halo/s--r2-t1" -name 'job.*.sgprof' | wc -l)" -eq 1 ] &&
		[ "$(nprof halo/s--r2-t1)" -eq 1 ] ||
		fail "halo: one profile per run"
	grep -q $'^halo\t-\t2\t1\t2\t1\tok\t0\t' "$m" || fail "halo: manifest line with 2 ranks"
fi
if [ -x "$SG_BUILD/examples/mpi_halo-plain" ]; then
	[ "$(status halo-preload)" = "ok " ] || fail "halo-preload: $(grep '^halo-preload' "$m")"
	[ "$(find "$T/results/halo-preload" -name 'job.*.sgprof' | wc -l)" -eq 1 ] ||
		fail "halo-preload: the job's one profile"
fi
expect_match "$(cat "$T/results/fingerprint.tsv")" $'^launcher\t'"$launcher"'$' \
	"fingerprint launcher"
