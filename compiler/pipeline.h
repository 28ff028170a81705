/* compiler/pipeline.h: the compiler's pass pipeline over a verified graph (one literal table in
 * compiler/pipeline.c): autodiff → simplify → bf16 → fuse → schedule → memplan → lower. */
#ifndef GTC_PIPELINE_H
#define GTC_PIPELINE_H

#include "plan.h"

/* Runs the passes in order, stopping after the one named stop_after (NULL: all of them), lowering
 * for target t (NULL: target_default(), the H200; the JIT passes the device's, target.h).
 * Returns 0, or -1 with the first error in d (an unknown pass name is one). The plan the
 * passes build is left in g->plan. */
int pipeline_run(Graph *g, const Target *t, Diag *d, const char *stop_after);
/* The passes' names in order, for `gtc dump --after=PASS`. */
int pipeline_npasses(void);
const char *pipeline_pass_name(int i);
/* The index of a pass by name, or -1. */
int pipeline_find(const char *name);
/* Whether the plan exists after the named pass (fuse and later). */
bool pipeline_builds_plan(const char *name);

#endif
