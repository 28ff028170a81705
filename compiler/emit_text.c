/* compiler/emit_text.c: the texts that leave the compiler as they are: ir/scalar.h and the
 * kernel templates copied into generated code (built into gtc by the Makefile from
 * scripts/gen-inc.sh: emit_text.inc, included here only), and writing a generated file. A leaf
 * under the generators (emit_cpu.c, emit_cuda.c, emit_ext.c, emit_plan.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"

#include "emit_text.inc"

/* The marker lines are the contract with tests/golden/run.sh (strip_prelude.awk): exact text,
 * each on a line of its own, the same path in both. Every text ends in a newline. */
void emit_text(Str *b, EmitText t) {
    static const struct {
        const char *path, *text;
    } texts[] = {
        [EMIT_TEXT_SCALAR_H] = {"ir/scalar.h", text_scalar_h},
        [EMIT_TEXT_FSUM_H] = {"ir/fsum.h", text_fsum_h},
        [EMIT_TEXT_CUDA_TYPES] = {"templates/kernels_types.cuh", text_kernels_types_cuh},
        [EMIT_TEXT_CUDA_PRELUDE] = {"templates/kernels_prelude.cuh", text_kernels_prelude_cuh},
        [EMIT_TEXT_CPU_PRELUDE] = {"templates/kernels_cpu_prelude.h", text_kernels_cpu_prelude_h},
        [EMIT_TEXT_CPU_GEMM] = {"templates/kernels_cpu_gemm.h", text_kernels_cpu_gemm_h},
    };
    str_add(b, "/* gtc:prelude begin %s */\n", texts[t].path);
    str_cat(b, texts[t].text);
    str_add(b, "/* gtc:prelude end %s */\n", texts[t].path);
}

/* Writes text to dir/name through a temporary file renamed into place. The temporary file is
 * created anew (O_EXCL): a link planted under its name is removed, never written through. */
int emit_write_file(const char *dir, const char *name, const char *text, Diag *d) {
    char *path = xfmt("%s/%s", dir, name), *tmp = xfmt("%s/.%s.tmp", dir, name);
    unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f) close(fd);
    int rc = 0;
    if (!f) {
        diag_at(d, NULL, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    } else {
        size_t n = strlen(text);
        bool ok = fwrite(text, 1, n, f) == n;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) {
            diag_at(d, NULL, "cannot write %s: %s", path, strerror(errno));
            remove(tmp);
            rc = -1;
        }
    }
    free(path);
    free(tmp);
    return rc;
}
