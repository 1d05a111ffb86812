#pragma once
// PyTorch's rules for writing a result into a tensor the caller gave,
// shared by the structured kernels and the derived wrappers:
//
//   in-place   the result must have self's shape exactly (self is never
//              broadcast or resized) and a dtype castable to self's.
//   both       the written tensor must not be expanded (several elements at
//              one memory location), checked before resizing.
//   out=       out must be on the result's device; the result's dtype must be
//              castable to out's (c10::canCast: no float result into an int
//              out, no int result into a bool out); an out of another shape is
//              resized, and when it had elements that is deprecated: the
//              resize-out warning handler is told.
//
//   opd::set_resize_out_warning_handler(handler)   returns the previous one;
//   nullptr restores the default, which prints to stderr once per operator.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "structured/tensor_meta.hpp"

namespace opd {

using ResizeOutWarningHandler = std::function<void(std::string_view message)>;

// Who hears about an out= tensor with elements being resized. The handler
// is called on every such resize, with a message that starts with the
// operator's name. Returns the previous handler (empty: the default).
OPD_API ResizeOutWarningHandler set_resize_out_warning_handler(ResizeOutWarningHandler handler);

namespace structured_detail {

OPD_API std::string shape_str(IntArrayRef sizes);

OPD_API void warn_resized_out(std::string_view op, IntArrayRef from, IntArrayRef to);

// (The errors are built out of line, so that the checks inline.)
[[noreturn, gnu::cold]] OPD_API void throw_not_castable(std::string_view op, ScalarType result, ScalarType target);

// PyTorch's "result type Float can't be cast to the desired output type Long".
inline void check_castable(std::string_view op, ScalarType result, ScalarType target) {
  if (!can_cast(result, target)) [[unlikely]]
    throw_not_castable(op, result, target);
}

OPD_API void check_no_internal_overlap_strided(std::string_view op, const Tensor& t);

// PyTorch's TensorIterator refuses to write a tensor in which one memory
// location holds several elements (an expanded tensor: stride 0 over a size
// > 1), before anything is resized or computed. Metadata only, any device.
// (A tensor contiguous in any memory format has no such dimension.)
inline void check_no_internal_overlap(std::string_view op, const Tensor& t) {
  if (t.is_contiguous()) return;
  check_no_internal_overlap_strided(op, t);
}

[[noreturn, gnu::cold]] OPD_API void throw_inplace_shape(std::string_view op, IntArrayRef self_sizes, IntArrayRef result_sizes);

// In-place: the result must fit self as it is.
inline void check_inplace(std::string_view op, IntArrayRef result_sizes, ScalarType result_dtype, const Tensor& self) {
  if (!(self.sizes() == result_sizes)) [[unlikely]]
    throw_inplace_shape(op, self.sizes(), result_sizes);
  check_castable(op, result_dtype, self.dtype());
}

inline bool same_device(Device a, Device b) {
  return a.type() == b.type() && (!a.has_index() || !b.has_index() || a.index() == b.index());
}

[[noreturn, gnu::cold]] OPD_API void throw_out_device(std::string_view op, Device expected, Device got);

inline void check_out_device(std::string_view op, Device expected, const Tensor& out) {
  if (!same_device(expected, out.device())) [[unlikely]]
    throw_out_device(op, expected, out.device());
}

// out=: resize to the result's shape (warning when out had elements).
inline void resize_out(std::string_view op, const Tensor& out, IntArrayRef sizes, MemoryFormat format) {
  if (out.sizes() == sizes) return;
  if (out.numel() != 0) warn_resized_out(op, out.sizes(), sizes);
  out.resize_(sizes, format);
}

// A tensor of meta's sizes and dtype on `device`, in meta's layout: its
// explicit strides when it has them, else contiguous in its memory format.
inline Tensor empty_of_meta(const TensorMeta& m, Device device) {
  if (m.strides.empty()) [[likely]]
    return empty(m.sizes, m.dtype, device, m.memory_format);
  return empty_strided(m.sizes, m.strides, m.dtype, device);
}

[[noreturn, gnu::cold]] OPD_API void throw_not_a_layout(std::string_view op, MemoryFormat format);

inline void check_memory_format(std::string_view op, MemoryFormat format) {
  if (format != MemoryFormat::Contiguous && format != MemoryFormat::ChannelsLast &&
      format != MemoryFormat::ChannelsLast3d) [[unlikely]]
    throw_not_a_layout(op, format);
}

}  // namespace structured_detail
}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "structured/out_semantics-inl.hpp"
#endif
