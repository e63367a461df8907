/* scalegate calibrate --inject: the whole-run false-alarm rate and the power for injected slowdowns
 * (docs/check.md). */
#ifndef SG_CALIBRATE_INJECT_H
#define SG_CALIBRATE_INJECT_H

#include "config/config.h"

/*
 * For 'sets' independent sets, in A/B mode (against the configuration's own
 * tree: A/A) and against a stored baseline recorded first: one clean gate run
 * and one per percentage of 'spec' ("solve:5,10,20"), each a whole 'scalegate
 * ci' (adaptive repeats included) into DIR/<mode>/<set>-<what>. Prints the
 * counts with 95 % Wilson intervals. An exit code.
 */
int calibrate_inject(const char *config_path, const struct config *c, const char *spec, int sets,
		     const char *dir);

#endif
