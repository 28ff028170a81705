/* compiler/emit_cpu.h: what the CPU code generator's files share (compiler/emit_cpu.c,
 * compiler/emit_cpu_row.c); emit_cpu_source (emit.h) is their entry point. */
#ifndef GTC_EMIT_CPU_H
#define GTC_EMIT_CPU_H

#include "emit.h"

/* Evaluates every output in `outs` (of the given coordinates each) first, then stores them all,
 * so that a value updated in place is read before it is written. */
void emit_cpu_store_outputs(Ex *x, const NodeId *outs, int n, char **const *coords);
/* Whether a reduction is a float32 sum or mean: ir/fsum.h's blocked order (the eager ops'). */
bool emit_cpu_red_fsum(const EmitRed *ri);
/* A reduction's loop and its value, bound to the reduction: xc holds the kept coordinates; the
 * reduced ones are opened here. */
void emit_cpu_reduce_loop(Ex *x, const EmitRed *ri, char **xc);
/* A ROW step's body. */
void emit_cpu_row(Ex *x);

#endif
