#pragma once
// Out-of-line part of ops_arithmetic.hpp (compiled in
// src/kernels/register_arithmetic.cpp): the registration of its operators,
// which instantiates every structured family's derived kernels.
#include <optional>
#include <span>
#include <string_view>

#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_views.hpp"

namespace opd::kernels {

namespace detail {
OPD_FUNC void check_factory_options(std::string_view op, std::optional<Layout> layout, std::optional<bool> pin_memory,
                                    std::optional<MemoryFormat> memory_format) {
  OPD_CHECK_VALUE(!layout || *layout == Layout::Strided, op, ": only the strided layout is supported, got layout=",
                  *layout);
  OPD_CHECK_VALUE(!pin_memory || !*pin_memory, op, ": pin_memory=True is not supported (no pinned-memory allocator)");
  OPD_CHECK_VALUE(!memory_format || *memory_format != MemoryFormat::Preserve, op,
                  ": memory_format=preserve_format is not supported by empty (there is no input to preserve)");
}
template <Tensor (*Factory)(IntArrayRef, std::optional<ScalarType>, std::optional<Device>), fixed_string Name>
Tensor factory(std::span<const int64_t> size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory) {
  check_factory_options(Name.view(), layout, pin_memory, std::nullopt);
  return Factory(IntArrayRef(size.data(), size.size()), dtype, device);
}
inline Tensor empty_kernel(std::span<const int64_t> size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                           std::optional<Device> device, std::optional<bool> pin_memory,
                           std::optional<MemoryFormat> memory_format) {
  check_factory_options("aten::empty.memory_format", layout, pin_memory, memory_format);
  const IntArrayRef sizes(size.data(), size.size());
  if (!memory_format || *memory_format == MemoryFormat::Contiguous) return kernels::empty(sizes, dtype, device);
  return opd::empty(sizes, dtype.value_or(ScalarType::Float), device.value_or(Device::cpu()), *memory_format);
}
inline Tensor& copy_kernel(Tensor& self, const Tensor& src, bool non_blocking) { return kernels::copy_(self, src, non_blocking); }
inline Tensor& fill_kernel(Tensor& self, const Scalar& value) { return kernels::fill_(self, value); }
// zero_ and the functional variants, through the dispatcher (any backend with
// fill_, copy_ and clone has them): ATen's composites.
inline Tensor& zero_kernel(Tensor& self) { return call<ops::fill_>(self, Scalar(int64_t{0})); }
// The in-place op overwrites every element of its fresh output, so that
// output starts as empty_like(self) (as ATen's fill does), not a clone:
// copying self first cost a full extra pass over memory.
inline Tensor empty_like_self(std::string_view op, const Tensor& self) {
  return views_detail::empty_like_for_copy(op, self, self.dtype(), self.device(), MemoryFormat::Preserve);
}
inline Tensor zero_functional(const Tensor& self) {
  Tensor out = empty_like_self("aten::zero", self);
  call<ops::zero_>(out);
  return out;
}
inline Tensor fill_functional(const Tensor& self, const Scalar& value) {
  Tensor out = empty_like_self("aten::fill", self);
  call<ops::fill_>(out, value);
  return out;
}
inline Tensor full_like_kernel(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                               std::optional<Layout> layout, std::optional<Device> device,
                               std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  check_factory_options("aten::full_like", layout, pin_memory, std::nullopt);
  Tensor out = views_detail::empty_like_for_copy("aten::full_like", self, dtype.value_or(self.dtype()),
                                                 device.value_or(self.device()),
                                                 memory_format.value_or(MemoryFormat::Preserve));
  call<ops::fill_>(out, fill_value);
  return out;
}
inline Tensor copy_functional(const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor out = empty_like_self("aten::copy", self);
  call<ops::copy_>(out, src, non_blocking);
  return out;
}
}  // namespace detail

OPD_FUNC RegistrationSet register_arithmetic() {
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
  set.add(register_kernel<ops::copy_, &detail::copy_kernel>(DispatchKey::Meta));  // checks shapes, copies nothing
  set.add(register_kernel<ops::fill_, &detail::fill_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::fill_, &detail::fill_kernel>(DispatchKey::Meta));  // checks, writes nothing
  set.add(register_kernel<ops::zero_, &detail::zero_kernel>(DispatchKey::CompositeExplicitAutograd));
  set.add(register_kernel<ops::zero, &detail::zero_functional>(DispatchKey::CompositeExplicitAutograd));
  set.add(register_kernel<ops::fill, &detail::fill_functional>(DispatchKey::CompositeExplicitAutograd));
  set.add(register_kernel<ops::copy, &detail::copy_functional>(DispatchKey::CompositeExplicitAutograd));
  set.add(register_kernel<ops::full_like, &detail::full_like_kernel>(DispatchKey::CompositeExplicitAutograd));
  set.add(register_kernel<ops::empty, &detail::empty_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::empty, &detail::empty_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::zeros, &detail::factory<&kernels::zeros, "aten::zeros">>(DispatchKey::CPU));
  set.add(register_kernel<ops::ones, &detail::factory<&kernels::ones, "aten::ones">>(DispatchKey::CPU));
  // device=meta: the same factories allocate a Meta tensor and write nothing.
  set.add(register_kernel<ops::zeros, &detail::factory<&kernels::zeros, "aten::zeros">>(DispatchKey::Meta));
  set.add(register_kernel<ops::ones, &detail::factory<&kernels::ones, "aten::ones">>(DispatchKey::Meta));
  return set;
}

}  // namespace opd::kernels
