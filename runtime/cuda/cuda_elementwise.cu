// runtime/cuda/cuda_elementwise.cu: every elementwise op of ir/ops.def and strided copies with
// dtype conversion. Kernels come from the ops.def X-macro (the `expr` column is the formula over
// operands a b c of the compute type: the stored values through gtc_val, so the 2-byte floats
// compute in float and round once in Conv), templated on the element types. Two paths:
//   - contiguous: every operand contiguous or a broadcast scalar, pointers aligned: each thread
//     handles one 16-byte vector (float4, double2, ...) of every operand;
//   - strided: any views (broadcast strides 0, transposed, sliced, negative), dims coalesced
//     first, shape/strides passed by value, 32-bit index math when everything fits in 2^31.
// Contract (rt.h): operands are broadcast views of out's shape in the compute dtype, out is
// contiguous; comparisons write bool (uint8); where's operand 0 is bool; one_hot's j is the
// last-axis coordinate of out (its operand has out's shape without the last axis).
#include "cuda_internal.cuh"

#include <type_traits>

// ---- the formulas ------------------------------------------------------------------------------

#define OP(id, name, arity, kind, rule, expr)                                                       \
    struct F_##id {                                                                                 \
        template <class A_, class B_, class C_>                                                     \
        __device__ __forceinline__ auto operator()(A_ a_, B_ b_, C_ c_, int64_t j) const {          \
            auto a = gtc_val(a_);                                                                   \
            auto b = gtc_val(b_);                                                                   \
            auto c = gtc_val(c_);                                                                   \
            (void)a, (void)b, (void)c, (void)j;                                                     \
            return expr;                                                                            \
        }                                                                                           \
    };
#include "../../ir/ops.def"
#undef OP

struct F_COPY {  // copy/cast: the conversion happens in Conv<O>
    template <class A_, class B_, class C_>
    __device__ __forceinline__ A_ operator()(A_ a, B_, C_, int64_t) const { return a; }
};

template <class T, int N> struct alignas(sizeof(T) * N) Vec {
    T v[N];
};

template <int NIN> struct EwGeo {
    int nd;
    int64_t dims[IR_MAX_RANK];
    int64_t st[NIN][IR_MAX_RANK];
};

// ---- kernels ------------------------------------------------------------------------------------

// Contiguous operands (bit k of `scal` set: operand k is one broadcast value). Each thread does
// one vector of N elements; the first threads of the grid also do the n % N tail.
template <class F, class O, class A, class B, class C, int NIN, int N>
__global__ void __launch_bounds__(256) k_ew_contig(O *__restrict__ out, const A *__restrict__ pa,
                                                    const B *__restrict__ pb, const C *__restrict__ pc,
                                                    unsigned scal, int64_t n) {
    const int64_t nvec = n / N, stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    A sa = (scal & 1) ? pa[0] : A();
    B sb = B();
    C sc = C();
    if constexpr (NIN > 1) sb = (scal & 2) ? pb[0] : B();
    if constexpr (NIN > 2) sc = (scal & 4) ? pc[0] : C();
    F f;
    for (int64_t v = tid; v < nvec; v += stride) {
        Vec<A, N> xa;
        Vec<B, N> xb;
        Vec<C, N> xc;
        if (scal & 1) {
#pragma unroll
            for (int k = 0; k < N; k++) xa.v[k] = sa;
        } else {
            xa = reinterpret_cast<const Vec<A, N> *>(pa)[v];
        }
        if constexpr (NIN > 1) {
            if (scal & 2) {
#pragma unroll
                for (int k = 0; k < N; k++) xb.v[k] = sb;
            } else {
                xb = reinterpret_cast<const Vec<B, N> *>(pb)[v];
            }
        }
        if constexpr (NIN > 2) {
            if (scal & 4) {
#pragma unroll
                for (int k = 0; k < N; k++) xc.v[k] = sc;
            } else {
                xc = reinterpret_cast<const Vec<C, N> *>(pc)[v];
            }
        }
        Vec<O, N> r;
#pragma unroll
        for (int k = 0; k < N; k++) {
            B bk = B();
            C ck = C();
            if constexpr (NIN > 1) bk = xb.v[k];
            if constexpr (NIN > 2) ck = xc.v[k];
            r.v[k] = Conv<O>::f(f(xa.v[k], bk, ck, 0));
        }
        reinterpret_cast<Vec<O, N> *>(out)[v] = r;
    }
    const int64_t t = nvec * N + tid;
    if (t < n) {
        A x = (scal & 1) ? sa : pa[t];
        B y = sb;
        C z = sc;
        if constexpr (NIN > 1) y = (scal & 2) ? sb : pb[t];
        if constexpr (NIN > 2) z = (scal & 4) ? sc : pc[t];
        out[t] = Conv<O>::f(f(x, y, z, 0));
    }
}

// Any strides. I is the index type (int32_t when the element count and every operand's offset
// span fit, else int64_t); J: the formula reads j (one_hot), the last-axis coordinate of out.
template <class F, class O, class A, class B, class C, int NIN, class I, bool J>
__global__ void __launch_bounds__(256) k_ew_strided(O *__restrict__ out, const A *__restrict__ pa,
                                                     const B *__restrict__ pb, const C *__restrict__ pc,
                                                     EwGeo<NIN> g, I n, I depth) {
    const I stride = (I)gridDim.x * (I)blockDim.x;
    F f;
    for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += stride) {
        I rem = i, o0 = 0, o1 = 0, o2 = 0;
#pragma unroll
        for (int d = IR_MAX_RANK - 1; d >= 0; d--) {
            if (d < g.nd) {
                I dim = (I)g.dims[d], q = rem / dim, c = rem - q * dim;
                rem = q;
                o0 += c * (I)g.st[0][d];
                if constexpr (NIN > 1) o1 += c * (I)g.st[1][d];
                if constexpr (NIN > 2) o2 += c * (I)g.st[2][d];
            }
        }
        B y = B();
        C z = C();
        if constexpr (NIN > 1) y = pb[o1];
        if constexpr (NIN > 2) z = pc[o2];
        int64_t j = 0;
        if constexpr (J) j = (int64_t)(i % depth);
        out[i] = Conv<O>::f(f(pa[o0], y, z, j));
    }
}

// ---- launch -------------------------------------------------------------------------------------

static constexpr size_t cmax(size_t x, size_t y) { return x > y ? x : y; }
static bool aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

// out: contiguous buffer of `rank`/`shape`; ins: NIN views (one_hot's has rank-1 axes: its
// last-axis stride is 0). VEC: whether the contiguous path exists for this formula.
template <class F, class O, class A, class B, class C, int NIN, bool J, bool VEC>
static int ew_run(const char *what, O *out, int rank, const int64_t *shape, const RtTensor *const *ins,
                  int64_t depth) {
    int64_t n = numel_of(rank, shape);
    if (n == 0) return 0;
    Layout<NIN + 1> l = {};
    l.nd = rank;
    int64_t st = 1;
    // operands broadcast to out's shape, NumPy-style (right-aligned; one_hot's operand aligns
    // with out's axes but the last, which it reads with stride 0)
    const int brank = J ? rank - 1 : rank;
    for (int d = rank - 1; d >= 0; d--) {
        l.dims[d] = shape[d];
        l.st[0][d] = st;
        st *= shape[d];
        for (int k = 0; k < NIN; k++) {
            int e = d - (brank - ins[k]->rank);
            bool read = d < brank && e >= 0 && ins[k]->shape[e] == shape[d];
            if (d < brank && e >= 0 && !read && ins[k]->shape[e] != 1)
                return rt_error(RT_EINVAL, "cuda %s: operand %d does not broadcast to the output", what, k);
            l.st[k + 1][d] = read ? ins[k]->strides[e] : 0;
        }
    }
    for (int k = 0; k < NIN; k++)
        if (ins[k]->rank > brank)
            return rt_error(RT_EINVAL, "cuda %s: operand %d has a higher rank than the output", what, k);
    layout_coalesce(&l);
    const void *p[3] = {rt_data(ins[0]), NIN > 1 ? rt_data(ins[NIN > 1 ? 1 : 0]) : nullptr,
                        NIN > 2 ? rt_data(ins[NIN > 2 ? 2 : 0]) : nullptr};
    if constexpr (VEC) {
        constexpr size_t big = cmax(cmax(sizeof(O), sizeof(A)), cmax(sizeof(B), sizeof(C)));
        constexpr int N = (int)(16 / big);
        const size_t sizes[3] = {sizeof(A), sizeof(B), sizeof(C)};
        bool ok = l.nd <= 1 && aligned(out, sizeof(O) * N);
        unsigned scal = 0;
        for (int k = 0; k < NIN && ok; k++) {
            int64_t s = l.nd ? l.st[k + 1][0] : 0;
            if (s == 0) scal |= 1u << k;
            else ok = s == 1 && aligned(p[k], sizes[k] * N);
        }
        if (ok) {
            unsigned grid = grid_for((n + N - 1) / N, 256);
            k_ew_contig<F, O, A, B, C, NIN, N><<<grid, 256, 0, g_cuda.stream>>>(
                out, (const A *)p[0], (const B *)p[1], (const C *)p[2], scal, n);
            return cuda_check_launch(what);
        }
    }
    bool small = n < ((int64_t)1 << 31);
    for (int k = 0; k <= NIN && small; k++) small = layout_span(&l, k) < ((int64_t)1 << 31);
    EwGeo<NIN> g = {};
    g.nd = l.nd;
    for (int d = 0; d < l.nd; d++) {
        g.dims[d] = l.dims[d];
        for (int k = 0; k < NIN; k++) g.st[k][d] = l.st[k + 1][d];
    }
    unsigned grid = grid_for(n, 256);
    if (small)
        k_ew_strided<F, O, A, B, C, NIN, int32_t, J><<<grid, 256, 0, g_cuda.stream>>>(
            out, (const A *)p[0], (const B *)p[1], (const C *)p[2], g, (int32_t)n, (int32_t)(J ? depth : 1));
    else
        k_ew_strided<F, O, A, B, C, NIN, int64_t, J><<<grid, 256, 0, g_cuda.stream>>>(
            out, (const A *)p[0], (const B *)p[1], (const C *)p[2], g, n, J ? depth : 1);
    return cuda_check_launch(what);
}

// ---- dispatch -----------------------------------------------------------------------------------

static int bad_dtype(Op op, const RtTensor *out, RtTensor *const *in, int nin) {
    return rt_error(RT_EINVAL, "cuda %s: unsupported dtypes (out %s, operand %s%s%s)", ir_ops[op].name,
                    ir_dtype_name(out->dtype), ir_dtype_name(in[0]->dtype), nin > 1 ? ", " : "",
                    nin > 1 ? ir_dtype_name(in[1]->dtype) : "");
}

// All operands of dtype T (where: operand 0 bool), out of dtype O.
template <class F, class O, class T, int NIN, bool J, bool VEC>
static int ew_typed(Op op, RtTensor *out, RtTensor *const *in, int nin) {
    constexpr bool W = std::is_same<F, F_WHERE>::value;
    for (int k = 0; k < nin; k++) {
        DType want = (W && k == 0) ? DT_BOOL : in[W ? 1 : 0]->dtype;
        if (in[k]->dtype != want) return bad_dtype(op, out, in, nin);
    }
    int rank = out->rank;
    const RtTensor *const *ins = (const RtTensor *const *)in;
    if constexpr (W)
        return ew_run<F, O, bool, T, T, 3, false, VEC>(ir_ops[op].name, tdata<O>(out), rank, out->shape, ins, 1);
    else
        return ew_run<F, O, T, T, T, NIN, J, VEC>(ir_ops[op].name, tdata<O>(out), rank, out->shape, ins,
                                                  J ? out->shape[rank - 1] : 1);
}

template <class F, int RULE, int NIN>
static int ew_rule(Op op, RtTensor *out, RtTensor *const *in, int nin) {
    if (nin != NIN) return rt_error(RT_EINVAL, "cuda %s: takes %d operands, got %d", ir_ops[op].name, NIN, nin);
    DType t = in[RULE == R_WHERE ? 1 : 0]->dtype, o = out->dtype;
    if constexpr (RULE == R_ARITH || RULE == R_SIGNED || RULE == R_CLAMP) {
        if (o != t) return bad_dtype(op, out, in, nin);
        switch (t) {
#define CASE(ID, TT, sfx, kind) \
    IR_DT_NUM_##kind(case DT_##ID: return ew_typed<F, TT, TT, NIN, false, true>(op, out, in, nin);)
            CU_DTYPES(CASE)
#undef CASE
        default: return bad_dtype(op, out, in, nin);
        }
    } else if constexpr (RULE == R_DIV || RULE == R_FLOAT) {
        if (o != t) return bad_dtype(op, out, in, nin);
        switch (t) {
        case DT_FLOAT32: return ew_typed<F, float, float, NIN, false, true>(op, out, in, nin);
        case DT_FLOAT64: return ew_typed<F, double, double, NIN, false, true>(op, out, in, nin);
        case DT_BFLOAT16: return ew_typed<F, gtc_bf16, gtc_bf16, NIN, false, true>(op, out, in, nin);
        case DT_FLOAT16: return ew_typed<F, gtc_f16, gtc_f16, NIN, false, true>(op, out, in, nin);
        default: return bad_dtype(op, out, in, nin);
        }
    } else if constexpr (RULE == R_CMP || RULE == R_WHERE) {
        if (RULE == R_CMP ? o != DT_BOOL : o != t) return bad_dtype(op, out, in, nin);
        switch (t) {
#define CASE(ID, TT, sfx, kind)                                                                          \
    case DT_##ID:                                                                                        \
        return ew_typed<F, typename std::conditional<RULE == R_CMP, bool, TT>::type, TT, NIN, false, true>( \
            op, out, in, nin);
            CU_DTYPES(CASE)
#undef CASE
        default: return bad_dtype(op, out, in, nin);
        }
    } else if constexpr (RULE == R_ONE_HOT) {
        if (out->rank < 1 || in[0]->rank != out->rank - 1) return bad_dtype(op, out, in, nin);
#define OH_CASE(ID, TT, sfx, kind) case DT_##ID: return ew_typed<F, TT, IdxT, 1, true, false>(op, out, in, nin);
#define OH(T_)                                                                                                \
    {                                                                                                         \
        typedef T_ IdxT;                                                                                      \
        switch (o) {                                                                                          \
            CU_DTYPES(OH_CASE)                                                                                \
        default: return bad_dtype(op, out, in, nin);                                                          \
        }                                                                                                     \
    }
        if (t == DT_INT32) OH(int32_t)
        if (t == DT_INT64) OH(int64_t)
#undef OH
#undef OH_CASE
        return bad_dtype(op, out, in, nin);
    } else if constexpr (RULE == R_CAST) {
        return cuda_copy(out, in[0]);
    } else {
        return rt_error(RT_EINVAL, "cuda elementwise: %s is not an elementwise op", ir_ops[op].name);
    }
}

int cuda_elementwise(Op op, RtTensor *out, RtTensor *const *in, int nin, const Attrs *a) {
    (void)a;  // one_hot's depth is out's last dimension
    if (cuda_check_ready(ir_ops[op].name)) return -1;
    if (rt_numel(out) == 0) return 0;  // (rt_is_contiguous says no to shapes like [4,0,3])
    if (!rt_is_contiguous(out)) return rt_error(RT_EINVAL, "cuda %s: out must be contiguous", ir_ops[op].name);
    if (nin < 1 || nin > IR_MAX_INPUTS) return rt_error(RT_EINVAL, "cuda %s: bad operand count %d", ir_ops[op].name, nin);
    switch (op) {
#define OP(id, name, arity, kind, rule, expr)                                                                 \
    case OP_##id:                                                                                             \
        if (K_##kind != K_ELEMWISE) break;                                                                    \
        return ew_rule<F_##id, rule, (arity > 0 ? arity : 1)>(op, out, in, nin);
#include "../../ir/ops.def"
#undef OP
    default: break;
    }
    return rt_error(RT_EINVAL, "cuda elementwise: %s is not an elementwise op", ir_ops[op].name);
}

// ---- copy / cast --------------------------------------------------------------------------------

template <class O> static int copy_from(void *dst, int rank, const int64_t *shape, const RtTensor *in) {
    const RtTensor *ins[1] = {in};
    switch (in->dtype) {
#define CASE(ID, TT, sfx, kind) \
    case DT_##ID: return ew_run<F_COPY, O, TT, TT, TT, 1, false, true>("copy", (O *)dst, rank, shape, ins, 1);
        CU_DTYPES(CASE)
#undef CASE
    default: return rt_error(RT_EINVAL, "cuda copy: unsupported dtype");
    }
}

static int copy_shape(void *dst, DType dt, int rank, const int64_t *shape, const RtTensor *in) {
    int64_t n = numel_of(rank, shape);
    if (n == 0) return 0;
    if (dt == in->dtype && rt_is_contiguous(in)) {
        CU_TRY("copy (cudaMemcpyAsync)", cudaMemcpyAsync(dst, rt_data(in), (size_t)n * ir_dtype_size(dt),
                                                         cudaMemcpyDeviceToDevice, g_cuda.stream));
        return 0;
    }
    switch (dt) {
#define CASE(ID, TT, sfx, kind) case DT_##ID: return copy_from<TT>(dst, rank, shape, in);
        CU_DTYPES(CASE)
#undef CASE
    default: return rt_error(RT_EINVAL, "cuda copy: unsupported dtype");
    }
}

int cuda_copy_into(void *dst, DType dt, const RtTensor *in) {
    return copy_shape(dst, dt, in->rank, in->shape, in);
}

// Element i of the contiguous src to its place in the strided view dst (no two elements of a
// view share a place: views never overlap themselves).
template <class T, class I>
__global__ void __launch_bounds__(256) k_store_strided(T *__restrict__ dst, const T *__restrict__ src, EwGeo<1> g,
                                                       I n) {
    const I stride = (I)gridDim.x * (I)blockDim.x;
    for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += stride) {
        I rem = i, o = 0;
#pragma unroll
        for (int d = IR_MAX_RANK - 1; d >= 0; d--) {
            if (d < g.nd) {
                I dim = (I)g.dims[d], q = rem / dim;
                o += (rem - q * dim) * (I)g.st[0][d];
                rem = q;
            }
        }
        dst[o] = src[i];
    }
}

// A write into a strided view (a stepped slice, a transposed row): the values go through a
// contiguous staging buffer first, so a source that overlaps the destination (a row of the same
// array) is read whole before any of it is overwritten. Bytes are moved as same-sized integers.
static int store_strided(RtTensor *out, const RtTensor *in) {
    int64_t n = rt_numel(out);
    size_t es = ir_dtype_size(out->dtype);
    void *tmp = cuda_alloc((size_t)n * es);
    if (!tmp) return -1;
    int rc = copy_shape(tmp, out->dtype, out->rank, out->shape, in);
    Layout<1> l = {};
    l.nd = out->rank;
    for (int d = 0; d < out->rank; d++) l.dims[d] = out->shape[d], l.st[0][d] = out->strides[d];
    EwGeo<1> g = {};
    g.nd = l.nd;
    for (int d = 0; d < l.nd; d++) g.dims[d] = l.dims[d], g.st[0][d] = l.st[0][d];
    unsigned grid = grid_for(n, 256);
    bool small = n < ((int64_t)1 << 31) && layout_span(&l, 0) < ((int64_t)1 << 31);
#define STORE(T)                                                                                              \
    (small ? k_store_strided<T, int32_t><<<grid, 256, 0, g_cuda.stream>>>((T *)rt_data(out), (const T *)tmp, g, \
                                                                          (int32_t)n)                        \
           : k_store_strided<T, int64_t><<<grid, 256, 0, g_cuda.stream>>>((T *)rt_data(out), (const T *)tmp, g, n))
    if (!rc) {
        switch (es) {
        case 1: STORE(uint8_t); break;
        case 2: STORE(uint16_t); break;
        case 4: STORE(uint32_t); break;
        default: STORE(uint64_t); break;
        }
        rc = cuda_check_launch("copy into a strided view");
    }
#undef STORE
    cuda_free(tmp); // stream-ordered: the kernel above has read it by the time it is reused
    return rc;
}

int cuda_copy(RtTensor *out, const RtTensor *in) {
    if (cuda_check_ready("copy")) return -1;
    if (rt_numel(out) == 0) return 0;
    if (out->rank != in->rank || memcmp(out->shape, in->shape, (size_t)in->rank * sizeof *in->shape))
        return rt_error(RT_EINVAL, "cuda copy: shapes differ");
    if (!rt_is_contiguous(out)) return store_strided(out, in);
    return copy_shape(rt_data(out), out->dtype, out->rank, out->shape, in);
}
