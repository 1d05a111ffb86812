#pragma once
// Out-of-line part of type_promotion.hpp (compiled in src/kernels/elementwise.cpp).
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

OPD_FUNC ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

OPD_FUNC ResultTypeState update_result_type_state(const Tensor& tensor, ResultTypeState state) {
  if (!tensor.defined()) return state;
  if (tensor.dim() > 0) {
    state.dim_result = promote_skip_undefined(state.dim_result, tensor.dtype());
  } else if (tensor.unsafe_get_impl()->is_wrapped_number()) {
    // A number given for a Tensor argument counts as a Scalar would.
    ScalarType t = tensor.dtype();
    if (is_complex_type(t)) t = default_complex_dtype();
    else if (is_floating_type(t)) t = default_dtype();
    state.wrapped_result = promote_skip_undefined(state.wrapped_result, t);
  } else {
    state.zero_result = promote_skip_undefined(state.zero_result, tensor.dtype());
  }
  return state;
}

OPD_FUNC ScalarType wrapped_scalar_dtype(const Scalar& s) noexcept {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return ScalarType::Bool;
    case Scalar::Kind::Int: return ScalarType::Long;
    case Scalar::Kind::Double: return default_dtype();
    case Scalar::Kind::ComplexDouble: return default_complex_dtype();
  }
  return ScalarType::Undefined;
}

OPD_FUNC ResultTypeState update_result_type_state(const Scalar& scalar, ResultTypeState state) {
  state.wrapped_result = promote_skip_undefined(state.wrapped_result, wrapped_scalar_dtype(scalar));
  return state;
}

namespace detail {

OPD_FUNC ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_complex_type(higher)) return higher;
  if (is_complex_type(lower)) return is_floating_type(higher) ? to_complex_type(higher) : lower;
  if (is_floating_type(higher)) return higher;
  if (higher == ScalarType::Bool || is_floating_type(lower)) return promote_skip_undefined(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}

}  // namespace detail

OPD_FUNC ScalarType result_type(const ResultTypeState& state) {
  return detail::combine_categories(state.dim_result,
                                    detail::combine_categories(state.zero_result, state.wrapped_result));
}

OPD_FUNC ScalarType result_type(const Tensor& a, const Tensor& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, ResultTypeState{})));
}

OPD_FUNC ScalarType result_type(const Tensor& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, ResultTypeState{})));
}

OPD_FUNC ScalarType result_type(const Scalar& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, ResultTypeState{})));
}

OPD_FUNC void check_can_cast_to_output(ScalarType result, ScalarType out) {
  OPD_CHECK(result == out || can_cast(result, out), "result type ", result,
            " can't be cast to the desired output type ", out);
}

}  // namespace opd::kernels
