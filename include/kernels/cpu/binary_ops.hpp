// add, sub, mul, div (true division) on CPU: each a `meta` (output sizes and
// dtype, all argument checks) and an `impl` (the math, into a given `out`),
// for the Tensor-Tensor and the Tensor-Scalar overloads.
//
//   add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1)  self + alpha * other
//   sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1)  self - alpha * other
//   mul.Tensor(Tensor self, Tensor other)
//   div.Tensor(Tensor self, Tensor other)                     true division
//   add.Scalar(Tensor self, Scalar other, Scalar alpha=1), sub.Scalar(...),
//   mul.Scalar(Tensor self, Scalar other), div.Scalar(Tensor self, Scalar other)
//
// Semantics are PyTorch 1.13's (TensorIterator + the CPU kernels): shapes
// broadcast, the common dtype is result_type (Scalars by category), div
// promotes an integral/Bool common dtype to Float, integers wrap, floats
// follow IEEE (x / 0 -> inf, 0 / 0 -> nan). Errors carry PyTorch's messages.
//
// impl(..., out): `out` has the broadcast shape (checked: "output with shape
// [3] doesn't match the broadcast shape [2, 3]"), any layout, and any dtype
// the common dtype can be cast to (checked: "result type Float can't be
// cast to the desired output type Long"); out may be one of the inputs
// (in-place). Results are computed in the common dtype and converted.
// impl(..., k::meta_checked) is the same for an out that already has meta's
// sizes and dtype (a structured operator's impl): no argument checks but
// the overlap ones (tensor_meta.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

// ------------------------------------------------------------- op functors ---
// T is the type the op computes in (opmath_t of the common dtype). Integer
// arithmetic wraps (two's complement) without undefined behaviour.

namespace detail {
template <class T>
using wrap_t = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
}  // namespace detail

template <class T>
struct AddOp {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};

template <class T>
struct SubOp {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
    } else {
      return a - b;
    }
  }
};

// a + alpha * b
template <class T>
struct AddAlphaOp {
  T alpha;
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return a || (alpha && b);
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(alpha) * static_cast<U>(b));
    } else {
      return a + alpha * b;
    }
  }
};

template <class T>
struct MulOp {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    } else {
      return a * b;
    }
  }
};

template <class T>
struct DivOp {
  static_assert(std::is_floating_point_v<T>, "DivOp is true division: floating types only");
  T operator()(T a, T b) const noexcept { return a / b; }
};

// ------------------------------------------------------------------ checks ---

// at::native::alpha_check, on the op's common dtype.
inline void alpha_check(ScalarType dtype, const Scalar& alpha) {
  OPD_CHECK(!alpha.is_boolean() || dtype == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  OPD_CHECK(is_floating_type(dtype) || is_complex_type(dtype) || alpha.is_integral(true),
            "For integral input tensors, argument alpha must not be a floating point number.");
  OPD_CHECK(is_complex_type(dtype) || !alpha.is_complex(),
            "For non-complex input tensors, argument alpha must not be a complex number.");
}

// at::native::sub_check, on the dtypes of self and other (a bool Scalar
// counts as Bool).
inline void sub_check(ScalarType self, ScalarType other) {
  OPD_CHECK(self != ScalarType::Bool || other != ScalarType::Bool,
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.");
  OPD_CHECK(self != ScalarType::Bool && other != ScalarType::Bool,
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

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

namespace detail {

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
  const bool ok = k == BinaryKind::Div ? is_floating_type(common) : is_kernel_dtype(common);
  if (!ok) throw_not_implemented_for(binary_name(k), common);
}

inline TensorMeta binary_meta(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha) {
  check_defined(self, k, "self");
  if (other.tensor) check_defined(*other.tensor, k, "other");
  if (k == BinaryKind::Sub) sub_check(self.dtype(), other.checked_dtype());
  TensorMeta meta;
  const IntArrayRef self_sizes = self.sizes();
  if (other.tensor == nullptr || other.tensor->sizes() == self_sizes) {
    // self has the output's shape, so its layout is the output's
    // (elementwise_memory_format's first input).
    meta.sizes.assign(self_sizes);
    meta.memory_format = elementwise_layout_of(self, self_sizes.size());
  } else {
    infer_size_into(self_sizes, other.tensor->sizes(), meta.sizes);  // binary_shape, without a heap vector
    meta.memory_format = elementwise_memory_format(meta.sizes, {&self, other.tensor});
  }
  meta.dtype = binary_common_dtype(k, self, other);
  if (alpha) alpha_check(meta.dtype, *alpha);
  check_kernel_dtype(k, meta.dtype);
  return meta;
}

inline void check_cpu(const Tensor& t, BinaryKind k, const char* arg) {
  OPD_CHECK(t.device().is_cpu(), binary_name(k), ": the CPU kernel got argument '", arg, "' on device ", t.device());
}

// kernel(op) runs the op functor for k (and alpha) over the operands.
template <class T, class Kernel>
void run_binary(BinaryKind k, const Scalar* alpha, const Kernel& kernel) {
  using C = opmath_t<T>;
  switch (k) {
    case BinaryKind::Add:
    case BinaryKind::Sub: {
      const Scalar effective = k == BinaryKind::Sub ? negate_scalar(*alpha) : *alpha;
      const C a = static_cast<C>(checked_scalar_to<T>(effective));
      if (a == static_cast<C>(1)) {
        kernel(AddOp<C>{});
        return;
      }
      if constexpr (!std::is_same_v<C, bool>) {
        if (a == static_cast<C>(-1)) {
          kernel(SubOp<C>{});
          return;
        }
      }
      kernel(AddAlphaOp<C>{a});
      return;
    }
    case BinaryKind::Mul: kernel(MulOp<C>{}); return;
    case BinaryKind::Div:
      if constexpr (std::is_floating_point_v<C>) {
        kernel(DivOp<C>{});
        return;
      }
      break;
  }
  throw_not_implemented_for(binary_name(k), scalar_type_of_v<T>);
}

// TensorIterator's overlap rules between the output and the inputs.
inline void check_overlap(const Tensor& self, BinaryOther other, const Tensor& out) {
  assert_no_internal_overlap(out);
  if (!self.is_same(out)) assert_no_partial_overlap(out, self);
  if (other.tensor && !other.tensor->is_same(out)) assert_no_partial_overlap(out, *other.tensor);
}

// The math, into an `out` of the broadcast shape, computed in `common`
// (every check done).
inline void binary_compute(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha, ScalarType common,
                           const Tensor& out) {
  // An input sharing memory with out other than as out itself is read
  // from a copy (PyTorch rejects the detectable cases in check_overlap).
  const Tensor a = is_safe_elementwise_alias(out, self) ? self : contiguous_clone(self);
  Tensor b;
  std::optional<ScalarOperand> scalar;
  OperandRef b_ref;
  if (other.tensor) {
    b = is_safe_elementwise_alias(out, *other.tensor) ? *other.tensor : contiguous_clone(*other.tensor);
    b_ref = OperandRef::of(b);
  } else {
    scalar.emplace(*other.scalar, common);
    b_ref = scalar->ref();
  }
  const OperandRef out_ref = OperandRef::of(out);
  const std::array<OperandRef, 2> inputs{OperandRef::of(a), b_ref};
  dispatch_dtype(common, binary_name(k), [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_binary<T>(k, alpha, [&](const auto& op) { cpu_kernel<T>(out_ref, inputs, op); });
  });
}

// impl: every check, in TensorIterator's order, then the math.
inline void binary_impl(BinaryKind k, const Tensor& self, BinaryOther other, const Scalar* alpha, const Tensor& out) {
  check_defined(self, k, "self");
  if (other.tensor) check_defined(*other.tensor, k, "other");
  check_defined(out, k, "out");
  if (k == BinaryKind::Sub) sub_check(self.dtype(), other.checked_dtype());

  // TensorIterator's order: memory overlap, shapes, output shape, dtypes.
  check_overlap(self, other, out);
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
  binary_compute(k, self, other, alpha, common, out);
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
  check_overlap(self, other, out);
  binary_compute(k, self, other, alpha, out.dtype(), out);
}

}  // namespace detail

// ------------------------------------------------------------- Tensor, Tensor ---

inline TensorMeta add_meta(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha);
}
inline void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha, out);
}
inline void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Add, self, {&other, nullptr}, &alpha, out, meta_checked);
}

inline TensorMeta sub_meta(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha);
}
inline void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha, out);
}
inline void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {&other, nullptr}, &alpha, out, meta_checked);
}

inline TensorMeta mul_meta(const Tensor& self, const Tensor& other) {
  return detail::binary_meta(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr);
}
inline void mul_impl(const Tensor& self, const Tensor& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr, out);
}
inline void mul_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {&other, nullptr}, nullptr, out, meta_checked);
}

inline TensorMeta div_meta(const Tensor& self, const Tensor& other) {
  return detail::binary_meta(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr);
}
inline void div_impl(const Tensor& self, const Tensor& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr, out);
}
inline void div_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Div, self, {&other, nullptr}, nullptr, out, meta_checked);
}

// ------------------------------------------------------------- Tensor, Scalar ---

inline TensorMeta add_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha);
}
inline void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha, out);
}
inline void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Add, self, {nullptr, &other}, &alpha, out, meta_checked);
}

inline TensorMeta sub_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return detail::binary_meta(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha);
}
inline void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha, out);
}
inline void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Sub, self, {nullptr, &other}, &alpha, out, meta_checked);
}

inline TensorMeta mul_scalar_meta(const Tensor& self, const Scalar& other) {
  return detail::binary_meta(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr);
}
inline void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr, out);
}
inline void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Mul, self, {nullptr, &other}, nullptr, out, meta_checked);
}

inline TensorMeta div_scalar_meta(const Tensor& self, const Scalar& other) {
  return detail::binary_meta(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr);
}
inline void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out) {
  detail::binary_impl(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr, out);
}
inline void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t) {
  detail::binary_impl(detail::BinaryKind::Div, self, {nullptr, &other}, nullptr, out, meta_checked);
}

}  // namespace opd::kernels
