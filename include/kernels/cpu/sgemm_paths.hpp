#pragma once
// Which library a float product (sgemm.hpp) runs on, from its shape alone:
// what sgemm.hpp decides per call, and what a caller that prepares operands
// ahead of time (the lazy plan's transposed weights) needs to know.
#include <cstdint>

namespace opd::kernels::detail {

// Multiply-adds from which oneDNN's sgemm is faster than OpenBLAS's (32^3),
// and from which it may use several threads (2^22: about 18 µs on one).
inline constexpr int64_t sgemm_onednn_min_work = int64_t{1} << 15;
inline constexpr int64_t sgemm_thread_min_work = int64_t{1} << 22;

// C (m x n) = op(A) (m x k) @ op(B) (k x n) runs on oneDNN's sgemm.
constexpr bool sgemm_on_onednn(int64_t m, int64_t n, int64_t k) {
#if defined(OPD_WITH_ONEDNN)
  return m * n * k >= sgemm_onednn_min_work;
#else
  (void)m, (void)n, (void)k;
  return false;
#endif
}

}  // namespace opd::kernels::detail
