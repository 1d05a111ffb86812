#pragma once
// The loops of the floating unary ops (exp, sin, gelu, softplus, frac, ...)
// for Half, Float, Double, BFloat16; compiled in
// src/kernels/pointwise_unary_float.cpp (Float, Double) and
// pointwise_unary_float_reduced.cpp (Half, BFloat16): one source per dtype group.
#include "kernels/cpu/unary_loops-inl.hpp"

namespace opd::kernels::detail {

template <DtypeGroup G>
void unary_float_loops_of(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out,
                          const OperandRef& in) {
  const std::array<OperandRef, 1> inputs{in};
  if (try_unary_simd(op, params, compute, out, in)) return;
  dispatch_dtype_group<G>(compute, unary_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if (op == UnaryOp::Softplus) {
      run_pointwise<T, 1>(out, inputs, SoftplusOp<C>{static_cast<C>(*params.a), static_cast<C>(*params.b)});
      return;
    }
    if (op == UnaryOp::Elu) {
      const C scale = static_cast<C>(*params.b);
      run_pointwise<T, 1>(out, inputs,
                          EluOp<C>{static_cast<C>(*params.a) * scale, scale, static_cast<C>(*params.c)});
      return;
    }
    if (op == UnaryOp::LeakyRelu) {
      run_pointwise<T, 1>(out, inputs, LeakyReluOp<C>{static_cast<C>(*params.a)});
      return;
    }
    using U = UnaryOp;
    const bool done =
        run_unary_of<T, FloatUnary, U::Exp, U::Exp2, U::Expm1, U::Log, U::Log2, U::Log10, U::Log1p, U::Sqrt, U::Rsqrt,
                     U::Reciprocal, U::Sin, U::Cos, U::Tan, U::Asin, U::Acos, U::Atan, U::Sinh, U::Cosh, U::Tanh,
                     U::Sigmoid, U::Erf, U::Erfc, U::Acosh, U::Asinh, U::Atanh, U::Angle, U::Gelu, U::GeluTanh, U::Silu, U::Hardswish, U::Hardsigmoid, U::Frac>(op, out,
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
