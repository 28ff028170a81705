/* tests/unit/plan_helpers.h: what the planner's unit tests share (test_plan.c, test_lower.c): a
 * graph from JSON text or a file run through the whole pipeline into the file-scope `g` (freed by
 * `teardown`), and look-ups in its plan by value name. Include once per test file. */
#ifndef GTC_TEST_PLAN_HELPERS_H
#define GTC_TEST_PLAN_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/pipeline.h"

#define TEST(name) static void name(void **state __attribute__((unused)))

static Graph *g;

static int teardown(void **state) __attribute__((unused));
static int teardown(void **state) {
    (void)state;
    graph_free(g);
    g = NULL;
    return 0;
}

/* A graph from the body of a v1 graph file ("inputs": ..., "nodes": ..., "outputs": ...),
 * planned by the whole pipeline. */
static Plan *plan_text(const char *body) __attribute__((unused));
static Plan *plan_text(const char *body) {
    char text[16384];
    snprintf(text, sizeof text, "{\"format\": \"gtc-graph\", \"version\": 1, \"name\": \"t\", %s}", body);
    Diag d;
    diag_init(&d, "t.json");
    g = ir_read_json(text, strlen(text), &d);
    if (!g) fail_msg("graph does not load: %s", d.msg);
    if (pipeline_run(g, NULL, &d, NULL)) fail_msg("pipeline failed: %s", d.msg);
    assert_non_null(g->plan);
    return g->plan;
}

/* A graph file planned for target t (NULL: the default, the H200). */
static Plan *plan_file_for(const char *path, const Target *t) __attribute__((unused));
static Plan *plan_file_for(const char *path, const Target *t) {
    Diag d;
    diag_init(&d, path);
    g = ir_read_json_file(path, &d);
    if (!g) fail_msg("%s", d.msg);
    if (pipeline_run(g, t, &d, NULL)) fail_msg("pipeline failed: %s", d.msg);
    return g->plan;
}

static Plan *plan_file(const char *path) __attribute__((unused));
static Plan *plan_file(const char *path) { return plan_file_for(path, NULL); }

static NodeId id(const char *name) __attribute__((unused));
static NodeId id(const char *name) {
    NodeId i = graph_find(g, name);
    if (i < 0) fail_msg("no value %s", name);
    return i;
}

/* The step that writes value `name` (-1 if none does). */
static int writer(const Plan *p, const char *name) __attribute__((unused));
static int writer(const Plan *p, const char *name) {
    NodeId v = id(name);
    for (int s = 0; s < p->nsteps; s++)
        if (step_has(p->steps[s].outs, p->steps[s].nouts, v)) return s;
    return -1;
}

static int count_kind(const Plan *p, StepKind k) __attribute__((unused));
static int count_kind(const Plan *p, StepKind k) {
    int n = 0;
    for (int s = 0; s < p->nsteps; s++) n += p->steps[s].kind == k;
    return n;
}

static int steps_computing(const Plan *p, const char *name) __attribute__((unused));
static int steps_computing(const Plan *p, const char *name) {
    int n = 0;
    for (int s = 0; s < p->nsteps; s++) n += step_has(p->steps[s].nodes, p->steps[s].nnodes, id(name));
    return n;
}

static int steps_reading(const Plan *p, const char *name) __attribute__((unused));
static int steps_reading(const Plan *p, const char *name) {
    int n = 0;
    for (int s = 0; s < p->nsteps; s++) n += step_has(p->steps[s].ins, p->steps[s].nins, id(name));
    return n;
}


#define X_IN "\"inputs\": [{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [64, 128]}], "

#endif
