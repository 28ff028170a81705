dnl runtime/php/config.m4: builds gtc.so with phpize — the way PIE installs it (composer.json at
dnl the repository root names this directory as its build-path). It holds what the top-level
dnl Makefile's gtc.so holds, less the CUDA backend: the extension (runtime/php), the runtime
dnl (runtime/*.c, runtime/core, the CPU backend runtime/cpu, ir/) and the compiler (compiler/,
dnl less compiler/main.c) that Cuda\Fusion plans with. OpenBLAS, cJSON and libzip are required. The CUDA
dnl backend and the `gtc` command come from the top-level Makefile: make && make install
dnl PREFIX=... (README.md). runtime/backends.c is compiled without GTC_HAVE_CUDA here, so the
dnl backend table has the CPU row only and this build is complete for the CPU. Directories are globbed, so a new .c file there is built without editing this file.
dnl The generated include files come from scripts/gen-inc.sh (Makefile.frag), as in the Makefile.
dnl Tested by `make pie` (tests/pie/run.sh): this build in a copy of the tree, the .phpt suite.

PHP_ARG_ENABLE([gtc],
  [whether to enable gtc (Cuda\CudaArray)],
  [AS_HELP_STRING([--enable-gtc], [Enable gtc, GPU tensors for PHP (CPU backend in this build)])],
  [yes])

if test "$PHP_GTC" != "no"; then
  dnl OpenBLAS's OpenMP build where Debian installed it (it shares the CPU loops' OpenMP pool:
  dnl docs/cpu.md), as the Makefile's OPENBLAS_OMP_DIR
  for gtc_d in /usr/lib/*/openblas-openmp; do
    if test -f "$gtc_d/libopenblas.so"; then
      LDFLAGS="$LDFLAGS -L$gtc_d"
      GTC_SHARED_LIBADD="-L$gtc_d -Wl,-rpath,$gtc_d $GTC_SHARED_LIBADD"
      break
    fi
  done
  PHP_CHECK_LIBRARY([openblas], [cblas_sgemm],
    [PHP_ADD_LIBRARY([openblas], [1], [GTC_SHARED_LIBADD])],
    [AC_MSG_ERROR([gtc needs OpenBLAS with its CBLAS interface (Debian/Ubuntu: libopenblas-dev)])])
  PHP_CHECK_LIBRARY([cjson], [cJSON_Parse],
    [PHP_ADD_LIBRARY([cjson], [1], [GTC_SHARED_LIBADD])],
    [AC_MSG_ERROR([gtc needs cJSON (Debian/Ubuntu: libcjson-dev)])])
  PHP_CHECK_LIBRARY([zip], [zip_fdopen],
    [PHP_ADD_LIBRARY([zip], [1], [GTC_SHARED_LIBADD])],
    [AC_MSG_ERROR([gtc needs libzip for .npz checkpoints (Debian/Ubuntu: libzip-dev)])])
  PHP_ADD_LIBRARY([m], [1], [GTC_SHARED_LIBADD])
  PHP_ADD_LIBRARY([dl], [1], [GTC_SHARED_LIBADD])
  dnl the CPU backend's loops are OpenMP (runtime/cpu/cpu_threads.c)
  GTC_SHARED_LIBADD="$GTC_SHARED_LIBADD -fopenmp"
  PHP_SUBST([GTC_SHARED_LIBADD])

  dnl PHP's build rules take no "../" in source paths, so the tree is reached through links made
  dnl here (pie-src/), beside the generated include files (pie-src/gen/).
  gtc_top=`cd "$abs_srcdir/../.." && pwd`
  rm -rf "$abs_srcdir/pie-src"
  mkdir "$abs_srcdir/pie-src" "$abs_srcdir/pie-src/gen" &&
    ln -s "$gtc_top/ir" "$abs_srcdir/pie-src/ir" &&
    ln -s "$gtc_top/runtime" "$abs_srcdir/pie-src/runtime" &&
    ln -s "$gtc_top/compiler" "$abs_srcdir/pie-src/compiler" ||
    AC_MSG_ERROR([cannot link the gtc sources into $abs_srcdir/pie-src])
  dnl Every C source of these directories; runtime/cuda is not built here. Leave a file out by
  dnl adding it to gtc_exclude (compiler/main.c is the `gtc` command's main; frontend.c, build.c
  dnl the ONNX front-end and launch.c (gtc run) are the command's too: gtc.so reads no graph file, the Makefile's CLI_SRCS).
  gtc_exclude="pie-src/compiler/main.c pie-src/compiler/frontend.c pie-src/compiler/build.c pie-src/compiler/launch.c"
  gtc_exclude="$gtc_exclude pie-src/compiler/frontend_onnx.c pie-src/compiler/onnx_ops.c pie-src/compiler/onnx_fold.c pie-src/compiler/onnx_weights.c"
  gtc_sources=
  for gtc_f in `cd "$abs_srcdir" && echo pie-src/runtime/php/*.c pie-src/runtime/*.c \
      pie-src/runtime/core/*.c pie-src/runtime/cpu/*.c pie-src/ir/*.c pie-src/compiler/*.c`; do
    test -f "$abs_srcdir/$gtc_f" || continue
    case " $gtc_exclude " in *" $gtc_f "*) continue ;; esac
    gtc_sources="$gtc_sources $gtc_f"
  done

  GTC_TOP="$gtc_top"
  GTC_GEN="$abs_srcdir/pie-src/gen"
  GTC_EMIT_TEXT_INPUTS=`GTC_TOP="$gtc_top" sh "$gtc_top/scripts/gen-inc.sh" --inputs emit_text.inc |
    sed "s|[[^ ]][[^ ]]*|$gtc_top/&|g"`
  GTC_EXT_TEMPLATE_INPUTS=`GTC_TOP="$gtc_top" sh "$gtc_top/scripts/gen-inc.sh" --inputs ext_template.inc |
    sed "s|[[^ ]][[^ ]]*|$gtc_top/&|g"`
  PHP_SUBST([GTC_TOP])
  PHP_SUBST([GTC_GEN])
  PHP_SUBST([GTC_EMIT_TEXT_INPUTS])
  PHP_SUBST([GTC_EXT_TEMPLATE_INPUTS])

  PHP_NEW_EXTENSION([gtc], [$gtc_sources], [$ext_shared], [],
    [-std=c11 -fopenmp -D_GNU_SOURCE -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 -I$GTC_GEN])
  PHP_ADD_MAKEFILE_FRAGMENT
fi
