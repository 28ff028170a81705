# tests/php/san_env.sh: sourced, with $ext set to a gtc.so path, by tests/php/run.sh and
# tests/fuzz/php_api.sh. An extension built with -fsanitize=address,undefined (make asan) runs
# inside an uninstrumented php: preload the sanitizer runtimes and bypass the Zend allocator so
# ASan sees every block. Sets $shim_dir (empty without sanitizers), which the caller removes.
san_libs="$(ldd "$ext" 2>/dev/null | awk '/lib(asan|ubsan)\.so/ {print $3}' | tr '\n' ' ')"
shim_dir=""
if [ -n "$san_libs" ]; then
    # php dlopen()s extensions with RTLD_DEEPBIND, which ASan refuses: a shim drops the flag.
    shim_dir="$(mktemp -d)"
    ${CC:-cc} -shared -fPIC -O1 -o "$shim_dir/nodeepbind.so" "$(dirname "${BASH_SOURCE[0]}")/nodeepbind.c" -ldl || exit 2
    export LD_PRELOAD="$shim_dir/nodeepbind.so ${san_libs% }" USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
    # php's own allocations at exit are not ours to report; the shim comes before libasan
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:verify_asan_link_order=0}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    echo "$(basename "$0"): sanitizer build, LD_PRELOAD=$LD_PRELOAD"
fi
