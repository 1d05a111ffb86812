// Helpers shared by the tests of the core values.
#pragma once

#include <sstream>
#include <string>

#include "dispatch/core/error.hpp"

namespace opd_core_test {

// What operator<< prints for v.
template <class T>
std::string str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// The message of the opd::Error that f throws, or "<no error>".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const opd::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace opd_core_test
