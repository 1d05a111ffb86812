#pragma once
// A small JSON reader for the tests' .jsonl data files: objects, arrays,
// strings (all escapes, \uXXXX with surrogate pairs, decoded to UTF-8),
// numbers, true / false / null. Test-only: it throws json::error on bad input
// and makes no attempt at speed beyond "a few MB in well under a second".
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace opd::test::json {

class error : public std::runtime_error {
 public:
  error(const std::string& what, std::size_t offset)
      : std::runtime_error("JSON: " + what + " at offset " + std::to_string(offset)), offset_(offset) {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

enum class kind { null, boolean, number, string, array, object };

class value {
 public:
  value() = default;

  kind type() const { return kind_; }
  bool is_null() const { return kind_ == kind::null; }
  bool is_bool() const { return kind_ == kind::boolean; }
  bool is_number() const { return kind_ == kind::number; }
  bool is_string() const { return kind_ == kind::string; }
  bool is_array() const { return kind_ == kind::array; }
  bool is_object() const { return kind_ == kind::object; }

  bool as_bool() const { return check(kind::boolean), boolean_; }
  double as_double() const { return check(kind::number), number_; }
  // The number exactly as written ("1", "-2.5e3"), to tell 1 from 1.0.
  const std::string& number_text() const { return check(kind::number), text_; }
  std::int64_t as_int() const {
    check(kind::number);
    return static_cast<std::int64_t>(std::strtoll(text_.c_str(), nullptr, 10));
  }
  const std::string& as_string() const { return check(kind::string), text_; }

  // Arrays.
  const std::vector<value>& items() const { return check(kind::array), items_; }
  std::size_t size() const { return kind_ == kind::object ? keys_.size() : items().size(); }
  const value& operator[](std::size_t i) const { return items().at(i); }
  const value& operator[](int i) const { return items().at(static_cast<std::size_t>(i)); }  // v[0] is not a key

  // Objects (member order is kept; keys() and items() run in parallel).
  const std::vector<std::string>& keys() const { return check(kind::object), keys_; }
  const std::vector<value>& members() const { return check(kind::object), items_; }
  const value* find(std::string_view key) const {
    check(kind::object);
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return &items_[i];
    return nullptr;
  }
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  const value& operator[](std::string_view key) const {
    if (const value* v = find(key)) return *v;
    throw std::out_of_range("JSON object has no member '" + std::string(key) + "'");
  }
  const value& operator[](const char* key) const { return (*this)[std::string_view(key)]; }

 private:
  friend class reader;
  void check(kind k) const {
    if (kind_ != k) throw std::logic_error("JSON value has another type than the one asked for");
  }

  kind kind_ = kind::null;
  bool boolean_ = false;
  double number_ = 0.0;
  std::string text_;               // string contents, or a number's spelling
  std::vector<value> items_;       // array elements, or object member values
  std::vector<std::string> keys_;  // object member names
};

class reader {
 public:
  explicit reader(std::string_view src) : s_(src) {}

  value document() {
    value v = parse_value(0);
    skip_space();
    if (i_ != s_.size()) fail("trailing characters after the value");
    return v;
  }

 private:
  static constexpr int max_depth = 512;

  [[noreturn]] void fail(const std::string& what) const { throw error(what, i_); }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  value parse_value(int depth) {
    if (depth > max_depth) fail("nesting too deep");
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end of input");
    value v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind_ = kind::object;
      if (eat('}')) return v;
      do {
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a member name");
        v.keys_.push_back(parse_string());
        expect(':');
        v.items_.push_back(parse_value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++i_;
      v.kind_ = kind::array;
      if (eat(']')) return v;
      do v.items_.push_back(parse_value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind_ = kind::string;
      v.text_ = parse_string();
    } else if (word("true")) {
      v.kind_ = kind::boolean;
      v.boolean_ = true;
    } else if (word("false")) {
      v.kind_ = kind::boolean;
    } else if (word("null")) {
      v.kind_ = kind::null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      parse_number(v);
    } else {
      fail("unexpected character");
    }
    return v;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  void parse_number(value& v) {
    const std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    if (i_ >= s_.size() || !digit(s_[i_])) fail("expected a digit");
    if (s_[i_] == '0') ++i_;
    else while (i_ < s_.size() && digit(s_[i_])) ++i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !digit(s_[i_])) fail("expected a digit after '.'");
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !digit(s_[i_])) fail("expected a digit in the exponent");
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    v.kind_ = kind::number;
    v.text_.assign(s_.substr(start, i_ - start));
    v.number_ = std::strtod(v.text_.c_str(), nullptr);
  }

  unsigned hex4() {
    if (s_.size() - i_ < 4) fail("truncated \\u escape");
    unsigned u = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      u <<= 4;
      if (digit(c)) u |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') u |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') u |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return u;
  }

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string parse_string() {
    ++i_;  // opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      switch (s_[i_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
            if (!word("\\u")) fail("unpaired surrogate in \\u escape");
            const std::uint32_t lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("unpaired surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("unpaired surrogate in \\u escape");
          }
          put_utf8(out, cp);
          break;
        }
        default: --i_; fail("unknown escape");
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

inline value parse(std::string_view text) { return reader(text).document(); }

}  // namespace opd::test::json
