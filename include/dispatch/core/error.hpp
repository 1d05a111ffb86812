// opd::Error and the OPD_CHECK family.
//
// Why: every piece of bad input (a wrong IValue tag, a negative size, an
// unknown device string, a missing allocator) must surface as a catchable
// exception with a readable message, never as UB or an abort. what() is the
// message alone (no file/line) so tests can compare it exactly.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace opd {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
  explicit Error(const char* msg) : std::runtime_error(msg) {}
};

// Finer-grained kinds, mirroring c10 (and Python's exception names), so a
// binding layer can map them to IndexError/TypeError/ValueError/...
class IndexError : public Error {
 public:
  using Error::Error;
};
class TypeError : public Error {
 public:
  using Error::Error;
};
class ValueError : public Error {
 public:
  using Error::Error;
};
class NotImplementedError : public Error {
 public:
  using Error::Error;
};

namespace detail {

// Concatenate anything streamable. Zero arguments gives "".
template <class... Args>
std::string str_cat(const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    std::ostringstream os;
    (os << ... << args);
    return std::move(os).str();
  }
}

// Out of line of the hot path: callers only pay for a branch.
template <class E = Error>
[[noreturn]] inline void throw_check_failure(const char* condition, std::string msg) {
  if (msg.empty()) {
    msg = std::string("Check failed: ") + condition;
  }
  throw E(msg);
}

}  // namespace detail

// Function form, usable where a macro is unwelcome. Arguments are always
// evaluated, so prefer OPD_CHECK when building the message is costly.
template <class... Args>
constexpr void check(bool condition, const Args&... msg) {
  if (!condition) {
    detail::throw_check_failure<Error>("condition", detail::str_cat(msg...));
  }
}

}  // namespace opd

// OPD_CHECK(cond, message parts...): throws opd::Error with the streamed
// message parts (or "Check failed: cond" when no parts are given). The
// message is only built on failure.
#define OPD_CHECK_WITH(ErrorType, cond, ...)                                      \
  do {                                                                            \
    if (!(cond)) {                                                                \
      ::opd::detail::throw_check_failure<ErrorType>(#cond,                        \
                                                    ::opd::detail::str_cat(__VA_ARGS__)); \
    }                                                                             \
  } while (false)

#define OPD_CHECK(cond, ...) OPD_CHECK_WITH(::opd::Error, cond, __VA_ARGS__)
#define OPD_CHECK_INDEX(cond, ...) OPD_CHECK_WITH(::opd::IndexError, cond, __VA_ARGS__)
#define OPD_CHECK_TYPE(cond, ...) OPD_CHECK_WITH(::opd::TypeError, cond, __VA_ARGS__)
#define OPD_CHECK_VALUE(cond, ...) OPD_CHECK_WITH(::opd::ValueError, cond, __VA_ARGS__)

// Unconditional failure with a message.
#define OPD_FAIL(...) ::opd::detail::throw_check_failure<::opd::Error>("false", ::opd::detail::str_cat(__VA_ARGS__))
