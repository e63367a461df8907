/* A known slowdown injected into named intervals (SCALEGATE_INJECT=solve:10%): a calibration tool, off unless set. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Regions past this id cannot be slowed down; a lock-free table is worth the limit. */
#define SG_INJECT_MAX_REGIONS 4096

int sg_inject_on;
static float inject_share[SG_INJECT_MAX_REGIONS];

/* The share of SCALEGATE_INJECT for an interval name ("a:10%,b:5%"), or 0. */
static double share_for(const char *spec, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, name, len) && p[len] == ':') {
			double pct = strtod(p + len + 1, NULL);
			return pct > 0 && pct < 10000 ? pct / 100 : 0;
		}
	}
	return 0;
}

void sg_inject_register(uint32_t region, const char *name)
{
	const char *spec = getenv("SCALEGATE_INJECT");
	double share;

	if (!spec || !*spec || region >= SG_INJECT_MAX_REGIONS)
		return;
	share = share_for(spec, name);
	if (share > 0) {
		inject_share[region] = (float)share;
		__atomic_store_n(&sg_inject_on, 1, __ATOMIC_RELEASE);
	}
}

uint64_t sg_inject_spin(uint32_t region, uint64_t start, uint64_t now)
{
	uint64_t until, t;

	if (region >= SG_INJECT_MAX_REGIONS || !(inject_share[region] > 0) || now <= start)
		return now;
	until = now + (uint64_t)((double)(now - start) * inject_share[region]);
	do
		t = sg_now();
	while (t < until);
	return t;
}
