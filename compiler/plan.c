/* compiler/plan.c: the plan's lifetime and construction helpers, and plan_print: the plan as text
 * (`gtc plan`, `gtc dump --after=fuse`), as JSON (cJSON, fixed key order) and as Graphviz dot.
 * All three are deterministic: the same graph prints the same bytes. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"

Plan *plan_new(int nnodes) {
    Plan *p = xcalloc(1, sizeof *p);
    p->nnodes = nnodes;
    p->step_of = xcalloc((size_t)nnodes, sizeof *p->step_of);
    p->buf = xcalloc((size_t)nnodes, sizeof *p->buf);
    p->why = xcalloc((size_t)nnodes, sizeof *p->why);
    for (int i = 0; i < nnodes; i++) p->step_of[i] = -1;
    p->scratch_off = -1;
    p->check_off = -1;
    snprintf(p->sym, sizeof p->sym, "gtc");
    return p;
}

void plan_free(struct Plan *p) {
    if (!p) return;
    for (int i = 0; i < p->nsteps; i++) {
        free(p->steps[i].nodes);
        free(p->steps[i].ins);
        free(p->steps[i].outs);
    }
    free(p->checks);
    free(p->dist);
    for (int i = 0; i < p->nnodes; i++) free(p->why[i]);
    free(p->steps);
    free(p->step_of);
    free(p->buf);
    free(p->why);
    free(p->output_alias);
    free(p);
}

void plan_attach(Graph *g, Plan *p) {
    if (g->plan && g->free_plan) g->free_plan(g->plan);
    g->plan = p;
    g->free_plan = plan_free;
}

void plan_why(Plan *p, NodeId id, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(p->why[id]);
    p->why[id] = strdup(buf);
    if (!p->why[id]) abort();
}

Step *plan_add_step(Plan *p, StepKind kind, NodeId root) {
    if ((p->nsteps & (p->nsteps - 1)) == 0) { /* doubling at powers of two (a Step is large) */
        p->steps = realloc(p->steps, (size_t)(p->nsteps ? 2 * p->nsteps : 1) * sizeof *p->steps);
        if (!p->steps) abort();
    }
    Step *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->root = root;
    s->gemm_in[0] = s->gemm_in[1] = -1;
    s->row_pro.mm = s->row_epi.mm = -1;
    s->copy_output = -1;
    s->lower.gemm_out = -1;
    return s;
}

bool step_has(const NodeId *arr, int n, NodeId id) {
    for (int i = 0; i < n; i++)
        if (arr[i] == id) return true;
    return false;
}

void step_push(NodeId **arr, int *n, NodeId id) {
    if (step_has(*arr, *n, id)) return;
    *arr = realloc(*arr, (size_t)(*n + 1) * sizeof **arr);
    if (!*arr) abort();
    (*arr)[(*n)++] = id;
}

const char *plan_step_kind_name(StepKind k) {
    static const char *const names[] = {"elementwise", "reduce", "row", "gemm", "copy", "allreduce"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

int plan_output_of(const Graph *g, NodeId v) {
    for (int i = 0; i < g->noutputs; i++)
        if (g->outputs[i].value == v) return i;
    return -1;
}

int plan_buf_slot(const Graph *g, const BufRef *b, int *slot, int64_t *off) {
    *off = 0;
    switch (b->kind) {
    case BUF_INPUT: *slot = b->index; return 0;
    case BUF_OUTPUT: *slot = g->ninputs + b->index; return 0; /* a donated output's slot holds its input's */
    case BUF_ARENA:
        if (b->offset < 0) return -1;
        *slot = g->ninputs + g->noutputs, *off = b->offset;
        return 0;
    default: return -1;
    }
}

int64_t plan_arena_total(const Plan *p) {
    if (p->check_off >= 0) return p->check_off + 16;
    return p->scratch_off >= 0 ? p->scratch_off + p->scratch_bytes : p->arena_bytes;
}

int plan_check_code(const Plan *p, NodeId id) {
    for (int i = 0; i < p->nchecks; i++)
        if (p->checks[i] == id) return i + 1;
    return 0;
}

int plan_allreduce_range(const Graph *g, const Step *st, int64_t *off, int64_t *count, DType *dt) {
    const Plan *p = g->plan;
    if (st->kind != STEP_ALLREDUCE || !st->nins) return -1;
    *dt = g->nodes[st->ins[0]].type.dtype;
    int64_t a = -1, b = -1, size = (int64_t)ir_dtype_size(*dt);
    for (int k = 0; k < st->nins; k++) {
        const BufRef *r = &p->buf[st->ins[k]];
        if (r->kind != BUF_ARENA || r->offset < 0 || g->nodes[st->ins[k]].type.dtype != *dt) return -1;
        if (b >= 0 && r->offset != (b + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN) return -1; /* packed in order */
        if (a < 0) a = r->offset;
        b = r->offset + r->bytes;
    }
    *off = a, *count = (b - a) / size;
    return (b - a) % size ? -1 : 0;
}

/* ---- shared pieces of the three formats ------------------------------------------------------ */

typedef struct {
    int steps, kinds[STEP_ALLREDUCE + 1], ops, kernels, reductions;
} Totals;

static Totals totals(const Graph *g) {
    const Plan *p = g->plan;
    Totals t = {0};
    t.steps = p->nsteps;
    for (int i = 0; i < p->nsteps; i++) {
        const Step *s = &p->steps[i];
        t.kinds[s->kind]++;
        for (int k = 0; k < s->nnodes; k++)
            if (ir_ops[g->nodes[s->nodes[k]].op].kind != K_SOURCE) t.ops++;
        if (s->kind == STEP_ELEMWISE || s->kind == STEP_REDUCE || s->kind == STEP_ROW) t.kernels++;
        if (s->kind == STEP_REDUCE || s->kind == STEP_ROW) t.reductions++;
    }
    return t;
}

/* Where a value lives, in words: "input 0", "arena [0,256)", "output 2 in place of w2". */
static char *buf_str(const Graph *g, const BufRef *b, char *out, size_t n) {
    const Plan *p = g->plan;
    switch (b->kind) {
    case BUF_NONE: snprintf(out, n, "not materialised"); break;
    case BUF_INPUT: snprintf(out, n, "input %d", b->index); break;
    case BUF_SCALAR: snprintf(out, n, "scalar input %d", b->index); break;
    case BUF_OUTPUT:
        if (p->output_alias && p->output_alias[b->index] >= 0) {
            const char *in = "?";
            for (int i = 0; i < g->nnodes; i++)
                if (g->nodes[i].op == OP_INPUT && g->nodes[i].input_index == p->output_alias[b->index])
                    in = g->nodes[i].name;
            snprintf(out, n, "output %d in place of %s", b->index, in);
        } else {
            snprintf(out, n, "output %d", b->index);
        }
        break;
    case BUF_ARENA:
        if (b->offset < 0) snprintf(out, n, "materialised (not placed)");
        else snprintf(out, n, "arena [%lld,%lld)", (long long)b->offset, (long long)(b->offset + b->bytes));
        break;
    }
    return out;
}

static char *type_str(const Node *nd, char *out, size_t n) {
    char shape[256];
    snprintf(out, n, "%s%s", ir_dtype_short(nd->type.dtype), ir_shape_str(&nd->type, shape, sizeof shape));
    return out;
}

/* Per node, the steps that compute it (CSR: off[id]..off[id+1] in list), built once per print. */
typedef struct {
    int *off, *list;
} StepIndex;

static StepIndex step_index(const Plan *p) {
    StepIndex x;
    x.off = calloc((size_t)p->nnodes + 1, sizeof *x.off);
    int total = 0;
    for (int i = 0; i < p->nsteps; i++) total += p->steps[i].nnodes;
    x.list = malloc(((size_t)total + 1) * sizeof *x.list);
    int *fill = calloc((size_t)p->nnodes + 1, sizeof *fill);
    if (!x.off || !x.list || !fill) abort();
    for (int i = 0; i < p->nsteps; i++)
        for (int k = 0; k < p->steps[i].nnodes; k++) x.off[p->steps[i].nodes[k] + 1]++;
    for (int i = 0; i < p->nnodes; i++) x.off[i + 1] += x.off[i];
    for (int i = 0; i < p->nsteps; i++)
        for (int k = 0; k < p->steps[i].nnodes; k++) {
            NodeId id = p->steps[i].nodes[k];
            x.list[x.off[id] + fill[id]++] = i;
        }
    free(fill);
    return x;
}

static void step_index_free(StepIndex *x) {
    free(x->off);
    free(x->list);
}

/* The steps that compute node id, as "s0" or "s1,s4"; "-" for none. */
static char *steps_of(const StepIndex *x, NodeId id, char *out, size_t n) {
    size_t o = 0;
    out[0] = 0;
    for (int k = x->off[id]; k < x->off[id + 1] && o + 12 < n; k++)
        o += (size_t)snprintf(out + o, n - o, "%ss%d", o ? "," : "", x->list[k]);
    if (!o) snprintf(out, n, "-");
    return out;
}

/* A step's one-line headline: "gemm a1^T @ dlogits", "row over [512,2]", "copy to output 1". */
static char *headline(const Graph *g, const Step *s, char *out, size_t n) {
    char shape[256];
    const Node *r = &g->nodes[s->root];
    switch (s->kind) {
    case STEP_GEMM:
        snprintf(out, n, "gemm %s%s @ %s%s -> %s", g->nodes[s->gemm_in[0]].name, s->gemm_trans[0] ? "^T" : "",
                 g->nodes[s->gemm_in[1]].name, s->gemm_trans[1] ? "^T" : "", ir_graph_shape_str(g, &r->type, shape, sizeof shape));
        break;
    case STEP_COPY:
        snprintf(out, n, "copy %s -> output %d (%s)", s->nins ? g->nodes[s->ins[0]].name : r->name, s->copy_output,
                 g->outputs[s->copy_output].name);
        break;
    case STEP_REDUCE: case STEP_ROW: {
        const Node *in = r->in[0].id >= 0 ? &g->nodes[r->in[0].id] : r;
        int o = snprintf(out, n, "%s %s over %s", plan_step_kind_name(s->kind), r->name,
                         ir_graph_shape_str(g, &in->type, shape, sizeof shape));
        const StepMatmul *mm[2] = {&s->row_pro, &s->row_epi};
        for (int k = 0; k < 2; k++)
            if (mm[k]->mm >= 0 && o >= 0 && (size_t)o < n)
                o += snprintf(out + o, n - (size_t)o, "%s %s%s @ %s%s", k ? ", epilogue" : ", prologue",
                              g->nodes[mm[k]->in[0]].name, mm[k]->trans[0] ? "^T" : "", g->nodes[mm[k]->in[1]].name,
                              mm[k]->trans[1] ? "^T" : "");
        break;
    }
    case STEP_ELEMWISE:
        snprintf(out, n, "elementwise over %s", ir_graph_shape_str(g, &r->type, shape, sizeof shape));
        break;
    case STEP_ALLREDUCE: {
        int64_t bytes = 0;
        int o = snprintf(out, n, "allreduce bucket %d: grads ", s->bucket);
        for (int k = 0; k < s->nins && o >= 0 && (size_t)o < n; k++) {
            o += snprintf(out + o, n - (size_t)o, "%s%s", k ? "," : "", g->nodes[s->ins[k]].name);
            bytes += g->plan->buf[s->ins[k]].bytes;
        }
        if (o >= 0 && (size_t)o < n) snprintf(out + o, n - (size_t)o, ", %lld bytes", (long long)bytes);
        break;
    }
    }
    return out;
}

/* The kernel form pass_lower chose, in words: "tiled gemm 32x32 tm8 ks8 bk64 st4". */
static char *form_str(const StepLower *l, char *out, size_t n) {
    static const char *const names[] = {"-", "grid-stride", "block per output", "8 columns per block", "warp per row",
                                        "thread per row", "tiled gemm", "skinny gemm", "skinny gemm (A transposed)",
                                        "small-K gemm", "cuBLASLt gemm, grid-stride epilogue"};
    if (l->form == LOWER_GEMM_TILED)
        snprintf(out, n, "%s %dx%d tm%d ks%d bk%d st%d%s", names[l->form], l->bm, l->bn, l->tm, l->ks, l->bk, l->nst,
                 l->tf32 ? " tf32 mma" : "");
    else if (l->form == LOWER_ROW_WARP)
        snprintf(out, n, "%s (%d per block)", names[l->form], l->warps);
    else
        snprintf(out, n, "%s", (unsigned)l->form < sizeof names / sizeof *names ? names[l->form] : "?");
    return out;
}

static const char *form_key(LowerForm f) {
    static const char *const keys[] = {"none", "grid", "red_block", "red_cols", "row_warp", "row_thread",
                                       "gemm_tiled", "gemm_skinny", "gemm_skinny_t", "gemm_smallk", "gemm_blas"};
    return (unsigned)f < sizeof keys / sizeof *keys ? keys[f] : "?";
}

/* The lowering lines of step i (text): its kernel and launch, then its edges and argument slots. */
static void print_lower_text(const Graph *g, int i, FILE *f) {
    const Plan *p = g->plan;
    const StepLower *l = &p->steps[i].lower;
    char a[256];
    int64_t aoff, acount;
    DType adt;
    if (p->steps[i].kind == STEP_ALLREDUCE && !plan_allreduce_range(g, &p->steps[i], &aoff, &acount, &adt))
        fprintf(f, "  collective: the mean over ranks of %lld %s at arena [%lld,%lld) (NCCL in the CUDA Graph once "
                "Cuda\\Distributed::init() joined a world; nothing otherwise)", (long long)acount, ir_dtype_name(adt),
                (long long)aoff, (long long)(aoff + acount * (int64_t)ir_dtype_size(adt)));
    else
        fprintf(f, "  kernel: %s; grid %u x %u x %u, block %u, shared memory %u bytes%s", form_str(l, a, sizeof a), l->grid[0],
                l->grid[1], l->grid[2], l->block[0], l->smem, l->own_sm ? ", own SM" : "");
    if (p->steps[i].kind == STEP_GEMM)
        fprintf(f, "; %s product in %s\n  gemm: %s", l->form == LOWER_GEMM_BLAS ? "library (cblas, cuBLASLt)" : "CPU",
                l->gemm_out >= 0 ? g->nodes[l->gemm_out].name : "scratch", l->why_gemm);
    fputs("\n  after: ", f);
    int n = 0;
    for (int k = 0; k < 64 && k < i; k++)
        if ((l->after >> k) & 1) fprintf(f, "%ss%d", n++ ? ", " : "", k);
    if (!n) fputs(p->nsteps > 64 ? "(in order: over 64 steps)" : "-", f);
    const int np = g->ninputs + g->noutputs + 1;
    fputs("; uses:", f);
    for (int k = 0; k < 64; k++)
        if ((l->uses >> k) & 1) {
            if (k == 63) fputs(" p63+", f);
            else if (k < np) fprintf(f, " p%d", k);
            else fprintf(f, " s%d", k - np);
        }
    fputc('\n', f);
}

/* ---- text --------------------------------------------------------------------------------- */

static void print_text(const Graph *g, FILE *f) {
    const Plan *p = g->plan;
    char a[512], b[512], c[512];
    fprintf(f, "plan %s: %d step%s%s%s\n", g->name, p->nsteps, p->nsteps == 1 ? "" : "s", p->scheduled ? "" : " (not scheduled)",
            p->placed ? "" : " (buffers not placed)");
    if (p->lowered) {
        target_describe(&p->target, a, sizeof a);
        fprintf(f, "target: %s\n", a);
    }
    for (int i = 0; i < p->nsteps; i++) {
        const Step *s = &p->steps[i];
        fprintf(f, "step %d: %s\n  ops: ", i, headline(g, s, a, sizeof a));
        for (int k = 0; k < s->nnodes; k++) {
            const Node *nd = &g->nodes[s->nodes[k]];
            fprintf(f, "%s%s %s", k ? ", " : "", ir_ops[nd->op].name, nd->name);
        }
        if (!s->nnodes) fputs("-", f);
        fputs("\n  in: ", f);
        for (int k = 0; k < s->nins; k++)
            fprintf(f, "%s%s (%s)", k ? ", " : "", g->nodes[s->ins[k]].name, buf_str(g, &p->buf[s->ins[k]], a, sizeof a));
        if (!s->nins) fputs("-", f);
        fputs("\n  out: ", f);
        for (int k = 0; k < s->nouts; k++) {
            const Node *nd = &g->nodes[s->outs[k]];
            fprintf(f, "%s%s %s (%s)", k ? ", " : "", nd->name, type_str(nd, b, sizeof b),
                    buf_str(g, &p->buf[s->outs[k]], a, sizeof a));
        }
        if (s->kind == STEP_COPY && s->nouts == 0) {
            BufRef dst = {BUF_OUTPUT, s->copy_output, 0, 0};
            fprintf(f, "%s (%s)", g->outputs[s->copy_output].name, buf_str(g, &dst, a, sizeof a));
        } else if (!s->nouts) {
            fputs("-", f);
        }
        fputc('\n', f);
        if (p->lowered) print_lower_text(g, i, f);
        fprintf(f, "  why: %s\n", s->reason);
    }
    int w = 4;
    for (int i = 0; i < g->nnodes && i < p->nnodes; i++) {
        int len = (int)strlen(g->nodes[i].name);
        if (len > w) w = len;
    }
    fprintf(f, "values:\n");
    StepIndex x = step_index(p);
    for (int i = 0; i < g->nnodes && i < p->nnodes; i++) {
        const Node *nd = &g->nodes[i];
        fprintf(f, "  %-*s %-14s %-7s %-24s %s\n", w, nd->name, type_str(nd, a, sizeof a), steps_of(&x, i, c, sizeof c),
                buf_str(g, &p->buf[i], b, sizeof b), p->why[i] ? p->why[i] : "");
    }
    step_index_free(&x);
    if (p->lowered && p->scratch_off >= 0)
        fprintf(f, "scratch: arena [%lld,%lld) for the library GEMMs (cblas, cuBLASLt) whose product has no buffer of its own\n",
                (long long)p->scratch_off, (long long)(p->scratch_off + p->scratch_bytes));
    if (p->lowered && p->check_off >= 0) {
        fprintf(f, "checks: arena [%lld,%lld) flags an index out of range in", (long long)p->check_off,
                (long long)(p->check_off + 16));
        for (int i = 0; i < p->nchecks; i++) fprintf(f, " %s", g->nodes[p->checks[i]].name);
        fprintf(f, " (run() fails after the replay)\n");
    }
    Totals t = totals(g);
    fprintf(f, "totals: steps %d (gemm %d, row %d, reduce %d, elementwise %d, copy %d), fused kernels %d, "
               "gemms %d, reductions %d, ops %d, arena %lld bytes\n",
            t.steps, t.kinds[STEP_GEMM], t.kinds[STEP_ROW], t.kinds[STEP_REDUCE], t.kinds[STEP_ELEMWISE],
            t.kinds[STEP_COPY], t.kernels, t.kinds[STEP_GEMM], t.reductions, t.ops, (long long)p->arena_bytes);
    if (t.kinds[STEP_ALLREDUCE])
        fprintf(f, "data-parallel: %d gradient%s averaged across ranks in %d allreduce step%s (buckets of up to %lld bytes)\n",
                p->ndist, p->ndist == 1 ? "" : "s", t.kinds[STEP_ALLREDUCE], t.kinds[STEP_ALLREDUCE] == 1 ? "" : "s",
                (long long)PLAN_BUCKET_BYTES);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static const char *buf_kind_name(BufKind k) {
    static const char *const names[] = {"none", "input", "output", "arena", "scalar"};
    return names[k];
}

static cJSON *json_buf(const Plan *p, const BufRef *b) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", buf_kind_name(b->kind));
    if (b->kind == BUF_INPUT || b->kind == BUF_OUTPUT || b->kind == BUF_SCALAR)
        cJSON_AddNumberToObject(o, "index", b->index);
    if (b->kind == BUF_OUTPUT && p->output_alias && p->output_alias[b->index] >= 0)
        cJSON_AddNumberToObject(o, "reuses_input", p->output_alias[b->index]);
    if (b->kind == BUF_ARENA && b->offset >= 0) cJSON_AddNumberToObject(o, "offset", (double)b->offset);
    if (b->kind != BUF_NONE) cJSON_AddNumberToObject(o, "bytes", (double)b->bytes);
    return o;
}

static cJSON *json_values(const Graph *g, const Plan *p, const NodeId *ids, int n, bool with_buf) {
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", g->nodes[ids[k]].name);
        if (with_buf) cJSON_AddItemToObject(o, "buffer", json_buf(p, &p->buf[ids[k]]));
        else cJSON_AddStringToObject(o, "op", g->nodes[ids[k]].op == OP_INPUT ? "input" : ir_ops[g->nodes[ids[k]].op].name);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *json_uvec(const unsigned v[3]) {
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < 3; k++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[k]));
    return a;
}

/* Step i's lowering: kernel form, tile, launch, shared memory, own_sm, edges, argument slots. */
static cJSON *json_lower(const Graph *g, int i) {
    const Plan *p = g->plan;
    const StepLower *l = &p->steps[i].lower;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "form", form_key(l->form));
    if (l->form == LOWER_GEMM_TILED) {
        cJSON *t = cJSON_AddObjectToObject(o, "tile");
        cJSON_AddNumberToObject(t, "bm", l->bm);
        cJSON_AddNumberToObject(t, "bn", l->bn);
        cJSON_AddNumberToObject(t, "tm", l->tm);
        cJSON_AddNumberToObject(t, "ks", l->ks);
        cJSON_AddNumberToObject(t, "bk", l->bk);
        cJSON_AddNumberToObject(t, "nst", l->nst);
        if (l->tf32) cJSON_AddBoolToObject(t, "tf32", true);
    }
    if (l->form == LOWER_ROW_WARP) cJSON_AddNumberToObject(o, "rows_per_block", l->warps);
    cJSON_AddItemToObject(o, "grid", json_uvec(l->grid));
    cJSON_AddItemToObject(o, "block", json_uvec(l->block));
    cJSON_AddNumberToObject(o, "smem", l->smem);
    cJSON_AddBoolToObject(o, "own_sm", l->own_sm);
    if (p->steps[i].kind == STEP_GEMM) {
        if (l->gemm_out >= 0) cJSON_AddStringToObject(o, "cpu_product", g->nodes[l->gemm_out].name);
        else cJSON_AddStringToObject(o, "cpu_product", "scratch");
        cJSON_AddStringToObject(o, "gemm_choice", l->why_gemm);
        if (l->form == LOWER_GEMM_BLAS) cJSON_AddBoolToObject(o, "epilogue", l->epilogue);
    }
    cJSON *after = cJSON_AddArrayToObject(o, "after");
    for (int k = 0; k < 64 && k < i; k++)
        if ((l->after >> k) & 1) cJSON_AddItemToArray(after, cJSON_CreateNumber(k));
    cJSON *uses = cJSON_AddArrayToObject(o, "uses");
    for (int k = 0; k < 64; k++)
        if ((l->uses >> k) & 1) cJSON_AddItemToArray(uses, cJSON_CreateNumber(k));
    return o;
}

static void print_json(const Graph *g, FILE *f) {
    const Plan *p = g->plan;
    char a[512];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "format", "gtc-plan");
    cJSON_AddNumberToObject(j, "version", 1);
    cJSON_AddStringToObject(j, "graph", g->name);
    cJSON_AddBoolToObject(j, "scheduled", p->scheduled);
    cJSON_AddBoolToObject(j, "placed", p->placed);
    cJSON_AddBoolToObject(j, "lowered", p->lowered);
    if (p->lowered) {
        const Target *t = &p->target;
        cJSON *to = cJSON_AddObjectToObject(j, "target");
        cJSON_AddStringToObject(to, "name", t->name);
        cJSON_AddNumberToObject(to, "cc_major", t->cc_major);
        cJSON_AddNumberToObject(to, "cc_minor", t->cc_minor);
        cJSON_AddNumberToObject(to, "sms", t->sms);
        cJSON_AddNumberToObject(to, "smem_per_block", t->smem_block);
        cJSON_AddNumberToObject(to, "smem_per_sm", t->smem_sm);
        cJSON_AddNumberToObject(to, "fp64_ratio", t->fp64_ratio);
        cJSON_AddNumberToObject(to, "tensor_core_gen", t->tensor_gen);
        cJSON_AddStringToObject(to, "precision", target_precision_name(t->precision));
    }
    cJSON *steps = cJSON_AddArrayToObject(j, "steps");
    for (int i = 0; i < p->nsteps; i++) {
        const Step *s = &p->steps[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", i);
        cJSON_AddStringToObject(o, "kind", plan_step_kind_name(s->kind));
        cJSON_AddStringToObject(o, "root", g->nodes[s->root].name);
        cJSON_AddItemToObject(o, "ops", json_values(g, p, s->nodes, s->nnodes, false));
        cJSON_AddItemToObject(o, "inputs", json_values(g, p, s->ins, s->nins, true));
        cJSON_AddItemToObject(o, "outputs", json_values(g, p, s->outs, s->nouts, true));
        if (s->kind == STEP_GEMM) {
            cJSON *m = cJSON_AddObjectToObject(o, "gemm");
            cJSON_AddStringToObject(m, "a", g->nodes[s->gemm_in[0]].name);
            cJSON_AddBoolToObject(m, "trans_a", s->gemm_trans[0]);
            cJSON_AddStringToObject(m, "b", g->nodes[s->gemm_in[1]].name);
            cJSON_AddBoolToObject(m, "trans_b", s->gemm_trans[1]);
        }
        const StepMatmul *rm[2] = {&s->row_pro, &s->row_epi};
        for (int k = 0; k < 2; k++) {
            if (s->kind != STEP_ROW || rm[k]->mm < 0) continue;
            cJSON *m = cJSON_AddObjectToObject(o, k ? "row_epilogue" : "row_prologue");
            cJSON_AddStringToObject(m, "matmul", g->nodes[rm[k]->mm].name);
            cJSON_AddStringToObject(m, "a", g->nodes[rm[k]->in[0]].name);
            cJSON_AddBoolToObject(m, "trans_a", rm[k]->trans[0]);
            cJSON_AddStringToObject(m, "b", g->nodes[rm[k]->in[1]].name);
            cJSON_AddBoolToObject(m, "trans_b", rm[k]->trans[1]);
        }
        if (s->kind == STEP_COPY) cJSON_AddNumberToObject(o, "copy_output", s->copy_output);
        if (p->lowered) cJSON_AddItemToObject(o, "lower", json_lower(g, i));
        cJSON_AddStringToObject(o, "reason", s->reason);
        cJSON_AddItemToArray(steps, o);
    }
    cJSON *vals = cJSON_AddArrayToObject(j, "values");
    StepIndex x = step_index(p);
    for (int i = 0; i < g->nnodes && i < p->nnodes; i++) {
        const Node *nd = &g->nodes[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", nd->name);
        cJSON_AddStringToObject(o, "op", nd->op == OP_INPUT ? "input" : ir_ops[nd->op].name);
        cJSON_AddStringToObject(o, "type", type_str(nd, a, sizeof a));
        cJSON *in = cJSON_AddArrayToObject(o, "steps");
        for (int k = x.off[i]; k < x.off[i + 1]; k++) cJSON_AddItemToArray(in, cJSON_CreateNumber(x.list[k]));
        cJSON_AddItemToObject(o, "buffer", json_buf(p, &p->buf[i]));
        cJSON_AddStringToObject(o, "why", p->why[i] ? p->why[i] : "");
        cJSON_AddItemToArray(vals, o);
    }
    step_index_free(&x);
    cJSON *outs = cJSON_AddArrayToObject(j, "outputs");
    for (int i = 0; i < g->noutputs; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", g->outputs[i].name);
        cJSON_AddStringToObject(o, "value", g->nodes[g->outputs[i].value].name);
        if (p->output_alias && p->output_alias[i] >= 0) cJSON_AddNumberToObject(o, "reuses_input", p->output_alias[i]);
        cJSON_AddItemToArray(outs, o);
    }
    Totals t = totals(g);
    cJSON *to = cJSON_AddObjectToObject(j, "totals");
    cJSON_AddNumberToObject(to, "steps", t.steps);
    for (int k = 0; k <= STEP_ALLREDUCE; k++) {
        if (k == STEP_ALLREDUCE && !t.kinds[k]) continue; /* data-parallel plans only */
        snprintf(a, sizeof a, "%s_steps", plan_step_kind_name((StepKind)k));
        cJSON_AddNumberToObject(to, a, t.kinds[k]);
    }
    cJSON_AddNumberToObject(to, "fused_kernels", t.kernels);
    cJSON_AddNumberToObject(to, "gemms", t.kinds[STEP_GEMM]);
    cJSON_AddNumberToObject(to, "reductions", t.reductions);
    cJSON_AddNumberToObject(to, "ops", t.ops);
    cJSON_AddNumberToObject(to, "arena_bytes", (double)p->arena_bytes);
    if (p->lowered && p->scratch_off >= 0) {
        cJSON *sc = cJSON_AddObjectToObject(j, "scratch");
        cJSON_AddNumberToObject(sc, "offset", (double)p->scratch_off);
        cJSON_AddNumberToObject(sc, "bytes", (double)p->scratch_bytes);
    }
    char *text = cJSON_Print(j);
    if (!text) abort();
    fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(j);
}

/* ---- Graphviz ----------------------------------------------------------------------------- */

/* The step that writes value v (-1: an input, or nothing writes it). */
static int writer_of(const Plan *p, NodeId v) {
    for (int i = 0; i < p->nsteps; i++)
        if (step_has(p->steps[i].outs, p->steps[i].nouts, v)) return i;
    return -1;
}

/* Names are identifiers and shapes digits, so labels need no escaping beyond what we write. */
static void print_dot(const Graph *g, FILE *f) {
    const Plan *p = g->plan;
    char a[512], b[512];
    fprintf(f, "digraph \"%s\" {\n  rankdir=TB;\n  node [fontname=\"monospace\", fontsize=10];\n"
               "  edge [fontname=\"monospace\", fontsize=9];\n", g->name);
    for (int i = 0; i < g->nnodes && i < p->nnodes; i++) {
        const Node *nd = &g->nodes[i];
        if (nd->op != OP_INPUT) continue;
        bool used = false;
        for (int k = 0; k < p->nsteps && !used; k++) used = step_has(p->steps[k].ins, p->steps[k].nins, i);
        if (used)
            fprintf(f, "  \"in_%s\" [shape=ellipse, label=\"%s\\n%s\\n%s\"];\n", nd->name, nd->name,
                    type_str(nd, a, sizeof a), buf_str(g, &p->buf[i], b, sizeof b));
    }
    for (int i = 0; i < p->nsteps; i++) {
        const Step *s = &p->steps[i];
        fprintf(f, "  \"s%d\" [shape=box, label=\"%d: %s", i, i, headline(g, s, a, sizeof a));
        for (int k = 0; k < s->nnodes; k++) {
            const Node *nd = &g->nodes[s->nodes[k]];
            fprintf(f, "\\l%s %s", ir_ops[nd->op].name, nd->name);
        }
        fputs("\\l\"];\n", f);
    }
    for (int i = 0; i < g->noutputs; i++)
        fprintf(f, "  \"out_%s\" [shape=ellipse, label=\"output %s\"];\n", g->outputs[i].name, g->outputs[i].name);
    for (int i = 0; i < p->nsteps; i++) {
        const Step *s = &p->steps[i];
        for (int k = 0; k < s->nins; k++) {
            NodeId v = s->ins[k];
            int w = writer_of(p, v);
            if (w >= 0) fprintf(f, "  \"s%d\" -> \"s%d\"", w, i);
            else fprintf(f, "  \"in_%s\" -> \"s%d\"", g->nodes[v].name, i);
            fprintf(f, " [label=\"%s\\n%s\"];\n", g->nodes[v].name, buf_str(g, &p->buf[v], a, sizeof a));
        }
    }
    for (int i = 0; i < g->noutputs; i++) {
        NodeId v = g->outputs[i].value;
        int w = -1;
        for (int k = 0; k < p->nsteps; k++)
            if (p->steps[k].kind == STEP_COPY && p->steps[k].copy_output == i) w = k;
        if (w < 0 && plan_output_of(g, v) == i) w = writer_of(p, v);
        if (w >= 0) fprintf(f, "  \"s%d\" -> \"out_%s\" [label=\"%s\"];\n", w, g->outputs[i].name, g->nodes[v].name);
    }
    /* Donations written in place: the readers of the input run first (dashed). */
    for (int k = 0; p->placed && k < g->ndonations; k++) {
        NodeId v = g->donations[k].value, in = g->donations[k].input;
        int w = writer_of(p, v);
        if (w < 0 || p->buf[v].kind != BUF_OUTPUT) continue;
        for (int i = 0; i < p->nsteps; i++)
            if (i != w && step_has(p->steps[i].ins, p->steps[i].nins, in))
                fprintf(f, "  \"s%d\" -> \"s%d\" [style=dashed, label=\"reads %s before %s overwrites it\"];\n", i, w,
                        g->nodes[in].name, g->nodes[v].name);
    }
    fputs("}\n", f);
}

void plan_print(const Graph *g, FILE *f, PlanFormat fmt) {
    if (!g->plan) {
        fprintf(f, "(no plan)\n");
        return;
    }
    switch (fmt) {
    case PLAN_TEXT: print_text(g, f); break;
    case PLAN_JSON: print_json(g, f); break;
    case PLAN_DOT: print_dot(g, f); break;
    }
}
