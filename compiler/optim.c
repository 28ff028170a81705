/* compiler/optim.c: the optimizer updates the autodiff pass appends (PyTorch's semantics):
 * SGD with a runtime or constant learning rate, momentum (Nesterov's too), weight decay and
 * gradient clipping by value and by global norm; AdamW, and Adam with L2 decay. Optimizer state
 * comes in as extra inputs and goes out as extra outputs, updated in place; each input says what
 * it is (OptInput.state) so that a compiled model can create and keep it. Cuda\Optimizer
 * (runtime/php/optimizer.c) builds its steps with the same two functions, so eager, traced and
 * compiled updates follow one set of formulas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optim.h"

static void push(OptInput **v, int *n, const char *name, DType dt, int rank, const int64_t *dims,
                 NodeId param) {
    *v = realloc(*v, ((size_t)*n + 1) * sizeof **v);
    if (!*v) abort();
    OptInput *e = &(*v)[(*n)++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->type.dtype = dt;
    e->type.rank = rank;
    for (int i = 0; i < rank; i++) e->type.dims[i] = dims[i];
    e->param = param;
    e->state = param >= 0 ? IR_STATE_ZEROS : IR_STATE_NONE; /* every buffer starts at zero */
}

int optim_inputs(const Graph *g, const Train *t, OptInput **out) {
    int n = 0;
    *out = NULL;
    char name[IR_MAX_NAME + 8];
    if (t->lr_name && graph_find(g, t->lr_name) < 0) push(out, &n, t->lr_name, DT_FLOAT32, 0, NULL, -1);
    for (int i = 0; i < t->nparams; i++) {
        const Node *p = &g->nodes[t->params[i]];
        if (t->opt == OPT_SGD && t->momentum > 0) {
            snprintf(name, sizeof name, "%s_m", p->name);
            push(out, &n, name, p->type.dtype, p->type.rank, p->type.dims, t->params[i]);
        }
        if (t->opt != OPT_SGD) {
            snprintf(name, sizeof name, "%s_m", p->name);
            push(out, &n, name, p->type.dtype, p->type.rank, p->type.dims, t->params[i]);
            snprintf(name, sizeof name, "%s_v", p->name);
            push(out, &n, name, p->type.dtype, p->type.rank, p->type.dims, t->params[i]);
        }
    }
    if (t->opt != OPT_SGD && t->beta_powers) {
        push(out, &n, "adamw_beta1_power", DT_FLOAT32, 0, NULL, -1);
        push(out, &n, "adamw_beta2_power", DT_FLOAT32, 0, NULL, -1);
    } else if (t->opt != OPT_SGD) {
        push(out, &n, "adamw_step", DT_FLOAT64, 0, NULL, -1); /* 1 - 0.999^t in float32 is 1e-5 off */
        (*out)[n - 1].state = IR_STATE_STEP;
    }
    return n;
}

/* The input of optim_inputs' list named `name`, or -1. */
static NodeId find_in(const OptInput *ins, const NodeId *ids, int nins, const char *name) {
    for (int k = 0; k < nins; k++)
        if (strcmp(ins[k].name, name) == 0) return ids[k];
    return -1;
}

static int find_k(const OptInput *ins, int nins, const char *name) {
    for (int k = 0; k < nins; k++)
        if (strcmp(ins[k].name, name) == 0) return k;
    return -1;
}

int optim_build(Builder *b, const Train *t, const NodeId *grads, const OptInput *ins,
                const NodeId *in_ids, int nins, NodeId *upd, NodeId *state) {
    Graph *g = b->g;
    for (int k = 0; k < nins; k++) state[k] = -1;
    /* The learning rate: a constant, or a rank-0 input (the graph's, or a new one). */
    Operand lr = ad_c(t->lr);
    if (t->lr_name) {
        NodeId id = graph_find(g, t->lr_name);
        if (id < 0) id = find_in(ins, in_ids, nins, t->lr_name);
        lr = ad_v(id);
    }
    int np = t->nparams;
    NodeId *gr = malloc((size_t)np * sizeof *gr);
    if (!gr) abort();
    char w[IR_MAX_NAME + 16];
    for (int i = 0; i < np; i++) {
        gr[i] = grads[i];
        if (t->clip_value > 0) {
            snprintf(w, sizeof w, "%s_clipped", g->nodes[t->params[i]].name);
            Operand in[3] = {ad_v(gr[i]), ad_c(-t->clip_value), ad_c(t->clip_value)};
            gr[i] = ad_node(b, w, OP_CLAMP, 3, in, NULL);
        }
    }
    if (t->clip_norm > 0) {
        /* As torch.nn.utils.clip_grad_norm_: scale = min(1, max_norm / (norm + 1e-6)) over the
         * global norm of all gradients (after clipping by value, when both are asked for). */
        NodeId total = -1;
        for (int i = 0; i < np; i++) {
            NodeId sq = ad_bin(b, "grad_sq", OP_MUL, ad_v(gr[i]), ad_v(gr[i]));
            const TensorType *ts = sq >= 0 ? &g->nodes[sq].type : NULL;
            NodeId s = ts ? ad_reduce(b, "grad_sq_sum", OP_SUM, sq, ts->rank ? (1u << ts->rank) - 1 : 0, false) : -1;
            total = total < 0 ? s : ad_bin(b, "grad_sq_total", OP_ADD, ad_v(total), ad_v(s));
        }
        NodeId norm = ad_un(b, "grad_norm", OP_SQRT, ad_v(total));
        NodeId coef = ad_bin(b, "clip_coef", OP_DIV, ad_c(t->clip_norm), ad_v(ad_bin(b, "grad_norm_eps", OP_ADD, ad_v(norm), ad_c(1e-6))));
        NodeId scale = ad_bin(b, "clip_scale", OP_MINIMUM, ad_v(coef), ad_c(1));
        for (int i = 0; i < np; i++) {
            snprintf(w, sizeof w, "%s_clipped", g->nodes[t->params[i]].name);
            gr[i] = ad_cast(b, w, ad_bin(b, w, OP_MUL, ad_v(gr[i]), ad_v(scale)), g->nodes[t->params[i]].type.dtype);
        }
    }
    bool adam = t->opt != OPT_SGD;
    NodeId step = adam && !t->beta_powers ? find_in(ins, in_ids, nins, "adamw_step") : -1;
    NodeId bc1 = -1, bc2s = -1;
    if (adam && t->beta_powers) { /* beta^t carried as state (Cuda\Optimizer's beta1Power, beta2Power) */
        int k1 = find_k(ins, nins, "adamw_beta1_power"), k2 = find_k(ins, nins, "adamw_beta2_power");
        state[k1] = ad_bin(b, "adamw_beta1_power_next", OP_MUL, ad_v(in_ids[k1]), ad_c(t->beta1));
        state[k2] = ad_bin(b, "adamw_beta2_power_next", OP_MUL, ad_v(in_ids[k2]), ad_c(t->beta2));
        bc1 = ad_bin(b, "adamw_bc1", OP_SUB, ad_c(1), ad_v(state[k1]));
        bc2s = ad_un(b, "adamw_bc2_sqrt", OP_SQRT, ad_v(ad_bin(b, "adamw_bc2", OP_SUB, ad_c(1), ad_v(state[k2]))));
    } else if (adam) { /* bias corrections 1 - beta^t, t counting from 1, in float64 */
        bc1 = ad_bin(b, "adamw_bc1", OP_SUB, ad_c(1), ad_v(ad_bin(b, "adamw_b1t", OP_POW, ad_c(t->beta1), ad_v(step))));
        NodeId bc2 = ad_bin(b, "adamw_bc2", OP_SUB, ad_c(1), ad_v(ad_bin(b, "adamw_b2t", OP_POW, ad_c(t->beta2), ad_v(step))));
        bc2s = ad_un(b, "adamw_bc2_sqrt", OP_SQRT, ad_v(bc2));
        int k = find_k(ins, nins, "adamw_step");
        state[k] = ad_bin(b, "adamw_step_next", OP_ADD, ad_v(step), ad_c(1));
    }
    for (int i = 0; i < np; i++) {
        NodeId p = t->params[i];
        const Node *pn = &g->nodes[p];
        char pname[IR_MAX_NAME + 1], mname[IR_MAX_NAME + 8], vname[IR_MAX_NAME + 8];
        snprintf(pname, sizeof pname, "%s", pn->name);
        DType dt = pn->type.dtype;
        snprintf(mname, sizeof mname, "%s_m", pname);
        snprintf(vname, sizeof vname, "%s_v", pname);
        snprintf(w, sizeof w, "%s_next", pname);
        NodeId next;
        bool decay = t->weight_decay > 0 && !(t->no_decay && t->no_decay[i]);
        if (t->opt == OPT_SGD) {
            NodeId d = gr[i];
            if (decay) {
                snprintf(w, sizeof w, "%s_decayed", pname);
                d = ad_bin(b, w, OP_ADD, ad_v(d), ad_v(ad_bin(b, w, OP_MUL, ad_v(p), ad_c(t->weight_decay))));
            }
            if (t->momentum > 0) {
                int k = find_k(ins, nins, mname);
                snprintf(w, sizeof w, "%s_next", mname);
                NodeId buf = ad_bin(b, w, OP_ADD, ad_v(ad_bin(b, w, OP_MUL, ad_v(in_ids[k]), ad_c(t->momentum))), ad_v(d));
                state[k] = buf = ad_cast(b, w, buf, dt);
                /* Nesterov (as torch.optim.SGD): step along d + momentum * buf, not buf */
                snprintf(w, sizeof w, "%s_nesterov", pname);
                d = t->nesterov ? ad_bin(b, w, OP_ADD, ad_v(d), ad_v(ad_bin(b, w, OP_MUL, ad_v(buf), ad_c(t->momentum)))) : buf;
            }
            snprintf(w, sizeof w, "%s_step", pname);
            NodeId s = ad_bin(b, w, OP_MUL, ad_v(d), lr);
            snprintf(w, sizeof w, "%s_next", pname);
            next = ad_bin(b, w, OP_SUB, ad_v(p), ad_v(s));
        } else {
            if (t->opt == OPT_ADAM && decay) { /* Adam's L2 decay: the gradient plus wd * p */
                snprintf(w, sizeof w, "%s_decayed", pname);
                gr[i] = ad_bin(b, w, OP_ADD, ad_v(gr[i]), ad_v(ad_bin(b, w, OP_MUL, ad_v(p), ad_c(t->weight_decay))));
            }
            int km = find_k(ins, nins, mname), kv = find_k(ins, nins, vname);
            snprintf(w, sizeof w, "%s_next", mname);
            NodeId m = ad_bin(b, w, OP_ADD, ad_v(ad_bin(b, w, OP_MUL, ad_v(in_ids[km]), ad_c(t->beta1))),
                              ad_v(ad_bin(b, w, OP_MUL, ad_v(gr[i]), ad_c(1 - t->beta1))));
            state[km] = m = ad_cast(b, w, m, dt);
            snprintf(w, sizeof w, "%s_next", vname);
            NodeId g2 = ad_bin(b, w, OP_MUL, ad_v(gr[i]), ad_v(gr[i]));
            NodeId v = ad_bin(b, w, OP_ADD, ad_v(ad_bin(b, w, OP_MUL, ad_v(in_ids[kv]), ad_c(t->beta2))),
                              ad_v(ad_bin(b, w, OP_MUL, ad_v(g2), ad_c(1 - t->beta2))));
            state[kv] = v = ad_cast(b, w, v, dt);
            NodeId p1 = p;
            if (t->opt == OPT_ADAMW && decay) { /* p * (1 - lr * wd), decoupled */
                snprintf(w, sizeof w, "%s_decayed", pname);
                Operand f = lr.id < 0 ? ad_c(1 - t->lr * t->weight_decay)
                                      : ad_v(ad_bin(b, w, OP_SUB, ad_c(1), ad_v(ad_bin(b, w, OP_MUL, lr, ad_c(t->weight_decay)))));
                p1 = ad_bin(b, w, OP_MUL, ad_v(p), f);
            }
            /* p1 - (lr / bc1) * m / (sqrt(v) / sqrt(bc2) + eps), as torch.optim.AdamW */
            snprintf(w, sizeof w, "%s_step", pname);
            NodeId denom = ad_bin(b, w, OP_ADD, ad_v(ad_bin(b, w, OP_DIV, ad_v(ad_un(b, w, OP_SQRT, ad_v(v))),
                                                             ad_v(ad_cast(b, w, bc2s, dt)))),
                                  ad_c(t->eps));
            NodeId size = ad_bin(b, w, OP_DIV, lr, ad_v(ad_cast(b, w, bc1, dt)));
            NodeId s = ad_bin(b, w, OP_MUL, ad_v(ad_bin(b, w, OP_DIV, ad_v(m), ad_v(denom))), ad_v(size));
            snprintf(w, sizeof w, "%s_next", pname);
            next = ad_bin(b, w, OP_SUB, ad_v(p1), ad_v(s));
        }
        upd[i] = ad_cast(b, w, next, dt);
        if (b->failed) break;
    }
    free(gr);
    return b->failed ? -1 : 0;
}
