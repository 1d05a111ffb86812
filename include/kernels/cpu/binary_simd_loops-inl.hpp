#pragma once
// The vector rows of the floating binary ops (arith_simd.hpp) on the
// commonest layout, for every binary family's loops: add, sub, mul, div
// (binary_loops-inl.hpp), maximum and minimum (logical_loops-inl.hpp) and
// the arithmetic ones (arith_loops-inl.hpp). One helper, so each family
// gets the CPU's full vector width without a loop of its own.
#include <array>
#include <cstdint>

#include "kernels/cpu/arith_simd.hpp"
#include "kernels/cpu/elementwise.hpp"  // before loops-inl.hpp: header-only, it includes that one
#include "kernels/cpu/loops-inl.hpp"

namespace opd::kernels::detail {

// Below this many elements the scalar loops are cheaper than the vector
// rows' run-time dispatch (two indirect calls) and thread split.
inline constexpr int64_t kMinSimdElements = 16;

// row(a, b, out, n, broadcast): one of arith_simd.hpp's rows, false when it
// has none (row(a, b, out, 0, broadcast) asks without writing).
template <class T, class Row>
bool try_binary_simd_of(const Row& row, const OperandRef& out, const std::array<OperandRef, 2>& inputs,
                        unsigned broadcast) {
  const T* a = reinterpret_cast<const T*>(inputs[0].data);
  const T* b = reinterpret_cast<const T*>(inputs[1].data);
  T* y = reinterpret_cast<T*>(out.data);
  if (!row(a, b, y, 0, broadcast)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  const int64_t step_a = (broadcast & 1u) ? 0 : 1;
  const int64_t step_b = (broadcast & 2u) ? 0 : 1;
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
    (void)row(a + begin * step_a, b + begin * step_b, y + begin, end - begin, broadcast);
  });
  return true;
}

// The rows for Float/Double when out is contiguous and each input is
// contiguous with out's sizes or a 0-dim value, all of the compute dtype;
// split across threads above grain_size. False (nothing written) when that
// path does not apply. row: a generic callable over float and double.
template <class Row>
bool try_binary_simd(ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs,
                     const Row& row) {
  if (compute != ScalarType::Float && compute != ScalarType::Double) return false;
  if (out.dtype != compute || !is_plain_contiguous(out.sizes, out.strides)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  if (n < kMinSimdElements) return false;  // a few elements: the scalar loop, without the dispatch calls
  unsigned broadcast = 0;
  for (std::size_t k = 0; k != 2; ++k) {
    const OperandRef& in = inputs[k];
    if (in.dtype != compute) return false;
    if (in.sizes.empty()) {
      broadcast |= 1u << k;
    } else if (!(in.sizes == out.sizes) || !is_plain_contiguous(in.sizes, in.strides)) {
      return false;
    }
  }
  return compute == ScalarType::Double ? try_binary_simd_of<double>(row, out, inputs, broadcast)
                                        : try_binary_simd_of<float>(row, out, inputs, broadcast);
}

// The PointwiseOp rows (arith_row) and the BasicArith ones (basic_arith_row).
inline bool try_arith_simd(PointwiseOp op, ScalarType compute, const OperandRef& out,
                           const std::array<OperandRef, 2>& inputs) {
  return try_binary_simd(compute, out, inputs, [op](const auto* a, const auto* b, auto* y, int64_t n, unsigned bc) {
    return simd::arith_row(op, a, b, y, n, bc);
  });
}
inline bool try_basic_arith_simd(BasicArith op, ScalarType compute, const OperandRef& out,
                                 const std::array<OperandRef, 2>& inputs) {
  return try_binary_simd(compute, out, inputs, [op](const auto* a, const auto* b, auto* y, int64_t n, unsigned bc) {
    return simd::basic_arith_row(op, a, b, y, n, bc);
  });
}

}  // namespace opd::kernels::detail
