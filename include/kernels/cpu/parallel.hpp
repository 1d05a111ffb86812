#pragma once
// Splitting a loop across threads, as ATen's at::parallel_for: work below a
// grain size (or inside another parallel region) runs on the calling thread,
// so small tensors pay nothing for threading. OpenMP does the threading when
// the library is built with it (OPD_OPENMP, the default); without it every
// loop runs on the calling thread.
//
//   k::parallel_for(0, n, k::grain_size, [&](int64_t begin, int64_t end) { ... });
//
// set_num_threads also sets the BLAS's own thread count, so that "one thread"
// means one thread for every kernel (the 1t benchmarks rely on it).
#include <algorithm>
#include <cstdint>
#include <exception>

#include "dispatch/config.hpp"
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace opd::kernels {

// Elements per task below which a loop is not split (ATen's GRAIN_SIZE).
inline constexpr int64_t grain_size = 32768;

OPD_API int get_num_threads();
// n >= 1; throws opd::ValueError otherwise.
OPD_API void set_num_threads(int n);

// Calls f(b, e) on disjoint sub-ranges covering [begin, end), each at least
// `grain` long (except the last), possibly from several threads at once. An
// exception thrown by f is rethrown on the calling thread (the first one).
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (begin >= end) return;
  const int64_t n = end - begin;
#if defined(_OPENMP)
  if (n > grain && !omp_in_parallel() && omp_get_max_threads() > 1) {
    const int64_t tasks = std::min<int64_t>(omp_get_max_threads(), (n + grain - 1) / std::max<int64_t>(grain, 1));
    const int64_t chunk = (n + tasks - 1) / tasks;
    std::exception_ptr error;
#pragma omp parallel num_threads(static_cast<int>(tasks))
    {
      const int64_t b = begin + omp_get_thread_num() * chunk;
      const int64_t e = std::min(end, b + chunk);
      if (b < e) {
        try {
          f(b, e);
        } catch (...) {
#pragma omp critical(opd_parallel_for_error)
          if (!error) error = std::current_exception();
        }
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
#else
  (void)grain;
  (void)n;
#endif
  f(begin, end);
}

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/parallel-inl.hpp"
#endif
