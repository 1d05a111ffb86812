#pragma once
// Out-of-line part of broadcast.hpp (compiled in src/kernels/elementwise.cpp).
#include "kernels/cpu/broadcast.hpp"

namespace opd::kernels {

OPD_FUNC std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  std::vector<int64_t> out;
  infer_size_into(a, b, out);
  return out;
}

OPD_FUNC std::vector<int64_t> broadcast_shapes(std::span<const IntArrayRef> shapes) {
  std::vector<int64_t> out;
  bool first = true;
  for (IntArrayRef s : shapes) {
    if (first) {
      out.assign(s.begin(), s.end());
      first = false;
    } else if (!(IntArrayRef(out) == s)) {
      out = infer_size(out, s);
    }
  }
  return out;
}

OPD_FUNC bool is_expandable_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (std::size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i];
    const int64_t t = to[to.size() - 1 - i];
    if (f != t && f != 1) return false;
  }
  return true;
}

}  // namespace opd::kernels
