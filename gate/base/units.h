/* One rendering per kind of figure, for every output: a time is "0.01505 s", a share of Total_time
 * "50.0 %", a change of a share "+49.8 points", a relative change "-20.2 %" (docs/reports.md,
 * "Units"). */
#ifndef SG_UNITS_H
#define SG_UNITS_H

#include <stddef.h>

enum unit {
	UNIT_RATIO,    /* a number without a unit: speedup, efficiency, Karp-Flatt e: "0.704" */
	UNIT_SECONDS,  /* "0.01505 s" */
	UNIT_SHARE,    /* a fraction of Total_time, shown x 100: "50.0 %"; as a change: points */
	UNIT_RELATIVE, /* a change only: (current - base) / base, shown x 100: "-20.2 %" */
};

/* A value: "0.01505 s", "50.0 %", "0.704"; "?" when not finite. Returns 'buf'. */
char *unit_format(char *buf, size_t size, enum unit u, double v);
/* A change, signed: "+0.0012 s", "+49.8 points", "-20.2 %", "+0.12"; "?" when not finite. */
char *unit_format_change(char *buf, size_t size, enum unit u, double change);
/* "median [lo, hi]", each with its unit; the interval left out when it is not finite or reads as
 * the median on both sides. */
char *unit_format_interval(char *buf, size_t size, enum unit u, double median, double lo,
			   double hi);
/* A p-value: "< 0.001", "0.069". */
char *unit_format_p(char *buf, size_t size, double p);
/* The name of a unit in the JSON outputs: "s", "ratio", "share", "relative". */
const char *unit_name(enum unit u);

#endif
