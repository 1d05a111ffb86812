#pragma once
// The loops of where and clamp, compiled in
// src/kernels/pointwise_ternary.cpp (integral dtypes) and
// pointwise_ternary_floating.cpp (floating dtypes): one source per dtype group.
#include <array>
#include <cstring>
#include <limits>

#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/unary_simd.hpp"

namespace opd::kernels::detail {

// clamp's Scalar bounds are 0-dim operands of the compute dtype T (clamp_impl's
// ScalarOperands: inputs[1] the lower one, inputs[2] the upper one).
template <TernaryOp K, class T>
void run_clamp_scalar(const OperandRef& out, const std::array<OperandRef, 3>& inputs) {
  using C = opmath_t<T>;
  const auto value_of = [](const OperandRef& bound) {
    T v;
    std::memcpy(&v, bound.data, sizeof(T));
    return static_cast<C>(v);
  };
  run_pointwise<T, 1>(out, {inputs[0]}, ClampScalarBounds<K, C>{value_of(inputs[1]), value_of(inputs[2])});
}

// clamp with Scalar bounds on Float/Double, out and x contiguous with the
// same sizes: the vector row (unary_simd.hpp's clamp_row, the CPU's full
// width), split across threads above grain_size. False (nothing written)
// when that path does not apply.
template <class T>
bool try_clamp_simd_of(TernaryOp op, const OperandRef& out, const std::array<OperandRef, 3>& inputs, int64_t n) {
  const auto value_of = [](const OperandRef& bound) {
    T v;
    std::memcpy(&v, bound.data, sizeof(T));
    return v;
  };
  constexpr T inf = std::numeric_limits<T>::infinity();
  const T lo = op == TernaryOp::ClampMaxScalar ? -inf : value_of(inputs[1]);
  const T hi = op == TernaryOp::ClampMinScalar ? inf : value_of(inputs[2]);
  const T* x = reinterpret_cast<const T*>(inputs[0].data);
  T* y = reinterpret_cast<T*>(out.data);
  if (!simd::clamp_row(x, y, 0, lo, hi)) return false;  // asks, writes nothing
  parallel_for(0, n, grain_size,
               [&](int64_t begin, int64_t end) { (void)simd::clamp_row(x + begin, y + begin, end - begin, lo, hi); });
  return true;
}
inline bool try_clamp_simd(TernaryOp op, ScalarType compute, const OperandRef& out,
                           const std::array<OperandRef, 3>& inputs) {
  if (op != TernaryOp::ClampScalar && op != TernaryOp::ClampMinScalar && op != TernaryOp::ClampMaxScalar) return false;
  if (compute != ScalarType::Float && compute != ScalarType::Double) return false;
  const OperandRef& in = inputs[0];
  if (in.dtype != compute || out.dtype != compute || !(in.sizes == out.sizes)) return false;
  if (!is_plain_contiguous(out.sizes, out.strides) || !is_plain_contiguous(in.sizes, in.strides)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  if (n < 16) return false;  // a few elements: the scalar loop, without the dispatch calls
  return compute == ScalarType::Double ? try_clamp_simd_of<double>(op, out, inputs, n)
                                        : try_clamp_simd_of<float>(op, out, inputs, n);
}

template <DtypeGroup G>
void where_clamp_loops_of(TernaryOp op, ScalarType compute, const OperandRef& out,
                          const std::array<OperandRef, 3>& inputs) {
  const char* name = op == TernaryOp::Where ? "where_cpu" : "clamp_cpu";
  if (try_clamp_simd(op, compute, out, inputs)) return;
  dispatch_dtype_group<G>(compute, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    switch (op) {
      case TernaryOp::Where:
        run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::Where, C>{});
        return;
      case TernaryOp::ClampTensor:
        run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::ClampTensor, C>{});
        return;
      case TernaryOp::ClampScalar:
        run_clamp_scalar<TernaryOp::ClampScalar, T>(out, inputs);
        return;
      case TernaryOp::ClampMinScalar:
        run_clamp_scalar<TernaryOp::ClampMinScalar, T>(out, inputs);
        return;
      case TernaryOp::ClampMaxScalar:
        run_clamp_scalar<TernaryOp::ClampMaxScalar, T>(out, inputs);
        return;
      default:
        break;
    }
    throw_not_implemented_for(name, compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_ternary.cpp (Integral) and
// pointwise_ternary_floating.cpp (Floating).
extern template void where_clamp_loops_of<DtypeGroup::Integral>(TernaryOp, ScalarType, const OperandRef&,
                                                                const std::array<OperandRef, 3>&);
extern template void where_clamp_loops_of<DtypeGroup::Floating>(TernaryOp, ScalarType, const OperandRef&,
                                                                const std::array<OperandRef, 3>&);
#endif

}  // namespace opd::kernels::detail
