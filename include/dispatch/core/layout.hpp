// Layout: how a tensor's elements are arranged (PyTorch's c10::Layout numbering).
//
// Why keep the sparse entries although only Strided tensors exist here: the
// values travel as Int in IValues and schemas ("Layout? layout=None"), so
// the numbering must match PyTorch even for layouts this library never builds.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "dispatch/core/error.hpp"

namespace opd {

enum class Layout : int8_t {
  Strided = 0,
  Sparse = 1,  // COO
  SparseCsr = 2,
  Mkldnn = 3,
  SparseCsc = 4,
  SparseBsr = 5,
  SparseBsc = 6,
  NumOptions
};

inline constexpr int kNumLayouts = static_cast<int>(Layout::NumOptions);

constexpr bool is_valid_layout(int64_t value) noexcept { return value >= 0 && value < kNumLayouts; }

constexpr std::string_view to_string(Layout layout) noexcept {
  switch (layout) {
    case Layout::Strided: return "Strided";
    case Layout::Sparse: return "Sparse";
    case Layout::SparseCsr: return "SparseCsr";
    case Layout::Mkldnn: return "Mkldnn";
    case Layout::SparseCsc: return "SparseCsc";
    case Layout::SparseBsr: return "SparseBsr";
    case Layout::SparseBsc: return "SparseBsc";
    case Layout::NumOptions: break;
  }
  return "UNKNOWN_LAYOUT";
}

inline std::ostream& operator<<(std::ostream& os, Layout layout) { return os << to_string(layout); }
// The same text for error messages, without a stream (str_cat finds it by ADL).
inline void append_to(std::string& out, Layout layout) { detail::append_to(out, to_string(layout)); }

constexpr std::optional<Layout> try_parse_layout(std::string_view name) noexcept {
  for (int i = 0; i < kNumLayouts; ++i) {
    if (to_string(static_cast<Layout>(i)) == name) return static_cast<Layout>(i);
  }
  return std::nullopt;
}

}  // namespace opd
