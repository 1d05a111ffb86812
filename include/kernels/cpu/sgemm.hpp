#pragma once
// The library's float GEMM: oneDNN's sgemm when it is built in (OPD_WITH_ONEDNN),
// else OpenBLAS's, through blas_threads.hpp's split.
//
// Why oneDNN: on this project's AVX-512 machines (AMD EPYC, Zen 4 flags)
// Debian's OpenBLAS 0.3.21 runs its Haswell kernels, and oneDNN's AVX-512
// sgemm takes half their time from 64x64x64 up (vit_b_16's 197 x 2304 x 768:
// 3.0 against 5.9 ms on one thread). Below 32x32x32 its set-up costs more than
// the product, so small products stay with OpenBLAS. oneDNN threads a product
// on the library's OpenMP threads (one, inside a parallel region); a product
// under sgemm_thread_min_work (times grain_scale()) runs on the calling thread
// alone: waking another costs more than it saves.
//
//   detail::sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);  // row-major, as cblas_sgemm
#include <cblas.h>

#include <cstdint>

#include "kernels/cpu/blas_threads.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/sgemm_paths.hpp"

#if defined(OPD_WITH_ONEDNN)
#include <oneapi/dnnl/dnnl.h>
#endif

namespace opd::kernels::detail {

// C (m x n, row-major, ldc) = alpha * op(A) @ op(B) + beta * C; beta == 0:
// C is not read.
inline void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
#if defined(OPD_WITH_ONEDNN)
  if (sgemm_on_onednn(m, n, k)) {
#if defined(_OPENMP)
    // nthreads-var is per thread: this only narrows this call's own team.
    const int threads = omp_get_max_threads();
    const bool alone = m * n * k < sgemm_thread_min_work * grain_scale() && threads > 1;
    if (alone) omp_set_num_threads(1);
#endif
    const dnnl_status_t status =
        dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#if defined(_OPENMP)
    if (alone) omp_set_num_threads(threads);
#endif
    if (status == dnnl_success) return;  // else (out of memory, say) OpenBLAS below
  }
#endif
  const auto block = [&](const float* ab, const float* bb, float* cb, int bm, int bn) {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, bm, bn,
                static_cast<int>(k), alpha, ab, static_cast<int>(lda), bb, static_cast<int>(ldb), beta, cb,
                static_cast<int>(ldc));
  };
  split_gemm_blocks(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, block);
}

}  // namespace opd::kernels::detail
