#pragma once
// Out-of-line part of ops_scalars.hpp (compiled in src/kernels/register_scalars.cpp).
#include <complex>
#include <optional>
#include <type_traits>

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
// empty tensor is refused here), read in place as ATen's
// _local_scalar_dense_cpu reads it, as a Scalar of its kind (bool, int64,
// double, complex<double>).
inline Scalar local_scalar_dense(const Tensor& self) {
  OPD_CHECK(self.defined(), "aten::_local_scalar_dense: an undefined tensor has no value");
  OPD_CHECK(self.device().is_cpu(), "aten::_local_scalar_dense: the CPU kernel got a tensor on ", self.device());
  OPD_CHECK_VALUE(self.numel() >= 1, "aten::_local_scalar_dense: a Tensor with no elements has no value");
  return visit_scalar_type(self.dtype(), [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const T v = *static_cast<const T*>(self.data_ptr());
    if constexpr (std::is_same_v<T, bool>) {
      return Scalar(v);
    } else if constexpr (std::is_integral_v<T>) {
      return Scalar(static_cast<int64_t>(v));
    } else if constexpr (std::is_same_v<T, ComplexHalf>) {
      const auto z = static_cast<std::complex<float>>(v);
      return Scalar(std::complex<double>(z.real(), z.imag()));
    } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
      return Scalar(std::complex<double>(v.real(), v.imag()));
    } else {
      return Scalar(static_cast<double>(v));
    }
  });
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
