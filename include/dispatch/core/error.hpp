// opd::Error and the OPD_CHECK family. Message text is built by one
// out-of-line function (error-inl.hpp), whatever the argument types.
//
// Why: every piece of bad input (a wrong IValue tag, a negative size, an
// unknown device string, a missing allocator) must surface as a catchable
// exception with a readable message, never as UB or an abort. what() is the
// message alone (no file/line) so tests can compare it exactly.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dispatch/config.hpp"

namespace opd {

// OPD_API on the exception classes: a plugin built with -fvisibility=hidden
// throws the same type its host catches.
class OPD_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
  explicit Error(const char* msg) : std::runtime_error(msg) {}
};

// Finer-grained kinds, mirroring c10 (and Python's exception names), so a
// binding layer can map them to IndexError/TypeError/ValueError/...
class OPD_API IndexError : public Error {
 public:
  using Error::Error;
};
class OPD_API TypeError : public Error {
 public:
  using Error::Error;
};
class OPD_API ValueError : public Error {
 public:
  using Error::Error;
};
class OPD_API NotImplementedError : public Error {
 public:
  using Error::Error;
};

namespace detail {

// One piece of a message, as text. Strings are viewed, numbers written into
// the part itself, and any other type with an `operator<<` is streamed by one
// out-of-line function: no std::ostringstream is instantiated per argument
// pack, and this header needs no <sstream>.
class OPD_API message_part {
 public:
  message_part(std::string_view s) noexcept : view_(s) {}
  message_part(const char* s) noexcept : view_(s != nullptr ? s : "(null)") {}
  message_part(const std::string& s) noexcept : view_(s) {}
  message_part(char c) noexcept : buffer_{c} { view_ = std::string_view(buffer_, 1); }
  message_part(bool b) noexcept : view_(b ? "1" : "0") {}  // as a stream prints it
  message_part(signed char c) noexcept : message_part(static_cast<char>(c)) {}  // streams print these as characters
  message_part(unsigned char c) noexcept : message_part(static_cast<char>(c)) {}
  template <std::integral T>
    requires(!std::is_same_v<T, bool> && !std::is_same_v<T, char> && !std::is_same_v<T, signed char> &&
             !std::is_same_v<T, unsigned char>)
  message_part(T v) noexcept {
    if constexpr (std::is_signed_v<T>) write_signed(static_cast<std::int64_t>(v));
    else write_unsigned(static_cast<std::uint64_t>(v));
  }
  message_part(double v) noexcept { write_double(v); }
  message_part(float v) noexcept { write_double(v); }
  template <class T>
    requires(!std::is_arithmetic_v<T> && !std::is_convertible_v<const T&, std::string_view> &&
             requires(std::ostream& os, const T& v) { os << v; })
  message_part(const T& v) : owned_(stream(&put<T>, &v)) {
    view_ = owned_;
  }
  message_part(const message_part&) = delete;
  message_part& operator=(const message_part&) = delete;

  std::string_view view() const noexcept { return view_; }

 private:
  template <class T>
  static void put(std::ostream& os, const void* v) {
    os << *static_cast<const T*>(v);
  }
  static std::string stream(void (*put)(std::ostream&, const void*), const void* v);
  void write_signed(std::int64_t v) noexcept;
  void write_unsigned(std::uint64_t v) noexcept;
  void write_double(double v) noexcept;

  std::string_view view_;
  char buffer_[32] = {};
  std::string owned_;
};

// The one function that builds message text.
OPD_API std::string join_message(std::initializer_list<std::string_view> parts);

// Concatenate anything streamable. Zero arguments gives "".
template <class... Args>
std::string str_cat(const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    return join_message({message_part(args).view()...});
  }
}

// Out of line of the hot path: callers only pay for a branch.
template <class E = Error>
[[noreturn, gnu::cold, gnu::noinline]] void throw_check_failure(const char* condition, std::string msg) {
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

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/error-inl.hpp"
#endif
