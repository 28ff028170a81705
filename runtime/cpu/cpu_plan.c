/* runtime/cpu/cpu_plan.c: how the CPU backend runs a plan (RtBackend.plan, runtime/core/exec.h):
 * its steps' C functions called in order. A model extension brings them compiled (plan->cpu);
 * the JIT's plan brings only kernels_cpu.c (plan->cpu_source), which is compiled here by the
 * system C compiler ($GTC_JIT_CC, default cc; run with fork/execvp, no shell) into the kernel
 * cache directory (runtime/core/kcache.h) and dlopen'd; a cached library is reused across
 * processes. The kernels of one plan are shared by its executors, like the GPU's. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/kcache.h"
#include "../core/exec.h"
#include "cpu.h"
#include "cpu_cc.h"

/* ---- the C compiler for the CPU kernels --------------------------------------------------------- */

static int rmtree_file(const char *dir, const char *name) {
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return unlink(p);
}

static char *read_small_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(8193);
    size_t n = buf ? fread(buf, 1, 8192, f) : 0;
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

const char *rt_cpu_plan_cc(void) {
    const char *cc = getenv("GTC_JIT_CC");
    return cc && *cc ? cc : "cc";
}

/* kernels_cpu.c as a loaded library: from the cache directory when a valid one is there
 * ("cc-cache"), else compiled now ("cc"). NULL after rt_error: RT_EUNSUPPORTED when there is no
 * C compiler, RT_ECOMPILE with the compiler's output when it fails. Only a library that loaded
 * and has the kernel table is moved into the cache: a failed or broken build leaves nothing
 * there (its temporary directory is removed). */
static void *build_kernels(const char *src, const char **how) {
    const char *cc = rt_cpu_plan_cc();
    const char *cflags = rt_cpu_cc_flags(cc);
    char keyflags[256];
    snprintf(keyflags, sizeof keyflags, "cpu-so %s", cflags);
    uint64_t key = rt_kcache_key(src, keyflags, cc, GTC_VERSION); /* the flags below */
    char dir[PATH_MAX], final[PATH_MAX + 32], work[PATH_MAX + 32];
    bool cached = rt_kcache_dir(dir, sizeof dir) == 0;
    if (cached) {
        snprintf(final, sizeof final, "%s/%016llx-cpu.so", dir, (unsigned long long)key);
        struct stat sb;
        if (stat(final, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid()) {
            void *h = dlopen(final, RTLD_NOW | RTLD_LOCAL);
            if (h && dlsym(h, "gtc_cpu_kernels")) {
                *how = "cc-cache";
                return h;
            }
            if (h) dlclose(h);
            unlink(final); /* unusable: rebuild it */
        }
        snprintf(work, sizeof work, "%s/jit-XXXXXX", dir);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(work, sizeof work, "%s/gtc-jit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    }
    if (!mkdtemp(work)) {
        rt_error(RT_ERUNTIME, "cannot create a directory for the CPU kernels (%s): %s", work, strerror(errno));
        return NULL;
    }
    char cpath[PATH_MAX + 64], sopath[PATH_MAX + 64], logpath[PATH_MAX + 64];
    snprintf(cpath, sizeof cpath, "%s/kernels_cpu.c", work);
    snprintf(sopath, sizeof sopath, "%s/kernels_cpu.so", work);
    snprintf(logpath, sizeof logpath, "%s/cc.log", work);
    void *h = NULL;
    FILE *f = fopen(cpath, "wb");
    size_t n = strlen(src);
    bool ok = f && fwrite(src, 1, n, f) == n;
    if (f) ok = fclose(f) == 0 && ok;
    if (!ok) {
        rt_error(RT_ERUNTIME, "cannot write %s", cpath);
        goto done;
    }
    /* rt_cpu_cc_flags, as a model's kernels are built */
    char flags[256], *save = NULL, *argv[24];
    snprintf(flags, sizeof flags, "%s", cflags);
    int na = 0;
    argv[na++] = (char *)cc;
    for (char *w = strtok_r(flags, " ", &save); w && na < 16; w = strtok_r(NULL, " ", &save)) argv[na++] = w;
    char *tail[] = {"-shared", "-fPIC", "-o", sopath, cpath, "-lm", NULL};
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) argv[na++] = tail[i];
    int rc = rt_cpu_cc_run(argv, logpath);
    if (rc == 127) {
        rt_error(RT_EUNSUPPORTED, "no C compiler could be run for the CPU kernels (%s)", cc);
        goto done;
    }
    if (rc != 0) {
        char *log = read_small_file(logpath);
        rt_error(RT_ECOMPILE, "%s failed on the generated CPU kernels (exit %d)%s%s", cc, rc,
                 log && *log ? ": " : " with no output", log ? log : "");
        free(log);
        goto done;
    }
    /* Loaded from the temporary directory first: a compiler that "succeeded" without writing a
     * loadable library must not leave it in the cache for the next process. Renaming the file
     * afterwards keeps the mapping (and a later dlopen of the cached name finds the same one). */
    h = dlopen(sopath, RTLD_NOW | RTLD_LOCAL);
    if (!h || !dlsym(h, "gtc_cpu_kernels")) {
        rt_error(RT_ECOMPILE, "%s did not produce loadable CPU kernels: %s", cc,
                 h ? "the library has no gtc_cpu_kernels" : dlerror());
        if (h) dlclose(h);
        h = NULL;
        goto done;
    }
    if (cached) rename(sopath, final); /* best effort: without it only the next process recompiles */
    *how = "cc";
done:
    rmtree_file(work, "kernels_cpu.c");
    rmtree_file(work, "kernels_cpu.so");
    rmtree_file(work, "cc.log");
    rmdir(work);
    return h;
}


/* ---- the plan operations ------------------------------------------------------------------------ */

typedef struct CpuKernels {
    struct CpuKernels *next;
    const RtPlan *plan;
    int refs;
    const RtCpuKernel *table;
    void *dl;           /* the library built from plan->cpu_source, or NULL */
    const char *source; /* cpu, cc, cc-cache */
    double *prof;       /* GTC_CPU_PROFILE: seconds spent in each step over `runs` runs, or NULL */
    long runs;
} CpuKernels;

/* GTC_CPU_PROFILE=1: each step of a plan run on the CPU is timed, and when the plan's kernels
 * are released (the plan freed, or PHP's shutdown) a table of microseconds per run by step goes
 * to stderr, largest first (docs/cpu.md, "Where the time goes"). For machines without `perf`:
 * what a step costs on the user's compiler and CPU, not only on ours. Values are unchanged; the
 * clock reads cost about 50 ns a step. */
static bool profile_wanted(void) {
    const char *e = getenv("GTC_CPU_PROFILE");
    return e && *e && strcmp(e, "0") != 0;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void profile_print(const CpuKernels *k) {
    const RtPlan *p = k->plan;
    if (!k->prof || k->runs < 1) return;
    int *order = malloc((size_t)p->nsteps * sizeof *order);
    if (!order) return;
    double total = 0;
    for (int s = 0; s < p->nsteps; s++) order[s] = s, total += k->prof[s];
    for (int i = 1; i < p->nsteps; i++) /* insertion sort, largest first: a few dozen steps */
        for (int j = i; j > 0 && k->prof[order[j]] > k->prof[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    fprintf(stderr, "gtc: cpu profile of plan %s: %ld runs, %.1f us per run\n", p->graph, k->runs, total / (double)k->runs * 1e6);
    for (int i = 0; i < p->nsteps; i++) {
        const int s = order[i];
        const RtPlanStep *st = &p->steps[s];
        fprintf(stderr, "  step %3d %10.1f us %5.1f%%  %s: %s -> %s\n", s, k->prof[s] / (double)k->runs * 1e6,
                total > 0 ? 100 * k->prof[s] / total : 0.0, st->ops ? st->ops : "", st->reads ? st->reads : "",
                st->writes ? st->writes : "");
    }
    free(order);
}

static CpuKernels *g_kernels;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static void *cpu_kernels_get(const RtPlan *p) {
    pthread_mutex_lock(&g_lock);
    CpuKernels *k;
    for (k = g_kernels; k; k = k->next)
        if (k->plan == p) {
            k->refs++;
            pthread_mutex_unlock(&g_lock);
            return k;
        }
    if (!(k = calloc(1, sizeof *k))) {
        pthread_mutex_unlock(&g_lock);
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    k->plan = p;
    k->refs = 1;
    if (p->cpu) {
        k->table = p->cpu;
        k->source = "cpu";
    } else if (p->cpu_source) {
        k->dl = build_kernels(p->cpu_source, &k->source);
        if (k->dl) k->table = (const RtCpuKernel *)dlsym(k->dl, "gtc_cpu_kernels");
    } else {
        rt_error(RT_EUNSUPPORTED, "plan %s has no code for the cpu backend", p->graph);
    }
    if (!k->table) {
        if (k->dl) dlclose(k->dl);
        free(k);
        pthread_mutex_unlock(&g_lock);
        return NULL;
    }
    if (profile_wanted()) k->prof = calloc((size_t)p->nsteps + 1, sizeof *k->prof); /* none: not profiled */
    k->next = g_kernels;
    g_kernels = k;
    pthread_mutex_unlock(&g_lock);
    return k;
}

static const char *cpu_kernels_source(const void *k) { return ((const CpuKernels *)k)->source; }
static const char *cpu_plan_source(const RtPlan *p) { return p->cpu_source; }

static void cpu_kernels_release(void *kv) {
    CpuKernels *k = kv;
    pthread_mutex_lock(&g_lock);
    if (--k->refs == 0) {
        for (CpuKernels **pp = &g_kernels; *pp; pp = &(*pp)->next)
            if (*pp == k) {
                *pp = k->next;
                break;
            }
        profile_print(k);
        free(k->prof);
        if (k->dl) dlclose(k->dl);
        free(k);
    }
    pthread_mutex_unlock(&g_lock);
}

static int cpu_plan_run(void **state, const RtPlan *p, void *kv, const void *args, size_t nbytes) {
    (void)state, (void)nbytes;
    CpuKernels *k = kv;
    if (!k->prof) {
        for (int s = 0; s < p->nsteps; s++) k->table[s](args);
        return 0;
    }
    double t = now_s(), *took = malloc((size_t)p->nsteps * sizeof *took);
    for (int s = 0; s < p->nsteps; s++) {
        k->table[s](args);
        const double u = now_s();
        if (took) took[s] = u - t;
        t = u;
    }
    if (took) { /* added under the lock: executors of one plan may run on several threads */
        pthread_mutex_lock(&g_lock);
        for (int s = 0; s < p->nsteps; s++) k->prof[s] += took[s];
        k->runs++;
        pthread_mutex_unlock(&g_lock);
        free(took);
    }
    return 0;
}

static void cpu_plan_state_free(void *state) { (void)state; }

const RtPlanOps rt_cpu_plan_ops = {
    .runner = "cpu",
    .kernels_get = cpu_kernels_get,
    .kernels_source = cpu_kernels_source,
    .kernels_release = cpu_kernels_release,
    .run = cpu_plan_run,
    .state_free = cpu_plan_state_free,
    .plan_source = cpu_plan_source,
};
