/* compiler/plan_build.h: the RtPlan table (runtime/core/plan_abi.h) built in memory from a placed
 * plan, for the JIT (runtime/php/fusion.c): the same inputs, outputs, steps, reasons, launch
 * configurations, arena size and statistics that emit_plan_source writes as static C data for a
 * model extension. CPU kernels and CUDA kernels are attached by the caller (plan->cpu from a
 * dlopen'd kernels_cpu.c; plan->cuda stays NULL so the executor compiles plan->cuda_source with
 * NVRTC, runtime/cuda/rt_plan_jit.h).
 *
 * Ownership: the returned plan and every string and array it points to belong to it;
 * plan_build_free releases them (the cpu table is the caller's). */
#ifndef GTC_PLAN_BUILD_H
#define GTC_PLAN_BUILD_H

#include "emit.h"

#include "../runtime/core/plan_abi.h"

/* g must be lowered (pipeline_run through lower). cuda_src and cpu_src are copied. NULL with the
 * error in d. */
RtPlan *plan_build(const Graph *g, const char *source_name, const char *cuda_src, const char *cpu_src, Diag *d);
void plan_build_free(RtPlan *p);

#endif
