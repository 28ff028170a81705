/* runtime/cpu/cpu_cc.c: the C compiler that builds CPU kernels, for `gtc compile` (compiler/
 * build.c) and the JIT (cpu_plan.c) alike: how it is run, and which flags it gets, so that a
 * model and a JIT plan of one graph are compiled the same way. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/plan_abi.h"
#include "cpu_cc.h"

int rt_cpu_cc_run(char *const argv[], const char *logpath) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Whether `cc --version` names GCC (its first line: "gcc (Debian 12.2.0-14) 12.2.0", "cc
 * (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0", with "Free Software Foundation" below); clang says
 * "clang version", and rejects GCC's flags it does not know. A compiler that cannot be run is
 * not GCC: its own run reports it. */
static int cc_is_gcc(const char *cc) {
    const char *tmp = getenv("TMPDIR");
    char log[4096];
    snprintf(log, sizeof log, "%s/gtc-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(log);
    if (fd < 0) return 0;
    close(fd);
    char *argv[] = {(char *)cc, "--version", NULL};
    int gcc = 0;
    if (rt_cpu_cc_run(argv, log) == 0) {
        FILE *f = fopen(log, "rb");
        char buf[2048];
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f) fclose(f);
        buf[n] = 0;
        gcc = !strstr(buf, "clang") && strstr(buf, "Free Software Foundation") != NULL;
    }
    unlink(log);
    return gcc;
}

/* One compiler's answer is kept (the JIT asks before every build, with the same cc). */
const char *rt_cpu_cc_flags(const char *cc) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char last[4096];
    static int last_gcc;
    pthread_mutex_lock(&lock);
    if (!last[0] || strcmp(last, cc) != 0) {
        last_gcc = cc_is_gcc(cc);
        snprintf(last, sizeof last, "%s", cc);
    }
    const int gcc = last_gcc;
    pthread_mutex_unlock(&lock);
    return gcc ? RT_CPU_KERNEL_CFLAGS " " RT_CPU_KERNEL_CFLAGS_GCC : RT_CPU_KERNEL_CFLAGS;
}
