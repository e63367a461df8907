#!/usr/bin/env bash
# Writes the scalegate(1) man page from the CLI's own --help texts, so the two cannot drift.
# usage: docs/man.sh PATH/TO/scalegate > scalegate.1   (run by the Makefile at build time)
set -euo pipefail
bin=${1:?usage: docs/man.sh SCALEGATE}

# roff-escape a text: backslashes, lines that would start a request, and option dashes.
roff() {
	sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'
}

help=$("$bin" --help)
version=$("$bin" --version | awk '{ print $2 }')
commands=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$help")

cat <<EOF
.TH SCALEGATE 1 "" "scalegate $version" "User Commands"
.SH NAME
scalegate \\- a performance\\-regression gate for OpenMP, MPI and hybrid programs
.SH SYNOPSIS
.B scalegate
[\\-\\-version] [\\-\\-help]
.I command
[\\fIargs\\fR]
.SH DESCRIPTION
Runs instrumented benchmarks over a matrix of thread and process counts, computes per code
interval how well it scales and why it loses time, judges that against rules and baselines,
writes JUnit, Markdown, JSON and HTML reports, and exits non\\-zero on a regression.
The sections below are the program's own \\fB\\-\\-help\\fR texts.
.PP
.nf
EOF
roff <<<"$help"
echo ".fi"
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS $c"
	echo ".nf"
	"$bin" "$c" --help | roff
	echo ".fi"
done
cat <<'EOF'
.SH ENVIRONMENT
.TP
.B SCALEGATE_OUT
set by \fBscalegate run\fR for each run: the directory where the tracer linked into the
program writes one profile per process. Without it the tracer measures nothing.
.SH FILES
.TP
.I share/doc/scalegate/
the documentation: the configuration, rules, checks, reports, metrics, the tracer's
languages (C, C++, Fortran, Caliper annotations), MPI and OpenMP capture, the profile format.
.TP
.I lib/pkgconfig/scalegate.pc\fR, \fIlib/cmake/scalegate/
how programs find the tracer: pkg\-config and CMake's find_package(scalegate CONFIG).
.SH SEE ALSO
.BR pkg-config (1),
.BR mpirun (1)
EOF
