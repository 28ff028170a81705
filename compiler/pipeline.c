/* compiler/pipeline.c: the pass pipeline as one literal table, in the order the passes run. */
#include <string.h>

#include "autodiff.h"
#include "pipeline.h"

typedef int (*PassFn)(Graph *, Diag *);
typedef int (*TargetPassFn)(Graph *, const Target *, Diag *);

static const struct {
    const char *name;
    PassFn fn;           /* a pass over the graph alone, or */
    TargetPassFn tfn;    /* one that needs the target as well */
    bool plan;           /* g->plan exists once this pass has run */
} passes[] = {
    {"autodiff", pass_autodiff, NULL, false},
    {"simplify", pass_simplify, NULL, false},
    {"bf16", NULL, pass_bf16, false},
    {"fuse", pass_fuse, NULL, true},
    {"schedule", pass_schedule, NULL, true},
    {"memplan", pass_memplan, NULL, true},
    {"lower", NULL, pass_lower, true},
};

#define NPASSES ((int)(sizeof passes / sizeof *passes))

int pipeline_npasses(void) { return NPASSES; }

const char *pipeline_pass_name(int i) { return i >= 0 && i < NPASSES ? passes[i].name : NULL; }

int pipeline_find(const char *name) {
    for (int i = 0; name && i < NPASSES; i++)
        if (strcmp(passes[i].name, name) == 0) return i;
    return -1;
}

bool pipeline_builds_plan(const char *name) {
    int i = pipeline_find(name);
    return i >= 0 && passes[i].plan;
}

int pipeline_run(Graph *g, const Target *t, Diag *d, const char *stop_after) {
    int last = stop_after ? pipeline_find(stop_after) : NPASSES - 1;
    if (last < 0) {
        diag_at(d, NULL, "unknown pass \"%.64s\"", stop_after);
        return -1;
    }
    if (!t) t = target_default();
    for (int i = 0; i <= last; i++)
        if (passes[i].fn ? passes[i].fn(g, d) : passes[i].tfn(g, t, d)) return -1;
    return 0;
}
