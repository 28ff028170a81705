/* runtime/php/plan_state.c: a plan object's state, one implementation for Cuda\FusionGraph and
 * every compiled model class: the optimizer state a training step owns (the inputs its plan
 * marks RtPlanIO.state: buffers made as zeros on first use, AdamW's step counter kept and
 * advanced by the object), optimizerState()/setOptimizerState()/resetOptimizerState(), and
 * checkpoints (saveCheckpoint/loadCheckpoint: the inputs it updates and its own state, one .npz).
 *
 * An explicit run() argument for a state input is used for that run instead of the owned value
 * (the owned one is left as it was, and the owned step counter does not advance when the step is
 * given): the style before the model owned its state keeps working. */
#include "plan_class.h"

#include <math.h>

#include "zend_smart_str.h"

#define STEPS_MAX ((zend_long)RT_PLAN_STEP_MAX - 1) /* updates done: t = steps + 1 (exec.c's limit) */

static int nvis_of(const php_gtc_plan_obj *o) { return o->plan->ninputs - o->nhidden; }

static const char *class_of(const php_gtc_plan_obj *o) { return ZSTR_VAL(o->std.ce->name); }

static bool has_state(const php_gtc_plan_obj *o, IrInputState kind) {
    for (int i = 0; i < nvis_of(o); i++)
        if (o->plan->inputs[i].state == (int)kind) return true;
    return false;
}

/* The backend the next run takes (the JIT's pinned one, else gtc.device); NULL after throwing. */
static const RtBackend *state_backend(const php_gtc_plan_obj *o) {
    return o->pinned ? o->backend : php_gtc_backend();
}

/* The owned value of state input i (IR_STATE_ZEROS): made as zeros on first use, moved to the
 * run's backend when gtc.device changed since. NULL after throwing. */
static zval *state_value(php_gtc_plan_obj *o, int i) {
    const RtBackend *b = state_backend(o);
    if (!b) return NULL;
    if (!o->owned) o->owned = ecalloc((size_t)o->plan->ninputs + 1, sizeof *o->owned); /* IS_UNDEF */
    zval *z = &o->owned[i];
    RtTensor *t = Z_ISUNDEF_P(z) ? NULL : php_gtc_array_tensor(z);
    if (t && t->storage->backend == b) return z;
    const RtPlanIO *io = &o->plan->inputs[i];
    zval nz;
    if (!php_gtc_wrap(&nz, php_gtc_ce_CudaArray, t ? rt_to_backend(t, b) : rt_full(b, io->dtype, io->rank, io->dims, 0)))
        return NULL;
    zval_ptr_dtor(z);
    ZVAL_COPY_VALUE(z, &nz);
    return z;
}

/* Replaces the owned value of input i by z (a reference taken). */
static void state_keep(php_gtc_plan_obj *o, int i, zval *z) {
    if (!o->owned) o->owned = ecalloc((size_t)o->plan->ninputs + 1, sizeof *o->owned);
    Z_TRY_ADDREF_P(z);
    zval_ptr_dtor(&o->owned[i]);
    ZVAL_COPY_VALUE(&o->owned[i], z);
}

bool php_gtc_plan_state_bind(php_gtc_plan_obj *o, int nvis, zval **given, zval *step) {
    for (int i = 0; i < nvis; i++) {
        if (given[i] || o->plan->inputs[i].state == IR_STATE_NONE) continue;
        if (o->plan->inputs[i].state == IR_STATE_STEP) {
            ZVAL_LONG(step, o->steps + 1); /* t of this update */
            given[i] = step;
        } else if (!(given[i] = state_value(o, i))) {
            return false;
        }
    }
    return true;
}

void php_gtc_plan_state_after_run(php_gtc_plan_obj *o, int nvis, zval **given, const zval *step, RtTensor **out) {
    if (!Z_ISUNDEF_P(step)) o->steps++;
    if (!o->owned) return;
    const RtPlan *p = o->plan;
    /* rank-0 state is passed by value: its new value is the output of its name */
    for (int i = 0; i < nvis; i++) {
        if (given[i] != &o->owned[i] || php_gtc_plan_input_donated(p, i)) continue;
        for (int j = 0; j < p->noutputs; j++) {
            zval nz;
            if (!out[j] || strcmp(p->outputs[j].name, p->inputs[i].name) != 0) continue;
            if (php_gtc_wrap(&nz, php_gtc_ce_CudaArray, rt_retain(out[j]))) {
                zval_ptr_dtor(&o->owned[i]);
                ZVAL_COPY_VALUE(&o->owned[i], &nz);
            }
            break;
        }
    }
}

void php_gtc_plan_state_free(php_gtc_plan_obj *o) {
    if (!o->owned) return;
    for (int i = 0; o->plan && i < o->plan->ninputs; i++) zval_ptr_dtor(&o->owned[i]);
    efree(o->owned);
    o->owned = NULL;
}

/* "w1_m, w1_v, step": the names setOptimizerState() takes, for its message. */
static zend_string *state_names(const php_gtc_plan_obj *o) {
    smart_str s = {0};
    for (int i = 0; i < nvis_of(o); i++)
        if (o->plan->inputs[i].state == IR_STATE_ZEROS) {
            if (s.s) smart_str_appends(&s, ", ");
            smart_str_appends(&s, o->plan->inputs[i].name);
        }
    if (has_state(o, IR_STATE_STEP)) smart_str_appends(&s, s.s ? ", step" : "step");
    smart_str_0(&s);
    return s.s ? s.s : ZSTR_EMPTY_ALLOC();
}

/* optimizerState(): name => Cuda\CudaArray for each buffer (the object's own tensors, updated in
 * place by later runs; zeros before the first), then 'step' => the updates done (AdamW). */
void php_gtc_plan_method_optimizerState(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    array_init(return_value);
    for (int i = 0; i < nvis_of(o); i++) {
        if (o->plan->inputs[i].state != IR_STATE_ZEROS) continue;
        zval *z = state_value(o, i);
        if (!z) {
            zval_ptr_dtor(return_value);
            ZVAL_UNDEF(return_value);
            RETURN_THROWS();
        }
        Z_ADDREF_P(z);
        add_assoc_zval(return_value, o->plan->inputs[i].name, z);
    }
    if (has_state(o, IR_STATE_STEP)) add_assoc_long(return_value, "step", o->steps);
}

/* Whether t has input io's dtype and shape; false after throwing (fn names the method). */
static bool check_io(const char *fn, const RtPlanIO *io, const RtTensor *t) {
    bool same = t->dtype == io->dtype && t->rank == io->rank;
    for (int d = 0; same && d < t->rank; d++) same = t->shape[d] == io->dims[d];
    if (same) return true;
    TensorType want = {.rank = io->rank}, got = {.rank = t->rank};
    memcpy(want.dims, io->dims, (size_t)io->rank * sizeof *io->dims);
    memcpy(got.dims, t->shape, (size_t)t->rank * sizeof *t->shape);
    char ws[256], gs[256];
    php_gtc_throw(RT_EINVAL, "%s: input \"%s\" must be %s %s, got %s %s", fn, io->name, ir_dtype_name(io->dtype),
                  ir_shape_str(&want, ws, sizeof ws), ir_dtype_name(t->dtype), ir_shape_str(&got, gs, sizeof gs));
    return false;
}

/* setOptimizerState(array $state): some or all of optimizerState()'s entries (the others keep
 * their value), each buffer a Cuda\CudaArray of its input's dtype and shape (copied onto the
 * run's device), 'step' an int from 0. Everything is checked before anything changes. */
void php_gtc_plan_method_setOptimizerState(INTERNAL_FUNCTION_PARAMETERS) {
    HashTable *ht;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY_HT(ht)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const RtPlan *p = o->plan;
    int nvis = nvis_of(o);
    RtTensor **ts = ecalloc((size_t)nvis + 1, sizeof *ts);
    zval *copies = ecalloc((size_t)nvis + 1, sizeof *copies); /* IS_UNDEF */
    zend_long steps = o->steps;
    bool ok = true, has_step = has_state(o, IR_STATE_STEP);
    zend_ulong idx;
    zend_string *key;
    zval *val;
    ZEND_HASH_FOREACH_KEY_VAL(ht, idx, key, val) {
        char num[32];
        const char *name = key ? ZSTR_VAL(key) : (snprintf(num, sizeof num, ZEND_ULONG_FMT, idx), num);
        ZVAL_DEREF(val);
        if (key && has_step && zend_string_equals_literal(key, "step")) {
            if (Z_TYPE_P(val) != IS_LONG || Z_LVAL_P(val) < 0 || Z_LVAL_P(val) > STEPS_MAX) {
                if (Z_TYPE_P(val) == IS_LONG)
                    php_gtc_throw(RT_EINVAL, "setOptimizerState: \"step\" must be the number of updates done, an int "
                                  "from 0 to 2^53 - 1; " ZEND_LONG_FMT " given", Z_LVAL_P(val));
                else
                    php_gtc_throw(RT_EINVAL, "setOptimizerState: \"step\" must be the number of updates done, an int "
                                  "from 0 to 2^53 - 1; %s given", zend_zval_type_name(val));
                ok = false;
                break;
            }
            steps = Z_LVAL_P(val);
            continue;
        }
        int i = key && !memchr(ZSTR_VAL(key), 0, ZSTR_LEN(key))
                    ? php_gtc_plan_input_index(p, nvis, ZSTR_VAL(key), ZSTR_LEN(key)) : -1;
        if (i < 0 || p->inputs[i].state != IR_STATE_ZEROS) {
            zend_string *names = state_names(o);
            if (ZSTR_LEN(names))
                php_gtc_throw(RT_EINVAL, "setOptimizerState: \"%s\" is not optimizer state of %s; its optimizer state is %s",
                              name, class_of(o), ZSTR_VAL(names));
            else
                php_gtc_throw(RT_EINVAL, "setOptimizerState: %s has no optimizer state (\"%s\" given)", class_of(o), name);
            zend_string_release(names);
            ok = false;
            break;
        }
        RtTensor *t = Z_TYPE_P(val) == IS_OBJECT && instanceof_function(Z_OBJCE_P(val), php_gtc_ce_CudaArray)
                          ? php_gtc_array_tensor(val) : NULL;
        if (!t) {
            php_gtc_throw(RT_EINVAL, "setOptimizerState: \"%s\" must be a Cuda\\CudaArray, %s given", name,
                          Z_TYPE_P(val) == IS_OBJECT ? ZSTR_VAL(Z_OBJCE_P(val)->name) : zend_zval_type_name(val));
            ok = false;
            break;
        }
        if (!(ok = php_gtc_check_data(t) && check_io("setOptimizerState", &p->inputs[i], t))) break;
        ts[i] = t;
    } ZEND_HASH_FOREACH_END();
    /* copies (the caller's arrays stay theirs, and two entries never share a buffer), then commit */
    const RtBackend *b = ok ? state_backend(o) : NULL;
    ok = ok && b;
    for (int i = 0; ok && i < nvis; i++)
        if (ts[i]) ok = php_gtc_wrap(&copies[i], php_gtc_ce_CudaArray, rt_to_backend(ts[i], b));
    for (int i = 0; ok && i < nvis; i++)
        if (ts[i]) state_keep(o, i, &copies[i]);
    if (ok) o->steps = steps;
    for (int i = 0; i < nvis; i++) zval_ptr_dtor(&copies[i]);
    efree(copies);
    efree(ts);
    if (!ok) RETURN_THROWS();
}

/* resetOptimizerState(): back to the state of a new object: zero buffers (made again on first
 * use), step 0. */
void php_gtc_plan_method_resetOptimizerState(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    php_gtc_plan_state_free(o);
    o->steps = 0;
}

/* ---- checkpoints ------------------------------------------------------------------------------ */

/* A checkpoint holds every input the plan updates: those updated in place (donated: the
 * parameters, the optimizer's buffers), rank-0 ones that come back as the output of their name
 * (a rank-0 parameter), and the optimizer state. Each member holds the value its input takes on
 * the next run (adamw_step: t of the next update, optimizerState()'s 'step' + 1). */
static bool kept(const RtPlan *p, int i) {
    if (p->inputs[i].state != IR_STATE_NONE || php_gtc_plan_input_donated(p, i)) return true;
    for (int j = 0; p->inputs[i].scalar >= 0 && j < p->noutputs; j++)
        if (strcmp(p->outputs[j].name, p->inputs[i].name) == 0) return true;
    return false;
}

/* AdamW's t (into *tv) must be whole and at least 1 (exec.c refuses it too); false after
 * throwing. */
static bool check_step(const char *fn, const char *path, const RtPlanIO *io, RtTensor *t, double *tv) {
    double v = 0;
    RtTensor *c = rt_cast(t, DT_FLOAT64);
    bool read = c && rt_to_host(c, &v) == 0;
    rt_release(c);
    if (!read) {
        php_gtc_throw_rt();
        return false;
    }
    *tv = v;
    if (v >= 1 && v <= RT_PLAN_STEP_MAX && v == floor(v)) return true;
    php_gtc_throw(RT_EINVAL, "%s: %s%s\"%s\" is AdamW's step counter t of the next update and must be a whole "
                  "number from 1 to 2^53, %.17g given", fn, path ? path : "", path ? ": " : "", io->name, v);
    return false;
}

/* saveCheckpoint($path, $inputs, $compress = false): the checkpoint's inputs (kept()) into one
 * .npz: each from $inputs (as run() is given them; other entries, such as the batch, are
 * ignored), where $inputs lacks optimizer state, the object's own. */
void php_gtc_plan_method_saveCheckpoint(INTERNAL_FUNCTION_PARAMETERS) {
    zend_string *path;
    HashTable *inputs;
    bool compress = false;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_PATH_STR(path)
        Z_PARAM_ARRAY_HT(inputs)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(compress)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const RtPlan *p = o->plan;
    int nvis = nvis_of(o), n = 0;
    zend_string **names = safe_emalloc((size_t)nvis + 1, sizeof *names, 0);
    RtTensor **ts = safe_emalloc((size_t)nvis + 1, sizeof *ts, 0);
    RtTensor **made = ecalloc((size_t)nvis + 1, sizeof *made); /* tensors made here, released */
    bool ok = true;
    for (int i = 0; ok && i < nvis; i++) {
        if (!kept(p, i)) continue;
        const RtPlanIO *io = &p->inputs[i];
        zval *z = zend_hash_str_find(inputs, io->name, strlen(io->name)), step;
        if (!z && io->state == IR_STATE_ZEROS) {
            ok = (z = state_value(o, i)) != NULL;
        } else if (!z && io->state == IR_STATE_STEP) {
            ZVAL_LONG(&step, o->steps + 1);
            z = &step;
        } else if (!z) {
            php_gtc_throw(RT_EINVAL, "saveCheckpoint: input \"%s\" (updated in place) is missing from the array", io->name);
            ok = false;
        }
        double scalar;
        RtTensor *t = NULL;
        if (ok) ok = php_gtc_plan_read_input(p, i, z, &t, &scalar);
        if (ok && !t) { /* a rank-0 input given as a number */
            const RtBackend *b = state_backend(o);
            ok = b && (t = made[n] = rt_full(b, io->dtype, 0, NULL, scalar));
            if (b && !t) php_gtc_throw_rt();
        }
        double tv;
        ok = ok && check_io("saveCheckpoint", io, t) &&
             (io->state != IR_STATE_STEP || check_step("saveCheckpoint", NULL, io, t, &tv));
        if (!ok) break;
        names[n] = zend_string_init(io->name, strlen(io->name), 0);
        ts[n++] = t;
    }
    if (ok && !n) {
        php_gtc_throw(RT_EINVAL, "saveCheckpoint: %s updates no input in place: it has no state to save", class_of(o));
        ok = false;
    }
    if (ok) ok = php_gtc_npz_save("saveCheckpoint", ZSTR_VAL(path), names, ts, (uint32_t)n, compress);
    for (int k = 0; k < n; k++) zend_string_release(names[k]);
    for (int k = 0; k <= n && k < nvis + 1; k++) rt_release(made[k]);
    efree(made);
    efree(names);
    efree(ts);
    if (!ok) RETURN_THROWS();
}

/* loadCheckpoint($path): restores the object's optimizer state from the file and returns the
 * other inputs it holds (name => Cuda\CudaArray: the parameters, for run()); every member is
 * checked against its input's dtype and shape first, and a missing one or a member that is no
 * such input is refused, with nothing changed. */
void php_gtc_plan_method_loadCheckpoint(INTERNAL_FUNCTION_PARAMETERS) {
    zend_string *path;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_PATH_STR(path)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const RtPlan *p = o->plan;
    int nvis = nvis_of(o);
    zval all;
    if (!php_gtc_npz_load("loadCheckpoint", ZSTR_VAL(path), &all)) RETURN_THROWS();
    bool ok = true;
    zend_string *key;
    ZEND_HASH_FOREACH_STR_KEY(Z_ARRVAL(all), key) {
        int i = key ? php_gtc_plan_input_index(p, nvis, ZSTR_VAL(key), ZSTR_LEN(key)) : -1;
        if (i < 0 || !kept(p, i)) {
            php_gtc_throw(RT_EINVAL, "loadCheckpoint: %s: \"%s\" is not an input %s updates in place", ZSTR_VAL(path),
                          key ? ZSTR_VAL(key) : "", class_of(o));
            ok = false;
            break;
        }
    } ZEND_HASH_FOREACH_END();
    zval **found = ecalloc((size_t)nvis + 1, sizeof *found);
    double t_next = 1;
    for (int i = 0; ok && i < nvis; i++) {
        if (!kept(p, i)) continue;
        const RtPlanIO *io = &p->inputs[i];
        if (!(found[i] = zend_hash_str_find(Z_ARRVAL(all), io->name, strlen(io->name)))) {
            php_gtc_throw(RT_EINVAL, "loadCheckpoint: %s has no \"%s\"", ZSTR_VAL(path), io->name);
            ok = false;
        } else {
            RtTensor *t = php_gtc_array_tensor(found[i]);
            ok = check_io("loadCheckpoint", io, t) &&
                 (io->state != IR_STATE_STEP || check_step("loadCheckpoint", ZSTR_VAL(path), io, t, &t_next));
        }
    }
    if (ok) {
        array_init(return_value);
        for (int i = 0; i < nvis; i++) {
            if (!found[i]) continue;
            const RtPlanIO *io = &p->inputs[i];
            if (io->state == IR_STATE_ZEROS) {
                state_keep(o, i, found[i]);
            } else if (io->state == IR_STATE_STEP) {
                o->steps = (zend_long)t_next - 1;
            } else {
                Z_ADDREF_P(found[i]);
                add_assoc_zval(return_value, io->name, found[i]);
            }
        }
    }
    efree(found);
    zval_ptr_dtor(&all);
    if (!ok) RETURN_THROWS();
}
