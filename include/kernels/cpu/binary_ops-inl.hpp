#pragma once
// Out-of-line part of binary_ops.hpp (compiled in src/kernels/binary_ops.cpp):
// the checks, meta and impl of add, sub, mul and div. The loops they end in
// are binary_loops-inl.hpp's, compiled in their own sources.
#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "kernels/cpu/binary_loops-inl.hpp"
#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/complex_arith-inl.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

// ------------------------------------------------------------------ checks ---

OPD_FUNC void alpha_check(ScalarType dtype, const Scalar& alpha) {
  OPD_CHECK(!alpha.is_boolean() || dtype == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  OPD_CHECK(is_floating_type(dtype) || is_complex_type(dtype) || alpha.is_integral(true),
            "For integral input tensors, argument alpha must not be a floating point number.");
  OPD_CHECK(is_complex_type(dtype) || !alpha.is_complex(),
            "For non-complex input tensors, argument alpha must not be a complex number.");
}

OPD_FUNC void sub_check(ScalarType self, ScalarType other) {
  OPD_CHECK(self != ScalarType::Bool || other != ScalarType::Bool,
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.");
  OPD_CHECK(self != ScalarType::Bool && other != ScalarType::Bool,
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

namespace detail {

// -alpha as c10::Scalar::operator- computes it.
inline Scalar negate_scalar(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: break;
    case Scalar::Kind::Int: return Scalar(static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(s.to_long())));
    case Scalar::Kind::Double: return Scalar(-s.to_double());
    case Scalar::Kind::ComplexDouble: return Scalar(-s.to_complex_double());
  }
  throw Error("torch boolean negative is not supported.");
}

// ------------------------------------------------------------ shared logic ---

enum class BinaryKind { Add, Sub, Mul, Div };

constexpr const char* binary_name(BinaryKind k) noexcept {
  switch (k) {
    case BinaryKind::Add: return "add";
    case BinaryKind::Sub: return "sub";
    case BinaryKind::Mul: return "mul";
    case BinaryKind::Div: return "div";
  }
  return "?";
}

// The right-hand operand: a tensor or a Scalar (a "wrapped number").
struct BinaryOther {
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;

  // The dtype sub_check sees: the tensor's, or Bool/Long/Double by kind.
  ScalarType checked_dtype() const noexcept {
    if (tensor) return tensor->dtype();
    return scalar->is_boolean() ? ScalarType::Bool : scalar->type();
  }
};

inline void check_defined(const Tensor& t, BinaryKind k, const char* arg) {
  OPD_CHECK(t.defined(), binary_name(k), ": argument '", arg, "' is an undefined tensor");
}

inline std::vector<int64_t> binary_shape(const Tensor& self, BinaryOther other) {
  if (other.tensor == nullptr || other.tensor->sizes() == self.sizes()) return self.sizes().vec();
  const IntArrayRef shapes[] = {self.sizes(), other.tensor->sizes()};
  return broadcast_shapes(std::span<const IntArrayRef>(shapes));
}

inline ScalarType binary_common_dtype(BinaryKind k, const Tensor& self, BinaryOther other) {
  ScalarType common = self.dtype();
  // Two tensors of one dtype promote to it, whatever their dimensions.
  if (!other.tensor || other.tensor->dtype() != common) {
    ResultTypeState state = update_result_type_state(self, ResultTypeState{});
    state = other.tensor ? update_result_type_state(*other.tensor, state)
                         : update_result_type_state(*other.scalar, state);
    common = result_type(state);
  }
  if (k == BinaryKind::Div && is_integral_type(common, /*include_bool=*/true)) common = default_dtype();
  return common;
}

inline void check_kernel_dtype(BinaryKind k, ScalarType common) {
  const bool ok = is_complex_kernel_dtype(common) || (k == BinaryKind::Div ? is_floating_type(common) : is_kernel_dtype(common)) ||
                  (common == ScalarType::ComplexHalf && k != BinaryKind::Div);  // as ATen 1.13: no div_cpu loop
  if (!ok) throw_not_implemented_for(binary_name(k), common);
}

inline TensorMeta binary_meta(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha) {
  check_defined(self, k, "self");
  if (other.tensor) check_defined(*other.tensor, k, "other");
  if (k == BinaryKind::Sub) sub_check(self.dtype(), other.checked_dtype());
  TensorMeta meta;
  const IntArrayRef self_sizes = self.sizes();
  if (other.tensor == nullptr || other.tensor->sizes() == self_sizes) {
    meta.sizes.assign(self_sizes);
  } else {
    infer_size_into(self_sizes, other.tensor->sizes(), meta.sizes);  // binary_shape, without a heap vector
  }
  elementwise_output_layout(meta, {&self, other.tensor});
  meta.dtype = binary_common_dtype(k, self, other);
  if (alpha) alpha_check(meta.dtype, *alpha);
  check_kernel_dtype(k, meta.dtype);
  return meta;
}

inline void check_cpu(const Tensor& t, BinaryKind k, const char* arg) {
  OPD_CHECK(t.device().is_cpu(), binary_name(k), ": the CPU kernel got argument '", arg, "' on device ", t.device());
}

// The common case of the overlap rules in a few loads: `out` contiguous
// (no internal overlap) and every input either `out` itself or in another
// storage (no partial overlap, nothing to copy). False: run the full tests.
inline bool plainly_separate(const Tensor& self, BinaryOther other, const Tensor& out) noexcept {
  auto separate = [&](const Tensor& in) { return in.is_same(out) || !in.is_alias_of(out); };
  return out.is_contiguous() && separate(self) && (!other.tensor || separate(*other.tensor));
}

// TensorIterator's overlap rules between the output and the inputs. Returns
// plainly_separate's answer, which binary_compute uses too.
inline bool check_overlap(const Tensor& self, BinaryOther other, const Tensor& out) {
  if (plainly_separate(self, other, out)) return true;
  assert_no_internal_overlap(out);
  if (!self.is_same(out)) assert_no_partial_overlap(out, self);
  if (other.tensor && !other.tensor->is_same(out)) assert_no_partial_overlap(out, *other.tensor);
  return false;
}

// add, sub and mul on complex32 as ATen 1.13's loops compute them: in
// complex64 (complex<Half>'s opmath type), each complex32 operation rounded
// once. A Scalar operand is rounded to complex32 first (the wrapped number
// takes the common dtype) and alpha too (Scalar::to<complex<Half>>, checked);
// add is a + alpha * b with the product a complex32 operation of its own, so
// an alpha other than 1 takes two passes: b * alpha rounded, then the plain
// sum. (With alpha 1 the product is exact and one pass gives the same.) A
// result of another dtype (out=) is the complex32 result converted, an
// input of another dtype is converted to complex32 first (int 2049 is 2048).
inline void complex_half_binary(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha,
                                const Tensor& out) {
  constexpr ScalarType c32 = ScalarType::ComplexHalf, c64 = ScalarType::ComplexFloat;
  const auto rounded = [](const Tensor& t) {
    if (t.dtype() == c32) return t;
    Tensor r = opd::empty(t.sizes(), c32, Device::cpu());
    copy_elements(OperandRef::of(r), OperandRef::of(t));
    return r;
  };
  if (out.dtype() != c32) {
    const Tensor result = opd::empty(out.sizes(), c32, Device::cpu());
    complex_half_binary(k, self, other, alpha, result);
    copy_elements(OperandRef::of(out), OperandRef::of(result));
    return;
  }
  const Tensor a = rounded(self);
  Tensor b_tensor;
  if (other.tensor) other.tensor = &(b_tensor = rounded(*other.tensor));
  const auto as_c64 = [](ComplexHalf z) { return Scalar(convert<std::complex<double>>(z)); };
  const OperandRef out_ref = OperandRef::of(out);
  std::optional<ScalarOperand> b_scalar;
  if (other.scalar) b_scalar.emplace(as_c64(scalar_cast<ComplexHalf>(*other.scalar)), c64);
  const OperandRef b_ref = other.tensor ? OperandRef::of(*other.tensor) : b_scalar->ref();
  const char* name = binary_name(k);
  if (k == BinaryKind::Mul) {
    binary_loops<BinaryFamily::Mul>(name, nullptr, c64, out_ref, {OperandRef::of(a), b_ref});
    return;
  }
  const ComplexHalf alpha_h = checked_scalar_to<ComplexHalf>(k == BinaryKind::Sub ? negate_scalar(*alpha) : *alpha);
  const Scalar alpha_c64 = as_c64(alpha_h);
  if (alpha_c64.to_complex_double() == std::complex<double>(1.0, 0.0)) {
    binary_loops<BinaryFamily::AddSub>(name, &alpha_c64, c64, out_ref, {OperandRef::of(a), b_ref});
    return;
  }
  // alpha * b as a complex32 operation (mul's loop), then a + that
  Tensor product;
  std::optional<ScalarOperand> product_scalar;
  if (other.tensor) {
    product = opd::empty(other.tensor->sizes(), c32, Device::cpu());
    const ScalarOperand alpha_operand(alpha_c64, c64);
    binary_loops<BinaryFamily::Mul>(name, nullptr, c64, OperandRef::of(product), {b_ref, alpha_operand.ref()});
  } else {
    const std::complex<float> b = convert<std::complex<float>>(scalar_cast<ComplexHalf>(*other.scalar));
    const auto p = convert<ComplexHalf>(complex_mul(convert<std::complex<float>>(alpha_h), b));
    product_scalar.emplace(as_c64(p), c64);
  }
  const OperandRef p_ref = other.tensor ? OperandRef::of(product) : product_scalar->ref();
  binary_loops<BinaryFamily::AddSub>(name, nullptr, c64, out_ref, {OperandRef::of(a), p_ref});
}

// The math, into an `out` of the broadcast shape, computed in `common`
// (every check done; `separate`: check_overlap's result).
inline void binary_compute(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha, ScalarType common,
                           const Tensor& out, bool separate) {
  // An input sharing memory with out other than as out itself is read
  // from a copy (PyTorch rejects the detectable cases in check_overlap).
  // (Pointers, not Tensor copies: no reference counting when no copy is made.)
  Tensor a_copy;
  const Tensor* a = &self;
  if (!separate && !is_safe_elementwise_alias(out, self)) a = &(a_copy = contiguous_clone(self));
  Tensor b_copy;
  std::optional<ScalarOperand> scalar;
  OperandRef b_ref;
  if (other.tensor) {
    const Tensor* b = other.tensor;
    if (!separate && !is_safe_elementwise_alias(out, *b)) b = &(b_copy = contiguous_clone(*b));
    if (common == ScalarType::ComplexHalf) return complex_half_binary(k, *a, BinaryOther{b, nullptr}, alpha, out);
    b_ref = OperandRef::of(*b);
  } else if (common == ScalarType::ComplexHalf) {
    return complex_half_binary(k, *a, other, alpha, out);
  } else {
    scalar.emplace(*other.scalar, common);
    b_ref = scalar->ref();
  }
  const OperandRef out_ref = OperandRef::of(out);
  const std::array<OperandRef, 2> inputs{OperandRef::of(*a), b_ref};
  switch (k) {
    case BinaryKind::Add:
      binary_loops<BinaryFamily::AddSub>(binary_name(k), alpha, common, out_ref, inputs);
      return;
    case BinaryKind::Sub: {
      const Scalar negated = negate_scalar(*alpha);
      binary_loops<BinaryFamily::AddSub>(binary_name(k), &negated, common, out_ref, inputs);
      return;
    }
    case BinaryKind::Mul: binary_loops<BinaryFamily::Mul>(binary_name(k), nullptr, common, out_ref, inputs); return;
    case BinaryKind::Div: binary_loops<BinaryFamily::Div>(binary_name(k), nullptr, common, out_ref, inputs); return;
  }
}

// impl: every check, in TensorIterator's order, then the math.
inline void binary_impl(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha, const Tensor& out) {
  check_defined(self, k, "self");
  if (other.tensor) check_defined(*other.tensor, k, "other");
  check_defined(out, k, "out");
  if (k == BinaryKind::Sub) sub_check(self.dtype(), other.checked_dtype());

  // TensorIterator's order: memory overlap, shapes, output shape, dtypes.
  const bool separate = check_overlap(self, other, out);
  std::vector<int64_t> broadcast;  // only allocated when the shapes differ
  IntArrayRef shape = self.sizes();
  if (other.tensor && !(other.tensor->sizes() == self.sizes())) {
    broadcast = binary_shape(self, other);
    shape = broadcast;
  }
  OPD_CHECK(out.sizes() == shape, "output with shape ", out.sizes(), " doesn't match the broadcast shape ", shape);
  const ScalarType common = binary_common_dtype(k, self, other);
  check_can_cast_to_output(common, out.dtype());
  if (alpha) alpha_check(common, *alpha);
  check_kernel_dtype(k, common);
  check_cpu(self, k, "self");
  if (other.tensor) check_cpu(*other.tensor, k, "other");
  check_cpu(out, k, "out");
  // No early return for empty outputs: alpha is still converted (and may
  // overflow) as in PyTorch; the loops then run zero times.
  binary_compute(k, self, other, alpha, common, out, separate);
}

// impl(..., meta_checked): `out` has meta's sizes and dtype (the common
// dtype), so only overlap is left to check. Debug builds verify the promise.
inline void binary_impl(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha, const Tensor& out,
                        meta_checked_t) {
#ifndef NDEBUG
  const TensorMeta m = binary_meta(k, self, other, alpha);
  OPD_CHECK(out.sizes() == IntArrayRef(m.sizes) && out.dtype() == m.dtype, binary_name(k),
            ": impl(..., meta_checked) needs an out of meta's sizes ", IntArrayRef(m.sizes), " and dtype ", m.dtype,
            ", got ", out.sizes(), " and ", out.dtype());
#endif
  binary_compute(k, self, other, alpha, out.dtype(), out, check_overlap(self, other, out));
}

}  // namespace detail

// ------------------------------------------------------------- Tensor, Tensor ---

OPD_FUNC TensorMeta add_meta(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha);
}
OPD_FUNC void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha, out);
}
OPD_FUNC void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha, out, meta_checked);
}

OPD_FUNC TensorMeta sub_meta(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha);
}
OPD_FUNC void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha, out);
}
OPD_FUNC void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha, out, meta_checked);
}

OPD_FUNC TensorMeta mul_meta(const Tensor& self, const Tensor& other) {
  return detail::binary_meta(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr);
}
OPD_FUNC void mul_impl(const Tensor& self, const Tensor& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr, out);
}
OPD_FUNC void mul_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr, out, meta_checked);
}

OPD_FUNC TensorMeta div_meta(const Tensor& self, const Tensor& other) {
  return detail::binary_meta(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr);
}
OPD_FUNC void div_impl(const Tensor& self, const Tensor& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr, out);
}
OPD_FUNC void div_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr, out, meta_checked);
}

// ------------------------------------------------------------- Tensor, Scalar ---

OPD_FUNC TensorMeta add_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha);
}
OPD_FUNC void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha, out);
}
OPD_FUNC void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha, out, meta_checked);
}

OPD_FUNC TensorMeta sub_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha);
}
OPD_FUNC void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha, out);
}
OPD_FUNC void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha, out, meta_checked);
}

OPD_FUNC TensorMeta mul_scalar_meta(const Tensor& self, const Scalar& other) {
  return detail::binary_meta(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr);
}
OPD_FUNC void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr, out);
}
OPD_FUNC void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr, out, meta_checked);
}

OPD_FUNC TensorMeta div_scalar_meta(const Tensor& self, const Scalar& other) {
  return detail::binary_meta(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr);
}
OPD_FUNC void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr, out);
}
OPD_FUNC void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr, out, meta_checked);
}

}  // namespace opd::kernels
