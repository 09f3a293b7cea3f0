/* SPDX-License-Identifier: MIT */
/* mbsuite-lat-proc: the process whose fork() os.fork, os.exec and os.shell time (os/proc.c).
 * fork() copies the forking process's mappings and page tables, so its cost depends on that
 * process: forked from mbsuite, with MPI, hwloc, GSL and their libraries mapped (99
 * mappings), it cost 1.7-1.8 times lmbench's lat_proc (24 mappings) on the same machine
 * (os/README.md). This program is as small as lat_proc and built as it is (dynamically
 * linked against libc alone), and does only lat_proc's loop; the harness in mbsuite times
 * it from outside.
 *
 *   mbsuite-lat-proc fork|exec|shell [HELLO]
 *
 * Standard input carries requests, each a uint64_t count n: fork n children one after
 * another, each of which _exit()s (fork), execve()s HELLO (exec) or runs /bin/sh -c HELLO
 * (shell) with its standard output on /dev/null, and wait for each (lat_proc's spawn loop).
 * After each request one reply of MB_LAT_PROC_REPLY bytes goes to standard output: an empty
 * string when all n children exited with 0, else the reason. End of input ends the
 * program; so does its parent's death. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lat_proc.h"

enum { KIND_FORK, KIND_EXEC, KIND_SHELL };

static int read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

/* n children of kind; "" or the reason into why. */
static void spawn(uint64_t n, int kind, const char *hello, int devnull, char *why, size_t len)
{
    why[0] = '\0';
    while (n--) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(why, len, "fork failed: %s", strerror(errno));
            return;
        }
        if (pid == 0) {
            if (kind == KIND_FORK)
                _exit(0);
            dup2(devnull, 1);
            char *const env[] = {NULL};
            if (kind == KIND_EXEC) {
                char *const argv[] = {(char *)"mbsuite-hello", NULL};
                execve(hello, argv, env);
            } else {
                char *const argv[] = {(char *)"sh", (char *)"-c", (char *)hello, NULL};
                execve("/bin/sh", argv, env);
            }
            _exit(127);
        }
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) {
                snprintf(why, len, "waitpid failed: %s", strerror(errno));
                return;
            }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            snprintf(why, len, "a child did not exit with 0 (status 0x%x)", (unsigned)status);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int kind = argc >= 2 && strcmp(argv[1], "fork") == 0   ? KIND_FORK
               : argc >= 3 && strcmp(argv[1], "exec") == 0 ? KIND_EXEC
               : argc >= 3 && strcmp(argv[1], "shell") == 0 ? KIND_SHELL
                                                            : -1;
    if (kind < 0) {
        fprintf(stderr, "usage: mbsuite-lat-proc fork|exec HELLO|shell HELLO "
                        "(requests on standard input; started by mbsuite's os.fork/exec/shell)\n");
        return 2;
    }
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0) {
        fprintf(stderr, "mbsuite-lat-proc: cannot open /dev/null: %s\n", strerror(errno));
        return 1;
    }
    uint64_t n;
    char why[MB_LAT_PROC_REPLY];
    while (read_full(STDIN_FILENO, &n, sizeof n) == 0) {
        spawn(n, kind, kind == KIND_FORK ? NULL : argv[2], devnull, why, sizeof why);
        /* One write of at most PIPE_BUF bytes: whole or not at all. */
        if (write(STDOUT_FILENO, why, sizeof why) != (ssize_t)sizeof why)
            return 1;
    }
    return 0;
}
