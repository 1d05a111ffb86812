#pragma once
// Out-of-line part of error.hpp: compiled once into libopdispatch, or inline
// under OPD_HEADER_ONLY.
#include <charconv>
#include <cstdio>
#include <sstream>

#include "dispatch/core/error.hpp"

namespace opd {
OPD_FUNC Error::~Error() = default;
OPD_FUNC IndexError::~IndexError() = default;
OPD_FUNC TypeError::~TypeError() = default;
OPD_FUNC ValueError::~ValueError() = default;
OPD_FUNC NotImplementedError::~NotImplementedError() = default;

OPD_FUNC void Error::name_operator(std::string_view op) {
  if (!operator_name_.empty()) return;  // an inner call named its own operator
  operator_name_ = op;
  const std::string_view msg = what();
  // A message that names the operator already keeps its text: one that
  // starts with its name, in full ("aten::mm.out: ...") or without namespace
  // and overload as PyTorch's texts often do ("outer: Expected 1-D ...",
  // "adaptive_avg_pool2d(): ..."), or quotes it in full ("operator 'ns::op'
  // has no kernel ...", "'aten::mul.Tensor' is not implemented for device").
  if (msg.starts_with(op) && msg.substr(op.size()).starts_with(':')) return;
  if (const std::size_t q = msg.find(op);
      q != std::string_view::npos && q > 0 && msg[q - 1] == '\'' && msg.substr(q + op.size()).starts_with('\''))
    return;
  const std::size_t colons = op.find("::");
  std::string_view base = colons == std::string_view::npos ? op : op.substr(colons + 2);
  base = base.substr(0, base.find('.'));
  if (!base.empty() && msg.size() > base.size() && msg.starts_with(base) &&
      (msg[base.size()] == ':' || msg[base.size()] == '('))
    return;
  // Only the runtime_error part is assigned: the dynamic type, and so what
  // a handler catches, stays the kernel's.
  static_cast<std::runtime_error&>(*this) = std::runtime_error(detail::concat({op, ": ", msg}));
}
}  // namespace opd

namespace opd::detail {

OPD_FUNC std::string concat(std::initializer_list<std::string_view> pieces) {
  std::size_t n = 0;
  for (std::string_view p : pieces) n += p.size();
  std::string out;
  out.reserve(n);
  for (std::string_view p : pieces) out += p;
  return out;
}

OPD_FUNC void append_to(std::string& out, std::string_view s) { out += s; }
OPD_FUNC void append_to(std::string& out, const char* s) { out += s != nullptr ? s : "(null)"; }
OPD_FUNC void append_to(std::string& out, char c) { out += c; }
OPD_FUNC void append_to(std::string& out, bool b) { out += b ? '1' : '0'; }
OPD_FUNC void append_to(std::string& out, double v) {
  char buffer[32];  // a stream's default: %g with 6 significant digits
  const int n = std::snprintf(buffer, sizeof buffer, "%g", v);
  if (n > 0) out.append(buffer, static_cast<std::size_t>(n));
}
OPD_FUNC void append_signed(std::string& out, std::int64_t v) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, r.ptr);
}
OPD_FUNC void append_unsigned(std::string& out, std::uint64_t v) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, r.ptr);
}
OPD_FUNC void append_streamed(std::string& out, void (*put)(std::ostream&, const void*), const void* v) {
  std::ostringstream os;
  put(os, v);
  out += std::move(os).str();
}

}  // namespace opd::detail
