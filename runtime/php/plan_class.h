/* runtime/php/plan_class.h: the one PHP class implementation behind every plan: the methods
 * run/getPlan/getStats/getSource/inputs/outputs (plan_class.c), the checkpoints and the optimizer
 * state the object owns (plan_state.c) of Cuda\FusionGraph (the JIT, fusion.c) and of
 * every class a compiled model extension registers (templates/ext.c.in, through
 * php_gtc_plan_class_register). Argument binding, input checks, the executor's life cycle and
 * the plan's description to PHP are here once; a host (the JIT) adds to it through hooks. */
#ifndef PHP_GTC_PLAN_CLASS_H
#define PHP_GTC_PLAN_CLASS_H

#include "php_gtc.h"

#include "../core/exec.h"

typedef struct php_gtc_plan_obj php_gtc_plan_obj;

/* What a host adds to the common class; every member may be NULL. */
typedef struct {
    /* Runs the plan without an executor (o->exec NULL: the JIT's op-by-op fallback); inputs
     * already bound and checked. 0, or -1 after rt_error. */
    int (*run_fallback)(php_gtc_plan_obj *o, RtTensor *const *in, const double *scalars, RtTensor **out);
    /* run()'s value from the outputs (zvals in plan order, borrowed); NULL: name => output */
    void (*result)(php_gtc_plan_obj *o, zval *outs, zval *rv);
    /* getStats()['kernels'] when there is no executor; extra getStats() and getSource() keys */
    const char *(*kernels)(php_gtc_plan_obj *o);
    void (*stats)(php_gtc_plan_obj *o, zval *rv);
    /* getSource($part) of a part the host adds ('graph'); NULL: no such part */
    const char *(*source)(php_gtc_plan_obj *o, const char *part);
    const char *source_parts; /* every part's name, for the error: "null, 'cuda', 'cpu' or 'graph'" */
    void (*free)(php_gtc_plan_obj *o);
} php_gtc_plan_host;

struct php_gtc_plan_obj {
    const RtPlan *plan;             /* NULL: an object PHP made without the host (throws) */
    const php_gtc_plan_host *host;  /* NULL for compiled models */
    void *host_data;                /* the host's (the JIT's compiled-plan entry) */
    zval host_value;                /* the host's (the JIT: the closure's result structure) */
    const RtBackend *backend;       /* of exec; pinned: every run uses it (the JIT's tensors) */
    bool pinned;
    bool cached;                    /* the JIT: the plan came from the process's cache */
    RtTensor **hidden;              /* the plan's last nhidden inputs, bound by the object itself */
    int nhidden;                    /* (the JIT's captured tensors); one reference each */
    RtExec *exec;
    RtExec *pexec;                  /* predict()'s executor (plan->predict), on pbackend */
    const RtBackend *pbackend;
    long fallback_runs;
    long pending;                   /* runAsync() executions not waited for yet */
    bool profiling;                 /* setProfiling(): run() times its three phases */
    long profiled;                  /* runs timed since profiling was switched on */
    uint64_t bind_ns, exec_ns, collect_ns;
    zval *owned;                    /* the optimizer state it owns (plan_state.c), one per input
                                     * (IS_UNDEF: not made yet, or no state); NULL until needed */
    zend_long steps;                /* AdamW updates done with the owned step counter */
    zend_object std;
};

static inline php_gtc_plan_obj *php_gtc_plan_from_obj(zend_object *obj) {
    return (php_gtc_plan_obj *)((char *)obj - XtOffsetOf(php_gtc_plan_obj, std));
}

/* Sets up class ce (create/free handlers) as a plan class; the JIT calls it for FusionGraph. */
void php_gtc_plan_class_init(zend_class_entry *ce);

/* Runs o with positional args and named ones into rv (predict: its plan's predict plan, which
 * takes no hidden inputs and no optimizer state); false after throwing. */
bool php_gtc_plan_run(php_gtc_plan_obj *o, bool predict, zval *args, uint32_t argc, HashTable *named, zval *rv);

/* The methods' bodies, shared by Cuda\FusionGraph's ZEND_METHODs and the model classes. */
void php_gtc_plan_method_run(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_predict(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_getPlan(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_getStats(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_getSource(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_inputs(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_outputs(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_setProfiling(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_saveCheckpoint(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_loadCheckpoint(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_optimizerState(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_setOptimizerState(INTERNAL_FUNCTION_PARAMETERS);
void php_gtc_plan_method_resetOptimizerState(INTERNAL_FUNCTION_PARAMETERS);

/* ---- shared by plan_class.c and plan_state.c ---- */
/* $this's plan object; NULL after throwing (an object PHP made without a plan). */
php_gtc_plan_obj *php_gtc_plan_this(zval *zv);
/* The index of the visible input named name (len bytes), or -1. */
int php_gtc_plan_input_index(const RtPlan *p, int nvis, const char *name, size_t len);
/* Whether some output is written into input i's buffer. */
bool php_gtc_plan_input_donated(const RtPlan *p, int i);
/* Reads input i's value (run()'s rules): a tensor into *t, or a number into *scalar; false after
 * throwing. */
bool php_gtc_plan_read_input(const RtPlan *p, int i, zval *z, RtTensor **t, double *scalar);

/* ---- the optimizer state an object owns (plan_state.c) ---- */
/* Binds every state input run() was not given (given[i] NULL) to the owned state, made on first
 * use (zeros on the backend the run takes); *step holds the owned step counter's value when it
 * is bound. false after throwing. */
bool php_gtc_plan_state_bind(php_gtc_plan_obj *o, int nvis, zval **given, zval *step);
/* After a successful execution: counts the update when the owned step was used, and keeps the
 * new value of owned rank-0 state (out: the executor's outputs in plan order, borrowed). */
void php_gtc_plan_state_after_run(php_gtc_plan_obj *o, int nvis, zval **given, const zval *step, RtTensor **out);
void php_gtc_plan_state_free(php_gtc_plan_obj *o);

/* ---- for model extensions (php_gtc.h's API) ----
 * Registers the final class plan->class_name, whose objects run `plan` (a model's static plan
 * table: it must outlive the class). Called from the model's MINIT; fetched by name from gtc.so
 * (dlsym), so a model binds no other symbol. Returns 0, or -1 after a E_CORE_WARNING that says
 * why (an API or plan ABI mismatch, a class of that name already defined). */
typedef int (*php_gtc_plan_class_register_fn)(const RtPlan *plan, int api_version, const char *module);
int php_gtc_plan_class_register(const RtPlan *plan, int api_version, const char *module);
void php_gtc_plan_class_mshutdown(void);

#endif
