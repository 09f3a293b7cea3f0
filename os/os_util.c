/* SPDX-License-Identifier: MIT */
#include "os_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int mb_os_scratch_file(uint64_t bytes, char *path, size_t len, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    snprintf(path, len, "%s/mbsuite-os.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a scratch file in %s: %s", dir, strerror(errno));
        return -1;
    }
    char block[65536];
    memset(block, 0x5a, sizeof block);
    for (uint64_t done = 0; done < bytes;) {
        size_t n = bytes - done < sizeof block ? (size_t)(bytes - done) : sizeof block;
        if (mb_os_write_full(fd, block, n) != 0) {
            snprintf(err, errlen, "cannot write %llu bytes to %s: %s", (unsigned long long)bytes,
                     path, strerror(errno));
            close(fd);
            unlink(path);
            return -1;
        }
        done += n;
    }
    return fd;
}

pid_t mb_os_spawn(void (*fn)(void *arg), void *arg, char *err, size_t errlen)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        fn(arg);
        _exit(0);
    }
    return pid;
}

void mb_os_reap(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

int mb_os_read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int mb_os_write_full(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

const char *mb_os_fork_unavailable(char *buf, size_t len)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(buf, len, "fork() refused here: %s", strerror(errno));
        return buf;
    }
    if (pid == 0)
        _exit(0);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    return NULL;
}

/* How long a connection to 127.0.0.1 may take before the loopback counts as unusable (a
 * firewall that drops its packets would otherwise hold a blocking connect for minutes). */
#define LOOPBACK_CONNECT_MS 1000

/* Connect a TCP socket to a listening one on 127.0.0.1: 0, or the errno that stopped it. */
static int loopback_connect_errno(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    int srv = socket(AF_INET, SOCK_STREAM, 0), cli = -1, err = 0;
    if (srv < 0 || bind(srv, (struct sockaddr *)&a, sizeof a) != 0 || listen(srv, 1) != 0 ||
        getsockname(srv, (struct sockaddr *)&a, &alen) != 0 ||
        (cli = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)) < 0)
        err = errno;
    else if (connect(cli, (struct sockaddr *)&a, sizeof a) != 0) {
        err = errno;
        if (err == EINPROGRESS) {
            struct pollfd pfd = {.fd = cli, .events = POLLOUT};
            socklen_t elen = sizeof err;
            int ready = poll(&pfd, 1, LOOPBACK_CONNECT_MS);
            if (ready < 0)
                err = errno;
            else if (ready == 0)
                err = ETIMEDOUT;
            else if (getsockopt(cli, SOL_SOCKET, SO_ERROR, &err, &elen) != 0)
                err = errno;
        }
    }
    if (cli >= 0)
        close(cli);
    if (srv >= 0)
        close(srv);
    return err;
}

const char *mb_os_loopback_unavailable(char *buf, size_t len)
{
    /* A connection, not only a listening socket: in a network namespace whose lo is down,
     * bind() and listen() on 127.0.0.1 succeed and every connect() fails with "Network is
     * unreachable" (tests/test_os.c, test_channel_unavailable, under unshare -n). */
    int err = loopback_connect_errno();
    if (err) {
        snprintf(buf, len, "no connection to the loopback interface (127.0.0.1): %s",
                 strerror(err));
        return buf;
    }
    return NULL;
}

double mb_os_subtract_ns(double total_ns, double base_ns)
{
    if (!isfinite(total_ns) || !isfinite(base_ns) || total_ns <= 0 || base_ns <= 0)
        return NAN;
    return total_ns > base_ns ? total_ns - base_ns : 0.0;
}

int mb_os_exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

int mb_os_current_cpu(void)
{
    int cpu = sched_getcpu();
    return cpu < 0 ? 0 : cpu;
}

int mb_os_bind_cpu(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}
