/* ir/json_parse.h: the text of a graph file to a cJSON tree (ir/json_parse.c), for ir/json_read.c. */
#ifndef GTC_JSON_PARSE_H
#define GTC_JSON_PARSE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "ir.h"

/* The tree of `text` (the caller cJSON_Deletes it), or NULL after diag_at with "LINE:COL: why"
 * (or the size limit): over IR_MAX_FILE_BYTES, invalid UTF-8, a NUL byte, invalid JSON, text
 * after the object, or a "\u0000" escape, which cJSON would decode into a NUL that ends a name. */
cJSON *ir_json_parse(const char *text, size_t len, Diag *d);

#endif
