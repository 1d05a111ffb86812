#pragma once
// Out-of-line part of boxed_defaults.hpp (compiled in src/dispatcher.cpp).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/dispatcher/boxed_defaults.hpp"
#include "dispatch/dispatcher/defaults.hpp"

namespace opd::detail {

inline const schema::type_node& default_strip_optional(const schema::dynamic_schema& s, std::int16_t t) {
  const schema::type_node* n = &s.type(t);
  if (n->kind == schema::type_kind::optional) n = &s.type(n->child);
  return *n;
}
inline bool default_wants_float(const schema::dynamic_schema& s, std::int16_t t) {
  const schema::type_node& n = default_strip_optional(s, t);
  return n.kind == schema::type_kind::base &&
         (n.base == schema::base_type::float_ || n.base == schema::base_type::SymFloat);
}

// The schema default of argument `a` as the IValue a boxed kernel expects.
OPD_FUNC IValue default_ivalue(const schema::dynamic_schema& s, const schema::argument& a) {
  using DK = schema::default_kind;
  const schema::default_value& d = a.def;
  const schema::type_node& n = default_strip_optional(s, a.type);
  const bool is_float = default_wants_float(s, a.type);
  const auto scalar_of = [&](const schema::default_value& e, bool as_float) -> IValue {
    switch (e.kind == DK::repeated ? e.element : e.kind) {  // a repeated default: the one value
      case DK::boolean: return IValue(e.boolean);
      case DK::integer:
      case DK::symbol: return as_float ? IValue(static_cast<double>(e.integer)) : IValue(e.integer);
      case DK::floating: return IValue(e.floating);
      case DK::complex: return IValue(std::complex<double>(0.0, e.floating));
      default: return IValue();
    }
  };
  switch (d.kind) {
    case DK::none: return IValue();
    case DK::string: {
      std::string_view text = d.text;
      if (text.size() >= 2) text = text.substr(1, text.size() - 2);
      if (n.kind == schema::type_kind::base && n.base == schema::base_type::Device) return IValue(Device(text));
      return IValue(std::string(text));
    }
    case DK::list:
    case DK::repeated: {
      const std::int64_t count = d.kind == DK::repeated ? std::max<std::int32_t>(n.fixed_size, 0) : d.length;
      const bool float_elements = n.kind == schema::type_kind::list && default_wants_float(s, n.child);
      std::vector<IValue> items;
      for (std::int64_t k = 0; k < count; ++k)
        items.push_back(scalar_of(list_default_element(d, static_cast<std::size_t>(k)), float_elements));
      const DK element = d.element;
      if (float_elements) {
        std::vector<double> v;
        for (const IValue& e : items) v.push_back(e.is_int() ? static_cast<double>(e.to_int()) : e.to_double());
        return IValue(std::move(v));
      }
      if (element == DK::boolean || (items.size() > 0 && items[0].is_bool())) {
        std::vector<bool> v;
        for (const IValue& e : items) v.push_back(e.to_bool());
        return IValue(std::move(v));
      }
      std::vector<std::int64_t> v;
      for (const IValue& e : items) v.push_back(e.to_int());
      return IValue(std::move(v));
    }
    default: return scalar_of(d, is_float);
  }
}

}  // namespace opd::detail
