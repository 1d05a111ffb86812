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

// where(condition, a, b) when out is a plain contiguous row of T, the
// condition a Bool row of out's sizes and a and b rows of T of out's sizes or
// 0-dim values (where.self, masked_fill): a select loop over the bytes,
// which the compiler vectorizes, instead of the engine's loop, which converts
// the condition to T chunk by chunk. False (nothing written) otherwise.
template <class T>
bool try_where_rows(const OperandRef& out, const std::array<OperandRef, 3>& inputs) {
  const OperandRef& cond = inputs[0];
  if (out.dtype != scalar_type_of_v<T> || !is_plain_contiguous(out) || cond.dtype != ScalarType::Bool ||
      !(cond.sizes == out.sizes) || !is_plain_contiguous(cond)) {
    return false;
  }
  for (std::size_t k : {1, 2}) {
    const OperandRef& in = inputs[k];
    if (in.dtype != out.dtype || !(in.sizes.empty() || (in.sizes == out.sizes && is_plain_contiguous(in)))) return false;
  }
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  const auto* c = reinterpret_cast<const bool*>(cond.data);
  const auto* a = reinterpret_cast<const T*>(inputs[1].data);
  const auto* b = reinterpret_cast<const T*>(inputs[2].data);
  auto* y = reinterpret_cast<T*>(out.data);
  // One loop per broadcast pattern, so that each is a plain select over rows.
  const auto rows = [&](auto a_at, auto b_at) {
    parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) y[i] = c[i] ? a_at(i) : b_at(i);
    });
  };
  const auto row_of = [](const T* p) { return [p](int64_t i) { return p[i]; }; };
  const auto value_of = [](const T* p) { return [v = *p](int64_t) { return v; }; };
  const bool a_one = inputs[1].sizes.empty(), b_one = inputs[2].sizes.empty();
  if (a_one && b_one) rows(value_of(a), value_of(b));
  else if (a_one) rows(value_of(a), row_of(b));
  else if (b_one) rows(row_of(a), value_of(b));
  else rows(row_of(a), row_of(b));
  return true;
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
        if (try_where_rows<T>(out, inputs)) return;
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
