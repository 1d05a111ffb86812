#pragma once
// Out-of-line part of dlpack.hpp (compiled in src/c_abi.cpp).
#include <algorithm>
#include <memory>

#include "dispatch/c_abi/dlpack.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/small_vector.hpp"

namespace opd::c_abi::detail {

inline ScalarType dtype_from_dlpack(DLDataType t) {
  if (t.lanes != 1) throw ValueError(opd::detail::str_cat("opd_tensor_from_dlpack: vector dtypes (lanes=", t.lanes, ") are not supported"));
  switch (t.code) {
    case kDLInt:
      if (t.bits == 8) return ScalarType::Char;
      if (t.bits == 16) return ScalarType::Short;
      if (t.bits == 32) return ScalarType::Int;
      if (t.bits == 64) return ScalarType::Long;
      break;
    case kDLUInt:
      if (t.bits == 8) return ScalarType::Byte;
      break;
    case kDLFloat:
      if (t.bits == 16) return ScalarType::Half;
      if (t.bits == 32) return ScalarType::Float;
      if (t.bits == 64) return ScalarType::Double;
      break;
    case kDLBfloat:
      if (t.bits == 16) return ScalarType::BFloat16;
      break;
    case kDLComplex:
      if (t.bits == 32) return ScalarType::ComplexHalf;
      if (t.bits == 64) return ScalarType::ComplexFloat;
      if (t.bits == 128) return ScalarType::ComplexDouble;
      break;
    case 6:  // kDLBool (DLPack 0.8)
      if (t.bits == 8) return ScalarType::Bool;
      break;
    default: break;
  }
  throw ValueError(opd::detail::str_cat("opd_tensor_from_dlpack: unsupported dtype (code ", static_cast<int>(t.code), ", bits ",
                           static_cast<int>(t.bits), ")"));
}
inline DLDataType dtype_to_dlpack(ScalarType s) {
  DLDataType t{};
  t.lanes = 1;
  t.bits = static_cast<std::uint8_t>(element_size(s) * 8);
  switch (s) {
    case ScalarType::Byte: t.code = kDLUInt; break;
    case ScalarType::Bool: t.code = kDLUInt; break;  // as PyTorch 1.13 exports bool (DLPack 0.6 has no bool)
    case ScalarType::Char: case ScalarType::Short: case ScalarType::Int: case ScalarType::Long: t.code = kDLInt; break;
    case ScalarType::Half: case ScalarType::Float: case ScalarType::Double: t.code = kDLFloat; break;
    case ScalarType::BFloat16: t.code = kDLBfloat; break;
    case ScalarType::ComplexHalf: case ScalarType::ComplexFloat: case ScalarType::ComplexDouble: t.code = kDLComplex; break;
    default: throw ValueError(opd::detail::str_cat("opd_tensor_to_dlpack: dtype ", s, " has no DLPack form"));
  }
  return t;
}

// What an exported DLManagedTensor owns.
struct dlpack_export {
  DLManagedTensor managed{};
  Tensor tensor;
  SmallVector<std::int64_t, 6> shape, strides;
};

}  // namespace opd::c_abi::detail

namespace opd {

OPD_FUNC Tensor tensor_from_dlpack(DLManagedTensor* m) {
  using namespace c_abi::detail;
  const DLTensor& t = m->dl_tensor;
  if (t.ndim < 0 || t.ndim > 64 || (t.ndim > 0 && t.shape == nullptr))
    throw ValueError(opd::detail::str_cat("opd_tensor_from_dlpack: bad ndim ", t.ndim, " or NULL shape"));
  const ScalarType st = dtype_from_dlpack(t.dtype);
  Device device = Device::cpu();
  if (t.device.device_type == kDLCUDA) device = Device::cuda(static_cast<DeviceIndex>(t.device.device_id));
  else if (t.device.device_type != kDLCPU)
    throw ValueError(opd::detail::str_cat("opd_tensor_from_dlpack: unsupported device type ", static_cast<int>(t.device.device_type)));
  const auto n = static_cast<std::size_t>(t.ndim);
  const IntArrayRef sizes(t.shape, n);
  SmallVector<std::int64_t, 6> contiguous;
  IntArrayRef strides;
  if (t.strides != nullptr) {
    strides = IntArrayRef(t.strides, n);
  } else {
    contiguous.resize(n);
    std::int64_t s = 1;
    for (std::size_t d = n; d-- > 0;) contiguous[d] = s, s *= std::max<std::int64_t>(t.shape[d], 1);
    strides = IntArrayRef(contiguous.data(), n);
  }
  void* data = static_cast<char*>(t.data) + t.byte_offset;
  // The producer's deleter runs when the last tensor over the memory is gone.
  return from_blob(data, sizes, strides, st, device, [m](void*) {
    if (m->deleter != nullptr) m->deleter(m);
  });
}

OPD_FUNC DLManagedTensor* tensor_to_dlpack(const Tensor& tensor) {
  using namespace c_abi::detail;
  auto e = std::make_unique<dlpack_export>();
  DLTensor& d = e->managed.dl_tensor;
  const Device device = tensor.device();
  if (device.is_cpu()) d.device = DLDevice{kDLCPU, 0};
  else if (device.type() == DeviceType::CUDA) d.device = DLDevice{kDLCUDA, device.index() < 0 ? 0 : device.index()};
  else throw ValueError(opd::detail::str_cat("opd_tensor_to_dlpack: device ", device, " has no DLPack form"));
  d.dtype = dtype_to_dlpack(tensor.dtype());
  e->tensor = tensor;
  e->shape.assign(tensor.sizes());
  e->strides.assign(tensor.strides());
  d.data = tensor.data_ptr();
  d.ndim = static_cast<int32_t>(tensor.dim());
  d.shape = e->shape.data();
  d.strides = e->strides.data();
  d.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = [](DLManagedTensor* self) { delete static_cast<dlpack_export*>(self->manager_ctx); };
  return &e.release()->managed;
}

}  // namespace opd
