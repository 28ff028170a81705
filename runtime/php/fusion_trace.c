/* runtime/php/fusion_trace.c: tracing for Cuda\Fusion (fusion.h). php_gtc_apply is the one
 * hook every CudaArray op method and operator goes through: eager rt_apply for real tensors,
 * an IR node (graph_add with the same Attrs the method built) for placeholders. */
#include "fusion.h"

/* The storage every placeholder shares: no data, never freed. */
static RtStorage g_placeholder = {.refcount = 1 << 30, .backend = &rt_cpu_backend, .data = NULL, .bytes = 0};

static struct {
    bool active;
    Graph *g;
    RtTensor **held; /* placeholders created by this trace (one reference each) */
    NodeId *ids;     /* their nodes */
    int n, cap;
    int counter;
} T;

bool php_gtc_is_placeholder(const RtTensor *t) { return t && t->storage == &g_placeholder; }
bool php_gtc_tracing(void) { return T.active; }

bool php_gtc_check_data(const RtTensor *t) {
    if (!php_gtc_is_placeholder(t)) return true;
    php_gtc_throw(RT_ERUNTIME, "placeholder tensors have no data %s",
                  T.active ? "during tracing" : "(this one is left over from a finished trace)");
    return false;
}

bool php_gtc_trace_forbid(const char *what) {
    if (!T.active) return true;
    php_gtc_throw(RT_ERUNTIME, "%s: not supported while Cuda\\Fusion is tracing", what);
    return false;
}

int fusion_trace_begin(const char *name, const RtBackend *b) {
    if (T.active) return rt_error(RT_ERUNTIME, "nested capture: Cuda\\Fusion is already tracing a function");
    memset(&T, 0, sizeof T);
    T.g = graph_new(name);
    T.active = true;
    g_placeholder.backend = b;
    return 0;
}

Graph *fusion_trace_graph(void) { return T.active ? T.g : NULL; }

NodeId fusion_trace_node(const RtTensor *t) {
    if (!T.active) return -1;
    for (int i = T.n - 1; i >= 0; i--)
        if (T.held[i] == t) return T.ids[i];
    return -1;
}

static RtTensor *placeholder(const TensorType *t, NodeId id) {
    RtTensor *p = calloc(1, sizeof *p);
    if (!p) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    p->refcount = 2; /* the caller's and the trace's */
    p->dtype = t->dtype;
    p->rank = t->rank;
    memcpy(p->shape, t->dims, (size_t)t->rank * sizeof *p->shape);
    rt_contiguous_strides(t->rank, p->shape, p->strides);
    p->storage = &g_placeholder;
    g_placeholder.refcount++;
    if (T.n == T.cap) {
        T.cap = T.cap ? 2 * T.cap : 32;
        /* malloc, not emalloc: a trace cut short by a fatal error is dropped at the next RINIT */
        RtTensor **held = realloc(T.held, (size_t)T.cap * sizeof *held);
        if (held) T.held = held;
        NodeId *ids = realloc(T.ids, (size_t)T.cap * sizeof *ids);
        if (ids) T.ids = ids;
        if (!held || !ids) abort();
    }
    T.held[T.n] = p;
    T.ids[T.n++] = id;
    return p;
}

RtTensor *fusion_trace_input(const char *name, const TensorType *t) {
    char err[256];
    if (!ir_is_identifier(name)) {
        rt_error(RT_EINVAL, "input name \"%.64s\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                 name, IR_MAX_NAME);
        return NULL;
    }
    if (graph_find(T.g, name) >= 0) {
        rt_error(RT_EINVAL, "input \"%s\" is given twice", name);
        return NULL;
    }
    if (ir_check_type(t, err, sizeof err)) {
        rt_error(RT_EINVAL, "input \"%s\": %s", name, err);
        return NULL;
    }
    NodeId id = graph_add(T.g, name, OP_INPUT);
    if (id < 0) {
        rt_error(RT_EINVAL, "the traced graph has too many nodes");
        return NULL;
    }
    Node *nd = &T.g->nodes[id];
    nd->type = *t;
    nd->type.weak = false;
    nd->input_index = T.g->ninputs++;
    snprintf(nd->loc, sizeof nd->loc, "inputs[%d]", nd->input_index);
    return placeholder(t, id);
}

/* A node for op over traced operands. */
static RtTensor *record(Op op, const RtOperand *in, int nin, const Attrs *a) {
    static const Attrs none;
    if (!a) a = &none;
    TensorType tin[IR_MAX_INPUTS] = {{0}};
    Operand ops[IR_MAX_INPUTS] = {{0}};
    if (nin < 0 || nin > IR_MAX_INPUTS) {
        rt_error(RT_EINVAL, "%s: bad operand count", ir_ops[op].name);
        return NULL;
    }
    for (int i = 0; i < nin; i++) {
        if (in[i].t) {
            NodeId id = fusion_trace_node(in[i].t);
            if (id < 0) {
                if (php_gtc_is_placeholder(in[i].t))
                    rt_error(RT_ERUNTIME, "%s: a placeholder tensor of another trace was used", ir_ops[op].name);
                else
                    rt_error(RT_EINVAL, "%s: captured tensors are not supported while tracing: pass the "
                             "tensor as an input of Cuda\\Fusion::compile", ir_ops[op].name);
                return NULL;
            }
            ops[i] = (Operand){.id = id};
            tin[i] = T.g->nodes[id].type;
        } else {
            ops[i] = (Operand){.id = -1, .value = in[i].value};
            tin[i] = graph_operand_type(NULL, &ops[i]);
        }
    }
    TensorType out;
    char err[512];
    if (ir_infer_op(op, tin, nin, a, &out, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s: %s", ir_ops[op].name, err);
        return NULL;
    }
    /* The IR's constants carry no "written as a float" mark: refuse what eager would type
     * differently (an integer tensor with 2.0) rather than record a different result type. */
    for (int i = 0; i < nin; i++)
        if (!in[i].t && in[i].is_float && !ir_dtype_is_float(tin[i].dtype)) {
            TensorType f[IR_MAX_INPUTS], o2;
            memcpy(f, tin, sizeof f);
            f[i].dtype = DT_FLOAT32;
            if (ir_infer_op(op, f, nin, a, &o2, err, sizeof err) || !ir_type_equal(&o2, &out)) {
                char num[64];
                ir_fmt_number(in[i].value, num, sizeof num);
                rt_error(RT_EINVAL, "%s: the float constant %s%s would make this op float32 eagerly but not "
                         "in the traced graph: cast the tensor first (astype) while tracing",
                         ir_ops[op].name, num, strpbrk(num, ".eEna") ? "" : ".0");
                return NULL;
            }
        }
    char name[32];
    do snprintf(name, sizeof name, "t%d", T.counter++);
    while (graph_find(T.g, name) >= 0);
    NodeId id = graph_add(T.g, name, op);
    if (id < 0) {
        rt_error(RT_EINVAL, "the traced graph has too many nodes");
        return NULL;
    }
    Node *nd = &T.g->nodes[id];
    nd->ninputs = nin;
    memcpy(nd->in, ops, (size_t)nin * sizeof *ops);
    nd->attrs = *a;
    nd->type = out;
    snprintf(nd->loc, sizeof nd->loc, "trace:%d", id);
    return placeholder(&out, id);
}

RtTensor *php_gtc_apply(Op op, const RtOperand *in, int nin, const Attrs *a) {
    bool traced = false;
    for (int i = 0; i < nin; i++) traced |= php_gtc_is_placeholder(in[i].t);
    if (!traced) return rt_apply(op, in, nin, a);
    if (!T.active) {
        rt_error(RT_ERUNTIME, "placeholder tensors have no data outside tracing");
        return NULL;
    }
    return record(op, in, nin, a);
}

Graph *fusion_trace_end(void) {
    if (!T.active) return NULL;
    Graph *g = T.g;
    for (int i = 0; i < T.n; i++) rt_release(T.held[i]);
    free(T.held);
    free(T.ids);
    memset(&T, 0, sizeof T);
    return g;
}

void php_gtc_fusion_rinit(void) {
    /* a fatal error (a bailout) inside a traced function never returned to Fusion::compile */
    if (T.active) graph_free(fusion_trace_end());
}
