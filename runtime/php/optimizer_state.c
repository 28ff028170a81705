/* runtime/php/optimizer_state.c: Cuda\Optimizer::saveState and loadState: an optimizer's state
 * as one .npz checkpoint (docs/checkpoints.md; the writer and reader of CudaArray::saveNpz and
 * loadNpz), read back checked as step() checks a state. docs/optimizer.md. */
#include "optimizer.h"

/* ---- saveState, loadState ------------------------------------------------------------------------- */

/* The .npz of a state: one member per tensor, "KEY.I" for list entries and "KEY" for the beta
 * powers (np.load(path)["firstMoment.0"]). The parameters are the caller's (a model's own
 * checkpoint); loadState checks the state against them. */
ZEND_METHOD(Cuda_Optimizer, saveState) {
    zend_string *path;
    zval *state;
    bool compress = false;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_PATH_STR(path)
        Z_PARAM_ARRAY(state)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(compress)
    ZEND_PARSE_PARAMETERS_END();
    const Train *t = &THIS_OPT->t;
    if (!php_gtc_trace_forbid("Cuda\\Optimizer::saveState()")) RETURN_THROWS();
    /* the parameters' count and types come from the state's first list (checked like a step) */
    const char *const *keys = php_gtc_opt_state_keys(t);
    uint32_t np = 0;
    RtTensor **like = NULL;
    if (keys[0]) {
        zval *first = zend_hash_str_find(Z_ARRVAL_P(state), keys[0], strlen(keys[0]));
        if (first) ZVAL_DEREF(first);
        if (first && Z_TYPE_P(first) == IS_ARRAY) {
            np = zend_hash_num_elements(Z_ARRVAL_P(first));
            like = safe_emalloc(np + 1, sizeof *like, 0);
            char what[32];
            snprintf(what, sizeof what, "state['%s']", keys[0]);
            if (!np || !php_gtc_opt_tensor_list("saveState", what, first, 0, NULL, like)) {
                if (!EG(exception))
                    php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::saveState(): state['%s'] must be a non-empty list of "
                                  "Cuda\\CudaArray", keys[0]);
                efree(like);
                RETURN_THROWS();
            }
        }
    }
    int nlists = t->opt != OPT_SGD ? 2 : t->momentum > 0 ? 1 : 0;
    RtTensor **st = safe_emalloc((size_t)nlists + 1, np * sizeof *st, 0), *power[2] = {NULL, NULL};
    bool ok = php_gtc_opt_state_tensors("saveState", t, state, like, np, true, st, power);
    uint32_t n = 0, total = (uint32_t)nlists * np + (t->opt != OPT_SGD ? 2 : 0);
    zend_string **names = safe_emalloc(total + 1, sizeof *names, 0);
    RtTensor **ts = safe_emalloc(total + 1, sizeof *ts, 0);
    int l = 0, pw = 0;
    for (const char *const *k = keys; ok && *k; k++) {
        if (php_gtc_opt_is_power_key(*k)) {
            names[n] = zend_string_init(*k, strlen(*k), 0);
            ts[n++] = power[pw++];
            continue;
        }
        for (uint32_t i = 0; i < np; i++) {
            names[n] = zend_strpprintf(0, "%s.%u", *k, i);
            ts[n++] = st[(size_t)l * np + i];
        }
        l++;
    }
    if (ok && n == 0) {
        php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::saveState(): an sgd optimizer without momentum has no state to save");
        ok = false;
    }
    if (ok) ok = php_gtc_npz_save("saveState", ZSTR_VAL(path), names, ts, n, compress);
    for (uint32_t i = 0; i < n; i++) zend_string_release(names[i]);
    efree(names), efree(ts), efree(st);
    if (like) efree(like);
    if (!ok) RETURN_THROWS();
}

ZEND_METHOD(Cuda_Optimizer, loadState) {
    zend_string *path;
    zval *params;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_PATH_STR(path)
        Z_PARAM_ARRAY(params)
    ZEND_PARSE_PARAMETERS_END();
    const Train *t = &THIS_OPT->t;
    if (!php_gtc_trace_forbid("Cuda\\Optimizer::loadState()")) RETURN_THROWS();
    RtTensor **ps;
    uint32_t np = php_gtc_opt_param_list("loadState", params, &ps);
    if (!np) RETURN_THROWS();
    zval members, state;
    if (!php_gtc_npz_load("loadState", ZSTR_VAL(path), &members)) {
        efree(ps);
        RETURN_THROWS();
    }
    /* members back into the state's shape; what is missing or extra is named */
    array_init(&state);
    bool ok = true;
    uint32_t used = 0;
    for (const char *const *k = php_gtc_opt_state_keys(t); *k && ok; k++) {
        if (php_gtc_opt_is_power_key(*k)) {
            zval *m = zend_hash_str_find(Z_ARRVAL(members), *k, strlen(*k));
            if (!m) break; /* state_tensors names it */
            Z_TRY_ADDREF_P(m);
            add_assoc_zval(&state, *k, m);
            used++;
            continue;
        }
        zval list;
        array_init_size(&list, np);
        for (uint32_t i = 0; i < np; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s.%u", *k, i);
            zval *m = zend_hash_str_find(Z_ARRVAL(members), name, strlen(name));
            if (!m) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::loadState(): %s has no member \"%s\" (an %s state for %u "
                              "parameters, as saveState() writes it)", ZSTR_VAL(path), name, php_gtc_opt_type_name(t->opt), np);
                ok = false;
                break;
            }
            Z_TRY_ADDREF_P(m);
            add_next_index_zval(&list, m);
            used++;
        }
        add_assoc_zval(&state, *k, &list);
    }
    if (ok && used < zend_hash_num_elements(Z_ARRVAL(members))) {
        zend_string *key;
        ZEND_HASH_FOREACH_STR_KEY(Z_ARRVAL(members), key) {
            bool known = false;
            for (const char *const *k = php_gtc_opt_state_keys(t); *k && !known; k++) {
                size_t kl = strlen(*k);
                known = key && !strncmp(ZSTR_VAL(key), *k, kl) &&
                        (ZSTR_VAL(key)[kl] == 0 || (ZSTR_VAL(key)[kl] == '.' && !php_gtc_opt_is_power_key(*k) &&
                                                    strtoul(ZSTR_VAL(key) + kl + 1, NULL, 10) < np));
            }
            if (!known) {
                php_gtc_throw(RT_EINVAL, "Cuda\\Optimizer::loadState(): %s holds \"%s\", which is not part of an %s "
                              "state for %u parameters", ZSTR_VAL(path), key ? ZSTR_VAL(key) : "?", php_gtc_opt_type_name(t->opt), np);
                ok = false;
                break;
            }
        } ZEND_HASH_FOREACH_END();
    }
    int nlists = t->opt != OPT_SGD ? 2 : t->momentum > 0 ? 1 : 0;
    RtTensor **st = safe_emalloc((size_t)nlists + 1, np * sizeof *st, 0), *power[2];
    if (ok) ok = php_gtc_opt_state_tensors("loadState", t, &state, ps, np, true, st, power);
    efree(st), efree(ps);
    zval_ptr_dtor(&members);
    if (!ok) {
        zval_ptr_dtor(&state);
        RETURN_THROWS();
    }
    RETURN_COPY_VALUE(&state);
}

