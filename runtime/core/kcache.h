/* runtime/core/kcache.h: the on-disk cache of plan kernels compiled at run time with NVRTC
 * (runtime/cuda/cuda_plan_jit.cu). Plain C, no CUDA: the hashing, the cache directory and the
 * cache file's format live here so they are unit-tested on machines without a GPU.
 *
 * Directory: $GTC_CACHE_DIR when set and not empty, else $HOME/.cache/gtc; missing components
 * are created with mode 0700. It is used only when it is a directory owned by this user, not
 * writable by group or others, and writable by us; otherwise there is no disk cache (callers
 * still work, compiling every time).
 *
 * File: DIR/<key as 16 hex digits>.kc, where key = rt_kcache_key(kernels.cu text, arch,
 * toolchain, gtc version). Contents, little-endian:
 *     0  8 bytes  magic "GTCKCAC1"
 *     8  u64      key (the file name's, again)
 *    16  u64      payload length
 *    24  u64      FNV-1a 64 of the payload
 *    32           payload (a cubin, or NUL-terminated PTX)
 * Writes go to a temporary file in DIR renamed over the final name, so readers never see a
 * half-written file; a reader rejects anything whose header, length or checksum disagrees. */
#ifndef GTC_KCACHE_H
#define GTC_KCACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RT_FNV1A64_INIT 0xcbf29ce484222325ULL
#define RT_KCACHE_MAGIC "GTCKCAC1"
#define RT_KCACHE_HEADER 32
#define RT_KCACHE_MAX_PAYLOAD ((uint64_t)1 << 30) /* larger files are rejected unread */

/* FNV-1a 64 of data[0..n), continuing from h (RT_FNV1A64_INIT to start). */
uint64_t rt_fnv1a64(uint64_t h, const void *data, size_t n);

/* The cache key of a compiled kernels.cu: every field enters with its length, so no two
 * different tuples hash the same input. arch: "sm_90" (cubin) or "compute_90" (PTX);
 * toolchain: the CUDA runtime and NVRTC versions ("cudart 13000 nvrtc 13.0"). */
uint64_t rt_kcache_key(const char *source, const char *arch, const char *toolchain, const char *gtc_version);

/* The cache directory (see above) into buf. Returns 0, or -1 when there is none to use (no
 * variable set, cannot create it, not ours, shared with others, not writable, path too long). */
int rt_kcache_dir(char *buf, size_t n);

/* DIR/<key>.kc into buf; 0, or -1 when it does not fit. */
int rt_kcache_path(char *buf, size_t n, const char *dir, uint64_t key);

/* The payload of the cache file at path when it is a valid entry for key: a malloc'd copy
 * (with one NUL byte after it, not counted in *len) the caller frees. NULL when the file is
 * missing, unreadable, or fails any check (magic, key, length, checksum, size). Never aborts. */
void *rt_kcache_read(const char *path, uint64_t key, size_t *len);

/* Writes an entry for key atomically (temporary file in the same directory, fsync, rename).
 * Returns 0, or -1 (nothing is left behind: no temporary file, the old entry untouched). */
int rt_kcache_write(const char *path, uint64_t key, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
