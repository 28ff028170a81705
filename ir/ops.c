/* ir/ops.c: the op table built from ops.def, and name lookups. */
#include <string.h>

#include "ir.h"

const OpInfo ir_ops[OP_COUNT] = {
#define OP(id, name, arity, kind, rule, expr) [OP_##id] = {#name, arity, K_##kind, rule, #expr},
#include "ops.def"
#undef OP
};

int ir_op_from_name(const char *s, Op *out) {
    for (int i = 0; i < OP_COUNT; i++)
        if (i != OP_INPUT && strcmp(s, ir_ops[i].name) == 0) {
            *out = (Op)i;
            return 0;
        }
    return -1;
}

const char *ir_kind_name(OpKind k) {
    static const char *const names[] = {"source", "elementwise", "reduction", "matmul", "view", "index", "composite"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}
