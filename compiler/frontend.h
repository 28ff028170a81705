/* compiler/frontend.h: graph front-ends: JSON (ir/json_read.c) and PHP (compiler/frontend_php.c). */
#ifndef GTC_FRONTEND_H
#define GTC_FRONTEND_H

#include "../ir/ir.h"

/* Reads and verifies the graph in `path`; NULL with the first error in d. Caller frees. */
Graph *frontend_load(const char *path, Diag *d);
/* The graph function later loads of .php files read (`--function NAME`; NULL: the file's only
 * one). The name is borrowed. */
void frontend_select_function(const char *name);

#endif
