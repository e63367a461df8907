/* Writers of the analyzer's results: the DVM-style text protocol and the documented JSON
 * (docs/metrics.md). */
#ifndef SG_PROTOCOL_H
#define SG_PROTOCOL_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/matrix.h"

void protocol_write(FILE *out, const struct analysis *a, const struct matrix *m);
void protocol_json_write(FILE *out, const struct analysis *a, const struct matrix *m);

#endif
