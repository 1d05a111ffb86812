// opd::Error and the OPD_CHECK family. Message text is built by a few
// out-of-line append functions (error-inl.hpp), whatever the argument types.
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
  // Out of line in the compiled library (its key function): the vtable and
  // type_info are emitted there once, not in every user file.
  ~Error() override;

  // The operator whose kernel raised this error, once the dispatcher has
  // named it: what() then starts with "ns::op.overload: ", unless the text
  // named it already; empty for an error raised outside any kernel.
  std::string_view operator_name() const noexcept { return operator_name_; }
  // What the dispatcher calls when an error leaves a kernel: the first
  // (innermost) operator is kept, later ones leave the error as it is. The
  // name must outlive the error (an operator entry's, which lives as long
  // as the process).
  void name_operator(std::string_view op);

 private:
  std::string_view operator_name_;
};

// Finer-grained kinds, mirroring c10 (and Python's exception names), so a
// binding layer can map them to IndexError/TypeError/ValueError/...
class OPD_API IndexError : public Error {
 public:
  using Error::Error;
  ~IndexError() override;
};
class OPD_API TypeError : public Error {
 public:
  using Error::Error;
  ~TypeError() override;
};
class OPD_API ValueError : public Error {
 public:
  using Error::Error;
  ~ValueError() override;
};
class OPD_API NotImplementedError : public Error {
 public:
  using Error::Error;
  ~NotImplementedError() override;
};

namespace detail {

// Message text, piece by piece: each argument of str_cat (and so of
// OPD_CHECK's message parts) is appended by an out-of-line function, as a
// stream would print it: strings as they are, numbers written in place, and
// any other type with an `operator<<` streamed by one function (no
// std::ostringstream per argument pack, no <sstream> here). An instantiation
// of str_cat is a sequence of calls.
OPD_API void append_to(std::string& out, std::string_view s);
OPD_API void append_to(std::string& out, const char* s);  // null: "(null)"
inline void append_to(std::string& out, const std::string& s) { append_to(out, std::string_view(s)); }
OPD_API void append_to(std::string& out, char c);
inline void append_to(std::string& out, signed char c) { append_to(out, static_cast<char>(c)); }  // streams print these as characters
inline void append_to(std::string& out, unsigned char c) { append_to(out, static_cast<char>(c)); }
OPD_API void append_to(std::string& out, bool b);  // "1" / "0", as a stream prints it
OPD_API void append_to(std::string& out, double v);  // %g: "1.5", "1e+20", "inf"
inline void append_to(std::string& out, float v) { append_to(out, static_cast<double>(v)); }
OPD_API void append_signed(std::string& out, std::int64_t v);
OPD_API void append_unsigned(std::string& out, std::uint64_t v);
template <std::integral T>
  requires(!std::is_same_v<T, bool> && !std::is_same_v<T, char> && !std::is_same_v<T, signed char> &&
           !std::is_same_v<T, unsigned char>)
void append_to(std::string& out, T v) {
  if constexpr (std::is_signed_v<T>) append_signed(out, static_cast<std::int64_t>(v));
  else append_unsigned(out, static_cast<std::uint64_t>(v));
}
OPD_API void append_streamed(std::string& out, void (*put)(std::ostream&, const void*), const void* v);
template <class T>
void put_to_stream(std::ostream& os, const void* v) {
  os << *static_cast<const T*>(v);
}
template <class T>
  requires(!std::is_arithmetic_v<T> && !std::is_convertible_v<const T&, std::string_view> &&
           requires(std::ostream& os, const T& v) { os << v; })
void append_to(std::string& out, const T& v) {
  append_streamed(out, &put_to_stream<T>, &v);
}

// One text from pieces, by one non-template function: the run-time code's
// messages are one call each, not a chain of std::string temporaries (each
// `a + b` an inline call with its own clean-up code in every function that
// reports an error).
OPD_API std::string concat(std::initializer_list<std::string_view> pieces);

// Throws E with the concatenated pieces; out of line, one copy per error type.
template <class E = Error>
[[noreturn, gnu::cold, gnu::noinline]] void throw_concat(std::initializer_list<std::string_view> pieces) {
  throw E(concat(pieces));
}

// Concatenate anything streamable. Zero arguments gives "". Cold: messages
// are built on error paths, so the compiler optimises them for size (less
// code, and less time spent compiling it in every file that reports errors).
template <class... Args>
[[gnu::cold]] std::string str_cat(const Args&... args) {
  std::string out;
  (append_to(out, args), ...);
  return out;
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
