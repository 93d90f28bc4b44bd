#include "progress.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "sim.h"
#include "ssd.h"
#include "workload.h"

static volatile sig_atomic_t due;

static void on_alarm(int sig)
{
    (void)sig;
    due = 1;
}

/* First line after `first` microseconds, then one every `every`. */
static void set_timer(long first, long every)
{
    struct itimerval t = {{every / 1000000, every % 1000000}, {first / 1000000, first % 1000000}};
    setitimer(ITIMER_REAL, &t, NULL);
}

static void format_duration(char *out, size_t len, double s)
{
    if (s < 0 || s > 99 * 3600) snprintf(out, len, "--:--");
    else if (s >= 3600) snprintf(out, len, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
    else snprintf(out, len, "%d:%02d", (int)s / 60, (int)s % 60);
}

static void draw(void *ctx)
{
    progress *p = ctx;
    double now = cli_wall_seconds(), dt = now - p->last_wall;
    uint64_t submitted = ssd_submitted(p->d);
    if (dt > 0) {
        double r = (double)(submitted - p->last_submitted) / dt;
        p->rate = p->rate > 0 ? 0.7 * p->rate + 0.3 * r : r;
    }
    p->last_wall = now;
    p->last_submitted = submitted;
    double f = p->w ? workload_progress(p->w) : -1;
    char done[32] = "", eta[32] = "--:--";
    if (f >= 0) {
        snprintf(done, sizeof done, "  %5.1f%%", 100 * f);
        if (f > 0.001) format_duration(eta, sizeof eta, (now - p->phase_wall0) * (1 - f) / f);
    }
    fprintf(stderr, "\r\033[K[phase %zu/%zu] simulated %.3f s%s  %.2f M I/O/s  ETA %s", p->phase + 1, p->phases,
            sim_time_to_sec(sim_now(p->s)), done, p->rate / 1e6, eta);
    fflush(stderr);
}

void progress_begin(progress *p, sim *s, ssd *d, bool wanted)
{
    memset(p, 0, sizeof *p);
    p->on = wanted && isatty(STDERR_FILENO);
    if (!p->on) return;
    p->s = s;
    p->d = d;
    p->last_wall = cli_wall_seconds();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART; /* the timer must not break the program's reads and writes */
    sigaction(SIGALRM, &sa, NULL);
    sim_on_flag(s, &due, draw, p);
    set_timer(250000, 500000);
}

void progress_phase(progress *p, const workload *w, size_t index, size_t count)
{
    if (!p->on) return;
    p->w = w;
    p->phase = index;
    p->phases = count;
    p->phase_wall0 = p->last_wall = cli_wall_seconds();
    p->last_submitted = ssd_submitted(p->d);
    p->rate = 0;
}

void progress_note(progress *p, const char *what)
{
    if (!p->on) return;
    fprintf(stderr, "\r\033[K%s ...", what);
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (!p->on) return;
    set_timer(0, 0);
    sim_on_flag(p->s, NULL, NULL, NULL);
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->on = false;
}
