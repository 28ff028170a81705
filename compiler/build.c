/* compiler/build.c: `gtc compile`: loads a graph, runs the pass pipeline, writes the generated
 * sources (emit_all + emit_ext) and builds them into one PHP extension with nvcc and cc.
 *
 * Tools run through fork/execv with argument vectors (never a shell), so no file name can
 * inject a command. Headers come from the gtc source tree the binary was built in, or from an
 * installed prefix (PREFIX/bin/gtc → PREFIX/include/gtc), or from $GTC_HOME (either layout). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "emit.h"
#include "emit_ext.h"
#include "forward.h"
#include "frontend.h"
#include "names.h"
#include "pipeline.h"
#include "../runtime/core/plan_abi.h"
#include "../runtime/cpu/cpu_cc.h"

#define ME "gtc compile"

/* ---- small helpers ----------------------------------------------------------------------------- */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, ME ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A malloc'd printf (aborts on out-of-memory: the driver cannot go on without its strings). */
static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    char *s = NULL;
    if (vasprintf(&s, f, ap) < 0) {
        fprintf(stderr, ME ": out of memory\n");
        exit(1);
    }
    va_end(ap);
    return s;
}

static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_exe(const char *p) { return is_file(p) && access(p, X_OK) == 0; }

/* An argument vector that owns its strings. */
typedef struct {
    char **v;
    int n, cap;
} Args;

static void args_push(Args *a, const char *s) {
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = realloc(a->v, sizeof *a->v * (size_t)a->cap);
        if (!a->v) {
            fprintf(stderr, ME ": out of memory\n");
            exit(1);
        }
    }
    a->v[a->n++] = strdup(s);
    a->v[a->n] = NULL;
}

static void args_free(Args *a) {
    for (int i = 0; i < a->n; i++) free(a->v[i]);
    free(a->v);
    *a = (Args){0};
}

/* Splits on blanks and pushes each word (no quoting: for -I lists and $GTC_CFLAGS). */
static void args_push_words(Args *a, const char *s, bool isystem) {
    while (s && *s) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        size_t n = strcspn(s, " \t\n");
        if (!n) break;
        char *w = strndup(s, n);
        if (isystem && strncmp(w, "-I", 2) == 0 && w[2]) { /* PHP's headers are not -Wextra clean */
            args_push(a, "-isystem");
            args_push(a, w + 2);
        } else {
            args_push(a, w);
        }
        free(w);
        s += n;
    }
}

/* The full path of a program: `name` itself when it has a slash, else the first executable
 * PATH entry. NULL when there is none. */
static char *find_program(const char *name) {
    if (strchr(name, '/')) return is_exe(name) ? strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char *cand = n ? fmt("%.*s/%s", (int)n, path, name) : fmt("./%s", name);
        if (is_exe(cand)) return cand;
        free(cand);
        path += n;
        if (*path == ':') path++;
    }
    return NULL;
}

static void print_command(char *const *argv) {
    fputs("+", stderr);
    for (char *const *p = argv; *p; p++) {
        bool plain = **p && strspn(*p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_./=,:+@%") == strlen(*p);
        if (plain) {
            fprintf(stderr, " %s", *p);
        } else {
            fputs(" '", stderr);
            for (const char *c = *p; *c; c++)
                if (*c == '\'') fputs("'\\''", stderr);
                else fputc(*c, stderr);
            fputc('\'', stderr);
        }
    }
    fputc('\n', stderr);
}

/* Runs argv (argv[0] a full path) with stdout sent to our stderr, or captured into *out when
 * out is given (malloc'd, NUL-terminated). Returns 0 when it exited 0; otherwise says so (the
 * tool's own messages are already on stderr) and returns -1. */
static int run_tool(char *const *argv, const char *what, bool verbose, char **out) {
    if (verbose) print_command(argv);
    int fds[2] = {-1, -1};
    if (out && pipe(fds) != 0) {
        fail("cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fail("cannot start %s: %s", argv[0], strerror(errno));
        if (out) close(fds[0]), close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        if (out) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]), close(fds[1]);
        } else {
            dup2(STDERR_FILENO, STDOUT_FILENO);
        }
        execv(argv[0], argv);
        fprintf(stderr, ME ": cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    size_t len = 0, cap = 0;
    char *buf = NULL;
    if (out) {
        close(fds[1]);
        for (;;) {
            if (len + 4096 > cap) {
                cap = cap ? 2 * cap : 8192;
                char *nb = realloc(buf, cap);
                if (!nb) break;
                buf = nb;
            }
            ssize_t r = read(fds[0], buf + len, cap - len - 1);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            len += (size_t)r;
        }
        close(fds[0]);
        if (buf) buf[len] = 0;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fail("waiting for %s: %s", argv[0], strerror(errno));
            free(buf);
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        if (out) *out = buf ? buf : strdup("");
        return 0;
    }
    free(buf);
    if (WIFSIGNALED(status))
        fail("%s failed: %s was killed by signal %d", what, argv[0], WTERMSIG(status));
    else if (WEXITSTATUS(status) != 127)
        fail("%s failed (%s exited with status %d; its messages are above)", what, argv[0],
             WEXITSTATUS(status));
    else
        fail("%s failed", what);
    return -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir) {
    if (dir) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- where gtc's headers are --------------------------------------------------------------------- */

/* inc: the directory holding ir/, runtime/core/, runtime/php/ (the source root, or
 * PREFIX/include/gtc). Returns 0, or -1 after a message. */
static int find_home(char **inc) {
    const char *env = getenv("GTC_HOME");
    if (env && *env) {
        char *installed = fmt("%s/include/gtc", env), *probe = fmt("%s/ir/ir.h", installed);
        if (is_file(probe)) {
            free(probe);
            *inc = installed;
            return 0;
        }
        free(probe), free(installed);
        probe = fmt("%s/runtime/core/plan_abi.h", env);
        bool src = is_file(probe);
        free(probe);
        if (src) {
            *inc = strdup(env);
            return 0;
        }
        fail("GTC_HOME=%s holds neither include/gtc/ (an installed gtc) nor a gtc source tree", env);
        return -1;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fail("cannot find gtc's own path (/proc/self/exe); set GTC_HOME");
        return -1;
    }
    exe[n] = 0;
    char *dir = strdup(exe);
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) break;
        *slash = 0; /* dir is now the parent */
        char *installed = fmt("%s/include/gtc", dir), *probe = fmt("%s/ir/ir.h", installed);
        if (up == 1 && is_file(probe)) { /* PREFIX/bin/gtc */
            free(probe), free(dir);
            *inc = installed;
            return 0;
        }
        free(probe), free(installed);
        char *p1 = fmt("%s/ir/ir.h", dir), *p2 = fmt("%s/runtime/core/plan_abi.h", dir);
        bool src = is_file(p1) && is_file(p2);
        free(p1), free(p2);
        if (src) { /* the source tree: build/gtc, build/asan/gtc, ... */
            *inc = dir;
            return 0;
        }
    }
    free(dir);
    fail("cannot find gtc's headers near %s (neither a source tree nor PREFIX/include/gtc); "
         "set GTC_HOME", exe);
    return -1;
}

/* ---- tools ------------------------------------------------------------------------------------- */

static char *find_nvcc(const char *given) {
    if (given) {
        char *p = find_program(given);
        if (!p) fail("nvcc not found at %s (--nvcc)", given);
        return p;
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        char *p = fmt("%s/bin/nvcc", home);
        if (is_exe(p)) return p;
        free(p);
    }
    char *p = find_program("nvcc");
    if (!p)
        fail("nvcc not found (looked for $CUDA_HOME/bin/nvcc and PATH); use --nvcc PATH or --cpu-only");
    return p;
}

/* The CUDA library directory next to nvcc (CUDA/bin/nvcc → CUDA/lib64). */
static char *cuda_libdir(const char *nvcc) {
    char real[PATH_MAX];
    if (!realpath(nvcc, real)) snprintf(real, sizeof real, "%s", nvcc);
    char *slash = strrchr(real, '/');
    if (slash) *slash = 0;
    slash = strrchr(real, '/');
    if (slash) *slash = 0;
    else snprintf(real, sizeof real, ".");
    const char *subs[] = {"lib64", "lib", "targets/x86_64-linux/lib"};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        char *p = fmt("%s/%s", real, subs[i]);
        if (is_dir(p)) return p;
        free(p);
    }
    return fmt("%s/lib64", real);
}

/* "sm_90" → 90 (and "sm_90a" → 90 with suffix 'a'); -1 when it is not an sm_NN name. */
static int parse_arch(const char *s, char *suffix) {
    *suffix = 0;
    if (strncmp(s, "sm_", 3) != 0) return -1;
    const char *p = s + 3;
    int v = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 4) v = v * 10 + (*p++ - '0'), digits++;
    if (digits < 2) return -1;
    if (*p >= 'a' && *p <= 'z') *suffix = *p++;
    return *p ? -1 : v;
}

/* ---- the build ----------------------------------------------------------------------------------- */

/* A path as a tool's argument: "./" before one that starts with '-', so that cc, nvcc and the
 * linker never read --emit-dir=-fplugin=x or -o -m.so as an option. Malloc'd. */
static char *arg_path(const char *p) { return p[0] == '-' ? fmt("./%s", p) : strdup(p); }

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Checks the -o path: ends in .so (with a name before it), its directory exists, and it is not
 * a directory itself. */
static int check_output(const char *out) {
    size_t n = strlen(out);
    const char *b = base_name(out);
    if (n < 3 || strcmp(out + n - 3, ".so") != 0 || strlen(b) <= 3) {
        fail("the output '%s' must be a file name ending in .so (-o model.so)", out);
        return -1;
    }
    char *dir = b == out ? strdup(".") : b == out + 1 ? strdup("/") : strndup(out, (size_t)(b - out - 1));
    bool ok = is_dir(dir);
    if (!ok) fail("cannot write '%s': the directory '%s' does not exist", out, dir);
    free(dir);
    if (ok && is_dir(out)) {
        fail("cannot write '%s': it is a directory", out);
        ok = false;
    }
    return ok ? 0 : -1;
}

/* Compiles one generated source into obj/NAME.o; 0 or -1. */
static int compile_c(const char *cc, const char *src, const char *obj, const char *inc,
                     const char *php_inc, bool with_cuda, bool verbose) {
    Args a = {0};
    args_push(&a, cc);
    args_push_words(&a, "-std=c11", false);
    args_push_words(&a, rt_cpu_cc_flags(cc), false); /* as the JIT builds its kernels */
    args_push_words(&a, "-fPIC -fvisibility=hidden -D_GNU_SOURCE", false);
    if (with_cuda) args_push(&a, "-DGTC_PLAN_CUDA"); /* plan.c: the table of kernels.cu's kernels */
    char *i1 = fmt("-I%s", inc), *i2 = fmt("-I%s/runtime/core", inc), *i3 = fmt("-I%s/ir", inc),
         *i4 = fmt("-I%s/runtime/php", inc), *i5 = fmt("-I%s/runtime/cpu", inc);
    args_push(&a, i1), args_push(&a, i2), args_push(&a, i3), args_push(&a, i4), args_push(&a, i5);
    free(i1), free(i2), free(i3), free(i4), free(i5);
    args_push_words(&a, php_inc, true);
    args_push_words(&a, getenv("GTC_CFLAGS"), false);
    args_push(&a, "-c"), args_push(&a, src), args_push(&a, "-o"), args_push(&a, obj);
    char *what = fmt("compiling %s", base_name(src));
    int rc = run_tool(a.v, what, verbose, NULL);
    free(what);
    args_free(&a);
    return rc;
}

static int compile_cu(const char *nvcc, const char *arch, const char *src, const char *obj,
                      const char *inc, bool verbose) {
    char suffix;
    int sm = parse_arch(arch, &suffix);
    Args a = {0};
    args_push(&a, nvcc);
    /* 177: "declared but never referenced", for the prelude's unused static helpers; no FMA
     * contraction: an elementwise a * b + c rounds after each op, as eager ops and the CPU do
     * (products fuse their multiply-adds on purpose: gtc_fma) */
    args_push_words(&a, "-std=c++17 -O3 --fmad=false -Xcompiler -fPIC -Xcompiler -fvisibility=hidden -diag-suppress 177",
                    false);
    args_push(&a, "-gencode");
    char *gen = suffix ? fmt("arch=compute_%d%c,code=[sm_%d%c,compute_%d%c]", sm, suffix, sm, suffix, sm, suffix)
                       : fmt("arch=compute_%d,code=[sm_%d,compute_%d]", sm, sm, sm);
    args_push(&a, gen);
    free(gen);
    args_push(&a, "-cudart"), args_push(&a, "shared"); /* gtc.so's runtime instance: one registry */
    char *i1 = fmt("-I%s", inc), *i2 = fmt("-I%s/runtime/core", inc), *i3 = fmt("-I%s/ir", inc),
         *i4 = fmt("-I%s/runtime/cuda", inc);
    args_push(&a, i1), args_push(&a, i2), args_push(&a, i3), args_push(&a, i4);
    free(i1), free(i2), free(i3), free(i4);
    args_push(&a, "-c"), args_push(&a, src), args_push(&a, "-o"), args_push(&a, obj);
    int rc = run_tool(a.v, "compiling kernels.cu", verbose, NULL);
    args_free(&a);
    return rc;
}

int build_compile(const BuildOptions *o) {
    int rc = 1;
    char *inc = NULL, *cc = NULL, *nvcc = NULL, *phpcfg = NULL, *php_inc = NULL, *libdir = NULL;
    char *tmp = NULL, *srcdir = NULL, *tmp_out = NULL;
    Graph *g = NULL, *fwd = NULL; /* fwd: the predict() plan of a training step (forward.h) */
    Args link = {0};
    bool build_ok = false;
    const char *arch = o->arch ? o->arch : "sm_90";
    char terr[512];
    Target target;
    if (target_parse(arch, &target, terr, sizeof terr)) { /* stricter than parse_arch (compile_cu) */
        fail("%s %s", o->arch_opt ? o->arch_opt : "--arch", terr);
        return 2;
    }
    if (o->precision && target_precision_parse(o->precision, &target.precision, terr, sizeof terr)) {
        fail("--precision %s", terr);
        return 2;
    }
    if (check_output(o->output)) return 1;

    Diag d;
    diag_init(&d, o->input);
    g = frontend_load(o->input, &d);
    if (g) g->data_parallel = o->data_parallel;
    if (!g || forward_pipeline(g, &target, &fwd, &d) != 0) {
        fprintf(stderr, "%s\n", d.msg);
        goto done;
    }
    char cls[IR_MAX_NAME + 16], err[256];
    int named = names_php_class(g->name, cls, sizeof cls, err, sizeof err);
    if (named < 0) {
        fprintf(stderr, "%s: name: %s\n", o->input, err);
        goto done;
    }
    if (named > 0) fprintf(stderr, "%s: note: %s\n", o->input, err);

    if (find_home(&inc)) goto done;
    cc = find_program(o->cc ? o->cc : "cc");
    if (!cc) {
        if (o->cc) fail("the C compiler %s was not found (--cc)", o->cc);
        else fail("cc not found in PATH; install a C compiler or use --cc PATH");
        goto done;
    }
    if (!o->cpu_only && !(nvcc = find_nvcc(o->nvcc))) goto done;
    const char *pc = getenv("PHP_CONFIG");
    phpcfg = find_program(pc && *pc ? pc : "php-config");
    if (!phpcfg) {
        fail("php-config not found (%s); install PHP's development files (php-dev) or set PHP_CONFIG",
             pc && *pc ? pc : "looked in PATH");
        goto done;
    }
    char *pc_argv[] = {phpcfg, (char *)"--includes", NULL};
    if (run_tool(pc_argv, "php-config --includes", o->verbose, &php_inc)) goto done;

    const char *tmpbase = getenv("TMPDIR");
    char *tmproot = arg_path(tmpbase && *tmpbase ? tmpbase : "/tmp");
    tmp = fmt("%s/gtc-compile-XXXXXX", tmproot);
    free(tmproot);
    if (!mkdtemp(tmp)) {
        fail("cannot create a temporary directory %s: %s", tmp, strerror(errno));
        free(tmp), tmp = NULL;
        goto done;
    }
    if (o->emit_dir) {
        if (!is_dir(o->emit_dir) && mkdir(o->emit_dir, 0777) != 0) {
            fail("cannot create --emit-dir %s: %s", o->emit_dir, strerror(errno));
            goto done;
        }
        srcdir = arg_path(o->emit_dir);
    } else {
        srcdir = strdup(tmp);
    }

    const char *source = base_name(o->input);
    diag_init(&d, o->input);
    if (emit_all(g, fwd, srcdir, source, &d) != 0 || emit_ext(g, srcdir, source, &d) != 0) {
        fprintf(stderr, "%s\n", d.msg);
        goto done;
    }

    args_push(&link, cc);
    args_push(&link, "-shared");
    char *out_arg = arg_path(o->output); /* "-m.so" would reach the linker as an option */
    tmp_out = fmt("%s.tmp%ld", out_arg, (long)getpid());
    free(out_arg);
    args_push(&link, "-o"), args_push(&link, tmp_out);
    char *cu = fmt("%s/kernels.cu", srcdir);
    bool with_cuda = nvcc && is_file(cu);
    free(cu);
    /* the step, and a training step's predict() plan (predict_*: forward.h) when there is one */
    static const char *const csrcs[] = {"kernels_cpu", "plan", "predict_kernels_cpu", "predict_plan", "ext"};
    for (size_t i = 0; i < sizeof csrcs / sizeof *csrcs; i++) {
        if (!fwd && !strncmp(csrcs[i], "predict_", 8)) continue; /* not a stale one in --emit-dir */
        char *src = fmt("%s/%s.c", srcdir, csrcs[i]), *obj = fmt("%s/%s.o", tmp, csrcs[i]);
        int r = is_file(src) ? compile_c(cc, src, obj, inc, php_inc, with_cuda, o->verbose) : 0;
        if (is_file(src)) args_push(&link, obj);
        free(src), free(obj);
        if (r) goto done;
    }
    static const char *const cusrcs[] = {"kernels", "predict_kernels"};
    for (size_t i = 0; with_cuda && i < sizeof cusrcs / sizeof *cusrcs; i++) {
        if (!fwd && !strncmp(cusrcs[i], "predict_", 8)) continue;
        char *src = fmt("%s/%s.cu", srcdir, cusrcs[i]), *obj = fmt("%s/%s_cu.o", tmp, cusrcs[i]);
        int r = is_file(src) ? compile_cu(nvcc, arch, src, obj, inc, o->verbose) : 0;
        if (is_file(src)) args_push(&link, obj);
        free(src), free(obj);
        if (r) goto done;
    }
    /* Our symbols bind inside the model (two models may both define gtc_plan); the runtime's
     * come from gtc.so at load time. */
    args_push(&link, "-Wl,-Bsymbolic");
    if (with_cuda) {
        libdir = cuda_libdir(nvcc);
        char *l = fmt("-L%s", libdir), *rp = fmt("-Wl,-rpath,%s", libdir);
        args_push(&link, l), args_push(&link, rp);
        free(l), free(rp);
        args_push(&link, "-lcudart"), args_push(&link, "-lstdc++");
    }
    /* the OpenBLAS gtc.so was linked with (the Makefile's OPENBLAS_OMP_DIR), and OpenMP's runtime */
#ifdef GTC_OPENBLAS_DIR
    args_push(&link, "-L" GTC_OPENBLAS_DIR), args_push(&link, "-Wl,-rpath," GTC_OPENBLAS_DIR);
#endif
    args_push(&link, "-lopenblas"), args_push(&link, "-fopenmp"), args_push(&link, "-lm");
    if (run_tool(link.v, "linking", o->verbose, NULL)) goto done;
    build_ok = true;
    if (rename(tmp_out, o->output) != 0) {
        fail("cannot write %s: %s", o->output, strerror(errno));
        goto done;
    }
    printf("%s: class %s (%s)\n", o->output, cls, with_cuda ? "CUDA and CPU" : "CPU only");
    if (frontend_is_onnx(o->input)) { /* the parameters' initial values beside the extension */
        char *npz = fmt("%.*s.npz", (int)(strlen(o->output) - 3), o->output);
        diag_init(&d, o->input);
        int n = frontend_write_weights(o->input, npz, &d);
        if (n < 0) fprintf(stderr, "%s\n", d.msg);
        else if (n > 0) printf("%s: the initial values of %d input%s (the model's initializers)\n", npz, n, n == 1 ? "" : "s");
        free(npz);
        if (n < 0) goto done;
    }
    rc = 0;
done:
    if (srcdir && !o->emit_dir && !build_ok)
        fprintf(stderr, ME ": (the generated sources are removed; --emit-dir DIR keeps them)\n");
    if (tmp_out) unlink(tmp_out);
    remove_tree(tmp);
    free(tmp), free(tmp_out), free(srcdir), free(inc), free(cc), free(nvcc), free(phpcfg);
    free(php_inc), free(libdir);
    args_free(&link);
    if (g) graph_free(g);
    if (fwd) graph_free(fwd);
    return rc;
}

/* ---- the command line --------------------------------------------------------------------------- */

void build_usage(FILE *f) {
    fprintf(f,
            "usage: gtc compile FILE -o OUT.so [--emit-dir DIR] [--arch sm_90] [--precision fp32]\n"
            "                   [--nvcc PATH] [--cc PATH] [--cpu-only] [--train SPEC] [--dim NAME=N]\n"
            "                   [--data-parallel] [-v]\n"
            "Compiles the graph in FILE into a PHP extension. Load it after gtc.so:\n"
            "  php -d extension=gtc.so -d extension=OUT.so script.php\n"
            "  -o OUT.so        the extension to write (its directory must exist)\n"
            "  --emit-dir DIR   keep the generated sources (kernels.cu, kernels_cpu.c, plan.c, ext.c;\n"
            "                   a training step also predict_kernels.cu, predict_kernels_cpu.c, predict_plan.c)\n"
            "  --arch sm_NN     the GPU architecture: cubin for it plus PTX, and the target the\n"
            "                   plan is lowered for (default sm_90; --target is the same option)\n"
            "  --precision P    products (matmul) in fp32 (default, exact), tf32 or bf16: tensor\n"
            "                   cores through cuBLASLt, float32 storage and accumulation (docs/codegen.md)\n"
            "  --nvcc PATH      the CUDA compiler (default: $CUDA_HOME/bin/nvcc, then PATH)\n"
            "  --cc PATH        the C compiler (default: cc from PATH)\n"
            "  --cpu-only       no CUDA code: the model runs on gtc.so's CPU backend only\n"
            "  --train SPEC     an ONNX model as a training step: loss=mse|cross_entropy[,output=NAME]\n"
            "                   [,optimizer=sgd|adamw][,lr=NUMBER|NAME][,OPTION=NUMBER] (docs/onnx.md);\n"
            "                   an ONNX model's initial weights are written to OUT.npz\n"
            "  --dim NAME=N,... an ONNX model's symbolic dimensions (a dynamic batch) fixed\n"
            "  --data-parallel  a training step whose parameter gradients are averaged across the ranks\n"
            "                   of `gtc run` inside the step (NCCL on CUDA; docs/distributed.md)\n"
            "  -v, --verbose    print each command\n"
            "Environment: GTC_HOME (gtc's source tree or install prefix), PHP_CONFIG, CUDA_HOME,\n"
            "GTC_CFLAGS (extra cc flags), TMPDIR.\n");
}

/* The value of option `name` at argv[*i]: "--name VALUE" or "--name=VALUE". NULL if argv[*i]
 * is not that option; *missing set when the value is absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != 0) return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

int build_main(int argc, char **argv) {
    BuildOptions o = {0};
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool missing = false;
        if (dashdash || a[0] != '-' || !a[1]) {
            if (o.input) {
                fprintf(stderr, ME ": expects one FILE ('%s' and '%s' given)\n", o.input, a);
                build_usage(stderr);
                return 2;
            }
            o.input = a;
        } else if (!strcmp(a, "--")) {
            dashdash = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            build_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--cpu-only")) {
            o.cpu_only = true;
        } else if (!strcmp(a, "--data-parallel")) {
            o.data_parallel = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o.verbose = true;
        } else if ((v = opt_value(argc, argv, &i, "-o", &missing)) ||
                   (!missing && !strncmp(a, "-o", 2) && a[2] && a[2] != '=' && (v = a + 2))) {
            if (o.output) goto twice;
            o.output = v;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--emit-dir", &missing))) {
            if (o.emit_dir) goto twice;
            o.emit_dir = v;
        } else if (!missing && ((v = opt_value(argc, argv, &i, "--arch", &missing)) ||
                                (!missing && (v = opt_value(argc, argv, &i, "--target", &missing))))) {
            if (o.arch) goto twice;
            o.arch = v;
            o.arch_opt = strncmp(a, "--target", 8) == 0 ? "--target" : "--arch";
        } else if (!missing && (v = opt_value(argc, argv, &i, "--precision", &missing))) {
            if (o.precision) goto twice;
            o.precision = v;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--nvcc", &missing))) {
            if (o.nvcc) goto twice;
            o.nvcc = v;
        } else if (!missing && (v = opt_value(argc, argv, &i, "--cc", &missing))) {
            if (o.cc) goto twice;
            o.cc = v;
        } else if (missing) {
            fprintf(stderr, ME ": option '%s' needs a value\n", a);
            build_usage(stderr);
            return 2;
        } else {
            fprintf(stderr, ME ": unknown option '%s'\n", a);
            build_usage(stderr);
            return 2;
        }
        if (v && !*v) {
            fprintf(stderr, ME ": option '%s' needs a value\n", a);
            build_usage(stderr);
            return 2;
        }
        continue;
    twice:
        fprintf(stderr, ME ": option '%s' given twice\n", a);
        build_usage(stderr);
        return 2;
    }
    if (!o.input || !*o.input) {
        fprintf(stderr, ME ": expects one FILE%s\n", o.input ? " (the name given is empty)" : "");
        build_usage(stderr);
        return 2;
    }
    if (!o.output) {
        fprintf(stderr, ME ": -o OUT.so is required\n");
        build_usage(stderr);
        return 2;
    }
    if (o.cpu_only && o.nvcc) {
        fprintf(stderr, ME ": --cpu-only and --nvcc contradict each other\n");
        build_usage(stderr);
        return 2;
    }
    return build_compile(&o);
}
