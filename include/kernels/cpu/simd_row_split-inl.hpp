#pragma once
// One contiguous output row from one contiguous input of the same sizes and
// dtype, computed by a vector row function (Highway-dispatched: unary_simd.hpp)
// and split across threads above grain_size. Shared by the unary loops and
// clamp's Scalar-bound loop.
#include <cstdint>

#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels::detail {

// row(x, y, n) -> bool: writes y[0, n) from x[0, n), or answers false (nothing
// written) when it has no vector path; row(x, y, 0) asks without writing.
// False here when the operands are not plain contiguous rows of equal sizes,
// or the row has no vector path: the caller's scalar loop serves.
template <class T, class Row>
bool try_simd_row(const OperandRef& out, const OperandRef& in, Row row) {
  if (!(in.sizes == out.sizes) || !is_plain_contiguous(out) || !is_plain_contiguous(in)) return false;
  const T* x = reinterpret_cast<const T*>(in.data);
  T* y = reinterpret_cast<T*>(out.data);
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  // One thread's work: one call through Highway's dispatch.
  if (n <= grain_size) return row(x, y, n);
  if (!row(x, y, 0)) return false;
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) { (void)row(x + begin, y + begin, end - begin); });
  return true;
}

}  // namespace opd::kernels::detail
