#!/usr/bin/env bash
# A private single-node Slurm on loopback for the tests: munged with its own key and socket,
# slurmctld and slurmd with their own slurm.conf, state, spool and logs under one directory,
# on free ports. Runs as root (slurmd must, to start jobs as their user).
#
#   tests/slurm/cluster.sh start DIR   start it; prints the line to source: 'export
# SLURM_CONF=DIR/slurm.conf'   tests/slurm/cluster.sh stop DIR    cancel every job, stop every
# daemon it started, keep DIR   tests/slurm/cluster.sh check       exit 0 when a cluster can be
# started here, else say why on stdout, exit 1
#
# The node is 'localhost' with the machine's CPUs; the partition 'debug' is the default. No cgroups:
# proctrack/linuxproc tracks a job's processes through /proc, task/affinity binds them with
# sched_setaffinity. MpiDefault=pmix: Debian's Open MPI and Slurm both speak PMIx, so a bare srun
# wires MPI ranks up too. Accounting is off, so accounts are not checked.
set -euo pipefail

SBIN=(munged slurmctld slurmd)
CLIENTS=(sbatch srun salloc squeue sacct scontrol scancel sinfo)

die() { echo "cluster.sh: $*" >&2; exit 1; }

check() {
	local t
	[ "$(id -u)" -eq 0 ] || { echo "not root: slurmd must run as root"; return 1; }
	for t in "${SBIN[@]}" "${CLIENTS[@]}" mungekey python3; do
		command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || {
			echo "'$t' is not installed" \
				"(ci/install-deps.sh installs slurm-wlm and munge)"
			return 1
		}
	done
}

# Two free TCP ports on loopback.
free_ports() {
	python3 - <<'EOF'
import socket
socks = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

write_conf() {
	local dir=$1 ctld_port=$2 d_port=$3 hw
	# The node as slurmd sees it (CPUs, sockets, cores, threads), without memory: jobs ask for
	# none.
	hw=$(slurmd -C | head -n 1 | tr ' ' '\n' | grep -E \
		'^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | tr '\n' ' ')
	cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh: a private single-node cluster on loopback.
ClusterName=sgtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=pmix
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
SchedulerParameters=sched_interval=1
MessageTimeout=10
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=2
NodeName=localhost NodeAddr=127.0.0.1 ${hw}State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
	: >"$dir/plugstack.conf"
}

start_munge() {
	local dir=$1
	mkdir -p "$dir/munge"
	chmod 755 "$dir/munge" # clients of every user reach the socket
	mungekey --create --keyfile="$dir/munge/munge.key" 2>/dev/null ||
		dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
	chmod 600 "$dir/munge/munge.key"
	munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
		--pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
		--seed-file="$dir/munge/munged.seed" ||
		die "munged did not start; see $dir/munge/munged.log"
}

# Waits until the node answers and is idle; at most ~60 s.
wait_idle() {
	local dir=$1 state=
	for _ in $(seq 1 120); do
		state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
		case "$state" in
		idle) return 0 ;;
		down* | drain*) scontrol update NodeName=localhost State=RESUME >/dev/null 2>&1 || \
			true ;;
		esac
		sleep 0.5
	done
	echo "cluster.sh: the node is not idle after 60 s (state '$state'); logs:" >&2
	tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
	return 1
}

start() {
	local dir=$1 ports reason
	reason=$(check) || die "$reason"
	mkdir -p "$dir"/{state,spool,run,log}
	dir=$(cd "$dir" && pwd -P)
	ports=$(free_ports)
	write_conf "$dir" ${ports}
	export SLURM_CONF=$dir/slurm.conf
	start_munge "$dir"
	slurmctld -f "$SLURM_CONF" -c || die "slurmctld did not start; see $dir/log/slurmctld.log"
	slurmd -f "$SLURM_CONF" || die "slurmd did not start; see $dir/log/slurmd.log"
	if ! wait_idle "$dir"; then
		stop "$dir"
		exit 1
	fi
	echo "export SLURM_CONF=$SLURM_CONF"
}

# Sends TERM to the daemons of the pid files at once, then KILL to those still there after 5 s.
stop_pids() {
	local f pids=() pid alive
	for f in "$@"; do
		[ -s "$f" ] && pid=$(cat "$f") && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
	done
	for _ in $(seq 1 50); do
		alive=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && return 0
		sleep 0.1
	done
	for pid in "${pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
}

stop() {
	local dir=$1
	[ -f "$dir/slurm.conf" ] || die "no cluster in '$dir'"
	export SLURM_CONF=$dir/slurm.conf
	scancel --full --quiet --partition=debug 2>/dev/null || true
	for _ in $(seq 1 30); do
		[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
		sleep 0.2
	done
	stop_pids "$dir/run/slurmd.pid" "$dir/run/slurmctld.pid" "$dir/munge/munged.pid"
}

case "${1:-}" in
start) [ $# -eq 2 ] || die "usage: cluster.sh start DIR"; start "$2" ;;
stop) [ $# -eq 2 ] || die "usage: cluster.sh stop DIR"; stop "$2" ;;
check) check ;;
*) die "usage: cluster.sh start DIR | stop DIR | check" ;;
esac
