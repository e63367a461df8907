/* A known slowdown injected into named intervals (SCALEGATE_INJECT=solve:10%): a calibration tool,
 * off unless set. Each thread spins the share of its own work in the interval: its serial part as
 * the interval ends, its part of each parallel region forked inside as its body ends; so time grows
 * by the share and speedup stays. "solve:10%:serial" spins only on the thread that closes the
 * interval, for the share of the whole instance. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Regions past this id cannot be slowed down; a lock-free table is worth the limit. */
#define SG_INJECT_MAX_REGIONS 4096

int sg_inject_on;
static float inject_share[SG_INJECT_MAX_REGIONS];
static unsigned char inject_serial[SG_INJECT_MAX_REGIONS];

/* The share of SCALEGATE_INJECT for an interval ("a:10%,b:5%:serial"), or 0; *serial: ":serial". */
static double share_for(const char *spec, const char *name, int *serial)
{
	size_t len = strlen(name);

	for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char *end;
		double pct;
		if (strncmp(p, name, len) || p[len] != ':')
			continue;
		pct = strtod(p + len + 1, &end);
		if (*end == '%')
			end++;
		*serial = !strncmp(end, ":serial", 7);
		if (*serial)
			end += 7;
		if (*end && *end != ',')
			return 0;
		return pct > 0 && pct < 10000 ? pct / 100 : 0;
	}
	return 0;
}

void sg_inject_register(uint32_t region, const char *name)
{
	const char *spec = getenv("SCALEGATE_INJECT");
	double share;
	int serial = 0;

	if (!spec || !*spec || region >= SG_INJECT_MAX_REGIONS)
		return;
	share = share_for(spec, name, &serial);
	if (share > 0) {
		inject_share[region] = (float)share;
		inject_serial[region] = (unsigned char)serial;
		__atomic_store_n(&sg_inject_on, 1, __ATOMIC_RELEASE);
	}
}

static uint64_t spin(uint64_t now, double ticks)
{
	uint64_t until = now + (uint64_t)ticks, t;

	do
		t = sg_now();
	while (t < until);
	return t;
}

/* The thread's own work in the instance: all of it inside a parallel region (a member's interval),
 * else the part outside the regions it forked (their bodies spin as they end). */
uint64_t sg_inject_end(struct sg_thread *t, const struct sg_frame *f, uint64_t now)
{
	uint64_t time = now - f->start, par = sg_par_now(t, now) - f->par_start;
	float share;

	if (f->region >= SG_INJECT_MAX_REGIONS || now <= f->start)
		return now;
	share = inject_share[f->region];
	if (!(share > 0))
		return now;
	if (!inject_serial[f->region] && par < time)
		time -= par;
	return spin(now, (double)time * share);
}

float sg_inject_team(const struct sg_thread *t)
{
	double grow = 1.0 + t->inject_inherited;

	for (uint32_t d = 1; d < t->depth; d++) {
		uint32_t r = t->stack[d].region;
		if (r < SG_INJECT_MAX_REGIONS && inject_share[r] > 0 && !inject_serial[r])
			grow *= 1.0 + inject_share[r];
	}
	return (float)(grow - 1.0);
}

/* Waiting at the region's barriers and locks is not the member's work. */
uint64_t sg_inject_body(float share, uint64_t start, uint64_t waited, uint64_t now)
{
	uint64_t body = now - start;

	if (now <= start)
		return now;
	return spin(now, (double)(waited < body ? body - waited : 0) * share);
}
