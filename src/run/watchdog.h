/* SPDX-License-Identifier: MIT */
/* The hung-point watchdog. The point loop's own timeout ([run] point_timeout) is checked
 * between experiments, so it fails a slow point and the run goes on; it cannot see a point
 * stuck inside one MPI call whose peer never arrives. MPI cannot cancel a blocking
 * collective, so such a point cannot fail and let the run go on: the watchdog records it
 * (on rank 0, in results.json, as a failed point with the reason, the run marked
 * incomplete) and ends the job, instead of letting it hang until the batch system kills it. */
#ifndef MB_WATCHDOG_H
#define MB_WATCHDOG_H

/* From now, a point named what (copied) that is still running after limit_s seconds is
 * hung: the watchdog thread (started on the first call) has rank 0's results written as
 * interrupted (results.h: mb_results_interrupt), prints the reason on stderr, and exits
 * the process with status 3, which makes the MPI launcher end the other ranks. limit_s
 * <= 0 arms nothing. */
void mb_watchdog_arm(double limit_s, const char *what);

/* The point ended in time. */
void mb_watchdog_disarm(void);

#endif
