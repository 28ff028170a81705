/* tests/fuzz/fuzz_onnx.c: libFuzzer target for the ONNX front-end: bytes → frontend_onnx_read
 * (protobuf-c's decoding, the envelope checks, every operator's lowering, ir_verify) →
 * pipeline_run → the three generated sources in memory, as fuzz_graph does for JSON. Everything
 * is freed, so the leak checker sees any leak on an error path. Seeds: tests/fuzz/corpus/onnx/
 * (made by tests/onnx/make_bad_models.py). Built and run by `make fuzz` (tests/fuzz/run.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/emit.h"
#include "../../compiler/frontend_onnx.h"
#include "../../compiler/pipeline.h"
#include "../../ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Diag d;
    diag_init(&d, "fuzz.onnx");
    /* the first byte picks --train or not, so the loss builder is fuzzed too */
    OnnxOptions o = {size && (data[0] & 0x80) ? "loss=mse,optimizer=adamw,lr=0.01" : NULL, "N=2,batch=3"};
    Graph *g = frontend_onnx_read(data, size, &o, &d);
    if (!g) return 0;
    diag_init(&d, "fuzz.onnx");
    if (pipeline_run(g, NULL, &d, NULL) == 0) {
        char *cu = emit_cuda_source(g, "fuzz.onnx", &d);
        char *c = cu ? emit_cpu_source(g, "fuzz.onnx", &d) : NULL;
        char *pl = c ? emit_plan_source(g, "fuzz.onnx", cu, c, &d) : NULL;
        free(cu);
        free(c);
        free(pl);
    }
    graph_free(g);
    return 0;
}
