#pragma once
// How many elements of a contiguous row are true, as nonzero and
// count_nonzero see them (truth(): NaN counts, -0.0 does not; complex:
// either part).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/convert-inl.hpp"

namespace opd::kernels::detail {

// Counted in 32-bit blocks: the compiler vectorizes a 32-bit count of
// comparisons (one 64-bit counter per element kept the loop scalar).
template <class T>
int64_t count_true(const T* p, int64_t n) {
  constexpr int64_t kBlockElems = int64_t{1} << 16;
  int64_t total = 0;
  for (int64_t b = 0; b < n; b += kBlockElems) {
    const int64_t e = std::min(n, b + kBlockElems);
    int32_t c = 0;
    if constexpr (std::is_same_v<T, bool>) {
      // a bool's byte is 0 or 1: summed as bytes, the loop vectorizes (truth() kept it scalar)
      const auto* bytes = reinterpret_cast<const unsigned char*>(p);
      for (int64_t i = b; i < e; ++i) c += bytes[i];
    } else {
      for (int64_t i = b; i < e; ++i) c += truth(p[i]) ? 1 : 0;
    }
    total += c;
  }
  return total;
}

}  // namespace opd::kernels::detail
