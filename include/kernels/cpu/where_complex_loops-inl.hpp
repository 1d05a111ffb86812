#pragma once
// where's loop on complex64 and complex128 (the condition converted to the
// complex type, 1 + 0i for true); compiled in
// src/kernels/pointwise_ternary_complex.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void where_complex_loops(ScalarType compute, const OperandRef& out, const std::array<OperandRef, 3>& inputs) {
  dispatch_complex_dtype(compute, "where_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::Where, T>{});
  });
}

}  // namespace opd::kernels::detail
