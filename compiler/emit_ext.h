/* compiler/emit_ext.h: the PHP extension glue generator (ext.c) of a per-model extension: module
 * gtc_<graph>, final class <Graph> in CamelCase (compiler/names.h). */
#ifndef GTC_EMIT_EXT_H
#define GTC_EMIT_EXT_H

#include "../ir/ir.h"

/* Writes DIR/ext.c for g: the module gtc_<name> (ZEND_MOD_REQUIRED("gtc")) with one final
 * class over the plan table `gtc_plan` that plan.c defines. source_name (the input's base name)
 * appears only in the generated-file header, escaped (emit_header). Deterministic. 0, or -1
 * with the error in d. */
int emit_ext(const Graph *g, const char *dir, const char *source_name, Diag *d);
/* The same text, malloc'd (the caller frees); NULL with the error in d. */
char *emit_ext_source(const Graph *g, const char *source_name, Diag *d);

#endif
