/* SPDX-License-Identifier: MIT */
/* gnuplot run on each plot script, its images listed. */
#include "plot_gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_GNUPLOT_STDERR_KEEP 4096 /* the end of gnuplot's stderr kept for an error message */
#define PLOT_GNUPLOT_JOBS_MAX 16      /* gnuplots running at once, at most */

/* The images each script draws. */
static const char *const plot_gnuplot_exts[] = {".png", ".svg"};
#define PLOT_GNUPLOT_NEXTS (sizeof plot_gnuplot_exts / sizeof *plot_gnuplot_exts)

/* gnuplot's path from PATH, or NULL. */
char *mb_plot_gnuplot_find(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *cand;
        if (asprintf(&cand, "%.*s/gnuplot", (int)n, n ? p : ".") < 0)
            return NULL;
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return cand;
        free(cand);
        if (!end)
            return NULL;
        p = end + 1;
    }
}

/* One `gnuplot NAME.gp`: its pid and the read end of its stderr, or why it did not start. */
typedef struct plot_gnuplot_job {
    pid_t pid;
    int err_fd;
    char name[PATH_MAX];
    char start_err[1024]; /* non-empty: it did not start */
} plot_gnuplot_job_t;

/* Start `gnuplot NAME.gp` in the plots directory: fork and exec, no shell, stdout
 * discarded, stderr into a pipe for the message. Returns 0, or -1 with err. */
static int plot_gnuplot_start(const mb_plot_ctx_t *c, const char *gnuplot, const char *name,
                              plot_gnuplot_job_t *job)
{
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s.gp", name);
    snprintf(job->name, sizeof job->name, "%s", name);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(c->err, c->errlen, "%s/%s: pipe: %s", c->plots_dir, script, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(c->err, c->errlen, "%s/%s: fork: %s", c->plots_dir, script, strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || chdir(c->plots_dir) != 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
            dup2(pipefd[1], 2) < 0)
            _exit(126);
        char *const argv[] = {"gnuplot", script, NULL};
        execv(gnuplot, argv);
        _exit(127);
    }
    close(pipefd[1]);
    job->pid = pid;
    job->err_fd = pipefd[0];
    return 0;
}

/* Wait for job to end, the end of its stderr kept. Returns 0 when gnuplot exited with 0,
 * or -1 with err. */
static int plot_gnuplot_finish(const mb_plot_ctx_t *c, plot_gnuplot_job_t *job)
{
    char tail[PLOT_GNUPLOT_STDERR_KEEP + 1];
    size_t have = 0;
    for (;;) {
        char buf[1024]; /* smaller than tail */
        ssize_t got = read(job->err_fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (have + (size_t)got > PLOT_GNUPLOT_STDERR_KEEP) {
            size_t drop = have + (size_t)got - PLOT_GNUPLOT_STDERR_KEEP;
            memmove(tail, tail + drop, have - drop);
            have -= drop;
        }
        memcpy(tail + have, buf, (size_t)got);
        have += (size_t)got;
    }
    close(job->err_fd);
    tail[have] = '\0';
    int status;
    while (waitpid(job->pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(c->err, c->errlen, "%s/%s.gp: waitpid: %s", c->plots_dir, job->name,
                     strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* gnuplot's message is its last lines, flattened to one: runs of blanks become one. */
    size_t w = 0;
    for (size_t r = 0; r < have; r++) {
        bool blank = tail[r] == '\n' || tail[r] == ' ' || tail[r] == '\t';
        if (!blank || (w > 0 && tail[w - 1] != ' '))
            tail[w++] = blank ? ' ' : tail[r];
    }
    while (w > 0 && tail[w - 1] == ' ')
        w--;
    tail[w] = '\0';
    have = w;
    const char *msg = have > 300 ? tail + have - 300 : tail;
    if (WIFEXITED(status))
        snprintf(c->err, c->errlen, "%s/%s.gp: gnuplot exited with status %d%s%s", c->plots_dir,
                 job->name, WEXITSTATUS(status), *msg ? ": " : "", msg);
    else
        snprintf(c->err, c->errlen, "%s/%s.gp: gnuplot killed by signal %d", c->plots_dir,
                 job->name, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* Whether path is a non-empty file. */
static bool plot_gnuplot_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* A script's images once its gnuplot has ended: each listed, or the first error noted. */
static void plot_gnuplot_images(mb_plot_ctx_t *c, const char *name, char *first_err,
                                size_t first_err_len)
{
    mb_plot_files_t *files = c->files;
    for (size_t e = 0; e < PLOT_GNUPLOT_NEXTS; e++) {
        char *img = mb_plot_path(c->plots_dir, name, plot_gnuplot_exts[e]);
        if (img && !plot_gnuplot_nonempty(img)) {
            if (!first_err[0])
                snprintf(first_err, first_err_len, "%s/%s.gp: gnuplot wrote no %s", c->plots_dir,
                         name, img);
            free(img);
            continue;
        }
        if (mb_plot_list_add(&files->images, &files->nimages, img) != 0 && !first_err[0])
            snprintf(first_err, first_err_len, "%s: out of memory", c->plots_dir);
    }
}

int mb_plot_gnuplot_draw(mb_plot_ctx_t *c, const char *gnuplot)
{
    mb_plot_files_t *files = c->files;
    char first_err[1024] = "";
    /* As many gnuplots at once as this process may use CPUs (at most PLOT_GNUPLOT_JOBS_MAX;
     * a rank mbsuite bound is free again by now: mb_binding_release), each ended in the
     * order started, so images and errors come in the scripts' order: 36 scripts of a
     * default run took 3.4-3.8 s one after another on the 2-core VM, 2.0 s two at a time. */
    cpu_set_t allowed;
    int cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
    size_t window = cpus < 1                       ? 1
                    : cpus > PLOT_GNUPLOT_JOBS_MAX ? PLOT_GNUPLOT_JOBS_MAX
                                                   : (size_t)cpus;
    plot_gnuplot_job_t jobs[PLOT_GNUPLOT_JOBS_MAX];
    size_t next = 0; /* the next script to start */
    for (size_t k = 0; k < files->nscripts; k++) {
        for (; next < files->nscripts && next < k + window; next++) {
            const char *slash = strrchr(files->scripts[next], '/');
            char name[PATH_MAX];
            snprintf(name, sizeof name, "%s", slash ? slash + 1 : files->scripts[next]);
            name[strlen(name) - 3] = '\0';   /* ".gp" */
            /* a failed run must not leave an old image behind */
            for (size_t e = 0; e < PLOT_GNUPLOT_NEXTS; e++) {
                char *img = mb_plot_path(c->plots_dir, name, plot_gnuplot_exts[e]);
                if (img)
                    unlink(img);
                free(img);
            }
            plot_gnuplot_job_t *job = &jobs[next % window];
            job->start_err[0] = '\0';
            if (plot_gnuplot_start(c, gnuplot, name, job) != 0)
                snprintf(job->start_err, sizeof job->start_err, "%s", c->err);
        }
        plot_gnuplot_job_t *job = &jobs[k % window];
        if (job->start_err[0]) {
            if (!first_err[0])
                snprintf(first_err, sizeof first_err, "%s", job->start_err);
            continue;
        }
        if (plot_gnuplot_finish(c, job) != 0) {
            if (!first_err[0])
                snprintf(first_err, sizeof first_err, "%s", c->err);
            continue;
        }
        plot_gnuplot_images(c, job->name, first_err, sizeof first_err);
    }
    if (first_err[0]) {
        snprintf(c->err, c->errlen, "%s", first_err);
        return -1;
    }
    return 0;
}
