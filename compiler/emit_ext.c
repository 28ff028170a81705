/* compiler/emit_ext.c: generates ext.c, the PHP extension glue of a compiled model, by filling
 * templates/ext.c.in (built into gtc as a string: the Makefile turns it into ext_template.inc). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_ext.h"

static const char ext_template[] =
#include "ext_template.inc"
    ;

/* PHP's reserved words and reserved class names (PHP 8.2), lower case. A class may not be
 * named after any of them. */
static const char *const php_reserved[] = {
    "abstract", "and", "array", "as", "bool", "break", "callable", "case", "catch", "class",
    "clone", "const", "continue", "declare", "default", "die", "do", "echo", "else", "elseif",
    "empty", "enddeclare", "endfor", "endforeach", "endif", "endswitch", "endwhile", "enum",
    "eval", "exit", "extends", "false", "final", "finally", "float", "fn", "for", "foreach",
    "function", "global", "goto", "if", "implements", "include", "instanceof", "insteadof", "int",
    "interface", "isset", "iterable", "list", "match", "mixed", "namespace", "never", "new",
    "null", "numeric", "object", "or", "parent", "print", "private", "protected", "public",
    "readonly", "require", "resource", "return", "self", "static", "string", "switch", "throw",
    "trait", "true", "try", "unset", "use", "var", "void", "while", "xor", "yield",
};

static bool is_reserved(const char *s) {
    char low[IR_MAX_NAME + 1];
    size_t n = strlen(s);
    if (n > IR_MAX_NAME) return false;
    for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
    for (size_t i = 0; i < sizeof php_reserved / sizeof *php_reserved; i++)
        if (strcmp(low, php_reserved[i]) == 0) return true;
    return false;
}

int emit_ext_class_name(const char *graph, char *buf, size_t n, char *err, size_t errn) {
    if (!graph || !ir_is_identifier(graph) || strlen(graph) > IR_MAX_NAME) {
        snprintf(err, errn, "the graph name \"%s\" is not an identifier of at most %d characters",
                 graph ? graph : "", IR_MAX_NAME);
        return -1;
    }
    char camel[IR_MAX_NAME + 1];
    size_t k = 0;
    bool up = true;
    for (const char *p = graph; *p; p++) {
        if (*p == '_') {
            up = true;
            continue;
        }
        camel[k++] = up ? (char)toupper((unsigned char)*p) : *p;
        up = false;
    }
    camel[k] = 0;
    bool prefix = k == 0 || !isalpha((unsigned char)camel[0]) || is_reserved(camel);
    if ((size_t)snprintf(buf, n, "%s%s", prefix ? "Gtc" : "", k ? camel : "Model") >= n) {
        snprintf(err, errn, "the class name for graph \"%s\" is too long", graph);
        return -1;
    }
    return 0;
}

/* The template with its @KEY@s replaced (only these keys; any other '@' is literal). */
static void fill_template(Str *b, const char *module, const char *graph, const char *cls,
                          const char *lc) {
    static const char *const keys[] = {"@VERSION@", "@MODULE@", "@GRAPH@", "@CLASS@", "@LCCLASS@"};
    const char *vals[] = {GTC_VERSION, module, graph, cls, lc};
    const char *p = ext_template;
    while (*p) {
        size_t n = strcspn(p, "@");
        if (n) {
            str_add(b, "%.*s", (int)n, p);
            p += n;
            continue;
        }
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && strncmp(p, keys[k], strlen(keys[k])) != 0) k++;
        if (k < sizeof keys / sizeof *keys) {
            str_cat(b, vals[k]);
            p += strlen(keys[k]);
        } else {
            str_cat(b, "@");
            p++;
        }
    }
}

char *emit_ext_source(const Graph *g, const char *source_name, Diag *d) {
    char cls[IR_MAX_NAME + 16], lc[IR_MAX_NAME + 16], err[256];
    if (emit_ext_class_name(g->name, cls, sizeof cls, err, sizeof err)) {
        diag_at(d, "name", "%s", err);
        return NULL;
    }
    for (size_t i = 0; i < sizeof cls; i++) lc[i] = (char)tolower((unsigned char)cls[i]);
    char *module = xfmt("gtc_%s", g->name);
    Str b = {0};
    emit_header(&b, source_name ? source_name : "(unknown)");
    fill_template(&b, module, g->name, cls, lc);
    free(module);
    return str_take(&b);
}

int emit_ext(const Graph *g, const char *dir, const char *source_name, Diag *d) {
    char *text = emit_ext_source(g, source_name, d);
    if (!text) return -1;
    int rc = emit_write_file(dir, "ext.c", text, d);
    free(text);
    return rc;
}
