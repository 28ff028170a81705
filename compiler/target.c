/* compiler/target.c: the known GPU architectures as one literal table, parsing --target/--arch
 * names against it, and a Target from what a device reports (see target.h). */
#include <stdio.h>
#include <string.h>

#include "target.h"

/* One representative part per architecture (the JIT uses the device's own figures). */
static const struct {
    int cc;            /* compute capability, major * 10 + minor */
    int sms, smem_block, smem_sm, fp64_ratio, tensor_gen;
    const char *part;
} known[] = {
    {60, 56, 48 * 1024, 64 * 1024, 2, 0, "P100"},
    {61, 30, 48 * 1024, 96 * 1024, 32, 0, "P40"},
    {70, 80, 96 * 1024, 96 * 1024, 2, 1, "V100"},
    {72, 8, 96 * 1024, 96 * 1024, 32, 1, "Xavier"},
    {75, 40, 64 * 1024, 64 * 1024, 32, 2, "T4"},
    {80, 108, 163 * 1024, 164 * 1024, 2, 3, "A100"},
    {86, 82, 99 * 1024, 100 * 1024, 64, 3, "RTX 3090"},
    {87, 16, 163 * 1024, 164 * 1024, 32, 3, "Orin"},
    {89, 128, 99 * 1024, 100 * 1024, 64, 4, "RTX 4090"},
    {90, 132, 227 * 1024, 228 * 1024, 2, 4, "H200"},
    {100, 148, 227 * 1024, 228 * 1024, 2, 5, "B200"},
    {120, 170, 99 * 1024, 100 * 1024, 64, 5, "RTX 5090"},
};
#define NKNOWN ((int)(sizeof known / sizeof *known))

static void fill(Target *t, int k, int cc, char suffix) {
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "sm_%d%s", cc, suffix == 'a' ? "a" : suffix == 'f' ? "f" : "");
    t->cc_major = cc / 10, t->cc_minor = cc % 10;
    t->sms = known[k].sms;
    t->smem_block = known[k].smem_block;
    t->smem_sm = known[k].smem_sm;
    t->fp64_ratio = known[k].fp64_ratio;
    t->tensor_gen = known[k].tensor_gen;
}

static int find(int cc) {
    for (int k = 0; k < NKNOWN; k++)
        if (known[k].cc == cc) return k;
    return -1;
}

const Target *target_default(void) {
    static Target t;
    if (!t.sms) fill(&t, find(90), 90, 0);
    return &t;
}

/* "sm_" then two or three digits, then at most one of the suffixes 'a' (arch-specific) or 'f'
 * (family-specific); the number must be in the table. */
int target_parse(const char *s, Target *t, char *err, size_t errn) {
    if (!s || strncmp(s, "sm_", 3) != 0) goto bad;
    const char *p = s + 3;
    int cc = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 4) cc = cc * 10 + (*p++ - '0'), digits++;
    char suffix = 0;
    if (*p == 'a' || *p == 'f') suffix = *p++;
    if (digits < 2 || digits > 3 || *p) goto bad;
    int k = find(cc);
    if (k < 0) {
        int o = snprintf(err, errn, "'%.32s' is not an architecture gtc knows (known:", s);
        for (int i = 0; i < NKNOWN && o >= 0 && (size_t)o < errn; i++)
            o += snprintf(err + o, errn - (size_t)o, " sm_%d", known[i].cc);
        if (o >= 0 && (size_t)o < errn) snprintf(err + o, errn - (size_t)o, ")");
        return -1;
    }
    fill(t, k, cc, suffix);
    return 0;
bad:
    snprintf(err, errn, "'%.32s' is not an SM architecture such as sm_90 or sm_90a", s ? s : "");
    return -1;
}

int target_from_device(Target *t, int sms, int cc_major, int cc_minor, int smem_block, int smem_sm) {
    if (sms <= 0 || cc_major <= 0 || cc_minor < 0 || cc_minor > 9 || smem_block <= 0 || smem_sm <= 0) return -1;
    const int cc = cc_major * 10 + cc_minor;
    int k = 0; /* the closest known architecture at or below cc (the oldest when none is) */
    for (int i = 0; i < NKNOWN; i++)
        if (known[i].cc <= cc) k = i;
    fill(t, k, cc, 0);
    t->sms = sms;
    t->smem_block = smem_block;
    t->smem_sm = smem_sm;
    return 0;
}

void target_describe(const Target *t, char *buf, size_t n) {
    snprintf(buf, n, "%s (compute capability %d.%d), %d SMs, %d bytes of shared memory per block, %d per SM, "
                     "FP64 at 1/%d of FP32, tensor cores generation %d",
             t->name, t->cc_major, t->cc_minor, t->sms, t->smem_block, t->smem_sm, t->fp64_ratio, t->tensor_gen);
    size_t used = strlen(buf);
    if (t->precision != PREC_FP32 && used < n)
        snprintf(buf + used, n - used, "; products in %s", target_precision_name(t->precision));
}

const char *target_precision_name(int p) { return p == PREC_TF32 ? "tf32" : p == PREC_BF16 ? "bf16" : "fp32"; }

int target_precision_parse(const char *s, int *p, char *err, size_t errn) {
    static const struct { const char *name; int p; } names[] = {
        {"fp32", PREC_FP32}, {"tf32", PREC_TF32}, {"bf16", PREC_BF16},
        {"highest", PREC_FP32}, {"high", PREC_TF32}, {"medium", PREC_BF16}};
    for (size_t i = 0; s && i < sizeof names / sizeof *names; i++)
        if (strcmp(s, names[i].name) == 0) return *p = names[i].p, 0;
    snprintf(err, errn, "'%.40s' is not a precision (fp32, tf32 or bf16; or highest, high, medium)", s ? s : "");
    return -1;
}

int target_precision_check(const Target *t, char *err, size_t errn) {
    if (t->precision == PREC_FP32 || t->cc_major >= 8) return 0;
    snprintf(err, errn, "--precision=%s needs tensor cores of compute capability 8.0 or later; %s is %d.%d",
             target_precision_name(t->precision), t->name, t->cc_major, t->cc_minor);
    return -1;
}
