// Helpers shared by the tests of the core values.
#pragma once

#include <sstream>
#include <string>

#include "dispatch/core/error.hpp"
#include "error_of.hpp"

namespace opd_core_test {

// What operator<< prints for v.
template <class T>
std::string str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

using opd_test::error_of;

}  // namespace opd_core_test
