#pragma once
// A string literal usable as a template argument (C++20 class-type NTTP), so a
// schema can be parsed at compile time from `opd::op<"add(Tensor a) -> Tensor">`.
#include <cstddef>
#include <string_view>

namespace opd {

template <std::size_t N>
struct fixed_string {
  char data[N + 1]{};  // NUL-terminated copy of the literal

  constexpr fixed_string() = default;
  constexpr fixed_string(const char (&s)[N + 1]) {
    for (std::size_t i = 0; i <= N; ++i) data[i] = s[i];
  }
  static constexpr std::size_t size() { return N; }
  constexpr std::string_view view() const { return {data, N}; }
  constexpr operator std::string_view() const { return view(); }
};

template <std::size_t N1>
fixed_string(const char (&)[N1]) -> fixed_string<N1 - 1>;

}  // namespace opd
