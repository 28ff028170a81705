/* runtime/php/distributed.c: Cuda\Distributed, data-parallel runs from PHP (docs/distributed.md):
 * joining the world a launcher describes (`gtc run -n N`, torchrun), the rank's place in it,
 * whole-array collectives (barrier, broadcast of initial parameters, all-reduce of metrics) and
 * the dataset sharding helper, over runtime/core/dist.h. A world of 1 works everywhere; a larger
 * one needs the CUDA backend and NCCL. */
#include "php_gtc.h"

#include "zend_exceptions.h"

#include "../core/dist.h"

/* Throws unless init() has run; false then. */
static bool need_init(void) {
    if (rt_dist_initialized()) return true;
    php_gtc_throw(RT_ERUNTIME, "the distributed world is not initialised: call Cuda\\Distributed::init() first");
    return false;
}

/* Collectives move data: a traced placeholder has none, so they end a trace (as writes do). */
static bool not_tracing(const char *what) {
    return !php_gtc_tracing() || !php_gtc_trace_forbid(what);
}

/* The device a rank uses: LOCAL_RANK's when gtc.device / GTC_DEVICE leaves the choice to gtc
 * (auto or cuda) and CUDA devices are there; cpu or cuda:N as asked otherwise. Then the world is
 * joined on the backend new arrays go to. */
ZEND_METHOD(Cuda_Distributed, init) {
    ZEND_PARSE_PARAMETERS_NONE();
    RtDistEnv e;
    if (rt_dist_env(&e)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    const char *dev = php_gtc_requested_device();
    const RtBackend *cu = php_gtc_cuda_backend();
    char why[256];
    if ((!strcmp(dev, "auto") || !strcmp(dev, "cuda")) && cu && cu->device_count() > 0 &&
        php_gtc_select_device(e.local_rank, why, sizeof why) != 0) {
        php_gtc_throw(RT_ERUNTIME, "rank %d cannot use CUDA device LOCAL_RANK=%d: %s", e.rank, e.local_rank, why);
        RETURN_THROWS();
    }
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    if (rt_dist_init(b)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
}

ZEND_METHOD(Cuda_Distributed, isInitialized) {
    ZEND_PARSE_PARAMETERS_NONE();
    RETURN_BOOL(rt_dist_initialized());
}

ZEND_METHOD(Cuda_Distributed, rank) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!need_init()) RETURN_THROWS();
    RETURN_LONG(rt_dist_rank());
}

ZEND_METHOD(Cuda_Distributed, worldSize) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!need_init()) RETURN_THROWS();
    RETURN_LONG(rt_dist_world());
}

ZEND_METHOD(Cuda_Distributed, localRank) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!need_init()) RETURN_THROWS();
    RETURN_LONG(rt_dist_local_rank());
}

/* "nccl", or null when a world of 1 runs its collectives as identities. */
ZEND_METHOD(Cuda_Distributed, backend) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!need_init()) RETURN_THROWS();
    const char *lib = rt_dist_library();
    if (!lib) RETURN_NULL();
    RETURN_STRING(lib);
}

ZEND_METHOD(Cuda_Distributed, barrier) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!need_init() || !not_tracing("Cuda\\Distributed::barrier()")) RETURN_THROWS();
    if (rt_dist_barrier()) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
}

ZEND_METHOD(Cuda_Distributed, broadcast) {
    zval *arr;
    zend_long root = 0;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_OBJECT_OF_CLASS(arr, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(root)
    ZEND_PARSE_PARAMETERS_END();
    if (!need_init() || !not_tracing("Cuda\\Distributed::broadcast()")) RETURN_THROWS();
    if (root < 0 || root >= rt_dist_world()) {
        zend_argument_value_error(2, "must be a rank of this world (0 to %d), " ZEND_LONG_FMT " given",
                                  rt_dist_world() - 1, root);
        RETURN_THROWS();
    }
    RtTensor *t = php_gtc_tensor(Z_OBJ_P(arr));
    if (!t) RETURN_THROWS();
    if (rt_dist_broadcast(t, (int)root)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
}

ZEND_METHOD(Cuda_Distributed, allReduce) {
    zval *arr;
    zend_string *op_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_OBJECT_OF_CLASS(arr, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(op_name)
    ZEND_PARSE_PARAMETERS_END();
    RtDistOp op = RT_DIST_SUM;
    if (op_name && (strlen(ZSTR_VAL(op_name)) != ZSTR_LEN(op_name) || rt_dist_op_parse(ZSTR_VAL(op_name), &op))) {
        rt_clear_error();
        zend_argument_value_error(2, "must be \"sum\", \"mean\", \"max\" or \"min\"");
        RETURN_THROWS();
    }
    if (!need_init() || !not_tracing("Cuda\\Distributed::allReduce()")) RETURN_THROWS();
    RtTensor *t = php_gtc_tensor(Z_OBJ_P(arr));
    if (!t) RETURN_THROWS();
    if (rt_dist_all_reduce(t, op)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
}

/* This rank's dataset indices for the epoch (rt_dist_shard: the same permutation on every rank,
 * padded by wrapping so that every rank has ceil(n / world)). */
ZEND_METHOD(Cuda_Distributed, shard) {
    zend_long n, epoch = 0, seed = 0;
    bool shuffle = true;
    ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_LONG(n)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(epoch)
        Z_PARAM_BOOL(shuffle)
        Z_PARAM_LONG(seed)
    ZEND_PARSE_PARAMETERS_END();
    if (n < 0 || n > ((zend_long)1 << 40)) {
        zend_argument_value_error(1, "must be from 0 to 2^40, " ZEND_LONG_FMT " given", n);
        RETURN_THROWS();
    }
    if (epoch < 0) {
        zend_argument_value_error(2, "must not be negative, " ZEND_LONG_FMT " given", epoch);
        RETURN_THROWS();
    }
    if (!need_init()) RETURN_THROWS();
    int64_t *idx, count;
    if (rt_dist_shard(n, epoch, shuffle, (uint64_t)seed, rt_dist_rank(), rt_dist_world(), &idx, &count)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    array_init_size(return_value, (uint32_t)count);
    for (int64_t k = 0; k < count; k++) add_next_index_long(return_value, (zend_long)idx[k]);
    free(idx);
}

ZEND_METHOD(Cuda_Distributed, destroy) {
    ZEND_PARSE_PARAMETERS_NONE();
    rt_dist_destroy();
}

/* phpinfo()'s line: NCCL's version where it loads, else why not. */
const char *php_gtc_nccl_info(char *buf, size_t n) {
    char ver[64], why[512];
    if (rt_nccl_probe(ver, sizeof ver, why, sizeof why)) snprintf(buf, n, "%s (%s)", ver, rt_nccl_library_name());
    else snprintf(buf, n, "not available: %s", why);
    return buf;
}
