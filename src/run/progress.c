/* SPDX-License-Identifier: MIT */
/* The run's progress on stderr (progress.h): one updating line on a terminal, one
 * permanent line per benchmark everywhere, other messages on lines of their own. */
#include "progress.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"

/* Cells in the bar of points; the line is cut to the terminal's width, its label first. */
#define PROGRESS_BAR_CELLS 16
#define PROGRESS_DEFAULT_COLUMNS 80

typedef struct progress_state {
    bool active; /* between mb_progress_start and mb_progress_finish */
    FILE *out;
    mb_progress_mode_t mode;
    int columns;
    size_t nbench;
    double began_s;
    double (*now_s)(void);
    bool in_bench;
    mb_progress_bench_t bench;
    char name[128];
    char label[256];
    size_t done, failed;
    double bench_began_s;
    bool line_open; /* an updating line is on the terminal, without its newline */
    size_t timed;
    double timed_s;
} progress_state_t;

static progress_state_t progress;

int mb_progress_mode_parse(const char *text)
{
    if (strcmp(text, "tty") == 0)
        return MB_PROGRESS_TTY;
    if (strcmp(text, "log") == 0)
        return MB_PROGRESS_LOG;
    return -1;
}

/* Under an MPI launcher, rank 0's stderr is a pipe to the launcher (Open MPI gives a pty to
 * stdout only, even when mpirun writes to a file), which writes what comes through to its
 * own stderr: the launcher's (the parent's) stderr says whether a terminal shows it. path
 * gets that terminal's device. Without a launcher the parent is a shell, whose terminal
 * says nothing of a pipe in between (`mbsuite 2>&1 | tee log`). */
static bool progress_launcher_tty(char *path, size_t len)
{
    if (!getenv("OMPI_COMM_WORLD_RANK") && !getenv("PMIX_RANK") && !getenv("PMI_RANK"))
        return false;
    struct stat st;
    if (fstat(STDERR_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode))
        return false;
    char link[64];
    snprintf(link, sizeof link, "/proc/%ld/fd/2", (long)getppid());
    ssize_t n = readlink(link, path, len - 1);
    if (n <= 0)
        return false;
    path[n] = '\0';
    return strncmp(path, "/dev/pts/", 9) == 0 || strncmp(path, "/dev/tty", 8) == 0;
}

mb_progress_mode_t mb_progress_mode_detect(char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    const char *env = getenv("MB_PROGRESS");
    if (env && env[0] && strcmp(env, "auto") != 0) {
        int mode = mb_progress_mode_parse(env);
        if (mode >= 0)
            return (mb_progress_mode_t)mode;
        if (why)
            snprintf(why, whylen, "MB_PROGRESS=\"%s\" is not tty, log or auto; ignored", env);
    }
    /* A terminal that cannot clear a line shows the log's lines. */
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return MB_PROGRESS_LOG;
    char path[256];
    return isatty(STDERR_FILENO) || progress_launcher_tty(path, sizeof path) ? MB_PROGRESS_TTY
                                                                             : MB_PROGRESS_LOG;
}

/* The terminal's width: COLUMNS, else the terminal's own (out's, or the launcher's). */
static int progress_columns(FILE *out)
{
    const char *env = getenv("COLUMNS");
    int cols = env ? atoi(env) : 0;
    if (cols > 0)
        return cols;
    struct winsize ws;
    int fd = fileno(out);
    if (fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    char path[256];
    if (out == stderr && progress_launcher_tty(path, sizeof path)) {
        fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
        if (fd >= 0) {
            cols = ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
            close(fd);
            if (cols > 0)
                return cols;
        }
    }
    return PROGRESS_DEFAULT_COLUMNS;
}

void mb_progress_start(FILE *out, mb_progress_mode_t mode, size_t nbench, double began_s,
                       double (*now_s)(void))
{
    progress = (progress_state_t){
        .active = true,
        .out = out,
        .mode = mode,
        .nbench = nbench,
        .began_s = began_s,
        .now_s = now_s ? now_s : mb_clock_elapsed_s,
    };
    if (mode == MB_PROGRESS_TTY)
        progress.columns = progress_columns(out);
}

static void progress_clear(void)
{
    if (!progress.line_open)
        return;
    fputs("\r\033[K", progress.out);
    progress.line_open = false;
}

void mb_progress_finish(void)
{
    if (!progress.active)
        return;
    progress_clear();
    fflush(progress.out);
    progress = (progress_state_t){0};
}

void mb_progress_duration(char *buf, size_t len, double s)
{
    long t = s > 0 ? lround(s) : 0;
    if (t < 60)
        snprintf(buf, len, "%lds", t);
    else if (t < 3600)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
}

void mb_progress_bar(char *buf, size_t len, size_t done, size_t total, int width)
{
    if (len == 0)
        return;
    size_t cells = width > 0 ? (size_t)width : 0;
    size_t filled = total ? (done < total ? done : total) * cells / total : 0;
    size_t k = 0;
    if (k + 1 < len)
        buf[k++] = '[';
    for (size_t i = 0; i < cells && k + 1 < len; i++)
        buf[k++] = i < filled ? '#' : '.';
    if (k + 1 < len)
        buf[k++] = ']';
    buf[k] = '\0';
}

double mb_progress_left_s(const mb_progress_left_t *in)
{
    size_t done = in->points_done < in->points ? in->points_done : in->points;
    double part_left = in->points ? (double)(in->points - done) / (double)in->points : 0;
    double left_s;
    if (in->own_s >= 0) {
        double own_left_s = fmax(in->own_s - in->bench_elapsed_s, in->own_s * part_left);
        left_s = own_left_s + fmax(in->rest_s, 0);
        if (in->budget_left_s >= 0)
            left_s = fmin(left_s, in->budget_left_s);
    } else {
        if (in->timed == 0)
            return -1;
        double avg_s = in->timed_s / (double)in->timed;
        left_s =
            fmax(avg_s - in->bench_elapsed_s, avg_s * part_left) + avg_s * (double)in->runs_after;
    }
    return fmax(left_s, 0);
}

/* "[i/n] NAME [####....] d/N (F failed)  T elapsed, ~L left  LABEL", cut to the width. */
static void progress_draw(void)
{
    if (progress.mode != MB_PROGRESS_TTY || !progress.in_bench)
        return;
    double now_s = progress.now_s();
    const mb_progress_bench_t *b = &progress.bench;
    char bar[PROGRESS_BAR_CELLS + 3], elapsed[32], left[48] = "", failed[32] = "", line[512];
    mb_progress_bar(bar, sizeof bar, progress.done, b->npoints, PROGRESS_BAR_CELLS);
    mb_progress_duration(elapsed, sizeof elapsed, now_s - progress.began_s);
    mb_progress_left_t in = {
        .bench_elapsed_s = now_s - progress.bench_began_s,
        .points_done = progress.done,
        .points = b->npoints,
        .own_s = b->own_s,
        .rest_s = b->rest_s,
        .budget_left_s = b->budget_end_s > 0 ? fmax(b->budget_end_s - now_s, 0) : -1,
        .timed = progress.timed,
        .timed_s = progress.timed_s,
        .runs_after = b->runs_after,
    };
    double left_s = mb_progress_left_s(&in);
    if (left_s >= 0) {
        char d[32];
        mb_progress_duration(d, sizeof d, left_s);
        snprintf(left, sizeof left, ", ~%s left", d);
    }
    if (progress.failed)
        snprintf(failed, sizeof failed, " (%zu failed)", progress.failed);
    snprintf(line, sizeof line, "[%zu/%zu] %s %s %zu/%zu%s  %s elapsed%s  %s", b->index + 1,
             progress.nbench, progress.name, bar, progress.done, b->npoints, failed, elapsed, left,
             progress.label);
    /* One column short of the width: a full line would wrap on some terminals. */
    size_t cols = progress.columns > 1 ? (size_t)progress.columns - 1 : 1;
    if (strlen(line) > cols)
        line[cols] = '\0';
    fputs("\r\033[K", progress.out);
    fputs(line, progress.out);
    fflush(progress.out);
    progress.line_open = true;
}

void mb_progress_bench_begin(const mb_progress_bench_t *bench)
{
    if (!progress.active)
        return;
    progress_clear();
    progress.bench = *bench;
    snprintf(progress.name, sizeof progress.name, "%s", bench->name);
    progress.bench.name = progress.name;
    progress.label[0] = '\0';
    progress.done = progress.failed = 0;
    progress.bench_began_s = progress.now_s();
    progress.in_bench = true;
    progress_draw();
}

void mb_progress_point_begin(const char *label)
{
    if (!progress.active || !progress.in_bench)
        return;
    snprintf(progress.label, sizeof progress.label, "%s", label ? label : "");
    progress_draw();
}

void mb_progress_point_end(bool failed)
{
    if (!progress.active || !progress.in_bench)
        return;
    progress.done++;
    progress.failed += failed;
    progress_draw();
}

void mb_progress_bench_end(double wall_s)
{
    if (!progress.active || !progress.in_bench)
        return;
    progress_clear();
    const mb_progress_bench_t *b = &progress.bench;
    size_t measured = progress.done - progress.failed;
    char dropped[64] = "";
    if (b->npoints > progress.done)
        snprintf(dropped, sizeof dropped, ", %zu dropped by the budget",
                 b->npoints - progress.done);
    fprintf(progress.out, "mbsuite: [%zu/%zu] %s: %zu point%s measured, %zu failed%s, %.2f s\n",
            b->index + 1, progress.nbench, progress.name, measured, measured == 1 ? "" : "s",
            progress.failed, dropped, wall_s);
    fflush(progress.out);
    progress.in_bench = false;
    progress.timed++;
    progress.timed_s += wall_s;
}

void mb_progress_bench_skipped(size_t index, const char *name, const char *reason)
{
    if (!progress.active)
        return;
    progress_clear();
    progress.in_bench = false;
    fprintf(progress.out, "mbsuite: [%zu/%zu] %s skipped: %s\n", index + 1, progress.nbench, name,
            reason);
    fflush(progress.out);
}

void mb_progress_note(const char *fmt, ...)
{
    FILE *out = progress.active ? progress.out : stderr;
    bool redraw = progress.line_open;
    progress_clear();
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
    if (redraw)
        progress_draw();
}
