#pragma once
// Out-of-line part of functional_ops.hpp.
#include "functionalize/functional_ops.hpp"
#include "kernels/ops.hpp"
#include "kernels/ops_views.hpp"

namespace opd::functionalization {

namespace functional_ops_detail {
inline Tensor copy(const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor out = call<kernels::ops::clone>(self, std::optional<MemoryFormat>{});
  call<kernels::ops::copy_>(out, src, non_blocking);
  return out;
}
inline Tensor fill(const Tensor& self, const Scalar& value) {
  Tensor out = call<kernels::ops::clone>(self, std::optional<MemoryFormat>{});
  call<kernels::ops::fill_>(out, value);
  return out;
}
inline Tensor zero(const Tensor& self) { return fill(self, Scalar(0.0)); }
}  // namespace functional_ops_detail

OPD_FUNC RegistrationSet register_functional_ops() {
  namespace f = functional_ops_detail;
  constexpr DispatchKey k = DispatchKey::CompositeExplicitAutograd;
  RegistrationSet set;
  set.add(register_kernel<ops::copy, &f::copy>(k));
  set.add(register_kernel<ops::fill, &f::fill>(k));
  set.add(register_kernel<ops::zero, &f::zero>(k));
  return set;
}

}  // namespace opd::functionalization
