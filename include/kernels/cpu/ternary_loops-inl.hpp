#pragma once
// The loops of where and clamp, compiled in
// src/kernels/pointwise_ternary.cpp (integral dtypes) and
// pointwise_ternary_floating.cpp (floating dtypes): one source per dtype group.
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"
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
  const C lo = value_of(inputs[1]);
  const C hi = value_of(inputs[2]);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // Contiguous rows of kMinSimdElements or more: the vector row (a missing bound is the
    // infinity that changes nothing).
    constexpr C inf = std::numeric_limits<C>::infinity();
    const C vlo = K == TernaryOp::ClampMaxScalar ? -inf : lo;
    const C vhi = K == TernaryOp::ClampMinScalar ? inf : hi;
    constexpr ScalarType dtype = std::is_same_v<T, float> ? ScalarType::Float : ScalarType::Double;
    int64_t n = 1;
    for (int64_t s : out.sizes) n *= s;
    if (out.dtype == dtype && inputs[0].dtype == dtype && n >= kMinSimdElements &&
        try_simd_row<T>(out, inputs[0],
                        [&](const T* x, T* y, int64_t count) { return simd::clamp_row(x, y, count, vlo, vhi); })) {
      return;
    }
  }
  run_pointwise<T, 1>(out, {inputs[0]}, ClampScalarBounds<K, C>{lo, hi});
}

template <DtypeGroup G>
void where_clamp_loops_of(TernaryOp op, ScalarType compute, const OperandRef& out,
                          const std::array<OperandRef, 3>& inputs) {
  const char* name = op == TernaryOp::Where ? "where_cpu" : "clamp_cpu";
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
