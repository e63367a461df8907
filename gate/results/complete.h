/*
 * RESULTS/complete.tsv: the completeness record 'scalegate run' writes last,
 * one line per benchmark whose every run ended (ok or not), with the matrix
 * it ran. Removed when a run starts, so that results an interrupted or failed
 * gate left are told from finished ones (docs/running.md, "Results").
 */
#ifndef SG_COMPLETE_H
#define SG_COMPLETE_H

#include <stddef.h>

#define COMPLETE_FILE "complete.tsv"

struct complete_entry {
	char *benchmark;
	/* runs = configurations x repeat lines of manifest.tsv */
	long configurations, repeat, runs;
};

struct complete {
	struct complete_entry *e;
	size_t nr;
	int present; /* the file exists */
};

void complete_init(struct complete *c);
void complete_release(struct complete *c);
/* Reads DIR/complete.tsv: 0 ('present' 0 when there is none), or gate_error() with file:line. */
int complete_read(struct complete *c, const char *dir);
/* Adds or replaces the entry of 'benchmark'. */
void complete_set(struct complete *c, const char *benchmark, long configurations, long repeat,
		  long runs);
const struct complete_entry *complete_find(const struct complete *c, const char *benchmark);
/* Writes DIR/complete.tsv atomically; 0 or gate_error(). */
int complete_write(const struct complete *c, const char *dir);
/* Removes DIR/complete.tsv; 0 or gate_error(). */
int complete_remove(const char *dir);

#endif
