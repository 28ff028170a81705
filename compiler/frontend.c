/* compiler/frontend.c: loads a graph from a file, choosing the front-end by extension. */
#include <string.h>

#include "frontend.h"
#include "frontend_php.h"

static const char *selected_function;

void frontend_select_function(const char *name) { selected_function = name; }

Graph *frontend_load(const char *path, Diag *d) {
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".php") == 0) return frontend_php_load(path, selected_function, d);
    if (selected_function) {
        diag_at(d, NULL, "--function picks a graph function in a .php file; a JSON graph file holds one graph");
        return NULL;
    }
    return ir_read_json_file(path, d);
}
