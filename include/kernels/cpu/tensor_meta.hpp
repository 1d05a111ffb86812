// TensorMeta for the CPU kernels: what a kernel's `meta` step decides about
// its output before any memory exists -- sizes, dtype, memory format.
//
// The type is the structured-kernel machinery's opd::TensorMeta
// (include/structured/tensor_meta.hpp), so a kernel's meta function can be
// a structured op's `static TensorMeta meta(...)` as it is; it is also
// reachable here as opd::kernels::TensorMeta. The kernels themselves stay
// independent of the rest of that machinery.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dispatch/core/device.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "structured/tensor_meta.hpp"

namespace opd::kernels {

using TensorMeta = opd::TensorMeta;

// sizes: a braced list, a std::vector<int64_t>, an IntArrayRef or a MetaSizes.
inline TensorMeta make_tensor_meta(MetaSizes sizes, ScalarType dtype,
                                   MemoryFormat memory_format = MemoryFormat::Contiguous) {
  TensorMeta meta;
  meta.sizes = std::move(sizes);
  meta.dtype = dtype;
  meta.memory_format = memory_format;
  return meta;
}

// The tag of an impl overload for an output its meta step has vetted:
// `add_impl(self, other, alpha, out, k::meta_checked)` takes `out` with
// exactly the sizes and dtype meta returned for these arguments (any
// strides), so it skips the argument checks meta made and only resolves
// memory overlap before computing. This is what a structured operator's
// impl() receives (include/structured/); the overload without the tag
// checks everything and is safe to call alone.
struct meta_checked_t {
  explicit constexpr meta_checked_t() = default;
};
inline constexpr meta_checked_t meta_checked{};

// A fresh tensor for `meta` (what a functional variant returns).
inline Tensor empty_from_meta(const TensorMeta& meta, Device device = Device::cpu()) {
  if (!meta.strides.empty())
    return opd::empty_strided(IntArrayRef(meta.sizes), IntArrayRef(meta.strides), meta.dtype, device);
  return opd::empty(IntArrayRef(meta.sizes), meta.dtype, device, meta.memory_format);
}

}  // namespace opd::kernels
