/* The table of lost-time terms: every fact about each term of Lost_time, in one place. */
#ifndef SG_LOST_TABLE_H
#define SG_LOST_TABLE_H

/*
 * Lost_time is the sum of the TERM rows; a term with PART rows is the sum of
 * its parts (each part names its parent). Rows in report order: a term, then
 * its parts. Pure data, no code: analyze/, rules/, judge/ and report/ expand
 * it, each spelling the tokens into its own names (ANALYSIS_<id>,
 * RULES_<id>, HTML_<colour>, ANALYSIS_NEEDS_<needs>, LOST_KEY_<key_when>).
 *
 *   TERM(A, id, name, needs, share_key, colour, key_when, cause, formula, judged)
 *   PART(A, id, name, needs, parent, cause, formula)
 *
 * A         the expanding consumer's own X macro, passed through
 * id        the figure (enum analysis_figure) and, for a TERM, the rule metric
 * name      the JSON key and the name every report prints
 * needs     what must be captured for the figure to be known (analyze/analysis.h):
 *           NONE, OMP (OpenMP), OMP_THREADS (OpenMP, with several threads a rank),
 *           MPI, MPI_RANKS (MPI, with several ranks); a term with parts is
 *           also absent when one of its parts is
 * share_key the rule key of the term's share of Total_time ('share_max:', 'tolerance:')
 * colour    its bars in the HTML report (report/html-priv.h: HTML_<colour>)
 * key_when  when the HTML plot's key names it: ALWAYS; RANKS (several ranks);
 *           RANKS_OR_SEEN (several ranks, or a share above 0)
 * cause     what its growth says, after its name in a verdict's cause (judge/cause.c);
 *           a term with parts is qualified by the part that grew most
 * formula   how it is computed from the per-processor quantities (docs/metrics.md)
 * judged    PROGRAM: the program's loss, a rule metric and a cause; MACHINE: other processes'
 *           (Interference), reported and named but never gated nor the cause, no share_key
 *           (its column holds "-")
 *
 * Adding a term: its row here, a column of the reduced record (format/columns.h) and its per-rank
 * computation in format/rank-share.c, shared with the tracer (docs/extending.md).
 */
#define LOST_TERMS(TERM, PART, A) \
	TERM(A, INSUFFICIENT_PARALLELISM, "Insufficient_parallelism", OMP_THREADS, \
	     "insufficient_parallelism", ORANGE, ALWAYS, "", "`Seq + Par`", PROGRAM) \
	PART(A, SEQ, "Seq", OMP_THREADS, INSUFFICIENT_PARALLELISM, " (serial code)", \
	     "`Σ_{q>0} min(g_q, serial_r)` over ranks; `(T − 1) · Σ_r serial_r` when the main " \
	     "thread leads (MPI calls in serial code included)") \
	PART(A, PAR, "Par", OMP_THREADS, INSUFFICIENT_PARALLELISM, \
	     " (threads without work in parallel regions)", \
	     "`Σ missing_q` (`missing_q = g_q` minus its `Seq` part)") \
	TERM(A, COMMUNICATION, "Communication", MPI, "communication", BLUE, RANKS_OR_SEEN, "", \
	     "`Σ_r (m_r − wait_r)`", PROGRAM) \
	TERM(A, IDLE, "Idle", NONE, "idle", PURPLE, RANKS, "", \
	     "`T · Σ_r (Execution_time_wall − W_r)`", PROGRAM) \
	TERM(A, SYNCHRONIZATION, "Synchronization", NONE, "synchronization", GREEN, ALWAYS, "", \
	     "`Synchronization_omp + Synchronization_mpi`", PROGRAM) \
	PART(A, SYNC_OMP, "Synchronization_omp", OMP_THREADS, SYNCHRONIZATION, \
	     " (OpenMP barriers, locks and idle threads)", "`Σ_q (B_q + L_q + D_q)`") \
	PART(A, SYNC_MPI, "Synchronization_mpi", MPI_RANKS, SYNCHRONIZATION, \
	     " (waiting for other ranks in MPI)", "`Σ_r wait_r`") \
	TERM(A, INTERFERENCE, "Interference", NONE, "-", GREY, SEEN, \
	     " (other processes on the machine)", \
	     "`Total_time_wall − Total_time`: the processors' time other processes took " \
	     "(below); `null` when not captured", MACHINE)

#endif
