/* compiler/onnx_weights.c: the initial values of an imported ONNX model's parameters, written by
 * `gtc compile model.onnx -o m.so` beside the extension as m.npz (np.savez's layout: one .npy
 * member per input name, read by Cuda\CudaArray::loadNpz or np.load): every value of the import
 * that became an input and has a known value (the initializers read as data, large constants). */
#include <stdlib.h>
#include <string.h>

#include <zip.h>

#include "frontend_onnx.h"
#include "onnx_import.h"

/* np.save's descr for the dtypes an ONNX tensor can have. */
static const char *descr_of(DType t) {
    switch (t) {
    case DT_FLOAT32: return "<f4";
    case DT_FLOAT64: return "<f8";
    case DT_INT64: return "<i8";
    case DT_INT32: return "<i4";
    case DT_INT16: return "<i2";
    case DT_INT8: return "|i1";
    case DT_UINT8: return "|u1";
    case DT_UINT16: return "<u2";
    case DT_UINT32: return "<u4";
    case DT_UINT64: return "<u8";
    case DT_BOOL: return "|b1";
    default: return NULL;
    }
}

/* One .npy image of c (malloc'd into *out). */
static int npy_image(const OxConst *c, char **out, size_t *len) {
    const char *descr = descr_of(c->dtype);
    if (!descr) return -1;
    char head[640];
    size_t h = ir_npy_header(descr, c->rank, c->dims, head, sizeof head), es = ir_dtype_size(c->dtype);
    char *buf = malloc(h + (size_t)c->numel * es + 1);
    if (!buf || !h) return free(buf), -1;
    memcpy(buf, head, h);
    unsigned char *p = (unsigned char *)buf + h;
    for (int64_t i = 0; i < c->numel; i++, p += es) {
        switch (c->dtype) {
#define W(T, v) do { T t_ = (T)(v); memcpy(p, &t_, sizeof t_); } while (0)
        case DT_FLOAT32: W(float, c->v[i]); break;
        case DT_FLOAT64: W(double, c->v[i]); break;
        case DT_INT64: case DT_UINT64: W(int64_t, c->iv[i]); break;
        case DT_INT32: case DT_UINT32: W(int32_t, c->iv[i]); break;
        case DT_INT16: case DT_UINT16: W(int16_t, c->iv[i]); break;
        default: W(int8_t, c->iv[i]); break;
#undef W
        }
    }
    *out = buf, *len = h + (size_t)c->numel * es;
    return 0;
}

int ox_write_npz(Ox *x, const char *npz_path) {
    Graph *g = x->g;
    int err = 0;
    zip_t *za = zip_open(npz_path, ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!za) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        diag_at(x->d, NULL, "cannot write %s: %s", npz_path, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < x->nvals; i++) {
        OxValue *v = &x->vals[i];
        if (v->id < 0 || !v->c || g->nodes[v->id].op != OP_INPUT) continue;
        char *img;
        size_t len;
        if (npy_image(v->c, &img, &len)) {
            diag_at(x->d, NULL, "cannot encode initializer \"%.80s\"", v->name);
            zip_discard(za);
            return -1;
        }
        char member[IR_MAX_NAME + 8];
        snprintf(member, sizeof member, "%s.npy", g->nodes[v->id].name);
        zip_source_t *src = zip_source_buffer(za, img, len, 1); /* frees img */
        if (!src || zip_file_add(za, member, src, ZIP_FL_ENC_UTF_8) < 0) {
            if (src) zip_source_free(src);
            else free(img);
            diag_at(x->d, NULL, "cannot write %s: %s", npz_path, zip_strerror(za));
            zip_discard(za);
            return -1;
        }
        n++;
    }
    if (zip_close(za) < 0) {
        diag_at(x->d, NULL, "cannot write %s: %s", npz_path, zip_strerror(za));
        zip_discard(za);
        return -1;
    }
    return n;
}
