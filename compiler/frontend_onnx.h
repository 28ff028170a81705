/* compiler/frontend_onnx.h: reads an ONNX model (a ModelProto, protobuf-c over third_party/onnx's
 * onnx.proto) into the IR (docs/onnx.md). */
#ifndef GTC_FRONTEND_ONNX_H
#define GTC_FRONTEND_ONNX_H

#include <stdbool.h>

#include "../ir/ir.h"

/* Whether buf looks like an ONNX model rather than a JSON graph: a ModelProto starts with its
 * ir_version field (tag byte 0x08), which no JSON text does. */
bool frontend_onnx_sniff(const char *buf, size_t len);
/* The command line's choices for ONNX models (NULL: none). */
typedef struct {
    const char *train;              /* --train: "loss=mse,optimizer=sgd,lr=0.01" */
    const char *dims;               /* --dim: sizes of symbolic dimensions, "batch=32,seq=128" */
} OnnxOptions;

/* Reads and verifies the model in memory; initializers become graph inputs (the model's
 * parameters). NULL with the first error in d. Caller frees. */
Graph *frontend_onnx_read(const void *buf, size_t len, const OnnxOptions *o, Diag *d);
Graph *frontend_onnx_load(const char *path, const OnnxOptions *o, Diag *d);
/* Writes the initial values of the inputs the model's initializers and constant tensors became
 * (one .npy member per input name, np.savez's layout) to npz_path: the member count, or -1 with
 * the reason in d. */
int frontend_onnx_write_weights(const char *path, const OnnxOptions *o, const char *npz_path, Diag *d);

#endif
