/* The arithmetic of mpi_sync (tracer/MPI.md, "Waiting for a delayed rank"): which part of a rank's
 * wait in MPI its partners' run-queue delay caused. Pure functions on clock ticks, no MPI: the unit
 * test (tests/unit/test-mpi-sync.c) includes this file alone. */
#ifndef SG_MPI_SYNC_H
#define SG_MPI_SYNC_H

#include <stdint.h>

/* A rank's arrival at an MPI call: when (clock ticks, one clock per node), and its lag there
 * (ticks): how much later it arrived than it would have without any run-queue delay, its own
 * since its last wait for a partner and what it inherited there (sg_mpi_lag_after). */
struct sg_mpi_side {
	uint64_t at;
	uint64_t delay;
};

/* Ticks of b's undelayed arrival (at - delay) after a's; negative when b's came first. */
static inline int64_t sg_mpi_undelayed_gap(struct sg_mpi_side a, struct sg_mpi_side b)
{
	return (int64_t)(b.at - a.at) - (int64_t)b.delay + (int64_t)a.delay;
}

/* The wait a would have had, had neither rank waited for a CPU: b's undelayed arrival less a's,
 * within 0 .. wait. */
static inline uint64_t sg_mpi_undelayed_wait(struct sg_mpi_side a, struct sg_mpi_side b,
					     uint64_t wait)
{
	int64_t gap = sg_mpi_undelayed_gap(a, b);

	if (gap <= 0)
		return 0;
	return (uint64_t)gap < wait ? (uint64_t)gap : wait;
}

/*
 * The machine's part of a's wait of 'wait' ticks for b: the rest of the wait after the undelayed
 * one, less a's own run-queue delay while it waited ('own': in a's rq_wait already). Never more
 * than b's lag beyond a's: a wait is only shifted by delays there were, so an arrival read from
 * the wrong call of b, or a's own late wake-up, is never taken for the machine's.
 */
static inline uint64_t sg_mpi_machine_wait(struct sg_mpi_side a, struct sg_mpi_side b,
					   uint64_t wait, uint64_t own)
{
	uint64_t rest = wait - sg_mpi_undelayed_wait(a, b, wait);
	uint64_t most = b.delay > a.delay ? b.delay - a.delay : 0;

	rest = rest > own ? rest - own : 0;
	return rest < most ? rest : most;
}

/*
 * Several partners (a collective's members): the one whose undelayed arrival was the latest
 * decides the undelayed wait, and the most delayed one bounds the machine's part. 'b' folds them
 * into one partner with those two properties: call with b = { 0, 0 } first, then once per member.
 */
static inline void sg_mpi_fold(struct sg_mpi_side *b, struct sg_mpi_side m, int first)
{
	uint64_t delay = m.delay > b->delay || first ? m.delay : b->delay;
	uint64_t undelayed = m.at - m.delay, have = b->at - b->delay;

	if (first || (int64_t)(undelayed - have) > 0)
		have = undelayed;
	b->delay = delay;
	b->at = have + delay;
}

/*
 * After a wait that ended at 'end', for a partner that arrived at 'last': a's own delay while it
 * waited ('own') that fell after the partner's arrival made it notice late, and so leave late.
 */
static inline uint64_t sg_mpi_late_notice(uint64_t end, uint64_t last, uint64_t own)
{
	uint64_t late = (int64_t)(end - last) > 0 ? end - last : 0;

	return late < own ? late : own;
}

/*
 * a's lag when its wait for b ended, b's arrival ('last', after a's) having ended it: how much
 * later than without any delay it goes on. Without delays the wait would have ended at the later
 * of the two undelayed arrivals: a's lag becomes b's when b's undelayed arrival was the later (a's
 * own delay then fell in its slack), else its own plus its wait; then its late notice ('late').
 */
static inline uint64_t sg_mpi_lag_after(struct sg_mpi_side a, struct sg_mpi_side b, uint64_t last,
					uint64_t late)
{
	uint64_t from_a = last - a.at + a.delay, from_b = last - b.at + b.delay;

	return (from_a < from_b ? from_a : from_b) + late;
}

#endif
