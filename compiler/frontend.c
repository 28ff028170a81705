/* compiler/frontend.c: loads a graph from a file, choosing the front-end: PHP by the .php
 * extension, ONNX by the .onnx extension or by its first byte (frontend_onnx_sniff), else JSON. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend.h"
#include "frontend_onnx.h"
#include "frontend_php.h"

static const char *selected_function, *train_spec;

void frontend_select_function(const char *name) { selected_function = name; }
void frontend_select_train(const char *spec) { train_spec = spec; }

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool frontend_is_onnx(const char *path) {
    if (ends_with(path, ".onnx")) return true;
    if (ends_with(path, ".php") || ends_with(path, ".json")) return false;
    /* only the first byte of a regular file (a FIFO is never waited on: O_NONBLOCK, and it is
     * refused by the reader the file goes to) */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st;
    char c;
    bool yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, &c, 1) == 1 && frontend_onnx_sniff(&c, 1);
    close(fd);
    return yes;
}

Graph *frontend_load(const char *path, Diag *d) {
    bool onnx = frontend_is_onnx(path), php = ends_with(path, ".php");
    if (selected_function && !php) {
        diag_at(d, NULL, "--function picks a graph function in a .php file; a%s file holds one graph",
                onnx ? "n ONNX" : " JSON graph");
        return NULL;
    }
    if (train_spec && !onnx) {
        diag_at(d, NULL, "--train applies to ONNX models; a graph file has its own \"train\" section (docs/graph-format.md)");
        return NULL;
    }
    if (php) return frontend_php_load(path, selected_function, d);
    if (onnx) return frontend_onnx_load(path, train_spec, d);
    return ir_read_json_file(path, d);
}
