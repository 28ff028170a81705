/* compiler/optim.h: the optimizer updates (compiler/optim.c) that the autodiff pass appends after
 * the gradients: SGD (momentum, Nesterov, weight decay, clipping) and AdamW, PyTorch's semantics;
 * Cuda\Optimizer (runtime/php/optimizer.c) builds its eager and traced steps with them too
 * (Adam, beta powers and the per-parameter decay mask are its Train fields).
 *
 * Ownership: everything built is appended to the graph and owned by it. */
#ifndef GTC_OPTIM_H
#define GTC_OPTIM_H

#include "ad_build.h"

/* The optimizer inputs the train section needs, by name and type, in order (momentum buffers,
 * Adam(W) moments and step, or beta powers, a learning-rate input that the graph lacks). */
typedef struct {
    char name[IR_MAX_NAME + 8];
    TensorType type;
    NodeId param;      /* the parameter it belongs to, or -1 */
    IrInputState state; /* what the model owns it as: IR_STATE_ZEROS for a parameter's buffers,
                         * IR_STATE_STEP for AdamW's step, IR_STATE_NONE for the learning rate */
} OptInput;
/* Lists them into *out (malloc'd); returns the count. */
int optim_inputs(const Graph *g, const Train *t, OptInput **out);
/* Appends the update of every parameter (grads from autodiff_grads) and sets upd[i] to the
 * updated parameter and state[] to the updated optimizer state (optim_inputs' order, -1 where
 * an entry has no update such as the learning rate). */
int optim_build(Builder *b, const Train *t, const NodeId *grads, const OptInput *ins,
                const NodeId *in_ids, int nins, NodeId *upd, NodeId *state);

#endif
