/* compiler/php_math.c: PHP's math functions and constants on numbers in a graph function
 * (`1 / sqrt(784)`, `M_PI`, `max(1e-5, ...)`), folded when the graph is read as PHP computes
 * them; a result that is not finite is an error, as every graph constant is finite. The
 * functions take numbers only: a tensor goes through the CudaArray method of the same meaning. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "php_parse.h"

static const struct {
    const char *name;
    double value;
} consts[] = {
    {"M_E", 2.7182818284590452354},     {"M_LOG2E", 1.4426950408889634074}, {"M_LOG10E", 0.43429448190325182765},
    {"M_LN2", 0.69314718055994530942},  {"M_LN10", 2.30258509299404568402}, {"M_PI", 3.14159265358979323846},
    {"M_PI_2", 1.57079632679489661923}, {"M_PI_4", 0.78539816339744830962}, {"M_1_PI", 0.31830988618379067154},
    {"M_2_PI", 0.63661977236758134308}, {"M_SQRTPI", 1.77245385090551602729},
    {"M_2_SQRTPI", 1.12837916709551257390}, {"M_LNPI", 1.14472988584940017414},
    {"M_EULER", 0.57721566490153286061}, {"M_SQRT2", 1.41421356237309504880},
    {"M_SQRT1_2", 0.70710678118654752440}, {"M_SQRT3", 1.73205080756887729352},
    {"PHP_FLOAT_EPSILON", DBL_EPSILON}, {"PHP_FLOAT_MIN", DBL_MIN}, {"PHP_FLOAT_MAX", DBL_MAX},
    {"INF", INFINITY}, {"NAN", NAN}, {NULL, 0}};

typedef enum { F_ONE, F_POW, F_LOG, F_ROUND, F_INTDIV, F_FMOD, F_FDIV, F_ATAN2, F_HYPOT, F_MIN, F_MAX, F_PI } FKind;

static double deg2rad(double x) { return x / 180.0 * M_PI; } /* as PHP computes them */
static double rad2deg(double x) { return x / M_PI * 180.0; }

/* PHP's functions with their parameter names (for named arguments) and, where a CudaArray
 * method means the same on a tensor, that method (for the message when a tensor is passed). */
static const struct {
    const char *name;
    FKind k;
    double (*f)(double);
    int nreq;
    const char *params[3];
    const char *method;
} fns[] = {
    {"sqrt", F_ONE, sqrt, 1, {"num"}, "->sqrt()"},     {"exp", F_ONE, exp, 1, {"num"}, "->exp()"},
    {"log10", F_ONE, log10, 1, {"num"}, NULL},         {"log1p", F_ONE, log1p, 1, {"num"}, NULL},
    {"expm1", F_ONE, expm1, 1, {"num"}, NULL},         {"abs", F_ONE, fabs, 1, {"num"}, "->abs()"},
    {"floor", F_ONE, floor, 1, {"num"}, "->floor()"},  {"ceil", F_ONE, ceil, 1, {"num"}, "->ceil()"},
    {"sin", F_ONE, sin, 1, {"num"}, "->sin()"},        {"cos", F_ONE, cos, 1, {"num"}, "->cos()"},
    {"tan", F_ONE, tan, 1, {"num"}, "->tan()"},        {"tanh", F_ONE, tanh, 1, {"num"}, "->tanh()"},
    {"asin", F_ONE, asin, 1, {"num"}, NULL},           {"acos", F_ONE, acos, 1, {"num"}, NULL},
    {"atan", F_ONE, atan, 1, {"num"}, NULL},           {"sinh", F_ONE, sinh, 1, {"num"}, NULL},
    {"cosh", F_ONE, cosh, 1, {"num"}, NULL},           {"deg2rad", F_ONE, deg2rad, 1, {"num"}, NULL},
    {"rad2deg", F_ONE, rad2deg, 1, {"num"}, NULL},     {"round", F_ROUND, NULL, 1, {"num", "precision"}, "->round()"},
    {"log", F_LOG, NULL, 1, {"num", "base"}, "->log()"}, {"pow", F_POW, NULL, 2, {"num", "exponent"}, "->power() or **"},
    {"intdiv", F_INTDIV, NULL, 2, {"num1", "num2"}, NULL}, {"fmod", F_FMOD, NULL, 2, {"num1", "num2"}, NULL},
    {"fdiv", F_FDIV, NULL, 2, {"num1", "num2"}, "/"},  {"atan2", F_ATAN2, NULL, 2, {"y", "x"}, NULL},
    {"hypot", F_HYPOT, NULL, 2, {"x", "y"}, NULL},     {"min", F_MIN, NULL, 1, {0}, "->minimum() (->min() reduces)"},
    {"max", F_MAX, NULL, 1, {0}, "->maximum() (->max() reduces)"}, {"pi", F_PI, NULL, 0, {0}, NULL},
    {NULL, 0, NULL, 0, {0}, NULL}};

/* The table row of global function `name` (a leading \ allowed), or -1. */
static int find_fn(const char *name) {
    if (name[0] == '\\') name++;
    for (int i = 0; fns[i].name; i++)
        if (strcasecmp(fns[i].name, name) == 0) return i;
    return -1;
}

bool php_math_known(const char *name) { return find_fn(name) >= 0; }

int php_math_const(P *p, const PhpTok *at, const char *name, double *out) {
    if (name[0] == '\\') name++;
    for (int i = 0; consts[i].name; i++)
        if (strcmp(consts[i].name, name) == 0) {
            if (!isfinite(consts[i].value))
                return php_perr(p, at, "%s is not a finite number: graph constants are finite", name);
            *out = consts[i].value;
            return 1;
        }
    return 0;
}

/* A number argument: a tensor or a literal (string, list, boolean, null) is an error. */
static int num_arg(P *p, int f, const char *param, const Arg *a, double *out) {
    if (!a->lit && a->v.is_node) {
        if (fns[f].method)
            return php_perr(p, a->at, "%s() is PHP's function on numbers, folded when the graph is read; on a CudaArray "
                                      "use %s", fns[f].name, fns[f].method);
        return php_perr(p, a->at, "%s() is PHP's function on numbers, folded when the graph is read; it has no CudaArray "
                                  "form in a graph", fns[f].name);
    }
    if (a->lit) return php_perr(p, a->at, "%s(): $%s must be a number, got %s", fns[f].name, param, php_lit_kind(a->lit));
    *out = a->v.num;
    return 0;
}

static bool is_int53(double v) { return v == floor(v) && fabs(v) <= 9007199254740992.0; }

int php_math_call(P *p, const PhpTok *at, const char *name, Val *out) {
    int f = find_fn(name);
    Arg args[MAX_ARGS], *s[3];
    int nargs;
    char fname[40];
    snprintf(fname, sizeof fname, "%s()", fns[f].name);
    if (php_parse_args(p, args, &nargs)) return -1;
    s[0] = s[1] = s[2] = NULL;
    double v[MAX_ARGS] = {0}, r = 0;
    int n = 0;
    if (fns[f].k == F_MIN || fns[f].k == F_MAX) { /* min($value, ...$values): positional only */
        if (nargs < 2) /* PHP's min/max of one argument takes an array */
            return php_perr(p, at, "%s needs at least two numbers: %s(1, 2)", fname, fns[f].name);
        for (int i = 0; i < nargs; i++) {
            if (args[i].name) return php_perr(p, args[i].name, "%s takes its numbers as positional arguments", fname);
            if (num_arg(p, f, "value", &args[i], &v[i])) return -1;
        }
        n = nargs;
    } else {
        if (php_bind(p, at, fname, fns[f].params, fns[f].nreq, args, nargs, s)) return -1;
        for (int i = 0; fns[f].params[i]; i++) {
            if (!s[i]) continue;
            if (num_arg(p, f, fns[f].params[i], s[i], &v[i])) return -1;
            n = i + 1;
        }
    }
    double a = v[0], b = v[1];
    switch (fns[f].k) {
    case F_ONE: r = fns[f].f(a); break;
    case F_POW: r = pow(a, b); break;
    case F_LOG: /* as PHP's log($num, $base = M_E) */
        if (!s[1]) r = log(a);
        else if (b <= 0) return php_perr(p, s[1]->at, "%s: $base must be greater than 0", fname);
        else r = b == 2 ? log2(a) : b == 10 ? log10(a) : b == 1 ? NAN : log(a) / log(b);
        break;
    case F_ROUND:
        if (s[1] && b != 0)
            return php_perr(p, s[1]->at, "%s: only $precision 0 is supported in a graph; scale the number instead", fname);
        r = round(a); /* half away from zero, as PHP */
        break;
    case F_INTDIV:
        if (!is_int53(a) || !is_int53(b))
            return php_perr(p, at, "%s takes integers (at most 2^53 in magnitude), got %g and %g", fname, a, b);
        if (b == 0) return php_perr(p, at, "%s: division by zero", fname);
        r = (double)((long long)a / (long long)b);
        break;
    case F_FMOD: r = fmod(a, b); break;
    case F_FDIV: r = a / b; break;
    case F_ATAN2: r = atan2(a, b); break;
    case F_HYPOT: r = hypot(a, b); break;
    case F_MIN: case F_MAX:
        r = v[0];
        for (int i = 1; i < n; i++) r = (fns[f].k == F_MIN ? v[i] < r : v[i] > r) ? v[i] : r;
        break;
    case F_PI: r = M_PI; break;
    }
    if (!isfinite(r)) {
        char list[200] = "";
        size_t k = 0;
        for (int i = 0; i < n && k < sizeof list; i++) k += (size_t)snprintf(list + k, sizeof list - k, "%s%g", i ? ", " : "", v[i]);
        return php_perr(p, at, "%s(%s) is not a finite number: graph constants are finite", fns[f].name, list);
    }
    out->is_node = 0, out->num = r;
    return 0;
}
