/* compiler/frontend_php.h: reads a graph from a PHP file: a function marked #[Gtc\Graph] whose
 * body is straight-line CudaArray code (docs/php-graphs.md). */
#ifndef GTC_FRONTEND_PHP_H
#define GTC_FRONTEND_PHP_H

#include "../ir/ir.h"

/* Reads the graph function `function` (NULL: the file's only one) from PHP source text; the
 * result is verified. NULL with "FILE:LINE:COLUMN: message" in d. Caller frees. */
Graph *frontend_php_read(const char *text, size_t len, const char *function, Diag *d);
Graph *frontend_php_load(const char *path, const char *function, Diag *d);

#endif
