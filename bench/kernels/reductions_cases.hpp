// The shapes of bench/kernels/reductions*.cpp, shared by the opd and the
// ATen side: n elements as [rows, cols], reduced / normalized over the last
// dim (cols). n = 1, 1000, 1000000.
#pragma once

#include <cstdint>
#include <utility>

namespace bench_reductions {

inline std::pair<int64_t, int64_t> shape_of(int64_t n) {
  if (n <= 1) return {1, 1};
  if (n <= 1000) return {10, n / 10};
  return {1000, n / 1000};
}

// The ATen side (reductions_torch.cpp, C++17): registers BM_<op>_<1t|mt>/aten/<n>.
void register_aten_benchmarks(int all_threads);

}  // namespace bench_reductions
