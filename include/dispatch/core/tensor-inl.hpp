#pragma once
// Out-of-line part of tensor.hpp: the factories.
#include "dispatch/core/tensor.hpp"

namespace opd {

OPD_FUNC Tensor empty(IntArrayRef sizes, ScalarType dtype, Device device,
                    MemoryFormat format) {
  detail::check_sizes(sizes);
  const int64_t numel = detail::checked_numel(sizes);
  OPD_CHECK_TYPE(element_size(dtype) > 0, "empty: dtype ", dtype, " cannot be allocated");
  const int64_t nbytes = detail::checked_mul(numel, static_cast<int64_t>(element_size(dtype)), "empty: nbytes");
  Storage storage = Storage::allocate(static_cast<std::size_t>(nbytes), device);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), key_set_for_device_type(device.type()), dtype);
  impl->set_sizes_contiguous(sizes, format);
  return Tensor(std::move(impl));
}

OPD_FUNC Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                            Device device) {
  OPD_CHECK(sizes.size() == strides.size(), "empty_strided: sizes ", sizes, " and strides ", strides,
            " must have the same length");
  detail::check_sizes(sizes);
  for (int64_t s : strides) OPD_CHECK(s >= 0, "empty_strided: negative strides are not supported, got ", strides);
  OPD_CHECK_TYPE(element_size(dtype) > 0, "empty_strided: dtype ", dtype, " cannot be allocated");
  const int64_t nbytes = detail::required_storage_bytes(sizes, strides, 0, element_size(dtype));
  Storage storage = Storage::allocate(static_cast<std::size_t>(nbytes), device);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), key_set_for_device_type(device.type()), dtype);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return Tensor(std::move(impl));
}

OPD_FUNC Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                        Device device, std::function<void(void*)> on_free) {
  OPD_CHECK(sizes.size() == strides.size(), "from_blob: sizes ", sizes, " and strides ", strides,
            " must have the same length");
  detail::check_sizes(sizes);
  const int64_t nbytes = detail::required_storage_bytes(sizes, strides, 0, element_size(dtype));
  Storage storage = Storage::from_blob(data, static_cast<std::size_t>(nbytes), device, std::move(on_free));
  auto impl = make_intrusive<TensorImpl>(std::move(storage), key_set_for_device_type(device.type()), dtype);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return Tensor(std::move(impl));
}

}  // namespace opd
