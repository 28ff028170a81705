/* runtime/core/npy.c: the .npy format (NumPy's NEP 1): versions 1.0, 2.0 and 3.0 read as
 * np.load reads them, 1.0 (or 2.0 for huge headers) written; gtc's eleven dtypes in either byte
 * order and in C or Fortran order. The header is a Python literal that a small strict parser
 * below reads (the subset ast.literal_eval accepts that a header can use); every field of an
 * untrusted file is checked before it is used. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static const struct { DType dt; const char *descr; } descrs[] = {
    {DT_FLOAT32, "<f4"}, {DT_FLOAT64, "<f8"}, {DT_INT32, "<i4"}, {DT_INT64, "<i8"}, {DT_BOOL, "|b1"},
    {DT_INT8, "|i1"},    {DT_UINT8, "|u1"},   {DT_INT16, "<i2"}, {DT_UINT16, "<u2"}, {DT_UINT32, "<u4"},
    {DT_UINT64, "<u8"},  {DT_FLOAT16, "<f2"},
};

#define NPY_FAIL(...) (rt_error(RT_EINVAL, "npy: " __VA_ARGS__), (RtTensor *)NULL)
#define NPY_ERR(...) rt_error(RT_EINVAL, "npy: " __VA_ARGS__)

/* NumPy's default max_header_size: longer headers are refused (counted in characters). */
#define NPY_MAX_HEADER_CHARS 10000
/* Python's tokenizer refuses a 201st open bracket ("too many nested parentheses"). */
#define NPY_MAX_BRACKETS 200
#define NPY_MAX_DEPTH (2 * NPY_MAX_BRACKETS + 8)
/* Strings are kept only this long: every name the header can need is shorter. */
#define NPY_STR_KEEP 24

/* ---- the descr ------------------------------------------------------------------------------ */

/* The dtype strings np.dtype() maps to gtc's dtypes on x86-64 Linux (NumPy 1.24): type codes
 * take one byte-order character (< = | >; '>' is big-endian for multi-byte types, the others
 * little), names take none. tests/php/npy_differential.phpt asks NumPy for every spelling. */
static const struct { const char *code; DType dt; } npy_codes[] = {
    {"?", DT_BOOL},     {"b1", DT_BOOL},     {"b", DT_INT8},      {"i1", DT_INT8},     {"B", DT_UINT8},
    {"u1", DT_UINT8},   {"h", DT_INT16},     {"i2", DT_INT16},    {"H", DT_UINT16},    {"u2", DT_UINT16},
    {"i", DT_INT32},    {"i4", DT_INT32},    {"I", DT_UINT32},    {"u4", DT_UINT32},   {"l", DT_INT64},
    {"q", DT_INT64},    {"p", DT_INT64},     {"i8", DT_INT64},    {"L", DT_UINT64},    {"Q", DT_UINT64},
    {"P", DT_UINT64},   {"u8", DT_UINT64},   {"f", DT_FLOAT32},   {"f4", DT_FLOAT32},  {"d", DT_FLOAT64},
    {"f8", DT_FLOAT64}, {"e", DT_FLOAT16},     {"f2", DT_FLOAT16},
};
static const struct { const char *name; DType dt; } npy_names[] = {
    {"bool", DT_BOOL},        {"bool_", DT_BOOL},      {"bool8", DT_BOOL},       {"int8", DT_INT8},
    {"byte", DT_INT8},        {"uint8", DT_UINT8},     {"ubyte", DT_UINT8},      {"int16", DT_INT16},
    {"short", DT_INT16},      {"uint16", DT_UINT16},   {"ushort", DT_UINT16},    {"int32", DT_INT32},
    {"intc", DT_INT32},       {"uint32", DT_UINT32},   {"uintc", DT_UINT32},     {"int64", DT_INT64},
    {"int", DT_INT64},        {"int_", DT_INT64},      {"int0", DT_INT64},       {"intp", DT_INT64},
    {"long", DT_INT64},       {"longlong", DT_INT64},  {"uint64", DT_UINT64},    {"uint", DT_UINT64},
    {"uint0", DT_UINT64},     {"uintp", DT_UINT64},    {"ulong", DT_UINT64},     {"ulonglong", DT_UINT64},
    {"float32", DT_FLOAT32},  {"single", DT_FLOAT32},  {"float64", DT_FLOAT64},  {"float", DT_FLOAT64},
    {"double", DT_FLOAT64},   {"float_", DT_FLOAT64},  {"float16", DT_FLOAT16},  {"half", DT_FLOAT16},
};

/* Maps a descr string to a dtype and whether its data is big-endian; false if unknown. */
static bool descr_dtype(const char *s, size_t n, DType *dt, bool *big) {
    *big = false;
    for (size_t i = 0; i < sizeof npy_names / sizeof *npy_names; i++)
        if (strlen(npy_names[i].name) == n && memcmp(npy_names[i].name, s, n) == 0) {
            *dt = npy_names[i].dt;
            return true;
        }
    char order = 0;
    if (n && strchr("<>=|", s[0])) order = s[0], s++, n--;
    for (size_t i = 0; i < sizeof npy_codes / sizeof *npy_codes; i++)
        if (strlen(npy_codes[i].code) == n && memcmp(npy_codes[i].code, s, n) == 0) {
            *dt = npy_codes[i].dt;
            *big = order == '>' && ir_dtype_size(*dt) > 1;
            return true;
        }
    return false;
}

/* ---- the header's Python literal ------------------------------------------------------------ */

typedef enum { V_DICT, V_TUPLE, V_LIST, V_STR, V_BYTES, V_INT, V_BOOL, V_NONE } VKind;

typedef struct {
    VKind kind;
    bool sign;                 /* an int made by unary + or -: no second sign may apply */
    bool big;                  /* an int outside int64 */
    int64_t i;                 /* V_INT, V_BOOL */
    char s[NPY_STR_KEEP];      /* V_STR: ASCII text, other characters as '?' (never a name) */
    size_t slen;               /* V_STR: the full length, which may exceed NPY_STR_KEEP */
    int n;                     /* V_TUPLE, V_LIST: element count */
    bool ints, bools;          /* V_TUPLE, V_LIST: all elements ints that fit int64; any a bool */
    int64_t dims[IR_MAX_RANK]; /* V_TUPLE, V_LIST: the first elements */
} Val;

typedef enum { T_END, T_PUNCT, T_STR, T_BYTES, T_INT, T_NAME, T_ERR } TKind;

typedef struct {
    const unsigned char *p, *end;
    int version;
    bool started;  /* a token has been read */
    int brackets;  /* open brackets */
    TKind t;      /* the current token */
    char ch;      /* T_PUNCT */
    Val v;        /* T_STR, T_BYTES, T_INT, T_NAME (V_BOOL or V_NONE) */
    char msg[160];
    /* the top-level dict's three entries (the last of duplicates wins, as in a Python dict) */
    Val descr, fortran, shape;
    bool has_descr, has_fortran, has_shape, other_key;
} Lex;

#define LEX_ERR(L, ...) (snprintf((L)->msg, sizeof (L)->msg, __VA_ARGS__), (L)->t = T_ERR, -1)

static bool ident_char(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Skips what Python's tokenizer skips between tokens: spaces, tabs, form feeds, newlines (the
 * header's value sits inside brackets, where newlines do not end it), comments and backslash
 * line continuations. Returns -1 after LEX_ERR. */
static int skip_space(Lex *L) {
    bool cont = false, newline = false;
    int col = 0;
    while (L->p < L->end) {
        int c = *L->p;
        if (c == ' ' || c == '\t') {
            L->p++, col++;
        } else if (c == '\f') { /* resets the indentation, as in Python */
            L->p++, col = 0;
        } else if (c == '\n' || c == '\r') {
            L->p++, col = 0, newline = true, cont = false;
        } else if (c == '#') {
            while (L->p < L->end && *L->p != '\n' && *L->p != '\r') L->p++;
        } else if (c == '\\') {
            if (L->p + 1 < L->end && L->p[1] == '\n') L->p += 2;
            else if (L->p + 1 < L->end && L->p[1] == '\r') L->p += (L->p + 2 < L->end && L->p[2] == '\n') ? 3 : 2;
            else return LEX_ERR(L, "a backslash outside a string must end its line");
            if (L->p == L->end) return LEX_ERR(L, "a line continuation ends the header");
            cont = true;
        } else {
            /* the first token may follow blank lines, but not indented (literal_eval strips
             * only the spaces and tabs that start the text) */
            if (!L->started && newline && col > 0) return LEX_ERR(L, "unexpected indent");
            L->started = true;
            return 0;
        }
    }
    /* versions 1 and 2 go through Python's tokenize module, which refuses a continuation
     * followed by nothing but spaces ("EOF in multi-line statement") */
    if (cont && L->version <= 2) return LEX_ERR(L, "a line continuation ends the header");
    return 0;
}

static void str_append(Val *v, uint32_t cp) {
    if (v->slen < NPY_STR_KEEP) v->s[v->slen] = (cp == 0 || cp >= 0x80) ? '?' : (char)cp;
    v->slen++;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Reads a string literal after its prefix (r, u, b and their mixes): single or triple quotes,
 * Python's escapes unless raw. The text kept is only compared with key and dtype names. */
static int lex_string(Lex *L, bool raw, bool bytes) {
    Val *v = &L->v;
    memset(v, 0, sizeof *v);
    v->kind = bytes ? V_BYTES : V_STR;
    L->t = bytes ? T_BYTES : T_STR;
    unsigned char q = *L->p++;
    bool triple = L->end - L->p >= 2 && L->p[0] == q && L->p[1] == q;
    if (triple) L->p += 2;
    for (;;) {
        if (L->p >= L->end) return LEX_ERR(L, "unterminated string");
        unsigned c = *L->p;
        if (c == q) {
            if (!triple) { L->p++; return 0; }
            if (L->end - L->p >= 3 && L->p[1] == q && L->p[2] == q) { L->p += 3; return 0; }
            str_append(v, c), L->p++;
            continue;
        }
        if ((c == '\n' || c == '\r') && !triple) return LEX_ERR(L, "unterminated string");
        if (c >= 0x80 && bytes) return LEX_ERR(L, "a bytes literal holds a non-ASCII character");
        if (c != '\\') { str_append(v, c), L->p++; continue; }
        if (L->p + 1 >= L->end) return LEX_ERR(L, "unterminated string");
        unsigned e = L->p[1];
        if (raw) { /* the backslash stays, and the next character cannot end the string */
            str_append(v, '\\'), str_append(v, e), L->p += 2;
            continue;
        }
        L->p += 2;
        switch (e) {
        case '\n': break;
        case '\r': if (L->p < L->end && *L->p == '\n') L->p++; break;
        case '\\': case '\'': case '"': str_append(v, e); break;
        case 'a': str_append(v, 7); break;
        case 'b': str_append(v, 8); break;
        case 'f': str_append(v, 12); break;
        case 'n': str_append(v, 10); break;
        case 'r': str_append(v, 13); break;
        case 't': str_append(v, 9); break;
        case 'v': str_append(v, 11); break;
        case 'x': case 'u': case 'U': {
            int nd = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (e != 'x' && bytes) { str_append(v, '\\'), str_append(v, e); break; }
            uint32_t cp = 0;
            for (int k = 0; k < nd; k++, L->p++) {
                int h = L->p < L->end ? hexval(*L->p) : -1;
                if (h < 0) return LEX_ERR(L, "truncated \\%c escape in a string", e);
                cp = cp << 4 | (uint32_t)h;
            }
            if (cp > 0x10FFFF) return LEX_ERR(L, "\\U escape beyond U+10FFFF");
            str_append(v, cp);
            break;
        }
        case 'N':
            if (bytes) { str_append(v, '\\'), str_append(v, e); break; }
            return LEX_ERR(L, "\\N{...} escapes are not supported");
        default:
            if (e >= '0' && e <= '7') {
                uint32_t cp = e - '0';
                for (int k = 0; k < 2 && L->p < L->end && *L->p >= '0' && *L->p <= '7'; k++) cp = cp * 8 + (*L->p++ - '0');
                str_append(v, cp);
            } else {
                str_append(v, '\\'), str_append(v, e); /* an unknown escape keeps its backslash */
                if (e >= 0x80 && bytes) return LEX_ERR(L, "a bytes literal holds a non-ASCII character");
            }
        }
    }
}

/* Reads an integer literal as Python writes them: decimal (no leading zeros), 0x/0o/0b, single
 * underscores between digits. Floats and complex numbers are refused (no header value can be
 * one); versions 1 and 2 drop Python 2's 'L' suffix, as NumPy's _filter_header does. */
static int lex_number(Lex *L) {
    Val *v = &L->v;
    memset(v, 0, sizeof *v);
    v->kind = V_INT;
    L->t = T_INT;
    const unsigned char *p = L->p;
    unsigned base = 10;
    if (*p == '0' && p + 1 < L->end && strchr("xXoObB", p[1]) && p[1]) {
        base = (p[1] | 0x20) == 'x' ? 16 : (p[1] | 0x20) == 'o' ? 8 : 2;
        p += 2;
        if (p < L->end && *p == '_') p++;
    }
    uint64_t acc = 0;
    bool any = false, leading_zero = base == 10 && *p == '0';
    while (p < L->end) {
        int d = hexval(*p);
        if (d < 0 || (unsigned)d >= base) break;
        if (leading_zero && d != 0) return LEX_ERR(L, "leading zeros in a decimal integer");
        if (acc > (UINT64_MAX - (unsigned)d) / base) v->big = true;
        acc = acc * base + (unsigned)d;
        any = true;
        p++;
        if (p + 1 < L->end && *p == '_' && hexval(p[1]) >= 0 && (unsigned)hexval(p[1]) < base) p++;
    }
    if (!any) return LEX_ERR(L, "malformed integer");
    if (p < L->end && (*p == '.' || (base == 10 && strchr("eEjJ", *p) && *p))) return LEX_ERR(L, "float and complex numbers are not supported");
    if (acc > (uint64_t)INT64_MAX) v->big = true;
    v->i = (int64_t)acc;
    L->p = p;
    if (L->version <= 2) /* NUMBER then NAME 'L' tokens: the filter drops each such L */
        for (;;) {
            const unsigned char *r = p;
            while (r < L->end && (*r == ' ' || *r == '\t' || *r == '\f')) r++;
            if (r < L->end && *r == 'L' && !(r + 1 < L->end && ident_char(r[1]))) L->p = p = r + 1;
            else break;
        }
    if (L->p < L->end && ident_char(*L->p)) return LEX_ERR(L, "malformed integer");
    return 0;
}

/* Advances to the next token; L->t is T_ERR (with L->msg) on a lexical error. */
static int lex_next(Lex *L) {
    if (skip_space(L)) return -1;
    if (L->p >= L->end) return L->t = T_END, 0;
    unsigned c = *L->p;
    if (strchr("{}()[],:+-", (int)c) && c) {
        if (strchr("{([", (int)c) && ++L->brackets > NPY_MAX_BRACKETS) return LEX_ERR(L, "too many nested brackets");
        if (strchr("})]", (int)c)) L->brackets--;
        L->t = T_PUNCT, L->ch = (char)c, L->p++;
        return 0;
    }
    if (c == '\'' || c == '"') return lex_string(L, false, false);
    if (c >= '0' && c <= '9') return lex_number(L);
    if (c == '.' && L->p + 1 < L->end && L->p[1] >= '0' && L->p[1] <= '9') return LEX_ERR(L, "float and complex numbers are not supported");
    if (ident_char((int)c)) {
        const unsigned char *s = L->p;
        while (L->p < L->end && ident_char(*L->p)) L->p++;
        size_t n = (size_t)(L->p - s);
        if (L->p < L->end && (*L->p == '\'' || *L->p == '"') && n <= 2) {
            bool raw = false, bytes = false, fmt = false, ok = true;
            for (size_t k = 0; k < n; k++) {
                int lc = s[k] | 0x20;
                if (lc == 'r' && !raw) raw = true;
                else if (lc == 'b' && !bytes) bytes = true;
                else if (lc == 'f' && !fmt) fmt = true;
                else if (lc == 'u' && n == 1) ;
                else ok = false;
            }
            if (ok && fmt && !bytes) return LEX_ERR(L, "f-strings are not literals");
            if (ok && !fmt) return lex_string(L, raw, bytes);
        }
        if (L->p < L->end && *L->p >= 0x80) return LEX_ERR(L, "a non-ASCII character outside a string");
        memset(&L->v, 0, sizeof L->v);
        L->t = T_NAME;
        if (n == 4 && memcmp(s, "True", 4) == 0) L->v.kind = V_BOOL, L->v.i = 1;
        else if (n == 5 && memcmp(s, "False", 5) == 0) L->v.kind = V_BOOL;
        else if (n == 4 && memcmp(s, "None", 4) == 0) L->v.kind = V_NONE;
        else return LEX_ERR(L, "unexpected name '%.*s'", (int)(n > 32 ? 32 : n), (const char *)s);
        return 0;
    }
    if (c == 0) return LEX_ERR(L, "header contains a NUL byte");
    if (c >= 0x80) return LEX_ERR(L, "a non-ASCII character outside a string");
    if (c < 0x20 || c == 0x7f) return LEX_ERR(L, "unexpected control character 0x%02x", c);
    return LEX_ERR(L, "unexpected '%c'", (char)c);
}

static bool is_punct(const Lex *L, char ch) { return L->t == T_PUNCT && L->ch == ch; }

static void seq_add(Val *seq, const Val *e) {
    if (e->kind == V_BOOL) seq->bools = true;
    if (e->kind != V_INT || e->big) seq->ints = false;
    else if (seq->n < IR_MAX_RANK) seq->dims[seq->n] = e->i;
    seq->n++;
}

/* Parses one value at the current token (recursive descent over dict, tuple, list, strings with
 * implicit concatenation, ints with one unary sign, True/False/None), leaving the token after
 * it current. The top-level dict (top: not inside any container, though maybe in parentheses)
 * records its entries in L. */
static int parse_value(Lex *L, Val *v, int depth, bool top) {
    if (depth > NPY_MAX_DEPTH) return LEX_ERR(L, "nested deeper than %d", NPY_MAX_DEPTH);
    memset(v, 0, sizeof *v);
    if (L->t == T_ERR) return -1;
    if (L->t == T_END) return LEX_ERR(L, "the header ends early");
    if (L->t == T_STR || L->t == T_BYTES) {
        *v = L->v;
        TKind first = L->t;
        for (;;) {
            if (lex_next(L)) return -1;
            if (L->t != T_STR && L->t != T_BYTES) return 0;
            if (L->t != first) return LEX_ERR(L, "a str and a bytes literal cannot be joined");
            for (size_t k = 0; k < L->v.slen; k++) str_append(v, k < NPY_STR_KEEP ? (unsigned char)L->v.s[k] : '?');
        }
    }
    if (L->t == T_INT || L->t == T_NAME) {
        *v = L->v;
        return lex_next(L);
    }
    char ch = L->ch;
    if (ch == '+' || ch == '-') {
        if (lex_next(L) || parse_value(L, v, depth + 1, false)) return -1;
        if (v->kind != V_INT || v->sign) return LEX_ERR(L, "a unary %c applies to a number literal only", ch);
        if (ch == '-' && !v->big) v->i = -v->i; /* a big one is refused later: its value does not matter (and INT64_MIN has no negation) */
        v->sign = true;
        return 0;
    }
    if (ch == '{') {
        v->kind = V_DICT;
        if (lex_next(L)) return -1;
        while (!is_punct(L, '}')) {
            Val k, x;
            if (parse_value(L, &k, depth + 1, false)) return -1;
            if (!is_punct(L, ':')) return L->t == T_ERR ? -1 : LEX_ERR(L, "a dict key is not followed by ':'");
            if (lex_next(L) || parse_value(L, &x, depth + 1, false)) return -1;
            if (k.kind == V_DICT || k.kind == V_LIST) return LEX_ERR(L, "a dict key is unhashable");
            if (top) {
                bool name = k.kind == V_STR && k.slen <= NPY_STR_KEEP;
                if (name && k.slen == 5 && memcmp(k.s, "descr", 5) == 0) L->descr = x, L->has_descr = true;
                else if (name && k.slen == 13 && memcmp(k.s, "fortran_order", 13) == 0) L->fortran = x, L->has_fortran = true;
                else if (name && k.slen == 5 && memcmp(k.s, "shape", 5) == 0) L->shape = x, L->has_shape = true;
                else L->other_key = true;
            }
            if (is_punct(L, ',')) {
                if (lex_next(L)) return -1;
            } else if (!is_punct(L, '}')) {
                return L->t == T_ERR ? -1 : LEX_ERR(L, "expected ',' or '}' in a dict");
            }
        }
        return lex_next(L);
    }
    if (ch == '(' || ch == '[') {
        char close = ch == '(' ? ')' : ']';
        v->kind = ch == '(' ? V_TUPLE : V_LIST;
        v->ints = true;
        if (lex_next(L)) return -1;
        bool comma = false;
        while (!is_punct(L, close)) {
            Val e;
            if (parse_value(L, &e, depth + 1, top && ch == '(' && v->n == 0 && !comma)) return -1;
            if (ch == '(' && v->n == 0 && !comma && is_punct(L, ')')) { /* (x) is x */
                *v = e;
                return lex_next(L);
            }
            seq_add(v, &e);
            if (is_punct(L, ',')) {
                comma = true;
                if (lex_next(L)) return -1;
            } else if (!is_punct(L, close)) {
                return L->t == T_ERR ? -1 : LEX_ERR(L, "expected ',' or '%c'", close);
            }
        }
        return lex_next(L);
    }
    return LEX_ERR(L, "unexpected '%c'", ch);
}

/* ---- reading -------------------------------------------------------------------------------- */

/* Counts the characters of strict UTF-8 (as Python's decoder: no overlongs, no surrogates, at
 * most U+10FFFF); -1 if the bytes are not UTF-8. */
static long utf8_chars(const unsigned char *s, size_t n) {
    long chars = 0;
    for (size_t i = 0; i < n; chars++) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : SIZE_MAX;
        if (k == SIZE_MAX || k > n - i - 1) return -1;
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xC0) != 0x80) return -1;
        if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0) || (c == 0xF0 && s[i + 1] < 0x90) ||
            (c == 0xF4 && s[i + 1] >= 0x90))
            return -1;
        i += k + 1;
    }
    return chars;
}

/* Parses the magic, version, header length and header dict of an .npy image, as NumPy's
 * read_magic and _read_array_header do, and checks the result against gtc's limits. len may
 * stop anywhere after the header (the data is not looked at). */
int rt_npy_header(const void *buf, size_t len, RtNpyHeader *h) {
    const unsigned char *u = buf;
    memset(h, 0, sizeof *h);
    if (len < 8 || memcmp(u, "\x93NUMPY", 6) != 0) return NPY_ERR("not an .npy file (bad magic)");
    unsigned major = u[6], minor = u[7];
    if (major < 1 || major > 3 || minor != 0)
        return NPY_ERR("unsupported format version %u.%u (1.0, 2.0 and 3.0 are read)", major, minor);
    size_t hoff = major == 1 ? 10 : 12, hlen;
    if (len < hoff) return NPY_ERR("truncated header");
    hlen = major == 1 ? (size_t)u[8] | (size_t)u[9] << 8
                      : (size_t)u[8] | (size_t)u[9] << 8 | (size_t)u[10] << 16 | (size_t)u[11] << 24;
    /* NumPy refuses headers over 10000 characters (its max_header_size); UTF-8 (version 3)
     * spends at most 4 bytes on one */
    size_t max_bytes = (size_t)NPY_MAX_HEADER_CHARS * (major == 3 ? 4 : 1);
    if (hlen > max_bytes) return NPY_ERR("header of %zu bytes is over NumPy's limit of %d characters", hlen, NPY_MAX_HEADER_CHARS);
    if (hlen > len - hoff) return NPY_ERR("header length %zu runs past the end of the file", hlen);
    const unsigned char *text = u + hoff;
    if (major == 3) {
        long chars = utf8_chars(text, hlen);
        if (chars < 0) return NPY_ERR("a version 3.0 header is not valid UTF-8");
        if (chars > NPY_MAX_HEADER_CHARS)
            return NPY_ERR("header of %ld characters is over NumPy's limit of %d", chars, NPY_MAX_HEADER_CHARS);
    }

    Lex L = {.p = text, .end = text + hlen, .version = (int)major};
    /* ast.literal_eval strips leading spaces and tabs; the tokenizer takes the rest */
    Val top;
    if (lex_next(&L) || parse_value(&L, &top, 0, true)) return NPY_ERR("bad header: %s", L.msg);
    if (L.t != T_END) return NPY_ERR("bad header: %s", L.t == T_ERR ? L.msg : "text after the dict");
    if (top.kind != V_DICT) return NPY_ERR("bad header: not a dict");
    if (L.other_key || !L.has_descr || !L.has_fortran || !L.has_shape)
        return NPY_ERR("bad header: its keys must be exactly 'descr', 'fortran_order' and 'shape'");
    const Val *s = &L.shape;
    if (s->kind != V_TUPLE || s->bools || !s->ints) return NPY_ERR("'shape' must be a tuple of integers");
    if (s->n > IR_MAX_RANK) return NPY_ERR("rank %d exceeds the limit of %d", s->n, IR_MAX_RANK);
    if (L.fortran.kind != V_BOOL) return NPY_ERR("'fortran_order' must be True or False");
    const Val *d = &L.descr;
    if (d->kind != V_STR) return NPY_ERR("unsupported 'descr' (a structured, subarray or non-string dtype)");
    if ((d->slen == 3 && strchr("<>|=", d->s[0]) && memcmp(d->s + 1, "V2", 2) == 0) ||
        (d->slen == 2 && memcmp(d->s, "V2", 2) == 0))
        return NPY_ERR("unsupported dtype '%.*s': raw 2-byte values (ml_dtypes saves bfloat16 so) do "
                       "not say what they hold; save them as float32 (exact for bfloat16)", (int)d->slen, d->s);
    if (d->slen > NPY_STR_KEEP || !descr_dtype(d->s, d->slen, &h->dtype, &h->big_endian))
        return NPY_ERR("unsupported dtype '%.*s' (bool, int8 to int64, uint8 to uint64, float16, float32 and "
                       "float64 are read)",
                       (int)(d->slen > NPY_STR_KEEP ? NPY_STR_KEEP : d->slen), d->s);
    for (int i = 0; i < s->n; i++)
        if (s->dims[i] < 0) return NPY_ERR("negative dimension %lld in 'shape'", (long long)s->dims[i]);
    TensorType tt = {.dtype = h->dtype, .rank = s->n};
    memcpy(tt.dims, s->dims, sizeof tt.dims);
    char err[256];
    if (ir_check_type(&tt, err, sizeof err)) return NPY_ERR("%s", err);
    h->rank = s->n;
    memcpy(h->shape, s->dims, sizeof h->shape);
    h->fortran_order = L.fortran.i != 0;
    h->data_offset = hoff + hlen;
    h->data_bytes = (size_t)ir_numel(&tt) * ir_dtype_size(h->dtype);
    return 0;
}

/* Fortran order: element (i0, ..., in-1) sits at sum(ik * d0 * ... * dk-1); walks the C-order
 * index, copying each element from there. */
static void fortran_to_c(unsigned char *dst, const unsigned char *src, int rank, const int64_t *shape, size_t esize, size_t numel) {
    int64_t idx[IR_MAX_RANK] = {0}, fstride[IR_MAX_RANK];
    int64_t acc = 1;
    for (int k = 0; k < rank; k++) fstride[k] = acc, acc *= shape[k];
    for (size_t n = 0; n < numel; n++) {
        int64_t off = 0;
        for (int k = 0; k < rank; k++) off += idx[k] * fstride[k];
        memcpy(dst + n * esize, src + (size_t)off * esize, esize);
        for (int k = rank - 1; k >= 0; k--) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
}

RtTensor *rt_npy_read(const RtBackend *b, const void *buf, size_t len) {
    RtNpyHeader h;
    if (rt_npy_header(buf, len, &h)) return NULL;
    size_t have = len - h.data_offset, need = h.data_bytes, esize = ir_dtype_size(h.dtype);
    /* np.load reads the elements the shape needs and ignores bytes after them */
    if (have < need) return NPY_FAIL("data is truncated: %zu bytes for %zu expected", have, need);
    const unsigned char *data = (const unsigned char *)buf + h.data_offset;
    if (!h.fortran_order && !h.big_endian && h.dtype != DT_BOOL) return rt_from_host(b, h.dtype, h.rank, h.shape, data);
    unsigned char *tmp = malloc(need ? need : 1);
    if (!tmp) return rt_error(RT_EOOM, "out of host memory"), NULL;
    if (h.fortran_order && h.rank > 1) fortran_to_c(tmp, data, h.rank, h.shape, esize, need / esize);
    else memcpy(tmp, data, need);
    if (h.big_endian)
        for (size_t i = 0; i < need; i += esize)
            for (size_t j = 0; j < esize / 2; j++) {
                unsigned char c = tmp[i + j];
                tmp[i + j] = tmp[i + esize - 1 - j], tmp[i + esize - 1 - j] = c;
            }
    if (h.dtype == DT_BOOL) /* NumPy keeps any non-zero byte as True */
        for (size_t i = 0; i < need; i++) tmp[i] = tmp[i] != 0;
    RtTensor *t = rt_from_host(b, h.dtype, h.rank, h.shape, tmp);
    free(tmp);
    return t;
}

/* ---- writing -------------------------------------------------------------------------------- */

int rt_npy_write(const RtTensor *t, char **out, size_t *len) {
    const char *descr = NULL;
    for (size_t i = 0; i < sizeof descrs / sizeof *descrs; i++)
        if (descrs[i].dt == t->dtype) descr = descrs[i].descr;
    /* NumPy has no bfloat16: ml_dtypes saves one as '<V2', raw bytes that do not say what they
     * hold, so gtc neither writes nor reads that (docs/compat.md) */
    if (t->dtype == DT_BFLOAT16)
        return rt_error(RT_EINVAL, "npy: bfloat16 has no NumPy dtype; save astype('float32'), which "
                                   "holds every bfloat16 value exactly");
    if (!descr) return rt_error(RT_EINVAL, "npy: unsupported dtype");
    char head[640];
    size_t hlen = ir_npy_header(descr, t->rank, t->shape, head, sizeof head), nbytes = rt_nbytes(t);
    char *buf = malloc(hlen + nbytes);
    if (!buf) return rt_error(RT_EOOM, "out of host memory");
    memcpy(buf, head, hlen);
    if (rt_to_host(t, buf + hlen)) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = hlen + nbytes;
    return 0;
}
