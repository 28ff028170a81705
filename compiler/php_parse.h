/* compiler/php_parse.h: internal to the PHP front-end (frontend_php.c, php_parse.c,
 * php_expr.c, php_inline.c, php_math.c): the parser's state, the values it builds, and the helpers the files share.
 * Everything the parser allocates while reading (literals, attribute lists, names) lives in the
 * parser's arena and is freed with it; the Graph under construction is owned by the caller. */
#ifndef GTC_PHP_PARSE_H
#define GTC_PHP_PARSE_H

#include "../ir/ir.h"
#include "php_lexer.h"

#define MAX_DEPTH 200 /* expression nesting */
#define MAX_ARGS 16
#define PHP_MAX_INLINE 32              /* functions inlined into each other */
#define PHP_MAX_INLINE_TOKENS (1 << 22) /* function body tokens read by all inlined calls together */

typedef struct {
    int is_node;
    double num;
    NodeId id;
} Val;

typedef struct Lit {
    enum { L_STR, L_NUM, L_BOOL, L_NULL, L_LIST } k;
    const PhpTok *at;
    const char *s;
    double num;
    int is_int;
    struct Lit **items;
    const PhpTok **keys; /* list entries written 'key' => value (NULL when positional) */
    int n;
} Lit;

/* An argument: a literal (list, string, boolean, null) or an expression's value. */
typedef struct {
    const PhpTok *name; /* named argument, or NULL */
    const PhpTok *at;
    Lit *lit;           /* NULL for an expression */
    Val v;
} Arg;

typedef struct {
    const char *cls;    /* resolved class name */
    const PhpTok *at;
    Arg args[MAX_ARGS];
    int nargs;
} Attr;

typedef struct {
    const PhpTok *name;
    Attr *attrs;
    int nattrs;
    int lparen;         /* token index of the parameter list's '(' */
    int end;            /* token index after the body's closing '}' */
    const char *ns;     /* the namespace it is declared in ("" for the global one) */
    bool graph;         /* marked #[Gtc\Graph]; else a plain function, inlined where a graph calls it */
} Fn;

typedef struct {
    const char *path;
    Diag *d;
    PhpToks tk;
    int pos, depth;
    char ns[256];
    char **aliases, **fulls; /* `use` imports: alias → full name */
    bool *isfn;              /* a `use function` import (else a class or namespace) */
    int nuses;
    void **arena;
    int narena, caparena;
    Graph *g;
    NameMap vars;       /* variable → index into vals */
    Val *vals;
    const PhpTok **vtok; /* where each variable was assigned */
    int nvals, capvals;
    NameMap reserved;   /* every variable name in the function, and every node name */
    NameMap nodenames;  /* every node name */
    const char *target; /* the variable being assigned: temporaries are named after it */
    NodeId ntyped;      /* nodes 0..ntyped-1 have their types (php_node_type) */
    Fn *fns;            /* every function of the file, in order */
    int nfns, capfns;
    NameMap fnmap;      /* php_fn_key(namespace, name) → index into fns */
    /* the parameters of the function being read end at vals[params_end]; in an inlined body
     * (php_inline.c), node names take `prefix`_ first */
    int params_end;
    const char *prefix;
    struct {
        const Fn *fn;
        const PhpTok *at;
    } calls[PHP_MAX_INLINE]; /* the calls being inlined, outermost first */
    int ncalls;
    long inlined_tokens;
} PhpParser;

typedef PhpParser P;

/* ---- php_parse.c: memory, messages, tokens, names, literals, attributes, nodes ---- */

void *php_keep(P *p, void *m);                     /* hands m (non-NULL) to the arena */
void *php_alloc(P *p, size_t n);                   /* zeroed, in the arena */
void *php_regrow(P *p, void *old, size_t n);       /* grows an arena block (old NULL: new) */
char *php_dupstr(P *p, const char *s);
/* "FILE:LINE:COLUMN: message" at token t (the first error only); returns -1. */
int php_perr(P *p, const PhpTok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const PhpTok *php_cur(P *p);
const PhpTok *php_ahead(P *p, int k);
const PhpTok *php_take(P *p);
const char *php_describe(const PhpTok *t, char *buf, size_t n);
int php_unexpected(P *p, const char *expected);    /* "unexpected X, expected Y" (or the lexer's error) */
int php_expect(P *p, const char *punct, const char *what);
char *php_qname(P *p);                             /* a (qualified) name as written, or NULL */
const char *php_resolve(P *p, const char *raw);    /* PHP's class-name resolution */
int php_is_cls(const char *cls, const char *want);
int php_interpolation(P *p, const PhpTok *t);
/* Whether string token t holds a NUL byte ("\0"), after reporting it: as a C string it would end
 * there, and "float32\0x" would read as float32. */
bool php_has_nul(P *p, const PhpTok *t);
/* Whether number token t overflows to infinity (1e400), after reporting it: graph constants are
 * finite, as in JSON. */
bool php_not_finite(P *p, const PhpTok *t);
Lit *php_parse_lit(P *p);
/* Binds arguments to parameter names as PHP does; slots[i] NULL when not given. */
int php_bind(P *p, const PhpTok *at, const char *fname, const char *const *params, int nreq, Arg *args,
             int nargs, Arg **slots);
int php_parse_attrs(P *p, Attr **attrs, int *n);   /* #[...] groups, appended */
void php_reserve(P *p, const char *name);          /* a name temporaries must not take */
void php_node_named(P *p, const char *name);
int php_new_node(P *p, const PhpTok *at, Op op, const Val *in, int nin, NodeId *out);
void php_rename_node(P *p, NodeId id, const char *name);
/* The type of node id, inferring the nodes before it as ir_verify will (its message on error):
 * for calls whose reading depends on an operand's shape or dtype (slice's indices, astype). */
int php_node_type(P *p, NodeId id, TensorType *out);
int php_apply(P *p, const PhpTok *at, Op op, const Val *in, int nin, Val *out); /* numbers fold */

/* ---- php_expr.c: expressions, method calls, the errors statements share ---- */

extern const char *const php_kw_loops[], *const php_kw_cond[], *const php_kw_incl[];
int php_in_list(const PhpTok *t, const char *const *kws);
int php_loop_error(P *p, const PhpTok *t);
int php_cond_error(P *p, const PhpTok *t);
int php_include_error(P *p, const PhpTok *t);
int php_bad_continuation(P *p, const char *expected); /* explains a token that cannot follow */
int php_unknown_function(P *p, const PhpTok *at, const char *name);
const char *php_lit_kind(const Lit *l);
int php_arg_ints(P *p, const char *fname, const char *param, const Arg *a, int scalar_ok, int64_t lo,
                 int64_t hi, int64_t *out, int *n);
/* compiler/php_slice.c: self->slice(...) into a slice node (*out). */
int php_slice_call(P *p, const PhpTok *at, const char *fname, Arg *args, int nargs, const Val *self, Val *out);
int php_arg_dtype(P *p, const char *fname, const char *param, const Arg *a, DType *out);
/* Call arguments in parentheses: constants as literals, anything else as an expression. */
int php_parse_args(P *p, Arg *args, int *nargs);
int php_expr(P *p, Val *out);

/* ---- frontend_php.c: statements, shared by graph functions and inlined ones ---- */

int php_check_name(P *p, const PhpTok *t);         /* a variable's name can name a node */
int php_set_var(P *p, const PhpTok *at, const char *name, Val v);
int php_statement(P *p);                           /* `$name = expression;` (or an error) */

/* ---- php_inline.c: calls of the file's plain functions, inlined ---- */

/* The key of function `name` in namespace ns[0..nslen) in p->fnmap, lower-cased as PHP compares
 * function names, written into buf (n bytes). */
const char *php_fn_key(char *buf, size_t n, const char *ns, size_t nslen, const char *name);
/* Whether `raw` (a function name as written) names a function of the file. */
bool php_user_function(P *p, const char *raw);
/* A call at the cursor's '(' of function `raw` (named at token at): a function of the file,
 * inlined, or PHP's math function on numbers (php_math.c), else the unknown-function error. */
int php_function_call(P *p, const PhpTok *at, const char *raw, Val *out);
/* " (in f() called at LINE:COL, ...)" for a message from inside inlined calls ("" outside). */
void php_call_context(P *p, char *buf, size_t n);

/* ---- php_math.c: PHP's math functions and constants on numbers, folded ---- */

bool php_math_known(const char *name);
/* 1 with the value of constant `name` (M_PI, ...), 0 for an unknown one, -1 after reporting a
 * constant that is not finite (INF, NAN). */
int php_math_const(P *p, const PhpTok *at, const char *name, double *out);
int php_math_call(P *p, const PhpTok *at, const char *name, Val *out); /* the cursor at its '(' */

#endif
