/* bench/bulk.cuh: mbarriers and bulk copies (cp.async.bulk, sm_90) for the load probes
 * (bench/load_floor.cu, bench/load_mcast.cu); include after templates/kernels_prelude.cuh. */
#pragma once

__device__ __forceinline__ void mbar_init(unsigned long long *b, unsigned n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(gtc_smem_u32(b)), "r"(n));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect(unsigned long long *b, unsigned tx) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(gtc_smem_u32(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long *b, unsigned phase) {
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(
                     gtc_smem_u32(b)),
                 "r"(phase)
                 : "memory");
}
__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes, unsigned long long *b) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     gtc_smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(gtc_smem_u32(b))
                 : "memory");
}
