#pragma once
// Tokens of PyTorch's schema language. The lexer is constexpr so the parser
// runs unchanged at compile time and at run time.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "error.hpp"

namespace opd::schema {

enum class token_kind : std::uint8_t {
  end,
  ident,
  keyword,         // TorchScript reserved words: never a name (PyTorch rejects them too)
  number,          // as strtod reads it, minus hex floats; may end in 'j' (imaginary)
  string_literal,  // '...' or "..." with backslash escapes
  arrow,           // ->
  dots,            // ...
  punct,           // one of ( ) [ ] , ? ! * | = . : -
  error,
};

struct token {
  token_kind kind = token_kind::end;
  std::string_view text;
  std::size_t offset = 0;
  constexpr bool is(char c) const { return kind == token_kind::punct && text.size() == 1 && text[0] == c; }
  constexpr bool is_keyword(std::string_view w) const { return kind == token_kind::keyword && text == w; }
};

constexpr bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// TorchScript's keywords (its lexer turns these into their own tokens).
constexpr bool is_reserved_word(std::string_view w) {
  constexpr std::string_view words[] = {
      "def",   "if",      "else",     "elif",   "while", "return", "is",       "True",     "False", "None",
      "and",   "or",      "not",      "global", "for",   "in",     "raise",    "assert",   "break", "continue",
      "del",   "pass",    "class",    "import", "with",  "as",     "Ellipsis", "NoneType"};
  for (auto r : words)
    if (r == w) return true;
  return false;
}

class lexer {
 public:
  constexpr explicit lexer(std::string_view src) : src_(src) { cur_ = scan(0); }

  constexpr const token& cur() const { return cur_; }
  constexpr token next() {
    token t = cur_;
    prev_end_ = t.offset + t.text.size();
    cur_ = scan(prev_end_);
    return t;
  }
  // Where the last consumed token ended (to slice out the text of a default).
  constexpr std::size_t prev_end() const { return prev_end_; }
  constexpr token peek() const { return scan(cur_.offset + cur_.text.size()); }
  constexpr bool next_if(char c) {
    if (!cur_.is(c)) return false;
    next();
    return true;
  }
  constexpr bool next_if(token_kind k) {
    if (cur_.kind != k) return false;
    next();
    return true;
  }
  constexpr std::string_view source() const { return src_; }

 private:
  constexpr token make(token_kind k, std::size_t b, std::size_t e) const { return token{k, src_.substr(b, e - b), b}; }

  constexpr token scan(std::size_t i) const {
    const std::size_t n = src_.size();
    for (;;) {
      while (i < n && is_space(src_[i])) ++i;
      if (i < n && src_[i] == '#') {  // comment to end of line
        while (i < n && src_[i] != '\n') ++i;
        continue;
      }
      break;
    }
    if (i >= n) return token{token_kind::end, src_.substr(n, 0), n};
    const char c = src_[i];
    if (is_ident_start(c)) {
      std::size_t e = i + 1;
      while (e < n && is_ident_char(src_[e])) ++e;
      return make(is_reserved_word(src_.substr(i, e - i)) ? token_kind::keyword : token_kind::ident, i, e);
    }
    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(src_[i + 1]))) return scan_number(i);
    if (c == '.' && src_.substr(i, 3) == "...") return make(token_kind::dots, i, i + 3);
    if (c == '-' && i + 1 < n && src_[i + 1] == '>') return make(token_kind::arrow, i, i + 2);
    if (c == '\'' || c == '"') {
      std::size_t e = i + 1;
      while (e < n && src_[e] != c) e += (src_[e] == '\\' && e + 1 < n) ? 2 : 1;
      if (e >= n) return make(token_kind::error, i, n);
      return make(token_kind::string_literal, i, e + 1);
    }
    constexpr std::string_view puncts = "()[],?!*|=.:->";
    for (char p : puncts)
      if (p == c) return make(token_kind::punct, i, i + 1);
    return make(token_kind::error, i, i + 1);
  }

  // 0x hex digits, or digits [. digits] [e [+-] digits] [j], or . digits ... ; like strtod without
  // hex, inf and nan. The exponent is taken only when digits follow it.
  constexpr token scan_number(std::size_t i) const {
    const std::size_t n = src_.size();
    std::size_t e = i;
    if (src_[i] == '0' && i + 2 < n && (src_[i + 1] == 'x' || src_[i + 1] == 'X') && is_hex_digit(src_[i + 2])) {
      e = i + 2;  // a hex integer (real schemas write int mask=0x2FFFFFF)
      while (e < n && is_hex_digit(src_[e])) ++e;
      return make(token_kind::number, i, e);
    }
    while (e < n && is_digit(src_[e])) ++e;
    if (e < n && src_[e] == '.') {
      ++e;
      while (e < n && is_digit(src_[e])) ++e;
    }
    if (e < n && (src_[e] == 'e' || src_[e] == 'E')) {
      std::size_t x = e + 1;
      if (x < n && (src_[x] == '+' || src_[x] == '-')) ++x;
      if (x < n && is_digit(src_[x])) {
        while (x < n && is_digit(src_[x])) ++x;
        e = x;
      }
    }
    if (e < n && src_[e] == 'j') ++e;
    return make(token_kind::number, i, e);
  }

  std::string_view src_;
  token cur_{};
  std::size_t prev_end_ = 0;
};

}  // namespace opd::schema
