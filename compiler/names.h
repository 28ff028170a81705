/* compiler/names.h: the names gtc derives from a graph's name for what it generates (the PHP
 * class of a compiled model and of its plan). */
#ifndef GTC_NAMES_H
#define GTC_NAMES_H

#include <stddef.h>

#include "../ir/ir.h"

/* The PHP class name for a graph name: "mlp_train_step" → "MlpTrainStep"; a name that would be
 * a PHP reserved word or a built-in class of PHP or a common extension (compiler/php_classes.h),
 * or would not start with a letter, gets the prefix "Gtc" ("list" → "GtcList", "closure" →
 * "GtcClosure", "_2d" → "Gtc2d"). 0; 1 with a note in err saying why when a name was taken;
 * -1 with a message in err when the graph name is not an identifier. */
int names_php_class(const char *graph, char *buf, size_t n, char *err, size_t errn);

#endif
