/* compiler/launch.h: `gtc run`, the data-parallel launcher (launch.c, docs/distributed.md). */
#ifndef GTC_LAUNCH_H
#define GTC_LAUNCH_H

/* `gtc run` with its arguments (argv[0] is "run"). Exit status: 0 when every rank exited 0,
 * else the first failing rank's (its exit code, or 128 + its signal), 128 + the signal when the
 * launcher was stopped, 2 for bad usage, 127 when php could not be started. */
int launch_main(int argc, char **argv);

#endif
