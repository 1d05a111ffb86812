#pragma once
// Out-of-line part of ops_composites.hpp (compiled in src/kernels/composites.cpp).
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dispatch/core/tensor_impl.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_composites.hpp"
#include "kernels/ops_scalars.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/views/geometry.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace composites_detail {

using ints = std::span<const int64_t>;

inline IntArrayRef ref(ints s) { return IntArrayRef(s.data(), s.size()); }

inline void check_defined(const Tensor& t, std::string_view op, std::string_view arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
}

// ATen's new_zeros: zeros(size, self.options().merge_in(options)).
inline Tensor new_zeros(const Tensor& self, ints size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                        std::optional<Device> device, std::optional<bool> pin_memory) {
  check_defined(self, "aten::new_zeros", "self");
  return call<ops::zeros>(size, arg<"dtype"> = std::optional<ScalarType>(dtype.value_or(self.dtype())),
                          arg<"layout"> = layout, arg<"device"> = std::optional<Device>(device.value_or(self.device())),
                          arg<"pin_memory"> = pin_memory);
}

// ATen's fill_(Tensor&, const Tensor&): the 0-dim value read as a Scalar,
// then fill_ (which, as ATen's, writes an expanded self too). Meta: the
// checks only.
inline void check_fill_value(const Tensor& self, const Tensor& value) {
  constexpr std::string_view op = "aten::fill_.Tensor";
  check_defined(self, op, "self");
  check_defined(value, op, "value");
  OPD_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
            " dimensions.");
}
inline Tensor& fill_tensor_(Tensor& self, const Tensor& value) {
  check_fill_value(self, value);
  call<ops::fill_>(self, call<ops::_local_scalar_dense>(value));
  return self;
}
inline Tensor& fill_tensor_meta_(Tensor& self, const Tensor& value) {
  check_fill_value(self, value);
  return self;
}

// ATen's unsafe_split: split's pieces (views of self; "unsafe" because
// autograd does not track them as views).
inline std::vector<Tensor> unsafe_split(const Tensor& self, int64_t split_size, int64_t dim) {
  check_defined(self, "aten::unsafe_split.Tensor", "self");
  return call<ops::split>(self, split_size, dim);
}

// self takes the geometry g (checked against its storage first, so that a
// refused call leaves self as it was).
inline void restride_in_place(std::string_view op, Tensor& self, const views::Geometry& g) {
  const int64_t needed = opd::detail::required_storage_bytes(g.sizes, g.strides, g.offset, self.itemsize());
  OPD_CHECK(static_cast<uint64_t>(needed) <= self.storage().nbytes(), op, ": setStorage: sizes ", g.sizes.ref(),
            ", strides ", g.strides.ref(), ", storage offset ", g.offset, ", and itemsize ", self.itemsize(),
            " requiring a storage size of ", needed, " are out of bounds for storage of size ", self.storage().nbytes());
  self.impl_ptr()->set_sizes_and_strides(g.sizes, g.strides, g.offset);
}

// ATen's as_strided_: self itself gets the sizes, strides and offset (its
// own offset when none is given).
inline Tensor& as_strided_(Tensor& self, ints size, ints stride, std::optional<int64_t> storage_offset) {
  constexpr std::string_view op = "aten::as_strided_";
  check_defined(self, op, "self");
  restride_in_place(op, self,
                    views::as_strided(op, ref(size), ref(stride), storage_offset.value_or(self.storage_offset())));
  return self;
}

// ATen's transpose_: self's sizes and strides of dim0 and dim1 swapped.
inline Tensor& transpose_(Tensor& self, int64_t dim0, int64_t dim1) {
  constexpr std::string_view op = "aten::transpose_";
  check_defined(self, op, "self");
  const views::Geometry in{SizesVector(self.sizes()), SizesVector(self.strides()), self.storage_offset()};
  restride_in_place(op, self, views::transpose(op, in, dim0, dim1));
  return self;
}

}  // namespace composites_detail

OPD_FUNC RegistrationSet register_composites() {
  namespace c = composites_detail;
  RegistrationSet set;
  set.add(register_structured<ops::clamp_min>());
  set.add(register_structured<ops::clamp_min_tensor>());
  constexpr DispatchKey composite = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::new_zeros, &c::new_zeros>(composite));
  set.add(register_kernel<ops::fill_tensor_, &c::fill_tensor_>(DispatchKey::CPU));
  set.add(register_kernel<ops::fill_tensor_, &c::fill_tensor_meta_>(DispatchKey::Meta));
  set.add(register_kernel<ops::unsafe_split, &c::unsafe_split>(composite));
  set.add(register_kernel<ops::as_strided_, &c::as_strided_>(composite));
  set.add(register_kernel<ops::transpose_, &c::transpose_>(composite));
  return set;
}

}  // namespace opd::kernels
