#pragma once
// The library's GEMMs and GEMVs run on its own OpenMP threads, with OpenBLAS
// on the calling thread alone: one thread pool in the process, not two.
//
// Why: Debian's OpenBLAS (the pthreads build) keeps a pool of its own. After
// each threaded call its workers spin for a while before they sleep, so the
// OpenMP region that follows (a batch norm, a pooling, the next convolution)
// shares the cores with them: resnet18 at batch 8 on 2 threads took 131-141
// ms per run, 110-115 ms with OPENBLAS_THREAD_TIMEOUT=4 (spin shortened), and
// concurrent callers (Winograd's tasks) are served one at a time. So a large
// product is split here into column (or row) blocks, one per OpenMP thread,
// each an OpenBLAS call on its own thread; a small one, or one made inside a
// parallel region, is one call.
//
//   detail::split_gemm(m, n, k, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) { ... });
//   detail::split_gemm_blocks(ta, tb, m, n, k, a, lda, b, ldb, c, ldc,
//                             [&](const T* a, const T* b, T* c, int rows, int cols) { ... });
#include <cblas.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/parallel.hpp"

namespace opd::kernels::detail {

// OpenBLAS's own threads stay asleep: every call of the library's runs on
// its calling thread (the count is global to the process; reading it is a
// load, setting it only happens the first time or after a user changed it).
inline void blas_on_calling_thread() {
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

// Multiply-adds below which a product is one call (OpenBLAS's own threshold
// for threading a GEMM: 65536 * 4).
inline constexpr int64_t gemm_split_min_work = int64_t{1} << 18;

// Calls f(r0, r1, c0, c1) on blocks that cover the (m x n) result: the larger
// of its two dimensions cut into one block per thread (multiples of 16, the
// width of OpenBLAS's kernels), at most one block per gemm_split_min_work of
// m * n * k (times grain_scale()). f runs the BLAS on its block.
template <class F>
void split_gemm(int64_t m, int64_t n, int64_t k, const F& f) {
  blas_on_calling_thread();
  const int64_t work = m * n * std::max<int64_t>(k, 1);
  const int64_t wide = std::max(m, n);
  const int64_t tasks =
      std::min<int64_t>({get_num_threads(), work / (gemm_split_min_work * grain_scale()), (wide + 15) / 16});
  if (tasks <= 1) {
    f(0, m, 0, n);
    return;
  }
  const int64_t chunk = ((wide + tasks - 1) / tasks + 15) / 16 * 16;
  parallel_tasks(tasks, [&](int64_t t) {
    const int64_t b = std::min(wide, t * chunk), e = std::min(wide, b + chunk);
    if (b >= e) return;
    if (n >= m) {
      f(0, m, b, e);
    } else {
      f(b, e, 0, n);
    }
  });
}

// split_gemm for a row-major C (m x n) = op(A) op(B), ta / tb saying whether
// A / B are read transposed: f(a, b, c, rows, cols) on each block, with the
// three pointers moved to the block's first row and column.
template <class T, class F>
void split_gemm_blocks(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
                       int64_t ldb, T* c, int64_t ldc, const F& f) {
  split_gemm(m, n, k, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    f(a + (ta ? r0 : r0 * lda), b + (tb ? c0 * ldb : c0), c + r0 * ldc + c0, static_cast<int>(r1 - r0),
      static_cast<int>(c1 - c0));
  });
}

}  // namespace opd::kernels::detail
