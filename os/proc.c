/* SPDX-License-Identifier: MIT */
/* Process creation, lmbench 3's lat_proc (seed 003 Table 2 "fork proc", "exec proc",
 * "shell proc"; seed 004 III.A.5): os.fork is fork() of a child that _exit()s at once, and
 * the parent's waitpid() (lat_proc fork); os.exec forks a child that execve()s the tiny
 * static program mbsuite-hello (lat_proc exec; lmbench's hello); os.shell forks a child
 * that runs /bin/sh -c mbsuite-hello (lat_proc shell). The children's output goes to
 * /dev/null.
 *
 * The forking process is mbsuite-lat-proc (os/lat_proc/lat_proc.c), a program the size of
 * lat_proc that the point starts and asks over a pipe for n children at a time: fork()'s
 * cost grows with the forking process's mappings, and forked from mbsuite itself (its
 * libraries mapped though MPI never starts: 99 mappings against lat_proc's 24) it was
 * 1.7-1.8 times lat_proc's on the same machine (os/README.md). The harness times the
 * request and its reply from here: the request's two pipe wake-ups (3-60 us on a 2-vCPU
 * VM) are one per experiment, which lasts at least [os] enough_min (5 ms, lmbench 3's
 * interval), so at most about 1% of it. Without mbsuite-lat-proc, or mbsuite-hello for exec
 * and shell, both looked for next to the executable, or without /bin/sh, the figure is
 * skipped with the reason.
 * Thread creation is shm.thread_create (not duplicated here). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lat_proc/lat_proc.h"
#include "os_util.h"

#define PROC_HELLO "mbsuite-hello"
#define PROC_SHELL "/bin/sh"

enum { PROC_FORK, PROC_EXEC, PROC_SHELL_KIND };
static const char *const proc_kind_arg[] = {"fork", "exec", "shell"};

extern char **environ;

typedef struct proc_state {
    const mb_context_t *ctx;
    int kind;
    pid_t helper;   /* mbsuite-lat-proc */
    int request_fd; /* its standard input */
    int reply_fd;   /* its standard output */
} proc_state_t;

/* The path of the helper program `name` next to the executable into buf; NULL, or the
 * reason in why. */
static const char *proc_helper_path(const char *name, char *buf, size_t len, char *why,
                                    size_t whylen)
{
    char dir[PATH_MAX];
    if (mb_os_exe_dir(dir, sizeof dir) != 0) {
        snprintf(why, whylen, "cannot find the executable's directory (/proc/self/exe)");
        return why;
    }
    snprintf(buf, len, "%s/%s", dir, name);
    if (access(buf, X_OK) != 0) {
        snprintf(why, whylen, "no %s next to the executable (%s: %s); `make` builds it", name,
                 buf, strerror(errno));
        return why;
    }
    return NULL;
}

static const char *proc_unavailable(const mb_context_t *ctx, char *buf, size_t len)
{
    int kind = *(const int *)ctx->arg;
    const char *why = mb_os_fork_unavailable(buf, len);
    if (why)
        return why;
    char path[PATH_MAX];
    if (proc_helper_path(MB_LAT_PROC_NAME, path, sizeof path, buf, len))
        return buf;
    if (kind != PROC_FORK && proc_helper_path(PROC_HELLO, path, sizeof path, buf, len))
        return buf;
    if (kind == PROC_SHELL_KIND && access(PROC_SHELL, X_OK) != 0) {
        snprintf(buf, len, "no %s here: %s", PROC_SHELL, strerror(errno));
        return buf;
    }
    return NULL;
}

static void proc_teardown(void *state)
{
    proc_state_t *s = state;
    if (!s)
        return;
    /* Killed, not left to read the end of its input: after a failed request it may still
     * be forking. */
    if (s->request_fd >= 0)
        close(s->request_fd);
    if (s->reply_fd >= 0)
        close(s->reply_fd);
    mb_os_reap(s->helper);
    free(s);
}

/* Starts mbsuite-lat-proc KIND [HELLO] with pipes on its standard input and output (its
 * standard error is ours); 0, or -1 with err set. */
static int proc_start_helper(proc_state_t *s, char *err, size_t errlen)
{
    char prog[PATH_MAX], hello[PATH_MAX];
    if (proc_helper_path(MB_LAT_PROC_NAME, prog, sizeof prog, err, errlen) ||
        (s->kind != PROC_FORK && proc_helper_path(PROC_HELLO, hello, sizeof hello, err, errlen)))
        return -1;
    int req[2], rep[2];
    if (pipe2(req, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(rep, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(req[0]);
        close(req[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, req[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, rep[1], STDOUT_FILENO);
    char *argv[] = {prog, (char *)proc_kind_arg[s->kind], s->kind != PROC_FORK ? hello : NULL,
                    NULL};
    int rc = posix_spawn(&s->helper, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(req[0]);
    close(rep[1]);
    s->request_fd = req[1];
    s->reply_fd = rep[0];
    if (rc != 0) {
        s->helper = 0;
        snprintf(err, errlen, "cannot start %s: %s", prog, strerror(rc));
        return -1;
    }
    return 0;
}

static int proc_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                      size_t errlen)
{
    (void)pt;
    proc_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    s->kind = *(const int *)ctx->arg;
    s->request_fd = s->reply_fd = -1;
    if (proc_start_helper(s, err, errlen) != 0) {
        proc_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

/* iters children, created, run and reaped by the helper. */
static void proc_run(void *state, uint64_t iters)
{
    proc_state_t *s = state;
    char reply[MB_LAT_PROC_REPLY];
    if (mb_os_write_full(s->request_fd, &iters, sizeof iters) != 0 ||
        mb_os_read_full(s->reply_fd, reply, sizeof reply) != 0) {
        mb_point_fail(s->ctx, "%s ended unexpectedly", MB_LAT_PROC_NAME);
        return;
    }
    reply[sizeof reply - 1] = '\0';
    if (reply[0])
        mb_point_fail(s->ctx, "%s: %s", MB_LAT_PROC_NAME, reply);
}

static const int proc_kind_fork = PROC_FORK, proc_kind_exec = PROC_EXEC,
                 proc_kind_shell = PROC_SHELL_KIND;

const mb_bench_t mb_bench_os_fork = {
    .name = "os.fork",
    .group = "os",
    .summary = "fork + exit + wait (lmbench lat_proc fork)",
    .measures = "one fork() by mbsuite-lat-proc (a process the size of lat_proc) whose child "
                "_exit()s at once, and its waitpid(); asked over a pipe, once per experiment",
    .scope = MB_SCOPE_ONE,
    .arg = &proc_kind_fork,
    .setup = proc_setup,
    .run = proc_run,
    .teardown = proc_teardown,
    .skip_reason = proc_unavailable,
};

const mb_bench_t mb_bench_os_exec = {
    .name = "os.exec",
    .group = "os",
    .summary = "fork + execve of a tiny static program + wait (lmbench lat_proc exec)",
    .measures = "one fork() by mbsuite-lat-proc whose child execve()s mbsuite-hello (static; "
                "writes one line to /dev/null), and its waitpid(); asked over a pipe, once per "
                "experiment",
    .scope = MB_SCOPE_ONE,
    .arg = &proc_kind_exec,
    .setup = proc_setup,
    .run = proc_run,
    .teardown = proc_teardown,
    .skip_reason = proc_unavailable,
};

const mb_bench_t mb_bench_os_shell = {
    .name = "os.shell",
    .group = "os",
    .summary = "fork + /bin/sh -c tiny program + wait (lmbench lat_proc shell)",
    .measures = "one fork() by mbsuite-lat-proc whose child execve()s /bin/sh -c "
                "mbsuite-hello, and its waitpid(); asked over a pipe, once per experiment",
    .scope = MB_SCOPE_ONE,
    .arg = &proc_kind_shell,
    .setup = proc_setup,
    .run = proc_run,
    .teardown = proc_teardown,
    .skip_reason = proc_unavailable,
};
