/* runtime/php/optimizer.c: Cuda\Optimizer, php-gpu-tensors' functional optimizer (SGD with
 * momentum, Nesterov, weight decay and clipping; Adam; AdamW). A step never re-implements a
 * formula: it builds a small graph with compiler/optim.c (the builder compiled "train" sections
 * use) over the parameters, gradients, state and learning rate, and runs it as a planned
 * Cuda\FusionGraph (fusion.c: compiled once per input types, one CUDA Graph on a GPU, op by op
 * with rt_eval_graph where no kernels can be built), or, while Cuda\Fusion traces a closure,
 * appends the same nodes to the trace graph so the compiled plan contains the update.
 * docs/optimizer.md. */
#include "fusion.h"

#include <math.h>

#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include "../../compiler/optim.h"
#include "optimizer.h"
#include "optimizer_arginfo.h"
#include "plan_class.h"

zend_class_entry *php_gtc_ce_Optimizer;
static zend_object_handlers optimizer_handlers;

static zend_object *opt_create(zend_class_entry *ce) {
    php_gtc_optimizer *o = zend_object_alloc(sizeof *o, ce);
    zend_object_std_init(&o->std, ce);
    object_properties_init(&o->std, ce);
    o->std.handlers = &optimizer_handlers;
    return &o->std;
}

static void opt_free(zend_object *obj) {
    php_gtc_optimizer *o = opt_from_obj(obj);
    if (o->plans) {
        zend_hash_destroy(o->plans);
        FREE_HASHTABLE(o->plans);
    }
    zend_object_std_dtor(obj);
}

const char *php_gtc_opt_type_name(OptimizerType t) { return t == OPT_SGD ? "sgd" : t == OPT_ADAM ? "adam" : "adamW"; }

/* The state keys of each type, in the order initState() makes them. */
static const char *const sgd_keys[] = {"velocity", NULL};
static const char *const adam_keys[] = {"firstMoment", "secondMoment", "beta1Power", "beta2Power", NULL};
static const char *const no_keys[] = {NULL};
const char *const *php_gtc_opt_state_keys(const Train *t) {
    return t->opt != OPT_SGD ? adam_keys : t->momentum > 0 ? sgd_keys : no_keys;
}
bool php_gtc_opt_is_power_key(const char *k) { return !strcmp(k, "beta1Power") || !strcmp(k, "beta2Power"); }

/* ---- hyper-parameters ------------------------------------------------------------------------ */

/* v within [lo, hi] (lo_open/hi_open: the bound itself excluded; hi = INFINITY: no bound), and
 * finite; false after throwing "Cuda\Optimizer::fn(): name must be ..., v given". */
static bool check_hp(const char *fn, const char *name, double v, double lo, bool lo_open, double hi, bool hi_open) {
    bool ok = isfinite(v) && (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    if (ok) return true;
    if (isinf(hi))
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s must be a finite number %s %g, %g given", fn, name,
                      lo_open ? ">" : ">=", lo, v);
    else
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s must be in %c%g, %g%c, %g given", fn, name,
                      lo_open ? '(' : '[', lo, hi, hi_open ? ')' : ']', v);
    return false;
}

/* clipValue / clipNorm: null (0 in Train: none) or > 0. */
static bool check_clip(const char *fn, double *clip_value, bool cv_null, double *clip_norm, bool cn_null) {
    if (!cv_null && !check_hp(fn, "clipValue", *clip_value, 0, true, INFINITY, false)) return false;
    if (!cn_null && !check_hp(fn, "clipNorm", *clip_norm, 0, true, INFINITY, false)) return false;
    if (cv_null) *clip_value = 0;
    if (cn_null) *clip_norm = 0;
    return true;
}

static void opt_new(zval *rv, const Train *t) {
    object_init_ex(rv, php_gtc_ce_Optimizer);
    opt_from_obj(Z_OBJ_P(rv))->t = *t;
}

ZEND_METHOD(Cuda_Optimizer, __construct) { ZEND_PARSE_PARAMETERS_NONE(); }

ZEND_METHOD(Cuda_Optimizer, sgd) {
    Train t = {.opt = OPT_SGD, .lr = 0.01, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8};
    bool cv_null = true, cn_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 6)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(t.lr)
        Z_PARAM_DOUBLE(t.momentum)
        Z_PARAM_DOUBLE(t.weight_decay)
        Z_PARAM_BOOL(t.nesterov)
        Z_PARAM_DOUBLE_OR_NULL(t.clip_value, cv_null)
        Z_PARAM_DOUBLE_OR_NULL(t.clip_norm, cn_null)
    ZEND_PARSE_PARAMETERS_END();
    if (!check_hp("sgd", "learningRate", t.lr, 0, false, INFINITY, false) ||
        !check_hp("sgd", "momentum", t.momentum, 0, false, INFINITY, false) ||
        !check_hp("sgd", "weightDecay", t.weight_decay, 0, false, INFINITY, false) ||
        !check_clip("sgd", &t.clip_value, cv_null, &t.clip_norm, cn_null))
        RETURN_THROWS();
    if (t.nesterov && t.momentum <= 0) { /* as torch.optim.SGD: Nesterov is a kind of momentum */
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::sgd(): nesterov needs a momentum > 0");
        RETURN_THROWS();
    }
    opt_new(return_value, &t);
}

/* adam() and adamW(): the same arguments, different decay. */
static void adam_new(INTERNAL_FUNCTION_PARAMETERS, OptimizerType type) {
    const char *fn = type == OPT_ADAM ? "adam" : "adamW";
    Train t = {.opt = type, .lr = 0.001, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, .beta_powers = true,
               .weight_decay = type == OPT_ADAM ? 0.0 : 0.01};
    bool cv_null = true, cn_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 7)
        Z_PARAM_OPTIONAL
        Z_PARAM_DOUBLE(t.lr)
        Z_PARAM_DOUBLE(t.beta1)
        Z_PARAM_DOUBLE(t.beta2)
        Z_PARAM_DOUBLE(t.eps)
        Z_PARAM_DOUBLE(t.weight_decay)
        Z_PARAM_DOUBLE_OR_NULL(t.clip_value, cv_null)
        Z_PARAM_DOUBLE_OR_NULL(t.clip_norm, cn_null)
    ZEND_PARSE_PARAMETERS_END();
    if (!check_hp(fn, "learningRate", t.lr, 0, false, INFINITY, false) ||
        !check_hp(fn, "beta1", t.beta1, 0, false, 1, true) || !check_hp(fn, "beta2", t.beta2, 0, false, 1, true) ||
        !check_hp(fn, "epsilon", t.eps, 0, true, INFINITY, false) ||
        !check_hp(fn, "weightDecay", t.weight_decay, 0, false, INFINITY, false) ||
        !check_clip(fn, &t.clip_value, cv_null, &t.clip_norm, cn_null))
        RETURN_THROWS();
    opt_new(return_value, &t);
}

ZEND_METHOD(Cuda_Optimizer, adamW) { adam_new(INTERNAL_FUNCTION_PARAM_PASSTHRU, OPT_ADAMW); }
ZEND_METHOD(Cuda_Optimizer, adam) { adam_new(INTERNAL_FUNCTION_PARAM_PASSTHRU, OPT_ADAM); }

ZEND_METHOD(Cuda_Optimizer, getLearningRate) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_DOUBLE(THIS_OPT->t.lr);
}

ZEND_METHOD(Cuda_Optimizer, setLearningRate) {
    double lr;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_DOUBLE(lr)
    ZEND_PARSE_PARAMETERS_END();
    if (!check_hp("setLearningRate", "learningRate", lr, 0, false, INFINITY, false)) RETURN_THROWS();
    THIS_OPT->t.lr = lr;
}

ZEND_METHOD(Cuda_Optimizer, getOptions) {
    ZEND_PARSE_PARAMETERS_NONE();
    const Train *t = &THIS_OPT->t;
    array_init(return_value);
    add_assoc_string(return_value, "type", php_gtc_opt_type_name(t->opt));
    add_assoc_double(return_value, "learningRate", t->lr);
    if (t->opt == OPT_SGD) {
        add_assoc_double(return_value, "momentum", t->momentum);
        add_assoc_bool(return_value, "nesterov", t->nesterov);
    } else {
        add_assoc_double(return_value, "beta1", t->beta1);
        add_assoc_double(return_value, "beta2", t->beta2);
        add_assoc_double(return_value, "epsilon", t->eps);
    }
    add_assoc_double(return_value, "weightDecay", t->weight_decay);
    if (t->clip_value > 0) add_assoc_double(return_value, "clipValue", t->clip_value);
    else add_assoc_null(return_value, "clipValue");
    if (t->clip_norm > 0) add_assoc_double(return_value, "clipNorm", t->clip_norm);
    else add_assoc_null(return_value, "clipNorm");
}

/* ---- checking what a step is given -------------------------------------------------------------- */

static const char *type_str(const RtTensor *x, char *buf, size_t n) {
    TensorType tt = rt_type(x);
    char s[160];
    snprintf(buf, n, "%s %s", ir_dtype_name(tt.dtype), ir_shape_str(&tt, s, sizeof s));
    return buf;
}

/* The tensor of a list entry that must be a Cuda\CudaArray; NULL after throwing. */
static RtTensor *entry_tensor(const char *fn, const char *what, uint32_t i, zval *v) {
    ZVAL_DEREF(v);
    RtTensor *x = v && Z_TYPE_P(v) == IS_OBJECT && instanceof_function(Z_OBJCE_P(v), php_gtc_ce_CudaArray)
                      ? Z_GTC_ARRAY_P(v)->t : NULL;
    if (!x)
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s[%u] must be a Cuda\\CudaArray, %s given", fn, what, i,
                      !v ? "nothing" : Z_TYPE_P(v) == IS_OBJECT ? ZSTR_VAL(Z_OBJCE_P(v)->name) : zend_zval_type_name(v));
    return x;
}

/* The n tensors of a list (borrowed) into out; like[i] (optional) is the tensor each must match
 * in shape and dtype. false after throwing. */
bool php_gtc_opt_tensor_list(const char *fn, const char *what, zval *list, uint32_t n, RtTensor **like, RtTensor **out) {
    ZVAL_DEREF(list);
    bool is_list = Z_TYPE_P(list) == IS_ARRAY && zend_array_is_list(Z_ARRVAL_P(list));
    uint32_t count = is_list ? zend_hash_num_elements(Z_ARRVAL_P(list)) : 0;
    if (!is_list || count == 0 || (n && count != n)) {
        char given[64];
        if (is_list) snprintf(given, sizeof given, "%u entries", count);
        else snprintf(given, sizeof given, "%s", Z_TYPE_P(list) == IS_ARRAY ? "an array that is not a list" : zend_zval_type_name(list));
        if (n)
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s must be a list of %u Cuda\\CudaArray, one per parameter, "
                          "%s given", fn, what, n, given);
        else
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s must be a non-empty list of Cuda\\CudaArray, %s given",
                          fn, what, given);
        return false;
    }
    for (uint32_t i = 0; i < zend_hash_num_elements(Z_ARRVAL_P(list)); i++) {
        RtTensor *x = entry_tensor(fn, what, i, zend_hash_index_find(Z_ARRVAL_P(list), i));
        if (!x) return false;
        char a[200], b[200];
        if (like) {
            TensorType ta = rt_type(x), tb = rt_type(like[i]);
            if (!ir_type_equal(&ta, &tb)) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s[%u] is %s but parameters[%u] is %s: it needs its "
                              "parameter's shape and dtype", fn, what, i, type_str(x, a, sizeof a), i, type_str(like[i], b, sizeof b));
                return false;
            }
        }
        out[i] = x;
    }
    return true;
}

/* The parameters: a non-empty list of distinct float32/float64 tensors; their count, or 0 after
 * throwing. *out is emalloc'd. */
uint32_t php_gtc_opt_param_list(const char *fn, zval *list, RtTensor ***out) {
    *out = NULL;
    uint32_t n = Z_TYPE_P(list) == IS_ARRAY ? zend_hash_num_elements(Z_ARRVAL_P(list)) : 0;
    RtTensor **ps = safe_emalloc(n + 1, sizeof *ps, 0);
    if (!php_gtc_opt_tensor_list(fn, "parameters", list, 0, NULL, ps)) goto fail;
    for (uint32_t i = 0; i < n; i++) {
        char a[200];
        if (!ir_dtype_is_float(ps[i]->dtype)) {
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): parameters[%u] is %s; an optimizer updates float32 or "
                          "float64 tensors", fn, i, type_str(ps[i], a, sizeof a));
            goto fail;
        }
        for (uint32_t j = 0; j < i; j++) /* the same tensor twice would get two updates of one value */
            if (ps[j] == ps[i]) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): parameters[%u] is the same tensor as parameters[%u]", fn, i, j);
                goto fail;
            }
    }
    *out = ps;
    return n;
fail:
    efree(ps);
    return 0;
}

/* One beta power: a float tensor of one element; with data (eager), its value in [0, 1].
 * *value gets it (NAN when it has no data). false after throwing. */
static bool power_value(const char *fn, const char *key, RtTensor *x, bool read, double *value) {
    char a[200];
    *value = NAN;
    if (!ir_dtype_is_float(x->dtype) || rt_numel(x) != 1) {
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): state['%s'] is %s; it must be a float32 or float64 tensor of "
                      "one element (initState() makes it)", fn, key, type_str(x, a, sizeof a));
        return false;
    }
    if (!read || php_gtc_is_placeholder(x)) return true;
    RtTensor *d = rt_cast(x, DT_FLOAT64);
    if (!d || rt_to_host(d, value)) {
        rt_release(d);
        php_gtc_throw_rt();
        return false;
    }
    rt_release(d);
    if (!(*value >= 0 && *value <= 1)) {
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): state['%s'] is %g; a beta power is beta to the number of steps "
                      "taken, in [0, 1]", fn, key, *value);
        return false;
    }
    return true;
}

/* Whether beta1^t1 = p1 and beta2^t2 = p2 can be the same step count (float32 rounding allowed
 * for: t is recovered as log p / log beta). false after throwing. */
static bool powers_agree(const char *fn, const Train *t, double p1, double p2) {
    if (!(p1 > 1e-30 && p2 > 1e-30 && t->beta1 > 0 && t->beta2 > 0)) return true; /* underflowed, or beta 0 */
    double t1 = log(p1) / log(t->beta1), t2 = log(p2) / log(t->beta2);
    if (fabs(t1 - t2) <= 0.5 + 1e-3 * fmax(t1, t2)) return true;
    php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): state['beta1Power'] (%g, %.0f steps of beta1 %g) and "
                  "state['beta2Power'] (%g, %.0f steps of beta2 %g) disagree about the number of steps taken",
                  fn, p1, t1, t->beta1, p2, t2, t->beta2);
    return false;
}

/* The state of np parameters, checked against this optimizer's type: exactly its keys, lists
 * matching the parameters, beta powers (values checked when read). st[k * np + i] gets list k's
 * entry i, power[0..1] the beta powers. false after throwing. */
bool php_gtc_opt_state_tensors(const char *fn, const Train *t, zval *state, RtTensor **ps, uint32_t np, bool read,
                               RtTensor **st, RtTensor **power) {
    const char *const *keys = php_gtc_opt_state_keys(t);
    zend_string *key;
    ZEND_HASH_FOREACH_STR_KEY(Z_ARRVAL_P(state), key) {
        bool known = false;
        for (int k = 0; keys[k] && !known; k++) known = key && zend_string_equals_cstr(key, keys[k], strlen(keys[k]));
        if (!known) {
            smart_str all = {0};
            for (int k = 0; keys[k]; k++) smart_str_append_printf(&all, "%s'%s'", k ? ", " : "", keys[k]);
            smart_str_0(&all);
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): state has an unknown key '%s'; an %s optimizer's state %s%s",
                          fn, key ? ZSTR_VAL(key) : "(an integer)", php_gtc_opt_type_name(t->opt),
                          keys[0] ? "is " : "is empty (no momentum)", all.s ? ZSTR_VAL(all.s) : "");
            smart_str_free(&all);
            return false;
        }
    } ZEND_HASH_FOREACH_END();
    double pv[2] = {NAN, NAN};
    int np_ = 0, nl = 0;
    for (int k = 0; keys[k]; k++) {
        zval *e = zend_hash_str_find(Z_ARRVAL_P(state), keys[k], strlen(keys[k]));
        if (!e) {
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): state has no '%s' (initState() makes an %s optimizer's state)",
                          fn, keys[k], php_gtc_opt_type_name(t->opt));
            return false;
        }
        char what[32];
        snprintf(what, sizeof what, "state['%s']", keys[k]);
        if (php_gtc_opt_is_power_key(keys[k])) {
            ZVAL_DEREF(e);
            RtTensor *x = Z_TYPE_P(e) == IS_OBJECT && instanceof_function(Z_OBJCE_P(e), php_gtc_ce_CudaArray)
                              ? Z_GTC_ARRAY_P(e)->t : NULL;
            if (!x) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::%s(): %s must be a Cuda\\CudaArray, %s given", fn, what,
                              Z_TYPE_P(e) == IS_OBJECT ? ZSTR_VAL(Z_OBJCE_P(e)->name) : zend_zval_type_name(e));
                return false;
            }
            if (!power_value(fn, keys[k], x, read, &pv[np_])) return false;
            power[np_++] = x;
        } else if (!php_gtc_opt_tensor_list(fn, what, e, np, ps, st + (size_t)nl++ * np)) {
            return false;
        }
    }
    return np_ < 2 || powers_agree(fn, t, pv[0], pv[1]);
}

/* ---- initState, zeroGrad -------------------------------------------------------------------------- */

/* A tensor of value v shaped like x (or [1] of x's dtype when one) on x's backend into rv. */
static bool full_like(zval *rv, const RtTensor *x, double v, bool one) {
    int64_t d1 = 1;
    return php_gtc_wrap(rv, php_gtc_ce_CudaArray, rt_full(x->storage->backend, x->dtype, one ? 1 : x->rank,
                                                           one ? &d1 : x->shape, v));
}

ZEND_METHOD(Cuda_Optimizer, initState) {
    zval *params;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY(params)
    ZEND_PARSE_PARAMETERS_END();
    const Train *t = &THIS_OPT->t;
    RtTensor **ps;
    uint32_t np = php_gtc_opt_param_list("initState", params, &ps);
    if (!np) RETURN_THROWS();
    array_init(return_value);
    for (const char *const *k = php_gtc_opt_state_keys(t); *k; k++) {
        zval v;
        bool ok = true;
        if (php_gtc_opt_is_power_key(*k)) { /* [1], of the first parameter's dtype, as php-gpu-tensors */
            ok = full_like(&v, ps[0], 1.0, true);
        } else {
            array_init_size(&v, np);
            for (uint32_t i = 0; i < np && ok; i++) {
                zval z;
                if ((ok = full_like(&z, ps[i], 0.0, false))) add_next_index_zval(&v, &z);
            }
            if (!ok) zval_ptr_dtor(&v);
        }
        if (!ok) {
            efree(ps);
            zval_ptr_dtor(return_value);
            ZVAL_UNDEF(return_value);
            RETURN_THROWS();
        }
        add_assoc_zval(return_value, *k, &v);
    }
    efree(ps);
}

/* zeroGrad() is eager autograd's (Cuda\CudaArray::zeroGrad): called by name on each parameter,
 * so the optimizer holds no gradient of its own. */
ZEND_METHOD(Cuda_Optimizer, zeroGrad) {
    zval *params;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY(params)
    ZEND_PARSE_PARAMETERS_END();
    RtTensor **ps;
    uint32_t np = php_gtc_opt_param_list("zeroGrad", params, &ps);
    if (!np) RETURN_THROWS();
    efree(ps);
    zend_function *f = zend_hash_str_find_ptr(&php_gtc_ce_CudaArray->function_table, "zerograd", 8);
    if (!f) {
        php_gtc_throw(RT_ERUNTIME, "Cuda\\Optimizer::zeroGrad(): Cuda\\CudaArray::zeroGrad() (eager autograd) is not "
                      "available in this build; pass gradients to step() yourself");
        RETURN_THROWS();
    }
    zval *p;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(params), p) {
        ZVAL_DEREF(p);
        zval ret;
        ZVAL_UNDEF(&ret);
        zend_call_known_instance_method_with_0_params(f, Z_OBJ_P(p), &ret);
        zval_ptr_dtor(&ret);
        if (EG(exception)) RETURN_THROWS();
    } ZEND_HASH_FOREACH_END();
}

/* ---- step ----------------------------------------------------------------------------------------- */

/* What one step's graph is built from: the tensors of its inputs, in the order they become
 * graph inputs (params, grads, then optim_inputs' order), and the nodes standing for them. */
typedef struct {
    Graph *g;            /* eager: the step's own graph; traced: the trace's */
    bool traced;
    RtTensor **ts;       /* per input: its tensor (borrowed) */
    NodeId *ids;         /* per input: its node */
    int n;
} StepInputs;

/* The node for tensor x: an input of the step's graph (eager) or the trace's node for it. x
 * NULL (eager only): a rank-0 input of type *type, the optimizer's learning rate. -1 after
 * rt_error. */
static NodeId step_input(StepInputs *s, RtTensor *x, const TensorType *type, const char *name) {
    NodeId id;
    if (s->traced) {
        id = fusion_trace_operand(x);
    } else {
        id = graph_add(s->g, name, OP_INPUT);
        if (id >= 0) {
            s->g->nodes[id].type = x ? rt_type(x) : *type;
            s->g->nodes[id].type.weak = false;
            s->g->nodes[id].input_index = s->g->ninputs++;
        } else {
            rt_error(RT_EINVAL, "the optimizer's step has too many nodes");
        }
    }
    s->ts[s->n] = x;
    s->ids[s->n++] = id;
    return id;
}

/* Builds the update over params ps, grads gs, list state st (k * np + i), beta powers and lr
 * (NULL: the optimizer's own, an input of an eager step's graph with no tensor) into g with compiler/optim.c; upd[i] and snext[j] (the next
 * state in initState's order: lists then powers) get the nodes. -1 after rt_error. */
static int build_step(StepInputs *s, const Train *hp, RtTensor **ps, RtTensor **gs, uint32_t np, RtTensor **st,
                      RtTensor **power, RtTensor *lr, bool *no_decay, NodeId *upd, NodeId *snext) {
    Train t = *hp;
    char name[32];
    t.nparams = (int)np;
    t.params = emalloc(np * sizeof *t.params);
    t.no_decay = no_decay;
    /* the rate is an input of a planned step (a new rate needs no new plan), a tensor's node, or
     * (traced without one) a constant of the trace. "(lr)" is not an identifier: never the name
     * of a node of the graph. */
    t.lr_name = lr || !s->traced ? "(lr)" : NULL;
    NodeId *gids = emalloc(np * sizeof *gids);
    int rc = 0;
    for (uint32_t i = 0; i < np && !rc; i++) {
        snprintf(name, sizeof name, "p%u", i);
        if ((t.params[i] = step_input(s, ps[i], NULL, name)) < 0) rc = -1;
    }
    for (uint32_t i = 0; i < np && !rc; i++) {
        snprintf(name, sizeof name, "g%u", i);
        if ((gids[i] = step_input(s, gs[i], NULL, name)) < 0) rc = -1;
    }
    OptInput *ins = NULL;
    int nins = rc ? 0 : optim_inputs(s->g, &t, &ins);
    NodeId *in_ids = ecalloc((size_t)nins + 1, sizeof *in_ids), *next = ecalloc((size_t)nins + 1, sizeof *next);
    Diag d;
    diag_init(&d, "optimizer");
    Builder b;
    bool begun = false;
    for (int k = 0; k < nins && !rc; k++) { /* each optimizer input: its tensor, scalars as rank 0 */
        RtTensor *x = NULL;
        const char *nm = ins[k].name;
        if (ins[k].param < 0) {
            x = !strcmp(nm, "adamw_beta1_power") ? power[0] : !strcmp(nm, "adamw_beta2_power") ? power[1] : lr;
        } else {
            uint32_t i = 0;
            while (i < np && t.params[i] != ins[k].param) i++;
            size_t len = strlen(nm);
            x = st[(size_t)(len >= 2 && !strcmp(nm + len - 2, "_v")) * np + i];
        }
        snprintf(name, sizeof name, "s%d", k);
        TensorType lr_type = {.dtype = ps[0]->dtype}; /* the optimizer's own rate, a rank-0 input */
        if ((in_ids[k] = step_input(s, x, &lr_type, name)) < 0) rc = -1;
    }
    if (!rc) {
        ad_begin(&b, s->g, &d);
        begun = true;
        for (int k = 0; k < nins; k++)
            if (ins[k].param < 0) in_ids[k] = ad_reshape(&b, ins[k].name, in_ids[k], 0, NULL);
        rc = optim_build(&b, &t, gids, ins, in_ids, nins, upd, next);
    }
    int j = 0;
    for (int k = 0; k < nins && !rc; k++) { /* lists (per param, in key order), then the powers */
        if (ins[k].param >= 0 || next[k] < 0) continue;
        RtTensor *x = s->ts[s->n - nins + k];
        next[k] = ad_reshape(&b, ins[k].name, next[k], x->rank, x->shape); /* back to [1] */
    }
    if (!rc) { /* snext in initState's order: velocity / firstMoment lists, secondMoment, powers */
        for (int pass = 0; pass < 3; pass++)
            for (int k = 0; k < nins; k++) {
                size_t len = strlen(ins[k].name);
                bool v = ins[k].param >= 0 && len >= 2 && !strcmp(ins[k].name + len - 2, "_v");
                int which = ins[k].param < 0 ? 2 : v ? 1 : 0;
                if (which == pass && next[k] >= 0) snext[j++] = next[k];
            }
    }
    if (begun && ad_finish(&b)) rc = -1;
    if (rc && rt_status() == RT_OK && s->g->nnodes >= IR_MAX_NODES - 64) /* a graph's size limit */
        rt_error(RT_EINVAL, "Cuda\\Optimizer::step(): %u parameters make a step graph of more than %d values%s; "
                 "step them in groups (one step() per group)", np, IR_MAX_NODES,
                 s->traced ? " (with the traced closure's)" : "");
    else if (rc && rt_status() == RT_OK)
        rt_error(RT_ERUNTIME, "internal: the optimizer's update does not build: %s", d.msg);
    free(ins);
    efree(in_ids), efree(next), efree(gids), efree(t.params);
    return rc;
}

/* Wraps the results: ['parameters' => [...], 'state' => [key => ...]] from tensors (non-NULL
 * new references, taken over) in initState's order. */
static void step_result(zval *rv, const Train *t, RtTensor **upd, uint32_t np, RtTensor **snext) {
    zval params, state, z;
    array_init_size(&params, np);
    array_init(&state);
    for (uint32_t i = 0; i < np; i++) {
        php_gtc_wrap(&z, php_gtc_ce_CudaArray, upd[i]);
        add_next_index_zval(&params, &z);
    }
    int j = 0;
    for (const char *const *k = php_gtc_opt_state_keys(t); *k; k++) {
        zval v;
        if (php_gtc_opt_is_power_key(*k)) {
            php_gtc_wrap(&v, php_gtc_ce_CudaArray, snext[j++]);
        } else {
            array_init_size(&v, np);
            for (uint32_t i = 0; i < np; i++) {
                php_gtc_wrap(&z, php_gtc_ce_CudaArray, snext[j++]);
                add_next_index_zval(&v, &z);
            }
        }
        add_assoc_zval(&state, *k, &v);
    }
    array_init(rv);
    add_assoc_zval(rv, "parameters", &params);
    add_assoc_zval(rv, "state", &state);
}

/* Runs an eager step's graph (s->g, freed here; outputs out[0..nout)) as a planned
 * Cuda\FusionGraph: planned once per input types and kept by the optimizer (the learning rate is
 * an input, so setLearningRate() needs no new plan), replayed as one CUDA Graph on a GPU; where
 * kernels cannot be built the plan class evaluates it op by op (rt_eval_graph). vals gets the
 * outputs (new references). false after throwing. */
static bool plan_step(php_gtc_optimizer *o, StepInputs *s, const bool *no_decay, uint32_t np, const NodeId *out,
                      int nout, RtTensor **vals) {
    Graph *g = s->g;
    s->g = NULL;
    smart_str key = {0};
    for (int k = 0; k < s->n; k++) {
        char sh[160];
        TensorType tt = g->nodes[s->ids[k]].type;
        smart_str_append_printf(&key, "%s%s%s;", s->ts[k] ? "" : "#", ir_dtype_name(tt.dtype), ir_shape_str(&tt, sh, sizeof sh));
    }
    for (uint32_t i = 0; no_decay && i < np; i++) smart_str_appendc(&key, no_decay[i] ? '0' : '1');
    smart_str_0(&key);
    if (!o->plans) ALLOC_HASHTABLE(o->plans), zend_hash_init(o->plans, 8, NULL, ZVAL_PTR_DTOR, 0);
    zval *fg = zend_hash_find(o->plans, key.s);
    bool ok = true;
    if (!fg) {
        zval shape, made;
        array_init_size(&shape, (uint32_t)nout);
        for (int j = 0; j < nout; j++) {
            char name[16];
            snprintf(name, sizeof name, "o%d", j);
            graph_add_output(g, name, out[j]);
            add_next_index_long(&shape, j);
        }
        Diag d;
        diag_init(&d, "optimizer_step");
        if (ir_verify(g, &d)) {
            php_gtc_throw(RT_ERUNTIME, "internal: the optimizer's step graph is not valid: %s", d.msg);
            graph_free(g);
            zval_ptr_dtor(&shape);
            ok = false;
        } else if ((ok = php_gtc_fusion_graph(g, "optimizer_step", &shape, &made))) {
            if (zend_hash_num_elements(o->plans) >= 16) zend_hash_clean(o->plans); /* shapes that keep changing */
            fg = zend_hash_update(o->plans, key.s, &made);
        }
    } else {
        graph_free(g);
    }
    smart_str_free(&key);
    if (!ok) return false;
    zval *args = safe_emalloc((size_t)s->n, sizeof(zval), 0), res;
    for (int k = 0; k < s->n; k++) {
        if (s->ts[k]) php_gtc_wrap(&args[k], php_gtc_ce_CudaArray, rt_retain(s->ts[k]));
        else ZVAL_DOUBLE(&args[k], o->t.lr);
    }
    ok = php_gtc_plan_run(php_gtc_plan_from_obj(Z_OBJ_P(fg)), false, args, (uint32_t)s->n, NULL, &res);
    for (int k = 0; k < s->n; k++) zval_ptr_dtor(&args[k]);
    efree(args);
    if (!ok) return false;
    for (int j = 0; j < nout; j++) {
        zval *v = zend_hash_index_find(Z_ARRVAL(res), (zend_ulong)j);
        vals[j] = rt_retain(php_gtc_array_tensor(v));
    }
    zval_ptr_dtor(&res);
    return true;
}

ZEND_METHOD(Cuda_Optimizer, step) {
    zval *params, *grads, *state, *lr_z = NULL;
    HashTable *mask = NULL;
    ZEND_PARSE_PARAMETERS_START(3, 5)
        Z_PARAM_ARRAY(params)
        Z_PARAM_ARRAY(grads)
        Z_PARAM_ARRAY(state)
        Z_PARAM_OPTIONAL
        Z_PARAM_OBJECT_OF_CLASS_OR_NULL(lr_z, php_gtc_ce_CudaArray)
        Z_PARAM_ARRAY_HT_OR_NULL(mask)
    ZEND_PARSE_PARAMETERS_END();
    const Train *t = &THIS_OPT->t;
    bool traced = php_gtc_tracing();
    RtTensor **ps;
    uint32_t np = php_gtc_opt_param_list("step", params, &ps);
    if (!np) RETURN_THROWS();
    int nlists = t->opt != OPT_SGD ? 2 : t->momentum > 0 ? 1 : 0, nstate = nlists * (int)np + (t->opt != OPT_SGD ? 2 : 0);
    RtTensor **gs = safe_emalloc(np, sizeof *gs, 0), **st = safe_emalloc((size_t)nlists + 1, np * sizeof *st, 0);
    RtTensor *power[2] = {NULL, NULL}, *lr = lr_z ? php_gtc_array_tensor(lr_z) : NULL;
    bool *no_decay = NULL, ok = true;
    /* every step input, checked before anything is built */
    if (!php_gtc_opt_tensor_list("step", "gradients", grads, np, ps, gs)) ok = false;
    if (ok && !php_gtc_opt_state_tensors("step", t, state, ps, np, !traced, st, power)) ok = false;
    if (ok && lr_z) {
        char a[200];
        if (!lr) {
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::step(): learningRate is an uninitialized Cuda\\CudaArray");
            ok = false;
        } else if (!ir_dtype_is_float(lr->dtype) || rt_numel(lr) != 1) {
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::step(): learningRate is %s; it must be a float32 or float64 "
                          "tensor of one element", type_str(lr, a, sizeof a));
            ok = false;
        }
    }
    if (ok && mask) {
        if (zend_hash_num_elements(mask) != np || !zend_array_is_list(mask)) {
            php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::step(): weightDecayMask must be a list of %u bools, one per "
                          "parameter, %s given", np, zend_array_is_list(mask) ? "a list of another length" : "not a list");
            ok = false;
        }
        no_decay = ecalloc(np, sizeof *no_decay);
        for (uint32_t i = 0; i < np && ok; i++) {
            zval *m = zend_hash_index_find(mask, i);
            ZVAL_DEREF(m);
            if (Z_TYPE_P(m) != IS_TRUE && Z_TYPE_P(m) != IS_FALSE) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::step(): weightDecayMask[%u] must be a bool, %s given", i,
                              zend_zval_type_name(m));
                ok = false;
            }
            no_decay[i] = Z_TYPE_P(m) == IS_FALSE;
        }
    }
    for (uint32_t i = 0; ok && !traced && i < np; i++) /* eager: every operand has data */
        ok = php_gtc_check_data(ps[i]) && php_gtc_check_data(gs[i]);
    for (int k = 0; ok && !traced && k < nlists * (int)np; k++) ok = php_gtc_check_data(st[k]);
    for (int k = 0; ok && !traced && k < 2 && power[k]; k++) ok = php_gtc_check_data(power[k]);
    if (ok && !traced && lr) ok = php_gtc_check_data(lr);
    NodeId *upd = ecalloc(np, sizeof *upd), *snext = ecalloc((size_t)nstate + 1, sizeof *snext);
    int nin = 2 * (int)np + nstate + 1;
    StepInputs s = {.traced = traced, .ts = ecalloc((size_t)nin, sizeof(RtTensor *)), .ids = ecalloc((size_t)nin, sizeof(NodeId))};
    s.g = traced ? fusion_trace_graph() : graph_new("optimizer_step");
    if (ok && build_step(&s, t, ps, gs, np, st, power, lr, no_decay, upd, snext)) {
        php_gtc_throw_rt();
        ok = false;
    }
    RtTensor **vals = ecalloc((size_t)np + nstate + 1, sizeof *vals);
    if (ok) {
        /* the values: computed now (eager), or placeholders for the new trace nodes */
        NodeId *out = emalloc(((size_t)np + nstate + 1) * sizeof *out);
        memcpy(out, upd, np * sizeof *out);
        memcpy(out + np, snext, (size_t)nstate * sizeof *out);
        if (traced) {
            for (int j = 0; j < (int)np + nstate && ok; j++) ok = (vals[j] = fusion_trace_result(out[j])) != NULL;
            if (!ok) {
                for (int j = 0; j < (int)np + nstate; j++) rt_release(vals[j]);
                php_gtc_throw_rt();
            }
        } else {
            ok = plan_step(THIS_OPT, &s, no_decay, np, out, (int)np + nstate, vals);
        }
        efree(out);
        if (ok) step_result(return_value, t, vals, np, vals + np);
    }
    if (!traced && s.g) graph_free(s.g);
    efree(s.ts), efree(s.ids), efree(vals), efree(upd), efree(snext), efree(ps), efree(gs), efree(st);
    if (no_decay) efree(no_decay);
    if (!ok) RETURN_THROWS();
}

void php_gtc_optimizer_minit(void) {
    php_gtc_ce_Optimizer = register_class_Cuda_Optimizer();
    php_gtc_ce_Optimizer->create_object = opt_create;
    memcpy(&optimizer_handlers, zend_get_std_object_handlers(), sizeof optimizer_handlers);
    optimizer_handlers.offset = XtOffsetOf(php_gtc_optimizer, std);
    optimizer_handlers.clone_obj = NULL;
    optimizer_handlers.free_obj = opt_free;
}
