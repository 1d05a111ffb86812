#pragma once
// error_of(f): the message of the opd::Error that f throws, or "<no error>"
// when it returns normally; tests compare or search the message.
#include <dispatch/core/error.hpp>

#include <string>

namespace opd_test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const opd::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace opd_test
