# A profile of another program than the benchmark's is an error for that run (bad-profile): the
# program is 'program:' (a glob), else the one executable the command names by path. A script, a
# variable, a launcher (mpirun) or a command naming several executables is no false error.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"
gate_memory_bounded

E=$SG_BUILD/examples
mkdir "$T/bin"
cp "$E/jacobi" "$T/bin/jacobi"
# a wrapper that runs another traced program (heat, Fortran) whatever it is given
printf '#!/bin/sh\nexec %s/heat 1 50 2\n' "$E" >"$T/bin/wrapper.sh"
# a wrapper that runs the program it is given
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/run.sh"
chmod +x "$T/bin/wrapper.sh" "$T/bin/run.sh"
cat >"$T/scalegate.yml" <<YML
results: $T/results
defaults:
  warmup: 0
  repeat: 1
  workdir: $T/bin
benchmarks:
  - name: direct
    command: ./jacobi 1 50 2
  - name: other
    command: ./wrapper.sh ./jacobi 1 50 2
  - name: declared-other
    command: ./wrapper.sh
    program: jacobi
  - name: declared-glob
    command: ./wrapper.sh
    program: "he*"
  - name: script
    command: ./wrapper.sh
  - name: passed-on
    command: ./run.sh ./jacobi 1 50 2
  - name: variable
    command: \$PROG 1 50 2
    env:
      PROG: $E/heat
  - name: mpi
    command: ./jacobi 1 50 2
    ranks: [2]
    mpi: true
  - name: mpi-fortran
    command: $E/heat 1 50 2
    ranks: [2]
    launcher: mpirun -np {ranks} --oversubscribe env SG_X=1
YML
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml"
status() { awk -F'\t' -v b="$1" '$1 == b { print $7; exit }' "$T/results/manifest.tsv"; }
reason() { awk -F'\t' -v b="$1" '$1 == b { print $11; exit }' "$T/results/manifest.tsv"; }
for b in direct declared-glob script passed-on variable mpi mpi-fortran; do
	[ "$(status "$b")" = ok ] && pass || fail "$b: $(status "$b"): $(reason "$b")"
done
for b in other declared-other; do
	[ "$(status "$b")" = bad-profile ] && pass ||
		fail "$b: $(status "$b"), expected bad-profile"
	re="^profile '[^']*\.sgprof' was written by '$E/heat', not "
	re+="by 'jacobi', the benchmark's program"
	expect_match "$(reason "$b")" "$re" "$b: the reason"
done

# A path, not a name, is refused at load, with its position.
sed -i 's|program: jacobi|program: ./jacobi|' "$T/scalegate.yml"
expect_exit 2 "$SCALEGATE" check --validate -c "$T/scalegate.yml"
re="scalegate.yml:[0-9]+:14: 'program' is the name of the executable that writes the profiles"
expect_match "$out" "$re" "program: a path"
echo ok
