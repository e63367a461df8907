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

/* The part of a's wait that b's delay caused: the gap between their arrivals ('last' is b's),
 * within the wait, less the undelayed wait; never more than b's lag beyond a's, as a wait is only
 * shifted by delays there were (an arrival read from the wrong call of b holds none). */
static inline uint64_t sg_mpi_caused(struct sg_mpi_side a, struct sg_mpi_side b, uint64_t last,
				     uint64_t wait)
{
	uint64_t gap = (int64_t)(last - a.at) > 0 ? last - a.at : 0, w0;
	uint64_t most = b.delay > a.delay ? b.delay - a.delay : 0;

	gap = gap < wait ? gap : wait;
	w0 = sg_mpi_undelayed_wait(a, b, wait);
	gap = gap > w0 ? gap - w0 : 0;
	return gap < most ? gap : most;
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
 * mpi_sync of a's wait of 'wait' ticks for b, ended at 'end' ('last': b's arrival, after a's),
 * 'own' ticks of it a's own delay: the part b's delay caused (sg_mpi_caused), less a's own delay
 * before b came. That delay is in a's rq_wait, which the gate takes off a's critical path, but it
 * shifted nothing (a would have waited anyway): it is given back, so mpi_sync is signed, as
 * rq_sync is. Its delay after b came (its late notice) was on the path, and stays off it.
 */
static inline int64_t sg_mpi_sync_of(struct sg_mpi_side a, struct sg_mpi_side b, uint64_t last,
				  uint64_t end, uint64_t wait, uint64_t own)
{
	uint64_t early = own - sg_mpi_late_notice(end, last, own);

	return (int64_t)sg_mpi_caused(a, b, last, wait) - (int64_t)early;
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
