/* tests/gpu/test_plan_nvrtc.c: the JIT fallback's compiler half, no GPU needed: every kernels.cu
 * named on the command line goes through rt_plan_nvrtc_compile (runtime/cuda/cuda_plan_jit.cu,
 * the exact call the executor makes on a GPU without a cubin) for sm_90 (a cubin: an ELF image
 * holding every gtc_kN the text defines) and compute_90 (PTX with a .entry for each); a broken
 * program fails with RT_ECOMPILE, a one-line reason and NVRTC's log.
 *   test_plan_nvrtc FILE.cu...        (tests/gpu/plan_jit.sh --build passes the generated ones)
 * Prints "ok"/"not ok" lines and "N passed, N failed"; exits 1 when anything failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/rt.h"
#include "../../runtime/cuda/rt_plan_jit.h"

static int passed, failed;

static void check(int ok, const char *what, const char *detail) {
    ok ? passed++ : failed++;
    printf("%s - %s%s%s\n", ok ? "ok" : "not ok", what, ok || !detail ? "" : ": ", ok || !detail ? "" : detail);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) free(s), s = NULL;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

static int contains(const void *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp((const char *)hay + i, needle, k)) return 1;
    return 0;
}

/* The kernels a kernels.cu defines: `extern "C" __global__ void ... gtc_kN(` */
static int kernel_names(const char *src, char names[][32], int max) {
    int n = 0;
    for (const char *p = strstr(src, "__global__"); p && n < max; p = strstr(p + 1, "__global__")) {
        const char *k = strstr(p, " gtc_k"), *eol = strchr(p, '\n');
        if (!k || (eol && k > eol)) continue;
        k++;
        size_t len = strcspn(k, "(");
        if (len >= 32) continue;
        memcpy(names[n], k, len);
        names[n++][len] = 0;
    }
    return n;
}

static void one_file(const char *path) {
    char what[600], detail[1200];
    char *src = slurp(path);
    snprintf(what, sizeof what, "%s is readable", path);
    if (!src) return check(0, what, "cannot read it");
    char names[512][32];
    int nk = kernel_names(src, names, 512);
    static const char *const archs[] = {"sm_90", "compute_90"};
    for (int a = 0; a < 2; a++) {
        void *img = NULL;
        size_t n = 0;
        char *log = NULL;
        int rc = rt_plan_nvrtc_compile(src, "kernels.cu", archs[a], &img, &n, &log);
        snprintf(what, sizeof what, "%s: NVRTC compiles it for %s (%d kernels)", path, archs[a], nk);
        snprintf(detail, sizeof detail, "%s | %.800s", rt_message(), log ? log : "");
        check(rc == 0 && img && n > 0, what, detail);
        if (rc == 0 && img) {
            int ok = a == 0 ? n > 4 && !memcmp(img, "\x7f" "ELF", 4) : ((char *)img)[n - 1] == 0;
            const char *missing = NULL;
            for (int k = 0; k < nk && !missing; k++) {
                char entry[48];
                snprintf(entry, sizeof entry, ".entry %.31s(", names[k]);
                if (!contains(img, n, a == 0 ? names[k] : entry)) missing = names[k];
            }
            snprintf(what, sizeof what, "%s: the %s image is %s and holds every gtc_kN", path, archs[a],
                     a == 0 ? "an ELF cubin" : "NUL-terminated PTX");
            snprintf(detail, sizeof detail, "%s%.31s", ok ? "" : "wrong image format; ", missing ? missing : "");
            check(ok && !missing && nk > 0, what, detail);
        }
        free(img);
        free(log);
    }
    free(src);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) one_file(argv[i]);
    /* a program NVRTC rejects: RT_ECOMPILE, the first error in the message, the log returned */
    void *img = (void *)1;
    size_t n = 1;
    char *log = NULL;
    rt_clear_error();
    int rc = rt_plan_nvrtc_compile("extern \"C\" __global__ void gtc_k0() { undefined_thing(); }\n", "bad.cu",
                                   "sm_90", &img, &n, &log);
    check(rc == -1 && rt_status() == RT_ECOMPILE && !img && n == 0, "a broken kernels.cu fails with RT_ECOMPILE",
          rt_message());
    check(strstr(rt_message(), "bad.cu") && strstr(rt_message(), "undefined_thing"),
          "the message names the file and the first error", rt_message());
    check(log && strstr(log, "undefined_thing"), "NVRTC's log comes back", log ? log : "(none)");
    free(log);
    rt_clear_error();
    rc = rt_plan_nvrtc_compile("extern \"C\" __global__ void gtc_k0() {}\n", "tiny.cu", "sm_1", &img, &n, NULL);
    check(rc == -1 && rt_status() == RT_ECOMPILE, "an architecture NVRTC does not know fails cleanly", rt_message());
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
