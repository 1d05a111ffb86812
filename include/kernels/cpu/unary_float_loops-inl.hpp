#pragma once
// The loops of the floating unary ops (exp, sin, gelu, softplus, frac, ...)
// for Half, Float, Double, BFloat16; compiled in
// src/kernels/pointwise_unary_float.cpp (Float, Double) and
// pointwise_unary_float_reduced.cpp (Half, BFloat16): one source per dtype group.
#include "kernels/cpu/unary_loops-inl.hpp"
#include "kernels/cpu/unary_simd.hpp"

namespace opd::kernels::detail {

// The vector rows (unary_simd.hpp: Highway + Sleef) for Float/Double when
// out and in are contiguous and of the compute dtype, split across threads
// above grain_size; false if that path does not apply (nothing written).
template <class T>
bool try_unary_simd_of(UnaryOp op, const OperandRef& out, const OperandRef& in) {
  const T* x = reinterpret_cast<const T*>(in.data);
  T* y = reinterpret_cast<T*>(out.data);
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  // One thread's work: one call through Highway's dispatch, which answers
  // false (nothing written) for an op without a vector row.
  if (n <= grain_size) return simd::unary_row(op, x, y, n);
  if (!simd::unary_row(op, x, y, 0)) return false;  // asks, writes nothing
  parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
    (void)simd::unary_row(op, x + begin, y + begin, end - begin);
  });
  return true;
}
inline bool try_unary_simd(UnaryOp op, ScalarType compute, const OperandRef& out, const OperandRef& in) {
  if (compute != ScalarType::Float && compute != ScalarType::Double) return false;
  if (in.dtype != compute || out.dtype != compute || !(in.sizes == out.sizes)) return false;
  if (!is_plain_contiguous(out.sizes, out.strides) || !is_plain_contiguous(in.sizes, in.strides)) return false;
  return compute == ScalarType::Double ? try_unary_simd_of<double>(op, out, in) : try_unary_simd_of<float>(op, out, in);
}

template <DtypeGroup G>
void unary_float_loops_of(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out,
                          const OperandRef& in) {
  const std::array<OperandRef, 1> inputs{in};
  if (try_unary_simd(op, compute, out, in)) return;
  dispatch_dtype_group<G>(compute, unary_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if (op == UnaryOp::Softplus) {
      run_pointwise<T, 1>(out, inputs, SoftplusOp<C>{static_cast<C>(*params.a), static_cast<C>(*params.b)});
      return;
    }
    using U = UnaryOp;
    const bool done =
        run_unary_of<T, FloatUnary, U::Exp, U::Exp2, U::Expm1, U::Log, U::Log2, U::Log10, U::Log1p, U::Sqrt, U::Rsqrt,
                     U::Reciprocal, U::Sin, U::Cos, U::Tan, U::Asin, U::Acos, U::Atan, U::Sinh, U::Cosh, U::Tanh,
                     U::Sigmoid, U::Erf, U::Erfc, U::Gelu, U::GeluTanh, U::Silu, U::Hardswish, U::Frac>(op, out,
                                                                                                        inputs);
    OPD_CHECK(done, unary_name(op), ": not a floating unary op");
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_unary_float.cpp (WideFloating) and
// pointwise_unary_float_reduced.cpp (ReducedFloating).
extern template void unary_float_loops_of<DtypeGroup::WideFloating>(UnaryOp, const UnaryParams&, ScalarType,
                                                                    const OperandRef&, const OperandRef&);
extern template void unary_float_loops_of<DtypeGroup::ReducedFloating>(UnaryOp, const UnaryParams&, ScalarType,
                                                                       const OperandRef&, const OperandRef&);
#endif

}  // namespace opd::kernels::detail
