/* Private to the runner: the whole process tree of a run, killed at its end (docs/running.md,
 * "Timeouts and the process tree"). */
#ifndef SG_RUNNER_TREE_H
#define SG_RUNNER_TREE_H

#include <sys/types.h>

#include "base/util.h"

/* The variable every run's environment carries, so that a process that left the tree is still
 * known. */
#define TREE_TAG_VAR "SCALEGATE_RUN_TAG"

/* Makes the gate a child subreaper (once): orphans of a run are reparented to the gate, not to
 * init. 0 or -1. */
int tree_become_subreaper(void);

/* A fresh tag for one run: "<gate pid>-<n>"; static storage, valid until the next call. */
const char *tree_new_tag(void);

/* Sends 'sig' to every living descendant of the gate (0: none, to count them); returns how many. */
size_t tree_signal(int sig);

/*
 * Kills (SIGKILL) every descendant of the gate and every process carrying
 * TREE_TAG_VAR=tag, reaps the gate's dead children, and describes in 'sb'
 * the processes that were still alive ("pid 12 (sleep), ..."): those that
 * outlived the run's leader and, separately, those that had left the tree.
 * Returns how many processes were found.
 */
size_t tree_sweep(const char *tag, struct strbuf *outlived, struct strbuf *escaped);

#endif
