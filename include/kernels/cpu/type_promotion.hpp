// Result dtypes of elementwise ops: PyTorch's result_type rules.
//
// Participants fall into three categories, each promoted within itself with
// promote_types():
//   dim      tensors with at least one dimension,
//   zero     0-dim tensors,
//   wrapped  Scalars (Python numbers): bool -> Bool, int -> Long,
//            float -> the default dtype (Float).
// A lower category only matters when it is of a higher kind
// (Bool < integral < floating): int32 tensor + 2.5 -> Float, float16 tensor
// + 0-dim double tensor -> Half, uint8 tensor + 1000 -> Byte, bool tensor +
// 5 -> Long. This is at::native::result_type, and TensorIterator's common
// dtype for ops like add/sub/mul; div also turns an integral (or Bool)
// common dtype into the default dtype.
#pragma once

#include "dispatch/config.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

// torch.get_default_dtype(): Float, fixed here (no set_default_dtype).
constexpr ScalarType default_dtype() noexcept { return ScalarType::Float; }
// Default complex dtype matching default_dtype().
constexpr ScalarType default_complex_dtype() noexcept { return ScalarType::ComplexFloat; }

// The dtypes the CPU kernels compute with: Bool, Byte, Char, Short, Int,
// Long, Half, Float, Double, BFloat16.
constexpr bool is_kernel_dtype(ScalarType t) noexcept {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::BFloat16: return true;
    default: return false;
  }
}

// promote_types, with Undefined meaning "nothing seen yet".
OPD_API ScalarType promote_skip_undefined(ScalarType a, ScalarType b);

constexpr ScalarType to_complex_type(ScalarType t) noexcept {
  switch (t) {
    case ScalarType::Half: return ScalarType::ComplexHalf;
    case ScalarType::Float:
    case ScalarType::BFloat16: return ScalarType::ComplexFloat;
    case ScalarType::Double: return ScalarType::ComplexDouble;
    default: return t;
  }
}

struct ResultTypeState {
  ScalarType dim_result = ScalarType::Undefined;
  ScalarType zero_result = ScalarType::Undefined;
  ScalarType wrapped_result = ScalarType::Undefined;

  friend bool operator==(const ResultTypeState&, const ResultTypeState&) = default;
};

// Adds a tensor participant (undefined tensors are ignored).
OPD_API ResultTypeState update_result_type_state(const Tensor& tensor, ResultTypeState state);

// The dtype a Scalar counts as in the wrapped category.
OPD_API ScalarType wrapped_scalar_dtype(const Scalar& s) noexcept;

// Adds a Scalar (wrapped number) participant.
OPD_API ResultTypeState update_result_type_state(const Scalar& scalar, ResultTypeState state);

namespace detail {
// `higher`'s category wins unless `lower` is of a higher kind.
OPD_API ScalarType combine_categories(ScalarType higher, ScalarType lower);
}  // namespace detail

OPD_API ScalarType result_type(const ResultTypeState& state);

// torch.result_type for the usual argument pairs.
OPD_API ScalarType result_type(const Tensor& a, const Tensor& b);
OPD_API ScalarType result_type(const Tensor& a, const Scalar& b);
inline ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }
OPD_API ScalarType result_type(const Scalar& a, const Scalar& b);

// c10::canCast: may a value of dtype `from` be written to an output of
// dtype `to` by an op (out=, in-place)? No complex -> real, no floating ->
// integral, and nothing but Bool -> Bool.
constexpr bool can_cast(ScalarType from, ScalarType to) noexcept {
  if (is_complex_type(from) && !is_complex_type(to)) return false;
  if (is_floating_type(from) && is_integral_type(to, false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

// The check TensorIterator makes for outputs of type-promoting ops:
// "result type Float can't be cast to the desired output type Long".
OPD_API void check_can_cast_to_output(ScalarType result, ScalarType out);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/type_promotion-inl.hpp"
#endif
