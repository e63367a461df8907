/* The gate's exit codes: one list, documented in README.md ("Exit codes"). */
#ifndef SG_EXITCODE_H
#define SG_EXITCODE_H

enum sg_exit {
	SG_EXIT_PASS = 0,        /* every rule passed (warnings allowed) */
	SG_EXIT_REGRESSION = 1,  /* a regression or a violated rule */
	SG_EXIT_USAGE = 2,       /* bad command line or configuration */
	SG_EXIT_RUN_FAILED = 3,  /* a benchmark crashed, timed out or wrote no profile */
	SG_EXIT_POST_FAILED = 4, /* posting failed and --require-post was given */
	SG_EXIT_SIGNAL = 128,    /* + the signal that interrupted the gate: 130 SIGINT, 143 TERM */
};

#endif
