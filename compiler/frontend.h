/* compiler/frontend.h: graph front-ends (JSON now; PHP attributes later). */
#ifndef GTC_FRONTEND_H
#define GTC_FRONTEND_H

#include "../ir/ir.h"

/* Reads and verifies the graph in `path`; NULL with the first error in d. Caller frees. */
Graph *frontend_load(const char *path, Diag *d);

#endif
