/* compiler/main.c: the gtc command line: subcommands as a literal table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

typedef int (*CmdFn)(const char *file);

static int cmd_check(const char *file);
static int cmd_dump(const char *file);

static const struct {
    const char *name, *help;
    CmdFn fn;
} commands[] = {
    {"check", "validate a graph; print its name, node count, ops, inputs and outputs", cmd_check},
    {"dump", "print the verified, typed graph as text", cmd_dump},
};

static void usage(FILE *f) {
    fprintf(f, "usage: gtc COMMAND FILE\n       gtc --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nFILE is a graph in the gtc JSON format (docs/graph-format.md).\n");
}

static Graph *load(const char *file) {
    Diag d;
    diag_init(&d, file);
    Graph *g = frontend_load(file, &d);
    if (!g) fprintf(stderr, "%s\n", d.msg);
    return g;
}

static int cmd_check(const char *file) {
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
                   ir_shape_str(&g->nodes[i].type, shape, sizeof shape));
    printf("outputs:\n");
    for (int i = 0; i < g->noutputs; i++) {
        const Node *v = &g->nodes[g->outputs[i].value];
        printf("  %-16s %-8s %s", g->outputs[i].name, ir_dtype_name(v->type.dtype),
               ir_shape_str(&v->type, shape, sizeof shape));
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].value == g->outputs[i].value)
                printf(" (in place of %s)", g->nodes[g->donations[k].input].name);
        printf("\n");
    }
    graph_free(g);
    return 0;
}

static int cmd_dump(const char *file) {
    Graph *g = load(file);
    if (!g) return 1;
    ir_dump(g, stdout);
    graph_free(g);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("gtc %s\n", GTC_VERSION);
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        if (argc != 3 || argv[2][0] == '-') {
            if (argc >= 3 && argv[2][0] == '-') fprintf(stderr, "gtc %s: unknown option '%s'\n", argv[1], argv[2]);
            else fprintf(stderr, "gtc %s: expects one FILE\n", argv[1]);
            usage(stderr);
            return 2;
        }
        return commands[i].fn(argv[2]);
    }
    fprintf(stderr, "gtc: unknown %s '%s'\n", argv[1][0] == '-' ? "option" : "command", argv[1]);
    usage(stderr);
    return 2;
}
