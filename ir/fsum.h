/* ir/fsum.h: the float32 sum of the CPU backend, one order for the eager ops (runtime/cpu) and
 * the generated CPU code (copied into every kernels_cpu.c), so both give the same bits.
 *
 * The order: the n elements (the reduced axes in index order) are cut into blocks of
 * GTC_FSUM_BLOCK; in a block, element i adds into lane i % GTC_FSUM_LANES (a float32 partial sum
 * from +0, in index order); the lanes fold pairwise by halves (lane j += lane j + w, w = 8, 4, 2,
 * 1); the block sums combine pairwise as a binary counter does (block b's sum is added to the
 * pending sum of the same level while b's bit is set, the later block on the right); at the end
 * the pending levels are added from the lowest (n <= GTC_FSUM_BLOCK: the one block's sum).
 * Nothing depends on a thread count or on the vector width: the lanes are explicit, so gcc
 * vectorises the block loops at any width with the same result. The worst-case error is about (BLOCK/LANES + log2(LANES) + log2(n/BLOCK)) eps
 * times the sum of |x| (20 + log2(n/256) here), not n eps as in one float32 chain.
 *
 * Forms, all the same order: gtc_fsum_block (one block from memory), the streaming state gtc_fsum
 * (values one at a time or in runs, through its block buffer), and the column form (W sums that
 * advance together: lanes as [LANES][ld] and levels as [LEVELS][ld] arrays, gtc_fsum_fold and
 * gtc_fsum_push over a row of W; loops over the columns vectorise). C only. */
#ifndef GTC_FSUM_H
#define GTC_FSUM_H

#include <stdint.h>

#define GTC_FSUM_LANES 16
#define GTC_FSUM_BLOCK 256
#define GTC_FSUM_LEVELS 56 /* 2^56 blocks of 256: more than an int64 index reaches */

/* Folds the lanes of n sums to lane 0 (lane j of sum c at l[j * ld + c]), pairwise by halves:
 * lane j += lane j + w for w = 8, 4, 2, 1 (GTC_FSUM_LANES is 16). The halves are written out with
 * constant counts, so that for one sum gcc folds in registers (a loop over w kept the lanes in
 * memory and made a softmax's row step over rows of 10 2.4x slower). */
#define GTC_FSUM_HALF(w)                                                                          \
    for (int j = 0; j < (w); j++)                                                                 \
        for (int64_t c = 0; c < n; c++) l[j * ld + c] += l[(j + (w)) * ld + c];
static inline void gtc_fsum_fold(float *l, int64_t ld, int64_t n) {
    GTC_FSUM_HALF(8) GTC_FSUM_HALF(4) GTC_FSUM_HALF(2) GTC_FSUM_HALF(1)
}
#undef GTC_FSUM_HALF

/* The sum of one block, x[0..n) with n <= GTC_FSUM_BLOCK. */
static inline float gtc_fsum_block(const float *x, int64_t n) {
    float l[GTC_FSUM_LANES] = {0};
    int64_t i = 0;
    for (; i + GTC_FSUM_LANES <= n; i += GTC_FSUM_LANES)
        for (int j = 0; j < GTC_FSUM_LANES; j++) l[j] += x[i + j];
    for (int j = 0; i + j < n; j++) l[j] += x[i + j];
    gtc_fsum_fold(l, 1, 1);
    return l[0];
}

/* Adds block number b's sums t[0..n) into the pending levels lv ([LEVELS][ld]) of n sums; t is
 * clobbered. */
static inline void gtc_fsum_push(float *lv, int64_t ld, uint64_t b, float *t, int64_t n) {
    int k = 0;
    for (; b & 1; b >>= 1, k++)
        for (int64_t c = 0; c < n; c++) t[c] = lv[k * ld + c] + t[c];
    for (int64_t c = 0; c < n; c++) lv[k * ld + c] = t[c];
}

/* Ends a block of n column sums kept in lanes l (lane j of sum c at l[j * ld + c]): folds the
 * lanes, pushes the block's sums into the levels lv as block number *nb (then counted), and
 * clears the lanes for the next block. The eager column sums and the generated ones alike. */
static inline void gtc_fsum_cols_block(float *l, float *lv, int64_t ld, uint64_t *nb, int64_t n) {
    gtc_fsum_fold(l, ld, n);
    gtc_fsum_push(lv, ld, (*nb)++, l, n);
    for (int j = 0; j < GTC_FSUM_LANES; j++)
        for (int64_t c = 0; c < n; c++) l[j * ld + c] = 0.0f;
}

/* The n sums, into r[0..n), after nb blocks were pushed (0 when none): the pending levels added
 * from the lowest, so that one block's sum is its block's value as it is. */
static inline void gtc_fsum_result(const float *lv, int64_t ld, uint64_t nb, float *r, int64_t n) {
    int k = 0;
    if (!nb) {
        for (int64_t c = 0; c < n; c++) r[c] = 0.0f;
        return;
    }
    while (!((nb >> k) & 1)) k++;
    for (int64_t c = 0; c < n; c++) r[c] = lv[k * ld + c];
    for (k++; (nb >> k) != 0; k++)
        if ((nb >> k) & 1)
            for (int64_t c = 0; c < n; c++) r[c] = lv[k * ld + c] + r[c];
}

/* One sum fed in order: values through `buf`, a block at a time. */
typedef struct {
    uint64_t nb; /* blocks pushed */
    int pos;     /* values in buf */
    float buf[GTC_FSUM_BLOCK];
    float lv[GTC_FSUM_LEVELS];
} gtc_fsum;

static inline void gtc_fsum_init(gtc_fsum *f) { f->nb = 0, f->pos = 0; }

/* Pushes the buffered values as one block (the last one may be short). */
static inline void gtc_fsum_flush(gtc_fsum *f) {
    if (!f->pos) return;
    float t = gtc_fsum_block(f->buf, f->pos);
    gtc_fsum_push(f->lv, 1, f->nb++, &t, 1);
    f->pos = 0;
}

static inline void gtc_fsum_put(gtc_fsum *f, float v) {
    f->buf[f->pos++] = v;
    if (f->pos == GTC_FSUM_BLOCK) gtc_fsum_flush(f);
}

/* Feeds x[0], x[s], ... x[(n-1)s]: whole blocks straight from memory when contiguous. */
static inline void gtc_fsum_add(gtc_fsum *f, const float *x, int64_t n, int64_t s) {
    while (n > 0) {
        int64_t m = GTC_FSUM_BLOCK - f->pos < n ? GTC_FSUM_BLOCK - f->pos : n;
        if (s == 1 && m == GTC_FSUM_BLOCK) {
            float t = gtc_fsum_block(x, m);
            gtc_fsum_push(f->lv, 1, f->nb++, &t, 1);
        } else {
            for (int64_t i = 0; i < m; i++) f->buf[f->pos + i] = x[i * s];
            f->pos += (int)m;
            if (f->pos == GTC_FSUM_BLOCK) gtc_fsum_flush(f);
        }
        x += m * s, n -= m;
    }
}

static inline float gtc_fsum_end(gtc_fsum *f) {
    float r;
    gtc_fsum_flush(f);
    gtc_fsum_result(f->lv, 1, f->nb, &r, 1);
    return r;
}

#endif
