/* runtime/core/tensor.c: storage and tensor life cycle, memory accounting, host transfers,
 * copies and conversions (rt_cast, rt_contiguous, rt_assign), and the seeded generator behind
 * rand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static size_t mem_limit, mem_used, mem_peak;
static const RtBackend *default_backend = &rt_cpu_backend;

const RtBackend *rt_default_backend(void) { return default_backend; }
void rt_set_default_backend(const RtBackend *b) { default_backend = b; }
void rt_set_memory_limit(size_t bytes) { mem_limit = bytes; }
size_t rt_memory_limit(void) { return mem_limit; }
size_t rt_memory_used(void) { return mem_used; }
size_t rt_memory_peak(void) { return mem_peak; }

/* Allocates storage counted against the limit; the limit is checked before the backend is
 * asked, so a low gtc.memory_limit fails cleanly on any device. */
static RtStorage *storage_new(const RtBackend *b, size_t bytes) {
    if (mem_limit && (bytes > mem_limit || mem_used > mem_limit - bytes)) {
        rt_error(RT_EOOM, "out of memory: %zu bytes requested, %zu of the %zu-byte limit in use "
                 "(gtc.memory_limit)", bytes, mem_used, mem_limit);
        return NULL;
    }
    RtStorage *s = calloc(1, sizeof *s);
    if (!s) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    rt_clear_error();
    s->data = b->alloc(bytes ? bytes : 1);
    if (!s->data) {
        free(s);
        if (rt_status() == RT_OK) /* keep the backend's own reason (a CUDA error name) */
            rt_error(RT_EOOM, "out of %s memory: %zu bytes requested", b->name, bytes);
        return NULL;
    }
    s->refcount = 1;
    s->backend = b;
    s->bytes = bytes;
    mem_used += bytes;
    if (mem_used > mem_peak) mem_peak = mem_used;
    return s;
}

static void storage_release(RtStorage *s) {
    if (!s || --s->refcount > 0) return;
    s->backend->free(s->data);
    mem_used -= s->bytes;
    free(s);
}

void rt_contiguous_strides(int rank, const int64_t *shape, int64_t *strides) {
    int64_t st = 1;
    for (int i = rank - 1; i >= 0; i--) {
        strides[i] = st;
        st *= shape[i] ? shape[i] : 1;
    }
}

RtTensor *rt_empty(const RtBackend *b, DType dt, int rank, const int64_t *shape) {
    TensorType tt = {.dtype = dt, .rank = rank};
    char err[256];
    if (rank < 0 || rank > IR_MAX_RANK) {
        rt_error(RT_EINVAL, "rank %d exceeds the limit of %d", rank, IR_MAX_RANK);
        return NULL;
    }
    if (rank) memcpy(tt.dims, shape, (size_t)rank * sizeof *shape);
    if (ir_check_type(&tt, err, sizeof err)) {
        rt_error(RT_EINVAL, "%s", err);
        return NULL;
    }
    RtTensor *t = calloc(1, sizeof *t);
    if (!t) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    t->refcount = 1;
    t->dtype = dt;
    t->rank = rank;
    if (rank) memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
    rt_contiguous_strides(rank, shape, t->strides);
    t->storage = storage_new(b, (size_t)ir_numel(&tt) * ir_dtype_size(dt));
    if (!t->storage) {
        free(t);
        return NULL;
    }
    return t;
}

RtTensor *rt_retain(RtTensor *t) {
    if (t) t->refcount++;
    return t;
}

void rt_release(RtTensor *t) {
    if (!t || --t->refcount > 0) return;
    storage_release(t->storage);
    free(t);
}

int64_t rt_numel(const RtTensor *t) {
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) n *= t->shape[i];
    return n;
}

size_t rt_nbytes(const RtTensor *t) { return (size_t)rt_numel(t) * ir_dtype_size(t->dtype); }

bool rt_is_contiguous(const RtTensor *t) {
    if (rt_numel(t) == 0) return true;
    int64_t st = 1;
    for (int i = t->rank - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != st) return false;
        st *= t->shape[i];
    }
    return true;
}

TensorType rt_type(const RtTensor *t) {
    TensorType tt = {.dtype = t->dtype, .rank = t->rank};
    memcpy(tt.dims, t->shape, (size_t)t->rank * sizeof *t->shape);
    return tt;
}

void *rt_data(const RtTensor *t) {
    return (char *)t->storage->data + t->offset * (int64_t)ir_dtype_size(t->dtype);
}

RtTensor *rt_full(const RtBackend *b, DType dt, int rank, const int64_t *shape, double value) {
    RtTensor *t = rt_empty(b, dt, rank, shape);
    if (t && b->fill(t, value)) {
        rt_release(t);
        return NULL;
    }
    return t;
}

RtTensor *rt_from_host(const RtBackend *b, DType dt, int rank, const int64_t *shape, const void *data) {
    RtTensor *t = rt_empty(b, dt, rank, shape);
    if (t && rt_nbytes(t) && b->upload(t->storage->data, data, rt_nbytes(t))) {
        rt_release(t);
        return NULL;
    }
    return t;
}

int rt_to_host(const RtTensor *t, void *dst) {
    if (rt_is_contiguous(t)) {
        size_t n = rt_nbytes(t);
        return n ? t->storage->backend->download(dst, rt_data(t), n) : 0;
    }
    RtTensor *c = rt_contiguous((RtTensor *)t);
    if (!c) return -1;
    int rc = rt_to_host(c, dst);
    rt_release(c);
    return rc;
}

/* Copies and conversions are the backend's copy into a fresh tensor: tensor life cycle, not op
 * semantics (ops.c builds on them, never the other way). */
RtTensor *rt_cast(RtTensor *t, DType dt) {
    RtTensor *r = rt_empty(t->storage->backend, dt, t->rank, t->shape);
    if (r && t->storage->backend->copy(r, t)) {
        rt_release(r);
        return NULL;
    }
    return r;
}

RtTensor *rt_contiguous(RtTensor *t) { return rt_cast(t, t->dtype); }

bool rt_repeats_elements(const RtTensor *t) {
    for (int i = 0; i < t->rank; i++)
        if (t->strides[i] == 0 && t->shape[i] > 1) return true;
    return false;
}

/* dst may be any view that does not repeat elements (a stepped slice, a transposed row). A
 * source sharing dst's storage is copied first, so no element is overwritten before it is read. */
int rt_assign(RtTensor *dst, const RtTensor *src) {
    if (rt_repeats_elements(dst))
        return rt_error(RT_EINVAL, "assign: the destination is a broadcast view, which repeats elements");
    TensorType a = rt_type(dst), b = rt_type(src);
    a.dtype = b.dtype;
    if (!ir_type_equal(&a, &b)) return rt_error(RT_EINVAL, "assign: shapes differ");
    if (dst->storage->backend != src->storage->backend)
        return rt_error(RT_EINVAL, "assign: operands live on different devices");
    if (src->storage != dst->storage || rt_numel(dst) == 0) return dst->storage->backend->copy(dst, src);
    RtTensor *staged = rt_contiguous((RtTensor *)src);
    int rc = staged ? dst->storage->backend->copy(dst, staged) : -1;
    rt_release(staged);
    return rc;
}

RtTensor *rt_to_backend(const RtTensor *t, const RtBackend *b) {
    size_t n = rt_nbytes(t);
    void *tmp = malloc(n ? n : 1);
    if (!tmp) {
        rt_error(RT_EOOM, "out of host memory");
        return NULL;
    }
    RtTensor *out = NULL;
    if (rt_to_host(t, tmp) == 0) out = rt_from_host(b, t->dtype, t->rank, t->shape, tmp);
    free(tmp);
    return out;
}

/* splitmix64: small, fast, and the same sequence on every platform. */
static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

RtTensor *rt_rand(const RtBackend *b, DType dt, int rank, const int64_t *shape, uint64_t seed) {
    RtTensor *t = rt_empty(&rt_cpu_backend, dt, rank, shape);
    if (!t) return NULL;
    int64_t n = rt_numel(t);
    uint64_t s = seed;
    void *p = t->storage->data;
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = splitmix64(&s);
        switch (dt) {
        case DT_FLOAT32: ((float *)p)[i] = (float)(r >> 40) * (1.0f / 16777216.0f); break;
        case DT_FLOAT64: ((double *)p)[i] = (double)(r >> 11) * (1.0 / 9007199254740992.0); break;
        case DT_INT32: ((int32_t *)p)[i] = (int32_t)(r >> 33); break;
        case DT_INT64: ((int64_t *)p)[i] = (int64_t)(r >> 33); break;
        case DT_INT8: ((int8_t *)p)[i] = (int8_t)(r >> 56); break;
        case DT_UINT8: ((uint8_t *)p)[i] = (uint8_t)(r >> 56); break;
        case DT_INT16: ((int16_t *)p)[i] = (int16_t)(r >> 48); break;
        case DT_UINT16: ((uint16_t *)p)[i] = (uint16_t)(r >> 48); break;
        case DT_UINT32: ((uint32_t *)p)[i] = (uint32_t)(r >> 32); break;
        case DT_UINT64: ((uint64_t *)p)[i] = r; break;
        case DT_BOOL: ((uint8_t *)p)[i] = (uint8_t)(r >> 63); break;
        default: break;
        }
    }
    if (b == &rt_cpu_backend) return t;
    RtTensor *out = rt_from_host(b, dt, rank, shape, p);
    rt_release(t);
    return out;
}

/* A uniform integer in [0, range) without modulo bias (rejection of the top remainder); range
 * 0 means the whole 2^64. */
static uint64_t bounded(uint64_t *s, uint64_t range) {
    if (range == 0) return splitmix64(s);
    uint64_t limit = UINT64_MAX - UINT64_MAX % range, r;
    do r = splitmix64(s);
    while (r >= limit);
    return r % range;
}

RtTensor *rt_from_host_cast(const RtBackend *b, DType dt, DType hdt, int rank, const int64_t *shape, const void *vals) {
    RtTensor *h = rt_from_host(&rt_cpu_backend, hdt, rank, shape, vals);
    if (!h) return NULL;
    RtTensor *c = dt == hdt ? rt_retain(h) : rt_cast(h, dt);
    rt_release(h);
    if (!c || b == &rt_cpu_backend) return c;
    RtTensor *out = rt_to_backend(c, b);
    rt_release(c);
    return out;
}

/* Generated on the host so that every backend gets the same numbers for a seed; vals is freed. */
static RtTensor *host_values(const RtBackend *b, DType dt, DType hdt, int rank, const int64_t *shape, void *vals) {
    RtTensor *t = rt_from_host_cast(b, dt, hdt, rank, shape, vals);
    free(vals);
    return t;
}

static void *host_alloc(int64_t n) {
    void *p = malloc(n ? (size_t)n * 8 : 8);
    if (!p) rt_error(RT_EOOM, "out of host memory");
    return p;
}

static int64_t shape_numel(int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    return n;
}

/* Box-Muller over pairs of splitmix64 draws, in double; float32 is rounded from it. */
RtTensor *rt_randn(const RtBackend *b, DType dt, int rank, const int64_t *shape, uint64_t seed) {
    if (!ir_dtype_is_float(dt)) {
        rt_error(RT_EINVAL, "randn: dtype must be float32 or float64, got %s", ir_dtype_name(dt));
        return NULL;
    }
    int64_t n = shape_numel(rank, shape);
    double *v = host_alloc(n);
    if (!v) return NULL;
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i += 2) {
        double u1 = (double)((splitmix64(&s) >> 11) + 1) * (1.0 / 9007199254740992.0); /* (0, 1] */
        double u2 = (double)(splitmix64(&s) >> 11) * (1.0 / 9007199254740992.0);
        double r = sqrt(-2.0 * log(u1)), th = 6.283185307179586 * u2;
        v[i] = r * cos(th);
        if (i + 1 < n) v[i + 1] = r * sin(th);
    }
    return host_values(b, dt, DT_FLOAT64, rank, shape, v);
}

RtTensor *rt_randint(const RtBackend *b, DType dt, int rank, const int64_t *shape, int64_t low, int64_t high,
                     uint64_t seed) {
    if (low >= high) {
        rt_error(RT_EINVAL, "randint: low (%lld) must be less than high (%lld)", (long long)low, (long long)high);
        return NULL;
    }
    if (ir_dtype_is_float(dt) || dt == DT_BOOL) {
        rt_error(RT_EINVAL, "randint: dtype must be an integer type, got %s", ir_dtype_name(dt));
        return NULL;
    }
    size_t bits = ir_dtype_size(dt) * 8;
    bool is_unsigned = dt == DT_UINT8 || dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64;
    int64_t lo = is_unsigned ? 0 : bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    int64_t hi = bits == 64 ? INT64_MAX : is_unsigned ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
    if (low < lo || high - 1 > hi) {
        rt_error(RT_EINVAL, "randint: [%lld, %lld) does not fit %s", (long long)low, (long long)high, ir_dtype_name(dt));
        return NULL;
    }
    int64_t n = shape_numel(rank, shape);
    int64_t *v = host_alloc(n);
    if (!v) return NULL;
    uint64_t s = seed, range = (uint64_t)high - (uint64_t)low;
    for (int64_t i = 0; i < n; i++) v[i] = (int64_t)((uint64_t)low + bounded(&s, range));
    return host_values(b, dt, DT_INT64, rank, shape, v);
}

/* Fisher-Yates from the end, each swap partner drawn without bias. */
int64_t *rt_permutation_host(int64_t n, uint64_t seed) {
    if (n < 0) {
        rt_error(RT_EINVAL, "permutation: n must not be negative, got %lld", (long long)n);
        return NULL;
    }
    int64_t *v = host_alloc(n);
    if (!v) return NULL;
    for (int64_t i = 0; i < n; i++) v[i] = i;
    uint64_t s = seed;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)bounded(&s, (uint64_t)i + 1), tmp = v[i];
        v[i] = v[j], v[j] = tmp;
    }
    return v;
}

RtTensor *rt_permutation(const RtBackend *b, int64_t n, uint64_t seed) {
    int64_t *v = rt_permutation_host(n, seed);
    return v ? host_values(b, DT_INT64, DT_INT64, 1, &n, v) : NULL;
}
