dnl runtime/php/config.m4: builds gtc.so, the runtime extension, with phpize — the way PIE
dnl installs it (composer.json at the repository root names this directory as its build-path).
dnl It builds the CPU backend from the C sources (OpenBLAS and cJSON required). The CUDA backend
dnl and the `gtc` compiler come from the top-level Makefile: make && make install PREFIX=...
dnl (DESIGN.md, Installing). The CUDA entry points are bound weakly, so this build is complete
dnl for the CPU.

PHP_ARG_ENABLE([gtc],
  [whether to enable gtc (Cuda\CudaArray)],
  [AS_HELP_STRING([--enable-gtc], [Enable gtc, GPU tensors for PHP (CPU backend in this build)])],
  [yes])

if test "$PHP_GTC" != "no"; then
  PHP_CHECK_LIBRARY([openblas], [cblas_sgemm],
    [PHP_ADD_LIBRARY([openblas], [1], [GTC_SHARED_LIBADD])],
    [AC_MSG_ERROR([gtc needs OpenBLAS with its CBLAS interface (Debian/Ubuntu: libopenblas-dev)])])
  PHP_CHECK_LIBRARY([cjson], [cJSON_Parse],
    [PHP_ADD_LIBRARY([cjson], [1], [GTC_SHARED_LIBADD])],
    [AC_MSG_ERROR([gtc needs cJSON (Debian/Ubuntu: libcjson-dev)])])
  PHP_ADD_LIBRARY([m], [1], [GTC_SHARED_LIBADD])
  PHP_SUBST([GTC_SHARED_LIBADD])

  dnl Every C source of the IR, the runtime core, the CPU backend and the extension. PHP's build
  dnl rules take no "../" in source paths, so the tree is reached through links made here.
  gtc_top=`cd "$abs_srcdir/../.." && pwd`
  rm -rf "$abs_srcdir/pie-src"
  mkdir "$abs_srcdir/pie-src" && ln -s "$gtc_top/ir" "$abs_srcdir/pie-src/ir" &&
    ln -s "$gtc_top/runtime" "$abs_srcdir/pie-src/runtime" ||
    AC_MSG_ERROR([cannot link the gtc sources into $abs_srcdir/pie-src])
  gtc_sources=`cd "$abs_srcdir" && echo pie-src/runtime/php/*.c pie-src/runtime/core/*.c pie-src/runtime/cpu/*.c pie-src/ir/*.c`
  PHP_NEW_EXTENSION([gtc], [$gtc_sources], [$ext_shared], [],
    [-std=c11 -D_GNU_SOURCE -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
fi
