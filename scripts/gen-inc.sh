#!/bin/sh
# scripts/gen-inc.sh: the generated include files that gtc's compiler is built with, as C string
# literals. The one way to make them: the top-level Makefile and runtime/php/config.m4 (the
# phpize/PIE build, through runtime/php/Makefile.frag) both call this script.
#   sh scripts/gen-inc.sh NAME OUT        write OUT (NAME: emit_text.inc or ext_template.inc)
#   sh scripts/gen-inc.sh --inputs NAME   print NAME's input files (relative to the top), for deps
#     emit_text.inc     ir/scalar.h, ir/fsum.h and the kernel templates, one `static const char text_<file>[]`
#                       each (text_scalar_h, ...), for compiler/emit_text.c
#     ext_template.inc  templates/ext.c.in as one string literal, for compiler/emit_ext.c
# Inputs are read from the tree this script lives in (GTC_TOP overrides). No trigraphs: ? → \?.
set -eu
top="${GTC_TOP:-$(cd "$(dirname "$0")/.." && pwd)}"

inputs() {
    case "$1" in
    emit_text.inc)
        echo ir/scalar.h ir/fsum.h templates/kernels_types.cuh templates/kernels_prelude.cuh \
            templates/kernels_cpu_prelude.h templates/kernels_cpu_gemm.h ;;
    ext_template.inc) echo templates/ext.c.in ;;
    *) echo "gen-inc.sh: unknown file '$1' (emit_text.inc or ext_template.inc)" >&2; exit 2 ;;
    esac
}

literal() { # a text file as the lines of a C string literal
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
}

if [ "${1:-}" = --inputs ]; then
    inputs "${2:?usage: gen-inc.sh --inputs NAME}"
    exit 0
fi
name="${1:?usage: gen-inc.sh NAME OUT}"
out="${2:?usage: gen-inc.sh NAME OUT}"
files="$(inputs "$name")"
mkdir -p "$(dirname "$out")"
{
    for f in $files; do
        if [ "$name" = emit_text.inc ]; then
            echo "static const char text_$(basename "$f" | tr . _)[] ="
            literal "$top/$f"
            echo ";"
        else
            literal "$top/$f"
        fi
    done
} > "$out.tmp"
mv "$out.tmp" "$out"
