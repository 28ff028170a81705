/* compiler/php_lexer.c: splits a PHP file into tokens for the graph front-end. Bounded by the
 * length it is given (no reliance on a terminating NUL); any byte sequence yields tokens ending
 * in PT_EOF, with at most one PT_ERROR before it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "php_lexer.h"

typedef struct {
    const char *s;
    size_t len, i;
    int line, col;
    PhpToks *out;
} Lx;

static char peek(const Lx *x, size_t k) { return x->i + k < x->len ? x->s[x->i + k] : 0; }

static void adv(Lx *x, size_t k) {
    for (; k && x->i < x->len; k--, x->i++) {
        if (x->s[x->i] == '\n') x->line++, x->col = 1;
        else x->col++;
    }
}

static PhpTok *push(Lx *x, PhpTokKind kind, int line, int col, const char *text, size_t n) {
    PhpToks *t = x->out;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->v = realloc(t->v, (size_t)t->cap * sizeof *t->v);
        if (!t->v) abort();
    }
    PhpTok *k = &t->v[t->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind, k->line = line, k->col = col;
    k->text = malloc(n + 1);
    if (!k->text) abort();
    if (n) memcpy(k->text, text, n);
    k->text[n] = 0;
    k->len = n;
    return k;
}

static int lex_error(Lx *x, int line, int col, const char *msg) {
    push(x, PT_ERROR, line, col, msg, strlen(msg));
    return -1;
}

static int is_ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
static int is_ident(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number: decimal (with '_' separators, fraction, exponent) or 0x / 0b / 0o integer. */
static int lex_number(Lx *x) {
    int line = x->line, col = x->col;
    size_t start = x->i;
    char buf[80];
    size_t n = 0;
    int is_int = 1, base = 10;
    if (peek(x, 0) == '0' && strchr("xXbBoO", peek(x, 1) ? peek(x, 1) : ' ')) {
        char b = (char)(peek(x, 1) | 0x20);
        base = b == 'x' ? 16 : b == 'b' ? 2 : 8;
        adv(x, 2);
    }
    if (base != 10) {
        double v = 0;
        int digits = 0;
        for (;;) {
            char c = peek(x, 0);
            int d = is_digit(c) ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
            if (c == '_' && digits) { adv(x, 1); continue; }
            if (d < 0 || d >= base) break;
            v = v * base + d, digits++;
            adv(x, 1);
        }
        if (!digits) return lex_error(x, line, col, "malformed number");
        PhpTok *t = push(x, PT_NUMBER, line, col, x->s + start, x->i - start);
        t->num = v, t->is_int = v < 9223372036854775808.0;
        return 0;
    }
    while (is_digit(peek(x, 0)) || (peek(x, 0) == '_' && is_digit(peek(x, 1)) && x->i > start)) {
        if (peek(x, 0) != '_' && n < sizeof buf - 1) buf[n++] = peek(x, 0);
        adv(x, 1);
    }
    if (peek(x, 0) == '.' && is_digit(peek(x, 1))) {
        is_int = 0;
        if (n < sizeof buf - 1) buf[n++] = '.';
        adv(x, 1);
        while (is_digit(peek(x, 0)) || (peek(x, 0) == '_' && is_digit(peek(x, 1)))) {
            if (peek(x, 0) != '_' && n < sizeof buf - 1) buf[n++] = peek(x, 0);
            adv(x, 1);
        }
    } else if (peek(x, 0) == '.' && x->i > start) { /* "1." */
        is_int = 0;
        adv(x, 1);
    }
    if ((peek(x, 0) | 0x20) == 'e' && (is_digit(peek(x, 1)) || ((peek(x, 1) == '+' || peek(x, 1) == '-') && is_digit(peek(x, 2))))) {
        is_int = 0;
        if (n < sizeof buf - 3) buf[n++] = 'e', buf[n++] = peek(x, 1);
        adv(x, 2);
        while (is_digit(peek(x, 0))) {
            if (n < sizeof buf - 1) buf[n++] = peek(x, 0);
            adv(x, 1);
        }
    }
    if (n >= sizeof buf - 3) return lex_error(x, line, col, "number is too long");
    if (!n) return lex_error(x, line, col, "malformed number");
    buf[n] = 0;
    PhpTok *t = push(x, PT_NUMBER, line, col, x->s + start, x->i - start);
    t->num = strtod(buf, NULL);
    t->is_int = is_int && t->num < 9223372036854775808.0;
    if (is_ident(peek(x, 0)))
        return lex_error(x, x->line, x->col, "unexpected character after a number");
    return 0;
}

/* A quoted string. Single quotes: only \\ and \' are escapes. Double quotes: the usual escapes;
 * an unescaped $name, ${ or {$ makes it PT_ISTRING (interpolation). */
static int lex_string(Lx *x) {
    int line = x->line, col = x->col;
    char q = peek(x, 0);
    adv(x, 1);
    size_t cap = 64, n = 0;
    char *buf = malloc(cap);
    if (!buf) abort();
    int interp = 0;
    for (;;) {
        if (x->i >= x->len) {
            free(buf);
            return lex_error(x, line, col, "unterminated string: a string ends with the quote that starts it");
        }
        char c = peek(x, 0), out = c;
        if (c == q) {
            adv(x, 1);
            break;
        }
        if (c == '\\' && x->i + 1 < x->len) {
            char e = peek(x, 1);
            if (q == '\'') {
                if (e == '\\' || e == '\'') out = e, adv(x, 1);
            } else {
                const char *from = "nrtv\\$\"0ef", *to = "\n\r\t\v\\$\"\0\033\f";
                const char *p = e ? strchr(from, e) : NULL;
                if (p) out = to[p - from], adv(x, 1);
            }
        } else if (q == '"' && ((c == '$' && is_ident_start((unsigned char)peek(x, 1))) ||
                                (c == '$' && peek(x, 1) == '{') || (c == '{' && peek(x, 1) == '$'))) {
            interp = 1;
        }
        if (n + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
        buf[n++] = out;
        adv(x, 1);
    }
    push(x, interp ? PT_ISTRING : PT_STRING, line, col, buf, n);
    free(buf);
    return 0;
}

static const char *const puncts[] = {
    "**=", "...", "<=>", "===", "!==", "<<=", ">>=", "?\?=", "?->",
    "**", "->", "=>", "::", "==", "!=", "<>", "<=", ">=", "&&", "||", "?\?", "++", "--", "+=", "-=",
    "*=", "/=", ".=", "%=", "&=", "|=", "^=", "<<", ">>",
    "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "+", "-", "*", "/", "%", ".", "<", ">", "!",
    "?", "&", "|", "^", "~", "@", "\\", "$", "`", NULL};

/* PHP code from x->i until "?>" or the end. */
static int lex_code(Lx *x) {
    while (x->i < x->len) {
        char c = peek(x, 0);
        int line = x->line, col = x->col;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            adv(x, 1);
        } else if (c == '?' && peek(x, 1) == '>') {
            push(x, PT_CLOSE_TAG, line, col, "?>", 2);
            adv(x, 2);
            if (peek(x, 0) == '\n') adv(x, 1);
            return 0;
        } else if ((c == '#' && peek(x, 1) != '[') || (c == '/' && peek(x, 1) == '/')) {
            while (x->i < x->len && peek(x, 0) != '\n' && !(peek(x, 0) == '?' && peek(x, 1) == '>')) adv(x, 1);
        } else if (c == '/' && peek(x, 1) == '*') {
            adv(x, 2);
            while (x->i < x->len && !(peek(x, 0) == '*' && peek(x, 1) == '/')) adv(x, 1);
            if (x->i >= x->len) return lex_error(x, line, col, "unterminated comment: close it with */");
            adv(x, 2);
        } else if (c == '#') {
            push(x, PT_ATTR, line, col, "#[", 2);
            adv(x, 2);
        } else if (c == '$' && is_ident_start((unsigned char)peek(x, 1))) {
            size_t s = x->i + 1, k = 1;
            while (is_ident((unsigned char)peek(x, k))) k++;
            push(x, PT_VAR, line, col, x->s + s, k - 1);
            adv(x, k);
        } else if (is_ident_start((unsigned char)c)) {
            size_t k = 0;
            while (is_ident((unsigned char)peek(x, k))) k++;
            push(x, PT_IDENT, line, col, x->s + x->i, k);
            adv(x, k);
        } else if (is_digit(c) || (c == '.' && is_digit(peek(x, 1)))) {
            if (lex_number(x)) return -1;
        } else if (c == '\'' || c == '"') {
            if (lex_string(x)) return -1;
        } else if (c == '<' && peek(x, 1) == '<' && peek(x, 2) == '<') {
            return lex_error(x, line, col, "heredoc and nowdoc strings are not supported; use a single-quoted string");
        } else {
            int done = 0;
            for (int p = 0; puncts[p] && !done; p++) {
                size_t n = strlen(puncts[p]);
                if (x->i + n <= x->len && memcmp(x->s + x->i, puncts[p], n) == 0) {
                    push(x, PT_PUNCT, line, col, puncts[p], n);
                    adv(x, n);
                    done = 1;
                }
            }
            if (!done) {
                char msg[96];
                unsigned char b = (unsigned char)c;
                if (b >= 0x21 && b < 0x7f) snprintf(msg, sizeof msg, "unexpected character '%c' (not PHP syntax)", c);
                else snprintf(msg, sizeof msg, "unexpected byte 0x%02x: PHP code is text; remove it", b);
                return lex_error(x, line, col, msg);
            }
        }
    }
    return 0;
}

int php_lex(const char *src, size_t len, PhpToks *out) {
    memset(out, 0, sizeof *out);
    Lx x = {src, len, 0, 1, 1, out};
    int rc = 0;
    if (len >= 2 && src[0] == '#' && src[1] == '!') /* a shebang line, as the CLI skips it */
        while (x.i < len && src[x.i] != '\n') adv(&x, 1);
    while (x.i < x.len && !rc) {
        /* inline text up to the next "<?php" (or "<?=") */
        size_t start = x.i;
        int line = x.line, col = x.col;
        while (x.i < x.len && !(peek(&x, 0) == '<' && peek(&x, 1) == '?' &&
                                ((x.i + 5 <= x.len && strncasecmp(x.s + x.i + 2, "php", 3) == 0 &&
                                  (x.i + 5 == x.len || strchr(" \t\r\n", x.s[x.i + 5]))) || peek(&x, 2) == '=')))
            adv(&x, 1);
        if (x.i > start)
            push(&x, PT_INLINE_HTML, line, col, src + start, x.i - start);
        if (x.i >= x.len) break;
        line = x.line, col = x.col;
        if (peek(&x, 2) == '=') {
            rc = lex_error(&x, line, col, "the short echo tag <?= is not supported; start the file with <?php");
            break;
        }
        push(&x, PT_OPEN_TAG, line, col, "<?php", 5);
        adv(&x, 5);
        rc = lex_code(&x);
    }
    push(&x, PT_EOF, x.line, x.col, "", 0);
    return rc;
}

void php_toks_free(PhpToks *t) {
    for (int i = 0; i < t->n; i++) free(t->v[i].text);
    free(t->v);
    memset(t, 0, sizeof *t);
}

int php_tok_is(const PhpTok *t, const char *p) { return t->kind == PT_PUNCT && strcmp(t->text, p) == 0; }

int php_tok_kw(const PhpTok *t, const char *kw) { return t->kind == PT_IDENT && strcasecmp(t->text, kw) == 0; }
