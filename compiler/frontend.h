/* compiler/frontend.h: graph front-ends: JSON (ir/json_read.c), PHP (compiler/frontend_php.c)
 * and ONNX (compiler/frontend_onnx.c). */
#ifndef GTC_FRONTEND_H
#define GTC_FRONTEND_H

#include "../ir/ir.h"

/* Reads and verifies the graph in `path`; NULL with the first error in d. Caller frees. */
Graph *frontend_load(const char *path, Diag *d);
/* The graph function later loads of .php files read (`--function NAME`; NULL: the file's only
 * one). The name is borrowed. */
void frontend_select_function(const char *name);
/* --train SPEC for ONNX models (docs/onnx.md): the loss and optimizer later loads add. Borrowed. */
void frontend_select_train(const char *spec);
/* --dim SPEC for ONNX models: the sizes of symbolic dimensions ("batch=32"). Borrowed. */
void frontend_select_dims(const char *spec);
/* Whether path is read by the ONNX front-end (.onnx, or an ONNX model's first byte). */
bool frontend_is_onnx(const char *path);
/* gtc compile: an ONNX model's initial weights to npz_path (frontend_onnx_write_weights with
 * the selected options); the member count (0 for other front-ends), or -1 with d. */
int frontend_write_weights(const char *path, const char *npz_path, Diag *d);

#endif
