/* runtime/cpu/cpu.h: internals shared by the CPU backend's files: the backend's entry points,
 * element addresses, and a strided N-d iterator over several operands of one shape. */
#ifndef GTC_CPU_H
#define GTC_CPU_H

#include "../core/plan_abi.h"
#include "../core/rt.h"

#define CPU_MAX_OPS 4

/* cpu_plan.c: the plan operations of the CPU backend (RtBackend.plan), and the C compiler the
 * JIT's CPU kernels are built with: $GTC_JIT_CC, default "cc" (also part of the cache key). */
extern const RtPlanOps rt_cpu_plan_ops;
const char *rt_cpu_plan_cc(void);

/* Address of element 0 of a view: storage data + offset (in elements). */
static inline char *cpu_data(const RtTensor *t) {
    return (char *)t->storage->data + t->offset * (int64_t)ir_dtype_size(t->dtype);
}

static inline int64_t cpu_numel(int rank, const int64_t *shape) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    return n;
}

/* True when the view is C-contiguous (size-1 axes may carry any stride). */
bool cpu_is_contiguous(const RtTensor *t);

/* The strides (in elements) that read tensor t as if broadcast to `shape` (NumPy rules, axes
 * aligned on the right; size-1 and missing axes read with stride 0). -1 when t's shape does not
 * broadcast to `shape`. */
int cpu_bcast_strides(const RtTensor *t, int rank, const int64_t *shape, int64_t *strides);

/* Iteration over one index space for up to CPU_MAX_OPS operands, each with its own element size
 * and element strides (0 for broadcast axes, negative for reversed ones). Size-1 axes are dropped
 * and axes that are contiguous with their inner neighbour for every operand are merged, so the
 * caller runs one tight loop per "run": `inner` elements starting at ptr[k], step istride[k]
 * (elements). Visiting order is C order of the index space. Usage:
 *
 *     CpuIter it;
 *     if (cpu_iter_init(&it, rank, shape, nop, base, strides, esize))
 *         do loop(it.inner, it.ptr, it.istride); while (cpu_iter_next(&it));
 */
typedef struct {
    int nop;
    int ndim;                                 /* outer axes after merging (inner excluded) */
    int64_t inner;                            /* length of one run */
    int64_t istride[CPU_MAX_OPS];             /* element stride inside a run, per operand */
    int64_t shape[IR_MAX_RANK];               /* outer axes, slowest first */
    int64_t bstride[CPU_MAX_OPS][IR_MAX_RANK]; /* byte strides of the outer axes */
    int64_t idx[IR_MAX_RANK];
    char *ptr[CPU_MAX_OPS];                   /* first element of the current run */
} CpuIter;

/* base[k]: address of operand k's element 0; strides[k]: its element strides over `shape`.
 * Returns false when the index space is empty (nothing to visit). */
bool cpu_iter_init(CpuIter *it, int rank, const int64_t *shape, int nop, char *const base[],
                   const int64_t *const strides[], const size_t esize[]);
/* Moves to the next run; false after the last one. */
bool cpu_iter_next(CpuIter *it);

/* A run loop: n elements, ptr[k] and element strides s[k] per operand, aux op-specific. */
typedef void (*CpuLoop)(int64_t n, char *const p[], const int64_t s[], int64_t aux);

/* Runs `loop` over `shape` for nop operands (operand 0 is usually the output), in parallel over
 * rt_cpu_threads() threads above RT_CPU_PAR_MIN elements (plan_abi.h) (operand 0 never shared between them). */
void cpu_run(CpuLoop loop, int64_t aux, int rank, const int64_t *shape, int nop,
             char *const base[], const int64_t *const strides[], const size_t esize[]);

/* The backend's kernels (rt.h, struct RtBackend); one file each. */
int cpu_copy(RtTensor *out, const RtTensor *in);
int cpu_fill(RtTensor *out, double value);
int cpu_elementwise(Op op, RtTensor *out, RtTensor *const *in, int nin, const Attrs *a);
int cpu_reduce(Op op, RtTensor *out, const RtTensor *in, unsigned mask);
int cpu_matmul(RtTensor *out, const RtTensor *a, const RtTensor *b);
int cpu_dropout(RtTensor *out, const RtTensor *x, uint64_t seed, double ratio);
int cpu_gather(RtTensor *out, const RtTensor *data, const RtTensor *idx, int64_t pre, int64_t n, int64_t post);
int cpu_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows);
int cpu_scatter_add(RtTensor *out, const RtTensor *idx, const RtTensor *upd, int64_t pre, int64_t n, int64_t post);

#endif
