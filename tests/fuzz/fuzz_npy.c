/* tests/fuzz/fuzz_npy.c: libFuzzer target for the .npy reader on the CPU backend: bytes →
 * rt_npy_read; a tensor read is written back with rt_npy_write, read again and compared (the
 * same dtype, shape and bytes), then released. Built and run by `make fuzz` (tests/fuzz/run.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/core/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A private copy of exactly `size` bytes, so a read past the end is an ASan report. */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    rt_set_memory_limit((size_t)256 << 20);
    RtTensor *t = rt_npy_read(&rt_cpu_backend, buf, size);
    free(buf);
    if (!t) {
        rt_clear_error();
        return 0;
    }
    char *out = NULL;
    size_t len = 0;
    if (rt_npy_write(t, &out, &len) == 0) {
        RtTensor *u = rt_npy_read(&rt_cpu_backend, out, len);
        if (!u || u->dtype != t->dtype || u->rank != t->rank ||
            memcmp(u->shape, t->shape, sizeof(int64_t) * (size_t)t->rank) != 0 ||
            rt_nbytes(u) != rt_nbytes(t) ||
            (rt_nbytes(t) && memcmp(rt_data(u), rt_data(t), rt_nbytes(t)) != 0))
            abort(); /* what gtc writes, gtc must read back unchanged */
        rt_release(u);
        free(out);
    }
    rt_clear_error();
    rt_release(t);
    return 0;
}
