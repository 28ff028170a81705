/* runtime/php/plan_class.c: the one PHP class implementation for a plan (plan_class.h): the
 * object (plan, executor, host hooks), run()'s binding of inputs by position and name, the
 * checks on PHP values, the executor's life cycle per backend, and getPlan/getStats/getSource/
 * inputs/outputs. Cuda\FusionGraph and every compiled model's class are instances of it. */
#include "plan_class.h"

#include "zend_exceptions.h"
#include "zend_smart_str.h"

static zend_object_handlers plan_handlers;

/* The model classes and their plans (a class entry holds no pointer of ours). */
typedef struct PlanClass {
    struct PlanClass *next;
    zend_class_entry *ce;
    const RtPlan *plan;
} PlanClass;
static PlanClass *g_classes;

static zend_object *plan_create(zend_class_entry *ce) {
    php_gtc_plan_obj *o = zend_object_alloc(sizeof(php_gtc_plan_obj), ce);
    zend_object_std_init(&o->std, ce);
    object_properties_init(&o->std, ce);
    o->std.handlers = &plan_handlers;
    ZVAL_UNDEF(&o->host_value);
    for (PlanClass *c = g_classes; c; c = c->next)
        if (c->ce == ce) o->plan = c->plan;
    return &o->std;
}

static void plan_free(zend_object *obj) {
    php_gtc_plan_obj *o = php_gtc_plan_from_obj(obj);
    if (o->exec) rt_exec_free(o->exec);
    if (o->pexec) rt_exec_free(o->pexec);
    o->exec = o->pexec = NULL;
    if (o->host && o->host->free) o->host->free(o);
    for (int i = 0; i < o->nhidden; i++) rt_release(o->hidden[i]);
    free(o->hidden);
    php_gtc_plan_state_free(o);
    zval_ptr_dtor(&o->host_value);
    zend_object_std_dtor(obj);
}

void php_gtc_plan_class_init(zend_class_entry *ce) {
    static bool handlers_ready;
    if (!handlers_ready) {
        memcpy(&plan_handlers, &std_object_handlers, sizeof plan_handlers);
        plan_handlers.offset = XtOffsetOf(php_gtc_plan_obj, std);
        plan_handlers.free_obj = plan_free;
        plan_handlers.clone_obj = NULL; /* an executor (its arena, its CUDA Graph) is not copied */
        handlers_ready = true;
    }
    ce->create_object = plan_create;
}

php_gtc_plan_obj *php_gtc_plan_this(zval *zv) {
    php_gtc_plan_obj *o = php_gtc_plan_from_obj(Z_OBJ_P(zv));
    if (!o->plan)
        zend_throw_error(NULL, "%s objects come from Cuda\\Fusion::compile()", ZSTR_VAL(Z_OBJCE_P(zv)->name));
    return o->plan ? o : NULL;
}

/* ---- run(): binding and checking the inputs -------------------------------------------------- */

static const char *value_type_name(zval *z) {
    ZVAL_DEREF(z);
    return Z_TYPE_P(z) == IS_OBJECT ? ZSTR_VAL(Z_OBJCE_P(z)->name) : zend_get_type_by_const(Z_TYPE_P(z));
}

/* (plan_class.h) */
int php_gtc_plan_input_index(const RtPlan *p, int nvis, const char *name, size_t len) {
    for (int i = 0; i < nvis; i++)
        if (strlen(p->inputs[i].name) == len && !memcmp(p->inputs[i].name, name, len)) return i;
    return -1;
}

bool php_gtc_plan_input_donated(const RtPlan *p, int i) {
    for (int j = 0; j < p->noutputs; j++)
        if (p->outputs[j].donated_from == i) return true;
    return false;
}

/* "x, y, w1" for messages: the inputs run() takes (not the hidden ones). */
static zend_string *input_names(const RtPlan *p, int nvis) {
    smart_str s = {0};
    for (int i = 0; i < nvis; i++) {
        if (i) smart_str_appends(&s, ", ");
        smart_str_appends(&s, p->inputs[i].name);
    }
    if (!s.s) return ZSTR_EMPTY_ALLOC();
    smart_str_0(&s);
    return s.s;
}

/* Reads input i's value: a tensor into *t, or (rank-0 inputs) a PHP number into *scalar.
 * false after throwing Cuda\InvalidArgumentException naming the input. */
bool php_gtc_plan_read_input(const RtPlan *p, int i, zval *z, RtTensor **t, double *scalar) {
    const RtPlanIO *io = &p->inputs[i];
    ZVAL_DEREF(z);
    *t = NULL;
    *scalar = 0;
    if (Z_TYPE_P(z) == IS_OBJECT && instanceof_function(Z_OBJCE_P(z), php_gtc_ce_CudaArray)) {
        *t = php_gtc_array_tensor(z);
        if (!*t) {
            php_gtc_throw(RT_EINVAL, "input \"%s\" is an uninitialized Cuda\\CudaArray", io->name);
            return false;
        }
        return php_gtc_check_data(*t); /* not a placeholder of a trace */
    }
    if (io->scalar >= 0 && php_gtc_plan_input_donated(p, i)) {
        php_gtc_throw(RT_EINVAL, "input \"%s\" is updated in place and must be a Cuda\\CudaArray, %s given",
                      io->name, value_type_name(z));
        return false;
    }
    if (io->scalar >= 0) {
        if (Z_TYPE_P(z) == IS_LONG && io->dtype != DT_BOOL) {
            *scalar = (double)Z_LVAL_P(z);
            return true;
        }
        if (Z_TYPE_P(z) == IS_DOUBLE && ir_dtype_is_float(io->dtype)) {
            *scalar = Z_DVAL_P(z);
            return true;
        }
        if ((Z_TYPE_P(z) == IS_TRUE || Z_TYPE_P(z) == IS_FALSE) && io->dtype == DT_BOOL) {
            *scalar = Z_TYPE_P(z) == IS_TRUE;
            return true;
        }
        const char *want = io->dtype == DT_BOOL ? "a bool" : ir_dtype_is_float(io->dtype) ? "an int, a float" : "an int";
        php_gtc_throw(RT_EINVAL, "input \"%s\" (%s scalar) must be %s or a Cuda\\CudaArray, %s given", io->name,
                      ir_dtype_name(io->dtype), want, value_type_name(z));
        return false;
    }
    php_gtc_throw(RT_EINVAL, "input \"%s\" (%s) must be a Cuda\\CudaArray, %s given", io->name,
                  ir_dtype_name(io->dtype), value_type_name(z));
    return false;
}

/* Fills given[0..nvis) from positional args and named ones; false after throwing. */
static bool bind_inputs(const RtPlan *p, int nvis, const char *cls, const char *method, zval *args, uint32_t argc,
                        HashTable *named, zval **given) {
    if (argc > (uint32_t)nvis) {
        zend_string *names = input_names(p, nvis);
        php_gtc_throw(RT_EINVAL, "%s::%s() takes %d input%s (%s), %u given", cls, method, nvis,
                      nvis == 1 ? "" : "s", ZSTR_VAL(names), argc);
        zend_string_release(names);
        return false;
    }
    for (uint32_t i = 0; i < argc; i++) given[i] = &args[i];
    if (named) {
        zend_string *key;
        zval *val;
        ZEND_HASH_FOREACH_STR_KEY_VAL(named, key, val) {
            if (key && !php_gtc_no_nul(key, "input name")) return false;
            int i = key ? php_gtc_plan_input_index(p, nvis, ZSTR_VAL(key), ZSTR_LEN(key)) : -1;
            if (i < 0) {
                zend_string *names = input_names(p, nvis);
                php_gtc_throw(RT_EINVAL, "unknown input \"%s\"; %s%s%s%s's inputs are %s", key ? ZSTR_VAL(key) : "", cls,
                              strcmp(method, "run") ? "::" : "", strcmp(method, "run") ? method : "",
                              strcmp(method, "run") ? "()" : "", ZSTR_VAL(names)); /* run(): the class's inputs */
                zend_string_release(names);
                return false;
            }
            if (given[i]) {
                php_gtc_throw(RT_EINVAL, "input \"%s\" is given twice (by position and by name)", p->inputs[i].name);
                return false;
            }
            given[i] = val;
        } ZEND_HASH_FOREACH_END();
    }
    for (int i = 0; i < nvis; i++)
        if (!given[i] && p->inputs[i].state == IR_STATE_NONE) { /* state: the object's own */
            php_gtc_throw(RT_EINVAL, "input \"%s\" is missing", p->inputs[i].name);
            return false;
        }
    return true;
}

/* The executor for this run's backend (predict: of the predict plan): kept while the backend
 * stays; a model object follows gtc.device (a new executor when it changed), a pinned one (the
 * JIT's) keeps its own. NULL with *fallback true when the host runs without one; NULL after
 * throwing otherwise. */
static RtExec *executor(php_gtc_plan_obj *o, bool predict, bool *fallback) {
    *fallback = false;
    RtExec **slot = predict ? &o->pexec : &o->exec;
    const RtBackend **sb = predict ? &o->pbackend : &o->backend;
    const RtBackend *b = o->pinned ? o->backend : php_gtc_backend();
    if (!b) return NULL;
    if (*slot && *sb == b) return *slot;
    if (!predict && o->pinned && o->host && o->host->run_fallback) {
        *fallback = true;
        return NULL;
    }
    if (*slot) rt_exec_free(*slot);
    *slot = rt_exec_new(predict ? o->plan->predict : o->plan, b);
    if (!*slot) {
        php_gtc_throw_rt();
        return NULL;
    }
    *sb = b;
    return *slot;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool php_gtc_plan_run(php_gtc_plan_obj *o, bool predict, zval *args, uint32_t argc, HashTable *named, zval *rv) {
    uint64_t t_bind = o->profiling ? now_ns() : 0, t_exec = 0, t_collect = 0;
    const RtPlan *p = predict ? o->plan->predict : o->plan;
    int nin = p->ninputs, nout = p->noutputs;
    zval **given = ecalloc((size_t)nin + 1, sizeof *given);
    RtTensor **in = ecalloc((size_t)nin + 1, sizeof *in);
    double *scalars = ecalloc((size_t)nin + 1, sizeof *scalars);
    RtTensor **out = ecalloc((size_t)nout + 1, sizeof *out);
    RtTensor **copies = ecalloc((size_t)nin + 1, sizeof *copies); /* contiguous copies of views */
    zval *outs = NULL;
    bool ok = false, fallback;
    int nvis = predict ? nin : nin - o->nhidden;
    zval step;
    ZVAL_UNDEF(&step);
    if (!bind_inputs(p, nvis, ZSTR_VAL(o->std.ce->name), predict ? "predict" : "run", args, argc, named, given)
        || (!predict && !php_gtc_plan_state_bind(o, nvis, given, &step)))
        goto done;
    for (int i = 0; i < nvis; i++)
        if (!php_gtc_plan_read_input(p, i, given[i], &in[i], &scalars[i])) goto done;
    for (int i = nvis; i < nin; i++) in[i] = o->hidden[i - nvis];
    /* A strided view is read through a contiguous copy (the plan's kernels index inputs densely);
     * an input updated in place cannot be, and the executor says so. */
    for (int i = 0; i < nin; i++)
        if (in[i] && p->inputs[i].scalar < 0 && !php_gtc_plan_input_donated(p, i) && !rt_is_contiguous(in[i])) {
            if (!(copies[i] = rt_contiguous(in[i]))) {
                php_gtc_throw_rt();
                goto done;
            }
            in[i] = copies[i];
        }
    RtExec *e = executor(o, predict, &fallback);
    if (!e && !fallback) goto done;
    if (o->profiling) t_exec = now_ns();
    if (e ? rt_exec_run(e, in, scalars, out) != 0
          : rt_exec_check_inputs(p, o->backend, in) != 0 || o->host->run_fallback(o, in, scalars, out) != 0) {
        php_gtc_throw_rt();
        goto done;
    }
    if (!predict) php_gtc_plan_state_after_run(o, nvis, given, &step, out);
    if (o->profiling) t_collect = now_ns();
    if (!e) o->fallback_runs++;
    outs = safe_emalloc((size_t)nout + 1, sizeof(zval), 0);
    for (int j = 0; j < nout; j++) {
        int d = p->outputs[j].donated_from;
        if (d >= 0 && d < nvis && out[j] == in[d]) { /* the caller's object, updated in place */
            rt_release(out[j]);
            out[j] = NULL;
            ZVAL_COPY_DEREF(&outs[j], given[d]);
            continue;
        }
        if (!php_gtc_wrap(&outs[j], php_gtc_ce_CudaArray, out[j])) {
            for (int k = 0; k < j; k++) zval_ptr_dtor(&outs[k]);
            for (int k = j + 1; k < nout; k++) rt_release(out[k]);
            goto done;
        }
        out[j] = NULL;
    }
    if (!predict && o->host && o->host->result) {
        o->host->result(o, outs, rv);
    } else {
        array_init_size(rv, (uint32_t)nout);
        for (int j = 0; j < nout; j++) {
            Z_TRY_ADDREF(outs[j]);
            zend_hash_str_update(Z_ARRVAL_P(rv), p->outputs[j].name, strlen(p->outputs[j].name), &outs[j]);
        }
    }
    for (int j = 0; j < nout; j++) zval_ptr_dtor(&outs[j]);
    ok = true;
    if (o->profiling) {
        o->bind_ns += t_exec - t_bind;
        o->exec_ns += t_collect - t_exec;
        o->collect_ns += now_ns() - t_collect;
        o->profiled++;
    }
done:
    for (int i = 0; i < nin; i++) rt_release(copies[i]);
    efree(copies);
    if (outs) efree(outs);
    efree(given);
    efree(in);
    efree(scalars);
    efree(out);
    return ok;
}

void php_gtc_plan_method_run(INTERNAL_FUNCTION_PARAMETERS) {
    zval *args = NULL;
    uint32_t argc = 0;
    HashTable *named = NULL;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o || !php_gtc_plan_run(o, false, args, argc, named, return_value)) RETURN_THROWS();
}

/* predict(mixed ...$inputs): a compiled training step's forward function (RtPlan.predict): the
 * outputs the graph names (not its loss when it names others) from the inputs they read, with
 * the parameters as run() takes them; nothing is updated. Only the classes of models compiled
 * from a graph with a "train" section have it. */
void php_gtc_plan_method_predict(INTERNAL_FUNCTION_PARAMETERS) {
    zval *args = NULL;
    uint32_t argc = 0;
    HashTable *named = NULL;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC_WITH_NAMED(args, argc, named)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (o && !o->plan->predict) {
        php_gtc_throw(RT_EINVAL, "%s has no predict(): it was not compiled from a graph with a \"train\" section",
                      ZSTR_VAL(Z_OBJCE_P(ZEND_THIS)->name));
        RETURN_THROWS();
    }
    if (!o || !php_gtc_plan_run(o, true, args, argc, named, return_value)) RETURN_THROWS();
}

/* ---- the plan, described ----------------------------------------------------------------------- */

static const char *step_kind_name(RtStepKind k) {
    switch (k) {
    case RT_STEP_ELEMWISE: return "elementwise";
    case RT_STEP_REDUCE: return "reduce";
    case RT_STEP_ROW: return "row";
    case RT_STEP_GEMM: return "gemm";
    case RT_STEP_COPY: return "copy";
    case RT_STEP_ALLREDUCE: return "allreduce";
    }
    return "unknown";
}

/* "a,b,c" as a PHP list of strings ([] for NULL or ""). */
static void list_to_php(const char *s, zval *rv) {
    array_init(rv);
    while (s && *s) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        add_next_index_stringl(rv, s, n);
        s = comma ? comma + 1 : NULL;
    }
}

static void launch_to_php(const unsigned v[3], zval *rv) {
    array_init_size(rv, 3);
    for (int i = 0; i < 3; i++) add_next_index_long(rv, (zend_long)v[i]);
}

/* getPlan(): the steps in execution order: kind, kernel, ops, reads, outputs (how many values it
 * writes), writes, reason, grid, block, smem. */
void php_gtc_plan_method_getPlan(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const RtPlan *p = o->plan;
    array_init_size(return_value, (uint32_t)p->nsteps);
    for (int s = 0; s < p->nsteps; s++) {
        const RtPlanStep *st = &p->steps[s];
        zval step, v;
        array_init_size(&step, 10);
        add_assoc_string(&step, "kind", step_kind_name(st->kind));
        add_assoc_string(&step, "kernel", st->kernel ? st->kernel : "");
        list_to_php(st->ops, &v);
        add_assoc_zval(&step, "ops", &v);
        list_to_php(st->reads, &v);
        add_assoc_zval(&step, "reads", &v);
        list_to_php(st->writes, &v);
        add_assoc_long(&step, "outputs", (zend_long)zend_hash_num_elements(Z_ARRVAL(v))); /* php-gpu-tensors' count */
        add_assoc_zval(&step, "writes", &v);
        add_assoc_string(&step, "reason", st->reason ? st->reason : "");
        launch_to_php(st->grid, &v);
        add_assoc_zval(&step, "grid", &v);
        launch_to_php(st->block, &v);
        add_assoc_zval(&step, "block", &v);
        add_assoc_long(&step, "smem", (zend_long)st->smem);
        if (st->kind == RT_STEP_GEMM) /* the product on CUDA: cuBLASLt (and in which precision) or our kernel */
            add_assoc_string(&step, "gemm", !st->blas.on ? "kernel"
                                            : st->blas.precision == RT_PREC_TF32 ? "cuBLASLt tf32"
                                            : st->blas.precision == RT_PREC_BF16 ? "cuBLASLt bf16" : "cuBLASLt fp32");
        if (st->kind == RT_STEP_GEMM && st->blas.on) { /* what cuBLASLt's epilogue applies */
            const char *epi = st->blas.bias ? (st->blas.relu ? "bias+relu" : "bias") : st->blas.update ? "update" : "none";
            add_assoc_string(&step, "gemm_epilogue", epi);
            /* which of A, B and the product are bfloat16 in memory (--precision=bf16's storage) */
            char b16[8] = "";
            if (st->blas.in16[0]) strcat(b16, "A");
            if (st->blas.in16[1]) strcat(b16, "B");
            if (st->blas.out16) strcat(b16, "D");
            add_assoc_string(&step, "gemm_bf16", b16);
        }
        add_next_index_zval(return_value, &step);
    }
}

/* getStats(): the plan's counts, the backend (the one in use, or the one the next run takes),
 * runs so far, where the kernels came from (null before the first run), and the host's keys. */
void php_gtc_plan_method_getStats(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const RtPlan *p = o->plan;
    const char *backend;
    if (o->exec) {
        backend = rt_exec_backend_name(o->exec);
    } else if (o->pinned) {
        backend = "cpu-eager"; /* the JIT's fallback: no executor */
    } else {
        const RtBackend *b = php_gtc_backend();
        if (!b) RETURN_THROWS();
        backend = b->plan ? b->plan->runner : b->name;
    }
    array_init_size(return_value, 12);
    add_assoc_long(return_value, "nodes", p->nodes);
    add_assoc_long(return_value, "steps", p->nsteps);
    add_assoc_long(return_value, "fusedKernels", p->fused_kernels);
    add_assoc_long(return_value, "gemms", p->gemms);
    add_assoc_long(return_value, "reductions", p->reductions);
    add_assoc_long(return_value, "graphNodes", p->nsteps);
    add_assoc_long(return_value, "arenaBytes", (zend_long)p->arena_bytes);
    add_assoc_string(return_value, "backend", backend);
    add_assoc_long(return_value, "replays", o->exec ? (zend_long)rt_exec_replays(o->exec) : o->fallback_runs);
    const char *k = o->exec ? rt_exec_kernel_source(o->exec) : o->host && o->host->kernels ? o->host->kernels(o) : NULL;
    if (k) add_assoc_string(return_value, "kernels", k);
    else add_assoc_null(return_value, "kernels");
    add_assoc_bool(return_value, "profiling", o->profiling);
    add_assoc_long(return_value, "profiledExecutions", o->profiled);
    add_assoc_long(return_value, "bindTimeNs", (zend_long)o->bind_ns);
    add_assoc_long(return_value, "executeTimeNs", (zend_long)o->exec_ns);
    add_assoc_long(return_value, "collectTimeNs", (zend_long)o->collect_ns);
    if (o->host && o->host->stats) o->host->stats(o, return_value);
}

/* setProfiling(bool $enabled): php-gpu-tensors' per-run timing. While on, each run() adds its
 * host time to getStats()' bindTimeNs (checking and binding inputs), executeTimeNs (the
 * executor: on a CUDA device the replay's launch, and its wait where run() waits) and
 * collectTimeNs (wrapping the outputs), and counts profiledExecutions; switching it either way
 * starts the counts from zero. Not while runAsync() executions are pending: their runs would
 * be counted under the old setting. */
void php_gtc_plan_method_setProfiling(INTERNAL_FUNCTION_PARAMETERS) {
    bool enabled;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_BOOL(enabled)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    if (o->pending > 0) {
        php_gtc_throw(RT_ERUNTIME, "cannot change profiling while %ld runAsync() execution%s pending: wait() first",
                      o->pending, o->pending == 1 ? " is" : "s are");
        RETURN_THROWS();
    }
    o->profiling = enabled;
    o->profiled = 0;
    o->bind_ns = o->exec_ns = o->collect_ns = 0;
}

/* getSource(?string $part = null): one source text. No part: the kernels of the backend the
 * plan runs on (CUDA C++ on a CUDA device, C on the CPU), as php-gpu-tensors' getSource() gives
 * its kernels; 'cuda' / 'cpu' pick one; the host adds parts (the JIT's 'graph'). A plan built
 * without a part's code (a --cpu-only model's 'cuda') gives "". */
void php_gtc_plan_method_getSource(INTERNAL_FUNCTION_PARAMETERS) {
    zend_string *part = NULL;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(part)
    ZEND_PARSE_PARAMETERS_END();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    const char *src = NULL;
    if (!part) {
        const RtBackend *b = o->exec ? o->backend : o->pinned ? o->backend : php_gtc_backend();
        src = b ? b->plan->plan_source(o->plan) : NULL;
    } else if (zend_string_equals_literal(part, "cuda")) {
        src = o->plan->cuda_source;
    } else if (zend_string_equals_literal(part, "cpu")) {
        src = o->plan->cpu_source;
    } else if (!o->host || !o->host->source || !(src = o->host->source(o, ZSTR_VAL(part)))) {
        zend_argument_value_error(1, "must be %s", o->host && o->host->source_parts ? o->host->source_parts : "null, 'cuda' or 'cpu'");
        RETURN_THROWS();
    }
    RETURN_STRING(src ? src : "");
}

static void io_to_php(const RtPlan *p, const RtPlanIO *io, bool output, zval *rv) {
    zval shape;
    array_init_size(rv, 3);
    add_assoc_string(rv, "dtype", ir_dtype_name(io->dtype));
    php_gtc_dims_to_php(io->rank, io->dims, &shape);
    for (int i = 0; i < io->rank; i++) /* a symbolic axis by its name ('batch') */
        if (rt_plan_sym(p, output, (int)(io - (output ? p->outputs : p->inputs)), i)) {
            zval nm;
            ZVAL_STRING(&nm, p->syms[rt_plan_sym(p, output, (int)(io - (output ? p->outputs : p->inputs)), i) - 1].name);
            zend_hash_index_update(Z_ARRVAL(shape), i, &nm);
        }
    add_assoc_zval(rv, "shape", &shape);
    if (!output) return;
    if (io->donated_from >= 0) add_assoc_string(rv, "inPlaceOf", p->inputs[io->donated_from].name);
    else add_assoc_null(rv, "inPlaceOf");
}

/* inputs(): name => ['dtype' => ..., 'shape' => [...]], in run()'s positional order; a symbolic
 * axis is its name (['batch', 480]). */
void php_gtc_plan_method_inputs(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    array_init_size(return_value, (uint32_t)(o->plan->ninputs - o->nhidden));
    for (int i = 0; i < o->plan->ninputs - o->nhidden; i++) {
        zval v;
        io_to_php(o->plan, &o->plan->inputs[i], false, &v);
        add_assoc_zval(return_value, o->plan->inputs[i].name, &v);
    }
}

/* outputs(): name => ['dtype' => ..., 'shape' => [...], 'inPlaceOf' => input name or null]. */
void php_gtc_plan_method_outputs(INTERNAL_FUNCTION_PARAMETERS) {
    ZEND_PARSE_PARAMETERS_NONE();
    php_gtc_plan_obj *o = php_gtc_plan_this(ZEND_THIS);
    if (!o) RETURN_THROWS();
    array_init_size(return_value, (uint32_t)o->plan->noutputs);
    for (int j = 0; j < o->plan->noutputs; j++) {
        zval v;
        io_to_php(o->plan, &o->plan->outputs[j], true, &v);
        add_assoc_zval(return_value, o->plan->outputs[j].name, &v);
    }
}

/* ---- model classes ------------------------------------------------------------------------------ */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_run, 0, 0, IS_ARRAY, 0)
    ZEND_ARG_VARIADIC_TYPE_INFO(0, inputs, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_array, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_set_profiling, 0, 1, IS_VOID, 0)
    ZEND_ARG_TYPE_INFO(0, enabled, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_save_checkpoint, 0, 2, IS_VOID, 0)
    ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
    ZEND_ARG_TYPE_INFO(0, inputs, IS_ARRAY, 0)
    ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, compress, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_load_checkpoint, 0, 1, IS_ARRAY, 0)
    ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_set_state, 0, 1, IS_VOID, 0)
    ZEND_ARG_TYPE_INFO(0, state, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_void, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_plan_source, 0, 0, IS_STRING, 0)
    ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, part, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

/* final class <Model> { run(mixed ...$inputs): array; getPlan(), getStats(), getSource(),
 * inputs(), outputs(): array; saveCheckpoint(), loadCheckpoint(); optimizerState(),
 * setOptimizerState(), resetOptimizerState(); a training step's class also predict(mixed
 * ...$inputs): array } */
#define MODEL_METHODS                                                                                             \
    ZEND_RAW_FENTRY("run", php_gtc_plan_method_run, arginfo_plan_run, ZEND_ACC_PUBLIC)                            \
    ZEND_RAW_FENTRY("getPlan", php_gtc_plan_method_getPlan, arginfo_plan_array, ZEND_ACC_PUBLIC)                  \
    ZEND_RAW_FENTRY("getStats", php_gtc_plan_method_getStats, arginfo_plan_array, ZEND_ACC_PUBLIC)                \
    ZEND_RAW_FENTRY("getSource", php_gtc_plan_method_getSource, arginfo_plan_source, ZEND_ACC_PUBLIC)             \
    ZEND_RAW_FENTRY("inputs", php_gtc_plan_method_inputs, arginfo_plan_array, ZEND_ACC_PUBLIC)                    \
    ZEND_RAW_FENTRY("outputs", php_gtc_plan_method_outputs, arginfo_plan_array, ZEND_ACC_PUBLIC)                  \
    ZEND_RAW_FENTRY("setProfiling", php_gtc_plan_method_setProfiling, arginfo_plan_set_profiling, ZEND_ACC_PUBLIC) \
    ZEND_RAW_FENTRY("saveCheckpoint", php_gtc_plan_method_saveCheckpoint, arginfo_plan_save_checkpoint, ZEND_ACC_PUBLIC) \
    ZEND_RAW_FENTRY("loadCheckpoint", php_gtc_plan_method_loadCheckpoint, arginfo_plan_load_checkpoint, ZEND_ACC_PUBLIC) \
    ZEND_RAW_FENTRY("optimizerState", php_gtc_plan_method_optimizerState, arginfo_plan_array, ZEND_ACC_PUBLIC)    \
    ZEND_RAW_FENTRY("setOptimizerState", php_gtc_plan_method_setOptimizerState, arginfo_plan_set_state, ZEND_ACC_PUBLIC) \
    ZEND_RAW_FENTRY("resetOptimizerState", php_gtc_plan_method_resetOptimizerState, arginfo_plan_void, ZEND_ACC_PUBLIC)
static const zend_function_entry model_methods[] = {
    MODEL_METHODS
    ZEND_FE_END
};
static const zend_function_entry model_methods_predict[] = {
    MODEL_METHODS
    ZEND_RAW_FENTRY("predict", php_gtc_plan_method_predict, arginfo_plan_run, ZEND_ACC_PUBLIC)
    ZEND_FE_END
};

int php_gtc_plan_class_register(const RtPlan *plan, int api_version, const char *module) {
    if (api_version != PHP_GTC_API_VERSION || plan->abi != RT_PLAN_ABI || (plan->predict && plan->predict->abi != RT_PLAN_ABI)) {
        zend_error(E_CORE_WARNING,
                   "%s (class %s) was compiled for gtc API %d, plan ABI %d; this gtc.so (" PHP_GTC_VERSION
                   ") has API %d, plan ABI %d: compile the model again with this version's gtc",
                   module, plan->class_name, api_version, plan->abi, PHP_GTC_API_VERSION, RT_PLAN_ABI);
        return -1;
    }
    size_t n = strlen(plan->class_name);
    zend_string *name = zend_string_init(plan->class_name, n, 0), *lc = zend_string_tolower(name);
    bool taken = zend_hash_exists(CG(class_table), lc);
    zend_string_release(lc);
    zend_string_release(name);
    if (taken) {
        zend_error(E_CORE_WARNING, "%s: a class named %s is already defined", module, plan->class_name);
        return -1;
    }
    PlanClass *c = pemalloc(sizeof *c, 1);
    zend_class_entry ce;
    INIT_CLASS_ENTRY_EX(ce, plan->class_name, n, plan->predict ? model_methods_predict : model_methods);
    c->ce = zend_register_internal_class_ex(&ce, NULL);
    c->ce->ce_flags |= ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES | ZEND_ACC_NOT_SERIALIZABLE;
    php_gtc_plan_class_init(c->ce);
    c->plan = plan;
    c->next = g_classes;
    g_classes = c;
    return 0;
}

void php_gtc_plan_class_mshutdown(void) {
    while (g_classes) {
        PlanClass *c = g_classes;
        g_classes = c->next;
        pefree(c, 1);
    }
}
