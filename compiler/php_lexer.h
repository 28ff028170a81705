/* compiler/php_lexer.h: a lexer for the subset of PHP that gtc reads as graphs (compiler/frontend_php.c).
 * It takes any byte sequence: what it cannot read becomes one PT_ERROR token with a message. */
#ifndef GTC_PHP_LEXER_H
#define GTC_PHP_LEXER_H

#include <stddef.h>

typedef enum {
    PT_EOF,
    PT_INLINE_HTML, /* text outside <?php ... ?> */
    PT_OPEN_TAG,    /* <?php */
    PT_CLOSE_TAG,   /* ?> */
    PT_IDENT,       /* a name or keyword (text holds it) */
    PT_VAR,         /* $name (text holds the name without '$') */
    PT_NUMBER,      /* num holds the value; is_int says whether it was written as an integer */
    PT_STRING,      /* a string without interpolation; text holds the decoded bytes */
    PT_ISTRING,     /* a double-quoted string that interpolates variables */
    PT_ATTR,        /* #[ */
    PT_PUNCT,       /* an operator or punctuation; text holds it */
    PT_ERROR        /* text holds the message; the token after it is PT_EOF */
} PhpTokKind;

typedef struct {
    PhpTokKind kind;
    int line, col;  /* 1-based; columns count bytes */
    char *text;     /* owned, NUL-terminated (may be "" ) */
    size_t len;     /* bytes in text (strings may hold NUL bytes) */
    double num;
    int is_int;
} PhpTok;

typedef struct {
    PhpTok *v;
    int n, cap;
} PhpToks;

/* Splits src[0..len) into tokens (comments and white space dropped), always ending with PT_EOF.
 * Returns 0, or -1 when a PT_ERROR token was produced (it is the token before PT_EOF). */
int php_lex(const char *src, size_t len, PhpToks *out);
void php_toks_free(PhpToks *t);
/* Whether token t is the punctuation p, or the identifier p ignoring ASCII case (keywords). */
int php_tok_is(const PhpTok *t, const char *p);
int php_tok_kw(const PhpTok *t, const char *kw);

#endif
