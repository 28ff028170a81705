/* compiler/main.c: the gtc command line: subcommands as a literal table. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "emit.h"
#include "frontend.h"
#include "forward.h"
#include "launch.h"
#include "pipeline.h"
#include "../runtime/core/rt.h" /* rt_cpu_blas_info: runtime/cpu/cpu_threads.c, linked alone */
#include "../runtime/core/dist.h" /* rt_nccl_probe: runtime/core/nccl_lib.c, linked alone */

/* The target every command lowers for (--target / --arch, any command but compile). */
static Target g_target;
/* --data-parallel (any command but compile, which reads its own): plans that average the
 * parameter gradients across ranks (docs/distributed.md). */
static bool g_data_parallel;

/* A command gets its FILE and the value of its one option (NULL when not given). */
typedef int (*CmdFn)(const char *file, const char *opt);

static int cmd_check(const char *file, const char *opt);
static int cmd_dump(const char *file, const char *opt);
static int cmd_plan(const char *file, const char *opt);
static int cmd_emit(const char *file, const char *opt);
static int cmd_grad(const char *file, const char *opt);

static const struct {
    const char *name, *opt, *help; /* opt: the command's "--name=" option, or NULL */
    CmdFn fn;
} commands[] = {
    {"check", NULL, "validate a graph; print its name, node count, ops, inputs and outputs", cmd_check},
    {"dump", "--after=", "print the verified, typed graph as text (--after=PASS: after a compiler pass)", cmd_dump},
    {"plan", "--format=", "print the fusion plan: steps, buffers, reasons (--format=text|json|dot|svg)", cmd_plan},
    {"grad", "--format=", "print the graph with its \"train\" section differentiated, simplified (--format=text|json)", cmd_grad},
    {"emit", "--emit-dir=", "write kernels.cu, kernels_cpu.c and plan.c into an existing DIR (--emit-dir DIR)", cmd_emit},
};

static void usage(FILE *f) {
    fprintf(f, "usage: gtc COMMAND [OPTION] [--] FILE\n       gtc --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "  %-8s %s\n", "compile", "build a PHP extension: gtc compile FILE -o OUT.so (gtc compile --help)");
    fprintf(f, "  %-8s %s\n", "run", "start N PHP ranks of a data-parallel run: gtc run -n N SCRIPT.php (gtc run --help)");
    fprintf(f, "\nFILE is a graph in the gtc JSON format (docs/graph-format.md), a PHP file with\n"
               "#[Gtc\\Graph] attributes (docs/php-graphs.md) or an ONNX model (.onnx, docs/onnx.md;\n"
               "--train loss=mse|cross_entropy[,optimizer=sgd|adamw,lr=...] makes it a training step,\n"
               "--dim batch=N fixes a symbolic dimension).\n"
               "Every command takes --target=sm_NN (or --arch=sm_NN): the GPU the plan is lowered for\n"
               "(default sm_90, docs/codegen.md), --precision=fp32|tf32|bf16: how its products are\n"
               "computed (default fp32, exact; bf16 also stores the values that only products, sign\n"
               "tests and sums read in bfloat16), and --data-parallel: a training step that averages its\n"
               "parameter gradients across the ranks of `gtc run` (docs/distributed.md).\n");
}

static Graph *load(const char *file) {
    Diag d;
    diag_init(&d, file);
    Graph *g = frontend_load(file, &d);
    if (!g) fprintf(stderr, "%s\n", d.msg);
    else g->data_parallel = g_data_parallel;
    return g;
}

static int cmd_check(const char *file, const char *opt) {
    (void)opt;
    Graph *g = load(file);
    if (!g) return 1;
    char shape[512];
    int hist[OP_COUNT] = {0};
    for (int i = 0; i < g->nnodes; i++) hist[g->nodes[i].op]++;
    printf("graph %s: ok, %d nodes, %d inputs, %d outputs\n", g->name, g->nnodes - g->ninputs,
           g->ninputs, g->noutputs);
    printf("ops:");
    for (int op = 0; op < OP_COUNT; op++)
        if (op != OP_INPUT && hist[op]) printf(" %s %d", ir_ops[op].name, hist[op]);
    printf("\ninputs:\n");
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i].op == OP_INPUT)
            printf("  %-16s %-8s %s\n", g->nodes[i].name, ir_dtype_name(g->nodes[i].type.dtype),
                   ir_graph_shape_str(g, &g->nodes[i].type, shape, sizeof shape));
    printf("outputs:\n");
    for (int i = 0; i < g->noutputs; i++) {
        const Node *v = &g->nodes[g->outputs[i].value];
        printf("  %-16s %-8s %s", g->outputs[i].name, ir_dtype_name(v->type.dtype),
               ir_graph_shape_str(g, &v->type, shape, sizeof shape));
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].value == g->outputs[i].value)
                printf(" (in place of %s)", g->nodes[g->donations[k].input].name);
        printf("\n");
    }
    graph_free(g);
    return 0;
}

/* Loads the graph and runs the pipeline up to and including pass `after` (NULL: all). */
static Graph *load_and_run(const char *file, const char *after) {
    Graph *g = load(file);
    if (!g) return NULL;
    Diag d;
    diag_init(&d, file);
    if (pipeline_run(g, &g_target, &d, after)) {
        fprintf(stderr, "%s\n", d.msg);
        graph_free(g);
        return NULL;
    }
    return g;
}

static int cmd_dump(const char *file, const char *after) {
    if (after && pipeline_find(after) < 0) {
        fprintf(stderr, "gtc dump: unknown pass '%s' (passes:", after);
        for (int i = 0; i < pipeline_npasses(); i++) fprintf(stderr, " %s", pipeline_pass_name(i));
        fprintf(stderr, ")\n");
        return 2;
    }
    Graph *g = after ? load_and_run(file, after) : load(file);
    if (!g) return 1;
    ir_dump(g, stdout);
    if (after && pipeline_builds_plan(after)) plan_print(g, stdout, PLAN_TEXT);
    graph_free(g);
    return 0;
}

extern char **environ;

/* --format=svg: the dot text through Graphviz's `dot -Tsvg`, found on PATH and started with
 * posix_spawnp (no shell: nothing of the graph or its file name reaches a command line); dot
 * reads the text from a pipe and writes the SVG to gtc's own stdout. 0, or 1 after a message. */
static int dot_to_svg(const char *text, size_t n) {
    int fds[2];
    if (pipe(fds)) {
        fprintf(stderr, "gtc plan: pipe: %s\n", strerror(errno));
        return 1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    char *argv[] = {"dot", "-Tsvg", NULL};
    pid_t pid;
    fflush(stdout);
    int rc = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc) {
        close(fds[1]);
        if (rc == ENOENT)
            fprintf(stderr, "gtc plan: --format=svg needs Graphviz's dot, which is not on PATH (install graphviz, "
                            "or use --format=dot and render it elsewhere)\n");
        else
            fprintf(stderr, "gtc plan: cannot start dot: %s\n", strerror(rc));
        return 1;
    }
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* dot may stop reading: a write error, not death */
    bool wrote = true;
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fds[1], text + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            wrote = false;
            break;
        }
        off += (size_t)w;
    }
    close(fds[1]);
    signal(SIGPIPE, old);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "gtc plan: waiting for dot: %s\n", strerror(errno));
            return 1;
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !wrote) {
        if (WIFEXITED(status))
            fprintf(stderr, "gtc plan: dot -Tsvg failed (exit status %d)\n", WEXITSTATUS(status));
        else
            fprintf(stderr, "gtc plan: dot -Tsvg failed (signal %d)\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return 1;
    }
    return 0;
}

static int cmd_plan(const char *file, const char *format) {
    static const struct {
        const char *name;
        PlanFormat fmt;
    } formats[] = {{"text", PLAN_TEXT}, {"json", PLAN_JSON}, {"dot", PLAN_DOT}, {"svg", PLAN_DOT}};
    int f = format ? -1 : 0;
    for (int i = 0; format && i < (int)(sizeof formats / sizeof *formats); i++)
        if (strcmp(format, formats[i].name) == 0) f = i;
    if (f < 0) {
        fprintf(stderr, "gtc plan: unknown format '%s' (text, json, dot or svg)\n", format);
        return 2;
    }
    Graph *g = load_and_run(file, NULL);
    if (!g) return 1;
    int rc = 0;
    if (strcmp(formats[f].name, "svg") == 0) { /* the dot text first: a bad graph fails before dot runs */
        char *text = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&text, &n);
        if (!m) abort();
        plan_print(g, m, PLAN_DOT);
        fclose(m);
        rc = dot_to_svg(text, n);
        free(text);
    } else {
        plan_print(g, stdout, formats[f].fmt);
    }
    graph_free(g);
    return rc;
}

static int cmd_emit(const char *file, const char *dir) {
    if (!dir || !*dir) {
        fprintf(stderr, "gtc emit: needs --emit-dir DIR\n");
        return 2;
    }
    Graph *g = load(file), *fwd = NULL;
    if (!g) return 1;
    Diag d;
    diag_init(&d, file);
    const char *base = strrchr(file, '/');
    int rc = forward_pipeline(g, &g_target, &fwd, &d);
    if (!rc) rc = emit_all(g, fwd, dir, base ? base + 1 : file, &d);
    if (rc) fprintf(stderr, "%s\n", d.msg);
    graph_free(g);
    if (fwd) graph_free(fwd);
    return rc ? 1 : 0;
}

/* The training step the autodiff pass derives from the "train" section, after simplify. */
static int cmd_grad(const char *file, const char *format) {
    if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
        fprintf(stderr, "gtc grad: unknown format '%s' (text or json)\n", format);
        return 2;
    }
    Graph *g = load_and_run(file, "simplify");
    if (!g) return 1;
    if (format && strcmp(format, "json") == 0) {
        char *s = ir_write_json(g);
        printf("%s\n", s);
        free(s);
    } else {
        ir_dump(g, stdout);
    }
    graph_free(g);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        char blas[256];
        printf("gtc %s\n", GTC_VERSION);
        /* what a model runs with on the CPU here (GTC_CPU_THREADS, docs/cpu.md) */
        printf("cpu: %s\n", rt_cpu_blas_info(blas, sizeof blas));
        if (rt_cpu_threads_error()) printf("cpu: %s\n", rt_cpu_threads_error());
        /* what `gtc run` ranks would reach their peers with (GTC_NCCL_LIBRARY, docs/distributed.md) */
        char ver[64], why[512];
        if (rt_nccl_probe(ver, sizeof ver, why, sizeof why)) printf("nccl: %s (%s)\n", ver, rt_nccl_library_name());
        else printf("nccl: not available: %s\n", why);
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "run") == 0) return launch_main(argc - 1, argv + 1); /* its args are the script's */
    /* --function NAME (any command): the graph function to read from a .php file */
    for (int a = 2, w = 2; a <= argc; a++) {
        if (a < argc && strncmp(argv[a], "--function", 10) == 0 && (argv[a][10] == '=' || (!argv[a][10] && a + 1 < argc))) {
            frontend_select_function(argv[a][10] == '=' ? argv[a] + 11 : argv[++a]);
            continue;
        }
        /* --train SPEC (any command): the loss and optimizer for an ONNX model (docs/onnx.md) */
        if (a < argc && strncmp(argv[a], "--train", 7) == 0 && (argv[a][7] == '=' || (!argv[a][7] && a + 1 < argc))) {
            frontend_select_train(argv[a][7] == '=' ? argv[a] + 8 : argv[++a]);
            continue;
        }
        /* --dim NAME=N,... (any command): an ONNX model's symbolic dimensions */
        if (a < argc && strncmp(argv[a], "--dim", 5) == 0 && (argv[a][5] == '=' || (!argv[a][5] && a + 1 < argc))) {
            frontend_select_dims(argv[a][5] == '=' ? argv[a] + 6 : argv[++a]);
            continue;
        }
        argv[w++] = argv[a];
        if (a == argc) argc = w - 1;
    }
    if (strcmp(argv[1], "compile") == 0) return build_main(argc - 1, argv + 1); /* its own options */
    /* --target NAME / --arch NAME (any other command): the GPU to lower for; --precision P: how
     * its products are computed */
    g_target = *target_default();
    bool target_given = false, precision_given = false;
    int precision = PREC_FP32;
    for (int a = 2, w = 2; a <= argc; a++) {
        if (a < argc && strcmp(argv[a], "--data-parallel") == 0) {
            g_data_parallel = true;
            continue;
        }
        const char *opt = a < argc ? (strncmp(argv[a], "--target", 8) == 0 ? "--target"
                                      : strncmp(argv[a], "--arch", 6) == 0 ? "--arch"
                                      : strncmp(argv[a], "--precision", 11) == 0 ? "--precision" : NULL) : NULL;
        size_t n = opt ? strlen(opt) : 0;
        if (opt && (argv[a][n] == '=' || (!argv[a][n] && a + 1 < argc))) {
            const char *v = argv[a][n] == '=' ? argv[a] + n + 1 : argv[++a];
            char err[512];
            bool prec = opt[2] == 'p';
            if (prec ? precision_given : target_given) {
                fprintf(stderr, "gtc %s: %s given twice\n", argv[1], prec ? "--precision" : "--target / --arch");
                return 2;
            }
            if (prec ? target_precision_parse(v, &precision, err, sizeof err) : target_parse(v, &g_target, err, sizeof err)) {
                fprintf(stderr, "gtc %s: %s %s\n", argv[1], opt, err);
                return 2;
            }
            *(prec ? &precision_given : &target_given) = true;
            continue;
        }
        argv[w++] = argv[a];
        if (a == argc) argc = w - 1;
    }
    g_target.precision = precision;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        const char *file = NULL, *opt = NULL, *o = commands[i].opt;
        int nfiles = 0;
        bool files_only = false; /* after "--", a name that begins with '-' is a FILE */
        for (int a = 2; a < argc; a++) {
            if (!files_only && strcmp(argv[a], "--") == 0) {
                files_only = true;
            } else if (files_only || argv[a][0] != '-') {
                file = argv[a], nfiles++;
            } else if (o && strncmp(argv[a], o, strlen(o)) == 0 && !opt) {
                opt = argv[a] + strlen(o);
            } else if (o && strncmp(argv[a], o, strlen(o) - 1) == 0 && !argv[a][strlen(o) - 1] && a + 1 < argc && !opt) {
                opt = argv[++a]; /* "--emit-dir DIR" as well as "--emit-dir=DIR" */
            } else {
                fprintf(stderr, "gtc %s: unknown option '%s'\n", argv[1], argv[a]);
                usage(stderr);
                return 2;
            }
        }
        if (nfiles != 1 || !*file) {
            fprintf(stderr, "gtc %s: expects one FILE%s\n", argv[1], nfiles == 1 ? " (the name given is empty)" : "");
            usage(stderr);
            return 2;
        }
        return commands[i].fn(file, opt);
    }
    fprintf(stderr, "gtc: unknown %s '%s'\n", argv[1][0] == '-' ? "option" : "command", argv[1]);
    usage(stderr);
    return 2;
}
