#pragma once
// One contiguous output row from contiguous inputs of the same sizes and dtype
// (or, for two inputs, single broadcast values), computed by a vector row
// function (Highway-dispatched: unary_simd.hpp, arith_simd.hpp) and split
// across threads above grain_size. Shared by the unary loops, clamp's
// Scalar-bound loop, the arithmetic loops and true division.
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
template <class T, class Row>
bool try_simd_binary_row(const OperandRef& out, const std::array<OperandRef, 2>& inputs, ScalarType dtype, Row row) {
  if (out.dtype != dtype || !is_plain_contiguous(out)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  if (n < kMinSimdElements) return false;
  unsigned broadcast = 0;
  for (std::size_t k = 0; k != 2; ++k) {
    const OperandRef& in = inputs[k];
    if (in.dtype != dtype) return false;
    if (in.sizes.empty()) {
      broadcast |= 1u << k;
    } else if (!(in.sizes == out.sizes) || !is_plain_contiguous(in)) {
      return false;
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
