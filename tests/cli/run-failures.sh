# scalegate run: a crash, a hang (killed with its children), no profile, a bad profile, exit codes,
# a failed build.
. "$(dirname "$0")/lib.bash"

marker="sg-hang-$$-$RANDOM"
cat >"$T/scalegate.yml" <<YML
defaults:
  workdir: $SG_TOP/tests/data/run
  warmup: 0
  repeat: 2
  env:
    JACOBI: $SG_BUILD/examples/jacobi
    OMP_PROC_BIND: "false"
benchmarks:
  - name: crash
    command: sh ./fake.sh crash
  - name: hang
    command: sh ./fake.sh hang $marker
    timeout: 1s
    repeat: 1
  - name: noprof
    command: sh ./fake.sh no-profile
  - name: badprof
    command: sh ./fake.sh bad-profile
  - name: exit3
    command: sh ./fake.sh exit3
    expect_exit: [3]
  - name: exit5
    command: sh ./fake.sh exit5
  - name: mpiroot
    command: sh ./fake.sh mpi-root
  - name: relative
    command: sh ./fake.sh relative
  - name: nobuild
    command: sh ./fake.sh exit3
    build: echo compiling; echo "no compiler here" >&2; exit 7
    threads: [1, 2]
  - name: cwd
    command: sh ./fake.sh cwd
    env:
      JACOBI: $SG_BUILD/examples/jacobi
      FAKE_VAR: from-env
YML

start=$SECONDS
expect_exit 3 "$SCALEGATE" run -c "$T/scalegate.yml" -o "$T/results"
[ $((SECONDS - start)) -lt 12 ] && pass || fail "the runs took $((SECONDS - start)) s"
m="$T/results/manifest.tsv"
status() { awk -F'\t' -v b="$1" '$1 == b { print $7 }' "$m" | sort -u | tr '\n' ' '; }
reason() { awk -F'\t' -v b="$1" '$1 == b { print $11; exit }' "$m"; }
exitcol() { awk -F'\t' -v b="$1" '$1 == b { print $8; exit }' "$m"; }

[ "$(status crash)" = "crash " ] && pass || fail "crash: status $(status crash)"
# Killed directly, or reported by the shell as 128 + 11.
expect_match "$(reason crash)" \
	'^killed by SIGSEGV( \(exit code 139 from the shell\))?; stderr: about to crash' \
	"crash reason"
[[ $(exitcol crash) == - || $(exitcol crash) == 139 ]] && pass ||
	fail "crash: exit column $(exitcol crash)"
expect_match "$out" '^crash 1 rank × 1 thread repeat 1: crash: killed by SIGSEGV' \
	"crash reported on its own line"

[ "$(status hang)" = "timeout " ] && pass || fail "hang: status $(status hang)"
expect_match "$(reason hang)" '^timed out after 1 s' "hang reason"
wall=$(awk -F'\t' '$1 == "hang" { print $9 }' "$m")
approx "$wall" 0.9 2.5 "hang: wall time at the timeout"
sleep 0.2
! pgrep -f "$marker" >/dev/null && pass || { pgrep -af "$marker" >&2; pkill -f "$marker"; fail \
	"the hanging run left processes behind"; }

[ "$(status noprof)" = "no-profile " ] && pass || fail "noprof: status $(status noprof)"
expect_match "$(reason noprof)" '^no profile written' "no-profile reason"
[ "$(status badprof)" = "bad-profile " ] && pass || fail "badprof: status $(status badprof)"
expect_match "$(reason badprof)" \
	"^'$T/results/badprof/s--r1-t1/1/fake\.sgprof' is not a scalegate profile" \
	"bad-profile reason names the file"
[ "$(status exit3)" = "ok " ] && pass || fail "exit3: status $(status exit3)"
[ "$(exitcol exit3)" = 3 ] && pass || fail "exit3: exit column $(exitcol exit3)"
[ "$(status exit5)" = "exit " ] && pass || fail "exit5: status $(status exit5)"
expect_match "$(reason exit5)" '^exit code 5, expected 0; stderr: something went wrong$' \
	"exit5 reason"
# A wrapper that runs ./program: the run's directory is not workdir, and its reason says so.
re="^exit code 127, expected 0 \(a command not found: the run's directory is a "
re+="scratch one, not 'workdir'; a script finds its files through "
re+="\\\$SCALEGATE_WORKDIR\); stderr: .*fake.sh: not found"
expect_match "$(reason relative)" "$re" \
	"exit 127 points to SCALEGATE_WORKDIR"
# The first lines and the last of a long stderr: Open MPI's cause, and its way out.
re='^exit code 1, expected 0; stderr: mpirun has detected an '
re+='attempt to run as root\. \| Running as root'
expect_match "$(reason mpiroot)" "$re" \
	"the cause, first in stderr, is kept"
re=' \.\.\. .*OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 to confirm.* please proceed at your own risk\.$'
expect_match "$(reason mpiroot)" "$re" \
	"and its last lines"
[ "$(status nobuild)" = "build-failed " ] && pass || fail "nobuild: status $(status nobuild)"
[ "$(grep -c $'^nobuild\t' "$m")" -eq 4 ] && pass || fail "nobuild: every run recorded"
expect_match "$(reason nobuild)" '^build exited with code 7; stderr: no compiler here$' \
	"build-failed reason"
expect_match "$out" "benchmark 'nobuild': build exited with code 7" "build failure reported"
[ -f "$T/results/nobuild/build/stdout.txt" ] && grep -q compiling \
	"$T/results/nobuild/build/stdout.txt" && pass ||
	fail "the build's output is not kept"

# Every run has its line; fields hold no stray tabs.
[ "$(tail -n +2 "$m" | wc -l)" -eq 21 ] && pass || fail "expected 21 runs: $(cat "$m")"
awk -F'\t' 'NF != 13 { exit 1 }' "$m" && pass || fail "a manifest line has not 13 fields"
# no machine speed reference for a run that never started
[ "$(awk -F'\t' '$1 == "nobuild" { print $13 }' "$m" | sort -u)" = - ] && pass ||
	fail "nobuild: reference_s is not '-'"

# The run happens in a scratch directory, removed afterwards; env and SCALEGATE_WORKDIR are set.
[ "$(status cwd)" = "ok " ] && pass || fail "cwd: status $(status cwd) $(reason cwd)"
{ read -r where; read -r workdir; read -r var; } <"$T/results/cwd/s--r1-t1/1/stdout.txt"
[[ $where == "$T/results/.scratch/run-"* ]] && pass || fail "the run's cwd is $where"
[ "$workdir" = "$SG_TOP/tests/data/run" ] && pass || fail "SCALEGATE_WORKDIR is $workdir"
[ "$var" = from-env ] && pass || fail "the benchmark's env is not set: '$var'"
[ ! -e "$T/results/.scratch" ] && pass || fail "scratch directories are left behind"
[ ! -e "$SG_TOP/tests/data/run/left-behind.txt" ] && pass || fail "the run wrote into its workdir"

# Malformed configuration: exit 2, nothing runs, no results directory.
printf 'benchmarks:\n  - name: x\n    command: sh ./fake.sh crash\n    thread: [1]\n' >"$T/bad.yml"
expect_exit 2 "$SCALEGATE" run -c "$T/bad.yml" -o "$T/bad-results"
expect_match "$out" "bad.yml:4:5: unknown key 'thread'" "config error with its position"
[ ! -e "$T/bad-results" ] && pass || fail "a bad configuration created the results directory"
expect_exit 2 "$SCALEGATE" run -c "$T/missing.yml" -o "$T/bad-results"
[ ! -e "$T/bad-results" ] && pass || fail "a missing configuration created the results directory"
expect_exit 2 "$SCALEGATE" run --frobnicate
expect_match "$out" "unknown option '--frobnicate'" "unknown option"
expect_exit 2 "$SCALEGATE" run -o
