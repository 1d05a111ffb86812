#pragma once
// Splitting a loop across threads, as ATen's at::parallel_for: work below a
// grain size (or inside another parallel region) runs on the calling thread,
// so small tensors pay nothing for threading. OpenMP does the threading when
// the library is built with it (OPD_OPENMP, the default); without it every
// loop runs on the calling thread.
//
//   k::parallel_for(0, n, k::grain_size, [&](int64_t begin, int64_t end) { ... });
//
// The BLAS follows the same count: the library splits its GEMMs across these
// threads, each OpenBLAS call on one (blas_threads.hpp), so "one thread" means
// one thread for every kernel.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>

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

// How many grains a loop needs before it is split: 8 under
// OMP_WAIT_POLICY=passive, else 1 (read once, as OpenMP reads it). Passive
// workers sleep between regions, and waking one took 30-45 µs on this
// project's 2-core VMs, where a 32,768-element relu takes 7 µs on one thread:
// mobilenet_v2 at batch 1 ran 6.3 ms on one thread and 11.7 ms on two.
inline int64_t grain_scale() {
  static const int64_t scale = [] {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return policy != nullptr && (policy[0] == 'p' || policy[0] == 'P') ? int64_t{8} : int64_t{1};
  }();
  return scale;
}

namespace detail {

// parallel_for's split, with the grain as given.
template <class F>
void split_range(int64_t begin, int64_t end, int64_t grain, const F& f) {
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

}  // namespace detail

// Calls f(b, e) on disjoint sub-ranges covering [begin, end), each at least
// `grain` long (grain * grain_scale() when split; the last may be shorter),
// possibly from several threads at once. An exception thrown by f is
// rethrown on the calling thread (the first one).
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  const int64_t scale = grain_scale();
  grain = grain > std::numeric_limits<int64_t>::max() / scale ? std::numeric_limits<int64_t>::max() : grain * scale;
  detail::split_range(begin, end, grain, f);
}

// Calls f(t) for each t in [0, tasks), the tasks dealt to the threads in
// contiguous runs: for a caller that sized its tasks to pay for a thread
// each (a product's blocks, Winograd's tile blocks), so no grain applies.
template <class F>
void parallel_tasks(int64_t tasks, const F& f) {
  detail::split_range(0, tasks, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) f(t);
  });
}

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/parallel-inl.hpp"
#endif
