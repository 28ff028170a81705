/* ir/json_read.c: reads a v1 graph (docs/graph-format.md) through cJSON. Every malformed input
 * gets one message naming the JSON path and, for nodes, the node's name and op; the result is
 * topologically sorted and verified. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "json_parse.h"

#include "json_read.h"

/* An integer in [lo, hi] (JSON has only doubles: it must be finite and integral). */
static bool get_int(const cJSON *j, int64_t lo, int64_t hi, int64_t *out) {
    if (!cJSON_IsNumber(j)) return false;
    double v = j->valuedouble;
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi) return false;
    *out = (int64_t)v;
    return true;
}

const char *json_type_name(const cJSON *j) {
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsArray(j)) return "a list";
    if (cJSON_IsObject(j)) return "an object";
    return "invalid";
}

/* A string from the file as messages show it: in double quotes, with '"', '\\', control and
 * invisible format characters escaped as in JSON ("\u202e"), cut after about 64 bytes (never
 * inside a UTF-8 sequence). */
const char *json_quote(const char *s, char *buf) {
    size_t o = 0, i = 0;
    buf[o++] = '"';
    for (; s[i] && (i < 64 || ((unsigned char)s[i] & 0xC0) == 0x80); i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned cp;
        int k = ir_invisible_at(s + i, &cp);
        if (c == '"' || c == '\\') buf[o++] = '\\', buf[o++] = (char)c;
        else if (k) o += (size_t)snprintf(buf + o, 7, "\\u%04x", cp), i += (size_t)k - 1;
        else buf[o++] = (char)c;
    }
    if (s[i]) memcpy(buf + o, "...", 3), o += 3;
    buf[o++] = '"';
    buf[o] = 0;
    return buf;
}

/* What a value is, for "got ..." in messages: the number itself, else its kind. */
const char *json_describe(const cJSON *j, char *buf, size_t n) {
    if (!cJSON_IsNumber(j)) return json_type_name(j);
    return ir_fmt_number(j->valuedouble, buf, n);
}

/* Checks an object's keys: each allowed, none twice. */
int json_check_keys(Reader *r, const cJSON *obj, const char *const *allowed, const Node *n,
                      const char *loc) {
    char q[QBUF];
    for (const cJSON *c = obj->child; c; c = c->next) {
        bool ok = false;
        for (int i = 0; allowed[i]; i++) ok = ok || strcmp(c->string, allowed[i]) == 0;
        if (!ok && n) {
            char list[160] = "";
            size_t k = 0;
            for (int i = 3; allowed[i] && k < sizeof list; i++) /* after "name", "op", "inputs" */
                k += (size_t)snprintf(list + k, sizeof list - k, "%s\"%s\"", i > 3 ? ", " : "", allowed[i]);
            return NFAIL(n, "unknown attribute %s (%s takes %s)", json_quote(c->string, q), ir_ops[n->op].name,
                         k ? list : "no attributes");
        }
        if (!ok) return FAIL(loc, "unknown %skey %s", loc ? "" : "top-level ", json_quote(c->string, q));
        for (const cJSON *e = obj->child; e != c; e = e->next)
            if (strcmp(e->string, c->string) == 0) {
                if (n) return NFAIL(n, "attribute %s appears twice", json_quote(c->string, q));
                return FAIL(loc, "%skey %s appears twice", loc ? "" : "top-level ", json_quote(c->string, q));
            }
    }
    return 0;
}

/* Reads a list of at most max integers in [lo, hi]. */
static int read_ints_max(Reader *r, const Node *n, const cJSON *j, const char *key, int64_t lo, int64_t hi,
                         int64_t *out, int *count, int max) {
    if (!cJSON_IsArray(j)) return NFAIL(n, "\"%s\" must be a list of integers, got %s", key, json_type_name(j));
    int k = 0;
    for (const cJSON *e = j->child; e; e = e->next, k++) {
        if (k >= max) return NFAIL(n, "\"%s\" has more than %d entries", key, max);
        if (!get_int(e, lo, hi, &out[k])) {
            char got[48];
            return NFAIL(n, "\"%s\"[%d] must be an integer from %lld to %lld, got %s", key, k,
                         (long long)lo, (long long)hi, json_describe(e, got, sizeof got));
        }
    }
    *count = k;
    return 0;
}

/* Reads slice bounds or steps: at most IR_MAX_RANK integers of any size, those beyond +-2^53
 * (INT64_MAX, INT64_MIN: "to the end" as ONNX exporters write it) read as +-IR_SLICE_BIG. */
static int read_slice_ints(Reader *r, const Node *n, const cJSON *j, const char *key, int64_t *out, int *count) {
    if (!cJSON_IsArray(j)) return NFAIL(n, "\"%s\" must be a list of integers, got %s", key, json_type_name(j));
    int k = 0;
    for (const cJSON *e = j->child; e; e = e->next, k++) {
        if (k >= IR_MAX_RANK) return NFAIL(n, "\"%s\" has more than %d entries", key, IR_MAX_RANK);
        double v = cJSON_IsNumber(e) ? e->valuedouble : NAN;
        if (!isfinite(v) || v != floor(v)) {
            char got[48];
            return NFAIL(n, "\"%s\"[%d] must be an integer, got %s", key, k, json_describe(e, got, sizeof got));
        }
        const double big = (double)IR_SLICE_BIG;
        out[k] = v > big ? IR_SLICE_BIG : v < -big ? -IR_SLICE_BIG : (int64_t)v;
    }
    *count = k;
    return 0;
}

/* Reads a list of at most IR_MAX_RANK integers in [lo, hi]. */
static int read_ints(Reader *r, const Node *n, const cJSON *j, const char *key, int64_t lo,
                     int64_t hi, int64_t *out, int *count) {
    return read_ints_max(r, n, j, key, lo, hi, out, count, IR_MAX_RANK);
}

static int read_dtype(Reader *r, const Node *n, const cJSON *j, const char *loc, DType *out) {
    if (!cJSON_IsString(j)) {
        if (n) return NFAIL(n, "\"dtype\" must be a string, got %s", json_type_name(j));
        return FAIL(loc, "\"dtype\" must be a string, got %s", json_type_name(j));
    }
    if (ir_dtype_from_name(j->valuestring, out) == 0) return 0;
    const char *msg = "unknown dtype %s (expected %s)";
    char q[QBUF];
    if (n) return NFAIL(n, msg, json_quote(j->valuestring, q), ir_dtype_list());
    return FAIL(loc, msg, json_quote(j->valuestring, q), ir_dtype_list());
}

/* A "shape" (an input's; reshape's, broadcast_to's, full's): integers from lo, and where "dims"
 * declares symbolic dimensions their names: the bound into dims, the mark (TensorType.sym,
 * Attrs.shape_sym) into sym. first_only: an input's, where a name may only be the first entry. */
static int read_shape(Reader *r, const Node *n, const cJSON *v, int64_t lo, bool first_only, int64_t *dims,
                      unsigned char *sym, int *rank) {
    if (!r->g->nsyms || !cJSON_IsArray(v)) return read_ints(r, n, v, "shape", lo, IR_MAX_DIM - 1, dims, rank);
    int k = 0;
    for (const cJSON *e = v->child; e; e = e->next, k++) {
        char q[QBUF], got[48];
        if (k >= IR_MAX_RANK) return NFAIL(n, "\"shape\" has more than %d entries", IR_MAX_RANK);
        if (cJSON_IsString(e)) {
            int s = 0;
            while (s < r->g->nsyms && strcmp(r->g->syms[s].name, e->valuestring) != 0) s++;
            if (s == r->g->nsyms) return NFAIL(n, "\"shape\"[%d] names %s, which \"dims\" does not declare", k, json_quote(e->valuestring, q));
            if (first_only && k)
                return NFAIL(n, "\"shape\"[%d]: the symbolic dimension \"%s\" may only be an input's first axis", k, r->g->syms[s].name);
            dims[k] = r->g->syms[s].max;
            sym[k] = (unsigned char)(s + 1);
        } else if (!get_int(e, lo, IR_MAX_DIM - 1, &dims[k])) {
            return NFAIL(n, "\"shape\"[%d] must be an integer from %lld to %lld or the name of a symbolic dimension, got %s", k,
                         (long long)lo, (long long)(IR_MAX_DIM - 1), json_describe(e, got, sizeof got));
        }
    }
    *rank = k;
    return 0;
}

/* The attribute keys each op family accepts. */
static const char *const *allowed_keys(Op op) {
    static const char *const red[] = {"name", "op", "inputs", "axes", "keepdims", NULL};
    static const char *const tr[] = {"name", "op", "inputs", "perm", NULL};
    static const char *const shp[] = {"name", "op", "inputs", "shape", NULL};
    static const char *const sl[] = {"name", "op", "inputs", "starts", "ends", "axes", "steps", NULL};
    static const char *const cast[] = {"name", "op", "inputs", "dtype", NULL};
    static const char *const full[] = {"name", "op", "inputs", "shape", "value", "dtype", NULL};
    static const char *const oh[] = {"name", "op", "inputs", "depth", "dtype", NULL};
    static const char *const plain[] = {"name", "op", "inputs", NULL};
    static const char *const ax[] = {"name", "op", "inputs", "axis", NULL};
    static const char *const pad[] = {"name", "op", "inputs", "pads", "value", NULL};
    static const char *const ln[] = {"name", "op", "inputs", "axis", "epsilon", NULL};
    static const char *const gelu[] = {"name", "op", "inputs", "approximate", NULL};
    static const char *const drop[] = {"name", "op", "inputs", "ratio", NULL};
    static const char *const conv[] = {"name", "op", "inputs", "strides", "pads", "dilations", "group", NULL};
    static const char *const maxp[] = {"name", "op", "inputs", "kernel_shape", "strides", "pads", NULL};
    static const char *const avgp[] = {"name", "op", "inputs", "kernel_shape", "strides", "pads", "count_include_pad", NULL};
    switch (op) {
    case OP_CONV2D: return conv;
    case OP_MAX_POOL2D: return maxp;
    case OP_AVG_POOL2D: return avgp;
    case OP_DROPOUT: return drop;
    case OP_SOFTMAX: case OP_LOG_SOFTMAX: case OP_CROSS_ENTROPY: return ax;
    case OP_LAYER_NORM: return ln;
    case OP_GELU: return gelu;
    case OP_GATHER: case OP_SCATTER_ADD: case OP_CONCAT: return ax;
    case OP_PAD: return pad;
    case OP_TRANSPOSE: return tr;
    case OP_RESHAPE: case OP_BROADCAST_TO: return shp;
    case OP_SLICE: return sl;
    case OP_CAST: return cast;
    case OP_FULL: return full;
    case OP_ONE_HOT: return oh;
    default: return ir_ops[op].kind == K_REDUCE ? red : plain;
    }
}

/* conv2d's and the pools' lists (their counts and values are checked by the expansion,
 * ir/composite.c, which every front-end shares), group and count_include_pad. */
static int window_attrs(Reader *r, Node *n, const cJSON *j) {
    Attrs *a = &n->attrs;
    const cJSON *v;
    int64_t tmp[IR_MAX_RANK];
    int cnt;
    struct { const char *key; int64_t *dst; int *n; } lists[] = {
        {"strides", a->strides, &a->nstrides}, {"dilations", a->dilations, &a->ndilations},
        {"kernel_shape", a->kernel, &a->nkernel}};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        if (!(v = cJSON_GetObjectItemCaseSensitive(j, lists[i].key))) continue;
        if (read_ints(r, n, v, lists[i].key, 1, IR_MAX_DIM - 1, tmp, &cnt)) return -1;
        if (cnt != 2) return NFAIL(n, "\"%s\" must have 2 entries (height, width), got %d", lists[i].key, cnt);
        memcpy(lists[i].dst, tmp, sizeof tmp[0] * 2);
        *lists[i].n = 2;
    }
    if (n->op == OP_MAX_POOL2D || n->op == OP_AVG_POOL2D) {
        if (!a->nkernel) return NFAIL(n, "needs \"kernel_shape\" (2 entries: height, width)");
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "group"))) {
        char got[48];
        if (!get_int(v, 1, IR_MAX_DIM - 1, &a->group))
            return NFAIL(n, "\"group\" must be an integer from 1 to 2^31-1, got %s", json_describe(v, got, sizeof got));
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "count_include_pad"))) {
        if (cJSON_IsBool(v)) a->count_include_pad = cJSON_IsTrue(v);
        else if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1)) a->count_include_pad = v->valuedouble == 1;
        else return NFAIL(n, "\"count_include_pad\" must be 0, 1, true or false, got %s", json_type_name(v));
    }
    return 0;
}

static int read_attrs(Reader *r, Node *n, const cJSON *j) {
    Attrs *a = &n->attrs;
    char got48[48];
    int64_t tmp[IR_MAX_RANK];
    int cnt;
    const cJSON *v;
    if (json_check_keys(r, j, allowed_keys(n->op), n, NULL)) return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "axes"))) {
        if (read_ints(r, n, v, "axes", -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
        a->has_axes = true;
        a->naxes = cnt;
        for (int i = 0; i < cnt; i++) a->axes[i] = (int)tmp[i];
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "keepdims"))) {
        if (!cJSON_IsBool(v)) return NFAIL(n, "\"keepdims\" must be true or false, got %s", json_type_name(v));
        a->keepdims = cJSON_IsTrue(v);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "perm"))) {
        if (read_ints(r, n, v, "perm", -IR_MAX_RANK, IR_MAX_RANK - 1, tmp, &cnt)) return -1;
        a->nperm = cnt;
        for (int i = 0; i < cnt; i++) a->perm[i] = (int)tmp[i];
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "shape"))) {
        if (read_shape(r, n, v, n->op == OP_RESHAPE ? -1 : 0, false, a->shape, a->shape_sym, &a->nshape)) return -1;
    } else if (n->op == OP_RESHAPE || n->op == OP_BROADCAST_TO || n->op == OP_FULL) {
        return NFAIL(n, "needs \"shape\"");
    }
    if (n->op == OP_SLICE) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "starts");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "ends");
        if (!s || !e) return NFAIL(n, "needs \"starts\" and \"ends\"");
        int ne, ns = 0;
        if (read_slice_ints(r, n, s, "starts", a->starts, &a->nslice)) return -1;
        if (read_slice_ints(r, n, e, "ends", a->ends, &ne)) return -1;
        if (ne != a->nslice)
            return NFAIL(n, "\"starts\" has %d entr%s but \"ends\" has %d", a->nslice, a->nslice == 1 ? "y" : "ies", ne);
        if ((v = cJSON_GetObjectItemCaseSensitive(j, "steps"))) {
            if (read_slice_ints(r, n, v, "steps", a->steps, &ns)) return -1;
            if (ns != a->nslice)
                return NFAIL(n, "\"starts\" has %d entr%s but \"steps\" has %d", a->nslice, a->nslice == 1 ? "y" : "ies", ns);
            a->has_steps = true;
        }
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "dtype"))) {
        if (read_dtype(r, n, v, NULL, &a->dtype)) return -1;
        a->has_dtype = true;
    } else if (n->op == OP_CAST) {
        return NFAIL(n, "needs \"dtype\"");
    }
    if (n->op == OP_PAD && !cJSON_GetObjectItemCaseSensitive(j, "pads")) return NFAIL(n, "needs \"pads\"");
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "pads")) &&
        read_ints_max(r, n, v, "pads", 0, IR_MAX_DIM - 1, a->pads, &a->npads, 2 * IR_MAX_RANK))
        return -1;
    if (window_attrs(r, n, j)) return -1;
    if (n->op == OP_FULL || (n->op == OP_PAD && cJSON_GetObjectItemCaseSensitive(j, "value"))) {
        v = cJSON_GetObjectItemCaseSensitive(j, "value");
        if (!v) return NFAIL(n, "needs \"value\"");
        if (cJSON_IsBool(v)) a->value = cJSON_IsTrue(v);
        else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) a->value = v->valuedouble;
        else return NFAIL(n, "\"value\" must be a finite number or a boolean, got %s", json_type_name(v));
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "axis"))) {
        int64_t ax;
        char got[48];
        if (!get_int(v, -IR_MAX_RANK, IR_MAX_RANK - 1, &ax))
            return NFAIL(n, "\"axis\" must be an integer from %d to %d, got %s", -IR_MAX_RANK, IR_MAX_RANK - 1,
                         json_describe(v, got, sizeof got));
        a->axis = (int)ax;
        a->has_axis = true;
    }
    if (n->op == OP_DROPOUT) {
        if (!(v = cJSON_GetObjectItemCaseSensitive(j, "ratio"))) return NFAIL(n, "needs \"ratio\"");
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1))
            return NFAIL(n, "\"ratio\" must be a number at least 0 and less than 1, got %s", json_describe(v, got48, sizeof got48));
        a->ratio = v->valuedouble;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "epsilon"))) {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
            return NFAIL(n, "\"epsilon\" must be a finite number >= 0, got %s", json_describe(v, got48, sizeof got48));
        a->epsilon = v->valuedouble;
        a->has_epsilon = true;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(j, "approximate"))) {
        if (!cJSON_IsString(v) || (strcmp(v->valuestring, "none") != 0 && strcmp(v->valuestring, "tanh") != 0)) {
            char q[QBUF];
            return NFAIL(n, "\"approximate\" must be \"none\" or \"tanh\", got %s",
                         cJSON_IsString(v) ? json_quote(v->valuestring, q) : json_describe(v, got48, sizeof got48));
        }
        a->approx_tanh = strcmp(v->valuestring, "tanh") == 0;
    }
    if (n->op == OP_ONE_HOT) {
        v = cJSON_GetObjectItemCaseSensitive(j, "depth");
        if (!v) return NFAIL(n, "needs \"depth\"");
        if (!get_int(v, 1, IR_MAX_DIM - 1, &a->depth))
            return NFAIL(n, "\"depth\" must be an integer from 1 to 2^31-1");
    }
    return 0;
}

/* "dims": {"batch": {"max": 4096}, ...}: the graph's symbolic dimensions and their bounds. */
static int read_dims(Reader *r, const cJSON *dims) {
    if (!cJSON_IsObject(dims)) return FAIL("dims", "must be an object mapping names to {\"max\": N}, got %s", json_type_name(dims));
    static const char *const keys[] = {"max", NULL};
    for (const cJSON *e = dims->child; e; e = e->next) {
        char q[QBUF], loc[160], got[48];
        if (!ir_is_identifier(e->string))
            return FAIL("dims", "name %s is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                        json_quote(e->string, q), IR_MAX_NAME);
        snprintf(loc, sizeof loc, "dims.%s", e->string);
        for (int k = 0; k < r->g->nsyms; k++)
            if (!strcmp(r->g->syms[k].name, e->string)) return FAIL(loc, "is declared twice");
        if (r->g->nsyms == IR_MAX_SYMS) return FAIL("dims", "declares more than %d symbolic dimensions", IR_MAX_SYMS);
        if (!cJSON_IsObject(e)) return FAIL(loc, "must be an object {\"max\": N}, got %s", json_type_name(e));
        if (json_check_keys(r, e, keys, NULL, loc)) return -1;
        const cJSON *mx = cJSON_GetObjectItemCaseSensitive(e, "max");
        int64_t max;
        if (!mx) return FAIL(loc, "needs \"max\" (the largest size it takes at run time)");
        if (!get_int(mx, 1, IR_MAX_DIM - 1, &max))
            return FAIL(loc, "\"max\" must be an integer from 1 to %lld, got %s", (long long)(IR_MAX_DIM - 1), json_describe(mx, got, sizeof got));
        IrSym *sy = &r->g->syms[r->g->nsyms++];
        if (!(sy->name = strdup(e->string))) abort();
        sy->max = max;
    }
    return 0;
}

static int read_inputs(Reader *r, const cJSON *arr) {
    if (!cJSON_IsArray(arr)) return FAIL("inputs", "must be a list, got %s", json_type_name(arr));
    static const char *const keys[] = {"name", "dtype", "shape", NULL};
    int i = 0;
    for (const cJSON *j = arr->child; j; j = j->next, i++) {
        char loc[48];
        snprintf(loc, sizeof loc, "inputs[%d]", i);
        if (!cJSON_IsObject(j)) return FAIL(loc, "must be an object, got %s", json_type_name(j));
        if (json_check_keys(r, j, keys, NULL, loc)) return -1;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
        if (!cJSON_IsString(name)) return FAIL(loc, "needs a string \"name\"");
        char q[QBUF];
        if (!ir_is_identifier(name->valuestring))
            return FAIL(loc, "name %s is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                        json_quote(name->valuestring, q), IR_MAX_NAME);
        NodeId id = graph_add(r->g, name->valuestring, OP_INPUT);
        if (id < 0) return FAIL(loc, "graph has more than %d values", IR_MAX_NODES);
        Node *n = &r->g->nodes[id];
        snprintf(n->loc, sizeof n->loc, "%s", loc);
        const cJSON *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype");
        if (!dt) return NFAIL(n, "needs \"dtype\"");
        if (read_dtype(r, n, dt, NULL, &n->type.dtype)) return -1;
        const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
        if (!shape) return NFAIL(n, "needs \"shape\"");
        if (read_shape(r, n, shape, 0, true, n->type.dims, n->type.sym, &n->type.rank)) return -1;
    }
    for (int k = 0; k < r->g->nsyms; k++) {
        bool used = false;
        for (int i = 0; i < r->g->nnodes; i++) used = used || r->g->nodes[i].type.sym[0] == k + 1;
        if (!used) return FAIL("dims", "\"%s\" is declared but no input's shape names it", r->g->syms[k].name);
    }
    return 0;
}

static int read_nodes(Reader *r, const cJSON *arr) {
    if (!cJSON_IsArray(arr)) return FAIL("nodes", "must be a list, got %s", json_type_name(arr));
    int count = cJSON_GetArraySize(arr);
    if (count > IR_MAX_NODES) return FAIL("nodes", "graph has more than %d values", IR_MAX_NODES);
    r->pend = calloc((size_t)r->g->nnodes + (size_t)count + 1, sizeof *r->pend);
    if (!r->pend) abort();
    int i = 0;
    for (const cJSON *j = arr->child; j; j = j->next, i++) {
        char loc[48];
        snprintf(loc, sizeof loc, "nodes[%d]", i);
        if (!cJSON_IsObject(j)) return FAIL(loc, "must be an object, got %s", json_type_name(j));
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
        const cJSON *opj = cJSON_GetObjectItemCaseSensitive(j, "op");
        if (!cJSON_IsString(name)) return FAIL(loc, "needs a string \"name\"");
        char q[QBUF];
        if (!ir_is_identifier(name->valuestring))
            return FAIL(loc, "name %s is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                        json_quote(name->valuestring, q), IR_MAX_NAME);
        if (!cJSON_IsString(opj))
            return FAIL(NULL, "%s \"%s\": needs a string \"op\"%s%s", loc, name->valuestring,
                        opj ? ", got " : "", opj ? json_type_name(opj) : "");
        Op op;
        if (ir_op_from_name(opj->valuestring, &op))
            return FAIL(NULL, "%s \"%s\": unknown op %s", loc, name->valuestring, json_quote(opj->valuestring, q));
        NodeId id = graph_add(r->g, name->valuestring, op);
        if (id < 0) return FAIL(loc, "graph has more than %d values", IR_MAX_NODES);
        Node *n = &r->g->nodes[id];
        snprintf(n->loc, sizeof n->loc, "%s", loc);
        if (read_attrs(r, n, j)) return -1;
        const cJSON *ins = cJSON_GetObjectItemCaseSensitive(j, "inputs");
        int arity = ir_ops[op].arity;
        if (!ins && arity == 0) continue;
        if (!ins && arity < 0) return NFAIL(n, "needs \"inputs\", a list of 1 to %d value names", IR_MAX_INPUTS);
        if (!ins && ir_min_arity(op) != arity)
            return NFAIL(n, "needs \"inputs\", a list of %d or %d value names", ir_min_arity(op), arity);
        if (!ins) return NFAIL(n, "needs \"inputs\", a list of %d value name%s or number%s", arity,
                              arity == 1 ? "" : "s", arity == 1 ? "" : "s");
        if (!cJSON_IsArray(ins)) return NFAIL(n, "\"inputs\" must be a list, got %s", json_type_name(ins));
        int k = 0;
        for (const cJSON *e = ins->child; e; e = e->next, k++) {
            char aerr[96];
            if (k >= (arity < 0 ? IR_MAX_INPUTS : arity) && !ir_arity_ok(op, cJSON_GetArraySize(ins), "input", aerr, sizeof aerr))
                return NFAIL(n, "%s", aerr);
            if (cJSON_IsString(e)) r->pend[id].names[k] = e->valuestring;
            else if (cJSON_IsNumber(e) && isfinite(e->valuedouble)) n->in[k].value = e->valuedouble;
            else {
                char got[48];
                return NFAIL(n, "inputs[%d] must be a value name or a finite number, got %s", k,
                             json_describe(e, got, sizeof got));
            }
        }
        n->ninputs = k;
    }
    return 0;
}

/* Resolves operand names and orders nodes so that each comes after its operands (depth-first,
 * keeping the file's order where it already is one); a cycle is an error. */
static int resolve_and_sort(Reader *r) {
    Graph *g = r->g;
    int n = g->nnodes;
    NameMap names;
    namemap_init(&names);
    int rc = 0;
    for (NodeId i = 0; i < n && !rc; i++) {
        NodeId prev = namemap_get(&names, g->nodes[i].name);
        if (prev >= 0)
            rc = NFAIL(&g->nodes[i], "name is already defined at %s", g->nodes[prev].loc);
        namemap_put(&names, g->nodes[i].name, i);
    }
    for (NodeId i = 0; i < n && !rc; i++)
        for (int k = 0; k < g->nodes[i].ninputs && !rc; k++) {
            const char *s = r->pend[i].names[k];
            if (!s) continue;
            NodeId id = namemap_get(&names, s);
            if (id < 0) {
                char q[QBUF];
                rc = NFAIL(&g->nodes[i], "input %s is %s", json_quote(s, q),
                           ir_is_identifier(s) ? "not defined" : "not an identifier");
            }
            g->nodes[i].in[k].id = id;
        }
    namemap_free(&names);
    if (rc) return rc;

    int *order = malloc(((size_t)n + 1) * sizeof *order), *newid = malloc(((size_t)n + 1) * sizeof *newid);
    unsigned char *state = calloc((size_t)n + 1, 1); /* 0 new, 1 on stack, 2 done */
    NodeId *stack = malloc(((size_t)n + 1) * sizeof *stack);
    int *next = calloc((size_t)n + 1, sizeof *next);
    if (!order || !newid || !state || !stack || !next) abort();
    int norder = 0;
    for (NodeId root = 0; root < n && !rc; root++) {
        if (state[root]) continue;
        int sp = 0;
        stack[sp++] = root;
        state[root] = 1;
        while (sp && !rc) {
            NodeId v = stack[sp - 1];
            Node *nv = &g->nodes[v];
            if (next[v] < nv->ninputs) {
                NodeId u = nv->in[next[v]++].id;
                if (u < 0) continue;
                if (u == v)
                    rc = NFAIL(nv, "uses itself as an input");
                else if (state[u] == 1)
                    rc = NFAIL(nv, "is part of a cycle through \"%s\"", g->nodes[u].name);
                else if (state[u] == 0)
                    stack[sp++] = u, state[u] = 1;
            } else {
                state[v] = 2;
                newid[v] = norder;
                order[norder++] = v;
                sp--;
            }
        }
    }
    if (!rc) {
        Node *sorted = malloc(((size_t)n + 1) * sizeof *sorted);
        if (!sorted) abort();
        for (int i = 0; i < n; i++) {
            sorted[i] = g->nodes[order[i]];
            for (int k = 0; k < sorted[i].ninputs; k++)
                if (sorted[i].in[k].id >= 0) sorted[i].in[k].id = newid[sorted[i].in[k].id];
        }
        free(g->nodes);
        g->nodes = sorted;
        g->cap = n;
    }
    free(order), free(newid), free(state), free(stack), free(next);
    return rc;
}

static int read_outputs(Reader *r, const cJSON *obj, const cJSON *don) {
    Graph *g = r->g;
    if (!cJSON_IsObject(obj)) return FAIL("outputs", "must be an object mapping output names to values, got %s", json_type_name(obj));
    int count = cJSON_GetArraySize(obj);
    g->outputs = calloc((size_t)count + 1, sizeof *g->outputs);
    if (!g->outputs) abort();
    NameMap names;
    namemap_init(&names);
    for (int i = 0; i < g->nnodes; i++) namemap_put(&names, g->nodes[i].name, i);
    int rc = 0;
    char q[QBUF];
    for (const cJSON *c = obj->child; c && !rc; c = c->next) {
        char loc[160];
        bool ident = ir_is_identifier(c->string);
        snprintf(loc, sizeof loc, "outputs.%.100s", ident ? c->string : "?");
        if (!ident) {
            rc = FAIL("outputs", "output name %s is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)",
                      json_quote(c->string, q), IR_MAX_NAME);
            break;
        }
        for (int k = 0; k < g->noutputs; k++)
            if (strcmp(g->outputs[k].name, c->string) == 0) rc = FAIL(loc, "output is named twice");
        if (rc) break;
        if (!cJSON_IsString(c)) rc = FAIL(loc, "must name a value, got %s", json_type_name(c));
        else if (namemap_get(&names, c->valuestring) < 0)
            rc = FAIL(loc, "%s names no input or node", json_quote(c->valuestring, q));
        else {
            Output *o = &g->outputs[g->noutputs++];
            o->name = strdup(c->string);
            if (!o->name) abort();
            o->value = namemap_get(&names, c->valuestring);
        }
    }
    if (!rc && don) {
        if (!cJSON_IsObject(don)) rc = FAIL("donate", "must be an object mapping values to inputs, got %s", json_type_name(don));
        int count2 = rc ? 0 : cJSON_GetArraySize(don);
        g->donations = calloc((size_t)count2 + 1, sizeof *g->donations);
        if (!g->donations) abort();
        for (const cJSON *c = rc ? NULL : don->child; c && !rc; c = c->next) {
            char loc[160];
            snprintf(loc, sizeof loc, "donate.%.100s", ir_is_identifier(c->string) ? c->string : "?");
            NodeId v = namemap_get(&names, c->string);
            if (v < 0) rc = FAIL(loc, "%s names no value", json_quote(c->string, q));
            else if (!cJSON_IsString(c)) rc = FAIL(loc, "must name an input, got %s", json_type_name(c));
            else if (namemap_get(&names, c->valuestring) < 0)
                rc = FAIL(loc, "%s names no input", json_quote(c->valuestring, q));
            else {
                g->donations[g->ndonations].value = v;
                g->donations[g->ndonations++].input = namemap_get(&names, c->valuestring);
            }
        }
    }
    namemap_free(&names);
    return rc;
}

static int read_graph(Reader *r, const cJSON *root) {
    static const char *const keys[] = {"format", "version", "name", "dims", "inputs", "nodes", "outputs",
                                       "donate", "train", NULL};
    if (!cJSON_IsObject(root)) return FAIL(NULL, "the graph must be a JSON object, got %s", json_type_name(root));
    if (json_check_keys(r, root, keys, NULL, NULL)) return -1;
    char got[QBUF];
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!fmt) return FAIL(NULL, "missing \"format\": \"gtc-graph\" (is this a gtc graph?)");
    if (!cJSON_IsString(fmt)) return FAIL("format", "must be \"gtc-graph\", got %s", json_type_name(fmt));
    if (strcmp(fmt->valuestring, "gtc-graph") != 0)
        return FAIL("format", "must be \"gtc-graph\", got %s", json_quote(fmt->valuestring, got));
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    int64_t version;
    if (!ver) return FAIL(NULL, "missing \"version\": 1");
    if (!get_int(ver, INT32_MIN, INT32_MAX, &version)) return FAIL("version", "must be the integer 1, got %s", json_describe(ver, got, sizeof got));
    if (version != 1) return FAIL("version", "unsupported version %lld (this gtc reads version 1)", (long long)version);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (!name) return FAIL(NULL, "missing \"name\" (the graph's name, an identifier)");
    if (!cJSON_IsString(name)) return FAIL("name", "must be a string, got %s", json_type_name(name));
    if (!ir_is_identifier(name->valuestring))
        return FAIL("name", "graph name %s is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most %d characters)", json_quote(name->valuestring, got),
                    IR_MAX_NAME);
    free(r->g->name);
    r->g->name = strdup(name->valuestring);
    if (!r->g->name) abort();
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(root, "dims");
    if (dims && read_dims(r, dims)) return -1;
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(root, "inputs");
    if (!inputs) return FAIL(NULL, "missing \"inputs\"");
    if (read_inputs(r, inputs)) return -1;
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    if (!nodes) return FAIL(NULL, "missing \"nodes\"");
    if (read_nodes(r, nodes)) return -1;
    if (resolve_and_sort(r)) return -1;
    if (ir_expand_composites(&r->g, r->d)) return -1; /* before anything holds a node id */
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(root, "outputs");
    if (!outputs) return FAIL(NULL, "missing \"outputs\"");
    if (read_outputs(r, outputs, cJSON_GetObjectItemCaseSensitive(root, "donate"))) return -1;
    const cJSON *train = cJSON_GetObjectItemCaseSensitive(root, "train");
    if (train && json_read_train(r, train)) return -1;
    if (ir_verify(r->g, r->d)) return -1;
    return train ? json_check_train(r) : 0;
}

Graph *ir_read_json(const char *text, size_t len, Diag *d) {
    cJSON *root = ir_json_parse(text, len, d);
    if (!root) return NULL;
    Reader r = {graph_new("graph"), d, NULL};
    int rc = read_graph(&r, root);
    cJSON_Delete(root);
    free(r.pend);
    if (rc) {
        graph_free(r.g);
        return NULL;
    }
    return r.g;
}

Graph *ir_read_json_file(const char *path, Diag *d) {
    size_t len;
    char *buf = ir_read_file(path, &len, d);
    if (!buf) return NULL;
    Graph *g = ir_read_json(buf, len, d);
    free(buf);
    return g;
}
