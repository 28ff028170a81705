/* compiler/emit_ext.c: generates ext.c, the PHP extension glue of a compiled model, by filling
 * templates/ext.c.in (built into gtc as a string: the Makefile turns it into ext_template.inc). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_ext.h"
#include "names.h"

static const char ext_template[] =
#include "ext_template.inc"
    ;

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
    if (names_php_class(g->name, cls, sizeof cls, err, sizeof err) < 0) {
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
