#pragma once
// Out-of-line part of out_semantics.hpp: the resize-out warning's
// process-wide state and the error texts.
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

#include "structured/out_semantics.hpp"

namespace opd {

namespace structured_detail {

struct resize_warning_state {
  std::mutex mutex;
  ResizeOutWarningHandler handler;  // empty: the default (stderr, once per operator)
  std::set<std::string, std::less<>> warned;
};
OPD_API OPD_FUNC resize_warning_state& resize_warning() {
  static resize_warning_state* const s = new resize_warning_state();  // never destroyed: warnings may come during exit
  return *s;
}

}  // namespace structured_detail

// Who hears about an out= tensor with elements being resized. The handler
// is called on every such resize, with a message that starts with the
// operator's name. Returns the previous handler (empty: the default).
OPD_FUNC ResizeOutWarningHandler set_resize_out_warning_handler(ResizeOutWarningHandler handler) {
  auto& s = structured_detail::resize_warning();
  std::lock_guard lock(s.mutex);
  return std::exchange(s.handler, std::move(handler));
}

namespace structured_detail {

OPD_FUNC std::string shape_str(IntArrayRef sizes) {
  std::ostringstream os;
  os << sizes;
  return os.str();
}

OPD_FUNC void warn_resized_out(std::string_view op, IntArrayRef from, IntArrayRef to) {
  std::string message = std::string(op) + ": An output with one or more elements was resized since it had shape " +
                        shape_str(from) + ", which does not match the required output shape " + shape_str(to) +
                        ". This behavior is deprecated, and in a future release outputs will not be resized unless "
                        "they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, "
                        "to zero elements with t.resize_({0}).";
  auto& s = resize_warning();
  ResizeOutWarningHandler handler;
  {
    std::lock_guard lock(s.mutex);
    if (!s.handler) {
      if (!s.warned.emplace(op).second) return;  // the default warns once per operator
      std::cerr << "Warning: " << message << '\n';
      return;
    }
    handler = s.handler;
  }
  handler(message);  // outside the lock: the handler may throw or set another handler
}

OPD_FUNC void throw_not_castable(std::string_view op, ScalarType result,
                                                                    ScalarType target) {
  throw Error(std::string(op) + ": result type " + std::string(to_string(result)) +
              " can't be cast to the desired output type " + std::string(to_string(target)));
}

OPD_FUNC void check_no_internal_overlap_strided(std::string_view op, const Tensor& t) {
  const IntArrayRef sizes = t.sizes();
  const IntArrayRef strides = t.strides();
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (strides[d] == 0 && sizes[d] > 1)
      throw Error(std::string(op) +
                  ": unsupported operation: more than one element of the written-to tensor refers to a single memory "
                  "location. Please clone() the tensor before performing the operation.");
  }
}

OPD_FUNC void throw_inplace_shape(std::string_view op, IntArrayRef self_sizes,
                                                                     IntArrayRef result_sizes) {
  throw Error(std::string(op) + ": output with shape " + shape_str(self_sizes) + " doesn't match the broadcast shape " +
              shape_str(result_sizes));
}

OPD_FUNC void throw_out_device(std::string_view op, Device expected, Device got) {
  throw Error(std::string(op) + ": Expected out tensor to have device " + expected.str() + ", but got " + got.str() +
              " instead");
}

OPD_FUNC void throw_not_a_layout(std::string_view op, MemoryFormat format) {
  throw Error(std::string(op) + ": meta() must return a layout (Contiguous, ChannelsLast or ChannelsLast3d), not " +
              std::string(to_string(format)));
}

}  // namespace structured_detail
}  // namespace opd
