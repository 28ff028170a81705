/* runtime/cpu/cpu_threads.c: the CPU backend's one thread count and its BLAS: how many threads
 * (GTC_CPU_THREADS, else gtc.cpu_threads, else the physical cores), OpenBLAS's kernel (a generic
 * fallback on a CPU its build does not know is corrected from cpuid), OpenBLAS's threads, and
 * the line `gtc --version` and phpinfo() print. The eager loops (cpu_backend.c's cpu_run) and
 * the generated kernels (OpenMP pragmas) run on OpenMP's pool with this count; OpenBLAS's OpenMP
 * build shares that pool and runs single-threaded inside a parallel region, so nothing is
 * oversubscribed (docs/cpu.md). */
#include <cblas.h>
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/rt.h"

#define CPU_MAX_THREADS 1024

/* ---- the physical cores ------------------------------------------------------------------------- */

static int read_int_file(const char *path) {
    FILE *f = fopen(path, "r");
    int v = -1;
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = -1;
        fclose(f);
    }
    return v;
}

/* The physical cores among the CPUs this process may run on: distinct (package, core) pairs of
 * sysfs's topology; the CPU count where sysfs says nothing. Hyperthreads share a core's FPUs, so
 * a second thread per core only adds contention to GEMM and vector loops. */
int rt_cpu_physical_cores(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int ncpu = CPU_COUNT(&set), n = 0;
    static long seen[CPU_SETSIZE];
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set)) continue;
        char p[128];
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
        int core = read_int_file(p);
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
        int pkg = read_int_file(p);
        if (core < 0 || pkg < 0) return ncpu > 0 ? ncpu : 1;
        long key = (long)pkg << 32 | (unsigned)core;
        bool dup = false;
        for (int i = 0; i < n && !dup; i++) dup = seen[i] == key;
        if (!dup) seen[n++] = key;
    }
    return n > 0 ? n : 1;
}

/* ---- the thread count --------------------------------------------------------------------------- */

/* "auto" (or empty) is the physical cores; otherwise a decimal integer in [1, 1024]. 0 and the
 * value in *n, or -1 with a sentence in err (without the setting's name: the caller adds it). */
int rt_cpu_threads_parse(const char *s, int *n, char *err, size_t errn) {
    if (!s || !*s || !strcasecmp(s, "auto")) {
        *n = rt_cpu_physical_cores();
        return 0;
    }
    long v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9' && v <= CPU_MAX_THREADS; p++) v = v * 10 + (*p - '0');
    if (p == s || *p || v < 1 || v > CPU_MAX_THREADS) {
        snprintf(err, errn, "\"%.40s\" is not a thread count (auto, or an integer from 1 to %d)", s, CPU_MAX_THREADS);
        return -1;
    }
    *n = (int)v;
    return 0;
}

static int g_threads;                /* 0 until rt_cpu_init */
static const char *g_threads_from = "physical cores";
static char g_env_error[160];        /* GTC_CPU_THREADS's complaint, "" when it is fine */

/* Applies n to OpenMP's pool (the eager loops, the generated kernels, and an OpenMP OpenBLAS)
 * and to OpenBLAS's own pool when it has one. */
static void apply_threads(int n) {
    g_threads = n;
    omp_set_num_threads(n);
    openblas_set_num_threads(n);
}

/* ---- OpenBLAS's kernel -------------------------------------------------------------------------- */

/* How capable an OpenBLAS core name is on x86-64: 3 AVX-512, 2 AVX2+FMA, 1 AVX, 0 older or not
 * x86 (the names are OpenBLAS's, driver/others/dynamic.c). */
static int core_rank(const char *name) {
    static const char *const r3[] = {"SkylakeX", "Cooperlake", "SapphireRapids"};
    static const char *const r2[] = {"Haswell", "Zen"};
    for (size_t i = 0; i < sizeof r3 / sizeof *r3; i++)
        if (!strcasecmp(name, r3[i])) return 3;
    for (size_t i = 0; i < sizeof r2 / sizeof *r2; i++)
        if (!strcasecmp(name, r2[i])) return 2;
    return !strcasecmp(name, "Sandybridge") ? 1 : 0;
}

/* The best OpenBLAS core this CPU runs (cpuid through the compiler's builtins), NULL when none
 * beats the generic kernels. */
static const char *best_core(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
    if (__builtin_cpu_supports("avx")) return "Sandybridge";
#endif
    return NULL;
}

static char g_core_from[32]; /* the generic core OpenBLAS had picked, when gtc changed it */

/* Re-selects OpenBLAS's kernel table as OPENBLAS_CORETYPE=core would have at load time, through
 * the entry points of a DYNAMIC_ARCH build (gotoblas_dynamic_quit/init; looked up in the library
 * that serves cblas_sgemm, so a build without them is simply left alone). Only before or
 * between BLAS calls: rt_cpu_init runs it once, before any. 0, or -1 when not possible. */
int rt_cpu_blas_select_core(const char *core) {
    Dl_info di;
    void *h = dladdr((void *)cblas_sgemm, &di) && di.dli_fname ? dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    void (*quit)(void) = h ? (void (*)(void))dlsym(h, "gotoblas_dynamic_quit") : NULL;
    void (*init)(void) = h ? (void (*)(void))dlsym(h, "gotoblas_dynamic_init") : NULL;
    if (h) dlclose(h);
    if (!quit || !init) return -1;
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old ? strdup(old) : NULL;
    setenv("OPENBLAS_CORETYPE", core, 1);
    quit();
    init();
    if (saved) setenv("OPENBLAS_CORETYPE", saved, 1);
    else unsetenv("OPENBLAS_CORETYPE");
    free(saved);
    return strcasecmp(openblas_get_corename(), core) ? -1 : 0;
}

/* Corrects a generic fallback: when OpenBLAS's kernel is less capable than the CPU (0.3.21 does
 * not know Sapphire Rapids and runs "Prescott" there, a quarter of the speed), selects the best
 * one the CPU supports, unless the user chose one with OPENBLAS_CORETYPE. Returns true when it
 * changed the kernel. */
bool rt_cpu_blas_tune(void) {
    const char *user = getenv("OPENBLAS_CORETYPE");
    const char *best = best_core(), *cur = openblas_get_corename();
    if ((user && *user) || !best || !cur || core_rank(cur) >= core_rank(best)) return false;
    char from[32];
    snprintf(from, sizeof from, "%s", cur);
    if (rt_cpu_blas_select_core(best) != 0) return false;
    snprintf(g_core_from, sizeof g_core_from, "%s", from);
    return true;
}

/* ---- start-up and reporting --------------------------------------------------------------------- */

/* OpenMP's runtime stays loaded to the end of the process: its idle pool threads run its code,
 * and PHP unloads gtc.so (its only user, the last reference) at shutdown, which would unmap
 * the code under them (a crash at exit, seen with the PIE build). */
static void pin_openmp(void) {
    Dl_info di;
    if (dladdr((void *)omp_get_max_threads, &di) && di.dli_fname)
        (void)dlopen(di.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE); /* never closed */
}

static void init_once(void) {
    pin_openmp();
    rt_cpu_blas_tune();
    int n = 0;
    const char *env = getenv("GTC_CPU_THREADS");
    char err[128];
    if (env && *env) {
        if (rt_cpu_threads_parse(env, &n, err, sizeof err) == 0) {
            g_threads_from = "GTC_CPU_THREADS";
        } else {
            snprintf(g_env_error, sizeof g_env_error, "GTC_CPU_THREADS=%s", err);
            n = 0;
        }
    }
    if (!n) n = rt_cpu_physical_cores();
    apply_threads(n);
}

/* Once per process, before the first BLAS call or parallel loop: the kernel correction and the
 * thread count from GTC_CPU_THREADS (or the physical cores). */
void rt_cpu_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_once);
}

int rt_cpu_threads(void) {
    if (!g_threads) rt_cpu_init();
    return g_threads;
}

/* A setting's thread count (gtc.cpu_threads: "auto" or 1..1024). GTC_CPU_THREADS, when set,
 * wins (as GTC_DEVICE wins over gtc.device): the call then changes nothing. 0, or -1 with err. */
int rt_cpu_set_threads(const char *value, const char *source, char *err, size_t errn) {
    int n;
    rt_cpu_init();
    if (rt_cpu_threads_parse(value, &n, err, errn) != 0) return -1;
    const char *env = getenv("GTC_CPU_THREADS");
    if (env && *env) return 0;
    g_threads_from = !value || !*value || !strcasecmp(value, "auto") ? "physical cores" : source;
    apply_threads(n);
    return 0;
}

/* GTC_CPU_THREADS's complaint ("GTC_CPU_THREADS=... is not a thread count ..."), NULL when the
 * variable is unset or valid: the PHP module throws it on first use of a device. */
const char *rt_cpu_threads_error(void) {
    rt_cpu_init();
    return g_env_error[0] ? g_env_error : NULL;
}

/* "OpenBLAS 0.3.21 (openmp), kernel SkylakeX (corrected from Prescott), 16 threads (physical
 * cores)": what `gtc --version` and phpinfo() print. */
const char *rt_cpu_blas_info(char *buf, size_t n) {
    rt_cpu_init();
    const char *cfg = openblas_get_config(), *ver = cfg;
    if (!strncmp(ver, "OpenBLAS ", 9)) ver += 9;
    int vl = (int)strcspn(ver, " ");
    int par = openblas_get_parallel();
    char from[64] = "";
    if (g_core_from[0]) snprintf(from, sizeof from, " (corrected from %s)", g_core_from);
    snprintf(buf, n, "OpenBLAS %.*s (%s), kernel %s%s, %d thread%s (%s)", vl, ver,
             par == 2 ? "openmp" : par == 1 ? "pthreads" : "sequential", openblas_get_corename(), from,
             g_threads, g_threads == 1 ? "" : "s", g_threads_from);
    return buf;
}
