# Shared helpers for the command-line tests (sourced). SG_TOP, SG_BUILD and SCALEGATE come from
# tests/run.sh.
set -euo pipefail
: "${SG_TOP:?run through tests/run.sh}"
T=$(mktemp -d)
# SG_KEEP=1 keeps the test's scratch directory for a post-mortem.
trap '[ -n "${SG_KEEP:-}" ] && echo "kept $T" >&2 || rm -rf "$T"' EXIT

# Every check prints its own line, TAP-like: "ok N - what" when it holds, "not ok N - what" when not
# (the test then ends), so that a failure names what failed and tests/run.sh can show it. The lines
# go to the test's own stdout (fd SG_TAP), even from inside a command substitution; N counts on
# across subshells (the count is a file).
exec {SG_TAP}>&1
_sg_checks=$T/.sg-checks
echo 0 >"$_sg_checks"

# _sg_check STATUS WHAT: the next check's line.
_sg_check() {
	local n=0
	[ -r "$_sg_checks" ] && read -r n <"$_sg_checks"
	n=$((n + 1))
	echo "$n" >"$_sg_checks" 2>/dev/null || true
	printf '%s %d - %s\n' "$1" "$n" "${2//$'\n'/ }" >&"$SG_TAP"
}

# pass [WHAT]: a check that held. Written 'COND && pass || fail "what if not"', it is named by its
# own source line ("file:line: COND || fail ...").
pass() {
	local at line file text
	[ $# -eq 0 ] || { _sg_check ok "$*"; return 0; }
	read -r line _ file < <(caller 0)
	text=$(sed -n "${line}p" "$file" 2>/dev/null) || true
	text=${text/ && pass/}
	text=${text#"${text%%[![:space:]]*}"}
	at="${file##*/}:$line: $text"
	[ ${#at} -le 160 ] || at="${at:0:157}..."
	_sg_check ok "$at"
}

# fail WHAT: the check WHAT did not hold; the test ends.
fail() {
	_sg_check "not ok" "$*"
	exit 1
}

# skip_part WHAT REASON: a part of the test that cannot run here, said on its own line (TAP's SKIP
# directive), while the rest of the test runs and counts.
skip_part() {
	_sg_check ok "$1 # SKIP $2"
}

# A command that stops the test under 'set -e' outside any helper says so, with its line.
_sg_err='_sg_rc=$?; [[ $- != *e* ]] || _sg_check "not ok" '
_sg_err+='"line $LINENO: '"'"'$BASH_COMMAND'"'"' exited $_sg_rc"'
trap "$_sg_err" ERR

# _sg_what CMD...: a command as a check's name: the scratch directory and the gate's path left out.
_sg_what() {
	local what="$*"
	what=${what//"$T/"/}
	what=${what//"$SCALEGATE"/scalegate}
	[ ${#what} -le 160 ] || what="${what:0:157}..."
	printf '%s' "$what"
}

# expect_match TEXT REGEX WHAT: TEXT must contain a line matching the extended REGEX.
expect_match() {
	grep -Eq -- "$2" <<<"$1" || { printf '%s\n' "$1" >&2; fail "$3: no line matches /$2/"; }
	pass "$3"
}

expect_no_match() {
	! grep -Eq -- "$2" <<<"$1" || { printf '%s\n' "$1" >&2; fail "$3: a line matches /$2/"; }
	pass "$3"
}

# pass_or_undecided CODE OUTPUT WHAT: a gate that must not fail: exit 0, or 3 where it says it could
# not decide (every time check of a benchmark inconclusive, as a busy machine may leave them); no
# FAIL line.
pass_or_undecided() {
	{ [ "$1" = 0 ] || { [ "$1" = 3 ] && grep -q "undecided: could not decide" <<<"$2"; }; } ||
		{ printf '%s\n' "$2" >&2; fail "$3: exit $1"; }
	expect_no_match "$2" '^FAIL ' "$3: no regression (exit $1)"
}

# expect_exit CODE CMD...: runs CMD, which must exit with CODE; its output is in $out.
expect_exit() {
	local want=$1 got=0
	shift
	out=$("$@" 2>&1) || got=$?
	[ "$got" -eq "$want" ] || { printf '%s\n' "$out" >&2; fail "'$(_sg_what \
		"$@")' exited $got, expected $want"; }
	pass "'$(_sg_what "$@")' exits $want"
}

# traced DIR PROGRAM ARGS...: runs a test program from the build with SCALEGATE_OUT=DIR.
traced() {
	local dir=$1 prog=$2
	shift 2
	SCALEGATE_OUT=$dir "$SG_BUILD/tests/tracer/$prog" "$@"
}

# the single profile in DIR
one_profile() {
	local files=("$1"/*.sgprof)
	[ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] || fail \
		"expected one profile in $1, found: ${files[*]}"
	echo "${files[0]}"
}

# tsv DIR: every profile in DIR as 'scalegate profile --tsv' lines (header lines dropped).
# The header line is kept (in $T) for col, which names the columns by it.
tsv() {
	"$SCALEGATE" profile --tsv "$1"/*.sgprof | awk -v h="$T/.sg-tsv-header" \
		'/^file\t/ { print >h; next } 1'
}

# col TSV PATH THREAD COLUMN: one value from tsv output (columns named as in PROFILE.md, by the
# header of the last tsv); "missing" when there is no such row or column.
col() {
	local header="file path thread omp_thread count time min max sumsq par omp_barrier omp_idle"
	header+=" omp_lock omp_regions"
	[ ! -s "$T/.sg-tsv-header" ] || header=$(head -n 1 "$T/.sg-tsv-header")
	awk -F'\t' -v path="$2" -v thread="$3" -v name="$4" -v header="$header" '
		BEGIN { n = split(header, h, /[ \t]/)
			for (i = 1; i <= n; i++) idx[h[i]] = i }
		$2 == path && $3 == thread && name in idx { print $idx[name]; found = 1; exit }
		END { if (!found) print "missing" }' <<<"$1"
}

# delay TSV PATH: the run-queue delay (rq_wait) of every thread in interval PATH, summed: time the
# machine took from the program there, which may stretch or shrink any time measured in it. 0 where
# it was not captured ('-': meta sched none).
delay() {
	local header
	header=$(head -n 1 "$T/.sg-tsv-header" 2>/dev/null) || true
	awk -F'\t' -v path="$2" -v header="$header" '
		BEGIN { n = split(header, h, /[ \t]/)
			for (i = 1; i <= n; i++) if (h[i] == "rq_wait") c = i }
		c && $2 == path && $c != "-" { d += $c }
		END { printf "%.6f\n", d }' <<<"$1"
}

# approx_load VALUE LOW HIGH DELAY WHAT: a time measured on a machine that may be busy: within
# [LOW, HIGH] widened on both sides by DELAY, the run-queue delay the tracer measured where it was
# taken (see delay). On a quiet machine DELAY is about 0 and this is approx; under load the bounds
# move by what the load was measured to take, never by a guess.
approx_load() {
	awk -v v="$1" -v lo="$2" -v hi="$3" -v d="$4" \
		'BEGIN { exit !(v != "missing" && v >= lo - d && v <= hi + d) }' ||
		fail "$5: $1 is not within [$2, $3] widened by the $4 s of run-queue delay measured"
	pass "$5: $1 within [$2, $3] widened by the $4 s of run-queue delay measured"
}

# approx VALUE LOW HIGH WHAT: LOW <= VALUE <= HIGH (decimals).
approx() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { exit !(v != "missing" && v >= lo && v <= hi) }' ||
		fail "$4: $1 is not within [$2, $3]"
	pass "$4: $1 within [$2, $3]"
}

# knob_repo DIR [YAML-LINE]: a git repository in DIR (and the current directory) whose 'build'
# writes run.sh from knob.conf: the base commit (HEAD~1) runs the Jacobi example as it is, the head
# turns its serial residual on. YAML-LINE (a 'slurm:' section, say) goes into its scalegate.yml.
knob_repo() {
	mkdir -p "$1"
	cd "$1"
	git init -q
	git config user.email gate@example.com
	git config user.name gate
	cat >build.sh <<'SH'
. ./knob.conf
printf '#!/bin/sh\nexport SG_KNOB_SERIAL=%s\nexec "$JACOBI" "$@"\n' "$SG_KNOB_SERIAL" >run.sh
chmod +x run.sh
SH
	echo SG_KNOB_SERIAL=0 >knob.conf
	cat >scalegate.yml <<YML
results: results
reports: {dir: out}
${2:-}
defaults:
  warmup: 0
  repeat: 5
  env: {OMP_WAIT_POLICY: passive}
benchmarks:
  - name: jacobi
    build: sh build.sh
    command: ./run.sh {threads} 300 60
    threads: [1, 2]
YML
	printf 'results/\nout/\nrun.sh\n' >.gitignore
	git add -A
	git commit -qm base
	echo SG_KNOB_SERIAL=1 >knob.conf
	git commit -qam "head: the residual runs serially"
	export JACOBI=$SG_BUILD/examples/jacobi
}

# knob_trees: $T/base and $T/head, two trees with the same layout whose run.sh exports their
# knob.env (the "revision", empty) and runs its arguments: what the A/B and stored cases change.
knob_trees() {
	local side
	for side in base head; do
		mkdir -p "$T/$side"
		printf '#!/bin/sh\nset -a\n. "$(dirname "$0")/knob.env"\nset +a\nexec "$@"\n' \
			>"$T/$side/run.sh"
		chmod +x "$T/$side/run.sh"
		: >"$T/$side/knob.env"
	done
}

# checks_of TEXT: the checks of the findings that 'check' and 'ci' print, one line each as
# "FAIL|WARN BENCHMARK INTERVAL CONFIG KIND: MESSAGE" (a folded check under its own interval).
checks_of() {
	awk \
		'/^(FAIL|WARN) [^ ]/ { st = $1; bench = $2; iv = $3
			rest = substr($0, length($1 $2 $3) + 4)
			cfg = substr(rest, 1, index(rest, ": ") - 1); next }
		st && /^    / && !/^    cause: / { line = substr($0, 5); s = st; i = iv
			if (line ~ /^\(warning\) /) { s = "WARN"; line = substr(line, 11) }
			split(line, w, " ")
			if (w[1] !~ /:$/) { i = w[1]; line = substr(line, length(w[1]) + 2) }
			print s " " bench " " i " " cfg " " line; next }
		!/^    / { st = "" }' <<<"$1"
}

# gate_memory_bounded: from here on $SCALEGATE runs with 512 MB of address space (ulimit -v; the
# benchmarks it starts too), so that a fault test also proves the gate's memory bounded. Not under
# AddressSanitizer or ThreadSanitizer, whose shadow memory alone is larger.
# SG_VLIMIT: the address-space bound (KiB) of the tests that set 'ulimit -v' themselves; unlimited
# under the sanitizers, as above.
case $SG_BUILD in */address | */thread) SG_VLIMIT=unlimited ;; *) SG_VLIMIT=524288 ;; esac
export SG_VLIMIT
gate_memory_bounded() {
	case $SG_BUILD in */address | */thread) return 0 ;; esac
	printf '#!/bin/sh\nulimit -v 524288 || exit 125\nexec %q "$@"\n' "$SCALEGATE" \
		>"$T/scalegate-bounded"
	chmod +x "$T/scalegate-bounded"
	SCALEGATE=$T/scalegate-bounded
}
