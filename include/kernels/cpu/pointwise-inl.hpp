#pragma once
// Out-of-line part of pointwise.hpp (compiled in src/kernels/pointwise.cpp):
// the checks, meta and impl of the pointwise families. Their loops are in
// unary_float_loops-inl.hpp, unary_other_loops-inl.hpp and
// binary_pointwise_loops-inl.hpp, each compiled in its own source.
#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
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
#include "kernels/cpu/binary_pointwise_loops-inl.hpp"
#include "kernels/cpu/unary_float_loops-inl.hpp"
#include "kernels/cpu/unary_other_loops-inl.hpp"
#endif

namespace opd::kernels {

OPD_FUNC const char* unary_name(UnaryOp op) noexcept {
  static constexpr const char* names[kNumUnaryOps] = {
      "exp",  "exp2", "expm1", "log",  "log2", "log10",   "log1p",       "sqrt",      "rsqrt",    "reciprocal",
      "sin",  "cos",  "tan",   "asin", "acos", "atan",    "sinh",        "cosh",      "tanh",     "sigmoid",
      "erf",  "erfc", "neg",   "abs",  "sign", "relu",    "gelu",        "gelu",      "silu",     "hardswish",
      "softplus", "floor", "ceil", "round", "trunc", "frac", "bitwise_not", "nan_to_num", "logical_not", "isnan",
      "isinf", "isfinite"};
  return names[static_cast<int>(op)];
}

OPD_FUNC const char* pointwise_name(PointwiseOp op) noexcept {
  static constexpr const char* names[] = {"eq",          "ne",         "lt",          "le",      "gt",     "ge",
                                          "logical_and", "logical_or", "logical_xor", "maximum", "minimum"};
  return names[static_cast<int>(op)];
}

namespace detail {

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

// Keep-kind ops refuse some dtypes, as ATen's kernels do (before writing).
inline void check_unary_dtype(UnaryOp op, ScalarType d) {
  const char* name = unary_name(op);
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
    case UnaryOp::Softplus:
    case UnaryOp::Frac:
      if (!floating) throw_not_implemented_for(name, d);
      break;
    case UnaryOp::BitwiseNot:
      if (floating) throw_not_implemented_for(name, d);
      break;
    default: break;
  }
}

inline ScalarType unary_result_dtype(UnaryOp op, ScalarType d) {
  switch (unary_kind(op)) {
    case UnaryKind::Float: return is_floating_type(d) ? d : default_dtype();
    case UnaryKind::Keep: return d;
    case UnaryKind::Bool: return ScalarType::Bool;
  }
  return d;
}

// Ops whose loops are unary_float_loops'.
constexpr bool uses_float_loops(UnaryOp op) noexcept {
  return unary_kind(op) == UnaryKind::Float || op == UnaryOp::Gelu || op == UnaryOp::GeluTanh ||
         op == UnaryOp::Silu || op == UnaryOp::Hardswish || op == UnaryOp::Softplus || op == UnaryOp::Frac;
}

inline void unary_compute(UnaryOp op, const Tensor& self, const Tensor& out, const UnaryParams& params) {
  const ScalarType compute =
      unary_kind(op) == UnaryKind::Float ? unary_result_dtype(op, self.dtype()) : self.dtype();
  const Tensor in = readable_input(self, out);
  UnaryParams p = params;
  if (op == UnaryOp::Softplus) {
    if (!p.a) p.a = 1.0;
    if (!p.b) p.b = 20.0;
  }
  if (uses_float_loops(op)) {
    unary_float_loops(op, p, compute, OperandRef::of(out), OperandRef::of(in));
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
inline std::vector<int64_t> shape_of(std::initializer_list<const Tensor*> tensors) {
  std::vector<IntArrayRef> shapes;
  for (const Tensor* t : tensors) {
    if (t) shapes.push_back(t->sizes());
  }
  if (shapes.empty()) return {};
  return broadcast_shapes(std::span<const IntArrayRef>(shapes));
}

inline void check_pointwise_args(PointwiseOp op, TensorOrScalar self, TensorOrScalar other) {
  if (self.tensor) check_input(*self.tensor, pointwise_name(op), "self");
  if (other.tensor) check_input(*other.tensor, pointwise_name(op), "other");
}

inline ScalarType pointwise_common(PointwiseOp op, TensorOrScalar self, TensorOrScalar other) {
  const ScalarType common = common_dtype_of({self, other});
  if (!is_kernel_dtype(common)) throw_not_implemented_for(pointwise_name(op), common);
  return common;
}

// A Tensor, or a Scalar held as a 0-dim operand of the compute dtype.
struct HeldOperand {
  Tensor tensor;
  std::optional<ScalarOperand> scalar;

  HeldOperand(TensorOrScalar a, const Tensor& out, ScalarType compute) {
    if (a.tensor) {
      tensor = readable_input(*a.tensor, out);
    } else {
      scalar.emplace(*a.scalar, compute);
    }
  }
  OperandRef ref() const { return scalar ? scalar->ref() : OperandRef::of(tensor); }
};

inline void pointwise_compute(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, ScalarType compute,
                              const Tensor& out) {
  const HeldOperand a(self, out, compute);
  const HeldOperand b(other, out, compute);
  binary_pointwise_loops(op, compute, OperandRef::of(out), {a.ref(), b.ref()});
}

// ------------------------------------------------------------------- clamp ---

inline void check_clamp_bounds_given(bool min, bool max) {
  OPD_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// The value read from a 0-dim tensor, as a Scalar of its kind.
inline Scalar item_of(const Tensor& t) {
  return dispatch_dtype(t.dtype(), "item", [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    T v{};
    copy_elements(OperandRef{reinterpret_cast<char*>(&v), t.dtype(), {}, {}}, OperandRef::of(t));
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
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
  m.memory_format = elementwise_layout_of(self, self.sizes().size());
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
  m.sizes = detail::shape_of({self.tensor, other.tensor});
  m.dtype = gives_bool(op) ? ScalarType::Bool : common;
  if (self.tensor && other.tensor) {
    m.memory_format = elementwise_memory_format(m.sizes, {self.tensor, other.tensor});
  } else {
    const Tensor& t = self.tensor ? *self.tensor : *other.tensor;
    m.memory_format = elementwise_memory_format(m.sizes, {&t});
  }
  return m;
}

OPD_FUNC void pointwise_impl(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, Tensor& out) {
  detail::check_pointwise_args(op, self, other);
  const ScalarType common = detail::pointwise_common(op, self, other);
  const std::vector<int64_t> shape = detail::shape_of({self.tensor, other.tensor});
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
  if (!is_kernel_dtype(common)) throw_not_implemented_for("where_cpu", common);
  return common;
}
}  // namespace detail

OPD_FUNC TensorMeta where_meta(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TensorMeta m;
  m.dtype = detail::where_checks(condition, self, other);
  m.sizes = detail::shape_of({&condition, &self, &other});
  m.memory_format = elementwise_memory_format(m.sizes, {&condition, &self, &other});
  return m;
}

OPD_FUNC void where_impl(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  const ScalarType common = detail::where_checks(condition, self, other);
  const std::vector<int64_t> shape = detail::shape_of({&condition, &self, &other});
  detail::check_out("where", out, {&condition, &self, &other}, shape, common);
  const Tensor c = detail::readable_input(condition, out);
  const Tensor a = detail::readable_input(self, out);
  const Tensor b = detail::readable_input(other, out);
  detail::ternary_pointwise_loops(detail::TernaryOp::Where, common, OperandRef::of(out),
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
  m.memory_format = elementwise_layout_of(self, self.sizes().size());
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
  m.memory_format = lo && hi ? elementwise_memory_format(m.sizes, {&self, lo, hi})
                    : lo     ? elementwise_memory_format(m.sizes, {&self, lo})
                             : elementwise_memory_format(m.sizes, {&self, hi});
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
  OPD_CHECK(mask.dtype() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
            mask.dtype());
  OPD_CHECK(is_expandable_to(mask.sizes(), self.sizes()), "masked_fill_: the mask of shape ", mask.sizes(),
            " cannot be broadcast to self's shape ", self.sizes());
  const ScalarType d = self.dtype();
  if (!is_kernel_dtype(d)) throw_not_implemented_for("masked_fill", d);
  assert_no_internal_overlap(self);
  if (!mask.is_same(self)) assert_no_partial_overlap(self, mask);
  detail::check_on_cpu(self, "masked_fill_", "self");
  detail::check_on_cpu(mask, "masked_fill_", "mask");
  // The value converted as Scalar::to does (overflow is an error), before writing.
  const Tensor v = kernels::full(IntArrayRef{}, value, d);
  const Tensor m = detail::readable_input(mask, self);
  detail::ternary_pointwise_loops(detail::TernaryOp::Where, d, OperandRef::of(self),
                                  {OperandRef::of(m), OperandRef::of(v), OperandRef::of(self)});
  return self;
}

OPD_FUNC Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  detail::check_input(value, "masked_fill_", "value");
  OPD_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
            value.dim(), " dimension(s).");
  detail::check_on_cpu(value, "masked_fill_", "value");
  return masked_fill_(self, mask, detail::item_of(value));
}

namespace detail {
// self expanded with mask, as a contiguous new tensor.
inline Tensor masked_fill_base(const Tensor& self, const Tensor& mask) {
  check_input(self, "masked_fill", "self");
  check_input(mask, "masked_fill", "mask");
  OPD_CHECK(mask.dtype() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
            mask.dtype());
  const std::vector<int64_t> shape = shape_of({&self, &mask});
  Tensor result = kernels::empty(shape, self.dtype());
  copy_elements(OperandRef::of(result), OperandRef::of(self));
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

}  // namespace opd::kernels
