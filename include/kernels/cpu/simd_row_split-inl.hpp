#pragma once
// One contiguous output row from contiguous inputs of the same sizes and dtype
// (or, for two inputs, single broadcast values), computed by a vector row
// function (Highway-dispatched: unary_simd.hpp, arith_simd.hpp) and split
// across threads above grain_size. Shared by the unary loops, clamp's
// Scalar-bound loop, the arithmetic loops and true division.
#include <algorithm>
#include <array>
#include <cstdint>

#include "kernels/cpu/arith_simd.hpp"
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

// Below this many elements the scalar loops are cheaper than a vector row's
// run-time dispatch (two indirect calls) and thread split.
inline constexpr int64_t kMinSimdElements = 16;

// row(a, b, y, n, broadcast) -> bool for T = compute (float or double): bit 0
// of broadcast, a is one value; bit 1, b is; row(a, b, y, 0, broadcast) asks
// without writing. False (nothing written) when out is not a plain contiguous
// row of the compute dtype with at least kMinSimdElements elements, an input
// is neither such a row of out's sizes nor a 0-dim value, or the row has no
// vector path.
// An input seen through the output's rows (out as R rows of its last dim's C
// elements): row r starts at row_stride * r, its elements col_stride apart.
// Four layouts qualify: out's sizes contiguous (C, 1), one contiguous row
// broadcast to every row ([C] or [1, ..., C]: 0, 1), one value per row
// (out's leading sizes and 1, contiguous: 1, 0), one value (0, 0).
struct RowView {
  int64_t row_stride = 0, col_stride = 0;
};
inline bool row_view_of(const OperandRef& in, IntArrayRef out_sizes, RowView& v) {
  const std::size_t d = out_sizes.size(), k = in.sizes.size();
  if (k > d || !is_plain_contiguous(in)) return false;
  const int64_t c = out_sizes[d - 1];
  const int64_t last = k == 0 ? 1 : in.sizes[k - 1];
  if (last != c && last != 1) return false;
  bool leading_ones = true, leading_same = k == d;
  for (std::size_t i = 0; i + 1 < k; ++i) {
    leading_ones = leading_ones && in.sizes[i] == 1;
    leading_same = leading_same && in.sizes[i] == out_sizes[i];
  }
  v.col_stride = last == c && c != 1 ? 1 : 0;
  if (leading_ones) v.row_stride = 0;
  else if (leading_same) v.row_stride = last;
  else return false;
  return true;
}

// out = row(a, b) for out's rows with each input a RowView: the broadcasts
// that add a bias ([R, C] + [C]) or make an outer product ([R, 1] * [C]).
template <class T, class Row>
bool try_simd_broadcast_rows(const OperandRef& out, const std::array<OperandRef, 2>& inputs, Row row) {
  if (out.sizes.empty()) return false;
  const int64_t c = out.sizes.back();
  if (c < kMinSimdElements) return false;
  std::array<RowView, 2> views;
  unsigned broadcast = 0;
  for (std::size_t k = 0; k != 2; ++k) {
    if (!row_view_of(inputs[k], out.sizes, views[k])) return false;
    if (views[k].col_stride == 0) broadcast |= 1u << k;
  }
  if (broadcast == 3u) return false;
  int64_t rows = 1;
  for (std::size_t i = 0; i + 1 < out.sizes.size(); ++i) rows *= out.sizes[i];
  const T* a = reinterpret_cast<const T*>(inputs[0].data);
  const T* b = reinterpret_cast<const T*>(inputs[1].data);
  T* y = reinterpret_cast<T*>(out.data);
  if (!row(a, b, y, 0, broadcast)) return false;
  parallel_for(0, rows, std::max<int64_t>(1, grain_size / c), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      (void)row(a + r * views[0].row_stride, b + r * views[1].row_stride, y + r * c, c, broadcast);
    }
  });
  return true;
}

template <class T, class Row>
bool try_simd_binary_row(const OperandRef& out, const std::array<OperandRef, 2>& inputs, ScalarType dtype, Row row) {
  if (out.dtype != dtype || !is_plain_contiguous(out)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  if (n < kMinSimdElements) return false;
  if (inputs[0].dtype != dtype || inputs[1].dtype != dtype) return false;
  unsigned broadcast = 0;
  for (std::size_t k = 0; k != 2; ++k) {
    const OperandRef& in = inputs[k];
    if (in.sizes.empty()) {
      broadcast |= 1u << k;
    } else if (!(in.sizes == out.sizes) || !is_plain_contiguous(in)) {
      return try_simd_broadcast_rows<T>(out, inputs, row);
    }
  }
  const T* a = reinterpret_cast<const T*>(inputs[0].data);
  const T* b = reinterpret_cast<const T*>(inputs[1].data);
  T* y = reinterpret_cast<T*>(out.data);
  if (!row(a, b, y, 0, broadcast)) return false;
  const int64_t step_a = (broadcast & 1u) ? 0 : 1;
  const int64_t step_b = (broadcast & 2u) ? 0 : 1;
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
    (void)row(a + begin * step_a, b + begin * step_b, y + begin, end - begin, broadcast);
  });
  return true;
}

// The same for a Float or Double compute dtype, T chosen from it; false for
// any other.
template <class Row>
bool try_simd_binary_row(ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs, Row row) {
  if (compute == ScalarType::Float) return try_simd_binary_row<float>(out, inputs, compute, row);
  if (compute == ScalarType::Double) return try_simd_binary_row<double>(out, inputs, compute, row);
  return false;
}

// The rows of arith_simd.hpp: arith_row's PointwiseOps (the arithmetic
// loops; maximum and minimum in the logical loops) and basic_arith_row's add,
// sub, mul and true division (the binary families' loops).
inline bool try_arith_simd(PointwiseOp op, ScalarType compute, const OperandRef& out,
                           const std::array<OperandRef, 2>& inputs) {
  return try_simd_binary_row(compute, out, inputs, [op](const auto* a, const auto* b, auto* y, int64_t n, unsigned bc) {
    return simd::arith_row(op, a, b, y, n, bc);
  });
}
inline bool try_basic_arith_simd(BasicArith op, ScalarType compute, const OperandRef& out,
                                 const std::array<OperandRef, 2>& inputs) {
  return try_simd_binary_row(compute, out, inputs, [op](const auto* a, const auto* b, auto* y, int64_t n, unsigned bc) {
    return simd::basic_arith_row(op, a, b, y, n, bc);
  });
}

}  // namespace opd::kernels::detail
