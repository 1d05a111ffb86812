#pragma once
// Out-of-line part of error.hpp: compiled once into libopdispatch, or inline
// under OPD_HEADER_ONLY.
#include <charconv>
#include <cstdio>
#include <sstream>

#include "dispatch/core/error.hpp"

namespace opd::detail {

OPD_FUNC std::string message_part::stream(void (*put)(std::ostream&, const void*), const void* v) {
  std::ostringstream os;
  put(os, v);
  return std::move(os).str();
}
OPD_FUNC void message_part::write_signed(std::int64_t v) noexcept {
  auto r = std::to_chars(buffer_, buffer_ + sizeof buffer_, v);
  view_ = std::string_view(buffer_, static_cast<std::size_t>(r.ptr - buffer_));
}
OPD_FUNC void message_part::write_unsigned(std::uint64_t v) noexcept {
  auto r = std::to_chars(buffer_, buffer_ + sizeof buffer_, v);
  view_ = std::string_view(buffer_, static_cast<std::size_t>(r.ptr - buffer_));
}
OPD_FUNC void message_part::write_double(double v) noexcept {
  // A stream's default: %g with 6 significant digits ("1.5", "1e+20", "inf", "nan").
  const int n = std::snprintf(buffer_, sizeof buffer_, "%g", v);
  view_ = std::string_view(buffer_, n > 0 ? static_cast<std::size_t>(n) : 0);
}

OPD_FUNC std::string join_message(std::initializer_list<std::string_view> parts) {
  std::size_t n = 0;
  for (std::string_view p : parts) n += p.size();
  std::string out;
  out.reserve(n);
  for (std::string_view p : parts) out += p;
  return out;
}

}  // namespace opd::detail
