#pragma once
// Out-of-line part of pointwise.hpp (compiled in src/kernels/pointwise.cpp):
// the checks, meta and impl of the pointwise families. Their loops are in
// unary_float_loops-inl.hpp, unary_other_loops-inl.hpp,
// unary_bool_loops-inl.hpp, unary_complex_loops-inl.hpp, equality_loops-inl.hpp, compare_loops-inl.hpp,
// complex_math_loops-inl.hpp,
// logical_loops-inl.hpp, arith_loops-inl.hpp, bitwise_loops-inl.hpp,
// ternary_loops-inl.hpp and ternary_math_loops-inl.hpp, each compiled in its
// own source.
#include <array>
#include <complex>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/pointwise.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/type_promotion.hpp"
#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/arith_loops-inl.hpp"
#include "kernels/cpu/bitwise_loops-inl.hpp"
#include "kernels/cpu/compare_loops-inl.hpp"
#include "kernels/cpu/complex_math_loops-inl.hpp"
#include "kernels/cpu/equality_loops-inl.hpp"
#include "kernels/cpu/logical_loops-inl.hpp"
#include "kernels/cpu/ternary_loops-inl.hpp"
#include "kernels/cpu/ternary_math_loops-inl.hpp"
#include "kernels/cpu/unary_bool_loops-inl.hpp"
#include "kernels/cpu/unary_complex_loops-inl.hpp"
#include "kernels/cpu/unary_float_loops-inl.hpp"
#include "kernels/cpu/unary_other_loops-inl.hpp"
#include "kernels/cpu/where_complex_loops-inl.hpp"
#endif

namespace opd::kernels {

OPD_FUNC const char* unary_name(UnaryOp op) noexcept {
  static constexpr const char* names[kNumUnaryOps] = {
      "exp",  "exp2", "expm1", "log",  "log2", "log10",   "log1p",       "sqrt",      "rsqrt",    "reciprocal",
      "sin",  "cos",  "tan",   "asin", "acos", "atan",    "sinh",        "cosh",      "tanh",     "sigmoid",
      "erf",  "erfc", "acosh", "asinh", "atanh", "angle", "neg", "abs", "sign", "relu", "gelu", "gelu", "silu", "hardswish",
      "hardsigmoid", "softplus", "elu", "leaky_relu", "floor", "ceil", "round", "trunc", "frac", "bitwise_not", "sgn", "conj_physical", "nan_to_num", "logical_not", "isnan",
      "isinf", "isfinite"};
  return names[static_cast<int>(op)];
}

OPD_FUNC const char* pointwise_name(PointwiseOp op) noexcept {
  static constexpr const char* names[] = {
      "eq",  "ne",        "lt",   "le",    "gt",           "ge",  "logical_and", "logical_or",  "logical_xor",
      "maximum", "minimum", "pow", "remainder", "fmod", "atan2", "floor_divide", "div_trunc", "div_floor",
      "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"};
  return names[static_cast<int>(op)];
}

namespace detail {

// (Here rather than in arith_loops-inl.hpp, which two sources compile.)
OPD_FUNC bool has_zero(const OperandRef& t) {
  bool zero = false;
  dispatch_dtype(t.dtype, "has_zero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    ElementwiseIter<0> iter(t, {});
    iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
      for (int64_t j = 0; j < n && !zero; ++j) zero = load<T>(ptrs[0] + j * strides[0]) == T(0);
    });
  });
  return zero;
}

inline void check_input(const Tensor& t, const char* op, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
}
inline void check_on_cpu(const Tensor& t, const char* op, const char* arg) {
  OPD_CHECK(t.device().is_cpu(), op, ": the CPU kernel got argument '", arg, "' on device ", t.device());
}

// An input read by the loops: itself, or a copy when it shares memory with
// out other than as out itself (TensorIterator rejects the detectable
// partial overlaps first).
inline Tensor readable_input(const Tensor& in, const Tensor& out) {
  return is_safe_elementwise_alias(out, in) ? in : contiguous_clone(in);
}

// Out's checks before anything is written: overlap, shape, dtype cast.
inline void check_out(const char* op, const Tensor& out, std::initializer_list<const Tensor*> inputs,
                      IntArrayRef shape, ScalarType result) {
  check_input(out, op, "out");
  assert_no_internal_overlap(out);
  for (const Tensor* in : inputs) {
    if (in && !in->is_same(out)) assert_no_partial_overlap(out, *in);
  }
  OPD_CHECK(out.sizes() == shape, "output with shape ", out.sizes(), " doesn't match the broadcast shape ", shape);
  check_can_cast_to_output(result, out.dtype());
  check_on_cpu(out, op, "out");
  for (const Tensor* in : inputs) {
    if (in) check_on_cpu(*in, op, "input");
  }
}

// ------------------------------------------------------------------- unary ---

// The unary ops 1.13 computes on complex32 whose complex64 loops give its
// results to the bit (a sign flip, a predicate), run on complex32 operands.
constexpr bool has_complex_half_loop(UnaryOp op) noexcept {
  return op == UnaryOp::Neg || op == UnaryOp::ConjPhysical || op == UnaryOp::IsNan || op == UnaryOp::IsInf ||
         op == UnaryOp::IsFinite;
}

// Keep-kind ops refuse some dtypes, as ATen's kernels do (before writing).
inline void check_unary_dtype(UnaryOp op, ScalarType d) {
  const char* name = unary_name(op);
  if (d == ScalarType::ComplexHalf) {
    if (!has_complex_half_loop(op)) throw_not_implemented_for(name, d);
    return;
  }
  if (is_complex_kernel_dtype(d)) {  // complex: the ops of unary_complex_loops only
    if (!has_complex_loop(op)) throw_not_implemented_for(name, d);
    return;
  }
  if (!is_kernel_dtype(d)) throw_not_implemented_for(name, d);
  const bool is_bool = d == ScalarType::Bool;
  const bool floating = is_floating_type(d);
  switch (op) {
    case UnaryOp::Neg:
      OPD_CHECK(!is_bool,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
                "use the `~` or `logical_not()` operator instead.");
      break;
    case UnaryOp::Relu: OPD_CHECK(!is_bool, "Boolean inputs not supported for relu"); break;
    case UnaryOp::Abs:
    case UnaryOp::Floor:
    case UnaryOp::Ceil:
    case UnaryOp::Round:
    case UnaryOp::Trunc:
      if (is_bool) throw_not_implemented_for(name, d);
      break;
    case UnaryOp::Gelu:
    case UnaryOp::GeluTanh:
    case UnaryOp::Silu:
    case UnaryOp::Hardswish:
    case UnaryOp::Hardsigmoid:
    case UnaryOp::Softplus:
    case UnaryOp::Elu:
    case UnaryOp::LeakyRelu:
    case UnaryOp::Frac:
      if (!floating) throw_not_implemented_for(name, d);
      break;
    case UnaryOp::BitwiseNot:
      if (floating) throw_not_implemented_for(name, d);
      break;
    case UnaryOp::ConjPhysical: throw_not_implemented_for(name, d);  // the kernels handle a real self
    default: break;
  }
}

inline ScalarType unary_result_dtype(UnaryOp op, ScalarType d) {
  switch (unary_kind(op)) {
    case UnaryKind::Float:
      if (op == UnaryOp::Angle && is_complex_kernel_dtype(d)) {  // arg z: real, as abs
        return d == ScalarType::ComplexFloat ? ScalarType::Float : ScalarType::Double;
      }
      return is_floating_type(d) || is_complex_kernel_dtype(d) ? d : default_dtype();
    case UnaryKind::Keep:
      if (op == UnaryOp::Abs && is_complex_kernel_dtype(d)) {  // |z|: the real dtype of the same precision
        return d == ScalarType::ComplexFloat ? ScalarType::Float : ScalarType::Double;
      }
      return d;
    case UnaryKind::Bool: return ScalarType::Bool;
  }
  return d;
}

// Ops whose loops are unary_float_loops'.
constexpr bool uses_float_loops(UnaryOp op) noexcept {
  return unary_kind(op) == UnaryKind::Float || op == UnaryOp::Gelu || op == UnaryOp::GeluTanh ||
         op == UnaryOp::Silu || op == UnaryOp::Hardswish || op == UnaryOp::Hardsigmoid || op == UnaryOp::Softplus || op == UnaryOp::Elu ||
         op == UnaryOp::LeakyRelu || op == UnaryOp::Frac;
}

inline void unary_compute(UnaryOp op, const Tensor& self, const Tensor& out, const UnaryParams& params) {
  // Complex inputs compute in their own dtype (angle's real result too).
  // (complex32: in complex64, exact for has_complex_half_loop's ops)
  const ScalarType compute = unary_kind(op) == UnaryKind::Float && !is_complex_kernel_dtype(self.dtype())
                                 ? unary_result_dtype(op, self.dtype())
                                 : self.dtype() == ScalarType::ComplexHalf ? ScalarType::ComplexFloat
                                                                          : self.dtype();
  const Tensor in = readable_input(self, out);
  if (op == UnaryOp::Sgn && !is_complex_kernel_dtype(compute)) op = UnaryOp::Sign;  // sgn is sign on reals
  UnaryParams p = params;
  if (op == UnaryOp::Softplus) {
    if (!p.a) p.a = 1.0;
    if (!p.b) p.b = 20.0;
  } else if (op == UnaryOp::Elu) {  // alpha, scale, input_scale
    if (!p.a) p.a = 1.0;
    if (!p.b) p.b = 1.0;
    if (!p.c) p.c = 1.0;
  } else if (op == UnaryOp::LeakyRelu) {  // negative_slope
    if (!p.a) p.a = 0.01;
  }
  if (is_complex_kernel_dtype(compute)) {
    unary_complex_loops(op, compute, OperandRef::of(out), OperandRef::of(in));
  } else if (uses_float_loops(op)) {
    unary_float_loops(op, p, compute, OperandRef::of(out), OperandRef::of(in));
  } else if (unary_kind(op) == UnaryKind::Bool) {
    unary_bool_loops(op, compute, OperandRef::of(out), OperandRef::of(in));
  } else {
    unary_other_loops(op, p, compute, OperandRef::of(out), OperandRef::of(in));
  }
}

// ------------------------------------------------------------------ binary ---

inline ScalarType common_dtype_of(std::initializer_list<TensorOrScalar> args) {
  ResultTypeState state;
  for (const TensorOrScalar& a : args) {
    state = a.tensor ? update_result_type_state(*a.tensor, state) : update_result_type_state(*a.scalar, state);
  }
  return result_type(state);
}

// The broadcast shape of the tensor arguments (0-dim when there are none).
// The shapes are gathered on the stack (the callers pass at most three
// tensors; more go to the heap): a growing vector cost clamp_min.Tensor two
// allocations per call, in its Meta and in its CPU part.
inline std::vector<int64_t> shape_of(std::initializer_list<const Tensor*> tensors) {
  std::array<IntArrayRef, 4> few;
  std::vector<IntArrayRef> many;
  const bool on_stack = tensors.size() <= few.size();
  std::size_t n = 0;
  for (const Tensor* t : tensors) {
    if (!t) continue;
    if (on_stack) {
      few[n] = t->sizes();
    } else {
      many.push_back(t->sizes());
    }
    ++n;
  }
  if (n == 0) return {};
  return broadcast_shapes(std::span<const IntArrayRef>(on_stack ? few.data() : many.data(), n));
}

// The broadcast shape of a binary op's tensor arguments (0-dim when there
// are none) into `out` (a TensorMeta's sizes or a SmallVector: no heap
// vector per call, unlike shape_of).
template <class Sizes>
void binary_shape_into(TensorOrScalar self, TensorOrScalar other, Sizes& out) {
  if (self.tensor && other.tensor && !(self.tensor->sizes() == other.tensor->sizes())) {
    infer_size_into(self.tensor->sizes(), other.tensor->sizes(), out);
  } else if (self.tensor || other.tensor) {
    out.assign((self.tensor ? self.tensor : other.tensor)->sizes());
  } else {
    out.resize(0);
  }
}

inline void check_pointwise_args(PointwiseOp op, TensorOrScalar self, TensorOrScalar other) {
  if (self.tensor) check_input(*self.tensor, pointwise_name(op), "self");
  if (other.tensor) check_input(*other.tensor, pointwise_name(op), "other");
}

// The dtype the op computes in (its result but for the Bool-valued ops),
// with the op's dtype restrictions and argument checks.
inline ScalarType pointwise_common(PointwiseOp op, TensorOrScalar self, TensorOrScalar other) {
  // Two tensors of one dtype promote to it, whatever their dimensions (the
  // result-type state machine is for mixed dtypes and Scalars).
  ScalarType common = self.tensor && other.tensor && self.tensor->dtype() == other.tensor->dtype()
                          ? self.tensor->dtype()
                          : common_dtype_of({self, other});
  const char* name = pointwise_name(op);
  if (common == ScalarType::ComplexHalf) {  // 1.13's complex32 comparisons (pointwise_compute)
    if (op != PointwiseOp::Eq && op != PointwiseOp::Ne) throw_not_implemented_for(name, common);
    return common;
  }
  if (is_complex_kernel_dtype(common)) {  // complex: no ordering, no rounding, no bits
    if (op != PointwiseOp::Eq && op != PointwiseOp::Ne && op != PointwiseOp::Pow && op != PointwiseOp::LogicalAnd &&
        op != PointwiseOp::LogicalOr && op != PointwiseOp::LogicalXor)
      throw_not_implemented_for(name, common);
    return common;
  }
  if (!is_kernel_dtype(common)) throw_not_implemented_for(name, common);
  const bool is_bool = common == ScalarType::Bool;
  const bool integral = is_integral_type(common, /*include_bool=*/false);
  switch (op) {
    case PointwiseOp::Atan2:
      if (!is_floating_type(common)) common = default_dtype();
      break;
    case PointwiseOp::Pow:
      if (is_bool) throw_not_implemented_for(name, common);
      OPD_CHECK(!(integral && self.tensor && other.scalar && other.scalar->is_integral(false) &&
                  other.scalar->to_long() < 0),
                "Integers to negative integer powers are not allowed.");
      break;
    case PointwiseOp::Remainder:
    case PointwiseOp::Fmod:
    case PointwiseOp::FloorDivide:
    case PointwiseOp::DivTrunc:
    case PointwiseOp::DivFloor:
      if (is_bool) throw_not_implemented_for(name, common);
      break;
    case PointwiseOp::BitwiseAnd:
    case PointwiseOp::BitwiseOr:
    case PointwiseOp::BitwiseXor:
      if (is_floating_type(common)) throw_not_implemented_for(name, common);
      break;
    case PointwiseOp::LeftShift:
    case PointwiseOp::RightShift:
      if (!integral) throw_not_implemented_for(name, common);
      break;
    default: break;
  }
  return common;
}

// Integer division by zero is an error, found before anything is written.
inline bool divides(PointwiseOp op) noexcept {
  return op == PointwiseOp::Remainder || op == PointwiseOp::Fmod || op == PointwiseOp::FloorDivide ||
         op == PointwiseOp::DivTrunc || op == PointwiseOp::DivFloor;
}

// A Tensor, or a Scalar held as a 0-dim operand of the compute dtype.
// complex32 (eq, ne): the operand rounded to complex32 as 1.13 converts it
// to the common dtype, held for complex64's loops (exact on those values).
struct HeldOperand {
  Tensor tensor;
  std::optional<ScalarOperand> scalar;

  HeldOperand(TensorOrScalar a, const Tensor& out, ScalarType compute) {
    constexpr ScalarType c32 = ScalarType::ComplexHalf;
    if (a.tensor && compute == c32 && a.tensor->dtype() != c32) {
      tensor = opd::empty(a.tensor->sizes(), c32, Device::cpu());
      copy_elements(OperandRef::of(tensor), OperandRef::of(*a.tensor));
    } else if (a.tensor) {
      tensor = readable_input(*a.tensor, out);
    } else if (compute == c32) {
      scalar.emplace(Scalar(convert<std::complex<double>>(scalar_cast<ComplexHalf>(*a.scalar))), ScalarType::ComplexFloat);
    } else {
      scalar.emplace(*a.scalar, compute);
    }
  }
  OperandRef ref() const { return scalar ? scalar->ref() : OperandRef::of(tensor); }
};

inline void pointwise_compute(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, ScalarType compute,
                              const Tensor& out) {
  // A floating tensor ** 0.5, -0.5 or -1 is sqrt, rsqrt or reciprocal, as
  // ATen's pow_tensor_scalar computes it (sqrt(-inf) is NaN, pow's is inf).
  if (op == PointwiseOp::Pow && self.tensor && other.scalar && is_floating_type(compute) &&
      !other.scalar->is_complex()) {
    const double e = other.scalar->to_double();
    const std::optional<UnaryOp> as = e == 0.5    ? std::optional(UnaryOp::Sqrt)
                                      : e == -0.5 ? std::optional(UnaryOp::Rsqrt)
                                      : e == -1.0 ? std::optional(UnaryOp::Reciprocal)
                                                  : std::nullopt;
    if (as) {
      const Tensor in = readable_input(*self.tensor, out);
      unary_float_loops(*as, {}, compute, OperandRef::of(out), OperandRef::of(in));
      return;
    }
  }
  if (op == PointwiseOp::Pow && self.tensor && other.scalar && is_complex_kernel_dtype(compute)) {
    const Tensor in = readable_input(*self.tensor, out);
    const Scalar& e = *other.scalar;
    const std::complex<double> ez = e.to_complex_double();
    const std::optional<UnaryOp> as = ez == 0.5    ? std::optional(UnaryOp::Sqrt)
                                      : ez == -0.5 ? std::optional(UnaryOp::Rsqrt)
                                      : ez == -1.0 ? std::optional(UnaryOp::Reciprocal)
                                                   : std::nullopt;
    if (as) unary_complex_loops(*as, compute, OperandRef::of(out), OperandRef::of(in));
    else pow_complex_scalar_loops(compute, OperandRef::of(out), OperandRef::of(in), ez);
    return;
  }
  const HeldOperand a(self, out, compute);
  const HeldOperand b(other, out, compute);
  if (divides(op) && is_integral_type(compute, false)) {
    // The divisor as the loops see it (a Scalar already in `compute`).
    OPD_CHECK(!has_zero(b.ref()), "ZeroDivisionError");
  }
  binary_pointwise_loops(op, compute == ScalarType::ComplexHalf ? ScalarType::ComplexFloat : compute,
                         OperandRef::of(out), {a.ref(), b.ref()});
}

// ------------------------------------------------------------------- clamp ---

inline void check_clamp_bounds_given(bool min, bool max) {
  OPD_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// The value read from a 0-dim tensor, as a Scalar of its kind.
inline Scalar item_of(const Tensor& t) {
  return dispatch_dtype_with_complex_half(t.dtype(), "item", [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    T v{};
    copy_elements(OperandRef{reinterpret_cast<char*>(&v), t.dtype(), {}, {}, true}, OperandRef::of(t));
    if constexpr (is_complex_half_v<T>) return Scalar(convert<std::complex<double>>(v));
    else if constexpr (is_complex_v<T>) return Scalar(std::complex<double>(v.real(), v.imag()));
    else if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T>) return Scalar(static_cast<int64_t>(v));
    else return Scalar(static_cast<double>(convert<double>(v)));
  });
}

}  // namespace detail

// ------------------------------------------------------------------- unary ---

OPD_FUNC TensorMeta unary_meta(UnaryOp op, const Tensor& self) {
  detail::check_input(self, unary_name(op), "self");
  detail::check_unary_dtype(op, self.dtype());
  TensorMeta m;
  m.sizes.assign(self.sizes());
  m.dtype = detail::unary_result_dtype(op, self.dtype());
  elementwise_output_layout(m, {&self});
  return m;
}

OPD_FUNC void unary_impl(UnaryOp op, const Tensor& self, Tensor& out, const UnaryParams& params) {
  detail::check_input(self, unary_name(op), "self");
  detail::check_unary_dtype(op, self.dtype());
  detail::check_out(unary_name(op), out, {&self}, self.sizes(), detail::unary_result_dtype(op, self.dtype()));
  detail::unary_compute(op, self, out, params);
}

OPD_FUNC void unary_impl(UnaryOp op, const Tensor& self, Tensor& out, const UnaryParams& params, meta_checked_t) {
#ifndef NDEBUG
  const TensorMeta m = unary_meta(op, self);
  OPD_CHECK(out.sizes() == IntArrayRef(m.sizes) && out.dtype() == m.dtype, unary_name(op),
            ": impl(..., meta_checked) needs an out of meta's sizes and dtype");
#endif
  assert_no_internal_overlap(out);
  if (!self.is_same(out)) assert_no_partial_overlap(out, self);
  detail::unary_compute(op, self, out, params);
}

// ------------------------------------------------------------------ binary ---

OPD_FUNC TensorMeta pointwise_meta(PointwiseOp op, TensorOrScalar self, TensorOrScalar other) {
  detail::check_pointwise_args(op, self, other);
  const ScalarType common = detail::pointwise_common(op, self, other);
  TensorMeta m;
  detail::binary_shape_into(self, other, m.sizes);
  m.dtype = gives_bool(op) ? ScalarType::Bool : common;
  elementwise_output_layout(m, {self.tensor, other.tensor});
  return m;
}

OPD_FUNC void pointwise_impl(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, Tensor& out) {
  detail::check_pointwise_args(op, self, other);
  const ScalarType common = detail::pointwise_common(op, self, other);
  SmallVector<int64_t, 6> shape;
  detail::binary_shape_into(self, other, shape);
  detail::check_out(pointwise_name(op), out, {self.tensor, other.tensor}, shape,
                    gives_bool(op) ? ScalarType::Bool : common);
  detail::pointwise_compute(op, self, other, common, out);
}

OPD_FUNC void pointwise_impl(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, Tensor& out, meta_checked_t) {
  assert_no_internal_overlap(out);
  if (self.tensor && !self.tensor->is_same(out)) assert_no_partial_overlap(out, *self.tensor);
  if (other.tensor && !other.tensor->is_same(out)) assert_no_partial_overlap(out, *other.tensor);
  detail::pointwise_compute(op, self, other, detail::pointwise_common(op, self, other), out);
}

// ------------------------------------------------------------------- where ---

namespace detail {
inline ScalarType where_checks(const Tensor& condition, const Tensor& self, const Tensor& other) {
  check_input(condition, "where", "condition");
  check_input(self, "where", "self");
  check_input(other, "where", "other");
  OPD_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::Byte,
            "where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.dtype());
  const ScalarType common = result_type(self, other);
  if (!is_kernel_dtype(common) && !is_complex_kernel_dtype(common) && common != ScalarType::ComplexHalf)
    throw_not_implemented_for("where_cpu", common);
  return common;
}
// The dtype a select (where, masked_fill) runs its loop in: complex32's in
// complex64, which is exact (choosing commutes with rounding to complex32).
constexpr ScalarType select_dtype(ScalarType t) noexcept {
  return t == ScalarType::ComplexHalf ? ScalarType::ComplexFloat : t;
}
}  // namespace detail

OPD_FUNC TensorMeta where_meta(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TensorMeta m;
  m.dtype = detail::where_checks(condition, self, other);
  m.sizes = detail::shape_of({&condition, &self, &other});
  elementwise_output_layout(m, {&condition, &self, &other});
  return m;
}

OPD_FUNC void where_impl(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  const ScalarType common = detail::where_checks(condition, self, other);
  const std::vector<int64_t> shape = detail::shape_of({&condition, &self, &other});
  detail::check_out("where", out, {&condition, &self, &other}, shape, common);
  if (common == ScalarType::ComplexHalf && out.dtype() != common) {  // the complex32 result, converted
    Tensor result = opd::empty(out.sizes(), common, Device::cpu());
    where_impl(condition, self, other, result);
    copy_elements(OperandRef::of(out), OperandRef::of(result));
    return;
  }
  const Tensor c = detail::readable_input(condition, out);
  const Tensor a = detail::readable_input(self, out);
  const Tensor b = detail::readable_input(other, out);
  detail::ternary_pointwise_loops(detail::TernaryOp::Where, detail::select_dtype(common), OperandRef::of(out),
                                  {OperandRef::of(c), OperandRef::of(a), OperandRef::of(b)});
}

// ------------------------------------------------------------------- clamp ---

namespace detail {
// 1.13's manual promotion: a floating self keeps its dtype; otherwise the
// Scalars take part. Each bound must fit the result dtype (Scalar::to).
inline ScalarType clamp_scalar_checks(const Tensor& self, const std::optional<Scalar>& min,
                                      const std::optional<Scalar>& max) {
  check_input(self, "clamp", "self");
  check_clamp_bounds_given(min.has_value(), max.has_value());
  ScalarType result = self.dtype();
  OPD_CHECK(!is_complex_type(result), "clamp is not supported for complex types");
  if (!is_floating_type(result)) {
    ResultTypeState state = update_result_type_state(self, ResultTypeState{});
    if (min) state = update_result_type_state(*min, state);
    if (max) state = update_result_type_state(*max, state);
    result = result_type(state);
  }
  OPD_CHECK(!is_complex_type(result), "clamp is not supported for complex types");
  if (!is_kernel_dtype(result) || result == ScalarType::Bool) throw_not_implemented_for("clamp_cpu", result);
  dispatch_dtype(result, "clamp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (min) (void)checked_scalar_to<T>(*min);
    if (max) (void)checked_scalar_to<T>(*max);
  });
  return result;
}

inline ScalarType clamp_tensor_checks(const Tensor& self, const std::optional<Tensor>& min,
                                      const std::optional<Tensor>& max) {
  check_input(self, "clamp", "self");
  const bool has_min = min && min->defined();
  const bool has_max = max && max->defined();
  check_clamp_bounds_given(has_min, has_max);
  OPD_CHECK(!is_complex_type(self.dtype()), "clamp is not supported for complex types");
  ResultTypeState state = update_result_type_state(self, ResultTypeState{});
  if (has_min) state = update_result_type_state(*min, state);
  if (has_max) state = update_result_type_state(*max, state);
  const ScalarType common = result_type(state);
  if (!is_kernel_dtype(common) || (has_min && has_max && common == ScalarType::Bool))
    throw_not_implemented_for("clamp_cpu", common);
  return common;
}

inline const Tensor* bound(const std::optional<Tensor>& t) { return t && t->defined() ? &*t : nullptr; }
}  // namespace detail

OPD_FUNC TensorMeta clamp_meta(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  TensorMeta m;
  m.dtype = detail::clamp_scalar_checks(self, min, max);
  m.sizes.assign(self.sizes());
  elementwise_output_layout(m, {&self});
  return m;
}

OPD_FUNC void clamp_impl(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                         Tensor& out) {
  const ScalarType result = detail::clamp_scalar_checks(self, min, max);
  detail::check_out("clamp", out, {&self}, self.sizes(), result);
  const Tensor x = detail::readable_input(self, out);
  const ScalarOperand lo(min.value_or(Scalar(0)), result);
  const ScalarOperand hi(max.value_or(Scalar(0)), result);
  const detail::TernaryOp op = min && max ? detail::TernaryOp::ClampScalar
                               : min      ? detail::TernaryOp::ClampMinScalar
                                          : detail::TernaryOp::ClampMaxScalar;
  detail::ternary_pointwise_loops(op, result, OperandRef::of(out),
                                  {OperandRef::of(x), min ? lo.ref() : hi.ref(), hi.ref()});
}

OPD_FUNC TensorMeta clamp_tensor_meta(const Tensor& self, const std::optional<Tensor>& min,
                                      const std::optional<Tensor>& max) {
  TensorMeta m;
  m.dtype = detail::clamp_tensor_checks(self, min, max);
  m.sizes = detail::shape_of({&self, detail::bound(min), detail::bound(max)});
  const Tensor* lo = detail::bound(min);
  const Tensor* hi = detail::bound(max);
  elementwise_output_layout(m, {&self, lo, hi});
  return m;
}

OPD_FUNC void clamp_tensor_impl(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                                Tensor& out) {
  const ScalarType common = detail::clamp_tensor_checks(self, min, max);
  const Tensor* lo = detail::bound(min);
  const Tensor* hi = detail::bound(max);
  const std::vector<int64_t> shape = detail::shape_of({&self, lo, hi});
  detail::check_out("clamp", out, {&self, lo, hi}, shape, common);
  const Tensor x = detail::readable_input(self, out);
  if (lo && hi) {
    const Tensor a = detail::readable_input(*lo, out);
    const Tensor b = detail::readable_input(*hi, out);
    detail::ternary_pointwise_loops(detail::TernaryOp::ClampTensor, common, OperandRef::of(out),
                                    {OperandRef::of(x), OperandRef::of(a), OperandRef::of(b)});
    return;
  }
  // One bound: maximum / minimum (NaN from either side), as ATen.
  const Tensor b = detail::readable_input(lo ? *lo : *hi, out);
  detail::binary_pointwise_loops(lo ? PointwiseOp::Maximum : PointwiseOp::Minimum, common, OperandRef::of(out),
                                 {OperandRef::of(x), OperandRef::of(b)});
}

// ------------------------------------------------------------- masked_fill ---

OPD_FUNC Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value) {
  detail::check_input(self, "masked_fill_", "self");
  detail::check_input(mask, "masked_fill_", "mask");
  // 1.13 still takes uint8 masks (deprecated there).
  OPD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte,
            "masked_fill_ only supports boolean masks, but got mask with dtype ", mask.dtype());
  OPD_CHECK(is_expandable_to(mask.sizes(), self.sizes()), "masked_fill_: the mask of shape ", mask.sizes(),
            " cannot be broadcast to self's shape ", self.sizes());
  const ScalarType d = self.dtype();
  if (!is_kernel_dtype(d) && !is_complex_kernel_dtype(d) && d != ScalarType::ComplexHalf)
    throw_not_implemented_for("masked_fill", d);
  if (mask.dtype() == ScalarType::Byte && !mask.is_meta()) {  // a value check: not on Meta
    bool binary = true;
    ElementwiseIter<0> iter(OperandRef::of(mask), {});
    iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
      for (int64_t j = 0; j < n; ++j) binary = binary && detail::load<uint8_t>(ptrs[0] + j * strides[0]) <= 1;
    });
    OPD_CHECK(binary, "Mask tensor can take 0 and 1 values only");
  }
  assert_no_internal_overlap(self);
  if (!mask.is_same(self)) assert_no_partial_overlap(self, mask);
  // The Meta kernel is this function up to here: shapes and dtypes checked,
  // nothing read or written (the value's range check below is the CPU's).
  if (self.is_meta() && mask.is_meta()) return self;
  detail::check_on_cpu(self, "masked_fill_", "self");
  detail::check_on_cpu(mask, "masked_fill_", "mask");
  // The value converted as Scalar::to does (overflow is an error), before writing.
  const Tensor v = kernels::full(IntArrayRef{}, value, d);
  const Tensor m = detail::readable_input(mask, self);
  detail::ternary_pointwise_loops(detail::TernaryOp::Where, detail::select_dtype(d), OperandRef::of(self),
                                  {OperandRef::of(m), OperandRef::of(v), OperandRef::of(self)});
  return self;
}

OPD_FUNC Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  detail::check_input(value, "masked_fill_", "value");
  OPD_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
            value.dim(), " dimension(s).");
  if (value.is_meta()) return masked_fill_(self, mask, Scalar(int64_t{0}));  // Meta: no value to read
  detail::check_on_cpu(value, "masked_fill_", "value");
  return masked_fill_(self, mask, detail::item_of(value));
}

namespace detail {
// self expanded with mask, as a contiguous new tensor.
inline Tensor masked_fill_base(const Tensor& self, const Tensor& mask) {
  check_input(self, "masked_fill", "self");
  check_input(mask, "masked_fill", "mask");
  OPD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte,
            "masked_fill_ only supports boolean masks, but got mask with dtype ", mask.dtype());
  const std::vector<int64_t> shape = shape_of({&self, &mask});
  Tensor result = kernels::empty(shape, self.dtype(), self.device());
  if (!result.is_meta()) copy_elements(OperandRef::of(result), OperandRef::of(self));
  return result;
}
}  // namespace detail

OPD_FUNC Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  Tensor result = detail::masked_fill_base(self, mask);
  masked_fill_(result, mask, value);
  return result;
}

OPD_FUNC Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  detail::check_input(value, "masked_fill", "value");
  OPD_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
            value.dim(), " dimension(s).");
  Tensor result = detail::masked_fill_base(self, mask);
  masked_fill_(result, mask, value);
  return result;
}

// ------------------------------------------------------- div rounding mode ---

namespace detail {
// The op for a rounding mode; nullopt: true division.
inline std::optional<PointwiseOp> rounding_op(std::optional<std::string_view> mode) {
  if (!mode) return std::nullopt;
  if (*mode == "trunc") return PointwiseOp::DivTrunc;
  if (*mode == "floor") return PointwiseOp::DivFloor;
  throw ValueError(opd::detail::str_cat(
      "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode, "'"));
}
inline Tensor as_tensor(TensorOrScalar a) {
  return a.tensor ? *a.tensor : kernels::full(IntArrayRef{}, *a.scalar);
}
}  // namespace detail

OPD_FUNC TensorMeta div_mode_meta(TensorOrScalar self, TensorOrScalar other, std::optional<std::string_view> mode) {
  if (const auto op = detail::rounding_op(mode)) return pointwise_meta(*op, self, other);
  OPD_CHECK(self.tensor != nullptr, "div: self must be a tensor");
  return other.tensor ? div_meta(*self.tensor, *other.tensor) : div_scalar_meta(*self.tensor, *other.scalar);
}

OPD_FUNC void div_mode_impl(TensorOrScalar self, TensorOrScalar other, std::optional<std::string_view> mode,
                            Tensor& out) {
  if (const auto op = detail::rounding_op(mode)) {
    pointwise_impl(*op, self, other, out);
    return;
  }
  OPD_CHECK(self.tensor != nullptr, "div: self must be a tensor");
  if (other.tensor) {
    div_impl(*self.tensor, *other.tensor, out);
  } else {
    div_scalar_impl(*self.tensor, *other.scalar, out);
  }
}

// -------------------------------------------------------------------- lerp ---

namespace detail {
inline ScalarType lerp_checks(const Tensor& self, const Tensor& end, const Tensor* weight) {
  check_input(self, "lerp", "self");
  check_input(end, "lerp", "end");
  OPD_CHECK(self.dtype() == end.dtype(), "expected dtype ", self.dtype(), " for `end` but got dtype ", end.dtype());
  if (weight) {
    check_input(*weight, "lerp", "weight");
    OPD_CHECK(self.dtype() == weight->dtype(), "expected dtype ", self.dtype(), " for `weight` but got dtype ",
              weight->dtype());
  }
  if (!is_floating_type(self.dtype()) && !is_complex_kernel_dtype(self.dtype()))
    throw_not_implemented_for("lerp_kernel_scalar", self.dtype());
  return self.dtype();
}
}  // namespace detail

OPD_FUNC TensorMeta lerp_meta(const Tensor& self, const Tensor& end, const Scalar& weight) {
  TensorMeta m;
  m.dtype = detail::lerp_checks(self, end, nullptr);
  (void)weight;
  m.sizes = detail::shape_of({&self, &end});
  elementwise_output_layout(m, {&self, &end});
  return m;
}

OPD_FUNC void lerp_impl(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) {
  const ScalarType d = detail::lerp_checks(self, end, nullptr);
  const std::vector<int64_t> shape = detail::shape_of({&self, &end});
  detail::check_out("lerp", out, {&self, &end}, shape, d);
  const Tensor a = detail::readable_input(self, out);
  const Tensor b = detail::readable_input(end, out);
  detail::ternary_pointwise_loops(detail::TernaryOp::LerpScalar, d, OperandRef::of(out),
                                  {OperandRef::of(a), OperandRef::of(b), OperandRef::of(b)}, &weight);
}

OPD_FUNC TensorMeta lerp_tensor_meta(const Tensor& self, const Tensor& end, const Tensor& weight) {
  TensorMeta m;
  m.dtype = detail::lerp_checks(self, end, &weight);
  m.sizes = detail::shape_of({&self, &end, &weight});
  elementwise_output_layout(m, {&self, &end, &weight});
  return m;
}

OPD_FUNC void lerp_tensor_impl(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) {
  const ScalarType d = detail::lerp_checks(self, end, &weight);
  const std::vector<int64_t> shape = detail::shape_of({&self, &end, &weight});
  detail::check_out("lerp", out, {&self, &end, &weight}, shape, d);
  const Tensor a = detail::readable_input(self, out);
  const Tensor b = detail::readable_input(end, out);
  const Tensor w = detail::readable_input(weight, out);
  detail::ternary_pointwise_loops(detail::TernaryOp::Lerp, d, OperandRef::of(out),
                                  {OperandRef::of(a), OperandRef::of(b), OperandRef::of(w)});
}

// --------------------------------------------------------- addcmul/addcdiv ---

namespace detail {
inline ScalarType addc_checks(bool div, const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  const char* name = div ? "addcdiv" : "addcmul";
  check_input(self, name, "self");
  check_input(t1, name, "tensor1");
  check_input(t2, name, "tensor2");
  if (div) {
    OPD_CHECK(!(is_integral_type(t1.dtype(), true) && is_integral_type(t2.dtype(), true)),
              "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform "
              "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
              "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
              "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
              "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  }
  ResultTypeState state = update_result_type_state(self, ResultTypeState{});
  state = update_result_type_state(t1, state);
  state = update_result_type_state(t2, state);
  const ScalarType common = result_type(state);
  if (!(is_kernel_dtype(common) || is_complex_kernel_dtype(common)) || common == ScalarType::Bool)
    throw_not_implemented_for(div ? "addcdiv_cpu_out" : "addcmul_cpu_out", common);
  dispatch_dtype_with_complex(common, name, [&](auto tag) { (void)checked_scalar_to<typename decltype(tag)::type>(value); });
  return common;
}

inline TensorMeta addc_meta(bool div, const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  TensorMeta m;
  m.dtype = addc_checks(div, self, t1, t2, value);
  m.sizes = shape_of({&self, &t1, &t2});
  elementwise_output_layout(m, {&self, &t1, &t2});
  return m;
}

inline void addc_impl(bool div, const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value,
                      Tensor& out) {
  const ScalarType common = addc_checks(div, self, t1, t2, value);
  const std::vector<int64_t> shape = shape_of({&self, &t1, &t2});
  check_out(div ? "addcdiv" : "addcmul", out, {&self, &t1, &t2}, shape, common);
  const Tensor a = readable_input(self, out);
  const Tensor b = readable_input(t1, out);
  const Tensor c = readable_input(t2, out);
  ternary_pointwise_loops(div ? TernaryOp::Addcdiv : TernaryOp::Addcmul, common, OperandRef::of(out),
                          {OperandRef::of(a), OperandRef::of(b), OperandRef::of(c)}, &value);
}
}  // namespace detail

OPD_FUNC TensorMeta addcmul_meta(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  return detail::addc_meta(false, self, t1, t2, value);
}
OPD_FUNC void addcmul_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor& out) {
  detail::addc_impl(false, self, t1, t2, value, out);
}
OPD_FUNC TensorMeta addcdiv_meta(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  return detail::addc_meta(true, self, t1, t2, value);
}
OPD_FUNC void addcdiv_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor& out) {
  detail::addc_impl(true, self, t1, t2, value, out);
}

}  // namespace opd::kernels
