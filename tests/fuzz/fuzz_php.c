/* tests/fuzz/fuzz_php.c: libFuzzer target for the PHP front-end: bytes → frontend_php_read (lex,
 * parse, build and verify the graph of the file's only #[Gtc\Graph] function) → pipeline_run →
 * the three generated sources in memory. Built and run by `make fuzz` (tests/fuzz/run.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/emit.h"
#include "../../compiler/frontend_php.h"
#include "../../compiler/pipeline.h"
#include "../../ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1); /* as frontend_php_load passes it: NUL-terminated */
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    Diag d;
    diag_init(&d, "fuzz.php");
    Graph *g = frontend_php_read(text, size, NULL, &d);
    free(text);
    if (!g) return 0;
    diag_init(&d, "fuzz.php");
    if (pipeline_run(g, NULL, &d, NULL) == 0) {
        char *cu = emit_cuda_source(g, "fuzz.php", &d);
        char *c = cu ? emit_cpu_source(g, "fuzz.php", &d) : NULL;
        char *pl = c ? emit_plan_source(g, "fuzz.php", cu, c, &d) : NULL;
        free(cu);
        free(c);
        free(pl);
    }
    graph_free(g);
    return 0;
}
