/* compiler/pass_lower.c: lowering, once, after memplan: for every step the form of its CUDA
 * kernel and its launch configuration from static shapes and the Target, the GEMM tile and its
 * shared memory, own_sm, where a CPU GEMM writes its product (and the scratch appended to the
 * arena for those that have no buffer), the argument-block slots its kernel uses, and the steps
 * it waits for with the edges others imply left out. Stored in Step.lower and Plan; the code
 * generators, plan_build (RtPlanStep) and the executor only read them.
 *   ELEMWISE / COPY  grid-stride loop, 256 threads, at most 4 blocks per SM
 *   REDUCE           one block per output element, threads stride over the reduced elements;
 *                    over leading axes only: 8 outputs per block, 32 slices each (coalesced)
 *   ROW              one block per row; short rows: a warp, or a thread, per row
 *   GEMM             tiled with sliced K, skinny, or small K (templates/kernels_prelude.cuh), or
 *                    cuBLASLt with a grid-stride epilogue kernel, by the cost model gemm_blas() */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

#define EW_BLOCK 256
/* Grid-stride kernels: 8 blocks of 256 per SM, the 2,048 threads an sm_80/sm_90 SM holds, for the
 * loads in flight a memory-bound loop needs (with 4, the 4k-wide step's epilogues reached about
 * 2.3 TB/s on the H200; 8 took the step 3,753 -> 3,646 us in tf32). Smaller SMs queue the rest. */
#define EW_BLOCKS_PER_SM 8
#define MAX_GRID_X (1 << 30)

static const Node *N(const Graph *g, NodeId id) { return &g->nodes[id]; }

static unsigned clamp_grid(int64_t n, int64_t max) { return (unsigned)(n < 1 ? 1 : n > max ? max : n); }

static unsigned reduce_block(int64_t count) {
    int64_t b = 32;
    while (b < count && b < 256) b *= 2;
    return (unsigned)b;
}

/* ---- GEMM tiles ---------------------------------------------------------------------------------- */

/* A GEMM's kernel form. N <= SKINNY_N: the skinny kernels (a warp per row of C when A's K axis
 * is contiguous; 8 rows per block with the threads' slices striding over K when A is read
 * transposed). K <= SMALLK_K: a thread per element of C (an outer product: memory-bound, like an
 * elementwise step). Otherwise the tiled kernel: the largest tile that still gives more blocks
 * than three quarters of the target's SMs (100 on the H200's 132), its threads split into KS
 * groups that each multiply a K slice with TM x 4 register micro-tiles, and whose shared memory
 * fits the target. */
#define SKINNY_N 8
#define SMALLK_K 8

/* The tiled GEMM's dynamic shared memory in bytes: GtcGemmSmem<...>::BYTES of
 * templates/kernels_prelude.cuh, the same formula (the kernel traps when launched with less):
 * t->nst K steps of the A and B tiles (rows padded by 4 elements, on TF32 tensor cores those along
 * M or N by 8), or the K groups' partial tiles (rows padded by 8 on tensor cores). */
static unsigned gemm_smem(const StepLower *t, bool ak, bool bk1, int64_t elem) {
    const int64_t pm = t->tf32 ? 8 : 4, bnp = t->bn + (t->tf32 ? 8 : 0);
    const int64_t ra = ak ? t->bm : t->bk, sa = ak ? t->bk + 4 : t->bm + pm;
    const int64_t rb = bk1 ? t->bn : t->bk, sb = bk1 ? t->bk + 4 : t->bn + pm;
    const int64_t pipe = t->nst * (ra * sa + rb * sb) * elem, red = (int64_t)t->ks * t->bm * bnp * elem;
    return (unsigned)(pipe > red ? pipe : red);
}

/* K steps in flight (gtc_gemm's NST): up to 4 within 96 KB, so that two or three blocks share an
 * SM; but when the grid fits in one wave each block has its SM to itself (the executor's own_sm),
 * and then all of K, up to 9 steps within the target's shared memory, so the block issues its
 * whole operand slices before it first waits (TF32: the train step's two products 5.37 -> 4.68
 * and 4.92 -> 4.57 us, H200, bench/gemm_split.cu). K symbolic: the bound's steps. */
#define GEMM_PIPE (96 * 1024)
#define GEMM_NST_MAX 9
static int gemm_stages(const Target *tg, const EmitGemm *gm, int64_t elem, const StepLower *t) {
    const bool ak = gm->sak == 1, bk1 = gm->sbk == 1;
    StepLower c = *t;
    int nst = 2;
    for (c.nst = 3; c.nst <= 4; c.nst++)
        if (gemm_smem(&c, ak, bk1, elem) <= GEMM_PIPE) nst = c.nst;
    const int64_t blocks = (gm->m + t->bm - 1) / t->bm * ((gm->n + t->bn - 1) / t->bn) * gm->batch;
    const int64_t kt = (gm->k + t->bk - 1) / t->bk;
    if (t->tf32 && blocks <= tg->sms)
        for (c.nst = nst + 1; c.nst <= GEMM_NST_MAX && c.nst <= kt + 1; c.nst++)
            if (gemm_smem(&c, ak, bk1, elem) <= (unsigned)tg->smem_block) nst = c.nst;
    return nst;
}

/* Fills the form and tile of a GEMM step. The tiles {bm, bn, tm, ks, bk}, in order of preference:
 * (bm / tm) x (bn / 4) x ks threads. Measured on the H200 (bench/README.md,
 * bench/gemm_variants.cu) for the training step's 512x256x480 products: 32x32 tm8 ks8 bk64 at
 * 7.3 us beats 32x32 tm4 (7.7-9.3), 512 threads (7.7-8.0), 32x16 (8.3) and a split of K over
 * clusters of 4 blocks of 64x64 tiles (11.5, since removed). */
/* Whether gtc_gemm<..., TF32> can split tile t over its warps: GtcTcSplit<...>::OK of
 * templates/kernels_prelude.cuh, the same conditions (groups of whole warps, K slices of 8, the
 * warps over a grid of m16n8 tiles). */
static bool tile_tc_ok(const StepLower *t) {
    const int g = t->bm / t->tm * (t->bn / 4), kg = t->bk / t->ks, mtm = t->bm / 16, mtn = t->bn / 8, wg = g / 32;
    if (g % 32 || kg % 8 || t->bm % 16 || t->bn % 8 || wg < 1) return false;
    const int wgn = wg % 4 == 0 && mtn % 4 == 0 ? 4 : wg % 2 == 0 && mtn % 2 == 0 ? 2 : 1, wgm = wg / wgn;
    return mtm % wgm == 0 && mtn % wgn == 0;
}

/* tc: TF32 tensor cores are wanted: they take the tile chosen for the exact kernel when they
 * can split it (measured on the H200, bench/gemm_variants.cu: on the train step's 512x256x480
 * products the 32x32 tile is 7.2 us exact, 6.0 on tensor cores; forcing a tensor-core tile
 * instead of a digits product's 16x16 one made that step 60% slower). */
static int gemm_tile(const Target *tg, const EmitGemm *gm, int64_t elem, bool tc, StepLower *t, const Node *mm, Diag *d) {
    static const int tiles[][5] = {{64, 64, 4, 1, 16}, {64, 32, 4, 2, 16}, {32, 64, 4, 2, 16}, {32, 32, 8, 8, 64},
                                   {32, 16, 4, 8, 32}, {16, 32, 4, 8, 32}, {16, 16, 4, 16, 64}};
    if (gm->n <= SKINNY_N) {
        t->form = gm->sam == 1 && gm->sak != 1 ? LOWER_GEMM_SKINNY_T : LOWER_GEMM_SKINNY;
        return 0;
    }
    if (gm->k <= SMALLK_K && gm->m * gm->n < ((int64_t)1 << 31)) {
        t->form = LOWER_GEMM_SMALLK;
        return 0;
    }
    t->form = LOWER_GEMM_TILED;
    const int64_t min_blocks = (int64_t)tg->sms * 3 / 4 + 1;
    const int n = (int)(sizeof tiles / sizeof *tiles);
    bool found = false;
    for (int i = 0; i < n; i++) {
        const int *c = tiles[i];
        /* of two tiles of one area, the one whose long side follows C's */
        if (i + 1 < n && c[0] != c[1] && c[0] * c[1] == tiles[i + 1][0] * tiles[i + 1][1] &&
            (c[0] > c[1]) != (gm->m >= gm->n))
            continue;
        StepLower cand = *t;
        cand.bm = c[0], cand.bn = c[1], cand.tm = c[2], cand.ks = c[3], cand.bk = c[4];
        cand.tf32 = tc && tile_tc_ok(&cand);
        cand.nst = gemm_stages(tg, gm, elem, &cand);
        if (gemm_smem(&cand, gm->sak == 1, gm->sbk == 1, elem) > (unsigned)tg->smem_block) continue;
        *t = cand;
        found = true;
        int64_t blocks = (gm->m + t->bm - 1) / t->bm * ((gm->n + t->bn - 1) / t->bn) * gm->batch;
        if (blocks >= min_blocks) break;
    }
    if (!found) {
        diag_node(d, mm, "no GEMM tile fits the %d bytes of shared memory per block of %s", tg->smem_block, tg->name);
        return -1;
    }
    return 0;
}

/* ---- the library GEMM (cuBLASLt) ----------------------------------------------------------------- */

/* Products at or above these many multiply-adds go to cuBLASLt (bench/README.md, "GEMM
 * selection"; measured on the H200 with bench/gemm_lt.cu and bench/scale.sh). In float32 our tiled
 * kernel with its fused epilogue ties or wins below about 2^29 (512x256x480: ours 7.3 us, cuBLASLt
 * 9.2); above, cuBLAS's kernels pull ahead (4096^3: 51 TFLOP/s against our 34). With tf32 or bf16
 * only tensor cores give the speed, and our kernel has none; still, below about 2^27 the step is
 * launch-bound and the separate epilogue costs more than tensor cores save (the 480-256-2 step at
 * batch 512: 23.1 us all ours, 25.0 with its two 2^26 products through cuBLASLt in tf32), so those
 * stay exact in our kernel. Both scale with the target's SMs against the H200's 132. */
#define BLAS_MACS_FP32 ((int64_t)1 << 29)
#define BLAS_MACS_TC ((int64_t)1 << 27)

int64_t lower_blas_min_macs(const Target *tg, DType dt) {
    const bool tc = dt == DT_FLOAT32 && tg->precision != PREC_FP32;
    const char *force = getenv("GTC_GEMM");
    if (force && !strcmp(force, "cublaslt")) return 0;
    if (force && !strcmp(force, "kernel")) return INT64_MAX;
    return (tc ? BLAS_MACS_TC : BLAS_MACS_FP32) * (tg->sms > 0 ? tg->sms : 132) / 132;
}

bool lower_blas_shape(const Target *tg, int64_t m, int64_t n, int64_t k, DType dt) {
    const int64_t min = lower_blas_min_macs(tg, dt);
    return (dt == DT_FLOAT32 || dt == DT_FLOAT64) && n > SKINNY_N && k > SMALLK_K && m <= INT32_MAX && n <= INT32_MAX &&
           k <= INT32_MAX && min < INT64_MAX && m * n * k >= min;
}

/* Whether a GEMM step runs through cuBLASLt, and why (in `why`, for gtc plan). GTC_GEMM=cublaslt
 * or GTC_GEMM=kernel in the environment overrides the cost model where cuBLASLt can take the
 * product (the GPU tests run both forms on every graph; bench/scale.sh measures both). */
static bool gemm_blas(const Target *tg, const EmitGemm *gm, DType dt, bool sym, char *why, size_t n) {
    const int64_t macs = gm->m * gm->n * gm->k * gm->batch;
    const bool tc = dt == DT_FLOAT32 && tg->precision != PREC_FP32;
    const int64_t min = lower_blas_min_macs(tg, dt);
    int64_t sa, sb;
    if (dt != DT_FLOAT32 && dt != DT_FLOAT64)
        snprintf(why, n, "our kernel: cuBLASLt does not take %s products", ir_dtype_name(dt));
    else if (gm->n <= SKINNY_N || gm->k <= SMALLK_K)
        snprintf(why, n, "our kernel: N or K of at most 8 is memory-bound, fused");
    else if (sym) /* the cuBLASLt call's m, n, k and batch are fixed in the plan (RtPlanStep.blas) */
        snprintf(why, n, "our kernel: a symbolic size");
    else if (gm->m > INT32_MAX || gm->n > INT32_MAX || gm->k > INT32_MAX || gm->batch > INT32_MAX ||
             !emit_gemm_batch_stride(gm, 0, &sa) || !emit_gemm_batch_stride(gm, 1, &sb))
        snprintf(why, n, "our kernel: the batch is not one stride per operand (or a size is over 2^31)");
    else if (macs < min && min == INT64_MAX)
        snprintf(why, n, "our kernel: GTC_GEMM=kernel");
    else if (macs < min)
        snprintf(why, n, "our kernel: %lld multiply-adds, under the %s threshold of %lld for cuBLASLt", (long long)macs,
                 tc ? target_precision_name(tg->precision) : "fp32", (long long)min);
    else if (min == 0) {
        snprintf(why, n, "cuBLASLt: GTC_GEMM=cublaslt");
        return true;
    }
    else {
        snprintf(why, n, "cuBLASLt%s: %lld multiply-adds, at or over the %s threshold of %lld",
                 tc ? (tg->precision == PREC_TF32 ? " (tf32 tensor cores)" : " (bf16 tensor cores)") : "",
                 (long long)macs, tc ? target_precision_name(tg->precision) : "fp32", (long long)min);
        return true;
    }
    return false;
}

/* ---- ROW and REDUCE forms ---------------------------------------------------------------------- */

/* ROW steps with rows this short run a warp per row (8 rows per block, no shared memory); rows
 * of at most THREAD_ROW_MAX elements, a thread per row (ROW_THREADS rows per block). A row step
 * with matmuls runs a warp per row, ROW_MM_WARPS rows per block (128 blocks for 512 rows). */
#define WARP_ROW_MAX 128
#define THREAD_ROW_MAX 8
#define ROW_THREADS 64
#define ROW_MM_WARPS 4

/* REDUCE steps that reduce leading axes only and keep at least COLS_MIN outputs take 8 outputs
 * (consecutive in memory when the input is) per 256-thread block: coalesced reads, no strided
 * walk per output (a bias gradient: the sum over a batch's rows). */
#define COLS_MIN 8
static int64_t reduce_cols(const Graph *g, const EmitRed *ri) {
    const TensorType *S = &N(g, ri->x)->type;
    int r = 0;
    while (r < S->rank && (ri->mask & (1u << r))) r++;
    if (ri->arg || r == 0 || r == S->rank || (ri->mask >> r)) return 0;
    int64_t nout = 1;
    for (int i = r; i < S->rank; i++) nout *= S->dims[i];
    return nout >= COLS_MIN ? nout : 0;
}

static int64_t ew_numel(const Graph *g, const Step *st) {
    int64_t n = 0;
    if (st->kind == STEP_COPY) return ir_numel(&N(g, g->outputs[st->copy_output].value)->type);
    for (int k = 0; k < st->nouts; k++) {
        int64_t m = ir_numel(&N(g, st->outs[k])->type);
        if (m > n) n = m;
    }
    return n;
}

/* The form and launch configuration of one step's CUDA kernel. */
static int lower_launch(const Graph *g, const Target *tg, const Step *st, StepLower *out, Diag *d) {
    out->grid[0] = out->block[0] = 1;
    out->grid[1] = out->grid[2] = out->block[1] = out->block[2] = 1;
    switch (st->kind) {
    case STEP_ALLREDUCE: /* no work of its own: an empty kernel, or the executor's collective */
        out->form = LOWER_NONE;
        out->block[0] = 32;
        return 0;
    case STEP_ELEMWISE: case STEP_COPY: {
        int64_t n = ew_numel(g, st);
        out->form = LOWER_GRID;
        out->block[0] = EW_BLOCK;
        out->grid[0] = clamp_grid((n + EW_BLOCK - 1) / EW_BLOCK, (int64_t)EW_BLOCKS_PER_SM * tg->sms);
        return 0;
    }
    case STEP_REDUCE: {
        EmitRed ri;
        if (emit_red_info(g, st->root, &ri, d)) return -1;
        int64_t cols = reduce_cols(g, &ri);
        out->form = cols ? LOWER_RED_COLS : LOWER_RED_BLOCK;
        out->block[0] = cols ? 256 : reduce_block(ri.count);
        out->grid[0] = clamp_grid(cols ? (cols + 7) / 8 : ir_numel(&N(g, st->root)->type), MAX_GRID_X);
        return 0;
    }
    case STEP_ROW: {
        EmitRow rw;
        if (emit_row_info(g, st, &rw, d)) return -1;
        const bool mm = rw.has_pro || rw.has_epi;
        if (mm || (rw.len > THREAD_ROW_MAX && rw.len <= WARP_ROW_MAX)) out->form = LOWER_ROW_WARP;
        else out->form = rw.len <= THREAD_ROW_MAX ? LOWER_ROW_THREAD : LOWER_RED_BLOCK;
        const int w = mm ? ROW_MM_WARPS : 8;
        if (out->form == LOWER_ROW_WARP) out->warps = w;
        out->block[0] = out->form == LOWER_ROW_THREAD ? ROW_THREADS
                        : out->form == LOWER_ROW_WARP ? 32u * (unsigned)w : reduce_block(rw.len);
        out->grid[0] = clamp_grid(out->form == LOWER_ROW_THREAD ? (rw.rows + ROW_THREADS - 1) / ROW_THREADS
                                  : out->form == LOWER_ROW_WARP ? (rw.rows + w - 1) / w : rw.rows, MAX_GRID_X);
        emit_row_free(&rw);
        return 0;
    }
    case STEP_GEMM: {
        EmitGemm gm;
        if (emit_gemm_info(g, st, &gm, d)) return -1;
        const int64_t elem = (int64_t)ir_dtype_size(N(g, gm.mm)->type.dtype);
        const TensorType *ta = &N(g, N(g, gm.mm)->in[0].id)->type;
        const bool sym = ir_type_symbolic(&N(g, gm.mm)->type) || ta->sym[ta->rank - 1];
        const bool blas = gemm_blas(tg, &gm, N(g, gm.mm)->type.dtype, sym, out->why_gemm, sizeof out->why_gemm);
        if (!blas && (gm.half[0] || gm.half[1])) { /* pass_bf16 asked the same cost model */
            diag_node(d, N(g, st->root), "internal: a product with a bfloat16 operand is not a cuBLASLt one (%s)",
                      out->why_gemm);
            return -1;
        }
        if (blas) {
            /* the epilogue kernel: a grid-stride loop over the product, as an elementwise step */
            out->form = LOWER_GEMM_BLAS;
            out->block[0] = EW_BLOCK;
            out->grid[0] = clamp_grid((gm.m * gm.n * gm.batch + EW_BLOCK - 1) / EW_BLOCK, (int64_t)EW_BLOCKS_PER_SM * tg->sms);
            return 0;
        }
        /* tf32 and bf16 policies: the products under the cuBLASLt threshold on TF32 tensor cores in
         * our kernel (bf16's products are at least as accurate this way) */
        const bool tc = N(g, gm.mm)->type.dtype == DT_FLOAT32 && tg->precision != PREC_FP32;
        if (gemm_tile(tg, &gm, elem, tc, out, N(g, st->root), d)) return -1;
        if (out->tf32) {
            size_t len = strlen(out->why_gemm);
            snprintf(out->why_gemm + len, sizeof out->why_gemm - len, "; TF32 tensor cores");
        }
        int64_t gx, gy = 1;
        unsigned threads = 256;
        if (out->form == LOWER_GEMM_SMALLK)
            gx = clamp_grid((gm.m * gm.n + EW_BLOCK - 1) / EW_BLOCK, (int64_t)EW_BLOCKS_PER_SM * tg->sms);
        else if (out->form != LOWER_GEMM_TILED) gx = (gm.m + 7) / 8;
        else {
            gx = (gm.m + out->bm - 1) / out->bm, gy = (gm.n + out->bn - 1) / out->bn;
            threads = (unsigned)(out->bm / out->tm * (out->bn / 4) * out->ks);
        }
        if (gx >= ((int64_t)1 << 31) || gy > 65535 || gm.batch > 65535) {
            diag_node(d, N(g, st->root), "matmul of %lld x %lld (batch %lld) exceeds the CUDA grid", (long long)gm.m,
                      (long long)gm.n, (long long)gm.batch);
            return -1;
        }
        out->block[0] = threads;
        out->own_sm = out->form == LOWER_GEMM_TILED;
        if (out->form == LOWER_GEMM_TILED) out->smem = gemm_smem(out, gm.sak == 1, gm.sbk == 1, elem);
        out->grid[0] = clamp_grid(gx, gx), out->grid[1] = clamp_grid(gy, gy), out->grid[2] = clamp_grid(gm.batch, gm.batch);
        return 0;
    }
    }
    return 0;
}

/* ---- the library GEMMs' product and scratch ------------------------------------------------------- */

/* The one node of step st that reads `v` (-1: none or several); *out: whether v is a step output. */
static NodeId only_reader(const Graph *g, const Step *st, NodeId v, bool *out) {
    NodeId r = -1;
    *out = false;
    for (int k = 0; k < st->nouts; k++) *out |= st->outs[k] == v;
    for (int i = 0; i < st->nnodes; i++) {
        const Node *nd = N(g, st->nodes[i]);
        for (int j = 0; j < nd->ninputs; j++)
            if (nd->in[j].id == v) {
                if (r >= 0 && r != st->nodes[i]) return -1;
                r = st->nodes[i];
            }
    }
    return r;
}

/* Whether step st's product is one float32 matrix (batch 1), as cuBLASLt's epilogues here take it;
 * fills gm. */
static bool one_f32_matrix(const Graph *g, const Step *st, EmitGemm *gm, Diag *d) {
    const Node *mm = N(g, st->root);
    return mm->type.dtype == DT_FLOAT32 && mm->type.rank == 2 && !emit_gemm_info(g, st, gm, d) && gm->batch == 1;
}

/* A plain SGD update of a weight gradient through cuBLASLt: w - lr * product (lr a constant or a
 * float scalar input; w float32 with the product's shape, in memory), the product and lr * product
 * read by nothing else, the difference with a buffer of its own (usually w's, donated). cuBLASLt
 * computes it as D = alpha A B + beta C with alpha = -lr, beta = 1, C = w and D the difference's
 * buffer, so the product never goes through the scratch: the 4k-wide step's three weight-gradient
 * steps wrote 64 MB of product and read it back with w, then wrote w. Its rounding is cuBLASLt's
 * (alpha * acc + C) where the kernel rounds lr * acc first: within the GPU suites' bounds, like the
 * product's own accumulation order. -1: none. */
static NodeId lib_update(const Graph *g, const Step *st, Diag *d) {
    const Node *mm = N(g, st->root);
    EmitGemm gm;
    bool out;
    if (!one_f32_matrix(g, st, &gm, d)) return -1;
    const NodeId mul = only_reader(g, st, st->root, &out);
    if (mul < 0 || out || N(g, mul)->op != OP_MUL || N(g, mul)->ninputs != 2) return -1;
    const Node *m = N(g, mul);
    const Operand lr = m->in[0].id == st->root ? m->in[1] : m->in[0];
    if (lr.id == st->root || (lr.id < 0 && !isfinite(lr.value)) ||
        (lr.id >= 0 && (g->plan->buf[lr.id].kind != BUF_SCALAR || N(g, lr.id)->type.dtype != DT_FLOAT32)))
        return -1;
    const NodeId sub = only_reader(g, st, mul, &out);
    if (sub < 0 || out || N(g, sub)->op != OP_SUB || N(g, sub)->ninputs != 2 || N(g, sub)->in[1].id != mul) return -1;
    const NodeId w = N(g, sub)->in[0].id;
    int slot;
    int64_t off;
    if (w < 0 || ir_type_symbolic(&N(g, w)->type) || !ir_type_equal(&N(g, w)->type, &mm->type) ||
        !ir_type_equal(&N(g, sub)->type, &mm->type) || g->plan->step_of[w] == (int)(st - g->plan->steps) ||
        plan_buf_slot(g, &g->plan->buf[w], &slot, &off) || plan_buf_slot(g, &g->plan->buf[sub], &slot, &off))
        return -1;
    return sub;
}

/* The add of a bias row to a cuBLASLt product that cuBLASLt's BIAS epilogue can apply as it writes
 * C: the product's only reader in the step, not an output itself; the bias float32 [N] or [1, N],
 * in memory, from an earlier step or the caller; one matrix (batch 1). The sum is the same float32
 * addition the kernel would do, and the kernel then starts from it: one pass over the product
 * less (the 4k-wide step's forward epilogues read, and wrote, 64 MB each for it). -1: none. */
static NodeId lib_bias(const Graph *g, const Step *st, Diag *d) {
    EmitGemm gm;
    bool out;
    if (!one_f32_matrix(g, st, &gm, d)) return -1;
    const NodeId add = only_reader(g, st, st->root, &out);
    if (add < 0 || out || N(g, add)->op != OP_ADD) return -1;
    const Node *a = N(g, add);
    if (a->ninputs != 2 || a->type.rank != 2 || a->type.dims[0] != gm.m || a->type.dims[1] != gm.n) return -1;
    const NodeId b = a->in[0].id == st->root ? a->in[1].id : a->in[0].id;
    if (b < 0 || b == st->root) return -1;
    const TensorType *bt = &N(g, b)->type;
    const bool row = (bt->rank == 1 && bt->dims[0] == gm.n) || (bt->rank == 2 && bt->dims[0] == 1 && bt->dims[1] == gm.n);
    if (bt->dtype != DT_FLOAT32 || !row || ir_type_symbolic(bt) || g->plan->step_of[b] == (int)(st - g->plan->steps)) return -1;
    int slot;
    int64_t off;
    return plan_buf_slot(g, &g->plan->buf[b], &slot, &off) ? -1 : add;
}

/* The relu of a cuBLASLt step's biased product that the RELU_BIAS epilogue applies too: the add's
 * only reader, the add not an output, and the relu's buffer the one the product goes to (gemm_out),
 * so the step keeps nothing but relu(A B + bias): in the 4k-wide step, each hidden layer's
 * forward kernel read the 64 MB sum and wrote its relu. cuBLASLt's relu is max(x, 0): a NaN sum
 * gives 0 there (ours keeps NaN) and -0 gives +0; the GPU suites compare within bounds. -1: none. */
static NodeId lib_relu(const Graph *g, const Step *st, NodeId add, NodeId gemm_out) {
    bool out;
    const NodeId r = add < 0 ? -1 : only_reader(g, st, add, &out);
    if (r < 0 || out || N(g, r)->op != OP_RELU || !ir_type_equal(&N(g, r)->type, &N(g, add)->type)) return -1;
    if (r == gemm_out) return r;
    const NodeId c = only_reader(g, st, r, &out); /* or the relu rounded to bfloat16 (lib_cast) */
    return c >= 0 && !out && N(g, c)->op == OP_CAST && N(g, c)->type.dtype == DT_BFLOAT16 ? r : -1;
}

/* The cast to bfloat16 that cuBLASLt can apply as it writes D (a bfloat16 D, fp32 accumulation,
 * the same round-to-nearest-even): of the product, its bias sum or their relu (`last`), that
 * value's only reader, the step's only output, in a buffer nothing else aliases. pass_bf16 stores
 * a hidden layer's activation this way: the product writes 2 bytes an element and no staging pass
 * rounds it for the next products. -1: none. */
static NodeId lib_cast(const Graph *g, const Step *st, NodeId last) {
    bool out;
    const NodeId c = only_reader(g, st, last, &out);
    if (c < 0 || out || N(g, c)->op != OP_CAST || N(g, c)->type.dtype != DT_BFLOAT16 || st->nouts != 1 ||
        st->outs[0] != c || N(g, last)->type.dtype != DT_FLOAT32 || ir_type_symbolic(&N(g, c)->type))
        return -1;
    const BufRef *b = &g->plan->buf[c];
    const bool fresh = b->kind == BUF_ARENA || (b->kind == BUF_OUTPUT && g->plan->output_alias && g->plan->output_alias[b->index] < 0);
    return fresh ? c : -1;
}

/* Where a library GEMM (cblas; cuBLASLt) writes its product: the matmul's own buffer, else an output of the step of the
 * same size and dtype that nothing else aliases (the epilogue reads each element before it
 * overwrites it), else (-1) the arena's scratch region. */
static NodeId gemm_out(const Graph *g, const Step *st) {
    const Plan *p = g->plan;
    const Node *mm = N(g, st->root);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < st->nouts; k++) {
            NodeId o = st->outs[k];
            const BufRef *b = &p->buf[o];
            if ((pass == 0) != (o == st->root)) continue;
            bool fresh = b->kind == BUF_ARENA || (b->kind == BUF_OUTPUT && p->output_alias && p->output_alias[b->index] < 0);
            if (fresh && N(g, o)->type.dtype == mm->type.dtype && ir_numel(&N(g, o)->type) == ir_numel(&mm->type))
                return o;
        }
    return -1;
}

/* ---- dependencies and argument slots -------------------------------------------------------------- */

/* A region of memory a step touches: an input's or an output's buffer (a donated output's is
 * its input's), or a byte range of the arena. */
typedef struct {
    int kind; /* 0 input, 1 output, 2 arena, 3 the communicator (all-reduce steps) */
    int64_t a, b;
} Region;

static int region_of(const Plan *p, NodeId n, Region *r) {
    const BufRef *br = &p->buf[n];
    switch (br->kind) {
    case BUF_INPUT: *r = (Region){0, br->index, br->index}; return 1;
    case BUF_OUTPUT:
        if (p->output_alias && p->output_alias[br->index] >= 0)
            *r = (Region){0, p->output_alias[br->index], p->output_alias[br->index]};
        else
            *r = (Region){1, br->index, br->index};
        return 1;
    case BUF_ARENA: *r = (Region){2, br->offset, br->offset + br->bytes - 1}; return 1;
    default: return 0;
    }
}

static bool regions_meet(const Region *x, int nx, const Region *y, int ny) {
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (x[i].kind == y[j].kind && x[i].a <= y[j].b && y[j].a <= x[i].b) return true;
    return false;
}

/* The regions a step reads (ins) or writes (outs, or a copy step's graph output). */
static int step_regions(const Graph *g, const Step *st, bool writes, Region **out) {
    const Plan *p = g->plan;
    const bool inplace = st->kind == STEP_ALLREDUCE; /* it writes what it reads */
    int n = writes && !inplace ? st->nouts : st->nins, k = 0;
    Region *r = calloc((size_t)n + 2, sizeof *r);
    if (!r) abort();
    for (int i = 0; i < n; i++) k += region_of(p, writes && !inplace ? st->outs[i] : st->ins[i], &r[k]);
    if (writes && st->kind == STEP_COPY && !st->nouts) {
        int j = st->copy_output, alias = p->output_alias ? p->output_alias[j] : -1;
        r[k++] = alias >= 0 ? (Region){0, alias, alias} : (Region){1, j, j};
    }
    /* a cuBLASLt step without a buffer for its product writes the shared scratch, then reads it */
    if (st->lower.form == LOWER_GEMM_BLAS && st->lower.gemm_out < 0 && p->scratch_off >= 0)
        r[k++] = (Region){2, p->scratch_off, p->scratch_off + p->scratch_bytes - 1};
    /* all-reduce steps run one after another: every rank must issue NCCL's collectives in the
     * same order, and two left side by side in a CUDA Graph could start in either */
    if (inplace) r[k++] = (Region){3, 0, 0};
    *out = r;
    return k;
}

uint64_t lower_input_writers(const Graph *g, int input) {
    const Plan *p = g->plan;
    uint64_t w = 0;
    const Region in = {0, input, input};
    if (p->nsteps > 64) return 0;
    for (int s = 0; s < p->nsteps; s++) {
        Region *r;
        int n = step_regions(g, &p->steps[s], true, &r);
        if (regions_meet(r, n, &in, 1)) w |= 1ull << s;
        free(r);
    }
    return w;
}

uint64_t lower_ancestors(const Plan *p, int s) {
    if (p->nsteps > 64 || s < 0 || s >= p->nsteps) return 0;
    uint64_t anc = p->steps[s].lower.after;
    for (int i = s - 1; i >= 0; i--)
        if ((anc >> i) & 1) anc |= p->steps[i].lower.after;
    return anc;
}

/* Each step's `after`: the earlier steps it conflicts with (read after write, write after read,
 * write after write), so the GPU graph may run independent steps side by side, less the edges
 * another implies (a step after 0 and 1, where 1 is after 0, keeps the edge from 1 only: waiting
 * for 1 covers 0, and on the H200 a kernel with two programmatic in-edges was not launched
 * early). Over 64 steps the masks cannot name them: all 0, and the executor runs them in order. */
static void lower_edges(const Graph *g, Plan *p) {
    const int n = p->nsteps;
    for (int s = 0; s < n; s++) p->steps[s].lower.after = 0;
    if (n > 64) return;
    Region *rd[64], *wr[64];
    int nr[64], nw[64];
    for (int s = 0; s < n; s++) {
        nr[s] = step_regions(g, &p->steps[s], false, &rd[s]);
        nw[s] = step_regions(g, &p->steps[s], true, &wr[s]);
    }
    for (int j = 0; j < n; j++) {
        uint64_t full = 0, implied = 0;
        for (int i = 0; i < j; i++)
            if (regions_meet(wr[i], nw[i], rd[j], nr[j]) || regions_meet(rd[i], nr[i], wr[j], nw[j]) ||
                regions_meet(wr[i], nw[i], wr[j], nw[j]))
                full |= (uint64_t)1 << i;
        for (int i = 0; i < j; i++) /* the earlier steps' edges are final: their ancestors are */
            if ((full >> i) & 1) implied |= lower_ancestors(p, i);
        p->steps[j].lower.after = full & ~implied;
    }
    for (int s = 0; s < n; s++) free(rd[s]), free(wr[s]);
}

/* The argument-block slots a step's kernel uses (RtPlanStep.uses): the pointers of the inputs
 * and outputs it reads or writes (a donated output's and its input's), the arena's, and the
 * scalars it reads. A value held nowhere the mask can name makes the step use every slot. */
static uint64_t slot_bit(int k) { return k < 63 ? (uint64_t)1 << k : (uint64_t)1 << 63; }

static uint64_t value_slots(const Graph *g, NodeId n) {
    const Plan *p = g->plan;
    const BufRef *br = &p->buf[n];
    const int np = g->ninputs + g->noutputs + 1;
    switch (br->kind) {
    case BUF_INPUT: return slot_bit(br->index);
    case BUF_SCALAR: return slot_bit(np + emit_scalar_slot(g, br->index));
    case BUF_ARENA: return slot_bit(np - 1);
    case BUF_OUTPUT: {
        int alias = p->output_alias ? p->output_alias[br->index] : -1;
        return slot_bit(g->ninputs + br->index) | (alias >= 0 ? slot_bit(alias) : 0);
    }
    default: return ~(uint64_t)0;
    }
}

/* The size slots of t's symbolic axes: a kernel over t (its loop counts, GEMM sizes, mean
 * divisors) reads them, so a run of another size must update its node (runtime/cuda). */
static uint64_t sym_slots(const Graph *g, const TensorType *t) {
    uint64_t u = 0;
    const int np = g->ninputs + g->noutputs + 1;
    for (int i = 0; i < t->rank; i++)
        if (t->sym[i]) u |= slot_bit(np + emit_sym_slot(g, t->sym[i]));
    return u;
}

static uint64_t step_uses(const Graph *g, const Step *st) {
    const Plan *p = g->plan;
    uint64_t u = slot_bit(g->ninputs + g->noutputs); /* the arena: scratch, GEMM products */
    for (int i = 0; i < st->nins; i++) u |= value_slots(g, st->ins[i]) | sym_slots(g, &N(g, st->ins[i])->type);
    for (int i = 0; i < st->nouts; i++) u |= value_slots(g, st->outs[i]) | sym_slots(g, &N(g, st->outs[i])->type);
    for (int i = 0; i < st->nnodes; i++) { /* a fused value's, and its operands' (a reduction's count) */
        const Node *nd = N(g, st->nodes[i]);
        u |= sym_slots(g, &nd->type);
        for (int k = 0; k < nd->ninputs; k++)
            if (nd->in[k].id >= 0) u |= sym_slots(g, &N(g, nd->in[k].id)->type);
    }
    if (st->kind == STEP_COPY && !st->nouts) {
        int j = st->copy_output, alias = p->output_alias ? p->output_alias[j] : -1;
        u |= slot_bit(g->ninputs + j) | (alias >= 0 ? slot_bit(alias) : 0);
    }
    return u;
}

/* ---- the pass ------------------------------------------------------------------------------------ */

int pass_lower(Graph *g, const Target *t, Diag *d) {
    Plan *p = g->plan;
    if (!p || !p->scheduled || !p->placed) {
        diag_at(d, NULL, "internal: lowering needs a placed plan (run the passes through memplan)");
        return -1;
    }
    if (!t) t = target_default();
    char perr[160];
    if (target_precision_check(t, perr, sizeof perr)) {
        diag_at(d, NULL, "%s", perr);
        return -1;
    }
    p->target = *t;
    p->lowered = false;
    int64_t scratch = 0;
    for (int s = 0; s < p->nsteps; s++) {
        Step *st = &p->steps[s];
        StepLower *l = &st->lower;
        memset(l, 0, sizeof *l);
        l->gemm_out = -1;
        if (lower_launch(g, t, st, l, d)) return -1;
        l->uses = step_uses(g, st);
        if (st->kind == STEP_GEMM && (l->gemm_out = gemm_out(g, st)) < 0) {
            const Node *mm = N(g, st->root);
            int64_t b = ir_numel(&mm->type) * (int64_t)ir_dtype_size(mm->type.dtype);
            if (b > scratch) scratch = b;
        }
        l->lib_bias = l->form == LOWER_GEMM_BLAS ? lib_bias(g, st, d) : -1;
        l->lib_relu = l->form == LOWER_GEMM_BLAS ? lib_relu(g, st, l->lib_bias, l->gemm_out) : -1;
        l->lib_update = l->form == LOWER_GEMM_BLAS && l->lib_bias < 0 ? lib_update(g, st, d) : -1;
        l->lib_cast = -1;
        if (l->form == LOWER_GEMM_BLAS && l->lib_update < 0 && one_f32_matrix(g, st, &(EmitGemm){0}, d)) {
            const NodeId last = l->lib_relu >= 0 ? l->lib_relu : l->lib_bias >= 0 ? l->lib_bias : st->root;
            if ((l->lib_cast = lib_cast(g, st, last)) < 0 && l->lib_relu >= 0 && l->lib_relu != l->gemm_out)
                l->lib_relu = -1; /* the relu only goes with its cast: our kernel applies both */
        }
        if (l->form == LOWER_GEMM_BLAS) {
            /* what cuBLASLt leaves, and where */
            const NodeId c = lower_blas_result(l, st->root);
            const NodeId where = l->lib_update >= 0 ? l->lib_update : l->lib_cast >= 0 ? l->lib_cast : l->gemm_out;
            for (int k = 0; k < st->nouts && !l->epilogue; k++)
                l->epilogue = !(st->outs[k] == c && where == c);
            if (l->lib_update >= 0) {
                size_t len = strlen(l->why_gemm);
                const Node *s = N(g, l->lib_update);
                snprintf(l->why_gemm + len, sizeof l->why_gemm - len, "; %s = %s - lr * product in cuBLASLt",
                         s->name, N(g, s->in[0].id)->name);
            }
            if (l->lib_bias >= 0) {
                size_t len = strlen(l->why_gemm);
                const Node *a = N(g, l->lib_bias);
                snprintf(l->why_gemm + len, sizeof l->why_gemm - len, "; add %s (bias %s)%s%s in cuBLASLt's epilogue",
                         a->name, N(g, a->in[0].id == st->root ? a->in[1].id : a->in[0].id)->name,
                         l->lib_relu >= 0 ? " and relu " : "", l->lib_relu >= 0 ? N(g, l->lib_relu)->name : "");
            }
            if (l->lib_cast >= 0) {
                size_t len = strlen(l->why_gemm);
                snprintf(l->why_gemm + len, sizeof l->why_gemm - len, "; %s written in bfloat16 by cuBLASLt (its D)",
                         N(g, l->lib_cast)->name);
            }
            for (int k = 0; k < 2; k++)
                if (st->gemm_half[k]) {
                    size_t len = strlen(l->why_gemm);
                    snprintf(l->why_gemm + len, sizeof l->why_gemm - len, "; %s read in bfloat16 as stored (no staging)",
                             N(g, st->gemm_in[k])->name);
                }
        }
    }
    p->scratch_off = scratch ? (p->arena_bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN : -1;
    p->scratch_bytes = scratch;
    lower_edges(g, p);
    /* The index-error word: gathers and scatters anywhere in the steps (inlined ones too). */
    free(p->checks);
    p->checks = NULL;
    p->nchecks = 0;
    for (int s = 0; s < p->nsteps; s++)
        for (int k = 0; k < p->steps[s].nnodes; k++) {
            NodeId id = p->steps[s].nodes[k];
            Op op = N(g, id)->op;
            if ((op == OP_GATHER || op == OP_SCATTER_ADD) && !plan_check_code(p, id)) {
                p->checks = realloc(p->checks, (size_t)(p->nchecks + 1) * sizeof *p->checks);
                if (!p->checks) abort();
                p->checks[p->nchecks++] = id;
            }
        }
    p->check_off = -1;
    if (p->nchecks) p->check_off = (plan_arena_total(p) + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    p->lowered = true;
    return 0;
}
