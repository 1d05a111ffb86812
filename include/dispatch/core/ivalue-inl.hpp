#pragma once
// Out-of-line part of ivalue.hpp: its error paths and the Dict entries' hash index.
#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"

#include <complex>
#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>

namespace opd {

OPD_FUNC void IValue::fail_expected(std::string_view expected) const {
  throw TypeError(detail::str_cat("Expected ", expected, " but got ", tag_kind()));
}
OPD_FUNC void IValue::fail_expected(Tag expected) const { fail_expected(opd::tag_name(expected)); }

// ---- Dict entries (ivalue.hpp's detail::DictImpl) ----------------------------------

OPD_FUNC std::size_t detail::DictKeyHash::operator()(const IValue& k) const noexcept {
  const std::size_t tag = static_cast<std::size_t>(k.tag()) * 0x9e3779b97f4a7c15ull;
  switch (k.tag()) {
    case IValueTag::Int: return tag ^ std::hash<int64_t>{}(k.to_int());
    case IValueTag::Double: return tag ^ std::hash<double>{}(k.to_double());
    case IValueTag::Bool: return tag ^ std::hash<bool>{}(k.to_bool());
    case IValueTag::String: return tag ^ std::hash<std::string_view>{}(k.to_string_view());
    case IValueTag::ComplexDouble: {
      const std::complex<double> c = k.to_complex_double();
      return tag ^ std::hash<double>{}(c.real()) ^ (std::hash<double>{}(c.imag()) << 1);
    }
    case IValueTag::Tensor: return tag ^ std::hash<const void*>{}(k.to_tensor().unsafe_get_impl());
    default: return tag;  // other key kinds: told apart by DictKeyEqual only
  }
}

OPD_FUNC bool detail::DictKeyEqual::operator()(const IValue& a, const IValue& b) const { return a == b; }

OPD_FUNC std::size_t detail::DictImpl::find(const IValue& key) const {
  const auto it = index.find(key);
  return it == index.end() ? entries.size() : it->second;
}

OPD_FUNC std::pair<std::size_t, bool> detail::DictImpl::insert(IValue key, IValue value, bool assign) {
  const auto [it, fresh] = index.try_emplace(key, entries.size());
  if (fresh) {
    entries.emplace_back(std::move(key), std::move(value));
  } else if (assign) {
    entries[it->second].second = std::move(value);
  }
  return {it->second, fresh};
}

OPD_FUNC std::size_t detail::DictImpl::erase(const IValue& key) {
  const auto it = index.find(key);
  if (it == index.end()) return 0;
  const std::size_t at = it->second;
  index.erase(it);
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(at));
  for (auto& [k, position] : index)
    if (position > at) --position;
  return 1;
}

}  // namespace opd
