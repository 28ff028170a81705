/* compiler/autodiff.h: reverse-mode differentiation (compiler/pass_autodiff.c) over the v1 op
 * set, and the pass that appends gradients and the optimizer update (compiler/optim.h) to a
 * training graph. Nodes are appended with the builder of compiler/ad_build.h.
 *
 * Ownership: everything built is appended to the graph and owned by it. */
#ifndef GTC_AUTODIFF_H
#define GTC_AUTODIFF_H

#include "ad_build.h"

/* The gradients of the scalar `loss` with respect to params[0..np) into grads[] (a node of the
 * parameter's dtype and shape each; zeros where the loss does not depend on it, and then
 * unreached[i] is set when unreached is not NULL). Values in stop[0..nstop) are treated as
 * constants. An op without a gradient on a path from a parameter to the loss is an error naming
 * the node. Returns 0 or -1 with the error in b->d. */
int autodiff_grads(Builder *b, NodeId loss, const NodeId *params, int np, const NodeId *stop,
                   int nstop, NodeId *grads, bool *unreached);

/* The pass: consumes g->train (when present): appends gradients, the optimizer update and the
 * outputs and donations of the training step. */
int pass_autodiff(Graph *g, Diag *d);

#endif
