/* compiler/frontend_onnx.c: the ONNX front-end (docs/onnx.md). Decodes a ModelProto with
 * protobuf-c (onnx.proto compiled at build time), checks the model's envelope (opsets, types,
 * static shapes, tensor data, no external data), makes the graph's inputs, lowers each node with
 * onnx_ops.c into IR nodes, and names the outputs. Initializers read as data become inputs (the
 * model's parameters, in order of first use); values known while importing (initializers read as
 * shapes or axes, Constant, Shape) are folded. --train adds a loss and a "train" section. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontend_onnx.h"
#include "onnx_import.h"

/* ---- messages --------------------------------------------------------------------------------- */

int ox_fail(Ox *x, const char *fmt, ...) {
    char msg[768], loc[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->node) {
        char nm[80] = "";
        if (x->node->name && *x->node->name) snprintf(nm, sizeof nm, " \"%.60s\"", x->node->name);
        snprintf(loc, sizeof loc, "nodes[%d]%s (%.40s, opset %lld)", x->node_index, nm,
                 x->node->op_type ? x->node->op_type : "?", (long long)x->opset);
        diag_at(x->d, loc, "%s", msg);
    } else {
        diag_at(x->d, NULL, "%s", msg);
    }
    return -1;
}

/* ---- names ------------------------------------------------------------------------------------ */

/* Keeps x->used up to date with the graph's node names (names are malloc'd per node, so the
 * map's borrowed keys stay valid when the node array grows). */
static void sync_used(Ox *x) {
    if (!x->g) return;
    for (; x->checked < x->g->nnodes; x->checked++)
        namemap_put(&x->used, x->g->nodes[x->checked].name, x->checked);
}

/* An IR identifier for an ONNX name: other characters become '_', a leading digit gets '_' before
 * it, at most 80 characters (room for composites' "__what" suffixes), and a taken name gets
 * "_2", "_3", ... */
static void ir_name(Ox *x, const char *onnx, char *out, size_t n) {
    sync_used(x);
    char base[96];
    size_t k = 0;
    if (!onnx || !*onnx || (*onnx >= '0' && *onnx <= '9')) base[k++] = '_';
    for (const char *s = onnx ? onnx : ""; *s && k < 80; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        base[k++] = ok ? c : '_';
    }
    base[k] = 0;
    snprintf(out, n, "%s", base);
    for (int i = 2; namemap_get(&x->used, out) >= 0; i++) snprintf(out, n, "%s_%d", base, i);
}

const char *ox_fresh(Ox *x, char *buf, size_t n) {
    sync_used(x);
    do snprintf(buf, n, "%s__%d", x->base, ++x->seq);
    while (namemap_get(&x->used, buf) >= 0);
    return buf;
}

/* ---- values ----------------------------------------------------------------------------------- */

static int add_value(Ox *x, const char *name, OxValue **out) {
    if (namemap_get(&x->byname, name) >= 0) return -1;
    if (x->nvals == x->capvals) {
        /* the map borrows the names, which are separately allocated: growing vals is safe */
        x->capvals = x->capvals ? x->capvals * 2 : 64;
        x->vals = realloc(x->vals, (size_t)x->capvals * sizeof *x->vals);
        if (!x->vals) abort();
    }
    OxValue *v = &x->vals[x->nvals];
    memset(v, 0, sizeof *v);
    v->name = strdup(name);
    if (!v->name) abort();
    v->id = -1;
    namemap_put(&x->byname, v->name, x->nvals++);
    *out = v;
    return 0;
}

OxValue *ox_value(Ox *x, const char *name, bool *failed) {
    if (!name || !*name) return NULL;
    NodeId i = namemap_get(&x->byname, name);
    if (i < 0) {
        *failed = true;
        ox_fail(x, "input \"%.80s\" is not defined before this node (nodes must be in topological order, without cycles)",
                name);
        return NULL;
    }
    return &x->vals[i];
}

OxConst *ox_const_new(DType dt, int rank, const int64_t *dims) {
    OxConst *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->dtype = dt, c->rank = rank, c->numel = 1;
    for (int i = 0; i < rank; i++) c->dims[i] = dims[i], c->numel *= dims[i];
    c->v = calloc((size_t)c->numel + 1, sizeof *c->v);
    if (!ir_dtype_is_float(dt)) c->iv = calloc((size_t)c->numel + 1, sizeof *c->iv);
    if (!c->v || (!ir_dtype_is_float(dt) && !c->iv)) abort();
    return c;
}

void ox_const_free(OxConst *c) {
    if (!c) return;
    free(c->v), free(c->iv), free(c);
}

TensorType ox_type(Ox *x, Operand o) { return graph_operand_type(x->g, &o); }

NodeId ox_add(Ox *x, Op op, int nin, const Operand *in, const Attrs *a) {
    char nm[IR_MAX_NAME + 32];
    ox_fresh(x, nm, sizeof nm);
    NodeId id = graph_add(x->g, nm, op);
    if (id < 0) return ox_fail(x, "the model has more than %d values", IR_MAX_NODES);
    Node *n = &x->g->nodes[id];
    n->ninputs = nin;
    for (int i = 0; i < nin; i++) n->in[i] = in[i];
    if (a) n->attrs = *a;
    snprintf(n->loc, sizeof n->loc, "nodes[%d]", x->node_index);
    char err[512];
    TensorType t[IR_MAX_INPUTS];
    for (int i = 0; i < nin; i++) t[i] = ox_type(x, in[i]);
    if (ir_infer_op(op, t, nin, &n->attrs, &n->type, err, sizeof err)) {
        free(n->name);
        x->g->nnodes--;
        return ox_fail(x, "%s", err);
    }
    return id;
}

NodeId ox_composite(Ox *x, Op op, int nin, const Operand *in, const Attrs *a) {
    char nm[IR_MAX_NAME + 32], loc[48], err[512];
    ox_fresh(x, nm, sizeof nm);
    snprintf(loc, sizeof loc, "nodes[%d]", x->node_index);
    NodeId id = ir_expand_composite(x->g, op, in, nin, a, nm, loc, err, sizeof err);
    if (id < 0) return ox_fail(x, "%s", err);
    return id;
}

/* A constant as IR: a rank-0 value inline; up to OX_INLINE_MAX elements as full nodes (one, or
 * one per element concatenated and reshaped); more as an input whose value is written to the
 * .npz (never trained). */
static int const_operand(Ox *x, OxValue *v, Operand *out) {
    OxConst *c = v->c;
    if (c->rank == 0 && !v->is_init) {
        *out = (Operand){-1, c->v[0]};
        return 0;
    }
    if (c->numel <= OX_INLINE_MAX && !v->is_init) {
        Attrs a = {.has_dtype = true, .dtype = c->dtype};
        if (c->numel == 1 || c->numel == 0) {
            a.nshape = c->rank;
            memcpy(a.shape, c->dims, sizeof a.shape);
            a.value = c->numel ? c->v[0] : 0;
            out->id = ox_add(x, OP_FULL, 0, NULL, &a);
            return out->id < 0 ? -1 : 0;
        }
        Operand parts[OX_INLINE_MAX];
        a.nshape = 1, a.shape[0] = 1;
        for (int64_t i = 0; i < c->numel; i++) {
            a.value = c->v[i];
            if ((parts[i].id = ox_add(x, OP_FULL, 0, NULL, &a)) < 0) return -1;
        }
        Attrs cat = {.axis = 0, .has_axis = true};
        NodeId flat = ox_add(x, OP_CONCAT, (int)c->numel, parts, &cat);
        if (flat < 0) return -1;
        Attrs rs = {.nshape = c->rank};
        memcpy(rs.shape, c->dims, sizeof rs.shape);
        out->id = ox_add(x, OP_RESHAPE, 1, &(Operand){flat, 0}, &rs);
        return out->id < 0 ? -1 : 0;
    }
    /* an input (a parameter when it is a float initializer) */
    char nm[IR_MAX_NAME + 32];
    ir_name(x, v->name, nm, sizeof nm);
    NodeId id = graph_add(x->g, nm, OP_INPUT);
    if (id < 0) return ox_fail(x, "the model has more than %d values", IR_MAX_NODES);
    Node *n = &x->g->nodes[id];
    n->type.dtype = c->dtype, n->type.rank = c->rank;
    memcpy(n->type.dims, c->dims, sizeof n->type.dims);
    snprintf(n->loc, sizeof n->loc, "initializer");
    if (v->is_init && ir_dtype_is_float(c->dtype)) {
        x->params = realloc(x->params, (size_t)(x->nparams + 1) * sizeof *x->params);
        x->params_train = realloc(x->params_train, (size_t)(x->nparams + 1) * sizeof *x->params_train);
        if (!x->params || !x->params_train) abort();
        x->params_train[x->nparams] = !v->no_train;
        x->params[x->nparams++] = id;
    }
    v->id = id;
    *out = (Operand){id, 0};
    return 0;
}

int ox_operand(Ox *x, OxValue *v, Operand *out) {
    if (v->id >= 0) {
        *out = (Operand){v->id, 0};
        return 0;
    }
    if (!v->c) return ox_fail(x, "internal: value \"%.80s\" has neither a node nor a value", v->name);
    if (const_operand(x, v, out)) return -1;
    v->id = out->id; /* built once (-1 for an inline rank-0 value) */
    return 0;
}

static OxValue *output_value(Ox *x, int k) {
    const Onnx__NodeProto *nd = x->node;
    if ((size_t)k >= nd->n_output || !nd->output[k] || !*nd->output[k]) return NULL;
    OxValue *v;
    if (add_value(x, nd->output[k], &v)) {
        ox_fail(x, "output \"%.80s\" is defined twice", nd->output[k]);
        return NULL;
    }
    return v;
}

int ox_set(Ox *x, int k, NodeId id) {
    const Onnx__NodeProto *nd = x->node;
    if ((size_t)k >= nd->n_output || !nd->output[k] || !*nd->output[k]) return 0; /* unused output */
    OxValue *v = output_value(x, k);
    if (!v) return -1;
    v->id = id;
    /* the node made here takes the output's name (inputs and earlier values keep theirs) */
    if (id >= 0 && x->g->nodes[id].op != OP_INPUT && strncmp(x->g->nodes[id].name, x->base, strlen(x->base)) == 0 &&
        strncmp(x->g->nodes[id].name + strlen(x->base), "__", 2) == 0) {
        char nm[IR_MAX_NAME + 32];
        ir_name(x, nd->output[k], nm, sizeof nm);
        char *s = strdup(nm);
        if (!s) abort();
        /* the old name stays taken (x->used borrows it): kept until the import ends */
        x->dead = realloc(x->dead, (size_t)(x->ndead + 1) * sizeof *x->dead);
        if (!x->dead) abort();
        x->dead[x->ndead++] = x->g->nodes[id].name;
        x->g->nodes[id].name = s;
        namemap_put(&x->used, s, id);
    }
    return 0;
}

int ox_set_const(Ox *x, int k, OxConst *c) {
    const Onnx__NodeProto *nd = x->node;
    if ((size_t)k >= nd->n_output || !nd->output[k] || !*nd->output[k]) {
        ox_const_free(c);
        return 0;
    }
    OxValue *v = output_value(x, k);
    if (!v) {
        ox_const_free(c);
        return -1;
    }
    v->c = c;
    return 0;
}

/* ---- attributes ------------------------------------------------------------------------------- */

const Onnx__AttributeProto *ox_attr(Ox *x, const char *name) {
    for (size_t i = 0; i < x->node->n_attribute; i++)
        if (x->node->attribute[i]->name && strcmp(x->node->attribute[i]->name, name) == 0) return x->node->attribute[i];
    return NULL;
}

static bool attr_is(const Onnx__AttributeProto *a, Onnx__AttributeProto__AttributeType t) {
    return a->has_type ? a->type == t : false;
}

int ox_attr_int(Ox *x, const char *name, int64_t def, int64_t *out) {
    const Onnx__AttributeProto *a = ox_attr(x, name);
    if (!a) return *out = def, 0;
    if (!attr_is(a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT)) return ox_fail(x, "attribute \"%s\" must be an int", name);
    *out = a->i;
    return 0;
}

int ox_attr_float(Ox *x, const char *name, double def, double *out) {
    const Onnx__AttributeProto *a = ox_attr(x, name);
    if (!a) return *out = def, 0;
    if (!attr_is(a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT)) return ox_fail(x, "attribute \"%s\" must be a float", name);
    *out = a->f;
    return 0;
}

int ox_attr_ints(Ox *x, const char *name, int64_t *out, int max, int *n) {
    const Onnx__AttributeProto *a = ox_attr(x, name);
    if (!a) return *n = -1, 0;
    if (!attr_is(a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS))
        return ox_fail(x, "attribute \"%s\" must be a list of ints", name);
    if (a->n_ints > (size_t)max) return ox_fail(x, "attribute \"%s\" has %zu entries (at most %d)", name, a->n_ints, max);
    if (a->n_ints) memcpy(out, a->ints, a->n_ints * sizeof *out);
    *n = (int)a->n_ints;
    return 0;
}

int ox_attr_string(Ox *x, const char *name, const char *def, char *out, size_t n) {
    const Onnx__AttributeProto *a = ox_attr(x, name);
    if (!a) return snprintf(out, n, "%s", def), 0;
    if (!attr_is(a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING) || !a->has_s)
        return ox_fail(x, "attribute \"%s\" must be a string", name);
    size_t k = a->s.len < n - 1 ? a->s.len : n - 1;
    if (k) memcpy(out, a->s.data, k);
    out[k] = 0;
    if (strlen(out) != k) return ox_fail(x, "attribute \"%s\" holds a NUL byte", name);
    return 0;
}

/* ---- tensors ---------------------------------------------------------------------------------- */

/* ONNX's TensorProto.DataType numbers for the dtypes gtc has (0: none). */
static const struct {
    int onnx;
    DType dt;
    const char *name;
} onnx_types[] = {{1, DT_FLOAT32, "FLOAT"}, {2, DT_UINT8, "UINT8"},   {3, DT_INT8, "INT8"},     {4, DT_UINT16, "UINT16"},
                  {5, DT_INT16, "INT16"},   {6, DT_INT32, "INT32"},   {7, DT_INT64, "INT64"},   {9, DT_BOOL, "BOOL"},
                  {11, DT_FLOAT64, "DOUBLE"}, {12, DT_UINT32, "UINT32"}, {13, DT_UINT64, "UINT64"}};

static int onnx_dtype(int t, DType *out) {
    for (size_t i = 0; i < sizeof onnx_types / sizeof *onnx_types; i++)
        if (onnx_types[i].onnx == t) return *out = onnx_types[i].dt, 0;
    return -1;
}

static const char *onnx_type_name(int t) {
    static const char *const other[] = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING",
                                        "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
    return t >= 0 && t < (int)(sizeof other / sizeof *other) ? other[t] : "an unknown type";
}

/* dims against the limits; fills type (rank, dims) and *numel. */
static int check_dims(Ox *x, size_t n, const int64_t *dims, TensorType *t, const char *what) {
    if (n > IR_MAX_RANK) return ox_fail(x, "%s has rank %zu (at most %d)", what, n, IR_MAX_RANK);
    t->rank = (int)n;
    for (size_t i = 0; i < n; i++) {
        if (dims[i] < 0 || dims[i] >= IR_MAX_DIM)
            return ox_fail(x, "%s: dimension %zu is %lld (0 to 2^31-1)", what, i, (long long)dims[i]);
        t->dims[i] = dims[i];
    }
    char err[256];
    if (ir_check_type(t, err, sizeof err)) return ox_fail(x, "%s: %s", what, err);
    return 0;
}

OxConst *ox_tensor(Ox *x, const Onnx__TensorProto *tp, const char *what) {
    DType dt;
    if (!tp->has_data_type || onnx_dtype(tp->data_type, &dt))
        return ox_fail(x, "%s has data type %s (supported: FLOAT, DOUBLE, the integer types, BOOL)", what,
                       tp->has_data_type ? onnx_type_name(tp->data_type) : "UNDEFINED"), NULL;
    if (tp->n_external_data || (tp->has_data_location && tp->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT))
        return ox_fail(x, "%s keeps its data in an external file; gtc reads only models whose weights are inside the "
                          "file (onnx.save_model(..., save_as_external_data=False))", what), NULL;
    if (tp->segment) return ox_fail(x, "%s is a segment of a tensor (not supported)", what), NULL;
    TensorType t = {.dtype = dt};
    if (check_dims(x, tp->n_dims, tp->dims, &t, what)) return NULL;
    int64_t numel = ir_numel(&t);
    size_t es = ir_dtype_size(dt);
    const void *raw = NULL;
    size_t have = 0;
    const char *field = "raw_data";
    if (tp->has_raw_data) {
        raw = tp->raw_data.data, have = tp->raw_data.len / es;
        if (tp->raw_data.len % es || have != (size_t)numel)
            return ox_fail(x, "%s: raw_data has %zu bytes, the shape needs %lld", what, tp->raw_data.len,
                           (long long)numel * (long long)es), NULL;
    } else {
        switch (dt) {
        case DT_FLOAT32: have = tp->n_float_data, field = "float_data"; break;
        case DT_FLOAT64: have = tp->n_double_data, field = "double_data"; break;
        case DT_INT64: have = tp->n_int64_data, field = "int64_data"; break;
        case DT_UINT32: case DT_UINT64: have = tp->n_uint64_data, field = "uint64_data"; break;
        default: have = tp->n_int32_data, field = "int32_data"; break;
        }
        if (have != (size_t)numel)
            return ox_fail(x, "%s: %s has %zu values, the shape needs %lld", what, field, have, (long long)numel), NULL;
    }
    OxConst *c = ox_const_new(dt, t.rank, t.dims);
    const unsigned char *r = raw;
    for (int64_t i = 0; i < numel; i++) {
        double v = 0;
        int64_t iv = 0;
        switch (dt) {
#define RD(T) ({ T tmp; memcpy(&tmp, r + (size_t)i * sizeof(T), sizeof(T)); tmp; })
        case DT_FLOAT32: v = raw ? RD(float) : tp->float_data[i]; break;
        case DT_FLOAT64: v = raw ? RD(double) : tp->double_data[i]; break;
        case DT_INT64: iv = raw ? RD(int64_t) : tp->int64_data[i]; break;
        case DT_UINT64: iv = (int64_t)(raw ? RD(uint64_t) : tp->uint64_data[i]); break;
        case DT_UINT32: iv = raw ? RD(uint32_t) : (uint32_t)tp->uint64_data[i]; break;
        case DT_INT32: iv = raw ? RD(int32_t) : tp->int32_data[i]; break;
        case DT_INT16: iv = raw ? RD(int16_t) : (int16_t)tp->int32_data[i]; break;
        case DT_UINT16: iv = raw ? RD(uint16_t) : (uint16_t)tp->int32_data[i]; break;
        case DT_INT8: iv = raw ? RD(int8_t) : (int8_t)tp->int32_data[i]; break;
        case DT_UINT8: iv = raw ? RD(uint8_t) : (uint8_t)tp->int32_data[i]; break;
        case DT_BOOL: iv = (raw ? RD(uint8_t) : tp->int32_data[i]) != 0; break;
#undef RD
        default: break;
        }
        if (c->iv) c->iv[i] = iv, v = (double)iv;
        c->v[i] = v;
    }
    return c;
}

/* ---- the model -------------------------------------------------------------------------------- */

bool frontend_onnx_sniff(const char *buf, size_t len) { return len > 0 && (unsigned char)buf[0] == 0x08; }

/* The size --dim gives symbolic dimension `name` ("batch=32,seq=128"): 0 and *out, 1 when the
 * spec does not name it, -1 after an error in the spec. */
static int dim_given(Ox *x, const char *name, int64_t *out) {
    for (const char *s = x->dims; s && *s;) {
        size_t n = strcspn(s, ","), k = strcspn(s, "=");
        if (k >= n || k == 0)
            return ox_fail(x, "--dim expects NAME=SIZE items separated by commas, got \"%.*s\"", (int)(n < 60 ? n : 60), s);
        char *end;
        long long v = strtoll(s + k + 1, &end, 10);
        if (end != s + n || end == s + k + 1 || v < 0 || v >= IR_MAX_DIM)
            return ox_fail(x, "--dim %.*s: the size must be an integer from 0 to 2^31-1", (int)(n < 60 ? n : 60), s);
        if (k == strlen(name) && strncmp(s, name, k) == 0) return *out = v, 0;
        s += n + (s[n] == ',');
    }
    return 1;
}

/* A graph input's declared type: a tensor of a supported dtype with a fully static shape. */
static int input_type(Ox *x, const Onnx__ValueInfoProto *vi, TensorType *t) {
    const char *nm = vi->name ? vi->name : "";
    const Onnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
        return ox_fail(x, "graph input \"%.80s\" is not a tensor (sequences, maps and optionals are not supported)", nm);
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    if (!tt->has_elem_type || onnx_dtype(tt->elem_type, &t->dtype))
        return ox_fail(x, "graph input \"%.80s\" has element type %s (supported: FLOAT, DOUBLE, the integer types, BOOL)", nm,
                       tt->has_elem_type ? onnx_type_name(tt->elem_type) : "UNDEFINED");
    if (!tt->shape) return ox_fail(x, "graph input \"%.80s\" has no shape (gtc compiles static shapes only)", nm);
    if (tt->shape->n_dim > IR_MAX_RANK)
        return ox_fail(x, "graph input \"%.80s\" has rank %zu (at most %d)", nm, tt->shape->n_dim, IR_MAX_RANK);
    int64_t dims[IR_MAX_RANK];
    for (size_t i = 0; i < tt->shape->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *dm = tt->shape->dim[i];
        bool sym = dm && dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && dm->dim_param && *dm->dim_param;
        int given = sym ? dim_given(x, dm->dim_param, &dims[i]) : 1;
        if (given < 0) return -1;
        if (given == 0) continue;
        if (!dm || dm->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            return ox_fail(x, "graph input \"%.80s\": dimension %zu is dynamic (\"%.40s\"); gtc compiles static shapes only: "
                              "give its size with --dim %.40s=N", nm, i, sym ? dm->dim_param : "?", sym ? dm->dim_param : "NAME");
        dims[i] = dm->dim_value;
    }
    char what[160];
    snprintf(what, sizeof what, "graph input \"%.80s\"", nm);
    return check_dims(x, tt->shape->n_dim, dims, t, what);
}

static void ox_free(Ox *x) {
    for (int i = 0; i < x->nvals; i++) free(x->vals[i].name), ox_const_free(x->vals[i].c);
    free(x->vals);
    namemap_free(&x->byname);
    namemap_free(&x->used);
    free(x->params), free(x->params_train);
    for (int i = 0; i < x->ndead; i++) free(x->dead[i]);
    free(x->dead);
    if (x->model) onnx__model_proto__free_unpacked(x->model, NULL);
}

/* protobuf-c decodes nested messages recursively without a limit: a hostile file of a few MB
 * nesting graphs in attributes in nodes in graphs ... overflows the stack. This guard walks the
 * wire format's framing only (tags and lengths, the fields' types from protobuf-c's own
 * descriptors) and refuses nesting deeper than OX_MAX_DEPTH before protobuf-c decodes anything;
 * anything malformed is left to protobuf-c to refuse. Recursion is bounded by the limit. */
#define OX_MAX_DEPTH 64
static bool wire_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*i >= n) return false;
        uint8_t b = p[(*i)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

static bool nesting_ok(const ProtobufCMessageDescriptor *desc, const uint8_t *p, size_t n, int depth) {
    if (depth > OX_MAX_DEPTH) return false;
    for (size_t i = 0; i < n;) {
        uint64_t key, len;
        if (!wire_varint(p, n, &i, &key)) return true;
        switch (key & 7) {
        case 0: if (!wire_varint(p, n, &i, &len)) return true; break;
        case 1: i += 8; break;
        case 5: i += 4; break;
        case 2: {
            if (!wire_varint(p, n, &i, &len) || len > n - i) return true;
            const ProtobufCFieldDescriptor *f =
                key >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(desc, (unsigned)(key >> 3)) : NULL;
            if (f && f->type == PROTOBUF_C_TYPE_MESSAGE && !nesting_ok(f->descriptor, p + i, (size_t)len, depth + 1))
                return false;
            i += (size_t)len;
            break;
        }
        default: return true;
        }
    }
    return true;
}

/* Reads the model into x->g (not yet verified); 0 or -1 with the error in x->d. */
static int import(Ox *x, const void *buf, size_t len) {
    if (!len) return ox_fail(x, "the file is empty (not an ONNX model)");
    if (!nesting_ok(&onnx__model_proto__descriptor, buf, len, 0))
        return ox_fail(x, "not a valid ONNX model (messages nested more than %d deep)", OX_MAX_DEPTH);
    x->model = onnx__model_proto__unpack(NULL, len, buf);
    if (!x->model)
        return ox_fail(x, "not a valid ONNX model (the protobuf message is malformed or truncated)");
    const Onnx__ModelProto *m = x->model;
    const Onnx__GraphProto *gp = m->graph;
    if (!gp) return ox_fail(x, "the model has no graph");
    x->opset = -1;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->opset_import[i];
        const char *dom = o->domain ? o->domain : "";
        if (!*dom || strcmp(dom, "ai.onnx") == 0) x->opset = o->has_version ? o->version : 0;
    }
    if (x->opset < 0) return ox_fail(x, "the model imports no opset of the default domain (ai.onnx)");
    if (x->opset < OX_MIN_OPSET)
        return ox_fail(x, "the model uses opset %lld; gtc reads opset %d and later (onnx.version_converter can convert it)",
                       (long long)x->opset, OX_MIN_OPSET);
    if (gp->n_node > IR_MAX_NODES) return ox_fail(x, "the graph has %zu nodes (at most %d)", gp->n_node, IR_MAX_NODES);
    if (gp->n_sparse_initializer) return ox_fail(x, "sparse initializers are not supported");
    char gname[IR_MAX_NAME + 32];
    ir_name(x, gp->name && *gp->name ? gp->name : "onnx_model", gname, sizeof gname);
    x->g = graph_new(gname);
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        OxValue *v;
        char what[160];
        snprintf(what, sizeof what, "initializer \"%.80s\"", t->name ? t->name : "");
        if (!t->name || !*t->name) return ox_fail(x, "initializer %zu has no name", i);
        if (add_value(x, t->name, &v)) return ox_fail(x, "%s is defined twice", what);
        if (!(v->c = ox_tensor(x, t, what))) return -1;
        v->is_init = true;
    }
    for (size_t i = 0; i < gp->n_input; i++) {
        const Onnx__ValueInfoProto *vi = gp->input[i];
        if (!vi->name || !*vi->name) return ox_fail(x, "graph input %zu has no name", i);
        NodeId known = namemap_get(&x->byname, vi->name);
        if (known >= 0 && x->vals[known].is_init) continue; /* an initializer listed as an input (IR version < 4) */
        if (known >= 0) return ox_fail(x, "graph input \"%.80s\" is declared twice", vi->name);
        TensorType t = {0};
        if (input_type(x, vi, &t)) return -1;
        char nm[IR_MAX_NAME + 32];
        ir_name(x, vi->name, nm, sizeof nm);
        NodeId id = graph_add(x->g, nm, OP_INPUT);
        if (id < 0) return ox_fail(x, "the model has more than %d values", IR_MAX_NODES);
        x->g->nodes[id].type = t;
        snprintf(x->g->nodes[id].loc, sizeof x->g->nodes[id].loc, "inputs[%zu]", i);
        OxValue *v;
        add_value(x, vi->name, &v);
        v->id = id;
    }
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *nd = gp->node[i];
        x->node = nd, x->node_index = (int)i, x->seq = 0;
        if (!nd->op_type || !*nd->op_type) return ox_fail(x, "the node has no op_type");
        if (nd->domain && *nd->domain && strcmp(nd->domain, "ai.onnx") != 0)
            return ox_fail(x, "operator domain \"%.60s\" is not supported (only the default domain, ai.onnx)", nd->domain);
        const char *first = nd->n_output && nd->output[0] && *nd->output[0] ? nd->output[0] : nd->op_type;
        ir_name(x, first, x->base, sizeof x->base);
        if (ox_lower_node(x)) return -1;
    }
    x->node = NULL;
    if (!gp->n_output) return ox_fail(x, "the graph has no outputs");
    for (size_t i = 0; i < gp->n_output; i++) {
        const char *on = gp->output[i]->name;
        NodeId vi = on && *on ? namemap_get(&x->byname, on) : -1;
        if (vi < 0) return ox_fail(x, "graph output \"%.80s\" is not computed by any node", on ? on : "");
        OxValue *v = &x->vals[vi];
        Operand o;
        ir_name(x, on, x->base, sizeof x->base); /* a constant output's nodes are named after it */
        x->seq = 0;
        if (ox_operand(x, v, &o)) return -1;
        if (o.id < 0) { /* a rank-0 constant output: a full node */
            Attrs a = {.has_dtype = true, .dtype = v->c->dtype, .value = o.value};
            if ((o.id = ox_add(x, OP_FULL, 0, NULL, &a)) < 0) return -1;
        }
        char nm[IR_MAX_NAME + 32];
        size_t k = 0;
        for (const char *s = on; *s && k < 80; s++) { /* outputs live in their own namespace */
            char c = *s;
            nm[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '_';
        }
        nm[k] = 0;
        if (nm[0] >= '0' && nm[0] <= '9') memmove(nm + 1, nm, k + 1), nm[0] = '_';
        graph_add_output(x->g, nm, o.id);
    }
    return 0;
}

/* --train: "loss=mse|cross_entropy[,output=NAME][,optimizer=sgd|adamw][,lr=NUMBER|NAME][,OPTION=NUMBER...]"
 * adds the target input and the loss to the graph and reads the train section it describes
 * through ir_read_train (the JSON graphs' own checks and messages). */
static int add_training(Ox *x, const char *spec) {
    Graph *g = x->g;
    char buf[512], loss[32] = "", out[IR_MAX_NAME + 1] = "", opt[16] = "sgd", lr[64] = "lr";
    cJSON *optim = cJSON_CreateObject();
    int rc = -1;
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1]) {
            diag_at(x->d, "--train", "expects KEY=VALUE items separated by commas, got \"%.60s\"", kv);
            goto done;
        }
        *eq = 0;
        const char *k = kv, *v = eq + 1;
        if (!strcmp(k, "loss")) snprintf(loss, sizeof loss, "%s", v);
        else if (!strcmp(k, "output")) snprintf(out, sizeof out, "%s", v);
        else if (!strcmp(k, "optimizer")) snprintf(opt, sizeof opt, "%s", v);
        else if (!strcmp(k, "lr")) snprintf(lr, sizeof lr, "%s", v);
        else {
            char *end;
            double num = strtod(v, &end);
            if (*end || end == v) {
                diag_at(x->d, "--train", "%.40s=%.40s: the value must be a number", k, v);
                goto done;
            }
            cJSON_AddNumberToObject(optim, k, num);
        }
    }
    if (strcmp(loss, "mse") != 0 && strcmp(loss, "cross_entropy") != 0) {
        diag_at(x->d, "--train", "needs loss=mse or loss=cross_entropy%s", *loss ? " (unknown loss)" : "");
        goto done;
    }
    int oi = 0;
    if (*out) {
        for (oi = 0; oi < g->noutputs && strcmp(g->outputs[oi].name, out) != 0; oi++) {}
        if (oi == g->noutputs) {
            diag_at(x->d, "--train", "output=%.80s names no output of the model", out);
            goto done;
        }
    } else if (g->noutputs != 1) {
        diag_at(x->d, "--train", "the model has %d outputs: name the one to train with output=NAME", g->noutputs);
        goto done;
    }
    NodeId y = g->outputs[oi].value;
    TensorType yt = g->nodes[y].type;
    bool ce = !strcmp(loss, "cross_entropy");
    if (ce && yt.rank < 2) {
        diag_at(x->d, "--train", "loss=cross_entropy needs logits of rank 2 or more ([N, C, ...]), the output has rank %d",
                yt.rank);
        goto done;
    }
    char tn[IR_MAX_NAME + 32];
    ir_name(x, ce ? "labels" : "target", tn, sizeof tn);
    NodeId t = graph_add(g, tn, OP_INPUT);
    if (t < 0) goto full;
    g->nodes[t].type = yt;
    snprintf(g->nodes[t].loc, sizeof g->nodes[t].loc, "--train");
    if (ce) { /* class indices: the logits without the class axis (1) */
        g->nodes[t].type.dtype = DT_INT64, g->nodes[t].type.rank = yt.rank - 1;
        for (int i = 1; i < yt.rank - 1; i++) g->nodes[t].type.dims[i] = yt.dims[i + 1];
    }
    snprintf(x->base, sizeof x->base, "loss");
    x->seq = 0;
    x->node = NULL;
    NodeId l;
    if (ce) {
        l = ox_composite(x, OP_CROSS_ENTROPY, 2, (Operand[]){{y, 0}, {t, 0}}, &(Attrs){0});
    } else {
        NodeId dlt = ox_add(x, OP_SUB, 2, (Operand[]){{y, 0}, {t, 0}}, NULL);
        NodeId sq = dlt < 0 ? -1 : ox_add(x, OP_MUL, 2, (Operand[]){{dlt, 0}, {dlt, 0}}, NULL);
        l = sq < 0 ? -1 : ox_add(x, OP_MEAN, 1, (Operand[]){{sq, 0}}, NULL);
    }
    if (l < 0) goto done;
    char ln[IR_MAX_NAME + 32];
    ir_name(x, "loss", ln, sizeof ln);
    free(g->nodes[l].name);
    g->nodes[l].name = strdup(ln);
    if (!g->nodes[l].name) abort();
    cJSON *tr = cJSON_CreateObject(), *params = cJSON_AddArrayToObject(tr, "params");
    cJSON_AddStringToObject(tr, "loss", ln);
    for (int i = 0; i < x->nparams; i++)
        if (x->params_train[i]) cJSON_AddItemToArray(params, cJSON_CreateString(g->nodes[x->params[i]].name));
    if (!cJSON_GetArraySize(params)) {
        cJSON_Delete(tr);
        diag_at(x->d, "--train", "the model has no float initializers to train");
        goto done;
    }
    cJSON_AddStringToObject(optim, "type", opt);
    char *end;
    double lrv = strtod(lr, &end);
    if (!*end && end != lr) cJSON_AddNumberToObject(optim, "lr", lrv);
    else cJSON_AddStringToObject(optim, "lr", lr);
    cJSON_AddItemToObject(tr, "optimizer", optim);
    optim = NULL;
    Diag vd;
    diag_init(&vd, x->file);
    if (ir_verify(g, &vd)) { /* ir_read_train reads a verified graph */
        *x->d = vd;
        cJSON_Delete(tr);
        goto done;
    }
    rc = ir_read_train(g, tr, x->d);
    cJSON_Delete(tr);
    goto done;
full:
    diag_at(x->d, NULL, "the model has more than %d values", IR_MAX_NODES);
done:
    cJSON_Delete(optim);
    return rc;
}

Graph *frontend_onnx_read(const void *buf, size_t len, const OnnxOptions *o, Diag *d) {
    Ox x = {.file = d->file, .d = d, .dims = o ? o->dims : NULL};
    const char *train_spec = o ? o->train : NULL;
    namemap_init(&x.byname);
    namemap_init(&x.used);
    int rc = import(&x, buf, len);
    if (!rc && ir_verify(x.g, d)) rc = -1;
    if (!rc && train_spec && add_training(&x, train_spec)) rc = -1;
    Graph *g = x.g;
    ox_free(&x);
    if (rc) {
        graph_free(g);
        return NULL;
    }
    return g;
}

int frontend_onnx_write_weights(const char *path, const OnnxOptions *o, const char *npz_path, Diag *d) {
    size_t len;
    char *buf = ir_read_file(path, &len, d);
    if (!buf) return -1;
    Ox x = {.file = d->file, .d = d, .dims = o ? o->dims : NULL};
    namemap_init(&x.byname);
    namemap_init(&x.used);
    int rc = import(&x, buf, len);
    if (!rc) rc = ox_write_npz(&x, npz_path);
    graph_free(x.g);
    ox_free(&x);
    free(buf);
    return rc;
}

Graph *frontend_onnx_load(const char *path, const OnnxOptions *o, Diag *d) {
    size_t len;
    char *buf = ir_read_file(path, &len, d);
    if (!buf) return NULL;
    Graph *g = frontend_onnx_read(buf, len, o, d);
    free(buf);
    return g;
}
