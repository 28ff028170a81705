/* compiler/emit_ext.h: the PHP extension glue generator (ext.c) of a per-model extension, and
 * the names it derives from the graph (module gtc_<graph>, final class <Graph> in CamelCase). */
#ifndef GTC_EMIT_EXT_H
#define GTC_EMIT_EXT_H

#include <stddef.h>

#include "../ir/ir.h"

/* The PHP class name for a graph name: "mlp_train_step" → "MlpTrainStep"; a name that would be
 * a PHP reserved word or would not start with a letter gets the prefix "Gtc" ("list" → "GtcList",
 * "_2d" → "Gtc2d"). -1 with a message in err when the graph name is not an identifier. */
int emit_ext_class_name(const char *graph, char *buf, size_t n, char *err, size_t errn);

/* Writes DIR/ext.c for g: the module gtc_<name> (ZEND_MOD_REQUIRED("gtc")) with one final
 * class over the plan table `gtc_plan` that plan.c defines. source_name (the input's base name)
 * appears only in the generated-file header, escaped (emit_header). Deterministic. 0, or -1
 * with the error in d. */
int emit_ext(const Graph *g, const char *dir, const char *source_name, Diag *d);
/* The same text, malloc'd (the caller frees); NULL with the error in d. */
char *emit_ext_source(const Graph *g, const char *source_name, Diag *d);

#endif
