/* tests/fuzz/fuzz_graph.c: libFuzzer target for the JSON graph path: bytes → ir_read_json (parse
 * and verify) → ir_write_json → pipeline_run (autodiff … memplan) → the three generated sources
 * in memory (emit_cuda_source, emit_cpu_source, emit_plan_source). Everything is freed, so the
 * leak checker sees any leak on an error path. Built and run by `make fuzz` (tests/fuzz/run.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/emit.h"
#include "../../compiler/pipeline.h"
#include "../../ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The readers get what ir_read_file gives them: a malloc'd copy, NUL after the last byte. */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    Diag d;
    diag_init(&d, "fuzz.json");
    Graph *g = ir_read_json(text, size, &d);
    free(text);
    if (!g) return 0;
    free(ir_write_json(g));
    diag_init(&d, "fuzz.json");
    if (pipeline_run(g, NULL, &d, NULL) == 0) {
        char *cu = emit_cuda_source(g, "fuzz.json", &d);
        char *c = cu ? emit_cpu_source(g, "fuzz.json", &d) : NULL;
        char *pl = c ? emit_plan_source(g, "fuzz.json", cu, c, &d) : NULL;
        free(cu);
        free(c);
        free(pl);
    }
    graph_free(g);
    return 0;
}
