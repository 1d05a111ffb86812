#pragma once
// Operators that ATen 1.13 defines in terms of others, which torchvision's
// models and torch.nn's recurrent layers reach below autograd: clamp_min
// (clamp with no upper bound), new_zeros (zeros with self's options),
// fill_.Tensor (fill_ with a 0-dim tensor's value), unsafe_split.Tensor
// (split's views), and the in-place views as_strided_ and transpose_ (self
// itself takes the view's sizes, strides and offset).
//
// clamp_min is a structured family over clamp's meta and impl (its in-place
// and out= variants and Meta kernel derived); new_zeros, unsafe_split,
// as_strided_ and transpose_ are registered at CompositeExplicitAutograd, as
// in ATen, so that they serve every backend (Meta included); fill_.Tensor has
// a CPU kernel (reads the value, fills) and a Meta one (checks only).
//
//   auto kernels = opd::kernels::register_composites();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::clamp_min::functional>(x, opd::Scalar(0.0));
#include <optional>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/pointwise.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace ops {

struct clamp_min : structured<"aten::clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const Scalar& lo) { return clamp_meta(s, lo, std::nullopt); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& lo, Tensor& out) {
    clamp_impl(s, lo, std::nullopt, out);
  }
};
struct clamp_min_tensor
    : structured<"aten::clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& lo) {
    return clamp_tensor_meta(s, std::optional<Tensor>(lo), std::nullopt);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& lo, Tensor& out) {
    clamp_tensor_impl(s, std::optional<Tensor>(lo), std::nullopt, out);
  }
};

struct new_zeros : op<"aten::new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct fill_tensor_ : op<"aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)"> {};
struct unsafe_split : op<"aten::unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]"> {};
struct as_strided_ : op<"aten::as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)"> {};
struct transpose_ : op<"aten::transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/composites.cpp).
OPD_API RegistrationSet register_composites();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_composites-inl.hpp"
#endif
