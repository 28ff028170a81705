/* compiler/launch.c: `gtc run -n N script.php [args]`, the data-parallel launcher (docs/distributed.md):
 * starts N php processes on this machine with the environment torchrun gives its workers (RANK,
 * WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE) and GTC_DIST_DIR, a fresh folder where the ranks
 * meet (Cuda\Distributed::init), removed at the end. When one rank fails (a non-zero exit or a
 * signal) the others get SIGTERM, then SIGKILL after a grace period, and the launcher exits with
 * that rank's status, naming it; SIGINT, SIGTERM and SIGHUP sent to the launcher go to every rank. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"

extern char **environ;

#define LAUNCH_MAX_RANKS 512
#define LAUNCH_MAX_DEFINES 64

static volatile sig_atomic_t g_signal; /* the last SIGINT / SIGTERM / SIGHUP received */

static void on_signal(int sig) { g_signal = sig; }

static void launch_usage(FILE *f) {
    fprintf(f, "usage: gtc run -n N [--php=PATH] [-d KEY=VALUE ...] [--] SCRIPT.php [ARGS...]\n\n"
               "Starts N PHP processes running SCRIPT.php (one per GPU: rank r uses CUDA device r), each with\n"
               "RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE and GTC_DIST_DIR set, for Cuda\\Distributed::init().\n"
               "  -n N, --nproc=N   the number of ranks, 1 to %d\n"
               "  --php=PATH        the PHP binary (default: $PHP, else php on PATH)\n"
               "  -d KEY=VALUE      an INI setting passed to every php (e.g. -d extension=gtc.so); repeatable\n"
               "When a rank fails the others are stopped (SIGTERM, then SIGKILL after GTC_RUN_GRACE seconds,\n"
               "default 10) and gtc run exits with its status. docs/distributed.md has the details.\n",
            LAUNCH_MAX_RANKS);
}

/* "-n 4", "-n4", "--nproc 4", "--nproc=4": a whole number from 1 to LAUNCH_MAX_RANKS. */
static int parse_ranks(const char *v, int *n) {
    char *end;
    errno = 0;
    long x = v && *v >= '0' && *v <= '9' ? strtol(v, &end, 10) : -1;
    if (x < 1 || x > LAUNCH_MAX_RANKS || errno || *end) {
        fprintf(stderr, "gtc run: -n takes a whole number of ranks from 1 to %d, \"%s\" given\n", LAUNCH_MAX_RANKS,
                v ? v : "");
        return -1;
    }
    *n = (int)x;
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The environment of rank r: the launcher's, less the variables it sets, plus them. */
static char **rank_env(int r, int n, const char *dir) {
    static const char *const ours[] = {"RANK=", "WORLD_SIZE=", "LOCAL_RANK=", "LOCAL_WORLD_SIZE=", "GTC_DIST_DIR="};
    size_t count = 0;
    while (environ[count]) count++;
    char **env = calloc(count + 6, sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        bool skip = false;
        for (size_t j = 0; j < sizeof ours / sizeof *ours; j++)
            skip |= !strncmp(environ[i], ours[j], strlen(ours[j]));
        if (!skip) env[k++] = environ[i];
    }
    char buf[5][4200];
    snprintf(buf[0], sizeof buf[0], "RANK=%d", r);
    snprintf(buf[1], sizeof buf[1], "WORLD_SIZE=%d", n);
    snprintf(buf[2], sizeof buf[2], "LOCAL_RANK=%d", r); /* one machine: local = global */
    snprintf(buf[3], sizeof buf[3], "LOCAL_WORLD_SIZE=%d", n);
    snprintf(buf[4], sizeof buf[4], "GTC_DIST_DIR=%s", dir);
    for (int j = 0; j < 5; j++)
        if (!(env[k++] = strdup(buf[j]))) return NULL; /* out of memory: the launcher gives up */
    return env;
}

/* Frees rank_env's array and the five strings it made (the last five). */
static void free_env(char **env) {
    if (!env) return;
    size_t n = 0;
    while (env[n]) n++;
    for (size_t i = n >= 5 ? n - 5 : 0; i < n; i++) free(env[i]);
    free(env);
}

/* Empties and removes the rendezvous folder (it holds plain files only: nccl-id). */
static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4400];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* Sends sig to every rank still running. */
static void signal_ranks(const pid_t *pids, int n, int sig) {
    for (int r = 0; r < n; r++)
        if (pids[r] > 0) kill(pids[r], sig);
}

/* The status a shell would give for a wait status: the exit code, or 128 + the signal. */
static int shell_status(int st) { return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st); }

int launch_main(int argc, char **argv) {
    int n = 0, ndef = 0, a = 1;
    const char *php = getenv("PHP"), *defs[LAUNCH_MAX_DEFINES];
    if (!php || !*php) php = "php";
    for (; a < argc; a++) {
        const char *s = argv[a];
        if (!strcmp(s, "--")) {
            a++;
            break;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            launch_usage(stdout);
            return 0;
        } else if (!strcmp(s, "-n") || !strcmp(s, "--nproc")) {
            if (parse_ranks(a + 1 < argc ? argv[++a] : NULL, &n)) return 2;
        } else if (!strncmp(s, "--nproc=", 8) || (!strncmp(s, "-n", 2) && s[2])) {
            if (parse_ranks(s + (s[1] == '-' ? 8 : 2 + (s[2] == '=')), &n)) return 2;
        } else if (!strncmp(s, "--php=", 6) || (!strcmp(s, "--php") && a + 1 < argc)) {
            php = s[5] == '=' ? s + 6 : argv[++a];
        } else if (!strcmp(s, "-d") || (!strncmp(s, "-d", 2) && s[2])) {
            const char *v = s[2] ? s + 2 : a + 1 < argc ? argv[++a] : NULL;
            if (!v || !strchr(v, '=') || ndef == LAUNCH_MAX_DEFINES) {
                fprintf(stderr, "gtc run: -d takes KEY=VALUE (at most %d of them)\n", LAUNCH_MAX_DEFINES);
                return 2;
            }
            defs[ndef++] = v;
        } else if (s[0] == '-') {
            fprintf(stderr, "gtc run: unknown option '%s'\n", s);
            launch_usage(stderr);
            return 2;
        } else {
            break;
        }
    }
    if (!n) {
        fprintf(stderr, "gtc run: -n N (the number of ranks) is required\n");
        launch_usage(stderr);
        return 2;
    }
    if (a >= argc || !*argv[a]) {
        fprintf(stderr, "gtc run: expects the PHP script to run\n");
        launch_usage(stderr);
        return 2;
    }
    const char *script = argv[a];
    if (access(script, R_OK)) {
        fprintf(stderr, "gtc run: cannot read %s: %s\n", script, strerror(errno));
        return 2;
    }
    if (!*php) {
        fprintf(stderr, "gtc run: --php names no program\n");
        return 2;
    }
    double grace = 10;
    const char *g = getenv("GTC_RUN_GRACE");
    if (g && *g) {
        char *end;
        grace = strtod(g, &end);
        if (*end || !(grace >= 0 && grace <= 3600)) {
            fprintf(stderr, "gtc run: GTC_RUN_GRACE=\"%.40s\" is not a number of seconds from 0 to 3600\n", g);
            return 2;
        }
    }

    /* php [-d KEY=VALUE ...] SCRIPT ARGS... */
    int nargs = 1 + 2 * ndef + (argc - a);
    char **args = calloc((size_t)nargs + 1, sizeof *args);
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    if (!args || !pids) {
        fprintf(stderr, "gtc run: out of memory\n");
        return 1;
    }
    int k = 0;
    args[k++] = (char *)php;
    for (int i = 0; i < ndef; i++) args[k++] = "-d", args[k++] = (char *)defs[i];
    for (int i = a; i < argc; i++) args[k++] = argv[i];

    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/gtc-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gtc run: cannot create the rendezvous folder %s: %s\n", dir, strerror(errno));
        return 1;
    }

    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: waits wake on a signal */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    int live = 0, failed = -1, fail_status = 0, result = 0;
    for (int r = 0; r < n; r++) {
        char **env = rank_env(r, n, dir);
        int e = env ? posix_spawnp(&pids[r], php, NULL, NULL, args, env) : ENOMEM;
        free_env(env);
        if (e) {
            fprintf(stderr, "gtc run: cannot start rank %d (%s): %s\n", r, php, strerror(e));
            pids[r] = 0;
            result = 127;
            signal_ranks(pids, r, SIGTERM);
            break;
        }
        live++;
    }

    double deadline = -1; /* when the stopped ranks get SIGKILL */
    int forwarded = 0;
    while (live > 0) {
        if (g_signal && g_signal != forwarded) { /* the launcher was asked to stop: so are the ranks */
            forwarded = g_signal;
            signal_ranks(pids, n, forwarded);
            if (deadline < 0) deadline = now_s() + grace;
        }
        if (deadline >= 0 && now_s() > deadline) {
            signal_ranks(pids, n, SIGKILL);
            deadline = now_s() + 3600;
        }
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p < 0 && errno == ECHILD) break;
        if (p <= 0) {
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        int r = 0;
        while (r < n && pids[r] != p) r++;
        if (r == n) continue;
        pids[r] = 0;
        live--;
        bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        if (!ok && failed < 0 && !forwarded && !result) { /* the first failure stops the others */
            failed = r, fail_status = st;
            if (WIFEXITED(st))
                fprintf(stderr, "gtc run: rank %d exited with status %d; stopping the other ranks\n", r, WEXITSTATUS(st));
            else
                fprintf(stderr, "gtc run: rank %d was killed by signal %d (%s); stopping the other ranks\n", r,
                        WTERMSIG(st), strsignal(WTERMSIG(st)));
            signal_ranks(pids, n, SIGTERM);
            deadline = now_s() + grace;
        }
    }
    remove_dir(dir);
    free(args);
    free(pids);
    if (result) return result;
    if (forwarded) {
        fprintf(stderr, "gtc run: stopped by signal %d (%s)\n", forwarded, strsignal(forwarded));
        return 128 + forwarded;
    }
    return failed >= 0 ? shell_status(fail_status) : 0;
}
