#pragma once
// The loops of where and clamp, compiled in
// src/kernels/pointwise_ternary.cpp (integral dtypes) and
// pointwise_ternary_floating.cpp (floating dtypes): one source per dtype group.
#include <array>
#include <cstdint>
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

// The unsigned integer of N bytes: a select's mask for a value of that size.
template <std::size_t N>
using unsigned_of_size_t = std::conditional_t<
    N == 1, uint8_t, std::conditional_t<N == 2, uint16_t, std::conditional_t<N == 4, uint32_t, uint64_t>>>;

// where's select over one contiguous row of values of Size bytes: c the
// condition's bytes, a and b rows or, where bit 0 (a) / bit 1 (b) of Mask
// says so, one value. Both sides are loaded and the byte widened to a mask of
// the value's width, so the select is a bitwise blend that GCC vectorizes:
// `c[i] ? a[i] : b[i]` on bools stayed a branchy scalar loop (GCC does not
// if-convert a select of 4-byte values on 1-byte conditions). Keyed on the
// size, not the dtype: float and int32 share one loop. Full blocks of
// kBlock elements, as contiguous_row_body.
template <std::size_t Size, unsigned Mask>
[[gnu::always_inline]] inline void select_row_body(const unsigned char* c, const void* a_row, const void* b_row,
                                                   void* y_row, int64_t n) {
  using U [[gnu::may_alias]] = unsigned_of_size_t<Size>;  // reads the dtype's bytes
  const U* a = static_cast<const U*>(a_row);
  const U* b = static_cast<const U*>(b_row);
  U* y = static_cast<U*>(y_row);
  const U a0 = (Mask & 1u) ? a[0] : U{};
  const U b0 = (Mask & 2u) ? b[0] : U{};
  const auto blend = [&](int64_t i) {
    const U x = (Mask & 1u) ? a0 : a[i];
    const U z = (Mask & 2u) ? b0 : b[i];
    const U m = static_cast<U>(U{0} - static_cast<U>(c[i] != 0));
    return static_cast<U>((x & m) | (z & static_cast<U>(~m)));
  };
  constexpr int64_t B = kBlock<unsigned_of_size_t<Size>>;
  int64_t i = 0;
  for (; i + B <= n; i += B) {
    OPD_KERNEL_IVDEP
    for (int64_t j = i; j < i + B; ++j) y[j] = blend(j);
  }
  for (; i < n; ++i) y[i] = blend(i);
}

#if OPD_KERNEL_AVX2_ROWS
// The same loop for AVX2, picked at run time as contiguous_row_avx2 is.
template <std::size_t Size, unsigned Mask>
[[gnu::target("avx2"), gnu::noinline]] void select_row_avx2(const unsigned char* c, const void* a, const void* b,
                                                           void* y, int64_t n) {
  select_row_body<Size, Mask>(c, a, b, y, n);
}
#endif

template <std::size_t Size, unsigned Mask>
void select_row(const unsigned char* c, const void* a, const void* b, void* y, int64_t n) {
#if OPD_KERNEL_AVX2_ROWS
  if (cpu_has_avx2()) {
    select_row_avx2<Size, Mask>(c, a, b, y, n);
    return;
  }
#endif
  select_row_body<Size, Mask>(c, a, b, y, n);
}

// select_row over n elements in chunks across threads; a side that is one
// value (a_one, b_one) stays at it, a row moves with the chunk.
template <std::size_t Size>
void select_rows(const unsigned char* c, const void* a, bool a_one, const void* b, bool b_one, void* y, int64_t n) {
  const auto rows = [&](auto mask_tag) {
    constexpr unsigned M = decltype(mask_tag)::value;
    const auto at = [](const void* p, int64_t i) { return static_cast<const char*>(p) + i * int64_t{Size}; };
    parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
      select_row<Size, M>(c + begin, (M & 1u) ? a : at(a, begin), (M & 2u) ? b : at(b, begin),
                          static_cast<char*>(y) + begin * int64_t{Size}, end - begin);
    });
  };
  switch ((a_one ? 1u : 0u) | (b_one ? 2u : 0u)) {
    case 0: rows(std::integral_constant<unsigned, 0>{}); break;
    case 1: rows(std::integral_constant<unsigned, 1>{}); break;
    case 2: rows(std::integral_constant<unsigned, 2>{}); break;
    default: rows(std::integral_constant<unsigned, 3>{}); break;
  }
}

#ifndef OPD_HEADER_ONLY
// Compiled once for every value size, in src/kernels/pointwise_ternary.cpp.
extern template void select_rows<1>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
extern template void select_rows<2>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
extern template void select_rows<4>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
extern template void select_rows<8>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
#endif

// where(condition, a, b) when out is a plain contiguous row of T, the
// condition a Bool row of out's sizes and a and b rows of T of out's sizes or
// 0-dim values (where.self, its Scalar overloads, masked_fill): select_row
// over chunks across threads, instead of the engine's loop, which converts
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
  if (n == 0) return true;
  select_rows<sizeof(T)>(reinterpret_cast<const unsigned char*>(cond.data), inputs[1].data, inputs[1].sizes.empty(),
                         inputs[2].data, inputs[2].sizes.empty(), out.data, n);
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
