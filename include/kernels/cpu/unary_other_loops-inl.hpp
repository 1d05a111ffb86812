#pragma once
// The loops of the other keep-kind unary ops (neg, abs, sign, rounding,
// bitwise_not, nan_to_num), every kernel dtype; compiled in
// src/kernels/pointwise_unary_other.cpp (integral dtypes) and
// pointwise_unary_other_floating.cpp (floating dtypes): one source per dtype group.
#include "kernels/cpu/unary_loops-inl.hpp"

namespace opd::kernels::detail {

template <DtypeGroup G>
void unary_other_loops_of(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out,
                          const OperandRef& in) {
  const std::array<OperandRef, 1> inputs{in};
  if (try_unary_simd(op, params, compute, out, in)) return;  // floor, ceil, round, trunc on Float/Double
  dispatch_dtype_group<G>(compute, unary_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    using U = UnaryOp;
    if (op == U::NanToNum) {
      if constexpr (is_float_like_v<T>) {
        const double big = largest_finite<T>();
        const NanToNumOp<C> f{static_cast<C>(params.a.value_or(0.0)), static_cast<C>(params.b.value_or(big)),
                              static_cast<C>(params.c.value_or(-big))};
        run_pointwise<T, 1>(out, inputs, f);
      } else {
        run_pointwise<T, 1>(out, inputs, [](C x) { return x; });  // nothing to replace in integers
      }
      return;
    }
    bool done = false;
    if constexpr (std::is_same_v<T, bool>) {
      done = run_unary_of<T, KeepUnary, U::Sign, U::BitwiseNot>(op, out, inputs);
    } else if constexpr (std::is_integral_v<T>) {
      done = run_unary_of<T, KeepUnary, U::Neg, U::Abs, U::Sign, U::Relu, U::BitwiseNot, U::Floor, U::Ceil, U::Round,
                          U::Trunc>(op, out, inputs);
    } else {
      done = run_unary_of<T, KeepUnary, U::Neg, U::Abs, U::Sign, U::Relu, U::Floor, U::Ceil, U::Round, U::Trunc>(
          op, out, inputs);
    }
    if (!done) throw_not_implemented_for(unary_name(op), compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_unary_other.cpp (Integral) and
// pointwise_unary_other_floating.cpp (Floating).
extern template void unary_other_loops_of<DtypeGroup::Integral>(UnaryOp, const UnaryParams&, ScalarType,
                                                                const OperandRef&, const OperandRef&);
extern template void unary_other_loops_of<DtypeGroup::Floating>(UnaryOp, const UnaryParams&, ScalarType,
                                                                const OperandRef&, const OperandRef&);
#endif

}  // namespace opd::kernels::detail
