// Dimname: a dimension name (PyTorch's at::Dimname, for named tensors).
//
// A Dimname is a view of an interned string: names live for the whole
// process, as PyTorch's interned Symbols do, so a Dimname taken out of an
// IValue never dangles. In an IValue it travels as a String, as in PyTorch.
#pragma once

#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/core/ivalue.hpp"

namespace opd {

struct Dimname {
  std::string_view name;
  friend constexpr bool operator==(const Dimname&, const Dimname&) = default;

  // The Dimname for `name`, its characters stored once per process.
  // One table per process (dimname-inl.hpp).
  OPD_API static Dimname intern(std::string_view name);
};

template <>
struct ivalue_converter<Dimname> {
  static IValue to_ivalue(const Dimname& d) { return IValue(d.name); }
  static Dimname from_ivalue(const IValue& v) { return Dimname::intern(v.to_string_view()); }
};

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/dimname-inl.hpp"
#endif
