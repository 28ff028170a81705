/* compiler/onnx_import.h: the ONNX importer's shared state, between frontend_onnx.c (the model,
 * tensors, names, values) and onnx_ops.c (one lowering per ONNX operator). Internal. */
#ifndef GTC_ONNX_IMPORT_H
#define GTC_ONNX_IMPORT_H

#include "../ir/ir.h"
#include "onnx.pb-c.h"

/* The oldest default-domain opset the importer reads (the operator forms of opset 13 on). */
#define OX_MIN_OPSET 13
/* A constant tensor of at most this many elements is built in the graph (full and concat
 * nodes); a larger one becomes an input whose value gtc compile writes to the .npz. */
#define OX_INLINE_MAX 16

/* A tensor whose value is known while importing: an initializer, a Constant, a Shape, or an
 * integer computation on those (the shape arithmetic exporters emit). */
typedef struct {
    DType dtype;
    int rank;
    int64_t dims[IR_MAX_RANK];
    int64_t numel;
    double *v;                      /* owned; numel values (exact for float32 and |ints| < 2^53) */
    int64_t *iv;                    /* owned; the exact values of an integer or bool tensor */
} OxConst;

/* One ONNX value name. */
typedef struct {
    char *name;                     /* owned; as in the file */
    NodeId id;                      /* its IR node, or -1 until a node reads it as data */
    OxConst *c;                     /* owned; its value when known (else NULL) */
    bool is_init;                   /* an initializer: data use makes it a parameter input */
    bool no_train;                  /* a parameter the optimizer must not update (running stats) */
} OxValue;

typedef struct {
    const char *file;
    Diag *d;
    const char *dims;               /* --dim's spec, or NULL */
    Graph *g;
    Onnx__ModelProto *model;
    int64_t opset;                  /* the default domain's version */
    OxValue *vals;
    int nvals, capvals;
    NameMap byname;                 /* ONNX name -> index in vals */
    NameMap used;                   /* IR names taken (the graph's node names) */
    int checked;                    /* g's nodes already in `used` */
    const Onnx__NodeProto *node;    /* the node being lowered (for messages and names) */
    int node_index;
    char base[IR_MAX_NAME + 1];     /* the IR name its nodes are derived from */
    int seq;                        /* intermediates of this node */
    NodeId *params;                 /* inputs made from float initializers, in order */
    int nparams;
    bool *params_train;
    char **dead;                    /* names replaced by ox_set (still keys of `used`) */
    int ndead;
} Ox;

/* ---- frontend_onnx.c -------------------------------------------------------------------------- */

/* An error at the current node: "nodes[3] "name" (Gemm, opset 13): ...". Returns -1. */
int ox_fail(Ox *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The value named `name` (an input of the current node; "" is an omitted optional input:
 * NULL). An unknown name is an error (NULL with the message set). */
OxValue *ox_value(Ox *x, const char *name, bool *failed);
/* The IR operand for a value read as data: its node, made on first use (a parameter input for
 * an initializer, an inline or built constant, or an input for a large constant). */
int ox_operand(Ox *x, OxValue *v, Operand *out);
/* A fresh IR name derived from the current node's ("<base>__<k>"). */
const char *ox_fresh(Ox *x, char *buf, size_t n);
/* Appends a typed primitive node; -1 after the error is set. */
NodeId ox_add(Ox *x, Op op, int nin, const Operand *in, const Attrs *a);
/* Expands a composite through ir_expand_composite; -1 after the error is set. */
NodeId ox_composite(Ox *x, Op op, int nin, const Operand *in, const Attrs *a);
/* The type of an operand (a node's or an inline constant's). */
TensorType ox_type(Ox *x, Operand o);
/* Defines output k of the current node: an IR node, or a constant. */
int ox_set(Ox *x, int k, NodeId id);
int ox_set_const(Ox *x, int k, OxConst *c);
OxConst *ox_const_new(DType dt, int rank, const int64_t *dims);
void ox_const_free(OxConst *c);

/* Attributes of the current node. ox_attr: NULL when absent. */
const Onnx__AttributeProto *ox_attr(Ox *x, const char *name);
int ox_attr_int(Ox *x, const char *name, int64_t def, int64_t *out);
int ox_attr_float(Ox *x, const char *name, double def, double *out);
/* A list of at most max ints; *n = -1 when absent. */
int ox_attr_ints(Ox *x, const char *name, int64_t *out, int max, int *n);
int ox_attr_string(Ox *x, const char *name, const char *def, char *out, size_t n);
/* Reads a TensorProto's value (checks dims, dtype, data size; refuses external data). NULL after
 * the error is set. */
OxConst *ox_tensor(Ox *x, const Onnx__TensorProto *t, const char *what);

/* ---- onnx_weights.c --------------------------------------------------------------------------- */

/* Writes the values of the inputs made from known tensors to npz_path; the member count, or -1
 * with the error in x->d. */
int ox_write_npz(Ox *x, const char *npz_path);

/* ---- onnx_ops.c ------------------------------------------------------------------------------- */

/* Lowers the current node x->node; 0 or -1 after the error is set. */
int ox_lower_node(Ox *x);
/* The current node's input count, and input k's value (NULL when omitted; *failed set when it
 * names nothing). */
int ox_nin(Ox *x);
OxValue *ox_input(Ox *x, int k, bool *failed);
TensorType ox_vtype(Ox *x, const OxValue *v);
/* Input k's integer value, known while importing: at most max entries (*n = -1: omitted). */
int ox_static_ints(Ox *x, int k, const char *what, int64_t *out, int max, int *n);
/* Squeeze (un false) or Unsqueeze's result shape; Reshape's target with 0s resolved. */
int ox_squeeze_shape(Ox *x, bool un, const TensorType *t, const int64_t *ax, int n, int64_t *out, int *rank);
int ox_reshape_target(Ox *x, const TensorType *t, int64_t *s, int n, bool allowzero);
/* Refuses a node whose outputs after the first are read. */
int ox_only_first_output(Ox *x);
/* Refuses any attribute not in known (NULL-terminated). */
int ox_attrs_known(Ox *x, const char *const *known);
#define KNOWN(...) do { static const char *const k_[] = {__VA_ARGS__, NULL}; if (ox_attrs_known(x, k_)) return -1; } while (0)
#define NO_ATTRS() do { static const char *const k_[] = {NULL}; if (ox_attrs_known(x, k_)) return -1; } while (0)
/* Slice bounds and steps beyond +-2^53 as +-IR_SLICE_BIG (INT64_MAX / INT64_MIN: "to the end"). */
static inline int64_t ox_clamp_bound(int64_t v) { return v > IR_SLICE_BIG ? IR_SLICE_BIG : v < -IR_SLICE_BIG ? -IR_SLICE_BIG : v; }

/* ---- onnx_fold.c ------------------------------------------------------------------------------ */

int ox_lower_constant(Ox *x, Op op);
int ox_lower_shape(Ox *x, Op op);
/* Folds an integer op whose inputs are all known: 1 when folded, 0 when not, -1 on error. */
int ox_fold(Ox *x, const char *type);

#endif
