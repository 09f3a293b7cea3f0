/* SPDX-License-Identifier: MIT */
/* gnuplot run on each plot script, its images listed. */
#include "plot_gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_GNUPLOT_STDERR_KEEP 4096 /* the end of gnuplot's stderr kept for an error message */

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

/* Run `gnuplot NAME.gp` in the plots directory: fork and exec, no shell, stdout discarded,
 * the end of stderr kept for the message. Returns 0, or -1 with err. */
static int plot_gnuplot_run(const mb_plot_ctx_t *c, const char *gnuplot, const char *name)
{
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s.gp", name);
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
    char tail[PLOT_GNUPLOT_STDERR_KEEP + 1];
    size_t have = 0;
    for (;;) {
        char buf[1024]; /* smaller than tail */
        ssize_t got = read(pipefd[0], buf, sizeof buf);
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
    close(pipefd[0]);
    tail[have] = '\0';
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(c->err, c->errlen, "%s/%s: waitpid: %s", c->plots_dir, script,
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
        snprintf(c->err, c->errlen, "%s/%s: gnuplot exited with status %d%s%s", c->plots_dir,
                 script, WEXITSTATUS(status), *msg ? ": " : "", msg);
    else
        snprintf(c->err, c->errlen, "%s/%s: gnuplot killed by signal %d", c->plots_dir, script,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* Whether path is a non-empty file. */
static bool plot_gnuplot_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

int mb_plot_gnuplot_draw(mb_plot_ctx_t *c, const char *gnuplot)
{
    static const char *const exts[] = {".png", ".svg"};
    mb_plot_files_t *files = c->files;
    char first_err[1024] = "";
    for (size_t k = 0; k < files->nscripts; k++) {
        const char *slash = strrchr(files->scripts[k], '/');
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%s", slash ? slash + 1 : files->scripts[k]);
        name[strlen(name) - 3] = '\0';   /* ".gp" */
        for (size_t e = 0; e < 2; e++) { /* a failed run must not leave an old image behind */
            char *img = mb_plot_path(c->plots_dir, name, exts[e]);
            if (img)
                unlink(img);
            free(img);
        }
        if (plot_gnuplot_run(c, gnuplot, name) != 0) {
            if (!first_err[0])
                snprintf(first_err, sizeof first_err, "%s", c->err);
            continue;
        }
        for (size_t e = 0; e < 2; e++) {
            char *img = mb_plot_path(c->plots_dir, name, exts[e]);
            if (img && !plot_gnuplot_nonempty(img)) {
                if (!first_err[0])
                    snprintf(first_err, sizeof first_err, "%s/%s.gp: gnuplot wrote no %s",
                             c->plots_dir, name, img);
                free(img);
                continue;
            }
            if (mb_plot_list_add(&files->images, &files->nimages, img) != 0 && !first_err[0])
                snprintf(first_err, sizeof first_err, "%s: out of memory", c->plots_dir);
        }
    }
    if (first_err[0]) {
        snprintf(c->err, c->errlen, "%s", first_err);
        return -1;
    }
    return 0;
}
