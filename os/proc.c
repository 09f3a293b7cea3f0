/* SPDX-License-Identifier: MIT */
/* Process creation, lmbench 3's lat_proc (seed 003 Table 2 "fork proc", "exec proc",
 * "shell proc"; seed 004 III.A.5): os.fork is fork() of a child that _exit()s at once, and
 * the parent's waitpid() (lat_proc fork); os.exec forks a child that execve()s the tiny
 * static program mbsuite-hello (lat_proc exec; lmbench's hello); os.shell forks a child
 * that runs /bin/sh -c mbsuite-hello (lat_proc shell). The children's output goes to
 * /dev/null. The forking process is the os phase's fresh process (node_runs.h), not the MPI
 * rank (whose fork took twice as long), but it is still mbsuite with its libraries mapped:
 * 100 mappings against lat_proc's 24, so os.fork is dearer than lat_proc's on the same
 * machine (os/README.md). A child never returns into MPI: it calls _exit() or
 * execve(), and _exit(127) when execve fails. mbsuite-hello is looked for next to the
 * executable; without it (or without /bin/sh) the figure is skipped with the reason. Thread
 * creation is shm.thread_create (not duplicated here). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "os_util.h"

#define PROC_HELLO "mbsuite-hello"
#define PROC_SHELL "/bin/sh"

enum { PROC_FORK, PROC_EXEC, PROC_SHELL_KIND };

typedef struct proc_state {
    const mb_context_t *ctx;
    int kind;
    int devnull;
    char hello[PATH_MAX];
} proc_state_t;

/* The path of mbsuite-hello next to the executable into buf; NULL, or the reason. */
static const char *proc_hello_path(char *buf, size_t len, char *why, size_t whylen)
{
    char dir[PATH_MAX];
    if (mb_os_exe_dir(dir, sizeof dir) != 0) {
        snprintf(why, whylen, "cannot find the executable's directory (/proc/self/exe)");
        return why;
    }
    snprintf(buf, len, "%s/%s", dir, PROC_HELLO);
    if (access(buf, X_OK) != 0) {
        snprintf(why, whylen, "no %s next to the executable (%s: %s); `make` builds it", PROC_HELLO,
                 buf, strerror(errno));
        return why;
    }
    return NULL;
}

static const char *proc_unavailable(const mb_context_t *ctx, char *buf, size_t len)
{
    int kind = *(const int *)ctx->arg;
    const char *why = mb_os_fork_unavailable(buf, len);
    if (why || kind == PROC_FORK)
        return why;
    char hello[PATH_MAX];
    if (proc_hello_path(hello, sizeof hello, buf, len))
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
    if (s->devnull >= 0)
        close(s->devnull);
    free(s);
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
    s->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (s->devnull < 0) {
        snprintf(err, errlen, "cannot open /dev/null: %s", strerror(errno));
        proc_teardown(s);
        return -1;
    }
    if (s->kind != PROC_FORK && proc_hello_path(s->hello, sizeof s->hello, err, errlen)) {
        proc_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

/* One child: created, run and reaped; 0, or -1 after failing the point. */
static int proc_once(proc_state_t *s)
{
    pid_t pid = fork();
    if (pid < 0) {
        mb_point_fail(s->ctx, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (s->kind == PROC_FORK)
            _exit(0);
        dup2(s->devnull, 1);
        char *const env[] = {NULL};
        if (s->kind == PROC_EXEC) {
            char *const argv[] = {(char *)PROC_HELLO, NULL};
            execve(s->hello, argv, env);
        } else {
            char *const argv[] = {(char *)"sh", (char *)"-c", s->hello, NULL};
            execve(PROC_SHELL, argv, env);
        }
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            mb_point_fail(s->ctx, "waitpid failed: %s", strerror(errno));
            return -1;
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        mb_point_fail(s->ctx, "the child did not exit with 0 (status 0x%x)", (unsigned)status);
        return -1;
    }
    return 0;
}

static void proc_run(void *state, uint64_t iters)
{
    for (uint64_t i = iters; i > 0; i--)
        if (proc_once(state) != 0)
            return;
}

static const int proc_kind_fork = PROC_FORK, proc_kind_exec = PROC_EXEC,
                 proc_kind_shell = PROC_SHELL_KIND;

const mb_bench_t mb_bench_os_fork = {
    .name = "os.fork",
    .group = "os",
    .summary = "fork + exit + wait (lmbench lat_proc fork)",
    .measures = "one fork() of the rank process whose child _exit()s at once, and the parent's "
                "waitpid()",
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
    .measures = "one fork() whose child execve()s mbsuite-hello (static; writes one line to "
                "/dev/null), and the parent's waitpid()",
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
    .measures = "one fork() whose child execve()s /bin/sh -c mbsuite-hello, and the parent's "
                "waitpid()",
    .scope = MB_SCOPE_ONE,
    .arg = &proc_kind_shell,
    .setup = proc_setup,
    .run = proc_run,
    .teardown = proc_teardown,
    .skip_reason = proc_unavailable,
};
