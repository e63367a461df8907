# OMPT capture of constructs beyond omp_known: nested teams, ordered, taskwait, nest locks,
# sections.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/ompt.bash"

cat >"$T/constructs.c" <<'C'
#include <omp.h>
#include <string.h>
#include <time.h>
#include "scalegate.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	omp_nest_lock_t l;

	omp_init_nest_lock(&l);
	omp_set_max_active_levels(2);
	SG_BEGIN("step");
	if (!strcmp(mode, "nested")) { /* two teams of two inside a team of two */
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
		sleep_ms(omp_get_thread_num() == 0 ? 10 : 30);
	} else if (!strcmp(mode, "ordered")) {
		/* each ordered block waits for the one before: ~50 ms of waiting */
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
		for (int i = 0; i < 6; i++) {
#pragma omp ordered
			sleep_ms(10);
		}
	} else if (!strcmp(mode, "taskwait")) {
		/* the single thread waits 20 ms for its task (or runs it) */
#pragma omp parallel num_threads(2)
#pragma omp single
		{
#pragma omp task
			sleep_ms(20);
#pragma omp taskwait
		}
	} else if (!strcmp(mode, "nestlock")) {
		/* thread 1 waits ~18 ms; taking the lock again costs no wait */
#pragma omp parallel num_threads(2)
		{
			if (omp_get_thread_num() == 1)
				sleep_ms(2);
			omp_set_nest_lock(&l);
			omp_set_nest_lock(&l);
			sleep_ms(20);
			omp_unset_nest_lock(&l);
			omp_unset_nest_lock(&l);
		}
	} else if (!strcmp(mode, "sections")) {
		/* sections of 10 and 30 ms: one thread idles ~20 ms at the end */
#pragma omp parallel sections num_threads(2)
		{
#pragma omp section
			sleep_ms(10);
#pragma omp section
			sleep_ms(30);
		}
	}
	SG_END("step");
	omp_destroy_nest_lock(&l);
	return 0;
}
C
ompt_cc "$T/constructs.c" "$T/constructs"

run() {
	rm -rf "$T/out"
	SCALEGATE_OUT="$T/out" "$T/constructs" "$1"
	out=$(tsv "$T/out")
	grep -q $'^meta\tomp\tompt$' "$T"/out/*.sgprof && pass ||
		fail "$1: the profile does not say omp ompt"
	grep -q $'^meta\terrors_unclosed\t0$' "$T"/out/*.sgprof && pass ||
		fail "$1: intervals left open"
}
# sum TSV PATH COLUMN: the column summed over the threads
sum() { awk -F'\t' -v path="$2" -v c="$3" '$2 == path { s += $c } END { print s + 0 }' <<<"$1"; }
# columns of 'scalegate profile --tsv' (lib.bash: col)
TIME=6 IDLE=12 LOCK=13 REGIONS=14

run nested
approx "$(col "$out" program/step 0 omp_regions)" 2 2 \
	"nested: the main thread forks the outer team and one inner team"
approx "$(sum "$out" program/step $REGIONS)" 3 3 \
	"nested: the other inner team is forked by the outer worker"
approx "$(awk -F'\t' '$2 == "program/step"' <<<"$out" | wc -l)" 4 4 \
	"nested: four threads work in the inherited interval"
approx "$(sum "$out" program/step $TIME)" 0.1 0.2 \
	"nested: the threads' time (30 + 30 + 30 + 10 ms of bodies, and more)"

run ordered
approx "$(sum "$out" program/step $LOCK)" 0.03 0.12 "ordered: waiting for the previous iteration"

run taskwait
approx "$(col "$out" program/step 0 omp_barrier)" 0.015 0.08 "taskwait: the waiting thread"

run nestlock
approx "$(sum "$out" program/step $LOCK)" 0.012 0.04 "nest lock: one wait, none for taking it again"

run sections
approx "$(sum "$out" program/step $IDLE)" 0.015 0.05 \
	"sections: the thread with the short section idles"
