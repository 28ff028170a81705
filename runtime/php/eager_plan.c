/* runtime/php/eager_plan.c: an eager composite op (conv2d, the pools, softmax, layer_norm, ...)
 * on the GPU runs as one planned graph instead of primitive by primitive.
 *
 * Op by op, a conv2d is a pad, two concats of strided views, a transposing copy, a GEMM and a
 * bias add: six launches and four passes over the im2col columns. Planned by the JIT's own
 * planner and executor (the path Cuda\Fusion and Cuda\Optimizer take: php_gtc_fusion_graph),
 * the same expansion is one im2col kernel, the GEMM and one epilogue, replayed as a CUDA Graph.
 * Plans are kept per op, attributes and operand types (eight, most recent first, and no more
 * arena than EAGER_ARENA_BUDGET beyond the newest); the first call
 * of a shape builds the kernels (NVRTC, then the disk cache). Only where it pays and nothing else
 * watches the op: CUDA tensors, no trace (a traced composite is recorded as its primitives), no
 * autograd history (the tape records primitives), every operand a tensor. Anything that cannot
 * be planned falls back to the op-by-op path, whose messages are the canonical ones.
 * A conv2d large enough that the backend's library convolution beats the plan (cuDNN,
 * runtime/cuda/cuda_cudnn.cu; GTC_CONV) goes there instead (rt_conv2d_library).
 * GTC_EAGER_PLAN=0 turns it off (to compare); GTC_EAGER_PLAN=all plans on the CPU backend too
 * (its kernels are built with cc: worth it only for shapes used many times; the tests use it). */
#include "fusion.h"
#include "plan_class.h"

#include "zend_exceptions.h"

#define EAGER_PLANS 8
/* Kept plans hold their arenas (a large conv2d's im2col columns: hundreds of MB): beyond this
 * much, the oldest are let go (the newest is always kept). */
#define EAGER_ARENA_BUDGET ((int64_t)256 << 20)

typedef struct {
    Op op;
    int nin;
    Attrs attrs;
    TensorType types[IR_MAX_INPUTS];
} Key;

static struct {
    Key key[EAGER_PLANS];
    zval graph[EAGER_PLANS]; /* Cuda\FusionGraph, or UNDEF */
    int n;                   /* entries used, most recent first */
} g_plans;

void php_gtc_eager_plan_clear(void) {
    for (int i = 0; i < g_plans.n; i++) zval_ptr_dtor(&g_plans.graph[i]);
    g_plans.n = 0;
}

/* 0: never, 1: on CUDA (the default), 2: on every backend. */
static int mode(void) {
    static int m = -1;
    if (m < 0) {
        const char *e = getenv("GTC_EAGER_PLAN");
        m = e && strcmp(e, "0") == 0 ? 0 : e && strcmp(e, "all") == 0 ? 2 : 1;
    }
    return m;
}

/* The graph in(0..nin) -> op -> out, its composite expanded; NULL when it does not expand (the
 * op-by-op path then reports why). */
static Graph *one_op_graph(const Key *k) {
    Graph *g = graph_new("eager");
    Operand ops[IR_MAX_INPUTS];
    for (int i = 0; i < k->nin; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "in%d", i);
        ops[i] = (Operand){.id = graph_add(g, nm, OP_INPUT)};
        g->nodes[ops[i].id].type = k->types[i];
        g->nodes[ops[i].id].input_index = i;
    }
    g->ninputs = k->nin;
    char err[512];
    NodeId last = ir_expand_composite(g, k->op, ops, k->nin, &k->attrs, "out", "", err, sizeof err);
    if (last < 0) {
        graph_free(g);
        return NULL;
    }
    graph_add_output(g, "out", last);
    return g;
}

bool php_gtc_eager_planned(Op op, const RtOperand *in, int nin, const Attrs *a, RtTensor **out) {
    int m = mode();
    if (!m || nin < 1 || nin > IR_MAX_INPUTS || ir_ops[op].kind != K_COMPOSITE) return false;
    Key k;
    memset(&k, 0, sizeof k);
    k.op = op, k.nin = nin;
    if (a) k.attrs = *a;
    const RtBackend *b = NULL;
    for (int i = 0; i < nin; i++) {
        if (!in[i].t || php_gtc_is_placeholder(in[i].t)) return false;
        if (b && in[i].t->storage->backend != b) return false;
        b = in[i].t->storage->backend;
        k.types[i] = rt_type(in[i].t);
        /* compiled steps refuse the 2-byte floats (emit_check_plan): op by op, without asking */
        if (ir_dtype_is_half(k.types[i].dtype)) return false;
    }
    if ((m < 2 && strcmp(b->name, "cuda") != 0) || php_gtc_autograd_wants(in, nin)) return false;
    /* a large convolution goes to the backend's library (cuDNN) when it has one that wants it */
    if (op == OP_CONV2D && rt_conv2d_library(in, nin, &k.attrs, out)) return true;
    int hit = -1;
    for (int i = 0; i < g_plans.n && hit < 0; i++)
        if (!memcmp(&g_plans.key[i], &k, sizeof k)) hit = i;
    if (hit < 0) {
        Graph *g = one_op_graph(&k);
        if (!g) return false;
        zval shape, made;
        ZVAL_LONG(&shape, 0); /* run() returns output 0 itself */
        if (!php_gtc_fusion_graph(g, ir_ops[op].name, &shape, &made)) {
            zend_clear_exception(); /* the op-by-op path says what is wrong */
            rt_clear_error();
            return false;
        }
        if (g_plans.n == EAGER_PLANS) zval_ptr_dtor(&g_plans.graph[--g_plans.n]);
        hit = g_plans.n++;
        g_plans.key[hit] = k;
        ZVAL_COPY_VALUE(&g_plans.graph[hit], &made);
    }
    if (hit > 0) { /* most recent first */
        Key kk = g_plans.key[hit];
        zval gg = g_plans.graph[hit];
        memmove(&g_plans.key[1], &g_plans.key[0], (size_t)hit * sizeof(Key));
        memmove(&g_plans.graph[1], &g_plans.graph[0], (size_t)hit * sizeof(zval));
        g_plans.key[0] = kk, g_plans.graph[0] = gg;
    }
    int64_t arena = 0;
    for (int i = 0; i < g_plans.n; i++) {
        arena += php_gtc_plan_from_obj(Z_OBJ(g_plans.graph[i]))->plan->arena_bytes;
        if (i > 0 && arena > EAGER_ARENA_BUDGET) { /* this one and the older ones go */
            for (int j = i; j < g_plans.n; j++) zval_ptr_dtor(&g_plans.graph[j]);
            g_plans.n = i;
        }
    }
    zval args[IR_MAX_INPUTS], res;
    for (int i = 0; i < nin; i++) php_gtc_wrap(&args[i], php_gtc_ce_CudaArray, rt_retain(in[i].t));
    bool ok = php_gtc_plan_run(php_gtc_plan_from_obj(Z_OBJ(g_plans.graph[0])), false, args, (uint32_t)nin, NULL, &res);
    for (int i = 0; i < nin; i++) zval_ptr_dtor(&args[i]);
    if (!ok) { /* a run-time failure (out of memory): handed back as an rt error, as rt_apply's */
        *out = NULL;
        zval rv, *msg = EG(exception) ? zend_read_property(EG(exception)->ce, EG(exception), "message",
                                                          sizeof "message" - 1, 1, &rv) : NULL;
        rt_error(RT_ERUNTIME, "%s: %s", ir_ops[op].name, msg && Z_TYPE_P(msg) == IS_STRING ? Z_STRVAL_P(msg) : "failed");
        zend_clear_exception();
        return true;
    }
    *out = rt_retain(php_gtc_array_tensor(&res));
    zval_ptr_dtor(&res);
    return true;
}
