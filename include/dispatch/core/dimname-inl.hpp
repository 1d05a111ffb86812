#pragma once
// Out-of-line part of dimname.hpp: the process-wide table of interned names.
#include <mutex>
#include <string>
#include <unordered_set>

#include "dispatch/core/dimname.hpp"

namespace opd {

OPD_FUNC Dimname Dimname::intern(std::string_view name) {
  static std::mutex mutex;
  static std::unordered_set<std::string>* const names = new std::unordered_set<std::string>();  // node-based: element addresses are stable; never destroyed
  const std::lock_guard<std::mutex> lock(mutex);
  return Dimname{*names->emplace(name).first};
}

}  // namespace opd
