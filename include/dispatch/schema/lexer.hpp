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

// Characters equal, without string_view's checked accessors: the compile-time
// parse compares many words, and g++'s constant evaluator pays (in time and
// memory) for every function call it evaluates.
constexpr bool same_word(const char* a, std::size_t n, const char* b) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return b[n] == '\0';
}

// TorchScript's keywords (its lexer turns these into their own tokens).
// Selected by first letter first, so an ordinary name costs one switch.
constexpr bool is_reserved_word(const char* w, std::size_t n) {
  if (n < 2 || n > 8) return false;
  switch (w[0]) {
    case 'a': return same_word(w, n, "and") || same_word(w, n, "as") || same_word(w, n, "assert");
    case 'b': return same_word(w, n, "break");
    case 'c': return same_word(w, n, "class") || same_word(w, n, "continue");
    case 'd': return same_word(w, n, "def") || same_word(w, n, "del");
    case 'e': return same_word(w, n, "else") || same_word(w, n, "elif");
    case 'f': return same_word(w, n, "for");
    case 'g': return same_word(w, n, "global");
    case 'i': return same_word(w, n, "if") || same_word(w, n, "is") || same_word(w, n, "in") || same_word(w, n, "import");
    case 'n': return same_word(w, n, "not");
    case 'o': return same_word(w, n, "or");
    case 'p': return same_word(w, n, "pass");
    case 'r': return same_word(w, n, "return") || same_word(w, n, "raise");
    case 'w': return same_word(w, n, "while") || same_word(w, n, "with");
    case 'E': return same_word(w, n, "Ellipsis");
    case 'F': return same_word(w, n, "False");
    case 'N': return same_word(w, n, "None") || same_word(w, n, "NoneType");
    case 'T': return same_word(w, n, "True");
    default: return false;
  }
}
constexpr bool is_reserved_word(std::string_view w) { return is_reserved_word(w.data(), w.size()); }

// a == b, as cheap for the constant evaluator as it gets (libstdc++'s ==
// compares through char_traits, a few calls per character).
constexpr bool text_equal(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}

struct token {
  token_kind kind = token_kind::end;
  std::string_view text;
  std::size_t offset = 0;
  constexpr bool is(char c) const { return kind == token_kind::punct && text.size() == 1 && *text.data() == c; }
  constexpr bool is_keyword(std::string_view w) const { return kind == token_kind::keyword && text_equal(text, w); }
};

constexpr bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

class lexer {
 public:
  constexpr explicit lexer(std::string_view src) : p_(src.data()), n_(src.size()) { cur_ = scan(0); }

  constexpr const token& cur() const { return cur_; }
  constexpr token next() {
    token t = cur_;
    skip();
    return t;
  }
  // next() without the copy of the token passed over.
  constexpr void skip() {
    prev_end_ = cur_.offset + cur_.text.size();
    cur_ = scan(prev_end_);
  }
  // Where the last consumed token ended (to slice out the text of a default).
  constexpr std::size_t prev_end() const { return prev_end_; }
  constexpr token peek() const { return scan(cur_.offset + cur_.text.size()); }
  constexpr bool next_if(char c) {
    if (!cur_.is(c)) return false;
    skip();
    return true;
  }
  constexpr bool next_if(token_kind k) {
    if (cur_.kind != k) return false;
    skip();
    return true;
  }
  constexpr std::string_view source() const { return {p_, n_}; }

 private:
  constexpr token make(token_kind k, std::size_t b, std::size_t e) const { return token{k, std::string_view(p_ + b, e - b), b}; }

  constexpr token scan(std::size_t i) const {
    const std::size_t n = n_;
    for (;;) {
      while (i < n && is_space(p_[i])) ++i;
      if (i < n && p_[i] == '#') {  // comment to end of line
        while (i < n && p_[i] != '\n') ++i;
        continue;
      }
      break;
    }
    if (i >= n) return token{token_kind::end, std::string_view(p_ + n, 0), n};
    const char c = p_[i];
    if (is_ident_start(c)) {
      std::size_t e = i + 1;
      while (e < n && is_ident_char(p_[e])) ++e;
      return make(is_reserved_word(p_ + i, e - i) ? token_kind::keyword : token_kind::ident, i, e);
    }
    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(p_[i + 1]))) return scan_number(i);
    if (c == '.' && i + 2 < n && p_[i + 1] == '.' && p_[i + 2] == '.') return make(token_kind::dots, i, i + 3);
    if (c == '-' && i + 1 < n && p_[i + 1] == '>') return make(token_kind::arrow, i, i + 2);
    if (c == '\'' || c == '"') {
      std::size_t e = i + 1;
      while (e < n && p_[e] != c) e += (p_[e] == '\\' && e + 1 < n) ? 2 : 1;
      if (e >= n) return make(token_kind::error, i, n);
      return make(token_kind::string_literal, i, e + 1);
    }
    switch (c) {
      case '(': case ')': case '[': case ']': case ',': case '?': case '!':
      case '*': case '|': case '=': case '.': case ':': case '-':
        return make(token_kind::punct, i, i + 1);
      default:
        return make(token_kind::error, i, i + 1);
    }
  }

  // 0x hex digits, or digits [. digits] [e [+-] digits] [j], or . digits ... ; like strtod without
  // hex, inf and nan. The exponent is taken only when digits follow it.
  constexpr token scan_number(std::size_t i) const {
    const std::size_t n = n_;
    std::size_t e = i;
    if (p_[i] == '0' && i + 2 < n && (p_[i + 1] == 'x' || p_[i + 1] == 'X') && is_hex_digit(p_[i + 2])) {
      e = i + 2;  // a hex integer (real schemas write int mask=0x2FFFFFF)
      while (e < n && is_hex_digit(p_[e])) ++e;
      return make(token_kind::number, i, e);
    }
    while (e < n && is_digit(p_[e])) ++e;
    if (e < n && p_[e] == '.') {
      ++e;
      while (e < n && is_digit(p_[e])) ++e;
    }
    if (e < n && (p_[e] == 'e' || p_[e] == 'E')) {
      std::size_t x = e + 1;
      if (x < n && (p_[x] == '+' || p_[x] == '-')) ++x;
      if (x < n && is_digit(p_[x])) {
        while (x < n && is_digit(p_[x])) ++x;
        e = x;
      }
    }
    if (e < n && p_[e] == 'j') ++e;
    return make(token_kind::number, i, e);
  }

  // The source as pointer and size: characters are read as p_[i], which
  // costs g++'s constant evaluator no function call (string_view's [] does).
  const char* p_;
  std::size_t n_;
  token cur_{};
  std::size_t prev_end_ = 0;
};

}  // namespace opd::schema
