/* runtime/cpu/cpu_elementwise.c: every elementwise op on the CPU, one loop per (op, dtype) whose
 * body is the op's formula from ir/ops.def, so eager ops and generated kernels agree. */
#include "../../ir/scalar.h"
#include "cpu.h"

/* Integer arithmetic must wrap (as CUDA's does) without signed-overflow UB in C, so the rules
 * whose formulas can overflow (R_ARITH, R_SIGNED: add sub mul neg abs ...) evaluate in the
 * dtype's WT column of IR_DTYPES (int8 ... int32 in int64, int64 in __int128, uint32 and uint64
 * in uint64), where no operand pair overflows or unsigned arithmetic wraps by definition; storing
 * the result back keeps the low bits (two's-complement conversion, defined by GCC and Clang),
 * which is the wrapped value. Every other op is computed in its storage type, except that the
 * 2-byte floats (kind H) compute every formula in float (WT) and round once on the store. Loads
 * go through gtc_val and stores through gtc_cast (scalar.h), which are plain conversions for
 * every other dtype. */

/* One loop function per (op, compute dtype): locals a, b, c hold the operands converted to their
 * compute types, `expr` is the formula, its value is stored as the output type OS. The first
 * branches are the common contiguous and scalar-broadcast cases the compiler can vectorise. */
#define EW1(fn, OS, S1, T1, expr)                                                             \
    static void fn(int64_t n, char *const p[], const int64_t s[], int64_t aux) {             \
        (void)aux;                                                                            \
        OS *o = (OS *)p[0];                                                                   \
        const S1 *x1 = (const S1 *)p[1];                                                      \
        if (s[0] == 1 && s[1] == 1)                                                           \
            for (int64_t i = 0; i < n; i++) {                                                 \
                T1 a = (T1)gtc_val(x1[i]);                                                     \
                o[i] = gtc_cast(OS, expr);                                                     \
            }                                                                                 \
        else                                                                                  \
            for (int64_t i = 0; i < n; i++) {                                                 \
                T1 a = (T1)gtc_val(x1[i * s[1]]);                                              \
                o[i * s[0]] = gtc_cast(OS, expr);                                              \
            }                                                                                 \
    }

#define EW2_RUN(OS, T1, T2, expr, io, ia, ib)                                                 \
    for (int64_t i = 0; i < n; i++) {                                                         \
        T1 a = (T1)gtc_val(x1[ia]);                                                            \
        T2 b = (T2)gtc_val(x2[ib]);                                                            \
        o[io] = gtc_cast(OS, expr);                                                            \
    }
#define EW2(fn, OS, S1, T1, S2, T2, expr)                                                     \
    static void fn(int64_t n, char *const p[], const int64_t s[], int64_t aux) {             \
        (void)aux;                                                                            \
        OS *o = (OS *)p[0];                                                                   \
        const S1 *x1 = (const S1 *)p[1];                                                      \
        const S2 *x2 = (const S2 *)p[2];                                                      \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1)                                              \
            EW2_RUN(OS, T1, T2, expr, i, i, i)                                                \
        else if (s[0] == 1 && s[1] == 1 && s[2] == 0)                                         \
            EW2_RUN(OS, T1, T2, expr, i, i, 0)                                                \
        else if (s[0] == 1 && s[1] == 0 && s[2] == 1)                                         \
            EW2_RUN(OS, T1, T2, expr, i, 0, i)                                                \
        else                                                                                  \
            EW2_RUN(OS, T1, T2, expr, i * s[0], i * s[1], i * s[2])                           \
    }

#define EW3_RUN(OS, T1, T2, T3, expr, io, ia, ib, ic)                                         \
    for (int64_t i = 0; i < n; i++) {                                                         \
        T1 a = (T1)gtc_val(x1[ia]);                                                            \
        T2 b = (T2)gtc_val(x2[ib]);                                                            \
        T3 c = (T3)gtc_val(x3[ic]);                                                            \
        o[io] = gtc_cast(OS, expr);                                                            \
    }
#define EW3(fn, OS, S1, T1, S2, T2, S3, T3, expr)                                             \
    static void fn(int64_t n, char *const p[], const int64_t s[], int64_t aux) {             \
        (void)aux;                                                                            \
        OS *o = (OS *)p[0];                                                                   \
        const S1 *x1 = (const S1 *)p[1];                                                      \
        const S2 *x2 = (const S2 *)p[2];                                                      \
        const S3 *x3 = (const S3 *)p[3];                                                      \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1)                                 \
            EW3_RUN(OS, T1, T2, T3, expr, i, i, i, i)                                         \
        else                                                                                  \
            EW3_RUN(OS, T1, T2, T3, expr, i * s[0], i * s[1], i * s[2], i * s[3])             \
    }

/* one_hot: operand 0 is a row of `depth` outputs (contiguous), j the coordinate along it. */
#define ONEHOT(fn, OS, S1, expr)                                                              \
    static void fn(int64_t n, char *const p[], const int64_t s[], int64_t depth) {           \
        OS *o = (OS *)p[0];                                                                   \
        const S1 *x1 = (const S1 *)p[1];                                                      \
        for (int64_t i = 0; i < n; i++) {                                                     \
            S1 a = x1[i * s[1]];                                                              \
            OS *row = o + i * s[0];                                                           \
            for (int64_t j = 0; j < depth; j++) row[j] = gtc_cast(OS, expr);                   \
        }                                                                                     \
    }

/* ---- which dtypes each rule's formula is instantiated for (GEN_*) and their table rows (TAB_*):
 * the table is indexed [op][compute dtype][output dtype]. */

#define U1(id, ct, OS, S, T, e) EW1(ew_##id##_##ct, OS, S, T, e)
#define U2(id, ct, OS, S, T, e) EW2(ew_##id##_##ct, OS, S, T, S, T, e)
#define U3(id, ct, OS, S, T, e) EW3(ew_##id##_##ct, OS, S, T, S, T, S, T, e)
#define ENTRY(id, ct, CT, OD) [OP_##id][DT_##CT][DT_##OD] = ew_##id##_##ct,

/* Rows of IR_DTYPES_A with A = (U, id, e): which kinds (B S U F) each rule instantiates. */
#define ARGS3(U, id, e) U, id, e
#define GEN_WIDE_(U, id, e, ID, sfx, CT, WT) U(id, sfx, CT, CT, WT, e)
#define GEN_SAME_(U, id, e, ID, sfx, CT, VT) U(id, sfx, CT, CT, VT, e)
#define TAB_(U, id, e, ID, sfx, CT, WT) ENTRY(id, sfx, ID, ID)
/* numbers: every integer (computed in WT, see above) and float */
#define NUM_WIDE(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_NUM_##kind(IR_DT_APPLY(GEN_WIDE_, ARGS3 A, ID, sfx, CT, WT))
#define NUM_SAME(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_NUM_##kind(IR_DT_APPLY(GEN_SAME_, ARGS3 A, ID, sfx, CT, IR_DT_VT_##kind(CT, WT)))
#define NUM_TAB(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_NUM_##kind(IR_DT_APPLY(TAB_, ARGS3 A, ID, sfx, CT, WT))
#define FLT_GEN(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_FLT_##kind(IR_DT_APPLY(GEN_SAME_, ARGS3 A, ID, sfx, CT, IR_DT_VT_##kind(CT, WT)))
#define FLT_TAB(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_FLT_##kind(IR_DT_APPLY(TAB_, ARGS3 A, ID, sfx, CT, WT))

#define GEN_R_ARITH(id, e) IR_DTYPES_A(NUM_WIDE, (U2, id, e))
#define TAB_R_ARITH(id) IR_DTYPES_A(NUM_TAB, (_, id, _))
#define GEN_R_SIGNED(id, e) IR_DTYPES_A(NUM_WIDE, (U1, id, e))
#define TAB_R_SIGNED(id) IR_DTYPES_A(NUM_TAB, (_, id, _))
#define GEN_R_DIV(id, e) IR_DTYPES_A(FLT_GEN, (U2, id, e))
#define TAB_R_DIV(id) IR_DTYPES_A(FLT_TAB, (_, id, _))
#define GEN_R_FLOAT(id, e) IR_DTYPES_A(FLT_GEN, (U1, id, e))
#define TAB_R_FLOAT(id) IR_DTYPES_A(FLT_TAB, (_, id, _))
#define GEN_R_CLAMP(id, e) IR_DTYPES_A(NUM_SAME, (U3, id, e))
#define TAB_R_CLAMP(id) IR_DTYPES_A(NUM_TAB, (_, id, _))

/* comparisons: operands of the promoted dtype (bool compares as uint8_t), output bool */
#define CMP_GEN(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(CMP_GEN_, ARGS3 A, sfx, CT, IR_DT_VT_##kind(CT, WT))
#define CMP_GEN_(U, id, e, sfx, CT, VT) EW2(ew_##id##_##sfx, gtc_bool, CT, VT, CT, VT, e)
#define CMP_TAB(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(CMP_TAB_, ARGS3 A, ID, sfx)
#define CMP_TAB_(U, id, e, ID, sfx) ENTRY(id, sfx, ID, BOOL)
#define GEN_R_CMP(id, e) IR_DTYPES_A(CMP_GEN, (_, id, e))
#define TAB_R_CMP(id) IR_DTYPES_A(CMP_TAB, (_, id, _))

/* where: a bool condition, b and c of the output dtype */
#define WHR_GEN(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(WHR_GEN_, ARGS3 A, sfx, CT, IR_DT_VT_##kind(CT, WT))
#define WHR_GEN_(U, id, e, sfx, CT, VT) EW3(ew_##id##_##sfx, CT, gtc_bool, gtc_bool, CT, VT, CT, VT, e)
#define GEN_R_WHERE(id, e) IR_DTYPES_A(WHR_GEN, (_, id, e))
#define TAB_R_WHERE(id) IR_DTYPES_A(NUM_TAB_ALL, (_, id, _))
#define NUM_TAB_ALL(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(TAB_, ARGS3 A, ID, sfx, CT, WT)

/* one_hot: int32/int64 indices (A = (S, ct, e)), any output dtype */
#define OH_GEN(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(OH_GEN_, ARGS3 A, sfx, CT)
#define OH_GEN_(S, ct, e, od, OS) ONEHOT(ew_ONE_HOT_##ct##_##od, OS, S, e)
#define GEN_R_ONE_HOT(id, e) IR_DTYPES_A(OH_GEN, (int32_t, i32, e)) IR_DTYPES_A(OH_GEN, (int64_t, i64, e))
#define OH_TAB(A, ID, name, sh, sfx, CT, WT, size, kind) IR_DT_APPLY(OH_TAB_, ARGS3 A, ID, sfx)
#define OH_TAB_(CT, ct, id, OD, od) [OP_##id][DT_##CT][DT_##OD] = ew_##id##_##ct##_##od,
#define TAB_R_ONE_HOT(id) IR_DTYPES_A(OH_TAB, (INT32, i32, id)) IR_DTYPES_A(OH_TAB, (INT64, i64, id))

/* cast goes through cpu_copy (the conversions of scalar.h), so it has no loop here */
#define GEN_R_CAST(id, e)
#define TAB_R_CAST(id)

/* only elementwise rows generate code */
#define GEN_ELEMWISE(id, rule, e) GEN_##rule(id, e)
#define GEN_SOURCE(id, rule, e)
#define GEN_REDUCE(id, rule, e)
#define GEN_MATMUL(id, rule, e)
#define GEN_VIEW(id, rule, e)
#define GEN_INDEX(id, rule, e)
#define GEN_COMPOSITE(id, rule, e)
#define TAB_ELEMWISE(id, rule) TAB_##rule(id)
#define TAB_SOURCE(id, rule)
#define TAB_REDUCE(id, rule)
#define TAB_MATMUL(id, rule)
#define TAB_VIEW(id, rule)
#define TAB_INDEX(id, rule)
#define TAB_COMPOSITE(id, rule)

#define OP(id, name, arity, kind, rule, expr) GEN_##kind(id, rule, expr)
#include "../../ir/ops.def"
#undef OP

/* NULL: the op is not defined for that dtype pair. */
static const CpuLoop ew_loops[OP_COUNT][DT_COUNT][DT_COUNT] = {
#define OP(id, name, arity, kind, rule, expr) TAB_##kind(id, rule)
#include "../../ir/ops.def"
#undef OP
};

static TensorType type_of(const RtTensor *t) {
    TensorType ty = {.dtype = t->dtype, .rank = t->rank};
    for (int i = 0; i < t->rank; i++) ty.dims[i] = t->shape[i];
    return ty;
}

int cpu_elementwise(Op op, RtTensor *out, RtTensor *const *in, int nin, const Attrs *a) {
    if ((unsigned)op >= OP_COUNT || ir_ops[op].kind != K_ELEMWISE)
        return rt_error(RT_EINVAL, "internal: %s is not an elementwise op",
                        (unsigned)op < OP_COUNT ? ir_ops[op].name : "?");
    const OpInfo *info = &ir_ops[op];
    if (nin != info->arity)
        return rt_error(RT_EINVAL, "internal: %s takes %d operands, got %d", info->name,
                        info->arity, nin);
    if (info->rule == R_CAST) return cpu_copy(out, in[0]);

    TensorType ty[IR_MAX_INPUTS] = {{0}}, oty = type_of(out);
    for (int i = 0; i < nin; i++) ty[i] = type_of(in[i]);
    DType ct = ir_compute_dtype(op, ty, nin, &oty);
    for (int i = 0; i < nin; i++) {
        DType want = info->rule == R_WHERE && i == 0 ? DT_BOOL : ct;
        if (in[i]->dtype != want)
            return rt_error(RT_EINVAL, "internal: %s operand %d is %s, expected %s", info->name,
                            i, ir_dtype_name(in[i]->dtype), ir_dtype_name(want));
    }
    CpuLoop loop = (unsigned)ct < DT_COUNT && (unsigned)out->dtype < DT_COUNT
                       ? ew_loops[op][ct][out->dtype] : NULL;
    if (!loop)
        return rt_error(RT_EINVAL, "%s is not defined for %s%s%s on the cpu backend", info->name,
                        ir_dtype_name(ct), ct == out->dtype ? "" : " giving ",
                        ct == out->dtype ? "" : ir_dtype_name(out->dtype));

    /* one_hot iterates over the indices' shape; each step writes a row of `depth` outputs */
    int rank = out->rank;
    int64_t aux = 0;
    if (info->rule == R_ONE_HOT) {
        if (rank < 1) return rt_error(RT_EINVAL, "internal: one_hot output has rank 0");
        aux = out->shape[--rank];
        if (a && a->depth != aux)
            return rt_error(RT_EINVAL, "internal: one_hot depth %lld, output axis %lld",
                            (long long)a->depth, (long long)aux);
        if (aux > 1 && out->strides[rank] != 1)
            return rt_error(RT_EINVAL, "internal: one_hot output is not contiguous");
    }
    int64_t st[1 + IR_MAX_INPUTS][IR_MAX_RANK];
    char *base[1 + IR_MAX_INPUTS] = {cpu_data(out)};
    const int64_t *stp[1 + IR_MAX_INPUTS] = {out->strides};
    size_t es[1 + IR_MAX_INPUTS] = {ir_dtype_size(out->dtype)};
    for (int i = 0; i < nin; i++) {
        if (cpu_bcast_strides(in[i], rank, out->shape, st[i + 1]))
            return rt_error(RT_EINVAL, "internal: %s operand %d does not broadcast to the output",
                            info->name, i);
        base[i + 1] = cpu_data(in[i]);
        stp[i + 1] = st[i + 1];
        es[i + 1] = ir_dtype_size(in[i]->dtype);
    }
    cpu_run(loop, aux, rank, out->shape, 1 + nin, base, stp, es);
    return 0;
}
