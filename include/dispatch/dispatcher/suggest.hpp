#pragma once
// "did you mean ...?" for a name that is not declared: the declared names
// nearest to it (schema/typo.hpp's edit distance, ignoring case), at most
// three, when they are near enough to be a typo. Used by
// Dispatcher::find_schema_or_throw for boxed calls by name.
//
//   suggest_names("aten::ad.Tensor", {"aten::add.Tensor", "aten::mul.Tensor"})
//     == "; did you mean 'aten::add.Tensor'?"
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/schema/typo.hpp"

namespace opd {

// "; did you mean 'a'?", "; did you mean 'a' or 'b'?", "; did you mean 'a', 'b' or 'c'?", or "".
// A name is near enough when at most a quarter of its bytes (at least 1, at
// most 4) are edits away from `name`.
inline std::string suggest_names(std::string_view name, std::vector<std::string> candidates) {
  const std::size_t limit = std::clamp<std::size_t>(name.size() / 4, 1, 4);
  std::size_t best = limit + 1;
  std::vector<std::string> nearest;
  for (std::string& c : candidates) {
    const std::size_t d = schema::edit_distance_ignoring_case(name, c, limit + 1);
    if (d > limit || d > best) continue;
    if (d < best) nearest.clear(), best = d;
    nearest.push_back(std::move(c));
  }
  if (nearest.empty()) return {};
  std::sort(nearest.begin(), nearest.end());
  if (nearest.size() > 3) nearest.resize(3);
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < nearest.size(); ++i) {
    if (i != 0) out += i + 1 == nearest.size() ? " or " : ", ";
    out += '\'';
    out += nearest[i];
    out += '\'';
  }
  out += '?';
  return out;
}

}  // namespace opd
