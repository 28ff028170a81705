/* compiler/autodiff.h: reverse-mode differentiation (compiler/pass_autodiff.c) and the optimizer
 * updates built on it (compiler/optim.c), over the v1 op set.
 *
 * Ownership: everything built is appended to the graph and owned by it. */
#ifndef GTC_AUTODIFF_H
#define GTC_AUTODIFF_H

#include "../ir/ir.h"

/* Appends typed nodes to a graph. Each new node gets a placeholder name and a wanted name
 * (want[id - first]); ad_finish gives every new node its wanted name, made unique against all
 * others (the last node to want a name gets it plain, earlier ones "_2", "_3", ...). The first failure (an internal error: a rule built a node
 * that does not type) is kept in d and makes every later call a no-op returning -1. */
typedef struct {
    Graph *g;
    Diag *d;
    NodeId first;      /* the first node this builder appended */
    char **want;       /* per appended node: its wanted name (owned) */
    int nwant, capwant;
    bool failed;
} Builder;

void ad_begin(Builder *b, Graph *g, Diag *d);
/* Names the new nodes and frees the builder; returns 0, or -1 when building failed. */
int ad_finish(Builder *b);
/* Sets the wanted name of a node this builder appended (others are left alone). */
void ad_rename(Builder *b, NodeId id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

Operand ad_v(NodeId id); /* a value operand */
Operand ad_c(double v);  /* a constant operand */
/* One node of op over n operands with attributes a (NULL: none), typed; -1 on failure. */
NodeId ad_node(Builder *b, const char *want, Op op, int n, const Operand *in, const Attrs *a);
NodeId ad_un(Builder *b, const char *want, Op op, Operand x);
NodeId ad_bin(Builder *b, const char *want, Op op, Operand x, Operand y);
NodeId ad_cast(Builder *b, const char *want, NodeId x, DType to);
NodeId ad_full(Builder *b, const char *want, double v, DType dt, int rank, const int64_t *dims);
/* sum/mean/... over the axes in mask. */
NodeId ad_reduce(Builder *b, const char *want, Op op, NodeId x, unsigned mask, bool keepdims);
NodeId ad_reshape(Builder *b, const char *want, NodeId x, int rank, const int64_t *dims);

/* The gradients of the scalar `loss` with respect to params[0..np) into grads[] (a node of the
 * parameter's dtype and shape each; zeros where the loss does not depend on it). Values in
 * stop[0..nstop) are treated as constants. An op without a gradient on a path from a parameter
 * to the loss is an error naming the node. Returns 0 or -1 with the error in b->d. */
int autodiff_grads(Builder *b, NodeId loss, const NodeId *params, int np, const NodeId *stop,
                   int nstop, NodeId *grads);

/* The optimizer inputs the train section needs, by name and type, in order (momentum buffers,
 * AdamW moments and step, a learning-rate input that the graph lacks). */
typedef struct {
    char name[IR_MAX_NAME + 8];
    TensorType type;
    NodeId param;      /* the parameter it belongs to, or -1 */
} OptInput;
/* Lists them into *out (malloc'd); returns the count. */
int optim_inputs(const Graph *g, const Train *t, OptInput **out);
/* Appends the update of every parameter (grads from autodiff_grads) and sets upd[i] to the
 * updated parameter and state[] to the updated optimizer state (optim_inputs' order, -1 where
 * an entry has no update such as the learning rate). */
int optim_build(Builder *b, const Train *t, const NodeId *grads, const OptInput *ins,
                const NodeId *in_ids, int nins, NodeId *upd, NodeId *state);

/* The pass: consumes g->train (when present): appends gradients, the optimizer update and the
 * outputs and donations of the training step. */
int pass_autodiff(Graph *g, Diag *d);

#endif
