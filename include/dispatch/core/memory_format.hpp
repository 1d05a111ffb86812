// MemoryFormat: the dimension order a strided tensor is laid out in
// (PyTorch's c10::MemoryFormat numbering).
//
// Why: ops such as empty(..., memory_format=) and contiguous(memory_format=)
// take it as an Int-encoded IValue, so the numbering must match PyTorch.
// Preserve is a request ("keep the input's format"), never a tensor's actual
// format.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "dispatch/core/error.hpp"

namespace opd {

enum class MemoryFormat : int8_t {
  Contiguous = 0,      // row-major (NCHW for 4-d)
  Preserve = 1,        // keep the source tensor's format
  ChannelsLast = 2,    // NHWC, 4-d tensors only
  ChannelsLast3d = 3,  // NDHWC, 5-d tensors only
  NumOptions
};

inline constexpr int kNumMemoryFormats = static_cast<int>(MemoryFormat::NumOptions);

constexpr bool is_valid_memory_format(int64_t value) noexcept { return value >= 0 && value < kNumMemoryFormats; }

constexpr std::string_view to_string(MemoryFormat format) noexcept {
  switch (format) {
    case MemoryFormat::Contiguous: return "Contiguous";
    case MemoryFormat::Preserve: return "Preserve";
    case MemoryFormat::ChannelsLast: return "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return "ChannelsLast3d";
    case MemoryFormat::NumOptions: break;
  }
  return "UNKNOWN_MEMORY_FORMAT";
}

inline std::ostream& operator<<(std::ostream& os, MemoryFormat format) { return os << to_string(format); }
// The same text for error messages, without a stream (str_cat finds it by ADL).
inline void append_to(std::string& out, MemoryFormat format) { detail::append_to(out, to_string(format)); }

constexpr std::optional<MemoryFormat> try_parse_memory_format(std::string_view name) noexcept {
  for (int i = 0; i < kNumMemoryFormats; ++i) {
    if (to_string(static_cast<MemoryFormat>(i)) == name) return static_cast<MemoryFormat>(i);
  }
  return std::nullopt;
}

}  // namespace opd
