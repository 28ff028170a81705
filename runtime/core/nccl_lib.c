/* runtime/core/nccl_lib.c: NCCL, the collective library of data-parallel runs on CUDA, loaded at
 * run time (dlopen) so that gtc.so and gtc load where it is missing. Plain C and no NCCL header:
 * the CUDA backend's collectives (runtime/cuda/cuda_nccl.cu) take their functions from here
 * with nccl.h's types; `gtc --version` and phpinfo() report what loads. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "dynlib.h"

static void *g_lib;
static int g_tried;
static char g_why[512], g_path[4096];

/* GTC_NCCL_LIBRARY (a path) when set, else the soname the loader finds; loaded once. */
void *rt_nccl_library(char *why, size_t wn) {
    if (!g_tried) {
        g_tried = 1;
        const char *name = NULL;
        g_lib = rt_dynlib_open("GTC_NCCL_LIBRARY", "libnccl.so.2", &name, g_why, sizeof g_why);
        snprintf(g_path, sizeof g_path, "%s", name);
        if (g_lib && (!dlsym(g_lib, "ncclGetVersion") || !dlsym(g_lib, "ncclCommInitRank"))) {
            snprintf(g_why, sizeof g_why, "%s is not NCCL (no ncclGetVersion / ncclCommInitRank)", name);
            dlclose(g_lib);
            g_lib = NULL;
        }
    }
    if (!g_lib && why) snprintf(why, wn, "%s", g_why);
    return g_lib;
}

const char *rt_nccl_library_name(void) { return g_path; }

/* ncclGetVersion's code as "major.minor.patch" (codes of 2.9 and later are X*10000 + Y*100 + Z,
 * earlier ones X*1000 + Y*100 + Z). */
int rt_nccl_probe(char *ver, size_t vn, char *why, size_t wn) {
    void *lib = rt_nccl_library(why, wn);
    if (!lib) return 0;
    int (*get_version)(int *) = (int (*)(int *))dlsym(lib, "ncclGetVersion");
    int code = 0;
    if (get_version(&code) != 0 || code <= 0) {
        snprintf(why, wn, "ncclGetVersion failed");
        return 0;
    }
    int major = code >= 10000 ? code / 10000 : code / 1000;
    int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
    snprintf(ver, vn, "%d.%d.%d", major, minor, code % 100);
    return 1;
}
