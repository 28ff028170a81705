/* compiler/ad_build.h: a builder that appends typed, named nodes to a graph, shared by the
 * gradient rules (compiler/pass_autodiff.c) and the optimizer updates (compiler/optim.c).
 *
 * Ownership: every node built is appended to the graph and owned by it. */
#ifndef GTC_AD_BUILD_H
#define GTC_AD_BUILD_H

#include "../ir/ir.h"

/* Appends typed nodes to a graph. Each new node gets a placeholder name and a wanted name
 * (want[id - first]); ad_finish gives every new node its wanted name, made unique against all
 * others (the last node to want a name gets it plain, earlier ones "_2", "_3", ...). The first
 * failure (an internal error: a rule built a node that does not type) is kept in d and makes
 * every later call a no-op returning -1. */
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
NodeId ad_tri(Builder *b, const char *want, Op op, Operand x, Operand y, Operand z);
/* reshape, transpose and broadcast_to; reshape and broadcast_to return x when it already has
 * the shape asked for. */
NodeId ad_reshape(Builder *b, const char *want, NodeId x, int rank, const int64_t *dims);
NodeId ad_transpose(Builder *b, const char *want, NodeId x, const int *perm, int rank);
NodeId ad_broadcast(Builder *b, const char *want, NodeId x, const TensorType *to);

#endif
