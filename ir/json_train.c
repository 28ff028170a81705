/* ir/json_train.c: a graph file's "train" section (docs/graph-format.md §8): the loss, the
 * parameters and the optimizer, read and checked against the graph with the same path-naming
 * messages as the rest of the file (ir/json_read.c); compiler/pass_autodiff.c consumes it, and the
 * PHP front-end reads its attribute's section through ir_read_train. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"


/* A list of value names into ids; loc is "train.params" etc. */
static int read_names(Reader *r, const cJSON *arr, const char *loc, const NameMap *names,
                      NodeId **out, int *count) {
    char q[QBUF];
    if (!cJSON_IsArray(arr)) return FAIL(loc, "must be a list of value names, got %s", json_type_name(arr));
    int n = cJSON_GetArraySize(arr), k = 0;
    *out = calloc((size_t)n + 1, sizeof **out);
    if (!*out) abort();
    for (const cJSON *e = arr->child; e; e = e->next, k++) {
        char at[80];
        snprintf(at, sizeof at, "%s[%d]", loc, k);
        if (!cJSON_IsString(e)) return FAIL(at, "must name a value, got %s", json_type_name(e));
        NodeId id = namemap_get(names, e->valuestring);
        if (id < 0) return FAIL(at, "%s names no input or node", json_quote(e->valuestring, q));
        for (int j = 0; j < k; j++)
            if ((*out)[j] == id) return FAIL(at, "%s is listed twice", json_quote(e->valuestring, q));
        (*out)[k] = id;
        *count = k + 1;
    }
    return 0;
}

/* An optional number option in [lo, hi] (lo excluded when open_lo). */
static int read_opt_num(Reader *r, const cJSON *obj, const char *key, double lo, bool open_lo,
                        double hi, double *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char loc[64], got[48], a[40], b[40];
    snprintf(loc, sizeof loc, "train.optimizer.%s", key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
        (open_lo && v->valuedouble == lo) || v->valuedouble > hi)
        return FAIL(loc, "must be a number %s %s%s%s, got %s", open_lo ? ">" : ">=",
                    ir_fmt_number(lo, a, sizeof a), hi < 1e300 ? " and <= " : "",
                    hi < 1e300 ? ir_fmt_number(hi, b, sizeof b) : "", json_describe(v, got, sizeof got));
    *out = v->valuedouble;
    return 0;
}

static int read_optimizer(Reader *r, const cJSON *o, Train *t) {
    static const char *const sgd[] = {"type", "lr", "momentum", "weight_decay", "clip_value", "clip_norm", NULL};
    static const char *const adamw[] = {"type", "lr", "beta1", "beta2", "eps", "weight_decay", NULL};
    char q[QBUF];
    if (!o) return FAIL("train", "missing \"optimizer\" (an object such as {\"type\": \"sgd\", \"lr\": \"lr\"})");
    if (!cJSON_IsObject(o)) return FAIL("train.optimizer", "must be an object, got %s", json_type_name(o));
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!ty) return FAIL("train.optimizer", "missing \"type\" (\"sgd\" or \"adamw\")");
    if (!cJSON_IsString(ty)) return FAIL("train.optimizer.type", "must be \"sgd\" or \"adamw\", got %s", json_type_name(ty));
    if (strcmp(ty->valuestring, "sgd") == 0) t->opt = OPT_SGD;
    else if (strcmp(ty->valuestring, "adamw") == 0) t->opt = OPT_ADAMW;
    else return FAIL("train.optimizer.type", "unknown optimizer %s (expected \"sgd\" or \"adamw\")", json_quote(ty->valuestring, q));
    const char *const *keys = t->opt == OPT_SGD ? sgd : adamw;
    for (const cJSON *c = o->child; c; c = c->next) {
        bool ok = false;
        for (int i = 0; keys[i]; i++) ok = ok || strcmp(c->string, keys[i]) == 0;
        if (!ok) {
            char list[200] = "";
            size_t k = 0;
            for (int i = 1; keys[i] && k < sizeof list; i++)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s\"%s\"", i > 1 ? ", " : "", keys[i]);
            return FAIL("train.optimizer", "unknown option %s (%s takes %s)", json_quote(c->string, q),
                        ty->valuestring, list);
        }
        for (const cJSON *e = o->child; e != c; e = e->next)
            if (strcmp(e->string, c->string) == 0)
                return FAIL("train.optimizer", "option %s appears twice", json_quote(c->string, q));
    }
    const cJSON *lr = cJSON_GetObjectItemCaseSensitive(o, "lr");
    if (!lr) return FAIL("train.optimizer", "missing \"lr\" (a rank-0 input's name, or a number)");
    if (cJSON_IsString(lr)) {
        if (!ir_is_identifier(lr->valuestring))
            return FAIL("train.optimizer.lr", "%s is not an identifier", json_quote(lr->valuestring, q));
        t->lr_name = strdup(lr->valuestring);
        if (!t->lr_name) abort();
    } else if (cJSON_IsNumber(lr) && isfinite(lr->valuedouble) && lr->valuedouble >= 0) {
        t->lr = lr->valuedouble;
    } else {
        char got[48];
        return FAIL("train.optimizer.lr", "must name a rank-0 input or be a number >= 0, got %s", json_describe(lr, got, sizeof got));
    }
    t->beta1 = 0.9, t->beta2 = 0.999, t->eps = 1e-8;
    t->weight_decay = t->opt == OPT_ADAMW ? 0.01 : 0;
    if (read_opt_num(r, o, "weight_decay", 0, false, 1e308, &t->weight_decay)) return -1;
    if (t->opt == OPT_SGD)
        return read_opt_num(r, o, "momentum", 0, false, 1e308, &t->momentum) ||
                       read_opt_num(r, o, "clip_value", 0, true, 1e308, &t->clip_value) ||
                       read_opt_num(r, o, "clip_norm", 0, true, 1e308, &t->clip_norm) ? -1 : 0;
    return read_opt_num(r, o, "beta1", 0, false, 1, &t->beta1) ||
                   read_opt_num(r, o, "beta2", 0, false, 1, &t->beta2) ||
                   read_opt_num(r, o, "eps", 0, true, 1e308, &t->eps) ? -1 : 0;
}

int json_read_train(Reader *r, const cJSON *j) {
    static const char *const keys[] = {"loss", "params", "optimizer", "stop_gradient", NULL};
    Graph *g = r->g;
    char q[QBUF];
    if (!cJSON_IsObject(j)) return FAIL("train", "must be an object with \"loss\", \"params\" and \"optimizer\", got %s", json_type_name(j));
    if (json_check_keys(r, j, keys, NULL, "train")) return -1;
    Train *t = calloc(1, sizeof *t);
    if (!t) abort();
    g->train = t;
    NameMap names;
    namemap_init(&names);
    for (int i = 0; i < g->nnodes; i++) namemap_put(&names, g->nodes[i].name, i);
    int rc = 0;
    const cJSON *loss = cJSON_GetObjectItemCaseSensitive(j, "loss");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(j, "stop_gradient");
    if (!loss) rc = FAIL("train", "missing \"loss\" (the name of the scalar value to minimise)");
    else if (!cJSON_IsString(loss)) rc = FAIL("train.loss", "must name a value, got %s", json_type_name(loss));
    else if ((t->loss = namemap_get(&names, loss->valuestring)) < 0)
        rc = FAIL("train.loss", "%s names no input or node", json_quote(loss->valuestring, q));
    else if (!params) rc = FAIL("train", "missing \"params\" (the inputs to train)");
    else if (read_names(r, params, "train.params", &names, &t->params, &t->nparams)) rc = -1;
    else if (t->nparams == 0) rc = FAIL("train.params", "is empty: name at least one input to train");
    else if (stop && read_names(r, stop, "train.stop_gradient", &names, &t->stop, &t->nstop)) rc = -1;
    else rc = read_optimizer(r, cJSON_GetObjectItemCaseSensitive(j, "optimizer"), t);
    namemap_free(&names);
    return rc;
}

/* The train section's typed rules, once the graph is verified: a float scalar loss, float
 * inputs as parameters, a rank-0 float input as a named learning rate. */
int json_check_train(Reader *r) {
    const Graph *g = r->g;
    const Train *t = g->train;
    char s[256];
    const Node *loss = &g->nodes[t->loss];
    if (loss->type.rank != 0)
        return FAIL("train.loss", "\"%s\" must be a scalar (shape []), got %s %s", loss->name,
                    ir_dtype_name(loss->type.dtype), ir_shape_str(&loss->type, s, sizeof s));
    if (!ir_dtype_is_float(loss->type.dtype))
        return FAIL("train.loss", "\"%s\" must be float32 or float64, got %s", loss->name, ir_dtype_name(loss->type.dtype));
    for (int i = 0; i < t->nparams; i++) {
        const Node *p = &g->nodes[t->params[i]];
        char loc[48];
        snprintf(loc, sizeof loc, "train.params[%d]", i);
        if (p->op != OP_INPUT)
            return FAIL(loc, "\"%s\" is not an input (a %s node); parameters are inputs that the step updates",
                        p->name, ir_ops[p->op].name);
        if (!ir_dtype_is_float(p->type.dtype))
            return FAIL(loc, "\"%s\" must be float32 or float64 to have a gradient, got %s", p->name,
                        ir_dtype_name(p->type.dtype));
        for (int k = 0; k < g->ndonations; k++)
            if (g->donations[k].input == t->params[i])
                return FAIL(loc, "\"%s\" is already donated (donate.%s); the optimizer update takes its buffer",
                            p->name, g->nodes[g->donations[k].value].name);
    }
    if (t->lr_name) {
        NodeId id = graph_find(g, t->lr_name);
        const Node *lr = id >= 0 ? &g->nodes[id] : NULL;
        if (lr && (lr->op != OP_INPUT || lr->type.rank != 0 || !ir_dtype_is_float(lr->type.dtype)))
            return FAIL("train.optimizer.lr", "\"%s\" must be a rank-0 float input (a runtime learning rate), got %s %s %s",
                        lr->name, lr->op == OP_INPUT ? "input" : ir_ops[lr->op].name,
                        ir_dtype_name(lr->type.dtype), ir_shape_str(&lr->type, s, sizeof s));
        for (int i = 0; lr && i < t->nparams; i++)
            if (t->params[i] == id) return FAIL("train.optimizer.lr", "\"%s\" is also a parameter", lr->name);
    }
    return 0;
}

/* Both halves at once, for a graph that is already verified (the PHP front-end's graphs): the
 * same rules and messages as a graph file's "train" section, with nothing left behind on error. */
int ir_read_train(Graph *g, const cJSON *train, Diag *d) {
    if (g->train) { /* a second section: what a file with two "train" keys gets */
        diag_at(d, NULL, "top-level key \"train\" appears twice");
        return -1;
    }
    Reader r = {g, d, NULL};
    if (!json_read_train(&r, train) && !json_check_train(&r)) return 0;
    train_free(g->train);
    g->train = NULL;
    return -1;
}

