#pragma once
// Out-of-line part of functionalize.hpp.
#include "functionalize/functionalize.hpp"
#include "kernels/ops_arithmetic.hpp"  // copy_

namespace opd {

OPD_FUNC Tensor to_functional(const Tensor& t, FunctionalizeMode mode) {
  functionalization::ensure_registered();
  return functionalization::wrap(t, mode);
}

OPD_FUNC Tensor from_functional(const Tensor& t) {
  const functionalization::FunctionalTensorImpl* f = functional_impl(t);
  return f != nullptr ? f->value() : t;
}

OPD_FUNC void sync(const Tensor& t) {
  if (functionalization::FunctionalTensorImpl* f = functional_impl(t)) f->sync();
}

OPD_FUNC bool is_functional(const Tensor& t) noexcept { return functional_impl(t) != nullptr; }

OPD_FUNC bool copy_back_mutation(const Tensor& original, const Tensor& functional) {
  functionalization::FunctionalTensorImpl* f = functional_impl(functional);
  if (f == nullptr || !f->functional_storage()->mutated()) return false;
  f->sync();
  const Tensor& value = f->value();
  ExcludeDispatchKeyGuard below(DispatchKey::Functionalize);
  if (!(original.sizes() == value.sizes())) original.resize_(value.sizes());
  Tensor dst = original;
  call<kernels::ops::copy_>(dst, value, false);
  return true;
}

}  // namespace opd
