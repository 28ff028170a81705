/* runtime/php/fusion.h: the JIT's tracing state (fusion_trace.c), shared with Cuda\Fusion
 * (fusion.c). One trace at a time per process (PHP runs one request per thread); while it is
 * active, every op on a placeholder tensor records an IR node instead of computing.
 *
 * Placeholders are RtTensors with shapes and dtypes but no data: their storage is one static
 * RtStorage (data NULL), so php_gtc_is_placeholder is a pointer comparison. */
#ifndef PHP_GTC_FUSION_H
#define PHP_GTC_FUSION_H

#include "php_gtc.h"

/* Starts a trace recording into a new graph named `name` for backend b; -1 after rt_error
 * when one is already active (nested capture). */
int fusion_trace_begin(const char *name, const RtBackend *b);
/* Adds graph input `name` (position = inputs so far) and returns a placeholder for it (a new
 * reference), or NULL after rt_error (bad or duplicate name, bad type). */
RtTensor *fusion_trace_input(const char *name, const TensorType *t);
/* The node a placeholder stands for in the active trace, or -1. */
NodeId fusion_trace_node(const RtTensor *t);
/* A new placeholder (a new reference) for node id of the active trace (autograd's grad()). */
RtTensor *fusion_trace_placeholder(NodeId id);
/* The input a real tensor the closure used became (capture), or -1; adds none. */
NodeId fusion_trace_captured(const RtTensor *t);
/* The graph being recorded (borrowed), NULL when no trace is active. */
Graph *fusion_trace_graph(void);
/* For code that appends nodes to the trace graph itself (Cuda\Optimizer::step, with
 * compiler/optim.c's builder): the node standing for t (a placeholder's, or a real tensor's
 * captured input), -1 after rt_error; and a placeholder for node id (a new reference, the
 * trace holding another, as for recorded ops), NULL after rt_error. */
NodeId fusion_trace_operand(RtTensor *t);
RtTensor *fusion_trace_result(NodeId id);
/* A Cuda\FusionGraph (into rv) for a graph built in C (Cuda\Optimizer's step), planned like a
 * traced closure's: the process's plan cache, the op-by-op fallback where kernels cannot be
 * built. g is freed; shape (taken over) is run()'s result structure, output indices in place of
 * tensors. false after throwing. */
bool php_gtc_fusion_graph(Graph *g, const char *name, zval *shape, zval *rv);
/* Ends the trace: returns the graph (the caller owns it) or NULL; releases the placeholders the
 * trace held. Safe to call when no trace is active. */
Graph *fusion_trace_end(void);

/* Calls the closure once on placeholders for `inputs` (name => CudaArray, dtype name, number or
 * [shape, dtype]) in a new trace named `name`, adds the tensors it returns as outputs (key paths
 * as names; *shape receives the result with output indices in place of tensors) and the
 * donations (output => input), and verifies the graph. The caller owns it; NULL after throwing.
 * Real tensors the closure used (captured, or made in it) are inputs after the declared ones,
 * in order: *captured receives them (malloc'd, one reference each) unless captured is NULL.
 * reads (Fusion::run, which runs the trace once): reading a traced value's data inside the
 * closure gives its value computed eagerly, and values that escape the closure keep theirs;
 * otherwise (Fusion::compile, export) reading one throws: it would be the trace's, not a run's. */
Graph *fusion_trace_closure(zend_fcall_info *fci, zend_fcall_info_cache *fcc, HashTable *inputs, const char *name,
                            HashTable *donate, const RtBackend *b, bool reads, zval *shape, RtTensor ***captured,
                            int *ncaptured);

/* ---- eager_plan.c: eager composite ops on the GPU as one planned graph ---- */
/* true when op ran planned: *out is its result, or NULL after rt_error; false: not planned
 * (not a composite, not CUDA, traced, autograd history, a constant operand, or it does not
 * plan), and the caller runs it op by op. */
bool php_gtc_eager_planned(Op op, const RtOperand *in, int nin, const Attrs *a, RtTensor **out);

/* ---- autograd.c: eager autograd's hooks (docs/autograd.md) ---- */
/* Whether an operand has gradient history (then php_gtc_apply records the op on the tape). */
bool php_gtc_autograd_wants(const RtOperand *in, int nin);
/* Records op (result r, taken over) on the tape; returns the tensor to hand out (r, or a view of
 * it), or NULL after rt_error. */
RtTensor *php_gtc_autograd_record(Op op, const RtOperand *in, int nin, const Attrs *a, RtTensor *r);
/* A trace begins: forgets the previous trace's marks. */
void php_gtc_autograd_trace_begin(void);
/* Trace input id stands for real tensor `real`: it requires gradients in the trace if real does. */
void php_gtc_autograd_trace_input(const RtTensor *real, NodeId id);
/* Whether a live tensor requires gradients or has gradient history (Fusion::run then runs its
 * closure eagerly, so its results keep that history). */
bool php_gtc_autograd_active(void);
#endif
