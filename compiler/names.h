/* compiler/names.h: the names gtc derives from a graph's name for what it generates (the PHP
 * class of a compiled model and of its plan). */
#ifndef GTC_NAMES_H
#define GTC_NAMES_H

#include <stddef.h>

#include "../ir/ir.h"

/* The PHP class name for a graph name: "mlp_train_step" → "MlpTrainStep"; a name that would be
 * a PHP reserved word or would not start with a letter gets the prefix "Gtc" ("list" → "GtcList",
 * "_2d" → "Gtc2d"). -1 with a message in err when the graph name is not an identifier. */
int names_php_class(const char *graph, char *buf, size_t n, char *err, size_t errn);

#endif
