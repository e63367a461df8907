/* The profile's columns (tracer/PROFILE.md), one row each: the tracer writes them from these rows,
 * the gate reads them by these names, and tests/cli/profile-columns.sh holds PROFILE.md's tables to
 * them. Pure data; includes nothing of tracer/ or gate/ (docs/design.md, "format/"). */
#ifndef SG_FORMAT_COLUMNS_H
#define SG_FORMAT_COLUMNS_H

/*
 * X(id, name, field, unit, captured, sign)
 *
 * id        the column's enum name (the gate's PROFILE_<id>, PROFILE_MPI_<id>)
 * name      the column's name in the file's 'columns' record
 * field     the tracer's member of struct sg_stat / struct sg_mpi_stat that holds it
 * unit      COUNT (an integer), TICKS (clock ticks, written in seconds), TICKS2 (squared
 *           ticks, written in seconds²), NS (nanoseconds, written in seconds)
 * captured  when the tracer has it (tracer/writer.c spells each); otherwise it writes '-'
 *           and the gate reads it as not captured, as it reads a column the file lacks
 * sign      UNSIGNED, or SIGNED for a correction that may be negative
 *
 * A new column is a row here, its field in the tracer, its row in tracer/PROFILE.md's table, and
 * whatever the gate computes from it. Rows are in the order the tracer writes them; a reader maps
 * by name, so the order is no contract.
 */
#define SG_STAT_COLUMNS(X) \
	X(COUNT, "count", count, COUNT, ALWAYS, UNSIGNED) \
	X(TIME, "time", time, TICKS, ALWAYS, UNSIGNED) \
	X(MIN, "min", min, TICKS, ENTERED, UNSIGNED) \
	X(MAX, "max", max, TICKS, ENTERED, UNSIGNED) \
	X(SUMSQ, "sumsq", sumsq, TICKS2, ENTERED, UNSIGNED) \
	X(PAR, "par", par, TICKS, ALWAYS, UNSIGNED) \
	X(OMP_BARRIER, "omp_barrier", omp_barrier, TICKS, OMP, UNSIGNED) \
	X(OMP_IDLE, "omp_idle", omp_idle, TICKS, OMP, UNSIGNED) \
	X(OMP_LOCK, "omp_lock", omp_lock, TICKS, OMP, UNSIGNED) \
	X(OMP_REGIONS, "omp_regions", omp_regions, COUNT, OMP, UNSIGNED) \
	X(CPU, "cpu", cpu, NS, CPU, UNSIGNED) \
	X(RQ_WAIT, "rq_wait", rq, NS, RQ, UNSIGNED) \
	X(RQ_SYNC, "rq_sync", rq_sync, NS, RQ_OMP, SIGNED) \
	X(CPU_WAIT, "cpu_wait", cpu_wait, NS, CPU_OMP, UNSIGNED) \
	X(MPI_SYNC, "mpi_sync", mpi_sync, NS, MPI_RQ, SIGNED) \
	X(MPI_RQ, "mpi_rq", mpi_rq, NS, MPI_RQ, UNSIGNED) \
	X(MPI_CPU, "mpi_cpu", mpi_cpu, NS, MPI_CPU, UNSIGNED) \
	X(OMP_HELD, "omp_held", omp_held, TICKS, OMP, UNSIGNED)

enum sg_stat_column {
#define X(id, name, field, unit, captured, sign) SG_COL_##id,
	SG_STAT_COLUMNS(X)
#undef X
	SG_NR_STAT_COLUMNS
};

/* The columns of an 'mpi' record, after its node, thread and kind; the same fields as above. */
#define SG_MPI_COLUMNS(X) \
	X(COUNT, "count", count, COUNT, ALWAYS, UNSIGNED) \
	X(TIME, "time", time, TICKS, ALWAYS, UNSIGNED) \
	X(WAIT, "wait", wait, TICKS, WAIT, UNSIGNED) \
	X(BYTES_SENT, "bytes_sent", bytes_sent, COUNT, ALWAYS, UNSIGNED) \
	X(BYTES_RECV, "bytes_recv", bytes_recv, COUNT, ALWAYS, UNSIGNED)

enum sg_mpi_column {
#define X(id, name, field, unit, captured, sign) SG_MCOL_##id,
	SG_MPI_COLUMNS(X)
#undef X
	SG_NR_MPI_COLUMNS
};

/*
 * X(id, name, op): the columns of a reduced profile's 'reduced' record, after its node
 * (tracer/PROFILE.md, "Reduced profiles"). The names are the gate's (docs/metrics.md); op is how
 * two ranks' records combine: SUM, MAX, or MIN (flags every rank must have). Each rank's share is
 * computed by format/rank-share.c.
 */
#define SG_REDUCED_COLUMNS(X) \
	X(COUNT, "count", SUM) \
	X(SEQ, "seq", SUM) \
	X(PAR, "par", SUM) \
	X(IDLE, "idle", SUM) \
	X(SYNC_OMP, "sync_omp", SUM) \
	X(COMM, "comm", SUM) \
	X(SYNC_MPI, "sync_mpi", SUM) \
	X(WORK, "work", SUM) \
	X(SERIAL, "serial", SUM) \
	X(SERIAL_WALL, "serial_wall", SUM) \
	X(WALL, "wall", SUM) \
	X(HELD, "held", SUM) \
	X(EXEC, "exec", MAX) \
	X(EXEC_PROG, "exec_prog", MAX) \
	X(WORK_MAX, "work_max", MAX) \
	X(CUT_SEQ, "cut_seq", MAX) \
	X(CUT_WORK, "cut_work", MAX) \
	X(CUT_COMM, "cut_comm", MAX) \
	X(ESTIMATED, "estimated", MAX) \
	X(SCHED, "sched", MIN) \
	X(OMP, "omp", MIN) \
	X(MPI, "mpi", MIN)

enum sg_red_field {
#define X(id, name, op) SG_RED_##id,
	SG_REDUCED_COLUMNS(X)
#undef X
	SG_RED_NR_FIELDS
};

/* X(id, name): the per-processor quantities of a 'reduced_cmp' record (their extremes and sum), in
 * the order of the gate's comparative characteristics (gate/analyze/analysis.h,
 * ANALYSIS_PER_PROCESSOR). */
#define SG_REDUCED_QUANTITIES(X) \
	X(WORK, "work") \
	X(TIME, "time") \
	X(BARRIER, "omp_barrier") \
	X(LOCK, "omp_lock") \
	X(OMP_IDLE, "omp_idle") \
	X(MISSING, "no_work") \
	X(MPI, "mpi") \
	X(MPI_WAIT, "mpi_wait") \
	X(IDLE, "idle") \
	X(INTERFERENCE, "interference")

enum sg_red_quantity {
#define X(id, name) SG_RQ_##id,
	SG_REDUCED_QUANTITIES(X)
#undef X
	SG_RED_NR_QUANTITIES
};

/* X(id, name, kind): the columns of a 'reduced_cmp' record after its node and quantity: one
 * quantity's least and most over the job's processors with who had it (kind INDEX: a rank or
 * thread), and its sum. */
#define SG_REDUCED_CMP_COLUMNS(X) \
	X(MIN, "min", VALUE) \
	X(MIN_RANK, "min_rank", INDEX) \
	X(MIN_THREAD, "min_thread", INDEX) \
	X(MAX, "max", VALUE) \
	X(MAX_RANK, "max_rank", INDEX) \
	X(MAX_THREAD, "max_thread", INDEX) \
	X(SUM, "sum", VALUE)

enum sg_reduced_cmp_column {
#define X(id, name, kind) SG_CMP_##id,
	SG_REDUCED_CMP_COLUMNS(X)
#undef X
	SG_CMP_NR
};

#endif
