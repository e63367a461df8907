/* The one rendering of each kind of figure that the console, the reports and the messages share. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

char *unit_format(char *buf, size_t size, enum unit u, double v)
{
	if (!isfinite(v))
		snprintf(buf, size, "?");
	else if (u == UNIT_SHARE || u == UNIT_RELATIVE)
		snprintf(buf, size, "%.1f %%", 100 * v);
	else if (u == UNIT_SECONDS)
		snprintf(buf, size, "%.4g s", v);
	else
		snprintf(buf, size, "%.3g", v);
	return buf;
}

char *unit_format_change(char *buf, size_t size, enum unit u, double change)
{
	if (!isfinite(change))
		snprintf(buf, size, "?");
	else if (u == UNIT_RELATIVE)
		snprintf(buf, size, "%+.1f %%", 100 * change);
	else if (u == UNIT_SHARE)
		snprintf(buf, size, "%+.1f points", 100 * change);
	else if (u == UNIT_SECONDS)
		snprintf(buf, size, "%+.3g s", change);
	else
		snprintf(buf, size, "%+.3g", change);
	return buf;
}

char *unit_format_interval(char *buf, size_t size, enum unit u, double median, double lo,
			   double hi)
{
	char m[48], l[48], h[48];

	unit_format(m, sizeof(m), u, median);
	if (!isfinite(median) || !isfinite(lo) || !isfinite(hi)) {
		snprintf(buf, size, "%s", m);
		return buf;
	}
	unit_format(l, sizeof(l), u, lo);
	unit_format(h, sizeof(h), u, hi);
	if (!strcmp(l, m) && !strcmp(h, m))
		snprintf(buf, size, "%s", m);
	else
		snprintf(buf, size, "%s [%s, %s]", m, l, h);
	return buf;
}

char *unit_format_p(char *buf, size_t size, double p)
{
	if (!isfinite(p))
		snprintf(buf, size, "?");
	else if (p < 0.001)
		snprintf(buf, size, "< 0.001");
	else
		snprintf(buf, size, "%.2g", p);
	return buf;
}

const char *unit_name(enum unit u)
{
	static const char *const names[] = { "ratio", "s", "share", "relative" };

	return (size_t)u < sizeof(names) / sizeof(names[0]) ? names[u] : "ratio";
}
