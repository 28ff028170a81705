/* compiler/frontend.c: loads a graph from a file, choosing the front-end: PHP by the .php
 * extension, ONNX by the .onnx extension or by its first byte (frontend_onnx_sniff), else JSON. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend.h"
#include "frontend_onnx.h"
#include "frontend_php.h"

static const char *selected_function;
static OnnxOptions onnx_opts;

void frontend_select_function(const char *name) { selected_function = name; }
void frontend_select_train(const char *spec) { onnx_opts.train = spec; }
void frontend_select_dims(const char *spec) { onnx_opts.dims = spec; }

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
    if ((onnx_opts.train || onnx_opts.dims) && !onnx) {
        diag_at(d, NULL, "%s applies to ONNX models%s", onnx_opts.train ? "--train" : "--dim",
                onnx_opts.train ? "; a graph file has its own \"train\" section (docs/graph-format.md)" : "");
        return NULL;
    }
    if (php) return frontend_php_load(path, selected_function, d);
    if (onnx) return frontend_onnx_load(path, &onnx_opts, d);
    return ir_read_json_file(path, d);
}

int frontend_write_weights(const char *path, const char *npz_path, Diag *d) {
    return frontend_is_onnx(path) ? frontend_onnx_write_weights(path, &onnx_opts, npz_path, d) : 0;
}
