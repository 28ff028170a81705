/* compiler/frontend.c: loads a graph from a file, choosing the front-end by extension. */
#include <string.h>

#include "frontend.h"

Graph *frontend_load(const char *path, Diag *d) {
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".php") == 0) {
        diag_at(d, NULL, "PHP graph files are not supported yet; use a .json graph");
        return NULL;
    }
    return ir_read_json_file(path, d);
}
