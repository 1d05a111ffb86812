#pragma once
// Out-of-line part of ops.hpp (compiled in src/kernels/register_cpu.cpp):
// the registration of the library's operators, which instantiates every
// structured family's derived kernels.
#include <optional>
#include <span>

#include "kernels/ops.hpp"

namespace opd::kernels {

namespace detail {
template <Tensor (*Factory)(IntArrayRef, std::optional<ScalarType>, std::optional<Device>)>
Tensor factory(std::span<const int64_t> size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return Factory(IntArrayRef(size.data(), size.size()), dtype, device);
}
inline Tensor& copy_kernel(Tensor& self, const Tensor& src, bool non_blocking) { return kernels::copy_(self, src, non_blocking); }
inline Tensor& fill_kernel(Tensor& self, const Scalar& value) { return kernels::fill_(self, value); }
}  // namespace detail

OPD_FUNC RegistrationSet register_cpu() {
  RegistrationSet set;
  set.add(register_structured<ops::add>());
  set.add(register_structured<ops::add_scalar>());
  set.add(register_structured<ops::sub>());
  set.add(register_structured<ops::sub_scalar>());
  set.add(register_structured<ops::mul>());
  set.add(register_structured<ops::mul_scalar>());
  set.add(register_structured<ops::div>());
  set.add(register_structured<ops::div_scalar>());
  set.add(register_kernel<ops::copy_, &detail::copy_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::fill_, &detail::fill_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::empty, &detail::factory<&kernels::empty>>(DispatchKey::CPU));
  set.add(register_kernel<ops::zeros, &detail::factory<&kernels::zeros>>(DispatchKey::CPU));
  set.add(register_kernel<ops::ones, &detail::factory<&kernels::ones>>(DispatchKey::CPU));
  return set;
}

}  // namespace opd::kernels
