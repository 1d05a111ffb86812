#pragma once
// Out-of-line part of ops_scalars.hpp (compiled in src/kernels/register_scalars.cpp).
#include <complex>
#include <optional>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_scalars.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace scalars_detail {

// ATen's scalar_tensor: the default dtype (not the Scalar's kind) unless one is given.
inline Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                            std::optional<Device> device, std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::scalar_tensor", layout, pin_memory, std::nullopt);
  return kernels::full({}, s, dtype.value_or(default_dtype()), device);
}

// The first element (ATen's reads the first element whatever the numel; an
// empty tensor is refused here), as a Scalar of its kind (bool, int64,
// double, complex<double>), read through a 0-dim alias of it copied into a 0-dim tensor of that kind.
inline Scalar local_scalar_dense(const Tensor& self) {
  OPD_CHECK(self.defined(), "aten::_local_scalar_dense: an undefined tensor has no value");
  OPD_CHECK(self.device().is_cpu(), "aten::_local_scalar_dense: the CPU kernel got a tensor on ", self.device());
  OPD_CHECK_VALUE(self.numel() >= 1, "aten::_local_scalar_dense: a Tensor with no elements has no value");
  const ScalarType d = self.dtype();
  const ScalarType kind = d == ScalarType::Bool                      ? ScalarType::Bool
                          : is_integral_type(d, /*include_bool=*/false) ? ScalarType::Long
                          : is_complex_type(d)                          ? ScalarType::ComplexDouble
                                                                    : ScalarType::Double;
  Tensor value = kernels::empty({}, kind, Device::cpu());
  kernels::copy_(value, self.as_strided({}, {}, self.storage_offset()));
  if (kind == ScalarType::Bool) return Scalar(*value.data_ptr<bool>());
  if (kind == ScalarType::Long) return Scalar(*value.data_ptr<int64_t>());
  if (kind == ScalarType::ComplexDouble) return Scalar(*value.data_ptr<std::complex<double>>());
  return Scalar(*value.data_ptr<double>());
}

inline int64_t checked_dim(std::string_view op, const Tensor& self, int64_t dim) {
  OPD_CHECK_INDEX(self.dim() > 0, "dimension specified as ", dim, " but tensor has no dimensions");
  return views::wrap_dim(op, dim, self.dim());
}
inline int64_t sym_size(const Tensor& self, int64_t dim) { return self.size(checked_dim("aten::sym_size", self, dim)); }
inline int64_t sym_stride(const Tensor& self, int64_t dim) {
  return self.stride(checked_dim("aten::sym_stride", self, dim));
}
inline int64_t sym_numel(const Tensor& self) { return self.numel(); }
inline int64_t sym_storage_offset(const Tensor& self) { return self.storage_offset(); }
inline bool sym_is_contiguous(const Tensor& self, MemoryFormat memory_format) {
  OPD_CHECK_VALUE(memory_format != MemoryFormat::Preserve,
                  "aten::sym_is_contiguous: preserve_format is not a memory format to test for");
  return self.is_contiguous(memory_format);
}

}  // namespace scalars_detail

OPD_FUNC RegistrationSet register_scalars() {
  namespace s = scalars_detail;
  RegistrationSet set;
  // device=meta: the factory allocates a Meta tensor and writes nothing.
  set.add(register_kernel<ops::scalar_tensor, &s::scalar_tensor>(DispatchKey::CPU));
  set.add(register_kernel<ops::scalar_tensor, &s::scalar_tensor>(DispatchKey::Meta));
  set.add(register_kernel<ops::_local_scalar_dense, &s::local_scalar_dense>(DispatchKey::CPU));
  constexpr DispatchKey any = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::sym_size, &s::sym_size>(any));
  set.add(register_kernel<ops::sym_stride, &s::sym_stride>(any));
  set.add(register_kernel<ops::sym_numel, &s::sym_numel>(any));
  set.add(register_kernel<ops::sym_storage_offset, &s::sym_storage_offset>(any));
  set.add(register_kernel<ops::sym_is_contiguous, &s::sym_is_contiguous>(any));
  return set;
}

}  // namespace opd::kernels
