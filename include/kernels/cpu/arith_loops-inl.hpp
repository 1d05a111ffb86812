#pragma once
// The loops of pow, remainder, fmod, atan2 and the divisions, compiled in
// src/kernels/pointwise_arith.cpp (integral dtypes) and
// pointwise_arith_floating.cpp (floating dtypes): one source per dtype group.
#include <array>

#include "kernels/cpu/arith_simd.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

// Below this many elements the scalar loops are cheaper than the vector
// rows' run-time dispatch (two indirect calls) and thread split.
inline constexpr int64_t kMinSimdElements = 16;

// The vector rows (arith_simd.hpp) for Float/Double when out is contiguous
// and each input is contiguous with out's sizes or a 0-dim value, all of the
// compute dtype; split across threads above grain_size. False (nothing
// written) when that path does not apply.
template <class T>
bool try_arith_simd_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& inputs,
                       unsigned broadcast) {
  const T* a = reinterpret_cast<const T*>(inputs[0].data);
  const T* b = reinterpret_cast<const T*>(inputs[1].data);
  T* y = reinterpret_cast<T*>(out.data);
  if (!simd::arith_row(op, a, b, y, 0, broadcast)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  const int64_t step_a = (broadcast & 1u) ? 0 : 1;
  const int64_t step_b = (broadcast & 2u) ? 0 : 1;
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
    (void)simd::arith_row(op, a + begin * step_a, b + begin * step_b, y + begin, end - begin, broadcast);
  });
  return true;
}
inline bool try_arith_simd(PointwiseOp op, ScalarType compute, const OperandRef& out,
                           const std::array<OperandRef, 2>& inputs) {
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
  return compute == ScalarType::Double ? try_arith_simd_of<double>(op, out, inputs, broadcast)
                                        : try_arith_simd_of<float>(op, out, inputs, broadcast);
}

template <DtypeGroup G>
void arith_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out,
                    const std::array<OperandRef, 2>& inputs) {
  if (try_arith_simd(op, compute, out, inputs)) return;
  dispatch_dtype_group<G>(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done =
        run_binary_of<T, P::Pow, P::Remainder, P::Fmod, P::Atan2, P::FloorDivide, P::DivTrunc, P::DivFloor>(op, out,
                                                                                                            inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_arith.cpp (Integral) and
// pointwise_arith_floating.cpp (Floating).
extern template void arith_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                          const std::array<OperandRef, 2>&);
extern template void arith_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                          const std::array<OperandRef, 2>&);
#endif

}  // namespace opd::kernels::detail
