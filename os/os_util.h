/* SPDX-License-Identifier: MIT */
/* What the os benchmarks share: scratch files, helper child processes (an echo or writer
 * peer in a forked child, as lmbench's lat_pipe/lat_tcp/bw_pipe run theirs), the checks
 * that decide whether a figure can be measured on this node at all, and the subtraction of
 * a measured base cost (lmbench's lat_sig catch and lat_ctx). */
#ifndef MB_OS_UTIL_H
#define MB_OS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A scratch file of `bytes` bytes (non-zero contents) in $TMPDIR or /tmp, written and so in
 * the page cache; its path goes into path (len >= 64). Returns an fd open for reading, or
 * -1 with err set. The caller unlinks path and closes the fd. */
int mb_os_scratch_file(uint64_t bytes, char *path, size_t len, char *err, size_t errlen);

/* Fork a child that runs fn(arg) and then _exit(0)s without touching MPI (a forked MPI
 * process must not call it). Returns the child's pid, or -1 with err set. */
pid_t mb_os_spawn(void (*fn)(void *arg), void *arg, char *err, size_t errlen);

/* Stop and reap a child of mb_os_spawn (SIGKILL, waitpid); pid <= 0 does nothing. */
void mb_os_reap(pid_t pid);

/* read()/write() exactly len bytes, going on after short transfers and EINTR; 0 or -1. */
int mb_os_read_full(int fd, void *buf, size_t len);
int mb_os_write_full(int fd, const void *buf, size_t len);

/* Availability checks for the descriptors' skip_reason hooks: NULL when it works here,
 * else the reason in buf. */
const char *mb_os_fork_unavailable(char *buf, size_t len);
const char *mb_os_loopback_unavailable(char *buf, size_t len);

/* A cost less a base cost measured separately (lmbench: signal catch less the kill that
 * sends it, context switch less the pipe and working-set overhead), clamped at 0 as lmbench
 * does; NAN when either is not a positive finite number. */
double mb_os_subtract_ns(double total_ns, double base_ns);

/* The CPU the calling thread runs on now (0 if the kernel cannot say). */
int mb_os_current_cpu(void);

/* Bind the calling thread (and so the children it forks after) to CPU cpu; 0, or -1 with
 * errno set. */
int mb_os_bind_cpu(int cpu);

/* The executable's directory into buf (from /proc/self/exe); 0, or -1. */
int mb_os_exe_dir(char *buf, size_t len);

#endif
