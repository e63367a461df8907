/* Stored baselines: per interval x configuration the per-repeat samples 'scalegate check' compares
 * with (docs/check.md). */
#ifndef SG_BASELINE_H
#define SG_BASELINE_H

#include <stddef.h>

#include "analyze/analysis.h"
#include "base/util.h"

#define BASELINE_VERSION 2 /* 2: the end record with the line count and checksum */
#define BASELINE_EXT ".sgbase"
/* The largest value a baseline may hold: 10^12 s is 30,000 years (docs/check.md). */
#define BASELINE_MAX_VALUE 1e12

/* The figures a baseline stores, in file order (a subset of ANALYSIS_FIGURES): every lost-time
 * term and part of base/lost-table.h among them. */
#define BASELINE_LOST_ROW(X, id, ...) X(id)
#define BASELINE_FIGURES(X) \
	X(EXECUTION_TIME) X(TOTAL_TIME) X(PRODUCTIVE_TIME) X(EFFICIENCY) \
	LOST_TERMS(BASELINE_LOST_ROW, BASELINE_LOST_ROW, X) \
	X(LOAD_IMBALANCE) X(LOAD_BALANCE) X(PARALLEL_EFFICIENCY) X(REFERENCE_TIME) \
	X(SERIALIZED_WORK)

/* One interval in one configuration: its repeats. */
struct baseline_cell {
	char *interval, *size;          /* call path; size "-" when none */
	int ranks, threads;
	size_t n;                       /* repeats */
	/* n values in repeat order, NAN where absent; NULL: not stored */
	double *fig[ANALYSIS_NR_FIGURES];
	/* median Execution_time of each earlier sitting, NAN where absent */
	double *earlier;
	int *round;                     /* the round (repeat) of each sample; NULL: not known */
	/* current samples in stored mode: the factor their times were scaled by to the baseline's
	 * machine speed, and the standard error of its log (check-reference.c); 0: not scaled */
	double speed, speed_se;
	/* the factor measured but not applied (check-reference.c: implausible, contradicted); 0 */
	double speed_refused;
};

/* The samples of one benchmark: a stored baseline, or the current results in the same shape. */
struct baseline {
	char *benchmark;
	char **fingerprint;             /* key, value, key, value, ... */
	size_t nr_fingerprint;
	struct baseline_cell *cells;    /* sorted by interval, size, ranks, threads */
	size_t nr_cells, alloc_cells;
	/* the dates of the earlier sittings, oldest first (baseline-history.c) */
	char **sittings;
	size_t nr_sittings;
};

/* Earlier sittings a baseline keeps, to measure the shift between sittings (docs/check.md). */
#define BASELINE_MAX_SITTINGS 9

/*
 * The sd of the shift between sittings, in log units, measured from the
 * earlier sittings' medians and the samples of the last one, pooled over the
 * cells, with the noise of a median taken out; NAN without two earlier sittings.
 */
struct baseline_shift {
	size_t sittings;                /* the last one included */
	/* of Execution_time, and of T(ref)/T(p) within an interval */
	double time, speedup;
};
void baseline_measure_shift(const struct baseline *b, struct baseline_shift *out);

/*
 * Carries the sittings of 'old' (a baseline of the same benchmark on a
 * comparable machine) into 'b', with old's own samples as its newest earlier
 * sitting unless both have the same date (the same results recorded again),
 * keeping at most BASELINE_MAX_SITTINGS.
 */
void baseline_carry(struct baseline *b, const struct baseline *old);

void baseline_init(struct baseline *b);
void baseline_release(struct baseline *b);

/* The ok runs of 'benchmark' in 'a', as a baseline (fingerprint copied); empty when it has none. */
void baseline_from_analysis(struct baseline *b, const struct analysis *a, const char *benchmark);

/* "DIR/<benchmark>.sgbase"; caller frees. */
char *baseline_path(const char *dir, const char *benchmark);

/*
 * Reads a baseline file: 0; 1 without a message when it does not exist;
 * gate_error() with file:line for anything else: unreadable, another version,
 * truncated (no end record), changed after it was written (checksum), a
 * malformed line. Windows line endings are read as Unix ones.
 */
int baseline_read(struct baseline *b, const char *path);
/*
 * Waits for and takes the lock of the baselines directory 'dir' (made when missing): concurrent
 * 'baseline update's read, carry and write one at a time, so none loses another's sittings.
 * Returns the descriptor that holds it, or gate_error().
 */
int baseline_lock(const char *dir);
void baseline_unlock(int fd);
/* The file's text: versioned, sorted, one line per interval x configuration x metric. */
void baseline_format(const struct baseline *b, struct strbuf *out);
/* Formats and writes atomically (the directory is created); 0 or gate_error(). */
int baseline_write(const struct baseline *b, const char *path);

/*
 * Removes the *.sgbase.tmp.<pid> files a killed 'baseline update' left in
 * 'dir' (those whose process is gone), and says so; the count.
 */
size_t baseline_clean_temporary(const char *dir);

const struct baseline_cell *baseline_find(const struct baseline *b, const char *interval,
					  const char *size, int ranks, int threads);
/* Whether some cell of this size has the interval. */
int baseline_has_interval(const struct baseline *b, const char *interval, const char *size);
/* The value of a fingerprint key, or NULL. */
const char *baseline_fingerprint(const struct baseline *b, const char *key);

/* The finite values of figure f into out (room for c->n); returns how many. */
size_t baseline_samples(const struct baseline_cell *c, enum analysis_figure f, double *out);
/* Per repeat f / Total_time, where both are finite and Total_time > 0. */
size_t baseline_shares(const struct baseline_cell *c, enum analysis_figure f, double *out);

/* Per repeat num / den, where both are finite and den > 0. */
size_t baseline_ratios(const struct baseline_cell *c, enum analysis_figure num,
		       enum analysis_figure den, double *out);

/* The median of figure f over the cell's repeats (share: of Total_time); NAN without any (or
 * without the cell). */
double baseline_median(const struct baseline_cell *c, enum analysis_figure f, int share);
/* The median machine's share of Total_time_wall (Interference / (Total_time + Interference) per
 * repeat); NAN without any. */
double baseline_machine_share(const struct baseline_cell *c);

/* Orders cells by interval path, size (numerically), ranks, threads. */
int baseline_cell_cmp(const struct baseline_cell *x, const struct baseline_cell *y);

#endif
