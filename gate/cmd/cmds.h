/* The subcommands: each lives in gate/cmd-<name>.c and returns an exit code from exitcode.h. */
#ifndef SG_CMDS_H
#define SG_CMDS_H

int cmd_profile(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_ci(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
