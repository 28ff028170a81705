/* runtime/php/optimizer.h: what Cuda\Optimizer's two files share: the object (optimizer.c:
 * constructors, initState, step, zeroGrad) and the state checks that saveState/loadState
 * (optimizer_state.c) apply as step() does. docs/optimizer.md. */
#ifndef PHP_GTC_OPTIMIZER_H
#define PHP_GTC_OPTIMIZER_H

#include "php_gtc.h"

/* The hyper-parameters, as the Train section compiler/optim.c reads (params, lr_name and
 * no_decay are filled per step). */
typedef struct {
    Train t;
    HashTable *plans;    /* eager steps: input types => the Cuda\FusionGraph of the step, or NULL */
    zend_object std;
} php_gtc_optimizer;

static inline php_gtc_optimizer *opt_from_obj(zend_object *obj) {
    return (php_gtc_optimizer *)((char *)obj - XtOffsetOf(php_gtc_optimizer, std));
}
#define THIS_OPT opt_from_obj(Z_OBJ_P(ZEND_THIS))

/* "sgd", "adam" or "adamW". */
const char *php_gtc_opt_type_name(OptimizerType t);
/* The state keys of an optimizer, in initState()'s order (NULL-terminated; none for SGD
 * without momentum); whether a key is a beta power (a tensor, not a list). */
const char *const *php_gtc_opt_state_keys(const Train *t);
bool php_gtc_opt_is_power_key(const char *k);
/* The n tensors of a list (n 0: any non-empty list), each matching like[i] (optional) in shape
 * and dtype, into out (borrowed). fn and what name the call and the list in messages. false
 * after throwing Cuda\InvalidArgumentException. */
bool php_gtc_opt_tensor_list(const char *fn, const char *what, zval *list, uint32_t n, RtTensor **like, RtTensor **out);
/* The parameters: a non-empty list of distinct float tensors; the count (*out emalloc'd), or 0
 * after throwing. */
uint32_t php_gtc_opt_param_list(const char *fn, zval *list, RtTensor ***out);
/* A state checked against optimizer t and np parameters ps: exactly its keys, lists of
 * tensors like the parameters into st (list k's entry i at k * np + i), the beta powers into
 * power[] (their values read and checked when read). false after throwing. */
bool php_gtc_opt_state_tensors(const char *fn, const Train *t, zval *state, RtTensor **ps, uint32_t np, bool read,
                               RtTensor **st, RtTensor **power);

#endif
